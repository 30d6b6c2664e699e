"""Every expert template rendered and run on the CPU (Triton interpreter) against a torch reference, on
fresh random inputs, non-power-of-two rows, both the row-on-chip and the chunked variants, bf16 and fp32,
and adversarial values (1e4-scale logits must not overflow the softmax family)."""
from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")
try:
    from kernelopt.runtime.interpret import install_cpu_triton_shims
except ImportError:
    install_cpu_triton_shims = None
if install_cpu_triton_shims is not None:
    install_cpu_triton_shims()

import pytest
import torch
import torch.nn.functional as F

from kernelopt.legality.screen import screen_source
from kernelopt.rewrite.evaluate import load_candidate
from kernelopt.templates.kernels.arg_reduce import arg_reduce_source
from kernelopt.templates.kernels.cross_entropy import cross_entropy_source
from kernelopt.templates.kernels.cumsum import cumsum_source
from kernelopt.templates.kernels.depthwise_conv2d import depthwise_conv2d_source
from kernelopt.templates.kernels.group_norm import group_norm_source
from kernelopt.templates.kernels.row_kl_div import row_kl_div_source
from kernelopt.templates.kernels.row_norm import row_norm_source
from kernelopt.templates.kernels.row_softmax import row_softmax_source
from kernelopt.templates.kernels.var_mean import var_mean_source
from kernelopt.templates.template_registry import TEMPLATE_NAMES

TOL = {torch.float32: 3e-5, torch.bfloat16: 2e-2, torch.float16: 2e-3}


def run_source(source: str, *args) -> None:
    load_candidate(source, "ko_tmpl")(*args)     # a file of its own: triton.jit reads the kernel source from it


def close(actual, expected, dtype):
    torch.testing.assert_close(actual.float(), expected.float(), rtol=TOL[dtype], atol=TOL[dtype], equal_nan=True)


def rand(shape, dtype, seed, scale=1.0):
    gen = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=gen) * scale).to(dtype)


def poisoned(shape, dtype):
    return torch.full(shape, float("nan"), dtype=dtype)


def test_every_template_renders_with_a_header_saying_when_it_applies():
    sources = [
        cross_entropy_source({"logits": 0, "row_max": 1, "row_sum": 2, "loss": 3, "target": 4}, 100, block=32),
        row_softmax_source("softmax", {"x": 0, "out": 1}, block=128, row_on_chip=True),
        row_norm_source("layer", {"x": 0, "out": 1}, 100, 1e-5),
        group_norm_source({"x": 0, "out": 1}, 2, 48, 1e-5),
        var_mean_source({"x": 0, "var": 1, "mean": 2}, block=32),
        arg_reduce_source("argmax", {"x": 0, "out": 1}, block=32),
        cumsum_source({"x": 0, "out": 1}, block=32),
        depthwise_conv2d_source({"x": 0, "weight": 1, "out": 2}, stride=1, padding=1, dilation=1, kernel_hw=3,
                                has_bias=False),
        row_kl_div_source({"p_logits": 0, "q_logits": 1, "out": 2}, scale=1.0, temperature_scale=0.5, block=32,
                          num_warps=1),
    ]
    for source in sources:
        assert source.startswith("# KernelOPT expert template:")
        assert "# Applies when:" in source.splitlines()[1]
        compile(source, "<template>", "exec")
    assert len(sources) == len(TEMPLATE_NAMES)


