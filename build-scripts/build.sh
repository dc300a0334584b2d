#!/usr/bin/env bash
# procmotion build: the C core three ways from the same sources (see CMakeLists.txt).
#
#   bash build-scripts/build.sh                 # native + wasm + wasi + demo
#   bash build-scripts/build.sh native wasm     # only the named targets
#
#   native  build/native  static libs, the `procmotion` CLI, ctest tests; ASan+UBSan (PM_SANITIZE=ON)
#   wasm    build/wasm    Emscripten, Release: procmotion.wasm and one procmotion-<module>.wasm per lazy
#                         module (build-scripts/link-wasm.mjs), procmotion-all.wasm (every module in one
#                         file, for load: 'all') and procmotion-sjis.bin (the Shift-JIS
#                         table for hosts without TextDecoder('shift_jis')), copied into js-glue/, and
#                         abi*.js (the interface, generated from wasm/abi/pm_abi_table.h) into js-glue/dist/
#   wasi    build/wasi    clang wasm32-wasi reactor, Release: procmotion-wasi.wasm (zero imports)
#   demo    web-demo/dist the web demo bundled with esbuild (needs the wasm target and npm ci)
#   valgrind build/valgrind native tests without sanitizers (-O1 -g), for valgrind memcheck
#                         (not built by default; test.sh's valgrind stage builds it)
#
# Needs build-scripts/setup.sh to have run (.deps/cjson for the wasm builds). Environment:
#   JOBS (default nproc), CC for the native build, PM_NATIVE_BUILD_TYPE (default Debug).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

JOBS="${JOBS:-$(nproc)}"
TARGETS=("$@")
[ "${#TARGETS[@]}" -gt 0 ] || TARGETS=(native wasm wasi demo)
for t in "${TARGETS[@]}"; do
  case "$t" in
    native|wasm|wasi|demo|valgrind) ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build: unknown target '$t' (native, wasm, wasi, demo, valgrind)" >&2; exit 2 ;;
  esac
done

# Debian's emcc runs its JS tools with the system node and finds acorn etc. there.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# Debian keeps emcc's library cache in /usr/share/emscripten/cache; use a private one when that
# is not writable (first use then builds libc once, a few minutes).
if [ -z "${EM_CACHE:-}" ] && [ -d /usr/share/emscripten/cache ] && ! [ -w /usr/share/emscripten/cache ]; then
  export EM_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/procmotion-emscripten"
fi

stage() {
  local name="$1"; shift
  local t0=$SECONDS
  echo "build: == $name =="
  "$@"
  echo "build: $name done in $((SECONDS - t0)) s"
}

build_native() {
  cmake -S . -B build/native -DPM_SANITIZE=ON -DPM_BUILD_TESTS=ON \
        -DCMAKE_BUILD_TYPE="${PM_NATIVE_BUILD_TYPE:-Debug}" >/dev/null
  cmake --build build/native -j "$JOBS"
}

build_wasm() {
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/wasm -j "$JOBS"
  mkdir -p js-glue/dist
  rm -f js-glue/dist/procmotion.mjs js-glue/procmotion*.wasm js-glue/procmotion-sjis.bin
  cp build/wasm/procmotion*.wasm build/wasm/procmotion-sjis.bin js-glue/
  cp build/wasm/abi*.js js-glue/dist/
  local f
  for f in js-glue/procmotion*.wasm; do echo "build: $f ($(stat -c %s "$f") bytes)"; done
}

build_valgrind() {
  cmake -S . -B build/valgrind -DPM_SANITIZE=OFF -DPM_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=None \
        -DCMAKE_C_FLAGS="-O1 -g" >/dev/null
  cmake --build build/valgrind -j "$JOBS"
}

build_wasi() {
  cmake -S . -B build/wasi -DCMAKE_TOOLCHAIN_FILE="$ROOT/build-scripts/wasi-toolchain.cmake" \
        -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/wasi -j "$JOBS"
  echo "build: build/wasi/procmotion-wasi.wasm ($(stat -c %s build/wasi/procmotion-wasi.wasm) bytes)"
}

build_demo() {
  node build-scripts/build-demo.mjs
}

for t in "${TARGETS[@]}"; do
  stage "$t" "build_$t"
done
