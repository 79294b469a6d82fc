#!/bin/sh
# tests/fuzz/run.sh [SECONDS]: build the libFuzzer harnesses with clang in a
# build folder of their own (HDEM_FUZZ_BUILD, default build-fuzz/ at the top
# of the tree), run each for SECONDS (default 30) on its seed corpus, and
# fail if any crashed, leaked, hung or tripped a sanitizer.  Crash inputs land
# in $HDEM_FUZZ_BUILD/crashes/<harness>/; the inputs found on the way in
# $HDEM_FUZZ_BUILD/corpus/<harness>/ (the seeds in tests/fuzz/corpus/ are
# only read).  README.md has the long mode.
#   HDEM_FUZZ_JOBS   build parallelism (default 2)
#   HDEM_FUZZ_ONLY   run only these harnesses (e.g. "lammps_data")
#   HDEM_FUZZ_ARGS   more libFuzzer flags (e.g. "-jobs=4 -workers=4")
set -eu
secs=${1:-30}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${HDEM_FUZZ_BUILD:-$root/build-fuzz}
harnesses=${HDEM_FUZZ_ONLY:-"lammps_data options table stl checkpoint deck"}

command -v clang >/dev/null || { echo "run.sh: clang not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DHDEM_FUZZ=ON >/dev/null
targets=
for h in $harnesses; do targets="$targets --target fuzz_$h"; done
# shellcheck disable=SC2086
cmake --build "$build" -j"${HDEM_FUZZ_JOBS:-2}" $targets

# Open MPI's and PETSc's own leaks (made once, at start-up) are suppressed by
# name; everything else is fatal, with its stack.
# fast_unwind_on_malloc=0: Open MPI and PETSc have no frame pointers, and
# the suppressions need their frames (about 10% slower).
export ASAN_OPTIONS="${ASAN_OPTIONS:-fast_unwind_on_malloc=0:detect_stack_use_after_return=0}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-fast_unwind_on_malloc=0:suppressions=$here/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"

failed=
for h in $harnesses; do
  mkdir -p "$build/corpus/$h" "$build/crashes/$h"
  dict=
  [ -f "$here/$h.dict" ] && dict="-dict=$here/$h.dict"
  log="$build/fuzz_$h.log"
  echo "== fuzz_$h: $secs s (log: $log)"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: 2 GB is a
  # leak or an allocation the reader should have refused
  # shellcheck disable=SC2086
  if "$build/tests/fuzz/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
       -artifact_prefix="$build/crashes/$h/" -print_final_stats=1 $dict ${HDEM_FUZZ_ARGS:-} \
       "$build/corpus/$h" "$here/corpus/$h" >"$log" 2>&1; then
    grep -E '^(Done|stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb))' "$log" || true
  else
    tail -n 80 "$log"
    failed="$failed $h"
  fi
done
if [ -n "$failed" ]; then
  echo "run.sh: crashes in:$failed" >&2
  for h in $failed; do ls -l "$build/crashes/$h" >&2; done
  echo "replay one: $build/tests/fuzz/fuzz_<harness> <crash file>; keep it as a test: copy it into tests/fuzz/corpus/<harness>/" >&2
  exit 1
fi
echo "run.sh: no crash in $secs s per harness ($harnesses)"
