"""The templates proposer on REAL Inductor kernels (tests/fixtures/inductor-2.11-h200): idiom matching and
role binding on the full-size fixtures, then numeric equivalence of the bound candidate with the ORIGINAL
kernel source, both shrunk to small shapes and run on the CPU through the Triton interpreter."""
from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("TRITON_INTERPRET", "1")
try:  # a teammate's runtime may provide the CPU shims; the interpreter flag above is the fallback
    from kernelopt.runtime.interpret import install_cpu_triton_shims
except ImportError:
    install_cpu_triton_shims = None
if install_cpu_triton_shims is not None:
    install_cpu_triton_shims()

import pytest
import torch
import triton
import triton.language as tl

from kernelopt.proposers.base import ArgSpec, KernelSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.templates import TemplatesProposer
from kernelopt.rewrite.evaluate import load_candidate, load_source_module
from kernelopt.templates.kernels.cross_entropy import match_cross_entropy
from kernelopt.templates.kernels.row_kl_div import match_row_kl_div
from kernelopt.templates.kernels.row_norm import match_row_norm
from kernelopt.templates.kernels.row_softmax import match_row_softmax

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "inductor-2.11-h200"
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16, "int64": torch.int64,
          "int32": torch.int32, "bool": torch.bool}
SIGNATURE_DTYPES = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16", "i64": "int64", "i32": "int32"}


# ---------------------------------------------------------------------------------------------------
# Fixture reader: kernels from async_compile.triton(...) blocks, launches from `call`'s .run(...) calls.

@dataclass
class Fixture:
    kernels: dict[str, KernelSpec]
    launches: list[LaunchSpec]
    launch_vars: list[list[str | None]]          # variable name per launch argument (None for scalars)
    tensors: dict[str, tuple[tuple, tuple, str]] = field(default_factory=dict)  # var -> sizes, strides, dtype

    def target(self, indices: list[int]) -> tuple[RewriteTarget, list]:
        """RewriteTarget for launches[indices]; also the group's argument list as (var or scalar value)."""
        launches = [self.launches[i] for i in indices]
        kernels = tuple(self.kernels[k] for k in dict.fromkeys(l.kernel for l in launches))
        if len(indices) == 1:
            names = [v if v is not None else a.value for v, a in zip(self.launch_vars[indices[0]], launches[0].args)]
            return RewriteTarget(id=launches[0].kernel, kernels=kernels, launches=tuple(launches)), names
        seen, group_args, names = set(), [], []
        for i in indices:
            for var, arg in zip(self.launch_vars[i], self.launches[i].args):
                if var is not None and var in seen:
                    continue
                if var is not None:
                    seen.add(var)
                group_args.append(arg)
                names.append(var if var is not None else arg.value)
        return RewriteTarget(id="group:0", kernels=kernels, launches=tuple(launches),
                             group_args=tuple(group_args)), names


def shrink_text(text: str, sizes: dict[int, int]) -> str:
    if not sizes:
        return text
    pattern = re.compile(r"(?<![\w.])(" + "|".join(str(k) for k in sorted(sizes, reverse=True)) + r")(?![\w])")
    return pattern.sub(lambda m: str(sizes[int(m.group(1))]), text)


def load_fixture(name: str, shrink: dict[int, int] | None = None) -> Fixture:
    text = shrink_text((FIXTURES / name).read_text(), shrink or {})
    tree = ast.parse(text)
    kernels = _kernels(tree, text)
    fixture = Fixture(kernels, [], [])
    _read_inputs(tree, fixture)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "call")
    for node in ast.walk(call):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            _record_alloc(node, fixture)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in fixture.tensors:
            fixture.tensors[node.targets[0].id] = fixture.tensors[node.value.id]   # buf4 = buf2  # reuse
    for node in _statements(call):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
                isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "run":
            _record_launch(node.value, fixture)
    return fixture


