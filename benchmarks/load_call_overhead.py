"""Host time of `kernelopt.load`'s wrapper per call: its checks and argument list, the module's call() stubbed out.

    python benchmarks/load_call_overhead.py tests/zoo/transformer_block.py [--calls 20000]

Optimizes the model file on the CPU first (interpreter, static cost model, no search: seconds), loads the written
module, replaces its `call` by a stub returning one empty tensor, and times calls of the loaded module with the
file's inputs under torch.no_grad(): what a user pays per call around the kernels on any device (the checks run
in Python on the host). The first two calls take the full checks; the timed ones are what a loop pays.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path, help="a KernelBench-style model file (Model, get_inputs, get_init_inputs)")
    parser.add_argument("--calls", type=int, default=20000, help="timed calls (default 20000)")
    options = parser.parse_args(argv)
    import torch

    import kernelopt

    with tempfile.TemporaryDirectory(prefix="load-call-overhead-") as folder:
        out = Path(folder) / "out.py"
        env = dict(os.environ, TRITON_INTERPRET="1", KERNELOPT_CACHE_DIR=str(Path(folder) / "cache"))
        subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", str(options.model), "--device", "cpu",
                        "--cost-model", "static", "--proposers", "retune", "--max-candidates", "0", "-o", str(out)],
                       check=True, env=env, capture_output=True, text=True)
        spec = importlib.util.spec_from_file_location("load_call_overhead_model", options.model)
        problem = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(problem)
        torch.manual_seed(0)
        model = problem.Model(*problem.get_init_inputs()).eval()
        inputs = problem.get_inputs()
        loaded = kernelopt.load(str(out), model)
        loaded._loaded.call = lambda args: [torch.empty(0)]     # the kernels are not what is timed
        with torch.no_grad():
            loaded(*inputs)
            loaded(*inputs)
            start = time.perf_counter()
            for _ in range(options.calls):
                loaded(*inputs)
            per_call = (time.perf_counter() - start) / options.calls * 1e6
    parameters = sum(1 for _ in model.parameters()) + sum(1 for _ in model.buffers())
    print(f"{options.model.name}: {parameters} parameters and buffers, {per_call:.2f} us per call around call()")
    return 0


if __name__ == "__main__":
    sys.exit(main())
