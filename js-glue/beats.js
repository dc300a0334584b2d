// procmotion beats: beat tracking, the beat grid, tap tempo and WAV over the wasm core (docs/music.md).
//
//   const beats = pm.detectBeats(audioBuffer);                 // or (Float32Array, sampleRate, options)
//   beats.bpm, beats.beats, beats.barPositions, beats.downbeats, beats.tempoCurve, beats.onsetEnvelope
//   const grid = pm.beatGrid(beats);                           // or pm.beatGrid(128) / ({ bpm, offset })
//   pm.beatGridTime(grid, 16);                                 // seconds of beat 16
//   const tap = pm.createTapTempo(); tap.tap(performance.now()) // -> a grid once 4 taps are in
//   const t = pm.createBeatTracker(48000, { channels: 1 });    // streaming / real time
//   t.push(chunk); t.now();                                    // { bpm, lastBeat, nextBeat, phase, ... }
//   const audio = pm.readWav(bytes); const bytes = pm.writeWav(samples, 44100, { channels: 2 });
//
// procmotion's 'beats' feature module (procmotion-beats.wasm): index.js imports this file on the first
// pm.loadAsync('beats') (all.js at startup) and puts `api` on the ProcMotion.
import { ERROR_SIZE, ProcMotionError, gridOf, toBytes, withScratch } from './runtime.js';

const CHUNK = 32768; // frames handed to the core per push
const OPTION_KEYS = ['minBpm', 'maxBpm', 'priorBpm', 'tightness', 'beatsPerBar', 'steady', 'maxSeconds'];
const HEADER = 11; // doubles in pm_abi_beats_finish's block (wasm/abi/abi_beats.c)
import { WAV_ENCODINGS } from './constants.js';

/** Whether x looks like a Web Audio AudioBuffer (or anything with its shape). */
function isAudioBuffer(x) {
  return !!x && typeof x.getChannelData === 'function' && Number.isInteger(x.numberOfChannels) && typeof x.sampleRate === 'number';
}

