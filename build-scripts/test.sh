#!/usr/bin/env bash
# procmotion tests: everything CI runs (.ci/run calls exactly this script).
#
#   bash build-scripts/test.sh              # setup (when needed), build, ctest, node, browser
#   bash build-scripts/test.sh --no-build   # reuse the current build/ (no setup, no build)
#
# Stages: setup.sh (quiet when nothing is missing), build.sh native/wasm/wasi/demo, ctest in
# build/native (ASan+UBSan), `node --test` on tests/node/**/*.test.mjs, `node --test` on
# tests/browser/**/*.test.mjs (playwright-core + Debian chromium) when there are any, and
# build-scripts/fuzz.sh when it exists. Every stage runs even when an earlier one failed; the
# script ends with a summary line and exits non-zero when any stage failed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

DO_BUILD=1
for arg in "$@"; do
  case "$arg" in
    --no-build) DO_BUILD=0 ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test: unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

export PM_FIXTURES="${PM_FIXTURES:-$ROOT/../shared/fixtures}"
LOGS="$ROOT/test-results/logs"
mkdir -p "$LOGS"

FAILED=0
SUMMARY=()
TOTAL_PASS=0
TOTAL_FAIL=0
TOTAL_SKIP=0
T_START=$SECONDS

banner() { echo; echo "==== test: $* ===="; }
record() { SUMMARY+=("$1"); }
join() { local out="" s; for s in "$@"; do out+="${out:+, }$s"; done; echo "$out"; }

# ---- setup + build ---------------------------------------------------------------------------
NATIVE_OK=1
if [ "$DO_BUILD" -eq 1 ]; then
  banner "setup"
  if ! bash build-scripts/setup.sh; then
    echo "test: setup FAILED"
    FAILED=1
    TOTAL_FAIL=$((TOTAL_FAIL + 1))
    record "setup FAIL"
  fi
  BUILD_STATUS=()
  for target in native wasm wasi demo; do
    banner "build $target"
    if bash build-scripts/build.sh "$target" >"$LOGS/build-$target.log" 2>&1; then
      tail -n 3 "$LOGS/build-$target.log"
      BUILD_STATUS+=("$target ok")
    else
      tail -n 60 "$LOGS/build-$target.log"
      echo "test: build $target FAILED (full log: test-results/logs/build-$target.log)"
      FAILED=1
      TOTAL_FAIL=$((TOTAL_FAIL + 1))
      BUILD_STATUS+=("$target FAIL")
      [ "$target" = native ] && NATIVE_OK=0
    fi
  done
  case " ${BUILD_STATUS[*]} " in
    *FAIL*) record "build FAIL ($(join "${BUILD_STATUS[@]}"))" ;;
    *) record "build PASS" ;;
  esac
fi

# ---- ctest -------------------------------------------------------------------------------------
banner "ctest (build/native, ASan+UBSan)"
if [ "$NATIVE_OK" -eq 0 ] || [ ! -f build/native/CTestTestfile.cmake ]; then
  echo "test: ctest not run: the native build failed or is missing"
  record "ctest FAIL (not built)"
  FAILED=1
  TOTAL_FAIL=$((TOTAL_FAIL + 1))
else
  (cd build/native && ctest --output-on-failure -j "$(nproc)") 2>&1 | tee "$LOGS/ctest.log"
  rc=${PIPESTATUS[0]}
  total="$(sed -n 's/.*tests failed out of \([0-9][0-9]*\).*/\1/p' "$LOGS/ctest.log" | tail -n 1)"
  nfail="$(sed -n 's/.*, \([0-9][0-9]*\) tests failed out of.*/\1/p' "$LOGS/ctest.log" | tail -n 1)"
  total="${total:-0}"; nfail="${nfail:-0}"
  if [ "$rc" -eq 0 ] && [ "$total" -gt 0 ]; then
    record "ctest PASS ($total)"
  elif [ "$rc" -eq 0 ]; then
    record "ctest PASS (0: no tests found)"
  else
    record "ctest FAIL ($nfail of $total)"
    FAILED=1
    [ "$nfail" -gt 0 ] || nfail=1
  fi
  TOTAL_PASS=$((TOTAL_PASS + total - nfail))
  TOTAL_FAIL=$((TOTAL_FAIL + nfail))
fi

# ---- node --test -------------------------------------------------------------------------------
# Runs node's test runner on the given files; sets N_PASS N_FAIL N_SKIP N_RC from its report.
run_node_tests() {
  local log="$1"; shift
  node --test --test-reporter=spec "$@" 2>&1 | tee "$log"
  N_RC=${PIPESTATUS[0]}
  # The spec reporter closes with "ℹ pass N" etc. (tap: "# pass N").
  N_PASS="$(sed -n 's/^[^a-z]*pass \([0-9][0-9]*\)$/\1/p' "$log" | tail -n 1)"
  N_FAIL="$(sed -n 's/^[^a-z]*fail \([0-9][0-9]*\)$/\1/p' "$log" | tail -n 1)"
  N_SKIP="$(sed -n 's/^[^a-z]*skipped \([0-9][0-9]*\)$/\1/p' "$log" | tail -n 1)"
  N_PASS="${N_PASS:-0}"; N_FAIL="${N_FAIL:-0}"; N_SKIP="${N_SKIP:-0}"
  if [ "$N_RC" -ne 0 ] && [ "$N_FAIL" -eq 0 ]; then N_FAIL=1; fi
}

node_stage() {
  local label="$1" dir="$2"
  banner "$label ($dir)"
  mapfile -t files < <(find "$dir" -name '*.test.mjs' -not -path '*/node_modules/*' 2>/dev/null | sort)
  if [ "${#files[@]}" -eq 0 ]; then
    echo "test: no $dir/**/*.test.mjs files"
    record "$label SKIP (no tests)"
    return
  fi
  run_node_tests "$LOGS/$label.log" "${files[@]}"
  local skipnote=""
  [ "$N_SKIP" -eq 0 ] || skipnote=", $N_SKIP skipped"
  if [ "$N_RC" -eq 0 ]; then
    record "$label PASS ($N_PASS$skipnote)"
  else
    record "$label FAIL ($N_FAIL failed, $N_PASS passed$skipnote)"
    FAILED=1
  fi
  TOTAL_PASS=$((TOTAL_PASS + N_PASS))
  TOTAL_FAIL=$((TOTAL_FAIL + N_FAIL))
  TOTAL_SKIP=$((TOTAL_SKIP + N_SKIP))
}

node_stage node tests/node
node_stage browser tests/browser

# ---- fuzz --------------------------------------------------------------------------------------
if [ -f build-scripts/fuzz.sh ]; then
  banner "fuzz"
  if bash build-scripts/fuzz.sh; then record "fuzz PASS"; else record "fuzz FAIL"; FAILED=1; TOTAL_FAIL=$((TOTAL_FAIL + 1)); fi
else
  record "fuzz SKIP"
fi

echo
echo "procmotion tests: $(join "${SUMMARY[@]}") [$((SECONDS - T_START)) s]"
echo "procmotion: $TOTAL_PASS passed, $TOTAL_FAIL failed, $TOTAL_SKIP skipped"
exit "$FAILED"
