// The demo's Music control in Debian's Chromium: a generated track with known beats
// (tests/data/gen-beat-tracks.mjs) dropped on the page is read by the core's WAV reader, its beats are
// detected, the BPM and offset fields fill in and the motion takes the tempo; the lane's beat marks
// sit on the track's beats (and are drawn where the page says), downbeats marked; the song plays and
// seeks through Web Audio. The same kind of track as OGG (ffmpeg) goes through the browser's decoder.
// A broken WAV shows the core's message and the song that was loaded stays.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { REPO_ROOT, browserUnavailable, demoSuite } from './support/browser.mjs';
import { TRACKS, renderTrack } from '../data/gen-beat-tracks.mjs';
import { FEATURE_MODULES, createProcMotion } from '../../js-glue/index.js';

const SKIP = browserUnavailable() ?? false;
if (SKIP) console.log(`# ${SKIP}`);
const HAVE_FFMPEG = spawnSync('ffmpeg', ['-hide_banner', '-version'], { encoding: 'utf8' }).status === 0;

let pm;
const demo = demoSuite(SKIP, async () => { pm = await createProcMotion({ load: FEATURE_MODULES }); });

/** A short mono 22.05 kHz rendering of a test track (small to hand to the page, quick to analyse). */
function track(id, seconds = 16) {
  return renderTrack({ ...TRACKS.find((t) => t.id === id), rate: 22050, channels: 1 }, { seconds });
}

function openDemo() {
  return demo.open({ viewport: { width: 1280, height: 800 } });
}

/** Drops a file on the page as the browser does (a DataTransfer on a drop event). */
async function dropFile(page, name, bytes, type) {
  await page.evaluate(async ([fileName, b64, mime]) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([data], fileName, { type: mime }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, Buffer.from(bytes).toString('base64'), type]);
}

const musicState = (page) => page.evaluate(() => {
  const m = window.demo.app.music;
  return { state: m.state, name: m.name, decoder: m.decoder, position: m.position, playing: m.playing, duration: m.duration,
    bpm: m.result?.bpm, beatsPerBar: m.result?.beatsPerBar };
});

/** Seek the song (paused) and return the lane's last drawing with the tick-row pixels under each mark. */
async function laneAt(page, seconds) {
  return page.evaluate(async (s) => {
    const m = window.demo.app.music;
    m.pause();
    m.seek(s);
    const d = m.lane.lastDraw;
    const c = m.lane.canvas;
    const g = c.getContext('2d');
    const k = c.width / d.width;
    const px = (x, y) => Array.from(g.getImageData(Math.floor(x * k), Math.floor(y * k), 1, 1).data);
    // a mark is drawn on the pixel column Math.round(x); the playhead (yellow) may cover one
    const head = ((d.position - d.t0) / (d.t1 - d.t0)) * d.width;
    const ticks = d.marks.map((mk) => ({ ...mk, underHead: Math.abs(Math.round(mk.x) - head) < 3, pixel: px(Math.round(mk.x), mk.downbeat ? 2 : 6) }));
    const gaps = d.marks.slice(1).map((mk, i) => px((mk.x + d.marks[i].x) / 2, 6));
    return { ...d, marks: ticks, gaps };
  }, seconds);
}

