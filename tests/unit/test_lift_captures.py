"""The lifter on real output modules: every shared fixture, every corpus capture, fresh CPU captures.

Each module must lift with no verifier error, print/parse/print to the same text, and keep every
kernel launch, vendor call and call() argument that its Python text has (counted here from the
text, independently of the lifter).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kernelopt.ir.diagnostics import Diagnostics
from kernelopt.ir.parser import parse_module
from kernelopt.ir.printer import print_module
from kernelopt.ir.verifier import verify
from kernelopt.lift import lift_file, lift_source

REPO = Path(__file__).resolve().parents[2]
FIXTURES = sorted((REPO / "tests" / "fixtures").glob("**/*.py"))
CORPUS = sorted((REPO / "tests" / "corpus").glob("**/*.py"))
LIFT_INPUTS = sorted((REPO / "tests" / "lit" / "lift" / "Inputs").glob("*.cuda-*.py"))  # real captures only


def _looks_like_output_module(path: Path) -> bool:
    text = path.read_text(errors="replace")
    return "def call(" in text and ("async_compile" in text or "extern_kernels" in text)


CAPTURES = [p for p in FIXTURES + CORPUS + LIFT_INPUTS if _looks_like_output_module(p)]


# -- independent counts from the Python text ------------------------------------------------------
_TRIPLE_QUOTED = re.compile(r"[rR]?'''.*?'''|[rR]?\"\"\".*?\"\"\"", re.DOTALL)


def _code_lines(text: str) -> list[str]:
    """The module's lines outside kernel source strings, comments dropped."""
    stripped = _TRIPLE_QUOTED.sub("''", text)
    return [line.split("#", 1)[0] for line in stripped.splitlines() if not line.lstrip().startswith("#")]


def python_counts(text: str) -> dict[str, int]:
    lines = _code_lines(text)
    code = "\n".join(lines)
    unpack = re.search(r"def call\(.*?\):\n\s+(.*?) = args\n", code)
    names = [n for n in unpack.group(1).split(",") if n.strip()] if unpack else []
    return {
        "launches": len(re.findall(r"\b\w+\.run\(", code)),
        "extern": len(re.findall(r"\bextern_kernels\.\w+\(", code)),
        "aten": len(re.findall(r"\btorch\.ops\.aten\.[\w.]+\(", code)),
        "args": len(names),
    }


def ir_counts(module) -> dict[str, int]:
    triton = {k.symbol for k in module.kernels if k.attrs.get("async_compile") == "triton"}
    return {
        "launches": sum(1 for op in module.launches() if op.symbol in triton),
        "extern": len(module.ops_named("ko.extern")),
        "aten": sum(1 for op in module.ops_named("ko.call") if (op.callee or "").startswith("torch.ops.aten.")),
        "args": len(module.ops_named("ko.arg")),
    }


def check_lifted(path: Path) -> tuple[object, Diagnostics]:
    diagnostics = Diagnostics()
    module = lift_file(path, diagnostics)
    errors = verify(module).errors
    assert not errors, "\n".join(str(e) for e in errors)
    text = print_module(module)
    assert print_module(parse_module(text, str(path))) == text
    assert ir_counts(module) == python_counts(path.read_text())
    assert module.attrs["num_args"] == python_counts(path.read_text())["args"]
    assert module.attrs["source"] == "inductor"
    return module, diagnostics


@pytest.mark.parametrize("path", CAPTURES, ids=[str(p.relative_to(REPO)) for p in CAPTURES])
def test_capture_lifts_cleanly(path):
    module, diagnostics = check_lifted(path)
    for op in module.body:
        assert op.loc is not None and op.loc.line > 0
    assert all(k.attrs["kind"] for k in module.kernels)


def test_shared_fixtures_lift_without_generic_ops():
    """The torch 2.11 GPU fixtures use only constructs the lifter models."""
    for path in FIXTURES:
        if not _looks_like_output_module(path):
            continue
        diagnostics = Diagnostics()
        module = lift_file(path, diagnostics)
        assert not module.ops_named("ko.generic"), path
        assert not [d for d in diagnostics if d.severity == "warning"], path


def test_counting_helper_sees_every_kind_of_call():
    text = (REPO / "tests/fixtures/inductor-2.11-h200/block.default.0.py").read_text()
    assert python_counts(text) == {"launches": 4, "extern": 4, "aten": 1, "args": 13}


