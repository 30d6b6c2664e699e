"""The `split-row` proposer on real Inductor reduction kernels, under the Triton interpreter.

Kernels come from real captures: `tests/fixtures/inductor-2.13-cpu/row_reductions` (torch 2.13: mean, max,
argmax, a two-pass layer norm, a three-pass softmax with a row epilogue) and the H200 captures
(torch 2.11: layer norm, online softmax, in bf16), their hard-coded sizes shrunk to small shapes whose
row counts and lengths are not powers of two, not multiples of the chunk, and of length 1. Every split
is checked against the original kernel on the same inputs and against a float64 torch reference;
the legality gate then proves the proposer's own candidates on the capture's launches.
"""
from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")

from kernelopt.runtime.interpret import install_cpu_triton_shims  # noqa: E402

install_cpu_triton_shims()

import types  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from kernelopt.inductor_source import shrink_sizes, strip_heuristics  # noqa: E402
from kernelopt.lift import lift_file  # noqa: E402
from kernelopt.proposers.base import KernelSpec  # noqa: E402
from kernelopt.proposers.registry import make_proposer  # noqa: E402
from kernelopt.proposers.split_row.phases import candidate_source, split_for  # noqa: E402
from kernelopt.proposers.split_row.proposer import SplitRowProposer  # noqa: E402
from kernelopt.proposers.split_row.structure import NotSplittable, parse_row_kernel  # noqa: E402
from kernelopt.rewrite.evaluate import load_source_module  # noqa: E402
from kernelopt.rewrite.targets import kernel_target  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
CAPTURE = REPO / "tests" / "fixtures" / "inductor-2.13-cpu" / "row_reductions.default.0.py"
H200 = REPO / "tests" / "fixtures" / "inductor-2.11-h200"
ROWS, LENGTH = 5, 1500          # the capture's shape (row_reductions.py)
KERNELS = {"layer_norm": "triton_red_fused_native_layer_norm_0", "mean": "triton_red_fused_mean_1",
           "max": "triton_red_fused_amax_2", "argmax": "triton_red_fused_argmax_3",
           "softmax": "triton_red_fused__softmax_abs_div_sum_4"}


def _targets(path: Path) -> dict:
    module = lift_file(str(path))
    return {k.symbol: kernel_target(module, k.symbol) for k in module.kernels}


@pytest.fixture(scope="module")
def capture_targets():
    return _targets(CAPTURE)


def _load(source: str, label: str) -> types.ModuleType:
    """Import a source as a file of its own (Triton's JIT reads kernel sources through inspect)."""
    return load_source_module(source, f"ko_split_row_{label}")


def _shrunk(spec: KernelSpec, sizes: dict[int, int]) -> KernelSpec:
    # the sizes are replaced in order: rows (5) before the row length (1500), or a length of 5 just
    # written would become the row count
    return KernelSpec(spec.name, spec.kind, shrink_sizes(spec.source, sizes), spec.signature, spec.size_hints)


def _run_original(spec: KernelSpec, args: list, rows: int, r0_block: int) -> None:
    kernel = getattr(_load(strip_heuristics(spec.source, spec.name), "original"), spec.name)
    kernel[(rows, 1, 1)](*args, XBLOCK=1, R0_BLOCK=r0_block)


def _run_split(spec: KernelSpec, args: list, chunks: int, r0_block: int) -> str:
    kernel = parse_row_kernel(spec.source, spec.name)
    split = split_for(kernel.row_length, chunks, r0_block)
    source = candidate_source(kernel, split, next(i for i, a in enumerate(args) if isinstance(a, torch.Tensor)))
    _load(source, "candidate").run(*args)
    return source


def _random(shape, seed: int, dtype=torch.float32) -> torch.Tensor:
    return (torch.randn(shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64) * 3).to(dtype)


