"""Tolerances and the precision policy, as one explicit table.

Elementwise comparison against the original: |cand - orig| <= atol + rtol * |orig|, plus, where a float64
reference exists, the original's own distance from it at that element (a candidate that is as accurate
as the original may sit on the other side of the exact value) and accuracy_factor x the extreme that
correct rounding errors reach on an output of that many elements, modelled from the original's error
distribution (rounding_noise.py: the tail of its errors against float64, extrapolated to n draws at a
1e-6 false-reject chance, never below the probabilistic bound of a reordered fp32 sum of the kernel's
reduction length). Two summation orders differ at that level where the math cancels; see
compare._reference_slack.

| dtype    | rtol    | atol  | source                                  |
| -------- | ------- | ----- | --------------------------------------- |
| float64  | 1e-7    | 1e-7  | torch.testing defaults                  |
| float32  | 1.3e-6  | 1e-5  | torch.testing defaults                  |
| float16  | 1e-3    | 1e-5  | torch.testing defaults                  |
| bfloat16 | 1.6e-2  | 1e-5  | torch.testing defaults (never looser)   |
| integer, bool | 0  | 0     | exact                                   |

Precision policy (fp32 outputs only; other dtypes keep their row):
- strict (default): fp32 stays fp32: the float32 row, and the candidate's relative error against the
  float64 reference may be at most `accuracy_factor` (2) x the original's, floored at the float32 rtol.
- allow-tf32: fp32 outputs are compared at rtol=atol=2e-3 (TF32 has a 10-bit mantissa) and the
  accuracy floor is 1e-3.
- allow-bf16: fp32 outputs are compared at the bfloat16 row and the accuracy floor is 1e-2.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from kernelopt.precision import PRECISIONS  # noqa: E402  (one definition for every command)


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float
    accuracy_floor: float   # relative error vs float64 always allowed (covers an original error of 0)


_TABLE = {
    torch.float64: Tolerance(1e-7, 1e-7, 1e-12),
    torch.float32: Tolerance(1.3e-6, 1e-5, 1.3e-6),
    torch.float16: Tolerance(1e-3, 1e-5, 1e-3),
    torch.bfloat16: Tolerance(1.6e-2, 1e-5, 8e-3),
}
_EXACT = Tolerance(0.0, 0.0, 0.0)
_FP32_RELAXED = {
    "allow-tf32": Tolerance(2e-3, 2e-3, 1e-3),
    "allow-bf16": Tolerance(1.6e-2, 1e-5, 1e-2),
}


def tolerance_for(dtype: torch.dtype, precision: str = "strict") -> Tolerance:
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
    if dtype == torch.float32 and precision in _FP32_RELAXED:
        return _FP32_RELAXED[precision]
    if dtype.is_floating_point:
        return _TABLE.get(dtype, _TABLE[torch.float16])
    return _EXACT


def looks_like_lowered_precision(candidate_rel_err: float, original_rel_err: float) -> bool:
    """A float32 result whose error sits in the band bf16/fp16/tf32 arithmetic produces (~1e-4..5e-2)
    while the original is fp32-accurate: the usual signature of quietly lowered precision."""
    return 1e-4 <= candidate_rel_err <= 5e-2 and original_rel_err < 1e-5
