#!/usr/bin/env bash
# Run every test: pytest (tests/unit) and lit + filecheck (tests/lit). Fails if either fails.
# Extra arguments go to pytest (e.g. -k lift, -x).
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
export TRITON_INTERPRET=1            # no GPU here: Triton kernels run in the interpreter
export KERNELOPT_CACHE_DIR=${KERNELOPT_CACHE_DIR:-$(mktemp -d)}   # tests never reuse a user's cache
status=0
echo "== pytest tests/unit"
"$PY" -m pytest tests/unit -q "$@" || status=1
echo "== lit tests/lit"
"$PY" -c "from lit.main import main; main()" -q tests/lit || status=1
if [ $status -ne 0 ]; then echo "TESTS FAILED"; else echo "ALL TESTS PASSED"; fi
exit $status
