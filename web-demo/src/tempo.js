// Tap tempo: the BPM from the last taps (median interval of up to 8 taps; a pause of more than
// 2 s starts over). Pure logic; the page feeds it performance.now() timestamps.

export const BPM_MIN = 60;
export const BPM_MAX = 200;

export function clampBpm(bpm) {
  return Math.min(BPM_MAX, Math.max(BPM_MIN, bpm));
}

export class TapTempo {
  constructor({ maxTaps = 8, resetAfterMs = 2000 } = {}) {
    this.maxTaps = maxTaps;
    this.resetAfterMs = resetAfterMs;
    this.taps = [];
  }

  /** Record a tap at time `ms`; returns the BPM (rounded to 0.1) once there are 4 taps, else null. */
  tap(ms) {
    const last = this.taps[this.taps.length - 1];
    if (last !== undefined && (ms - last > this.resetAfterMs || ms <= last)) this.taps = [];
    this.taps.push(ms);
    if (this.taps.length > this.maxTaps) this.taps.shift();
    if (this.taps.length < 4) return null;
    const gaps = this.taps.slice(1).map((t, i) => t - this.taps[i]).sort((a, b) => a - b);
    const median = gaps[gaps.length >> 1];
    return Math.round(clampBpm(60000 / median) * 10) / 10;
  }

  get count() {
    return this.taps.length;
  }
}
