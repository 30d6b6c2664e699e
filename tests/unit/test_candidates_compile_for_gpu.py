"""Every schedule transform's and template's first candidate on the general problems' H200 modules
compiles with Triton's real compiler for sm_90, at the argument types and constexprs of its own launches
(benchmarks/candidates_compile.py: the launches are recorded on the CPU, not run). The interpreter that
runs every other CPU test accepts kernels the compiler rejects; a transform whose kernels do not compile
is rejected on the GPU every time and never wins. A wrong kernel is reported as a failure, with the
compiler's message."""
from __future__ import annotations

import pytest

from suite_helpers import load_suite

BROKEN = '''import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    while n > 0:
        last = tl.load(x_ptr + offsets)
        n = n - BLOCK
    tl.store(out_ptr + offsets, last)


def run(x, out):
    copy_kernel[(1,)](x, out, x.numel(), BLOCK=16)
'''


@pytest.fixture(scope="module")
def census():
    return load_suite("candidates_compile")


HANDMADE_SPEC = {"is_tensor": True, "sizes": [16], "strides": [1], "dtype": "float32", "value": None}
HANDMADE = ("handmade", "k", "test", "loop-carried name", BROKEN, [HANDMADE_SPEC, HANDMADE_SPEC])


@pytest.fixture(scope="module")
def compiled(census):
    """(rows of every first candidate, the handmade kernel's row), from one compile_all call: each call starts a
    compiling process (torch and triton imported again), and a kernel compiles alike whatever else it compiles."""
    rows = census.compile_all(list(census.candidates(None, 1)) + _online_folds(census) + _absorbed_pair(census)
                              + _diagonal_gemms(census) + _gemm_sums(census) + _conv_sums(census) + _window_sums(census)
                              + _conv_windows(census) + [HANDMADE])
    return rows[:-1], rows[-1]


def _online_folds(census) -> list[tuple]:
    """fold-pass's online sum of exponentials (a log-softmax and a log-sum-exp of torch 2.13's looped kernels,
    at GPU-like rows of 70,000): the general captures have no such pass."""
    from pathlib import Path

    from row_loop_helpers import edited_target

    from kernelopt.proposers.fold_passes import FoldPassesProposer

    looped = Path(__file__).resolve().parents[1] / "fixtures" / "looped-cpu-2.13"
    found = []
    for name, kernel in (("log_softmax", "triton_red_fused__log_softmax_0"),
                         ("scaled_logsumexp", "triton_red_fused_add_logsumexp_mul_0")):
        target = edited_target(looped / f"{name}.py", kernel, {7: 263, 300: 70000})
        candidate = next(iter(FoldPassesProposer().propose(target, [])))
        found.append((f"looped-{name}", target.id, "fold-pass", candidate.strategy, candidate.source,
                      census._arg_specs(target)))
    return found


def _absorbed_pair(census) -> list[tuple]:
    """absorb-consumer's kernel (a channel softmax's pointwise tail run inside its reduction, storing transposed,
    torch 2.13's CPU capture): no general capture has such a pair."""
    from pathlib import Path

    from row_loop_helpers import fusion_group_target

    from kernelopt.proposers.absorb_consumer import AbsorbConsumerProposer

    module = Path(__file__).resolve().parents[1] / "fixtures" / "channel-softmax-cpu-2.13" / \
        "conv_transpose_channel_softmax.py"
    target = fusion_group_target(module)
    candidate = next(iter(AbsorbConsumerProposer().propose(target, [])))
    return [("channel-softmax", target.id, "absorb-consumer", candidate.strategy, candidate.source,
             census._arg_specs(target))]