# --- per-row KL divergence ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("temperature,block,unroll", [(2.0, 32, 1), (3.0, 16, 2), (0.5, 128, 1)])
def test_row_kl_div_is_the_kl_of_two_temperature_softmaxes(dtype, temperature, block, unroll):
    """out[row] = KL(softmax(q/T) || softmax(p/T)) per row, against torch in float64, written into every
    other element of a strided output (the others keep their poison)."""
    n_rows, n_cols = 7, 90
    p, q = rand((n_rows, n_cols), dtype, 1, 3.0), rand((n_rows, n_cols), dtype, 2, 3.0)
    storage = poisoned((n_rows * 2,), torch.float32)
    source = row_kl_div_source({"p_logits": 0, "q_logits": 1, "out": 2}, scale=1.0,
                               temperature_scale=1.0 / temperature, block=block, num_warps=1, unroll=unroll,
                               out_stride=2)
    run_source(source, p, q, storage)
    log_p = torch.log_softmax(p.double() / temperature, dim=-1)
    log_q = torch.log_softmax(q.double() / temperature, dim=-1)
    expected = torch.nn.functional.kl_div(log_p, log_q, reduction="none", log_target=True).sum(-1)
    torch.testing.assert_close(storage[0::2].double(), expected, rtol=1e-5, atol=1e-5)
    assert torch.isnan(storage[1::2]).all()


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_row_norm_epilogue_reads_row_and_column_tensors(dtype):
    """out = sigmoid(y) * g + h with y the RMS-normalised row, g [N] and h [M, N] read by the epilogue."""
    from kernelopt.templates.kernels.row_norm import NormEpilogue
    m, n, eps = 6, 100, 1e-6
    x, g, h = rand((m, n), dtype, 1, scale=3), rand((n,), dtype, 2), rand((m, n), dtype, 3)
    out = poisoned((m, n), dtype)
    epilogue = NormEpilogue("((tl.sigmoid(y) * e0) + e1)", (("e0", "col"), ("e1", "row")))
    source = row_norm_source("rms", {"x": 0, "out": 3, "e0": 1, "e1": 2}, n, eps, rows=2, num_warps=2,
                             epilogue=epilogue)
    run_source(source, x, g, h, out)
    v = x.double()
    y = v / torch.sqrt((v * v).mean(1, keepdim=True) + eps)
    close(out, torch.sigmoid(y) * g.double() + h.double(), dtype)


# --- cross-entropy --------------------------------------------------------------------------------

CE_ROLES = {"logits": 0, "row_max": 1, "row_sum": 2, "loss": 3, "target": 4}


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("row_on_chip,block,unroll", [(True, 128, 1), (False, 32, 1), (False, 16, 2), (False, 8, 4)])
@pytest.mark.parametrize("scale", [1.0, 1e4])
def test_cross_entropy(dtype, row_on_chip, block, unroll, scale):
    n_rows, n_cols = 9, 100
    logits = rand((n_rows, n_cols), dtype, seed=int(scale) + block, scale=scale)
    target = torch.randint(0, n_cols, (n_rows,), generator=torch.Generator().manual_seed(3))
    target[::4] = -100
    row_max, row_sum, loss = poisoned((n_rows, 1), torch.float32), poisoned((n_rows, 1), torch.float32), \
        poisoned((), torch.float32)
    source = cross_entropy_source(CE_ROLES, n_cols, block=block, num_warps=4, row_on_chip=row_on_chip,
                                  n_rows=n_rows, unroll=unroll)  # 100 columns: unrolled tails are masked
    run_source(source, logits, row_max, row_sum, loss, target)
    x = logits.double()
    close(loss, F.cross_entropy(x, target, ignore_index=-100), torch.float32)
    close(row_max[:, 0], x.max(1).values, torch.float32)
    close(row_sum[:, 0], torch.exp(x - x.max(1, keepdim=True).values).sum(1), torch.float32)


def test_cross_entropy_all_rows_ignored_gives_nan_like_torch():
    logits, target = rand((4, 10), torch.float32, 0), torch.full((4,), -100)
    loss = poisoned((), torch.float32)
    run_source(cross_entropy_source(CE_ROLES, 10, block=16, num_warps=1, n_rows=4),
               logits, torch.empty(4, 1), torch.empty(4, 1), loss, target)
    assert torch.isnan(loss) and torch.isnan(F.cross_entropy(logits, target))


# --- softmax family ---------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["softmax", "log_softmax", "logsumexp"])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("row_on_chip,block,rows", [(True, 128, 4), (False, 32, 2)])
@pytest.mark.parametrize("scale,k", [(1.0, 1.0), (2.0, 0.125)])
def test_row_softmax_family(mode, dtype, row_on_chip, block, rows, scale, k):
    x = rand((7, 100), dtype, seed=block)
    x[1] *= 1e4                                      # adversarial: huge logits must not overflow
    x[2, 5] = float("-inf")
    out = poisoned((7,) if mode == "logsumexp" else (7, 100), dtype)
    run_source(row_softmax_source(mode, {"x": 0, "out": 1}, block=block, num_warps=2, rows=rows,
                                  row_on_chip=row_on_chip, scale=scale, temperature_scale=k), x, out)
    ref = {"softmax": torch.softmax, "log_softmax": torch.log_softmax, "logsumexp": torch.logsumexp}[mode](
        x.double() * (scale * k), -1)
    assert torch.isfinite(out[1]).all()
    close(out, ref, dtype)