def _cases(name: str, rows: int, n: int, seed: int):
    """(args with poisoned outputs, output positions, float64 references) for a capture kernel."""
    x = _random((rows, n), seed)
    if name == "argmax":
        x = torch.randint(-3, 4, (rows, n), generator=torch.Generator().manual_seed(seed)).float()  # ties
        return [x, torch.full((rows,), -1, dtype=torch.int64), rows, n], {1: x.double().argmax(-1)}
    if name == "mean":
        return [torch.full((rows,), float("nan")), x, rows, n], {0: x.double().mean(-1)}
    if name == "max":
        return [x, torch.full((rows,), float("nan")), rows, n], {1: x.double().amax(-1)}
    if name == "layer_norm":
        w, b = _random((n,), seed + 1), _random((n,), seed + 2)
        want = F.layer_norm(x.double(), (n,), w.double(), b.double(), 1e-5)
        return [x, w, b, torch.full((rows, n), float("nan")), rows, n], {3: want}
    if name == "softmax":
        outs = [torch.full((rows, n), float("nan")), torch.full((rows, 1), float("nan"))]
        return [*outs, x, rows, n], {0: torch.softmax(x.double(), -1), 1: x.double().abs().sum(-1, keepdim=True) / 7}
    raise KeyError(name)


def _check(name, spec, rows, n, chunks, r0_block, seed=0):
    """The split kernel equals the original on fresh inputs and is as close to float64 as fp32 allows."""
    args, want = _cases(name, rows, n, seed)
    original = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    _run_original(spec, original, rows, r0_block)
    _run_split(spec, args, chunks, r0_block)
    for position, reference in want.items():
        got, base = args[position], original[position]
        if not got.is_floating_point():
            assert torch.equal(got, base) and torch.equal(got, reference.to(got.dtype)), (name, got, reference)
            continue
        assert not got.isnan().any(), f"{name}: an output element was never written"
        scale = reference.abs().amax().clamp(min=1.0).item()
        torch.testing.assert_close(got.double(), reference, rtol=1e-5, atol=2e-6 * scale)
        torch.testing.assert_close(got, base, rtol=1e-5, atol=2e-6 * scale)


# shapes: (rows, row length, chunks asked, R0_BLOCK): rows and lengths not powers of two, a last block and
# a last chunk cut short (37 = 2 chunks of 16 + 5), a single row split into more chunks than it has
# blocks (one block each), rows of one element
SHAPES = [(3, 37, 3, 4), (1, 130, 40, 8), (2, 1, 1, 1)]


@pytest.mark.parametrize("name", sorted(KERNELS))
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_split_kernel_matches_the_original_and_float64(capture_targets, name, shape):
    rows, n, chunks, r0_block = shape
    spec = _shrunk(capture_targets[KERNELS[name]].kernels[0], {ROWS: rows, LENGTH: n})
    _check(name, spec, rows, n, chunks, r0_block)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.integers(1, 4), n=st.integers(1, 70), chunks=st.integers(1, 9),
       r0_block=st.sampled_from([2, 4, 16]), seed=st.integers(0, 2**16))
def test_any_split_of_a_two_pass_layer_norm_is_exact_in_structure(capture_targets, rows, n, chunks, r0_block, seed):
    spec = _shrunk(capture_targets[KERNELS["layer_norm"]].kernels[0], {ROWS: rows, LENGTH: n})
    _check("layer_norm", spec, rows, n, chunks, r0_block, seed)


def _h200_kernel(fixture: str, name: str, sizes: dict[int, int]) -> KernelSpec:
    target = _targets(H200 / fixture)[name]
    return _shrunk(target.kernels[0], sizes)


def test_a_torch_2_11_bf16_layer_norm_with_gelu_epilogue_splits_exactly():
    # H200 capture: Welford pass, then normalize + affine + GELU + residual in bf16; rows all in bounds
    rows, n = 3, 300
    spec = _h200_kernel("ln_gelu.default.0.py", "triton_red_fused_add_gelu_mul_native_layer_norm_0",
                        {8192: rows, 4096: n})
    x, r = _random((rows, n), 1, torch.bfloat16), _random((rows, n), 2, torch.bfloat16)
    w, b = _random((n,), 3, torch.bfloat16), _random((n,), 4, torch.bfloat16)
    args = [x, r, w, b, torch.full((rows, n), float("nan"), dtype=torch.bfloat16), rows, n]
    original = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    _run_original(spec, original, rows, 32)
    source = _run_split(spec, args, 5, 32)
    assert source.count("@triton.jit") == 2          # Welford partials; combine + normalize over chunks
    h = (x.double() + r.double())
    normed = F.layer_norm(h, (n,), w.double(), b.double(), 1e-5)
    want = F.gelu(normed) * 0.5 + r.double()
    torch.testing.assert_close(args[4].double(), want, rtol=2e-2, atol=2e-2)
    torch.testing.assert_close(args[4].float(), original[4].float(), rtol=1.6e-2, atol=1e-2)


