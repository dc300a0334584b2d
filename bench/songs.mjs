// Real songs for the benchmarks: the freely licensed music Debian ships (asc-music, GPL-2+; bench.sh
// installs it) and, when the user has them, real recordings with human beat annotations. Both are
// decoded to 44.1 kHz stereo WAV files in a scratch directory with ffmpeg.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { HAVE_FFMPEG } from './beat-peers.mjs';

/** Freely licensed music Debian ships: asc-music (Advanced Strategic Command's soundtrack, GPL-2+). */
export const DEBIAN_MUSIC = [{ pkg: 'asc-music', dir: '/usr/share/games/asc/music', licence: 'GPL-2+' }];

/** The Debian songs as WAV files in `tmp` (at most `most` a package): `{ songs: [{ pkg, licence, file,
 * wav }], skips: [why a package is missing] }`. */
export function debianMusic(tmp, most = 3) {
  const songs = [], skips = [];
  for (const m of DEBIAN_MUSIC) {
    if (!existsSync(m.dir)) { skips.push(`${m.pkg} is not installed (bash build-scripts/bench.sh installs it as root; or apt-get install ${m.pkg})`); continue; }
    if (!HAVE_FFMPEG) { skips.push(`${m.pkg}: no ffmpeg to decode it (apt-get install ffmpeg)`); continue; }
    for (const file of readdirSync(m.dir).filter((f) => /\.(mp3|ogg|oga|flac|opus)$/i.test(f)).sort().slice(0, most)) {
      const wav = join(tmp, `${m.pkg}-${file.replace(/\.[^.]+$/, '')}.wav`);
      if (!existsSync(wav)) execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', join(m.dir, file), '-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le', wav]);
      songs.push({ pkg: m.pkg, licence: m.licence, file, wav });
    }
  }
  return { songs, skips };
}

/**
 * Real recordings with human beat annotations in `dir`: each audio file (wav, flac, mp3, ogg) beside
 * `<name>.beats`, a beat a line: its time in seconds, then optionally its place in the bar ("3", or
 * Ballroom's "9.3" = bar 9, beat 3). The public annotation sets' audio may not be redistributed, so the
 * directory is the user's own copy; nothing of it is in the repository.
 */
export function annotatedSongs(dir, tmp) {
  if (!dir) return [];
  if (!existsSync(dir)) { console.error(`beats: SKIP annotated music: ${dir} not found`); return []; }
  if (!HAVE_FFMPEG) { console.error('beats: SKIP annotated music: no ffmpeg to decode it'); return []; }
  const out = [];
  for (const file of readdirSync(dir).filter((f) => /\.(wav|flac|mp3|ogg)$/i.test(f)).sort()) {
    const name = file.replace(/\.[^.]+$/, ''), ann = join(dir, `${name}.beats`);
    if (!existsSync(ann)) continue;
    const lines = readFileSync(ann, 'utf8').split('\n').map((l) => l.trim().split(/[\s,]+/)).filter((c) => c[0] && Number.isFinite(+c[0]));
    const beats = lines.map((c) => +c[0]);
    const barPositions = lines.map((c) => (c[1] === undefined ? 0 : Math.round(+(c[1].includes('.') ? c[1].split('.')[1] : c[1]))));
    const ibi = beats.slice(1).map((t, i) => t - beats[i]).sort((a, b) => a - b);
    if (ibi.length < 4) { console.error(`beats: SKIP ${file}: fewer than 5 annotated beats`); continue; }
    const wav = join(tmp, `annotated-${name}.wav`);
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', join(dir, file), '-ac', '2', '-ar', '44100', '-c:a', 'pcm_s16le', wav]);
    out.push({ id: name, wav, beats, barPositions, bpm: 60 / ibi[Math.floor(ibi.length / 2)], meter: Math.max(...barPositions) || undefined });
  }
  return out;
}