def _statements(fn):
    for stmt in fn.body:
        yield stmt
        if isinstance(stmt, ast.With):
            yield from stmt.body


def _kernels(tree: ast.Module, text: str) -> dict[str, KernelSpec]:
    kernels = {}
    lines = text.splitlines()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                getattr(node.value.func, "attr", "") == "triton":
            name, source = node.value.args[0].value, node.value.args[1].value
            signature = ast.literal_eval(re.search(r"'signature': (\{[^}]*\})", source).group(1))
            hints = re.search(r"size_hints=(\{[^}]*\})", source)
            size_hints = ast.literal_eval(hints.group(1)) if hints else {}
            kind = re.search(r"@triton_heuristics\.(\w+)\(", source).group(1)
            above = "\n".join(lines[max(0, node.lineno - 40):node.lineno - 1])
            provenance = re.findall(r"Original ATen: \[[^\]]*\]", above)
            kernels[name] = KernelSpec(name=name, kind=kind, source=source, signature=signature,
                                       size_hints=size_hints, provenance=provenance[-1] if provenance else "")
    return kernels


def _read_inputs(tree: ast.Module, fixture: Fixture) -> None:
    get_args = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "get_args")
    for node in ast.walk(get_args):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                getattr(node.value.func, "id", "") == "rand_strided":
            sizes, strides = (ast.literal_eval(a) for a in node.value.args[:2])
            dtype = next(k.value.attr for k in node.value.keywords if k.arg == "dtype")
            fixture.tensors[node.targets[0].id] = (tuple(sizes), tuple(strides), dtype)


def _record_alloc(node: ast.Assign, fixture: Fixture) -> None:
    func, args = node.value.func, node.value.args
    if getattr(func, "id", "") in ("empty_strided_cuda", "empty_strided_cpu"):   # a GPU or a CPU capture
        sizes, strides = (ast.literal_eval(a) for a in args[:2])
        fixture.tensors[node.targets[0].id] = (tuple(sizes), tuple(strides), args[2].attr)
    elif getattr(func, "id", "") == "reinterpret_tensor":
        sizes, strides, offset = (ast.literal_eval(a) for a in args[1:4])
        base = fixture.tensors.get(getattr(args[0], "id", ""))
        if offset == 0:       # dtype None: a vendor call's output, typed from the kernel signature later
            fixture.tensors[node.targets[0].id] = (tuple(sizes), tuple(strides), base[2] if base else None)


def _record_launch(call: ast.Call, fixture: Fixture) -> None:
    kernel = fixture.kernels[call.func.value.id]
    if any(isinstance(a, ast.Name) and a.id not in fixture.tensors for a in call.args):
        return                                   # a buffer made by a vendor call we do not model here
    params = [p for p, t in kernel.signature.items() if t != "constexpr" or p in ("xnumel", "r0_numel")]
    args, names = [], []
    for param, node in zip(params, call.args):
        if isinstance(node, ast.Name):
            sizes, strides, dtype = fixture.tensors[node.id]
            if dtype is None:
                dtype = SIGNATURE_DTYPES[kernel.signature[param].lstrip("*")]
                fixture.tensors[node.id] = (sizes, strides, dtype)
            args.append(ArgSpec(name=param, is_tensor=True, sizes=sizes, strides=strides, dtype=dtype,
                                written=param.startswith(("out_ptr", "in_out_ptr"))))
            names.append(node.id)
        else:
            args.append(ArgSpec(name=param, is_tensor=False, value=ast.literal_eval(node)))
            names.append(None)
    fixture.launches.append(LaunchSpec(kernel=kernel.name, args=tuple(args)))
    fixture.launch_vars.append(names)


# ---------------------------------------------------------------------------------------------------
# Running sources on the CPU

# libdevice names Inductor emits in these fixtures (rsqrt, erf), mapped to a module the interpreter patches
LIBDEVICE = tl.math


