#!/usr/bin/env bash
# procmotion tests: everything CI runs (.ci/run calls exactly this script).
#
#   bash build-scripts/test.sh              # setup (when needed), build, ctest, node, browser
#   bash build-scripts/test.sh --no-build   # reuse the current build/ (no setup, no build)
#
# Stages: setup.sh (quiet when nothing is missing), build.sh native/wasm/wasi/demo, ctest in
# build/native (ASan+UBSan), the C tests under valgrind memcheck (build/valgrind, built by the stage),
# `node --test` on tests/node/**/*.test.mjs, `node --test` on tests/browser/**/*.test.mjs
# (playwright-core + Debian chromium) when there are any, and build-scripts/fuzz.sh
# (PM_FUZZ_SECONDS per target, default 10). Every stage runs even when an earlier one failed; the
# script ends with a summary line and exits non-zero when any stage failed.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

DO_BUILD=1
for arg in "$@"; do
  case "$arg" in
    --no-build) DO_BUILD=0 ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# ---- valgrind -----------------------------------------------------------------------------------
# The C tests once more without sanitizers (build/valgrind, -O1 -g) under valgrind memcheck, side by
# side. PM_TEST_QUICK=1 makes the long sweeps take strides; PM_TEST_VALGRIND=1 skips the checks that
# need x87 long double (test_number's exact midpoints; valgrind computes it at double precision).
# PM_VALGRIND_TIMEOUT: seconds per test (default 900).
banner "valgrind (build/valgrind, memcheck)"
if ! command -v valgrind >/dev/null 2>&1; then
  echo "test: valgrind is not installed"
  record "valgrind SKIP (not installed)"
elif ! bash build-scripts/build.sh valgrind >"$LOGS/build-valgrind.log" 2>&1; then
  tail -n 40 "$LOGS/build-valgrind.log"
  echo "test: build valgrind FAILED (full log: test-results/logs/build-valgrind.log)"
  record "valgrind FAIL (not built)"
  FAILED=1
  TOTAL_FAIL=$((TOTAL_FAIL + 1))
else
  mapfile -t vg_tests < <(find build/valgrind -maxdepth 1 -name 'test_*' -type f -executable -printf '%f\n' | sort)
  vg_one() {
    local t="$1" rc=0
    (cd tests && PM_TEST_QUICK=1 PM_TEST_VALGRIND=1 timeout "${PM_VALGRIND_TIMEOUT:-900}" \
       valgrind -q --error-exitcode=1 --leak-check=full "../build/valgrind/$t") >"$LOGS/valgrind-$t.log" 2>&1 || rc=$?
    echo "$t $rc"
  }
  export -f vg_one
  export LOGS
  t_vg=$SECONDS
  vg_results="$(printf '%s\n' "${vg_tests[@]}" | xargs -P "$(nproc)" -I{} bash -c 'vg_one {}')"
  vg_fail=0
  while read -r t rc; do
    [ -n "$t" ] || continue
    if [ "$rc" -eq 0 ]; then
      echo "valgrind: $t ok"
    else
      echo "valgrind: $t FAILED (exit $rc; log test-results/logs/valgrind-$t.log)"
      grep -E '^==[0-9]+==|FAIL|failed' "$LOGS/valgrind-$t.log" | head -n 20
      vg_fail=$((vg_fail + 1))
    fi
  done <<<"$vg_results"
  echo "valgrind: ${#vg_tests[@]} tests in $((SECONDS - t_vg)) s"
  if [ "$vg_fail" -eq 0 ] && [ "${#vg_tests[@]}" -gt 0 ]; then
    record "valgrind PASS (${#vg_tests[@]})"
  else
    record "valgrind FAIL ($vg_fail of ${#vg_tests[@]})"
    FAILED=1
  fi
  TOTAL_PASS=$((TOTAL_PASS + ${#vg_tests[@]} - vg_fail))
  TOTAL_FAIL=$((TOTAL_FAIL + vg_fail))
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
banner "fuzz"
if bash build-scripts/fuzz.sh; then record "fuzz PASS"; else record "fuzz FAIL"; FAILED=1; TOTAL_FAIL=$((TOTAL_FAIL + 1)); fi

echo
echo "procmotion tests: $(join "${SUMMARY[@]}") [$((SECONDS - T_START)) s]"
echo "procmotion: $TOTAL_PASS passed, $TOTAL_FAIL failed, $TOTAL_SKIP skipped"
exit "$FAILED"
