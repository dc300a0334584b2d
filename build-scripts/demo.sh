#!/usr/bin/env bash
# procmotion demo: builds everything, then writes a sample catwalk VMD with the CLI into out/ and
# prints what it wrote. (The web demo joins here when it exists.)
#
#   bash build-scripts/demo.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash build-scripts/setup.sh
bash build-scripts/build.sh

CLI="$ROOT/build/native/procmotion"
mkdir -p out

HELP="$("$CLI" --help 2>&1 || true)"
has_command() { grep -qw -- "$1" <<<"$HELP"; }

echo
if has_command catwalk; then
  "$CLI" catwalk -o out/catwalk.vmd
  echo "demo: wrote out/catwalk.vmd ($(stat -c %s out/catwalk.vmd) bytes)"
else
  echo "demo: the CLI has no 'catwalk' command yet (see issue 'catwalk'); nothing generated."
  echo "demo: build is in build/ (CLI: build/native/procmotion, wasm: js-glue/dist/procmotion.mjs)."
  sample="${PM_FIXTURES:-$ROOT/../shared/fixtures}/vmd/mei_wait.vmd"
  if has_command inspect && [ -f "$sample" ]; then
    echo "demo: meanwhile, the CLI reading a real VMD: procmotion inspect $sample"
    "$CLI" inspect "$sample"
  fi
  exit 0
fi

if has_command inspect; then
  "$CLI" inspect out/catwalk.vmd
else
  echo "demo: the CLI has no 'inspect' command yet; out/catwalk.vmd is not summarised."
fi