# --- row norms --------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["layer", "rms"])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("affine,residual,stats,rows", [(True, False, False, 1), (False, True, True, 4),
                                                        (True, True, True, 2)])
def test_row_norm(kind, dtype, affine, residual, stats, rows):
    m, n, eps = 10, 100, 1e-5
    x, r = rand((m, n), dtype, 1, scale=3) + 2, rand((m, n), dtype, 2)
    w, b = rand((n,), dtype, 3), rand((n,), dtype, 4)
    out, mean, rstd = poisoned((m, n), dtype), poisoned((m, 1), torch.float32), poisoned((m,), torch.float32)
    args = [x, r, w, b, out, mean, rstd]
    roles = {"x": 0, "out": 4}
    if residual:
        roles["residual"] = 1
    if affine:
        roles["weight"] = 2
        if kind == "layer":
            roles["bias"] = 3
    if stats:
        roles["rstd"] = 6
        if kind == "layer":
            roles["mean"] = 5
    run_source(row_norm_source(kind, roles, n, eps, rows=rows, num_warps=2), *args)
    v = x.double() + (r.double() if residual else 0)
    if kind == "layer":
        mu, var = v.mean(1, keepdim=True), v.var(1, unbiased=False, keepdim=True)
        y = (v - mu) / torch.sqrt(var + eps)
    else:
        var = (v * v).mean(1, keepdim=True)
        y = v / torch.sqrt(var + eps)
    if affine:
        y = y * w.double() + (b.double() if kind == "layer" else 0)
    close(out, y, dtype)
    if stats:
        close(rstd, 1 / torch.sqrt(var[:, 0] + eps), torch.float32)
        if kind == "layer":
            close(mean[:, 0], mu[:, 0], torch.float32)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("groups,affine", [(2, True), (6, False)])     # 6 == C: instance norm