def original_kernel(kernel: KernelSpec):
    """The Inductor kernel as a plain @triton.jit function (heuristics decorator and driver call dropped)."""
    source = re.sub(r"@triton_heuristics\.\w+\(.*?\n\)\n", "", kernel.source, flags=re.S)
    source = source.replace("triton_helpers.set_driver_to_gpu()", "").replace("triton_helpers.set_driver_to_cpu()", "")
    module = load_source_module(source, f"ko_orig_{kernel.name}")   # a file of its own: triton.jit reads it
    module.libdevice = LIBDEVICE
    return getattr(module, kernel.name)


def run_original(fixture: Fixture, index: int, values: dict, xblock: int = 1, r0_block: int = 16) -> None:
    launch, kernel = fixture.launches[index], fixture.kernels[fixture.launches[index].kernel]
    fn = original_kernel(kernel)
    args = [values[v] if v is not None else a.value for v, a in zip(fixture.launch_vars[index], launch.args)]
    xnumel = next(a.value for a in launch.args if a.name == "xnumel")
    meta = {"XBLOCK": xblock}
    if "R0_BLOCK" in kernel.signature:
        meta["R0_BLOCK"] = r0_block
    fn[(triton.cdiv(xnumel, xblock),)](*args, **meta)


def run_candidate(source: str, args: list) -> None:
    load_candidate(source, "ko_cand")(*args)


def make_tensors(fixture: Fixture, seed: int, targets_for: dict[str, int] | None = None) -> dict:
    gen = torch.Generator().manual_seed(seed)
    values = {}
    for var, (sizes, strides, dtype) in fixture.tensors.items():
        t = torch.empty_strided(sizes, strides, dtype=DTYPES[dtype])
        if dtype == "int64":
            t.copy_(torch.randint(0, targets_for.get(var, 2), sizes, generator=gen) if targets_for else 0)
        elif var.startswith("arg"):
            t.copy_(torch.randn(sizes, generator=gen) * 3)
        else:
            t.fill_(float("nan"))                  # poisoned: an unwritten output fails the comparison
        values[var] = t
    return values


# ---------------------------------------------------------------------------------------------------
# Matching on the full-size fixtures

def _all_single_targets():
    for path in sorted(FIXTURES.glob("*.py")):
        fixture = load_fixture(path.name)
        for i, launch in enumerate(fixture.launches):
            yield path.name, launch.kernel, fixture, i


EXPECTED_NORMS = {
    "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0": ("rms", 1e-06, {"x": 0, "weight": 1, "out": 2}),
    "triton_per_fused_native_layer_norm_0": ("layer", 1e-05, {"x": 0, "weight": 1, "bias": 2, "out": 3}),
    "triton_per_fused_add_native_layer_norm_view_1":
        ("layer", 1e-05, {"x": 0, "residual": 1, "weight": 2, "bias": 3, "out": 4}),
    # GELU(LayerNorm(x + r)) * 0.5 + r: the epilogue reads r again (role e0)
    "triton_red_fused_add_gelu_mul_native_layer_norm_0":
        ("layer", 1e-05, {"x": 0, "residual": 1, "weight": 2, "bias": 3, "out": 4, "e0": 1}),
}


def test_row_norm_matches_exactly_the_pure_norm_kernels_of_all_fixtures():
    proposer = TemplatesProposer()
    matched = {}
    for case, kernel, fixture, i in _all_single_targets():
        target, _ = fixture.target([i])
        candidates = list(proposer.propose(target, []))
        if candidates:
            matched[kernel] = match_row_norm(target.kernels[0], target.launches[0])
            assert all(c.strategy.startswith("templates:") and c.proposer == "templates" for c in candidates)
            assert len({c.strategy for c in candidates}) == len(candidates) >= 2
    assert set(matched) == set(EXPECTED_NORMS)       # gpt2's (in_out_ptr) are skipped
    for kernel, (kind, eps, roles) in EXPECTED_NORMS.items():
        m = matched[kernel]
        assert (m.kind, m.eps) == (kind, eps)
        assert {k: v for k, v in m.roles.items() if v is not None} == roles


