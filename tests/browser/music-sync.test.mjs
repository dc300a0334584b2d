// The demo's motion locked to the music in Debian's Chromium:
// a generated track with known beats (tests/data/gen-beat-tracks.mjs) dropped on the page is detected,
// the catwalk is generated on the detection's beat grid and its heel strikes (as the core measured them
// on the landed motion) fall on the track's true beats; while the song plays the motion's frame follows
// the song's clock, also after a seek. The tracing mode bakes its keyframes on the same grid: on a track
// whose first beat is late and whose tempo changes, every traced span starts and ends on the track's
// beats, and the motion runs to the song's end.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { browserUnavailable, demoSuite } from './support/browser.mjs';
import { TRACKS, renderTrack } from '../data/gen-beat-tracks.mjs';
import { createProcMotion } from '../../js-glue/index.js';

const SKIP = browserUnavailable() ?? false;
if (SKIP) console.log(`# ${SKIP}`);

// Heel strikes against the track's beats: the detection's error (MIREX's window is 70 ms; measured here
// well inside it) plus the half frame of a strike on whole frames.
const TOLERANCE = 0.07 + 0.5 / 30;

let pm;
const demo = demoSuite(SKIP, async () => { pm = await createProcMotion({ load: 'beats' }); });

/** Drop WAV bytes on the page as a file (what a user dragging a song does). */
async function dropSong(page, wav, name) {
  await page.evaluate(async ([b64, fileName]) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([data], fileName, { type: 'audio/wav' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [Buffer.from(wav).toString('base64'), name]);
}

/** Seconds from t to the nearest of the track's beats. */
const offBeat = (beats, t) => Math.min(...Array.from(beats, (b) => Math.abs(b - t)));

test('a song drives the catwalk: detected BPM, heel strikes on the track\'s beats, the frame on the song\'s clock', { skip: SKIP }, async () => {
  const spec = TRACKS.find((t) => t.id === 'house-124');
  const track = renderTrack({ ...spec, rate: 22050, channels: 1 }, { seconds: 16 });
  const wav = pm.writeWav(track.samples, track.sampleRate, { channels: 1 });
  const { page, errors, context } = await demo.open({ viewport: { width: 1280, height: 800 } });
  try {
    await dropSong(page, wav, 'house-124.wav');
    await page.waitForFunction(() => {
      const a = window.demo.app;
      return a.music.state === 'ready' && a.tempoSource === 'music' && a.motion?.looping === false;
    }, null, { timeout: 60_000 });
    const s = await page.evaluate(() => {
      const a = window.demo.app;
      return { bpm: a.music.result.bpm, pageBpm: a.bpm, strikes: a.motion.plan.strikes, sync: a.motion.sync, frames: a.motion.loopFrames };
    });
    assert.ok(Math.abs(s.bpm - 124) / 124 < 0.04 && Math.abs(s.pageBpm - 124) < 1, `detected ${s.bpm}, page ${s.pageBpm}`);
    // played when the page has the model's skeleton, as keyed when it hands the core bone names only
    assert.ok(['played', 'keyed'].includes(s.sync.measured) && s.sync.maxErrorFrames <= 0.5, JSON.stringify(s.sync));
    assert.ok(s.frames >= 30 * track.beats.at(-1) - 1, `${s.frames} frames for a song whose last beat is at ${track.beats.at(-1)} s`);
    let worst = 0, n = 0;
    for (const k of s.strikes) {
      const sec = k.frame / 30;
      if (sec < track.beats[0] - 0.1 || sec > track.beats.at(-1) + 0.1) continue;
      worst = Math.max(worst, offBeat(track.beats, sec));
      n++;
    }
    assert.ok(n >= 12, `${n} strikes inside the song`);
    assert.ok(worst <= TOLERANCE, `a heel strike ${(1000 * worst).toFixed(1)} ms from the track's beat (tolerance ${(1000 * TOLERANCE).toFixed(0)} ms)`);

    // playing: the motion's frame is the song's time x 30, also after a seek
    const lag = async () => page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => {
      const a = window.demo.app;
      ok({ frame: a.viewer.frame, song: a.music.position, playing: a.music.playing });
    }))));
    await page.evaluate(() => window.demo.app.music.play());
    await page.waitForTimeout(1200);
    let l = await lag();
    assert.ok(l.playing && Math.abs(l.frame - 30 * l.song) < 3, `frame ${l.frame} at ${l.song} s`);
    await page.evaluate(() => window.demo.app.music.seek(9.5));
    await page.waitForTimeout(600);
    l = await lag();
    assert.ok(l.song > 9.5 && Math.abs(l.frame - 30 * l.song) < 3, `after the seek: frame ${l.frame} at ${l.song} s`);
    await page.evaluate(() => window.demo.app.music.pause());
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a song drives the tracing mode: keyframes on the track\'s beats (a late first beat, a tempo change), the motion to the song\'s end', { skip: SKIP }, async () => {
  // 120 BPM from 0.37 s, 150 BPM from 8 s: beat 0 is not at 0 s and the beats are not 15 frames apart
  const spec = { id: 'trace-change-120-150', style: 'four', tempo: { change: [120, 150, 8] }, start: 0.37 };
  const track = renderTrack({ ...spec, rate: 22050, channels: 1 }, { seconds: 16 });
  const wav = pm.writeWav(track.samples, track.sampleRate, { channels: 1 });
  const { page, errors, context } = await demo.open({ viewport: { width: 1280, height: 800 } });
  try {
    await dropSong(page, wav, 'trace-change.wav');
    await page.waitForFunction(() => window.demo.app.music.state === 'ready' && window.demo.app.tempoSource === 'music', null, { timeout: 60_000 });
    await page.locator('#mode').selectOption('tracing');
    await page.waitForFunction(() => window.demo.app.motionMode === 'tracing' && window.demo.app.tracing?.session, null, { timeout: 30_000 });
    const s = await page.evaluate(async () => {
      const a = window.demo.app;
      for (const p of [[3, 15, -2], [4.5, 17, -1], [3.5, 13.5, -2]]) a.tracing.session.addPoint(a.trace, 'leftHand', p); // within the arm's reach
      await a.tracing.generateKeyframes();
      const m = a.motion;
      // the traced spans as the bake wrote them: runs of frames on which the left hand follows its path
      const runs = [];
      for (let f = 0; f <= m.plan.frames; f++) {
        const on = m.plan.active[4 * f] === 1;
        if (on && !(f > 0 && m.plan.active[4 * (f - 1)] === 1)) runs.push([f, f]);
        if (on) runs.at(-1)[1] = f;
      }
      return { mode: a.motionMode, phase: a.trace.phase, runs, sync: m.sync, loopFrames: m.loopFrames, viewerLoop: a.viewer.loopFrames,
        looping: m.looping, duration: a.music.duration, trace: a.tracing.played.traceBeats };
    });
    assert.equal(s.mode, 'tracing');
    assert.equal(s.phase, 'play', 'the keyframes play');
    assert.ok(s.sync && s.sync.count > 0 && s.sync.maxErrorFrames <= 0.5, `keyframes against the page's grid: ${JSON.stringify(s.sync)}`);
    assert.equal(s.looping, false);
    assert.equal(s.viewerLoop, s.loopFrames, 'the viewer loops at what the bake wrote');
    assert.ok(s.loopFrames >= 30 * track.beats.filter((b) => b <= s.duration).at(-1) - 1,
      `${s.loopFrames} frames for a song whose last beat is at ${track.beats.filter((b) => b <= s.duration).at(-1).toFixed(2)} s`);
    // every traced span inside the song starts and ends on one of the track's beats (before the change
    // and after it); the old bake at the plain BPM put the first at 0 s, 0.37 s before the first beat
    const edges = s.runs.flat().map((f) => f / 30).filter((sec) => sec <= track.beats.at(-1) + 0.1);
    const before = edges.filter((sec) => sec < 8).length, after = edges.length - before;
    assert.ok(before >= 4 && after >= 4, `${before} span edges before the tempo change, ${after} after (runs ${JSON.stringify(s.runs)})`);
    const worst = Math.max(...edges.map((sec) => offBeat(track.beats, sec)));
    console.log(`# music sync: tracing on a 120 -> 150 BPM track from 0.37 s: ${s.runs.length} traced spans over ${s.loopFrames} frames, `
      + `span edges at most ${(1000 * worst).toFixed(1)} ms from the track's beats; keyframes ${s.sync.maxErrorFrames} frames from the page's grid`);
    // a span's first traced frame may be the one after its key's (the frame's beat, computed back from its time)
    assert.ok(worst <= TOLERANCE + 0.5 / 30, `a traced span's edge ${(1000 * worst).toFixed(1)} ms from the track's beat (tolerance ${(1000 * (TOLERANCE + 0.5 / 30)).toFixed(0)} ms)`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