# -- fresh CPU captures (torch installed here, Inductor's Triton backend for CPU tensors) ---------
_CAPTURE_SCRIPT = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    import torch
    import torch.nn.functional as F
    from kernelopt.capture.environment import prepare_cpu_triton
    prepare_cpu_triton()
    from torch._inductor.utils import run_and_get_code
    from kernelopt.capture.random_models import build

    out = Path(sys.argv[1])
    written = []

    def save(name, fn, *args, dynamic=False):
        torch._dynamo.reset()
        compiled = torch.compile(fn, dynamic=dynamic)
        _, codes = run_and_get_code(lambda: compiled(*args))
        for i, code in enumerate(codes):
            path = out / f"{name}.{i}.py"
            path.write_text(code)
            written.append(str(path))

    torch.manual_seed(0)
    mlp = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.LayerNorm(32), torch.nn.GELU())
    save("mlp", mlp, torch.randn(8, 16))
    save("ce", lambda x, t: F.cross_entropy(x, t), torch.randn(8, 100), torch.randint(0, 100, (8,)))
    save("dynamic", lambda x: (x.sin() + 1).sum(1), torch.randn(8, 16), dynamic=True)
    save("sdpa", lambda q, k, v: F.scaled_dot_product_attention(q.sin(), k, v) + 1,
         *[torch.randn(1, 2, 8, 16) for _ in range(3)])
    save("conv", lambda x, w: F.conv2d(x, w).relu(), torch.randn(1, 3, 8, 8), torch.randn(4, 3, 3, 3))
    save("bmm", lambda a, b: (torch.bmm(a, b) + 1).tanh(), torch.randn(2, 4, 8), torch.randn(2, 8, 4))
    save("cumsum", lambda x: torch.cumsum(x, 1) * 2, torch.randn(8, 64))
    x = torch.randn(8, 16, requires_grad=True)
    w = torch.randn(16, 4, requires_grad=True)
    torch._dynamo.reset()
    loss = torch.compile(lambda x, w: (x @ w).relu().sum())
    _, codes = run_and_get_code(lambda: loss(x, w).backward())
    for i, code in enumerate(codes):
        (out / f"backward.{i}.py").write_text(code)
        written.append(str(out / f"backward.{i}.py"))
    for seed in (1, 2, 3):
        model, inputs = build(seed)
        save(f"random{seed}", model, *inputs)
    print(json.dumps({"written": written, "torch": torch.__version__}))
""")


@pytest.fixture(scope="module")
def cpu_captures(tmp_path_factory):
    out = tmp_path_factory.mktemp("cpu_captures")
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONWARNINGS="ignore")
    proc = subprocess.run([sys.executable, "-c", _CAPTURE_SCRIPT, str(out)], capture_output=True, text=True,
                          env=env, timeout=600, cwd=REPO)
    if proc.returncode != 0:
        pytest.fail(f"CPU capture failed:\n{proc.stderr[-4000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    return [Path(p) for p in result["written"]], result["torch"]


def test_fresh_cpu_captures_lift_cleanly(cpu_captures):
    paths, version = cpu_captures
    assert len(paths) >= 11
    kinds = set()
    for path in paths:
        module, diagnostics = check_lifted(path)
        assert module.attrs["device"] == "cpu", path
        assert not module.ops_named("ko.generic"), f"{path}: {[str(d) for d in diagnostics]}"
        kinds |= {k.attrs["kind"] for k in module.kernels}
    assert {"pointwise", "persistent_reduction"} <= kinds


def test_fresh_dynamic_capture_is_marked_symbolic(cpu_captures):
    paths, _ = cpu_captures
    module = lift_file(next(p for p in paths if p.name.startswith("dynamic.")))
    assert module.attrs["symbolic_shapes"] is True
    symbols = module.attrs["symbols"]
    assert symbols and all(re.fullmatch(r"arg\d+_1", v) for v in symbols.values())
    alloc = module.ops_named("ko.alloc")[0]
    assert any(isinstance(s, str) for s in alloc.attrs["sizes"])


def test_fresh_backward_capture_keeps_item_and_externs(cpu_captures):
    paths, _ = cpu_captures
    backward = [lift_file(p) for p in paths if p.name.startswith("backward.")]
    assert len(backward) == 2
    names = {a.name for m in backward for a in (op.result for op in m.ops_named("ko.arg"))}
    assert "tangents_1" in names
    calls = [op.callee for m in backward for op in m.ops_named("ko.call", "ko.extern")]
    assert "extern_kernels.mm" in calls


def test_lift_source_names_the_module_after_the_file():
    path = REPO / "tests/fixtures/inductor-2.11-h200/ce.default.0.py"
    module = lift_source(path.read_text(), "somewhere/ce.default.0.py")
    assert module.name == "ce.default.0"
    assert module.attrs["file"] == "somewhere/ce.default.0.py"
