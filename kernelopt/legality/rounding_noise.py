"""How far a correct candidate's rounding errors may reach on one output of n elements: the legality
gate's per-element slack beyond the dtype's tolerance (compare.values, where a float64 reference exists).

A candidate that only reorders the original's fp32 arithmetic (a block-size retune of a reduction)
rounds differently at every element; its errors against the float64 reference are draws from about
the same distribution as the original's own. What must be bounded is the *largest* of its n errors,
and that grows with n: a fixed percentile of the original's errors (the gate's former slack, 2 x the
99th percentile) is exceeded by the worst of 10^7 correct errors, which rejected a LayerNorm retune
on the H200. So the slack models the tail of the original's error distribution and allows the extreme
that n draws from it reach, with a stated false-reject probability:

- Unit. Errors are measured in units of w_i = |ref_i| + rms(ref): relative where an element is large
  (floating-point rounding is relative), absolute (in the output's typical size) where it is small or
  cancels. Without it, the few largest elements would set the slack of all the others.
- Tail. Among the original's n errors z (in that unit), x1 = the k-th largest and x2 = the 10k-th
  largest (k = 100 on outputs of 10^4 elements or more, else the 99th and 90th percentiles). Through
  them runs an exponential tail, P(z > x1 + y) ~= (k/n) exp(-y / slope), slope = (x1 - x2) / ln 10.
  One rounding error is bounded and a sum of many is Gaussian-like: their tails fall off faster than
  exponentially, so the straight-line extrapolation overestimates their extremes (it is safe). Where
  conditioning varies across rows the pooled errors are a mixture of scales with a heavier tail; the
  slope, measured far out (ranks 100 and 1000 of 10^7), carries that, and the accuracy factor on top
  covers what the straight line misses. The ranks ignore the original's few largest errors, so a
  handful of wild elements do not widen the slack of all the others.
- Extreme. n candidate errors then exceed x1 + slope * s with expected count k exp(-s); s = ln(k /
  FALSE_REJECT) makes that FALSE_REJECT (1e-6). This is the output's `reach`; beyond the original's
  own error at element i the gate allows the larger of the dtype's rtol x |orig_i| and
  accuracy_factor x reach x w_i (compare._reference_allowance), so a candidate up to accuracy_factor
  times noisier than the original passes here as it does the norm-wise check.
- Narrow outputs. A bf16/fp16 output's error against float64 is mostly its final rounding to that
  dtype, which the dtype's rtol already allows (torch.testing's bf16 rtol is 4 bf16 unit roundoffs);
  the model reads only what exceeds that rounding, max(0, |orig - ref| - u_out |ref|): the error the
  fp32 arithmetic carried into it. Read whole, the bounded rounding error would be extrapolated as if
  it had a tail and widen a bf16 output's slack by about the rtol again.
- Few elements. Below about 1000 errors the tail is read from the very largest ones and is less sure
  (at 100 elements, 1 sample in 1000 yields a reach that n fresh draws exceed; none exceeded twice it
  in 2000 trials, tests/unit/test_legality_reorder_tolerance.py); the accuracy factor covers that.
- Floor. Where the original happens to round little (or not at all: exact arithmetic), its errors say
  nothing about a different order's. A sum of L terms in the accumulator's precision, in any order,
  errs by at most lambda sqrt(L) u in relative terms with probability 1 - 2 exp(-lambda^2 / 2) (the
  probabilistic rounding-error bound of Higham and Mary, 2019); lambda is taken from the same
  FALSE_REJECT, u is the unit roundoff of the accumulator (fp32, Inductor's accumulator for
  fp32/bf16/fp16 kernels; fp64 for float64 kernels) and L the kernel's reduction length when the gate
  knows it (its r0_numel argument), else 1.

One slack per output: where rows differ in conditioning by orders of magnitude, the worst rows' errors
set it for all (a layer norm whose worst rows err by 1e-4 of the output's size lets an element of a
well-conditioned row move about as far); the gate's other input cases of the same candidate, and the
norm-wise check, still see such a defect. A wrong result is many orders of magnitude beyond this: fp32 rounding noise sits near 1e-7 relative,
while a bug (a dropped term, a stale value, bf16 arithmetic) errs by 1e-3 and more.
"""
from __future__ import annotations

import math

import torch

