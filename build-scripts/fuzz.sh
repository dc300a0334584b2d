#!/usr/bin/env bash
# procmotion fuzzing: build the libFuzzer targets of fuzz/ and run each for a bounded time.
#
#   bash build-scripts/fuzz.sh            # every target for PM_FUZZ_SECONDS (default 10) seconds
#   bash build-scripts/fuzz.sh 600        # the long session: 10 minutes per target
#
# Builds build/fuzz (clang, -fsanitize=fuzzer,address,undefined; CMake option PM_FUZZ=ON), writes the
# seed corpora with build/fuzz/pm_fuzz_seeds (generated files plus ../shared/fixtures, cut down) into
# build/fuzz/seeds, and runs every target on build/fuzz/corpus/<target> (kept between runs, grows),
# the seeds and tests/data/regressions/<target>. Prints executions, coverage and corpus size per
# target; a crash, leak, timeout or out-of-memory fails the script, and the input is saved in
# build/fuzz/crashes/<target>/ (replay: build/fuzz/fuzz_<target> <file>; keep it as a regression test
# by copying it to tests/data/regressions/<target>/ once fixed). Environment:
#   PM_FUZZ_SECONDS  seconds per target when no argument is given (default 10)
#   PM_FUZZ_TARGETS  space-separated subset of targets (default: all, from build/fuzz/targets.txt)
#   PM_FUZZ_JOBS     targets run side by side (default nproc)
#   PM_FUZZ_FLAGS    extra libFuzzer flags, e.g. "-use_value_profile=1"
#   PM_FUZZ_BUILD=0  reuse build/fuzz as it is
#   CC               the compiler (default clang-14, else clang)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

case "${1:-}" in
  -h|--help) sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
SECONDS_PER_TARGET="${1:-${PM_FUZZ_SECONDS:-10}}"
if ! [[ "$SECONDS_PER_TARGET" =~ ^[0-9]+$ ]] || [ "$SECONDS_PER_TARGET" -lt 1 ]; then
  echo "fuzz: seconds must be a positive integer, not '$SECONDS_PER_TARGET'" >&2
  exit 2
fi
JOBS="${PM_FUZZ_JOBS:-$(nproc)}"
OUT="$ROOT/build/fuzz"
FIXTURES="${PM_FIXTURES:-$ROOT/../shared/fixtures}"

# ---- build ---------------------------------------------------------------------------------------
if [ "${PM_FUZZ_BUILD:-1}" != 0 ]; then
  CC_FUZZ="${CC:-}"
  if [ -z "$CC_FUZZ" ] || ! "$CC_FUZZ" --version 2>/dev/null | grep -q clang; then
    CC_FUZZ="$(command -v clang-14 || command -v clang || true)"
  fi
  if [ -z "$CC_FUZZ" ]; then
    echo "fuzz: clang not found (apt-get install clang-14 libclang-rt-14-dev)" >&2
    exit 1
  fi
  echo "fuzz: building build/fuzz with $CC_FUZZ"
  t0=$SECONDS
  CC="$CC_FUZZ" cmake -S . -B "$OUT" -DPM_FUZZ=ON -DPM_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    >"$OUT.configure.log" 2>&1 || { cat "$OUT.configure.log"; exit 1; }
  if ! cmake --build "$OUT" -j "$(nproc)" >"$OUT.build.log" 2>&1; then
    tail -n 40 "$OUT.build.log"
    echo "fuzz: build FAILED (log: build/fuzz.build.log)"
    exit 1
  fi
  echo "fuzz: built in $((SECONDS - t0)) s"
fi

# ---- seeds -----------------------------------------------------------------------------------------
rm -rf "$OUT/seeds"
"$OUT/pm_fuzz_seeds" "$OUT/seeds" "$FIXTURES"

TARGETS=(${PM_FUZZ_TARGETS:-$(cat "$OUT/targets.txt")})

# Longest input per target: enough for the seeds (the PMX fixtures are ~150 KB), small enough that
# mutations stay fast.
max_len() {
  case "$1" in
    pmx|model|vrm) echo 262144 ;;
    gltf|fbx|skeleton_json|kp_auto|retarget|score) echo 131072 ;;
    vmd|pose) echo 32768 ;;
    kp_frame) echo 2390 ;;
    sjis) echo 512 ;;
    json|catwalk_json) echo 4096 ;;
    ik) echo 60 ;;
    *) echo 16384 ;;
  esac
}

run_target() {
  local t="$1" log="$OUT/logs/$1.log"
  local corpus="$OUT/corpus/$t" crashes="$OUT/crashes/$t/"
  mkdir -p "$corpus" "$crashes"
  local dirs=("$corpus" "$OUT/seeds/$t")
  [ -d "tests/data/regressions/$t" ] && dirs+=("tests/data/regressions/$t")
  local rc=0
  # shellcheck disable=SC2086
  "$OUT/fuzz_$t" -max_total_time="$SECONDS_PER_TARGET" -max_len="$(max_len "$t")" -timeout=20 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$crashes" ${PM_FUZZ_FLAGS:-} \
    "${dirs[@]}" >"$log" 2>&1 || rc=$?
  echo "$rc" >"$OUT/logs/$t.rc" # (bash may forget a finished job's status: `wait PID` is not reliable)
}

mkdir -p "$OUT/logs"
echo "fuzz: ${#TARGETS[@]} targets x ${SECONDS_PER_TARGET} s, $JOBS at a time"
t0=$SECONDS
for t in "${TARGETS[@]}"; do
  if [ ! -x "$OUT/fuzz_$t" ]; then
    echo "fuzz: no target $t (see build/fuzz/targets.txt)" >&2
    exit 2
  fi
  rm -f "$OUT/logs/$t.rc"
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
  run_target "$t" &
done
wait

FAILED=()
TOTAL_EXECS=0
printf '\n%-14s %12s %9s %7s %7s %9s %s\n' target executions exec/s cov ft corpus result
for t in "${TARGETS[@]}"; do
  rc="$(cat "$OUT/logs/$t.rc" 2>/dev/null || echo 1)"
  log="$OUT/logs/$t.log"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
  last="$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")"
  corp="$(sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p' <<<"$last")"
  result=ok
  if [ "$rc" -ne 0 ]; then
    result="FAIL (exit $rc)"
    FAILED+=("$t")
  fi
  TOTAL_EXECS=$((TOTAL_EXECS + ${execs:-0}))
  printf '%-14s %12s %9s %7s %7s %9s %s\n' "$t" "${execs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result"
done
echo "fuzz: $TOTAL_EXECS executions in $((SECONDS - t0)) s"

if [ "${#FAILED[@]}" -gt 0 ]; then
  for t in "${FAILED[@]}"; do
    echo
    echo "==== fuzz: $t failed (log: build/fuzz/logs/$t.log) ===="
    grep -E 'ERROR|SUMMARY|fuzz check failed|Test unit written|^    #[0-9] ' "$OUT/logs/$t.log" | head -n 30 || true
    echo "replay: build/fuzz/fuzz_$t build/fuzz/crashes/$t/<file>"
  done
  echo "fuzz: FAILED: ${FAILED[*]}"
  exit 1
fi
echo "fuzz: PASS (${#TARGETS[@]} targets)"