@pytest.mark.parametrize("mode", ["default", "max-autotune-no-cudagraphs"])
def test_cross_entropy_group_binds_roles(mode):
    fixture = load_fixture(f"ce.{mode}.0.py")
    target, names = fixture.target([0, 1])
    match = match_cross_entropy(target)
    assert match is not None
    assert (match.n_rows, match.n_cols, match.ignore_index, match.logits_dtype) == (4096, 32000, -100, "bfloat16")
    bound = {role: names[pos] for role, pos in match.roles.items()}
    assert bound == {"logits": "arg0_1", "row_max": "buf0", "row_sum": "buf1", "loss": "buf4", "target": "arg1_1"}
    strategies = [c.strategy for c in TemplatesProposer().propose(target, [])]
    assert "templates:online-cross-entropy row-on-chip BLOCK=32768 warps=16" in strategies
    assert "templates:online-cross-entropy BLOCK=4096 warps=16" in strategies
    # the fastest measured variants come first: a budgeted search reaches them
    assert strategies[:2] == ["templates:online-cross-entropy UNROLL=2 BLOCK=512 warps=4",
                              "templates:online-cross-entropy UNROLL=2 BLOCK=1024 warps=8"]


def test_cross_entropy_is_not_proposed_for_single_launches_or_unrelated_groups():
    fixture = load_fixture("ce.default.0.py")
    for i in range(2):
        target, _ = fixture.target([i])
        assert list(TemplatesProposer().propose(target, [])) == []
    rms = load_fixture("rms_swiglu.default.0.py")
    target, _ = rms.target([0, 1])
    assert list(TemplatesProposer().propose(target, [])) == []


def test_history_suppresses_already_tried_strategies():
    from kernelopt.proposers.base import Attempt
    fixture = load_fixture("ce.default.0.py")
    target, _ = fixture.target([0, 1])
    first = list(TemplatesProposer().propose(target, []))
    history = [Attempt(candidate=first[0], accepted=False, reason="slower")]
    again = [c.strategy for c in TemplatesProposer().propose(target, history)]
    assert first[0].strategy not in again and len(again) == len(first) - 1


# ---------------------------------------------------------------------------------------------------
# Equivalence with the original kernels on small shapes

