// The demo's motion locked to the music in Debian's Chromium (issue 18, "Motion that follows the beats"):
// a generated track with known beats (tests/data/gen-beat-tracks.mjs) dropped on the page is detected,
// the catwalk is generated on the detection's beat grid and its heel strikes (as the core measured them
// on the landed motion) fall on the track's true beats; while the song plays the motion's frame follows
// the song's clock, also after a seek.
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

test('a song drives the catwalk: detected BPM, heel strikes on the track\'s beats, the frame on the song\'s clock', { skip: SKIP }, async () => {
  const spec = TRACKS.find((t) => t.id === 'house-124');
  const track = renderTrack({ ...spec, rate: 22050, channels: 1 }, { seconds: 16 });
  const wav = pm.writeWav(track.samples, track.sampleRate, { channels: 1 });
  const { page, errors, context } = await demo.open({ viewport: { width: 1280, height: 800 } });
  try {
    await page.evaluate(async (b64) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([data], 'house-124.wav', { type: 'audio/wav' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, Buffer.from(wav).toString('base64'));
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
    assert.ok(['played', 'keyed'].includes(s.sync.measured) && s.sync.maxError <= 0.5, JSON.stringify(s.sync));
    assert.ok(s.frames >= 30 * track.beats.at(-1) - 1, `${s.frames} frames for a song whose last beat is at ${track.beats.at(-1)} s`);
    let worst = 0, n = 0;
    for (const k of s.strikes) {
      const sec = k.frame / 30;
      if (sec < track.beats[0] - 0.1 || sec > track.beats.at(-1) + 0.1) continue;
      worst = Math.max(worst, Math.min(...Array.from(track.beats, (b) => Math.abs(b - sec))));
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