def _fixture_group_candidates(census, fixture: str, names: tuple[str, ...], kind: str, proposer) -> list[tuple]:
    """The first candidate of `proposer` for fusion group 0 (of `kind`) of each capture `names` (a file name without
    `.py`) in tests/fixtures/`fixture`."""
    from pathlib import Path

    from kernelopt.lift import lift_file
    from kernelopt.passes.base import PassContext
    from kernelopt.passes.classify_dispatch import ClassifyDispatch
    from kernelopt.passes.detect_fusion import DetectFusion
    from kernelopt.rewrite.targets import fusion_target

    found = []
    for name in names:
        module = lift_file(str(Path(__file__).resolve().parents[1] / "fixtures" / fixture / f"{name}.py"))
        ctx = PassContext(current_pass="detect-fusion")
        ClassifyDispatch().apply(ctx, module)
        DetectFusion().apply(ctx, module)
        target, _ = fusion_target(module, 0, kind)
        candidate = next(iter(proposer.propose(target, [])))
        found.append((name, target.id, proposer.name, candidate.strategy, candidate.source, census._arg_specs(target)))
    return found


def _diagonal_gemms(census) -> list[tuple]:
    """diagonal-operand's kernels (torch.diag(a) @ b in fp32 and b @ diag(a * 2 + 1) in fp16): no general capture
    builds a diagonal GEMM operand."""
    from kernelopt.proposers.diagonal_operand import DiagonalOperandProposer

    return _fixture_group_candidates(census, "diagonal-gemm-cpu-2.13", ("diag_left", "diag_right"), "prologue",
                                     DiagonalOperandProposer())


def _conv_sums(census) -> list[tuple]:
    """sum-through-conv's kernels (a channels-last 2-D convolution's batch-normed plane sums, a grouped 1-D
    convolution's means, a strided and dilated 1-D convolution's sums, a grouped transposed 2-D convolution's means, a
    2-D convolution's mean over channels and positions, a transposed 1-D convolution's channel sums, and boxes of the
    planes: chunks of two rows, one row each)."""
    from kernelopt.proposers.sum_through_conv import SumThroughConvProposer

    return _fixture_group_candidates(census, "conv-sum-cpu-2.13", ("conv2d_bn_sum", "conv1d_groups_mean",
                                                                   "conv1d_dilated_stride_sum", "conv_transpose2d_mean",
                                                                   "conv2d_global_mean", "conv_transpose1d_channel_sum",
                                                                   "conv2d_sum_split", "conv_transpose2d_rows_mean"),
                                     "reduction-epilogue", SumThroughConvProposer())


def _conv_windows(census) -> list[tuple]:
    """window-through-conv's kernels (a channels-last 2-D convolution pooled inside a reduction, a 3-D one and a
    dilated 1-D one pooled by pointwise kernels, a transposed 2-D one pooled by a 2-D tiled pointwise kernel): each
    lane's window index found once."""
    from kernelopt.proposers.window_through_conv import WindowThroughConvProposer

    return (_fixture_group_candidates(census, "conv-window-cpu-2.13", ("conv2d_avgpool_sigmoid_sum",),
                                      "reduction-epilogue", WindowThroughConvProposer())
            + _fixture_group_candidates(census, "conv-window-cpu-2.13",
                                        ("conv3d_avgpool_scale", "conv1d_dilated_avgpool_gelu",
                                         "conv_transpose2d_avgpool_relu", "conv2d_avgpool_then_lse"), "epilogue",
                                        WindowThroughConvProposer()))


def _gemm_sums(census) -> list[tuple]:
    """sum-through-gemm's kernels (row sums of an fp32 mm, column sums of an fp32 addmm, the looped row mean of a
    bf16 mm, chunks of columns summed by a split reduction's first half, windows of a row that leave its last features
    unread): no general capture sums a GEMM's output."""
    from kernelopt.proposers.sum_through_gemm import SumThroughGemmProposer

    return (_fixture_group_candidates(census, "gemm-sum-cpu-2.13",
                                      ("gemm_div_sum", "linear_shift_sum_batch", "linear_mean_bf16",
                                       "linear_shift_sum_split_batch", "linear_avgpool_wide_tail"),
                                      "reduction-epilogue", SumThroughGemmProposer())
            # the H100 module's split column sums: no x mask, the sums read at xindex
            + _fixture_group_candidates(census, "gemm-sum-cuda-2.11", ("linear_shift_sum_over_batch.default.0",),
                                        "reduction-epilogue", SumThroughGemmProposer()))


