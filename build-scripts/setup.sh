#!/usr/bin/env bash
# procmotion setup: makes this machine able to build and test procmotion. Idempotent.
#
#   bash build-scripts/setup.sh          # install what is missing, quiet when nothing is
#   bash build-scripts/setup.sh --check  # only report; exit 1 when something is missing
#   bash build-scripts/setup.sh --bench  # also the benchmark's extras (Debian music for bench/beats.mjs);
#                                        # not root: says what it skips and carries on
#
# What it checks, and does when something is missing (Debian 12 "bookworm"):
#   1. Debian packages the build and the tests need (dpkg-query; apt-get install as root).
#   2. node and npm on PATH (Debian's nodejs/npm are installed when absent; Node >= 20 expected).
#   3. cJSON's source for the wasm builds in .deps/cjson (git-ignored): `apt-get source cjson`
#      unpacked with dpkg-source -x; adds a deb-src entry (bookworm main) first when apt has none.
#   4. `npm ci` when node_modules is missing or older than package-lock.json.
# Not root and a package is missing: exits 1 with the exact apt-get line to run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

CHECK_ONLY=0
BENCH=0
for arg in "$@"; do
  case "$arg" in
    --check) CHECK_ONLY=1 ;;
    --bench) BENCH=1 ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup: unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

# Debian packages: compilers and wasm toolchains, cJSON for native builds, dpkg-dev for
# dpkg-source, chromium for the browser tests, valgrind for the memcheck stage, aubio and ffmpeg
# for the beat tracker's peer tests and non-WAV input.
DEB_PACKAGES=(
  emscripten node-acorn binaryen            # emcc 3.1.6 (+ its acorn and wasm-opt)
  clang lld wasi-libc libclang-rt-14-dev-wasm32   # wasm32-wasi reactor build
  libclang-rt-14-dev                        # sanitizer and libFuzzer runtimes for clang (fuzz.sh)
  valgrind                                  # test.sh's valgrind memcheck stage
  cmake make gcc                            # native build
  libcjson-dev                              # native cJSON
  dpkg-dev                                  # dpkg-source, to unpack cJSON's source
  chromium                                  # browser tests (playwright-core drives it)
  aubio-tools                               # the beat tracker's peer (aubio beat / aubio tempo)
  ffmpeg                                    # procmotion beats reads non-WAV audio through it
)

# The benchmark's extras (never needed by test.sh): freely licensed music Debian ships, decoded with
# ffmpeg by bench/beats.mjs for tempo agreement with the peers. asc-music: three MP3s of Advanced
# Strategic Command's soundtrack, GPL-2+ (/usr/share/doc/asc-music/copyright), 10 MB.
BENCH_DEB_PACKAGES=(asc-music)

SRC_LIST=/etc/apt/sources.list.d/procmotion-src.sources
CJSON_DIR="$ROOT/.deps/cjson"

say() { echo "setup: $*"; }
is_root() { [ "$(id -u)" -eq 0 ]; }

# ---- 1. what is missing --------------------------------------------------------------------
missing_debs() {
  # dpkg-query prints one line per known package; unknown packages go to stderr.
  local installed
  installed="$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${DEB_PACKAGES[@]}" 2>/dev/null \
               | awk '$2 == "ii" { print $1 }')" || true
  local p
  for p in "${DEB_PACKAGES[@]}"; do
    grep -qxF "$p" <<<"$installed" || echo "$p"
  done
  if ! command -v node >/dev/null 2>&1; then echo nodejs; fi
  if ! command -v npm >/dev/null 2>&1; then echo npm; fi
}

