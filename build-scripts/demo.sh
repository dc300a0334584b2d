#!/usr/bin/env bash
# procmotion demo: builds everything, writes a sample catwalk VMD and the built-in mannequin PMX
# with the CLI into out/, builds the web demo and serves it on 127.0.0.1 (prints the URL; Ctrl-C
# stops it).
#
#   bash build-scripts/demo.sh              # build, write out/, serve (port $PORT, else 8080, else a free one)
#   bash build-scripts/demo.sh --no-serve   # build and write out/ only (CI-style check)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SERVE=1
for arg in "$@"; do
  case "$arg" in
    --no-serve) SERVE=0 ;;
    -h|--help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "demo: unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

bash build-scripts/setup.sh
bash build-scripts/build.sh native wasm wasi demo

CLI="$ROOT/build/native/procmotion"
mkdir -p out

echo
"$CLI" catwalk --bpm 120 -o out/catwalk.vmd
echo "demo: wrote out/catwalk.vmd ($(stat -c %s out/catwalk.vmd) bytes): a catwalk at 120 BPM"
"$CLI" inspect out/catwalk.vmd
"$CLI" mannequin -o out/mannequin.pmx
echo "demo: wrote out/mannequin.pmx ($(stat -c %s out/mannequin.pmx) bytes): the built-in mannequin"

if [ "$SERVE" -eq 0 ]; then
  echo "demo: web demo built in web-demo/dist/ (serve it with: node build-scripts/serve-demo.mjs)"
  exit 0
fi
echo
exec node build-scripts/serve-demo.mjs