def test_a_torch_2_11_online_softmax_reduction_splits_exactly():
    # H200 capture of cross-entropy's first kernel: online max + sum of exp per row (bf16 logits)
    rows, n = 2, 333
    spec = _h200_kernel("ce.default.0.py", "triton_red_fused__to_copy_prepare_softmax_online_0",
                        {4096: rows, 32000: n})
    logits = _random((rows, n), 5, torch.bfloat16) * 4
    args = [logits, torch.full((rows, 1), float("nan")), torch.full((rows, 1), float("nan")), rows, n]
    original = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    _run_original(spec, original, rows, 32)
    _run_split(spec, args, 6, 32)
    x = logits.double()
    row_max = x.amax(-1, keepdim=True)
    torch.testing.assert_close(args[1].double(), row_max)
    torch.testing.assert_close(args[2].double(), (x - row_max).exp().sum(-1, keepdim=True), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(args[2], original[2], rtol=1e-5, atol=1e-5)


# -- the proposer and the legality gate ----------------------------------------------------------

@pytest.fixture(scope="module")
def evaluator():
    from kernelopt.rewrite.evaluate import ModuleEvaluator

    return ModuleEvaluator(str(CAPTURE), None, device="cpu")


@pytest.mark.parametrize("name", ["mean", "layer_norm"])
def test_proposed_splits_pass_the_legality_gate(capture_targets, evaluator, name):
    target = capture_targets[KERNELS[name]]
    candidates = list(make_proposer("split-row").propose(target, []))
    assert candidates and all(c.strategy.startswith("split-row chunks=") for c in candidates)
    # the capture was compiled for a 2-"SM" CPU: 5 rows, aiming at 2..8 programs per SM
    assert {c.strategy.split()[1] for c in candidates} >= {"chunks=2", "chunks=4"}
    verdict = evaluator.evaluate(target, candidates[0])
    assert verdict.accepted, verdict.reason


def test_a_split_that_skips_part_of_each_chunk_is_rejected(capture_targets, evaluator):
    target = capture_targets[KERNELS["mean"]]
    good = next(iter(SplitRowProposer().propose(target, [])))
    wrong = good.source.replace("ko_r0_start = ko_chunk * KO_CHUNK", "ko_r0_start = ko_chunk * KO_CHUNK + R0_BLOCK")
    assert wrong != good.source
    verdict = evaluator.evaluate(target, type(good)(wrong, good.proposer, "skips a block"))
    assert not verdict.accepted and verdict.reason.startswith(("mismatch", "less-accurate")), verdict.reason


def test_later_rounds_try_half_and_double_the_best_chunk_count(capture_targets):
    from kernelopt.proposers.base import Attempt

    target = capture_targets[KERNELS["mean"]]
    first = list(SplitRowProposer().propose(target, []))
    best = next(c for c in first if c.strategy.startswith("split-row chunks=4 "))
    history = [Attempt(c, True, "ACCEPT", 1.5 if c is best else 1.1) for c in first]
    second = [c.strategy for c in SplitRowProposer().propose(target, history)]
    # half of 4 chunks, with the winner's block and warps; 8 chunks of 1500 would be under MIN_CHUNK each
    assert second == ["split-row chunks=2 chunk=768 R0_BLOCK=128 num_warps=4 num_stages=1"]


# -- when it does not apply ------------------------------------------------------------------------

def _edited(target, old: str, new: str):
    spec = target.kernels[0]
    assert old in spec.source
    edited = KernelSpec(spec.name, spec.kind, spec.source.replace(old, new), spec.signature, spec.size_hints)
    return type(target)(target.id, (edited,), target.launches)


@pytest.mark.parametrize("name, old, new, reason", [
    # an in-place read-modify-write of the row result: later split kernels would re-read the new value
    ("mean", "    tl.store(in_out_ptr0 + (x0), tmp5, xmask)",
     "    tmp9 = tl.load(in_out_ptr0 + (x0), xmask)\n    tl.store(in_out_ptr0 + (x0), tmp5 + tmp9, xmask)",
     "read outside the row loops and also written"),
    # a per-row store inside the loop: every chunk would write the same element
    ("layer_norm", "tl.store(out_ptr2 + (r0_1 + 1500*x0), tmp19, r0_mask & xmask)",
     "tl.store(out_ptr2 + (x0), tmp19, r0_mask & xmask)", "not at a constant non-zero stride"),
    # a lane-wise accumulator folded by something that is not a known lane reduction
    ("max", "triton_helpers.max2(_tmp2, 1)", "tl.cumsum(_tmp2, 1)", "not a lane reduction"),
    # a value computed inside the loop and used after it (not an accumulator)
    ("mean", "    tmp4 = tl.full([1, 1], 1500.0, tl.float32)", "    tmp4 = tmp1", "from inside the row loop"),
])
def test_kernels_it_cannot_prove_are_refused_with_the_reason(capture_targets, name, old, new, reason):
    target = _edited(capture_targets[KERNELS[name]], old, new)
    assert list(SplitRowProposer().propose(target, [])) == []
    assert reason in SplitRowProposer.declined(target)


def test_many_rows_and_persistent_reductions_are_refused():
    ln = _targets(H200 / "ln_gelu.default.0.py")["triton_red_fused_add_gelu_mul_native_layer_norm_0"]
    assert "8192 rows already give each of 132 SMs" in SplitRowProposer.declined(ln)
    softmax = REPO / "tests" / "corpus" / "cpu-2.13" / "softmax" / "small.default" / "softmax.default.0.py"
    (persistent,) = _targets(softmax).values()
    assert "persistent" in SplitRowProposer.declined(persistent)


def test_the_structure_reader_names_the_kernel_and_line():
    source = (REPO / "tests" / "fixtures" / "inductor-2.11-h200" / "ce.default.0.py").read_text()
    with pytest.raises(NotSplittable, match=r"no function named nope"):
        parse_row_kernel(source, "nope")
    with pytest.raises(NotSplittable, match=r"k: the kernel source does not parse \(line 2"):
        parse_row_kernel("@triton.jit\ndef k(x:\n", "k")


def test_the_emitted_module_runs_accepted_splits_and_matches_inductor(tmp_path, capture_targets):
    # Each split is two to four launches behind one run(): the standalone module must carry all of them.
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.emit_python import EmitPython
    from kernelopt.runtime import run_module

    module = lift_file(str(CAPTURE))
    for kernel in module.kernels:
        candidate = next(iter(SplitRowProposer().propose(capture_targets[kernel.symbol], [])))
        kernel.attrs["rewrite"] = {"status": "accepted", "source": candidate.source, "proposer": candidate.proposer,
                                   "strategy": candidate.strategy}
    ctx = PassContext(options={"device": "cpu"})
    EmitPython().apply(ctx, module)
    emitted = tmp_path / "row_reductions_split.py"
    emitted.write_text(ctx.artifacts["python"])
    assert emitted.read_text().count("_ko_split0") >= 2 * len(KERNELS)      # defined and launched, per kernel
    from kernelopt.runtime.execute import seeded_example_args
    from kernelopt.runtime.loader import load_output_module

    args = seeded_example_args(load_output_module(str(CAPTURE), "cpu"))
    want = run_module(str(CAPTURE), [a.clone() for a in args], "cpu")["outputs"]
    got = run_module(str(emitted), [a.clone() for a in args], "cpu")["outputs"]
    assert len(got) == len(want)
    for ours, theirs in zip(got, want):
        if ours.is_floating_point():
            torch.testing.assert_close(ours, theirs, rtol=1e-5, atol=1e-5)
        else:
            assert torch.equal(ours, theirs)


def test_a_torch_2_13_looped_any_cast_to_int8_splits_and_passes_the_gate():
    """torch 2.13 guards a softmax of a scaled row with a looped `any`, written `tmp14 = _tmp12.to(tl.int8)` then
    `triton_helpers.any(tmp14, 1)`; split-row declined it ("_tmp12.to is not a lane reduction")."""
    from kernelopt.rewrite.evaluate import ModuleEvaluator

    path = REPO / "tests" / "fixtures" / "looped-cpu-2.13" / "temperature_softmax.py"
    target = next(iter(_targets(path).values()))
    candidates = list(SplitRowProposer().propose(target, []))
    assert candidates, SplitRowProposer().declined(target)
    assert "_tmp12.to(tl.int8)" in candidates[0].source
    verdict = ModuleEvaluator(str(path), None, device="cpu").evaluate(target, candidates[0])
    assert verdict.accepted, verdict.reason


# -- rows that read memory together -----------------------------------------------------------------

GROUP_NORM = REPO / "tests" / "fixtures" / "inductor-2.13-cpu" / "conv_group_norm.default.0.py"
GROUP_STATS = "triton_red_fused_native_group_norm_2"


def test_group_norm_rows_over_a_channels_last_tensor_are_split_eight_rows_at_a_time():
    # each of the 8 rows (2 samples x 4 groups) reads runs of its group's 4 channels, 16 bytes of every 64, and
    # the next row continues each run: 8 rows read 128 contiguous bytes together
    from kernelopt.proposers.access_strides import interleaved_rows, kernel_load_strides

    target = _targets(GROUP_NORM)[GROUP_STATS]
    spec = target.kernels[0]
    strides = kernel_load_strides(spec.source, spec.name)
    assert [(s.x_stride, s.r_stride, s.r_run) for s in strides] == [(4, 1, 4)]
    assert interleaved_rows(strides, 4) == 8
    candidates = list(make_proposer("split-row").propose(target, []))
    assert candidates and all(" XBLOCK=8 " in c.strategy for c in candidates)
    assert all("XBLOCK=8," in c.source and "[(1, " in c.source for c in candidates)    # one tile of 8 rows


@pytest.mark.parametrize("samples, chunks, r0_block", [(2, 2, 64), (2, 5, 16), (3, 3, 32)])
def test_tiles_of_rows_split_into_chunks_give_the_group_statistics(samples, chunks, r0_block):
    # 2 samples: one tile of 8 rows; 3 samples: 3 tiles of 4 rows (the kernel's row count edited to 12)
    spec = _targets(GROUP_NORM)[GROUP_STATS].kernels[0]
    rows = 4 * samples
    if rows != 8:
        spec = _shrunk(spec, {8: rows})
    kernel = parse_row_kernel(spec.source, spec.name)
    x = _random((samples, 16, 32, 32), 7).contiguous(memory_format=torch.channels_last)
    args = [x, torch.full((rows,), float("nan")), torch.full((rows,), float("nan")), rows, 4096]
    original = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    _run_original(spec, original, rows, 64)
    split = split_for(kernel.row_length, chunks, r0_block, x_block=8 if rows == 8 else 4)
    _load(candidate_source(kernel, split, 0), "tiled").run(*args)
    groups = x.double().reshape(samples, 4, 4 * 32 * 32)
    torch.testing.assert_close(args[1].double(), groups.mean(-1).flatten(), rtol=1e-5, atol=1e-5)
    m2 = ((groups - groups.mean(-1, keepdim=True)) ** 2).sum(-1).flatten()
    torch.testing.assert_close(args[2].double(), m2, rtol=1e-5, atol=1e-3)
    for got, base in zip(args[1:3], original[1:3]):
        torch.testing.assert_close(got, base, rtol=1e-5, atol=1e-3)


@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
def test_the_tiled_split_of_the_group_statistics_passes_the_gate(tmp_path):
    from search_helpers import optimize_with_proposer

    report = optimize_with_proposer(GROUP_NORM.parent / "conv_group_norm.py", "split-row", tmp_path)
    assert "XBLOCK=8" in report and "ACCEPT" in report, report


def test_retune_leaves_out_single_rows_that_read_half_of_each_sector():
    # one row of the group statistics reads 16 bytes of each 32-byte sector; two rows read it whole
    from kernelopt.proposers.retune import RetuneProposer

    spec = _targets(GROUP_NORM)[GROUP_STATS].kernels[0]
    space = RetuneProposer().space_for(spec, ["XBLOCK", "R0_BLOCK"])
    assert space and min(dict(c.blocks)["XBLOCK"] for c in space) == 2


SHORT_ROWS = '''
@triton.jit
def short_rows(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    x0 = xindex
    r0_1 = r0_index
    tmp0 = tl.load(in_ptr0 + (r0_1 + 16*x0), None)
    tmp1 = tl.load(in_ptr0 + (4*x0 + 64*(r0_1 // 4) + (r0_1 % 4)), None)
'''


def test_a_short_row_read_whole_is_not_a_run_the_next_row_continues():
    # rows of 16 contiguous floats: one run per row, no jump within it (XBLOCK=1 reads whole sectors); the second
    # load reads runs of 4, each continued by the next row
    from kernelopt.proposers.access_strides import interleaved_rows, load_strides

    whole, runs = load_strides(SHORT_ROWS, "short_rows", 64, 16)
    assert (whole.x_stride, whole.r_stride, whole.r_run) == (16, 1, None)
    assert (runs.x_stride, runs.r_stride, runs.r_run) == (4, 1, 4)
    assert interleaved_rows([whole], 4) == 1 and interleaved_rows([runs], 4) == 8