/** The beat methods, and the BeatTracker and TapTempo classes. */
function installBeats() {
  const fail = (message, code = 'PM_ERR_INVALID_ARGUMENT') => new ProcMotionError(message, code, 'beats');

  function optionVector(o = {}) {
    if (o === null || typeof o !== 'object') throw fail('detectBeats: options must be an object');
    const v = new Float64Array(7);
    OPTION_KEYS.forEach((k, i) => {
      const x = o[k];
      if (x === undefined || x === null) return;
      if (k === 'steady') { v[i] = x ? 1 : 0; return; }
      if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) throw fail(`detectBeats: options.${k} must be a finite number >= 0, got ${x}`);
      v[i] = x;
    });
    return v;
  }

  /** A streaming tracker (procmotion/beats.h pm_beat_tracker): push chunks, ask now(), finish(). */
  class BeatTracker {
    constructor(pm, sampleRate, options = {}) {
      this.pm = pm;
      const channels = options.channels ?? 1;
      if (!Number.isInteger(channels) || channels < 1 || channels > 32) throw fail(`beats: channels must be 1..32, got ${channels}`);
      if (typeof sampleRate !== 'number' || !Number.isFinite(sampleRate)) throw fail(`beats: sampleRate must be a number, got ${sampleRate}`);
      this.channels = channels;
      this.sampleRate = sampleRate;
      const mod = pm.mod, s = pm._scratch();
      try {
        const errPtr = s.alloc(ERROR_SIZE);
        const opts = s.put(optionVector(options), Float64Array);
        this.handle = mod.pm_abi_beats_create(sampleRate, channels, opts, 7, errPtr);
        if (!this.handle) throw pm._error(errPtr, 'beats');
        this.buf = mod.pm_abi_alloc(CHUNK * channels * 4 + ERROR_SIZE + 48);
        if (!this.buf) throw fail('beats: out of wasm memory', 'PM_ERR_OUT_OF_MEMORY');
        this.errPtr = this.buf + CHUNK * channels * 4;
        this.outPtr = this.errPtr + ERROR_SIZE;
      } catch (e) {
        if (this.handle) mod.pm_abi_beats_free(this.handle);
        this.handle = 0;
        throw e;
      } finally {
        s.free();
      }
    }

    _live() {
      if (!this.handle) throw fail('beats: this tracker was freed');
    }

    /** r, an export's result: not 0 throws the core's error. */
    _ok(r) {
      if (r !== 0) throw this.pm._error(this.errPtr, 'beats');
    }

    /** Feed interleaved samples (a Float32Array, or an array of numbers) of any length. */
    push(samples) {
      this._live();
      const x = samples instanceof Float32Array ? samples : Float32Array.from(samples ?? []);
      if (x.length % this.channels) throw fail(`beats: ${x.length} samples are not whole frames of ${this.channels} channels`);
      const mod = this.pm.mod, per = CHUNK * this.channels;
      for (let i = 0; i < x.length; i += per) {
        const part = x.subarray(i, Math.min(x.length, i + per));
        mod.HEAPF32.set(part, this.buf >> 2);
        this._ok(mod.pm_abi_beats_push(this.handle, this.buf, part.length / this.channels, this.errPtr));
      }
    }

    /** The real-time estimate from what was pushed: { time, bpm, lastBeat, nextBeat, phase, confidence }. */
    now() {
      this._live();
      const mod = this.pm.mod;
      this._ok(mod.pm_abi_beats_now(this.handle, this.outPtr, this.errPtr));
      const v = new Float64Array(mod.HEAPU8.buffer, this.outPtr, 6);
      return { time: v[0], bpm: v[1], lastBeat: v[2], nextBeat: v[3], phase: v[4], confidence: v[5] };
    }

    /** The full analysis of everything pushed so far (detectBeats' result); more can be pushed after. */
    finish() {
      this._live();
      const out = this.outPtr;
      this._ok(this.pm.mod.pm_abi_beats_finish(this.handle, out, out + 4, this.errPtr));
      return resultOf(this.pm._takeBytes(out).buffer); // a copy of exactly the block (its own ArrayBuffer), the module's freed
    }

    /** Release the module memory (safe twice). */
    dispose() {
      if (!this.handle) return;
      this.pm.mod.pm_abi_beats_free(this.handle);
      this.pm.mod.pm_abi_free(this.buf);
      this.handle = 0;
    }
  }

  function resultOf(buf) {
    const h = new Float64Array(buf, 0, HEADER);
    const count = h[6], points = h[8], onsets = h[9];
    let at = HEADER * 8;
    const beats = new Float64Array(buf, at, count); at += count * 8;
    const curve = new Float64Array(buf, at, points * 2); at += points * 16;
    const onsetEnvelope = new Float32Array(buf, at, onsets); at += onsets * 4;
    const barPositions = new Uint8Array(buf, at, count);
    const tempoCurve = [];
    for (let i = 0; i < points; i++) tempoCurve.push({ time: curve[2 * i], bpm: curve[2 * i + 1] });
    return {
      bpm: h[0], confidence: h[1], duration: h[2], offset: h[3], steady: h[4] === 1, beatsPerBar: h[5],
      beats, barPositions, downbeats: beats.filter((_, i) => barPositions[i] === 1), firstDownbeat: h[7],
      tempoCurve, onsetEnvelope, onsetRate: h[10],
    };
  }

  /** Tap tempo: tap(ms) records a tap (performance.now() time stamps); a grid once 4 taps are in. */
  class TapTempo {
    constructor(pm, { maxTaps = 8, resetAfterSeconds = 2 } = {}) {
      if (!(Number.isInteger(maxTaps) && maxTaps >= 4)) throw fail(`createTapTempo: maxTaps must be a whole number >= 4, got ${maxTaps}`);
      if (!(resetAfterSeconds > 0)) throw fail(`createTapTempo: resetAfterSeconds must be a number > 0, got ${resetAfterSeconds}`);
      this.pm = pm;
      this.maxTaps = maxTaps;
      this.resetAfterSeconds = resetAfterSeconds;
      this.taps = [];
    }

    /** Record a tap at `seconds` (any clock, e.g. performance.now() / 1000); returns { bpm, offset } (offset
     * on the same clock) once there are 4 taps, else null. A pause longer than resetAfterSeconds starts over. */
    tap(seconds) {
      if (!Number.isFinite(seconds)) throw fail(`tap: seconds must be a finite number, got ${seconds}`);
      const last = this.taps.at(-1);
      if (last !== undefined && (seconds - last > this.resetAfterSeconds || seconds <= last)) this.taps = [];
      this.taps.push(seconds);
      if (this.taps.length > this.maxTaps) this.taps.shift();
      if (this.taps.length < 4) return null;
      return this.pm.beatGridFromTaps(this.taps);
    }

    get count() {
      return this.taps.length;
    }
  }

  /**
   * The core's grid evaluation (pm_abi_beat_grid_eval) of g (gridOf's) in `mode` (0: the time of beats,
   * 1: the beat at times, 2: the tempo at times) at xs (a Float64Array): the results; mode 3 with no xs
   * (null) only checks the grid.
   */
  function evalGrid(pm, g, mode, xs) {
    return withScratch(pm, (s) => {
      const errPtr = s.alloc(ERROR_SIZE);
      const beatsPtr = g.beats ? s.put(g.beats, Float64Array) : 0;
      const n = xs ? xs.length : 0, inPtr = xs ? s.put(xs, Float64Array) : 0, outPtr = xs ? s.alloc(n * 8) : 0;
      if (pm.mod.pm_abi_beat_grid_eval(g.bpm, g.offset, beatsPtr, g.beats ? g.beats.length : 0, mode, inPtr, n, outPtr, errPtr) !== 0) {
        pm._throw(s, errPtr, 'beats');
      }
      return xs && pm._copy(Float64Array, outPtr, n);
    });
  }

  function gridEval(pm, grid, mode, input) {
    const g = pm.beatGrid(grid);
    if (!g) throw fail('beat grid: none given');
    const many = typeof input !== 'number';
    const out = evalGrid(pm, g, mode, Float64Array.from(many ? Array.from(input ?? []) : [input]));
    return many ? out : out[0];
  }

  const methods = {
    /**
     * Beats of music. samples: a Float32Array (mono, or interleaved with options.channels) at
     * sampleRate Hz, or a Web Audio AudioBuffer (its own rate; sampleRate may be omitted).
     * options: { channels, minBpm, maxBpm, priorBpm, tightness, beatsPerBar, steady, onProgress(done, total) }.
     */
    detectBeats(samples, sampleRate, options) {
      if (isAudioBuffer(samples)) {
        if (typeof sampleRate === 'object' && sampleRate !== null) options = sampleRate;
        options = options ?? {};
        const buffer = samples, ch = buffer.numberOfChannels, n = buffer.length;
        const t = new BeatTracker(this, buffer.sampleRate, { ...options, channels: 1 });
        try {
          const data = Array.from({ length: ch }, (_, c) => buffer.getChannelData(c));
          const mono = new Float32Array(Math.min(CHUNK, n));
          for (let i = 0; i < n; i += CHUNK) {
            const m = Math.min(CHUNK, n - i), part = mono.subarray(0, m);
            part.set(data[0].subarray(i, i + m));
            for (let c = 1; c < ch; c++) { const d = data[c]; for (let k = 0; k < m; k++) part[k] += d[i + k]; }
            if (ch > 1) for (let k = 0; k < m; k++) part[k] /= ch;
            t.push(part);
            options.onProgress?.((i + m) / buffer.sampleRate, n / buffer.sampleRate);
          }
          return t.finish();
        } finally {
          t.dispose();
        }
      }
      options = options ?? {};
      if (!(samples instanceof Float32Array)) throw fail('detectBeats: samples must be a Float32Array or an AudioBuffer');
      const t = new BeatTracker(this, sampleRate, options);
      try {
        const per = CHUNK * t.channels, total = samples.length / t.channels / sampleRate;
        if (samples.length % t.channels) throw fail(`detectBeats: ${samples.length} samples are not whole frames of ${t.channels} channels`);
        for (let i = 0; i < samples.length; i += per) {
          t.push(samples.subarray(i, Math.min(samples.length, i + per)));
          options.onProgress?.(Math.min(samples.length, i + per) / t.channels / sampleRate, total);
        }
        return t.finish();
      } finally {
        t.dispose();
      }
    },

    /** A streaming tracker (real-time mode): push(), now(), finish(), dispose(). */
    createBeatTracker(sampleRate, options = {}) {
      return new BeatTracker(this, sampleRate, options);
    },

    /**
     * The beat grid the generators take: a BPM number (offset 0), { bpm, offset }, or detectBeats'
     * result (its beats, tempo and bars); null/undefined give null. Checked by the core; returns
     * { bpm, offset, beats (Float64Array or null), beatsPerBar, firstDownbeat }.
     */
    beatGrid(x, offset) {
      const g = gridOf(x, offset, 'beats'); // runtime.js: the same grid the core's generators take
      if (!g) return null;
      evalGrid(this, g, 3, null);
      return g;
    },

    /** Seconds of beat b (a number or an array of fractional beat indices) on a grid. */
    beatGridTime(grid, beat) { return gridEval(this, grid, 0, beat); },
    /** The fractional beat index at `seconds` (number or array). */
    beatGridBeat(grid, seconds) { return gridEval(this, grid, 1, seconds); },
    /** The tempo at `seconds` (number or array). */
    beatGridBpmAt(grid, seconds) { return gridEval(this, grid, 2, seconds); },

    /** Tap tempo from tap times (seconds, increasing, at least 2): { bpm, offset, beats: null, ... }. */
    beatGridFromTaps(times) {
      const xs = Float64Array.from(Array.from(times ?? []));
      return withScratch(this, (s) => {
        const errPtr = s.alloc(ERROR_SIZE), inPtr = s.put(xs, Float64Array), outPtr = s.alloc(16);
        if (this.mod.pm_abi_beat_grid_from_taps(inPtr, xs.length, outPtr, errPtr) !== 0) this._throw(s, errPtr, 'beats');
        const v = this._copy(Float64Array, outPtr, 2);
        return { bpm: v[0], offset: v[1], beats: null, beatsPerBar: 4, firstDownbeat: 0 };
      });
    },

    /** A tap-tempo session: tap(seconds) -> null, then a grid from the last taps. */
    createTapTempo(options) {
      return new TapTempo(this, options);
    },

    /** Read a WAV file: { sampleRate, channels, frames, samples (Float32Array, interleaved), encoding, ... }. */
    readWav(bytes) {
      const data = toBytes(bytes, 'readWav', 'beats');
      return withScratch(this, (s) => {
        const inPtr = s.put(data);
        const block = this._callForBuffer(s, 'wav', (out, size, err) => this.mod.pm_abi_wav_read(inPtr, data.byteLength, out, size, err));
        const h = new Uint32Array(block.buffer, block.byteOffset, 9);
        const frames = h[2] + h[3] * 2 ** 32;
        return {
          sampleRate: h[0], channels: h[1], frames, encoding: WAV_ENCODINGS[h[4]], validBits: h[5], formatTag: h[6], channelMask: h[7],
          rf64: h[8] === 1, samples: new Float32Array(block.buffer, block.byteOffset + 36, frames * h[1]),
        };
      });
    },

    /** Write interleaved float samples as a WAV file (Uint8Array). options: { channels = 1, encoding = 'pcm_s16' }. */
    writeWav(samples, sampleRate, { channels = 1, encoding = 'pcm_s16' } = {}) {
      const x = samples instanceof Float32Array ? samples : Float32Array.from(samples ?? []);
      const e = WAV_ENCODINGS.indexOf(encoding);
      if (e < 0) throw fail(`writeWav: encoding must be one of ${WAV_ENCODINGS.join(', ')}, got ${encoding}`);
      if (!Number.isInteger(channels) || channels < 1 || x.length % channels) throw fail(`writeWav: ${x.length} samples are not whole frames of ${channels} channels`);
      if (!Number.isInteger(sampleRate) || sampleRate < 1) throw fail(`writeWav: sampleRate must be a whole number of Hz, got ${sampleRate}`);
      return withScratch(this, (s) => {
        const p = s.put(x, Float32Array);
        return this._callForBuffer(s, 'wav', (out, size, err) => this.mod.pm_abi_wav_write(p, x.length / channels, channels, sampleRate, e, out, size, err));
      });
    },
  };

  return { methods, BeatTracker, TapTempo };
}

const beats = installBeats();
export const api = beats.methods;
export const { BeatTracker, TapTempo } = beats;