have_deb_src() {
  # Any enabled deb-src entry for Debian main, one-line or deb822 format.
  grep -qsE '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null && return 0
  grep -qsE '^[[:space:]]*Types:.*deb-src' /etc/apt/sources.list.d/*.sources 2>/dev/null
}

cjson_ok() { [ -f "$CJSON_DIR/cJSON.c" ] && [ -f "$CJSON_DIR/cJSON.h" ]; }

npm_ok() {
  # npm writes node_modules/.package-lock.json after every install; older than the lock = stale.
  [ -f node_modules/.package-lock.json ] && ! [ package-lock.json -nt node_modules/.package-lock.json ]
}

# --bench: the extras first, softly (the benchmark skips what is absent, with a message)
if [ "$BENCH" -eq 1 ] && [ "$CHECK_ONLY" -eq 0 ]; then
  bench_missing=()
  for p in "${BENCH_DEB_PACKAGES[@]}"; do
    dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' || bench_missing+=("$p")
  done
  if [ "${#bench_missing[@]}" -gt 0 ]; then
    if is_root; then
      say "apt-get install ${bench_missing[*]} (benchmark music)"
      { DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o Dpkg::Use-Pty=0 "${bench_missing[@]}" >/dev/null; } ||
        say "could not install ${bench_missing[*]}: the benchmark skips the Debian music"
    else
      say "not root: ${bench_missing[*]} not installed, the benchmark skips the Debian music (sudo apt-get install ${bench_missing[*]})"
    fi
  fi
fi

mapfile -t MISSING < <(missing_debs)

# Fast path: nothing to do, print nothing.
if [ "${#MISSING[@]}" -eq 0 ] && cjson_ok && npm_ok; then
  exit 0
fi

if [ "$CHECK_ONLY" -eq 1 ]; then
  [ "${#MISSING[@]}" -eq 0 ] || say "missing Debian packages: ${MISSING[*]}"
  cjson_ok || say "missing cJSON source in .deps/cjson"
  npm_ok || say "node_modules missing or older than package-lock.json (npm ci needed)"
  exit 1
fi

APT_OPTS=(-y -q -o Dpkg::Use-Pty=0)
export DEBIAN_FRONTEND=noninteractive
APT_UPDATED=0
apt_update() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    say "apt-get update"
    apt-get update -q >/dev/null
    APT_UPDATED=1
  fi
}

# ---- 2. Debian packages ----------------------------------------------------------------------
if [ "${#MISSING[@]}" -gt 0 ]; then
  if ! is_root; then
    {
      echo "setup: these Debian packages are missing and installing them needs root:"
      echo "    ${MISSING[*]}"
      echo "  run:  sudo apt-get update && sudo apt-get install -y ${MISSING[*]}"
      echo "  (or run this script as root: sudo bash build-scripts/setup.sh)"
    } >&2
    exit 1
  fi
  apt_update
  say "apt-get install ${MISSING[*]}"
  apt-get install "${APT_OPTS[@]}" "${MISSING[@]}"
  mapfile -t STILL < <(missing_debs)
  if [ "${#STILL[@]}" -gt 0 ]; then
    echo "setup: still missing after apt-get install: ${STILL[*]}" >&2
    exit 1
  fi
fi

NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$NODE_MAJOR" -lt 20 ]; then
  say "warning: node $(node --version) found; procmotion expects Node.js 20 or newer (playwright-core needs it)"
fi

# ---- 3. cJSON source for the wasm builds -------------------------------------------------------
if ! cjson_ok; then
  if ! have_deb_src; then
    if ! is_root; then
      {
        echo "setup: cJSON's source is needed in .deps/cjson and apt has no deb-src entry."
        echo "  run as root:  sudo bash build-scripts/setup.sh"
        echo "  (it writes $SRC_LIST for bookworm main, then apt-get update)"
      } >&2
      exit 1
    fi
    say "adding deb-src entry $SRC_LIST (bookworm main)"
    cat >"$SRC_LIST" <<'EOF'
# Added by procmotion build-scripts/setup.sh: source packages (cJSON for the wasm builds).
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    APT_UPDATED=0
  fi
  if ! apt-cache showsrc cjson 2>/dev/null | grep -q '^Package: cjson'; then
    if ! is_root; then
      echo "setup: apt has no source index for cjson yet: run  sudo apt-get update  and try again" >&2
      exit 1
    fi
    apt_update
  fi
  say "fetching cJSON source (apt-get source cjson) into .deps/"
  mkdir -p .deps
  work="$(mktemp -d "$ROOT/.deps/cjson-src.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  # Root downloads without apt's _apt sandbox user (it cannot write into this folder).
  fetch_src() { (cd "$work" && apt-get source -q --download-only -o APT::Sandbox::User=root cjson >/dev/null); }
  if ! fetch_src; then
    # A stale source index names a version the mirror no longer has: refresh once and retry.
    is_root && [ "$APT_UPDATED" -eq 0 ] || { echo "setup: apt-get source cjson failed" >&2; exit 1; }
    apt_update
    fetch_src
  fi
  dsc="$(ls "$work"/cjson_*.dsc | head -n 1)"
  ver="$(basename "$dsc" .dsc)"; ver="${ver#cjson_}"
  # apt-get source already checked the files' hashes against the signed Sources index.
  # (Its "cannot verify signature" note, without debian-keyring installed, is expected.)
  if ! log="$(cd "$work" && dpkg-source -x "$(basename "$dsc")" unpacked 2>&1)"; then
    echo "$log" >&2
    echo "setup: dpkg-source -x $(basename "$dsc") failed" >&2
    exit 1
  fi
  rm -rf ".deps/cjson-$ver"
  mv "$work/unpacked" ".deps/cjson-$ver"
  ln -sfn "cjson-$ver" .deps/cjson
  rm -rf "$work"
  trap - EXIT
  cjson_ok || { echo "setup: .deps/cjson/cJSON.c not found after unpacking cjson $ver" >&2; exit 1; }
  say "cJSON $ver unpacked in .deps/cjson-$ver (.deps/cjson links to it)"
fi

# ---- 4. npm packages ---------------------------------------------------------------------------
if ! npm_ok; then
  say "npm ci (node_modules missing or older than package-lock.json)"
  npm ci --no-audit --no-fund --loglevel=error
  touch node_modules/.package-lock.json
fi

say "ready"