def test_group_norm(dtype, groups, affine):
    x = rand((3, 6, 5, 3), dtype, 7, scale=2) + 1
    w, b = rand((6,), dtype, 8), rand((6,), dtype, 9)
    out, mean, rstd = poisoned(x.shape, dtype), poisoned((3, groups), torch.float32), poisoned((3, groups), torch.float32)
    roles = {"x": 0, "out": 3, "mean": 4, "rstd": 5, **({"weight": 1, "bias": 2} if affine else {})}
    run_source(group_norm_source(roles, groups, (6 // groups) * 15, 1e-5, num_warps=1,
                                 groups_equal_channels=groups == 6), x, w, b, out, mean, rstd)
    ref = F.group_norm(x.double(), groups, w.double() if affine else None, b.double() if affine else None, 1e-5)
    close(out, ref, dtype)
    grouped = x.double().reshape(3, groups, -1)
    close(mean, grouped.mean(-1), torch.float32)
    close(rstd, 1 / torch.sqrt(grouped.var(-1, unbiased=False) + 1e-5), torch.float32)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("groups,affine", [(2, True), (3, False), (1, True)])
def test_group_norm_with_an_epilogue_and_the_split_forms_intermediates(dtype, groups, affine):
    """What Inductor's split GroupNorm leaves between its kernels, written by the one-kernel template:
    per-group mean and m2 (sum of squared deviations), per-(n, c) scale = rstd * w and shift = b -
    mean * scale; and SiLU applied to the normalised value."""
    x = rand((1, 6, 5, 7), dtype, 17, scale=2) + 3                  # N = 1, groups of 210 / 70 / 105
    w, b = rand((6,), dtype, 18), rand((6,), dtype, 19)
    out, mean, m2 = poisoned(x.shape, dtype), poisoned((1, groups, 1, 1), torch.float32), poisoned((groups,), torch.float32)
    scale, shift = poisoned((1, 6, 1, 1), torch.float32), poisoned((1, 6, 1, 1), torch.float32)
    roles = {"x": 0, "out": 3, "mean": 4, "m2": 5, "scale": 6, "shift": 7, **({"weight": 1, "bias": 2} if affine else {})}
    group_len = (6 // groups) * 35
    run_source(group_norm_source(roles, groups, group_len, 1e-5, num_warps=2, epilogue="(y / (tl.exp((-y)) + 1.0))",
                                 channels_per_group=6 // groups), x, w, b, out, mean, m2, scale, shift)
    wd, bd = (w.double(), b.double()) if affine else (None, None)
    y = F.group_norm(x.double(), groups, wd, bd, 1e-5)
    close(out, y * torch.sigmoid(y), dtype)
    grouped = x.double().reshape(groups, -1)
    close(mean.flatten(), grouped.mean(-1), torch.float32)
    torch.testing.assert_close(m2.double(), grouped.var(-1, unbiased=False) * group_len, rtol=1e-4, atol=1e-3)
    rstd = (1 / torch.sqrt(grouped.var(-1, unbiased=False) + 1e-5)).repeat_interleave(6 // groups)
    ref_scale = rstd * (w.double() if affine else 1)
    ref_shift = (b.double() if affine else 0) - grouped.mean(-1).repeat_interleave(6 // groups) * ref_scale
    close(scale.flatten(), ref_scale, torch.float32)
    close(shift.flatten(), ref_shift, torch.float32)


# --- Welford, arg-reduce, scan ----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
@pytest.mark.parametrize("row_on_chip,block,correction", [(True, 128, 1), (False, 16, 0), (False, 32, 1)])
def test_var_mean(dtype, row_on_chip, block, correction):
    x = rand((5, 100), dtype, 11, scale=2) + 100          # large offset: naive sum-of-squares would cancel
    var, mean = poisoned((5,), torch.float32), poisoned((5,), torch.float32)
    run_source(var_mean_source({"x": 0, "var": 1, "mean": 2}, block=block, correction=correction, rows=2,
                               num_warps=1, row_on_chip=row_on_chip), x, var, mean)
    ref_var, ref_mean = torch.var_mean(x.double(), -1, correction=correction)
    close(mean, ref_mean, torch.float32)
    torch.testing.assert_close(var.double(), ref_var, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16, torch.float32, torch.int32])
def test_arg_reduce(op, dtype):
    x = rand((6, 100), torch.float32, 12, scale=50).to(dtype)
    x[0, 10] = x[0, 70] = x[0].max() + 1 if op == "argmax" else x[0].min() - 1   # tie: first index wins
    x[1, :] = 3                                                                   # all equal -> 0
    if dtype.is_floating_point:
        x[2, 40] = x[2, 90] = float("nan")                                        # NaN is extreme, first one
    out = torch.full((6,), -7, dtype=torch.int64)
    run_source(arg_reduce_source(op, {"x": 0, "out": 1}, block=32, rows=2, num_warps=1), x, out)
    assert torch.equal(out, getattr(torch, op)(x, -1))


def test_arg_reduce_passes_the_strict_precision_screen_of_an_fp32_original():
    """Its launch chose the bf16/fp16 upcast with `x2.dtype in (torch.bfloat16, torch.float16)`: the gate's
    screen read the dtype names as lower-precision math, and under --precision strict rejected every argmax
    template candidate for an all-fp32 kernel (the fifth holdout pass's embedding + argmax model)."""
    original = "tmp0 = tl.load(in_ptr0 + (r0_1 + 53*x0), r0_mask & xmask, other=0.0)\n"
    for rows, warps in ((16, 4), (1, 1)):
        source = arg_reduce_source("argmax", {"x": 0, "out": 1}, block=64, rows=rows, num_warps=warps)
        assert screen_source(source, precision="strict", original_source=original) == []


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32])
def test_cumsum(dtype):
    x = rand((5, 100), dtype, 13)
    out = poisoned((5, 100), dtype)
    run_source(cumsum_source({"x": 0, "out": 1}, block=32, rows=2, num_warps=1), x, out)
    close(out, torch.cumsum(x.double(), -1), dtype)
