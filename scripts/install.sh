#!/usr/bin/env bash
# Install KernelOPT (editable) with its test tools.
# torch: a torch already present (e.g. your CUDA build) is left alone; with none, the CPU build
# torch==2.13.0 is installed first, so that the `torch>=2.11` requirement does not pull a CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if version=$("$PY" -c "import torch; print(torch.__version__)" 2>/dev/null); then
  echo "kernelopt install: keeping the installed torch $version"
else
  echo "kernelopt install: no torch found; installing torch==2.13.0 (CPU build)"
  "$PY" -m pip install -q torch==2.13.0
fi
# The build backend (setuptools, wheel) already installed is used as it is, without pip's isolated build
# environment (seconds to set up on every install); without it pip builds in isolation as usual.
isolation=()
if "$PY" -c "import setuptools, wheel, sys; sys.exit(int(setuptools.__version__.split('.')[0]) < 68)" 2>/dev/null; then
  isolation=(--no-build-isolation)
fi
"$PY" -m pip install -q ${isolation[@]+"${isolation[@]}"} -e '.[test,plot]'
# An editable install leaves the package's bytecode unwritten (pip compiles only what it copies): compiled
# once here, every process (the CLI, a sandbox worker) reads it instead of compiling the sources again,
# also where PYTHONDONTWRITEBYTECODE is set.
"$PY" -m compileall -q -j 0 kernelopt ir passes >/dev/null
# The example pass plugin (tests/plugins/example_plugin) is not installed: users would see its example-*
# passes. The tests make it visible themselves (tests/plugins/plugin_path.py).
echo "kernelopt install: done ($("$PY" -c 'import kernelopt, torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'))"