def _close(actual, expected, dtype):
    tol = {torch.float32: 2e-5, torch.bfloat16: 2e-2, torch.float16: 2e-3}[dtype]
    torch.testing.assert_close(actual.float(), expected.float(), rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("seed", [0, 1])
def test_cross_entropy_candidates_match_the_original_pair(seed):
    n_rows, n_cols = 8, 100
    fixture = load_fixture("ce.default.0.py", shrink={4096: n_rows, 32000: n_cols})
    target, names = fixture.target([0, 1])
    candidates = list(TemplatesProposer().propose(target, []))
    assert candidates
    values = make_tensors(fixture, seed, targets_for={"arg1_1": n_cols})
    values["arg0_1"].copy_(values["arg0_1"] * (1e4 if seed else 1))      # adversarial scale on seed 1
    values["arg1_1"][::3] = -100                                          # ignored rows
    values["arg1_1"][1] = -1                                              # wraps to the last class, as Inductor
    reference = {k: v.clone() for k, v in values.items()}
    run_original(fixture, 0, reference, r0_block=32)
    run_original(fixture, 1, reference, r0_block=4)
    assert torch.isfinite(reference["buf4"]).all()
    for candidate in candidates:
        mine = {k: (v.clone() if not k.startswith("buf") else torch.full_like(v, float("nan")))
                for k, v in values.items()}
        run_candidate(candidate.source, [mine[n] if isinstance(n, str) else n for n in names])
        _close(mine["buf4"], reference["buf4"], torch.float32)
        _close(mine["buf0"], reference["buf0"], torch.float32)            # row max, written like the original
        _close(mine["buf1"], reference["buf1"], torch.float32)            # row sum of exp
        assert torch.equal(mine["arg0_1"], values["arg0_1"]) and torch.equal(mine["arg1_1"], values["arg1_1"])


BLOCK_SHRINK = {8192: 512, 1024: 64, 1048576: 4096}   # [8, 1024, 1024] -> [8, 64, 64]: 512 rows of 64
NORM_CASES = [
    ("rms_swiglu.default.0.py", 0, {4096: 6, 2048: 100}, 32),          # looped reduction, non-pow2 row
    ("block.default.0.py", 0, BLOCK_SHRINK, None),                     # persistent, R0_BLOCK hard-coded
    ("block.default.0.py", 1, BLOCK_SHRINK, None),                     # residual add + LayerNorm
    ("ln_gelu.default.0.py", 0, {8192: 6, 4096: 100}, 32),             # ... + GELU * 0.5 + r epilogue
]


@pytest.mark.parametrize("case,index,shrink,r0_block", NORM_CASES)
def test_norm_candidates_match_the_original_kernel(case, index, shrink, r0_block):
    fixture = load_fixture(case, shrink=shrink)
    target, names = fixture.target([index])
    candidates = list(TemplatesProposer().propose(target, []))
    assert candidates
    values = make_tensors(fixture, seed=index)
    out_var = next(v for v, a in zip(fixture.launch_vars[index], target.launches[0].args) if a.written)
    reference = {k: v.clone() for k, v in values.items()}
    run_original(fixture, index, reference, xblock=1 if r0_block else 16, r0_block=r0_block or 16)
    for candidate in candidates[:2]:
        mine = {k: v.clone() for k, v in values.items()}
        run_candidate(candidate.source, [mine[n] if isinstance(n, str) else n for n in names])
        _close(mine[out_var], reference[out_var], DTYPES[fixture.tensors[out_var][2]])


# ---------------------------------------------------------------------------------------------------
# The per-row KL divergence (tests/zoo/kl_div.py at the large size, captured on the H200)

KL_DIV = Path(__file__).resolve().parents[1] / "corpus" / "cuda-2.11-h200" / "kl_div" / "large.default" / \
    "kl_div.default.0.py"


def test_kl_div_row_kernel_binds_roles_and_nothing_else_matches():
    fixture = load_fixture(str(KL_DIV))
    target, names = fixture.target([0])
    match = match_row_kl_div(target.kernels[0], target.launches[0])
    assert match is not None
    assert (match.n_rows, match.n_cols, match.scale, match.temperature_scale, match.dtype) == \
        (4096, 32000, 1.0, 0.5, "bfloat16")          # T = 2: log_softmax((x - max) * 0.5)
    assert {role: names[pos] for role, pos in match.roles.items()} == \
        {"p_logits": "arg0_1", "q_logits": "arg1_1", "out": "buf4"}   # student, teacher, per-row KL
    strategies = [c.strategy for c in TemplatesProposer().propose(target, [])]
    assert strategies[0] == "templates:online-kl-div UNROLL=2 BLOCK=512 warps=4" and len(set(strategies)) >= 4
    final, _ = fixture.target([1])                   # the batchmean over rows is not this idiom
    assert match_row_kl_div(final.kernels[0], final.launches[0]) is None
    for case, kernel, other, i in _all_single_targets():     # nor is any kernel of the other fixtures
        single, _ = other.target([i])
        assert match_row_kl_div(single.kernels[0], single.launches[0]) is None, (case, kernel)


@pytest.mark.parametrize("kind", ["random", "large", "negative", "non-finite"])
def test_kl_div_candidates_match_the_original_kernel(kind):
    n_rows, n_cols = 5, 1000        # several chunks per row for every variant, a ragged last chunk
    fixture = load_fixture(str(KL_DIV), shrink={4096: n_rows, 32000: n_cols})
    target, names = fixture.target([0])
    candidates = list(TemplatesProposer().propose(target, []))
    assert len(candidates) >= 4
    values = make_tensors(fixture, seed=len(kind))
    p, q = values["arg0_1"], values["arg1_1"]
    if kind == "large":
        p.mul_(1e4), q.mul_(1e4)
    elif kind == "negative":
        p.copy_(p.abs() * -30 - 1), q.copy_(q.abs() * -30 - 1)
    elif kind == "non-finite":
        q[0, 7] = float("-inf")      # exp(lq) * (lq - lp) = 0 * -inf: the original's row is NaN
        p[1, 9] = float("-inf")      # lp = -inf: +inf
        q[2, 3] = float("nan")
    reference = {k: v.clone() for k, v in values.items()}
    run_original(fixture, 0, reference, r0_block=64)
    expected = reference["buf4"]
    if kind == "non-finite":
        assert torch.isnan(expected[0]).all() and torch.isinf(expected[1]).all() and torch.isnan(expected[2]).all()
        assert torch.isfinite(expected[3:]).all()
    else:
        assert torch.isfinite(expected).all()
    for candidate in candidates:
        mine = {k: (v.clone() if not k.startswith("buf") else torch.full_like(v, float("nan")))
                for k, v in values.items()}
        run_candidate(candidate.source, [mine[n] if isinstance(n, str) else n for n in names])
        torch.testing.assert_close(mine["buf4"], expected, rtol=2e-6, atol=2e-5, equal_nan=True,
                                   msg=lambda m: f"{candidate.strategy}: {m}")
        for name, original in (("arg0_1", p), ("arg1_1", q)):      # inputs untouched, bit for bit
            assert torch.equal(mine[name].view(torch.int16), original.view(torch.int16))


# ---------------------------------------------------------------------------------------------------
# Row softmax: the kernel of tests/zoo/softmax.py at the large size (softmax(x.float() * 0.125) of bf16
# [8192, 8192], bf16 out), verbatim from the H200 capture of 2026-12-03 (torch 2.11: the max of x * 1.0,
# then exp((x - max) * 0.125), three passes over the row).

SOFTMAX_KERNEL = '''import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math


@triton.jit
def triton_red_fused__softmax__to_copy_amax_mul_sub_0(in_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 8192
    r0_numel = 8192
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp5 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 8192*x0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.full([1, 1], 1.0, tl.float32)
        tmp3 = tmp1 * tmp2
        tmp4 = tl.broadcast_to(tmp3, [XBLOCK, R0_BLOCK])
        tmp6 = triton_helpers.maximum(_tmp5, tmp4)
        _tmp5 = tl.where(r0_mask, tmp6, _tmp5)
    tmp5 = triton_helpers.max2(_tmp5, 1)[:, None]
    _tmp16 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp7 = tl.load(in_ptr0 + (r0_1 + 8192*x0), r0_mask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp8 = tmp7.to(tl.float32)
        tmp9 = tl.full([1, 1], 1.0, tl.float32)
        tmp10 = tmp8 * tmp9
        tmp11 = tmp10 - tmp5
        tmp12 = tl.full([1, 1], 0.125, tl.float32)
        tmp13 = tmp11 * tmp12
        tmp14 = libdevice.exp(tmp13)
        tmp15 = tl.broadcast_to(tmp14, [XBLOCK, R0_BLOCK])
        tmp17 = _tmp16 + tmp15
        _tmp16 = tl.where(r0_mask, tmp17, _tmp16)
    tmp16 = tl.sum(_tmp16, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp18 = tl.load(in_ptr0 + (r0_1 + 8192*x0), r0_mask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp19 = tmp18.to(tl.float32)
        tmp20 = tl.full([1, 1], 1.0, tl.float32)
        tmp21 = tmp19 * tmp20
        tmp22 = tmp21 - tmp5
        tmp23 = tl.full([1, 1], 0.125, tl.float32)
        tmp24 = tmp22 * tmp23
        tmp25 = libdevice.exp(tmp24)
        tmp26 = (tmp25 / tmp16)
        tmp27 = tmp26.to(tl.float32)
        tl.store(out_ptr2 + (r0_1 + 8192*x0), tmp27, r0_mask)
'''


def _softmax_fixture(rows: int = 8192, cols: int = 8192) -> tuple[RewriteTarget, KernelSpec]:
    name = "triton_red_fused__softmax__to_copy_amax_mul_sub_0"
    source = SOFTMAX_KERNEL.replace("xnumel = 8192", f"xnumel = {rows}").replace("r0_numel = 8192",
                                                                                   f"r0_numel = {cols}")
    source = source.replace("8192*x0", f"{cols}*x0")
    kernel = KernelSpec(name=name, kind="reduction", source=source,
                        signature={"in_ptr0": "*bf16", "out_ptr2": "*bf16", "xnumel": "i32", "r0_numel": "i32",
                                   "XBLOCK": "constexpr", "R0_BLOCK": "constexpr"})
    tensor = dict(is_tensor=True, sizes=(rows, cols), strides=(cols, 1), dtype="bfloat16")
    launch = LaunchSpec(kernel=name, args=(ArgSpec(name="in_ptr0", **tensor),
                                           ArgSpec(name="out_ptr2", written=True, **tensor),
                                           ArgSpec(name="xnumel", is_tensor=False, value=rows),
                                           ArgSpec(name="r0_numel", is_tensor=False, value=cols)))
    return RewriteTarget(id=name, kernels=(kernel,), launches=(launch,)), kernel


def test_row_softmax_binds_the_scaled_softmax_kernel():
    target, _ = _softmax_fixture()
    match = match_row_softmax(target.kernels[0], target.launches[0])
    assert match is not None
    assert (match.n_rows, match.n_cols, match.scale, match.temperature_scale, match.out_dtype) == \
        (8192, 8192, 1.0, 0.125, "bfloat16")
    assert match.roles == {"x": 0, "out": 1}
    strategies = [c.strategy for c in TemplatesProposer().propose(target, [])]
    assert strategies[0] == "templates:softmax row-on-chip BLOCK=8192 rows=1 warps=8"
    assert any("online two-pass" in s for s in strategies)
    for case, kernel, other, i in _all_single_targets():     # no kernel of the other fixtures is a softmax
        single, _ = other.target([i])
        assert match_row_softmax(single.kernels[0], single.launches[0]) is None, (case, kernel)


@pytest.mark.parametrize("scale", [1.0, 1e4])
def test_row_softmax_candidates_match_the_original_kernel(scale):
    rows, cols = 5, 3000          # not a power of two; both the row-on-chip and the two-pass variants
    target, kernel = _softmax_fixture(rows, cols)
    candidates = list(TemplatesProposer().propose(target, []))
    assert len(candidates) >= 5 and any("two-pass" in c.strategy for c in candidates)
    gen = torch.Generator().manual_seed(int(scale))
    x = (torch.randn(rows, cols, generator=gen) * 4 * scale).to(torch.bfloat16)
    x[2, 7] = float("-inf")
    expected = torch.full((rows, cols), float("nan"), dtype=torch.bfloat16)
    original_kernel(kernel)[(rows,)](x, expected, rows, cols, XBLOCK=1, R0_BLOCK=64)
    assert torch.isfinite(expected.float()).all()
    for candidate in candidates:
        out = torch.full((rows, cols), float("nan"), dtype=torch.bfloat16)
        run_candidate(candidate.source, [x, out, rows, cols])
        torch.testing.assert_close(out.float(), expected.float(), rtol=1.6e-2, atol=1e-5,
                                   msg=lambda m: f"{candidate.strategy}: {m}")