/** Every mark on a truth beat (within 70 ms, MIREX's window) with the truth's bar position; every truth beat in view marked. */
function checkMarks(lane, truth, label) {
  const inView = Array.from(truth.beats).filter((b) => b >= lane.t0 + 0.05 && b <= lane.t1 - 0.05);
  assert.ok(inView.length >= 8, `${label}: ${inView.length} truth beats in the lane's ${lane.t1 - lane.t0} s`);
  for (const b of inView) assert.ok(lane.marks.some((mk) => Math.abs(mk.time - b) <= 0.07), `${label}: no mark at the beat ${b.toFixed(3)} s`);
  let worst = 0;
  for (const mk of lane.marks) {
    let best = -1;
    for (let i = 0; i < truth.beats.length; i++) if (best < 0 || Math.abs(truth.beats[i] - mk.time) < Math.abs(truth.beats[best] - mk.time)) best = i;
    const err = Math.abs(truth.beats[best] - mk.time);
    worst = Math.max(worst, err);
    assert.ok(err <= 0.07, `${label}: the mark at ${mk.time.toFixed(3)} s is ${(err * 1000).toFixed(0)} ms from the nearest beat`);
    assert.equal(mk.downbeat, truth.barPositions[best] === 1, `${label}: the mark at ${mk.time.toFixed(3)} s ${mk.downbeat ? 'is' : 'is not'} a downbeat`);
    assert.ok(Math.abs(mk.x - ((mk.time - lane.t0) / (lane.t1 - lane.t0)) * lane.width) < 1e-6, `${label}: mark x`);
  }
  return worst;
}

