#!/usr/bin/env bash
# Run every test: pytest (tests/unit) and lit + filecheck (tests/lit). Fails if either fails.
# Extra arguments go to pytest (e.g. -k lift, -x). Test files run in parallel, one worker per core
# (KERNELOPT_TEST_WORKERS overrides; 0 runs them in this process); a file's tests stay on one worker,
# so a module-scoped fixture (a capture, a lifted module) is built once.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
export TRITON_INTERPRET=1            # no GPU here: Triton kernels run in the interpreter
# One OpenMP thread per process: the workers already take every core, and torch's idle OpenMP threads spin
# on a core another worker needs (about 15% of CI's time on 2 cores). OMP_NUM_THREADS set by you is kept.
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export KERNELOPT_CACHE_DIR=${KERNELOPT_CACHE_DIR:-$(mktemp -d)}   # tests never reuse a user's cache
status=0
# lit runs beside pytest, one test at a time, its output printed after pytest's: the workers leave a core idle
# now and then (a test waiting for a process it started, the last files), which lit's processes take. It gets
# a temp folder and a cache of its own, so that neither run sees the other's files.
lit_dir=$(mktemp -d)
mkdir "$lit_dir/tmp" "$lit_dir/cache"
TMPDIR="$lit_dir/tmp" KERNELOPT_CACHE_DIR="$lit_dir/cache" \
  "$PY" -c "from lit.main import main; main()" -q -j 1 tests/lit >"$lit_dir/log" 2>&1 &
lit_pid=$!
trap 'kill "$lit_pid" 2>/dev/null; rm -rf "$lit_dir"' EXIT
echo "== pytest tests/unit"
WORKERS=${KERNELOPT_TEST_WORKERS:-auto}
"$PY" -m pytest tests/unit -q -n "$WORKERS" --dist loadfile --durations=150 "$@" || status=1
echo "== lit tests/lit"
wait "$lit_pid" || status=1
cat "$lit_dir/log"
if [ $status -ne 0 ]; then echo "TESTS FAILED"; else echo "ALL TESTS PASSED"; fi
exit $status
