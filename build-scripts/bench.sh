#!/usr/bin/env bash
# procmotion benchmarks: builds an optimised native build (build/release) and the wasm module, then
# measures our figures beside the peers' in one run and writes docs/benchmarks.md.
#
#   bash build-scripts/bench.sh [--runs N] [--only ROW]
#
# Not a test: it prints figures, it never fails on time.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash build-scripts/setup.sh --bench   # + Debian music for bench/beats.mjs (skipped with a message when it cannot)
bash build-scripts/build.sh wasm wasi
echo "bench: == native release build (build/release) =="
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release -DPM_SANITIZE=OFF -DPM_BUILD_TESTS=OFF >/dev/null
cmake --build build/release -j "$(nproc)" --target procmotion_bench >/dev/null
node bench/bench.mjs "$@"
echo "bench: == beats: accuracy and time beside aubio, web-audio-beat-detector, music-tempo, essentia.js (docs/benchmarks.md) =="
node bench/beats.mjs
echo "bench: == dance: the dance's accents on real songs' beats (docs/benchmarks.md; annotated songs: PM_ANNOTATED_MUSIC=dir) =="
node bench/dance.mjs
echo "bench: == walks: the catwalk's styles beside real walks (docs/benchmarks.md; more clips: PM_REAL_WALKS=dir of .bvh/.fbx) =="
shopt -s nullglob
walks=(../shared/fixtures/bvh/cmu_131_01.bvh)
if [[ -n "${PM_REAL_WALKS:-}" ]]; then walks+=("$PM_REAL_WALKS"/*.bvh "$PM_REAL_WALKS"/*.fbx); fi
node bench/walk-features.mjs --write "${walks[@]}"