describe('web demo: Music', { skip: SKIP, timeout: 180_000 }, () => {
  test('a dropped WAV: BPM and offset fill in, the motion takes the tempo, the beat marks are on the beats, it plays and seeks', async () => {
    const { page, errors, context } = await openDemo();
    try {
      const truth = track('house-124');
      const wav = pm.writeWav(truth.samples, truth.sampleRate, { channels: 1 });
      const t0 = Date.now();
      await dropFile(page, 'house-124.wav', wav, 'audio/wav');
      await page.waitForFunction(() => window.demo.app.music.state === 'ready', null, { timeout: 30_000 });
      const s = await musicState(page);
      console.log(`# music: house-124 (16 s, 22.05 kHz) read, decoded and analysed in ${Date.now() - t0} ms: ${s.bpm.toFixed(2)} BPM`);
      assert.equal(s.decoder, 'core', 'a WAV goes through the core reader');
      assert.ok(Math.abs(s.duration - 16) < 0.01, `duration ${s.duration}`);
      const page1 = await page.evaluate(() => ({
        bpm: Number(document.querySelector('#bpm').value), offset: Number(document.querySelector('#offset').value),
        appBpm: window.demo.app.bpm, source: window.demo.app.tempoSource, gridBeats: window.demo.app.beatGrid?.beats?.length ?? 0,
        info: document.querySelector('#music-info').textContent, laneHidden: document.querySelector('#music-canvas').hidden,
      }));
      assert.ok(Math.abs(page1.bpm - 124) <= 0.1, `BPM field ${page1.bpm}`);
      assert.equal(page1.appBpm, page1.bpm);
      assert.equal(page1.source, 'music');
      assert.ok(page1.gridBeats > 20, 'the grid holds the detected beats');
      assert.ok(Math.abs(page1.offset - truth.beats[0]) <= 0.02, `offset ${page1.offset}, first beat ${truth.beats[0]}`);
      assert.match(page1.info, /124\.0 BPM, 4\/4/);
      assert.equal(page1.laneHidden, false);
      await page.waitForFunction(() => Math.abs(window.demo.viewer.motion.beatFrames - 1800 / 124) < 0.05, null, { timeout: 10_000 });

      // the lane at 8 s: marks on the truth's beats, downbeats where the bars start, drawn where listed
      const lane = await laneAt(page, 8);
      assert.ok(Math.abs(lane.position - 8) < 1e-9);
      assert.ok(lane.t0 < 8 && lane.t1 > 8);
      const worst = checkMarks(lane, truth, 'house-124');
      console.log(`# music: ${lane.marks.length} marks in ${lane.t0.toFixed(2)}..${lane.t1.toFixed(2)} s, worst ${(worst * 1000).toFixed(1)} ms from a beat`);
      assert.ok(lane.marks.some((mk) => mk.downbeat) && lane.marks.some((mk) => !mk.downbeat));
      for (const mk of lane.marks.filter((x) => !x.underHead)) {
        const [r, g, b, a] = mk.pixel;
        assert.ok(a > 200, `a tick is drawn at x ${mk.x.toFixed(1)} (${mk.pixel})`);
        if (mk.downbeat) assert.ok(g > 200 && r < 215 && b < 160, `downbeat tick green (${mk.pixel})`);
        else assert.ok(Math.abs(r - 154) < 12 && Math.abs(b - 170) < 12, `beat tick grey (${mk.pixel})`);
      }
      for (const p of lane.gaps) assert.ok(p[3] < 40, `nothing in the tick row between beats (${p})`);

      // plays through Web Audio; the motion plays too; pause holds; seeking while playing goes on from there
      await page.evaluate(() => window.demo.viewer.pause());
      await page.click('#music-play');
      await page.waitForTimeout(800);
      const playing = await musicState(page);
      assert.ok(playing.playing, 'playing');
      assert.ok(playing.position > 8.4 && playing.position < 9.6, `position ${playing.position} after 0.8 s from 8 s`);
      assert.equal(await page.evaluate(() => window.demo.viewer.playing), true, 'the motion plays with the music');
      const drawn = await page.evaluate(() => window.demo.app.music.lane.lastDraw.position);
      assert.ok(Math.abs(drawn - playing.position) < 0.3, `the lane follows the playback (${drawn} vs ${playing.position})`);
      await page.evaluate(() => window.demo.app.music.seek(2));
      await page.waitForTimeout(300);
      const sought = await musicState(page);
      assert.ok(sought.playing && sought.position > 2 && sought.position < 2.8, `after a seek to 2 s: ${sought.position}`);
      await page.click('#music-play');
      const paused = await musicState(page);
      await page.waitForTimeout(300);
      const still = await musicState(page);
      assert.ok(!paused.playing && still.position === paused.position, 'paused: the position holds');

      // a broken WAV: the core's message, the song stays
      await page.locator('#file-audio').setInputFiles({ name: 'broken.wav', mimeType: 'audio/wav',
        buffer: Buffer.concat([Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(6)]) });
      await page.waitForFunction(() => !document.querySelector('#errors').hidden, null, { timeout: 10_000 });
      const banner = await page.locator('#errors').innerText();
      assert.match(banner, /broken\.wav/);
      assert.match(banner, /wav:/, `the core's message: ${banner}`);
      const after = await musicState(page);
      assert.equal(after.name, 'house-124.wav');
      assert.equal(after.state, 'ready');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('Dance mode: a loop at the tempo without a song; a dropped song danced from its first beat to its last, seek included', async () => {
    const { page, errors, context } = await openDemo();
    try {
      await page.locator('#mode').selectOption('dance');
      await page.waitForFunction(() => window.demo.app.motionMode === 'dance' && window.demo.app.motion?.name?.startsWith('dance') &&
        !window.demo.viewer.motion?.next, null, { timeout: 30_000 });
      const loop = await page.evaluate(() => ({ loop: window.demo.viewer.loopFrames, song: window.demo.app.motion.song,
        bpm: window.demo.app.motion.bpm, body: window.demo.app.motion.body, params: document.querySelectorAll('#mode-controls .param').length }));
      assert.ok(!loop.song && loop.loop === 480 && loop.bpm === 120 && loop.params === 7, JSON.stringify(loop).slice(0, 200));
      assert.ok(loop.body.hands.left.clearance > 0 && loop.body.hands.right.clearance > 0);

      const truth = track('house-124', 20);
      await dropFile(page, 'house-124.wav', pm.writeWav(truth.samples, truth.sampleRate, { channels: 1 }), 'audio/wav');
      await page.waitForFunction(() => window.demo.app.music.state === 'ready' && window.demo.app.motion?.song === true, null, { timeout: 30_000 });
      const song = await page.evaluate(() => {
        const m = window.demo.app.motion;
        return { frames: m.frames, loop: window.demo.viewer.loopFrames, phrases: m.phrases.length, landed: m.report.landed,
          hands: Math.min(m.body.hands.left.clearance, m.body.hands.right.clearance), last: window.demo.app.music.result.beats.at(-1) };
      });
      assert.ok(song.loop === song.frames && song.frames >= 30 * song.last, JSON.stringify(song));
      assert.ok(song.phrases >= 2 && song.landed && song.hands > 0, JSON.stringify(song));
      // the dance is locked to the song: played from 12 s, the motion is at 12 s and on
      await page.evaluate(() => { window.demo.app.music.seek(12); });
      await page.click('#music-play');
      await page.waitForTimeout(500);
      const at = await page.evaluate(() => ({ frame: window.demo.viewer.frame, position: window.demo.app.music.position }));
      assert.ok(Math.abs(at.frame / 30 - at.position) < 0.2 && at.position > 12, JSON.stringify(at));
      await page.click('#music-play');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('an OGG (through the browser decoder): a waltz read at its tempo, bars of three', { skip: !HAVE_FFMPEG && 'SKIP: no ffmpeg (apt-get install ffmpeg)' }, async () => {
    const { page, errors, context } = await openDemo();
    try {
      const truth = track('waltz-88', 20);
      const wav = pm.writeWav(truth.samples, truth.sampleRate, { channels: 1 });
      const ogg = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'wav', '-i', 'pipe:0', '-c:a', 'libvorbis', '-q:a', '4', '-f', 'ogg', 'pipe:1'],
        { input: wav, maxBuffer: 1 << 26 });
      assert.equal(ogg.status, 0, String(ogg.stderr));
      await page.locator('#file-audio').setInputFiles({ name: 'waltz-88.ogg', mimeType: 'audio/ogg', buffer: ogg.stdout });
      await page.waitForFunction(() => window.demo.app.music.state === 'ready', null, { timeout: 30_000 });
      const s = await musicState(page);
      assert.equal(s.decoder, 'browser');
      assert.equal(s.beatsPerBar, 3);
      assert.ok(Math.abs(Number(await page.locator('#bpm').inputValue()) - 88) <= 0.1, 'BPM field');
      const lane = await laneAt(page, 10);
      const worst = checkMarks(lane, truth, 'waltz-88.ogg');
      console.log(`# music: waltz-88.ogg (${(ogg.stdout.length / 1024).toFixed(0)} KiB): ${s.bpm.toFixed(2)} BPM, 3/4, worst mark ${(worst * 1000).toFixed(1)} ms from a beat`);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('docs/demo-music.png (PM_UPDATE_DOCS_SCREENSHOT=1)', { skip: !process.env.PM_UPDATE_DOCS_SCREENSHOT && 'set PM_UPDATE_DOCS_SCREENSHOT=1 to rewrite docs/demo-music.png' }, async () => {
    const { page, context } = await openDemo();
    try {
      const truth = track('rock-100', 30);
      await dropFile(page, 'rock-100.wav', pm.writeWav(truth.samples, truth.sampleRate, { channels: 1 }), 'audio/wav');
      await page.waitForFunction(() => window.demo.app.music.state === 'ready', null, { timeout: 30_000 });
      await laneAt(page, 12.3);
      await page.evaluate(() => { window.demo.viewer.pause(); window.demo.viewer.seek(4.5 * window.demo.viewer.motion.beatFrames); });
      const png = await page.locator('#curves').screenshot({ path: join(REPO_ROOT, 'docs/demo-music.png') });
      console.log(`# music: wrote docs/demo-music.png (${png.length} bytes)`);
      assert.ok(png.length < 120 * 1024, `docs/demo-music.png is ${png.length} bytes (keep it under 120 KB)`);
    } finally {
      await context.close();
    }
  });
});

test('docs/demo-music.png stays under 120 KB', { skip: !existsSync(join(REPO_ROOT, 'docs/demo-music.png')) && 'SKIP: no docs/demo-music.png yet' }, () => {
  assert.ok(statSync(join(REPO_ROOT, 'docs/demo-music.png')).size < 120 * 1024);
});