TAIL_RANK = 100             # k: the order statistic the tail is anchored at on large outputs
TAIL_SPAN = 10              # the tail's slope is read between the k-th and the (TAIL_SPAN k)-th largest
FALSE_REJECT = 1e-6         # expected chance that a correct output's worst element exceeds the reach
_HIGHAM_MARY_LAMBDA = math.sqrt(2.0 * math.log(2.0 / FALSE_REJECT))
_ACCUMULATOR_ROUNDOFF = {torch.float64: 2.0 ** -53}
_FP32_ROUNDOFF = 2.0 ** -24
_OUTPUT_ROUNDOFF = {torch.bfloat16: 2.0 ** -8, torch.float16: 2.0 ** -11}   # narrower than the accumulator


def tail_ranks(n: int) -> tuple[int, int]:
    """(k, TAIL_SPAN k): the ranks, among n errors, of the two order statistics the tail is read from."""
    k = min(TAIL_RANK, max(1, n // 100))
    return k, max(1, min(n, TAIL_SPAN * k))


def kept_count(n: int) -> int:
    """How many of the largest errors `reach` needs (what a running top-k keeps)."""
    return tail_ranks(n)[1]


def unit_scale(reference_squares: float, count: int) -> float:
    """rms(ref): the output's typical size, added to |ref_i| in the error unit w_i (1 for an all-zero
    or empty reference, where errors are then absolute)."""
    rms = math.sqrt(reference_squares / count) if count else 0.0
    return rms if rms > 0 and math.isfinite(rms) else 1.0


def final_rounding(dtype: torch.dtype) -> float:
    """The unit roundoff of a bf16/fp16 output's final rounding, which `unit_errors` leaves out (0 for
    fp32 and fp64 outputs, whose final rounding is part of the errors the model reads)."""
    return _OUTPUT_ROUNDOFF.get(dtype, 0.0)


def unit_errors(o: torch.Tensor, r: torch.Tensor, unit: float, dtype: torch.dtype) -> torch.Tensor:
    """The original's errors (float64 `o`, `r`) in units of |ref| + unit; for a bf16/fp16 output only
    what exceeds its own rounding to that dtype (see the module docstring)."""
    error = (o - r).abs_()
    if dtype in _OUTPUT_ROUNDOFF:
        error = error.sub_(r.abs().mul_(_OUTPUT_ROUNDOFF[dtype])).clamp_(min=0.0)
    return error.div_(r.abs().add_(unit))


def reach(largest: torch.Tensor, n: int, dtype: torch.dtype, reduction_length: int = 1) -> float:
    """The extreme (in units of w) that n correct rounding errors reach, from the original's largest
    errors `largest` (sorted descending, at least kept_count(n) of them unless n is smaller): see the
    module docstring."""
    floor = _HIGHAM_MARY_LAMBDA * math.sqrt(max(1, int(reduction_length))) * \
        _ACCUMULATOR_ROUNDOFF.get(dtype, _FP32_ROUNDOFF)
    if n == 0 or largest.numel() == 0:
        return floor
    k, span = tail_ranks(n)
    x1, x2 = float(largest[k - 1]), float(largest[span - 1])
    slope = (x1 - x2) / math.log(span / k) if span > k else 0.0
    return max(floor, x1 + slope * math.log(k / FALSE_REJECT))


_SAMPLE_STRIDE = 64


def _above_sampled_threshold(values: torch.Tensor, keep: int) -> torch.Tensor:
    """The values at or above a threshold read from an even subsample, when at least `keep` of them are
    (so they hold the top `keep` exactly), else all values: a selection over the whole chunk is several
    times slower than one comparison with it."""
    sample = values[::_SAMPLE_STRIDE]
    threshold = torch.topk(sample, min(sample.numel(), 2 * (keep // _SAMPLE_STRIDE) + 2)).values[-1]
    above = values[values >= threshold]
    return above if above.numel() >= keep else values


class LargestErrors:
    """The `keep` largest values seen over a stream of chunks: exactly the top of the whole stream."""

    def __init__(self, keep: int):
        self.keep = keep
        self.top = None

    def add(self, values: torch.Tensor) -> None:
        if values.numel() == 0 or self.keep == 0:
            return
        if self.top is not None and self.top.numel() == self.keep:
            values = values[values > self.top[-1]]      # only what can enter the top
        elif values.numel() > _SAMPLE_STRIDE * 4 * self.keep:
            values = _above_sampled_threshold(values, self.keep)
        if values.numel() == 0:
            return
        merged = values if self.top is None else torch.cat([self.top, values])
        self.top = torch.topk(merged, min(self.keep, merged.numel())).values

    def values(self) -> torch.Tensor:
        return self.top if self.top is not None else torch.zeros(0, dtype=torch.float64)