def _window_sums(census) -> list[tuple]:
    """window-through-gemm's kernels (an fp32 addmm averaged in windows of 16 features under a GELU, a bf16 mm in
    windows of 4, a pool leaving each row's last features in no window, the max of each pooled row, a looped split
    mean's first half): no general capture pools a GEMM's output."""
    from kernelopt.proposers.window_through_gemm import WindowThroughGemmProposer

    return (_fixture_group_candidates(census, "gemm-window-cpu-2.13",
                                      ("linear_avgpool_gelu", "matmul_avgpool_bf16", "linear_avgpool_tail"),
                                      "epilogue", WindowThroughGemmProposer())
            # the pool inside a reduction: the max of each pooled row, a looped split mean's first half
            + _fixture_group_candidates(census, "gemm-window-cpu-2.13",
                                        ("linear_avgpool_gelu_max", "linear_avgpool_mean_looped"),
                                        "reduction-epilogue", WindowThroughGemmProposer()))


def test_every_first_candidate_compiles_for_sm90(compiled):
    rows, _ = compiled
    assert {r["proposer"] for r in rows} >= {"split-row", "outer-tile", "row-on-chip", "store-remap", "templates",
                                          "align-split", "fold-split"}
    assert all(r["launches"] for r in rows), [r for r in rows if not r["launches"]]
    failed = [(r["problem"], r["proposer"], r["strategy"], r["error"]) for r in rows if r["error"]]
    assert not failed, failed
    assert {r["problem"] for r in rows if r["proposer"] == "fold-pass"} >= {"looped-log_softmax",
                                                                           "looped-scaled_logsumexp"}
    assert [r["problem"] for r in rows if r["proposer"] == "absorb-consumer"] == ["channel-softmax"]
    assert [r["problem"] for r in rows if r["proposer"] == "diagonal-operand"] == ["diag_left", "diag_right"]
    assert [r["problem"] for r in rows if r["proposer"] == "sum-through-gemm"] == [
        "gemm_div_sum", "linear_shift_sum_batch", "linear_mean_bf16", "linear_shift_sum_split_batch",
        "linear_avgpool_wide_tail", "linear_shift_sum_over_batch.default.0"]
    assert [r["problem"] for r in rows if r["proposer"] == "window-through-gemm"] == [
        "linear_avgpool_gelu", "matmul_avgpool_bf16", "linear_avgpool_tail", "linear_avgpool_gelu_max",
        "linear_avgpool_mean_looped"]
    # the H200 capture of the general conv3d + batch norm + sum, then the eight CPU captures
    assert [r["problem"] for r in rows if r["proposer"] == "sum-through-conv"] == [
        "conv3d_batch_norm_sum", "conv2d_bn_sum", "conv1d_groups_mean", "conv1d_dilated_stride_sum",
        "conv_transpose2d_mean", "conv2d_global_mean", "conv_transpose1d_channel_sum", "conv2d_sum_split",
        "conv_transpose2d_rows_mean"]
    assert [r["problem"] for r in rows if r["proposer"] == "window-through-conv"] == [
        "conv2d_avgpool_sigmoid_sum", "conv3d_avgpool_scale", "conv1d_dilated_avgpool_gelu",
        "conv_transpose2d_avgpool_relu", "conv2d_avgpool_then_lse"]


def test_a_kernel_the_compiler_rejects_is_reported(compiled):
    _, row = compiled
    assert row["problem"] == "handmade"
    assert row["launches"] == 1 and "last is not defined" in row["error"], row
