#!/usr/bin/env bash
# Install KernelOPT (editable) with its test tools.
# torch: a torch already present (e.g. your CUDA build) is left alone; with none, the CPU build
# torch==2.13.0 is installed first, so that the `torch>=2.11` requirement does not pull a CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c "import torch" >/dev/null 2>&1; then
  echo "kernelopt install: no torch found; installing torch==2.13.0 (CPU build)"
  "$PY" -m pip install -q torch==2.13.0
else
  echo "kernelopt install: keeping the installed torch $("$PY" -c 'import torch; print(torch.__version__)')"
fi
"$PY" -m pip install -q -e '.[test,plot]'
# The example pass plugin (tests/plugins/example_plugin) is not installed: users would see its example-*
# passes. The tests make it visible themselves (tests/plugins/plugin_path.py).
echo "kernelopt install: done ($("$PY" -c 'import kernelopt, torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'))"
