// Beat-tracking metrics as MIREX states them (Davies, Degara & Plumbley 2009; mir_eval.beat and
// mir_eval.tempo): the F-measure of beats matched within +-70 ms, beats before 5 s ignored; tempo
// Acc1 (within 4 %) and Acc2 (within 4 % of the tempo or of 2x, 3x, 1/2x, 1/3x it, octave errors
// allowed). Used by the tests (tests/node/beats.test.mjs) and the benchmark (bench/rows/beats.mjs).

/** Beats at or after `from` seconds (mir_eval.beat.trim_beats, 5 s by default). */
export function trimBeats(beats, from = 5) {
  return Array.from(beats).filter((t) => t >= from);
}

/** Count of one-to-one matches between sorted ref and est within +-window (each used once). */
export function matchCount(ref, est, window = 0.07) {
  let i = 0, j = 0, hits = 0;
  while (i < ref.length && j < est.length) {
    const d = est[j] - ref[i];
    if (Math.abs(d) <= window) hits++, i++, j++;
    else if (d < 0) j++;
    else i++;
  }
  return hits;
}

/** MIREX beat F-measure: both sequences trimmed at 5 s, +-70 ms. */
export function fMeasure(reference, estimated, { window = 0.07, trim = 5 } = {}) {
  const ref = trimBeats(reference, trim), est = trimBeats(estimated, trim);
  if (!ref.length || !est.length) return 0;
  const hits = matchCount(ref, est, window);
  const p = hits / est.length, r = hits / ref.length;
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

/** Tempo within 4 % (Acc1), or within 4 % of 1x, 2x, 3x, 1/2x, 1/3x (Acc2). */
export function tempoAccuracy(estimated, reference, tolerance = 0.04) {
  const ok = (f) => Math.abs(estimated - reference * f) <= tolerance * reference * f;
  return { acc1: ok(1), acc2: [1, 2, 3, 1 / 2, 1 / 3].some(ok) };
}

/** Mean absolute timing error (s) of the matched beats (after trimming), and the mean signed error. */
export function timingError(reference, estimated, { window = 0.07, trim = 5 } = {}) {
  const ref = trimBeats(reference, trim), est = trimBeats(estimated, trim);
  let i = 0, j = 0, abs = 0, signed = 0, n = 0;
  while (i < ref.length && j < est.length) {
    const d = est[j] - ref[i];
    if (Math.abs(d) <= window) abs += Math.abs(d), signed += d, n++, i++, j++;
    else if (d < 0) j++;
    else i++;
  }
  return { mean: n ? abs / n : NaN, bias: n ? signed / n : NaN, matched: n };
}

/** Everything for one track: beats F, tempo accuracy, downbeat F and the meter. */
export function evaluateTrack(truth, result) {
  const f = fMeasure(truth.beats, result.beats);
  const downRef = Array.from(truth.beats).filter((_, i) => truth.barPositions[i] === 1);
  const downEst = result.downbeats ?? Array.from(result.beats).filter((_, i) => result.barPositions?.[i] === 1);
  const timing = timingError(truth.beats, result.beats);
  const out = { f, downbeatF: fMeasure(downRef, downEst), meterOk: result.beatsPerBar === truth.meter, timing };
  if (truth.bpm) Object.assign(out, tempoAccuracy(result.bpm, truth.bpm));
  return out;
}
