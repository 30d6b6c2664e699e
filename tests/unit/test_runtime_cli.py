"""`kernelopt run` and `kernelopt bench` end to end, as a user runs them (in a subprocess)."""
from __future__ import annotations

import subprocess
import sys

import pytest
import torch

from kernelopt.runtime.interpret import install_cpu_triton_shims

install_cpu_triton_shims()


def small_model(x, state):
    state.mul_(2.0)
    return torch.tanh(x) * 3.0 + x.sum(dim=1, keepdim=True)


@pytest.fixture(scope="module")
def module_path(tmp_path_factory) -> str:
    import torch._inductor.config as inductor_config
    from torch._inductor.utils import run_and_get_code

    torch._dynamo.reset()
    with inductor_config.patch(cpu_backend="triton"), torch.no_grad():
        _, sources = run_and_get_code(torch.compile(small_model), torch.randn(8, 16), torch.randn(8))
    torch._dynamo.reset()
    path = tmp_path_factory.mktemp("cli") / "small_module.py"
    path.write_text(sources[0])
    return str(path)


def kernelopt(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kernelopt.cli", *argv], capture_output=True, text=True,
                          timeout=120)


def module_args(path: str) -> tuple[torch.Tensor, torch.Tensor, int]:
    """(x, state) in the module's argument order, and the index of `state`."""
    from kernelopt.runtime.loader import load_output_module

    specs = load_output_module(path).arg_specs
    x, state = torch.randn(8, 16), torch.randn(8)
    ordered = [x if tuple(s.sizes) == (8, 16) else state for s in specs]
    return ordered, [tuple(s.sizes) for s in specs].index((8,))


@pytest.mark.parametrize("as_dict", [False, True])
def test_run_writes_outputs_and_mutated_inputs(module_path, tmp_path, as_dict):
    args, state_index = module_args(module_path)
    x, state = args[1 - state_index], args[state_index]
    inputs = tmp_path / "args.pt"
    torch.save({"args": args} if as_dict else args, inputs)
    out = tmp_path / "out.pt"
    done = kernelopt("run", module_path, "--inputs", str(inputs), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "output 0: float32[8, 16]" in done.stdout
    result = torch.load(out)
    torch.testing.assert_close(result["outputs"][0], small_model(x.clone(), state.clone()), rtol=1e-5, atol=1e-5)
    assert set(result["mutated"]) == {state_index}
    torch.testing.assert_close(result["mutated"][state_index], state * 2.0)


def test_run_without_inputs_uses_get_args(module_path, tmp_path):
    out = tmp_path / "out.pt"
    done = kernelopt("run", module_path, "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert torch.load(out)["outputs"][0].shape == (8, 16)


def test_run_rejects_bad_inputs_with_exit_code_1(module_path, tmp_path):
    args, state_index = module_args(module_path)
    args[state_index] = torch.randn(9)
    inputs = tmp_path / "bad.pt"
    torch.save(args, inputs)
    done = kernelopt("run", module_path, "--inputs", str(inputs))
    assert done.returncode == 1
    assert f"argument {state_index} (arg{state_index}_1): expected shape (8,), got (9,)" in done.stderr
    assert "Traceback" not in done.stderr
    missing = kernelopt("run", str(tmp_path / "absent.py"))
    assert missing.returncode == 1 and "no such file" in missing.stderr


def test_usage_errors_exit_2(module_path):
    assert kernelopt("run").returncode == 2
    assert kernelopt("run", module_path, "--device", "tpu").returncode == 2


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU message")
def test_bench_needs_cuda_unless_cpu_is_asked(module_path):
    done = kernelopt("bench", module_path)
    assert done.returncode == 1 and "bench needs a CUDA GPU" in done.stderr
    cpu = kernelopt("bench", module_path, "--vs", module_path, "--device", "cpu", "--rounds", "1")
    assert cpu.returncode == 0, cpu.stderr
    assert "say NOTHING about GPU speed" in cpu.stderr and "ratio" in cpu.stdout
    # --profile: where each module's time goes, the costliest first (ops on the CPU, kernels on a GPU)
    profiled = kernelopt("bench", module_path, "--device", "cpu", "--rounds", "1", "--profile", "2")
    assert profiled.returncode == 0, profiled.stderr
    table = profiled.stdout.split("2 calls profiled", 1)[1]
    assert "| op (CPU time) | count | total us | per call us | share |" in table
    assert table.count("\n| ") >= 3                   # the header, its rule and at least one op
    bad = kernelopt("bench", module_path, "--device", "cpu", "--profile", "-1")
    assert bad.returncode == 2 and "--profile takes a number of calls" in bad.stderr


def test_the_search_evaluator_copies_only_the_inputs_the_module_updates_in_place(module_path):
    # At real sizes a copy of every input (7.5 GB of them on the H200) broke the job's memory bound: the
    # evaluator copies only what the IR's effects say the module writes, and the job's inputs stay as given.
    from kernelopt.ir.effects import mutated_arguments
    from kernelopt.lift import lift_file
    from kernelopt.rewrite.evaluate import ModuleEvaluator

    args, state_index = module_args(module_path)
    mutated = mutated_arguments(lift_file(module_path))
    assert mutated == (state_index,)
    before = [a.clone() for a in args]
    evaluator = ModuleEvaluator(module_path, args, device="cpu", mutated_inputs=mutated)
    assert all(torch.equal(a, b) for a, b in zip(args, before))          # the state was doubled on a copy
    # captured launch arguments are copies, never the caller's tensors
    assert not any(t is a for c in evaluator.capture.launches for t in c.args for a in args)
