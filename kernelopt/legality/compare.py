"""Comparisons of one case's results. Each returns None (passes) or a `Failure` with evidence."""
from __future__ import annotations

from dataclasses import dataclass, field

import torch

from kernelopt.legality import cases
from kernelopt.legality.tolerance import looks_like_lowered_precision, tolerance_for


@dataclass
class Failure:
    check: str
    message: str
    evidence: dict = field(default_factory=dict)


def _index(flat_index: int, shape) -> tuple:
    index = []
    for size in reversed(tuple(shape)):
        index.append(flat_index % size if size else 0)
        flat_index //= size if size else 1
    return tuple(reversed(index))


def _first(mask: torch.Tensor):
    where = mask.reshape(-1).nonzero()
    return int(where[0]) if where.numel() else None


def guard_bands(layout, before: list, after: list, arg_name) -> Failure | None:
    for b, (pre, post) in enumerate(zip(before, after)):
        changed = (cases.bits(pre) != cases.bits(post)) & layout.guard(b, post.device)
        if changed.any():
            count = int(changed.sum())
            where = _first(changed)
            owners = [i for i, p in layout.places.items() if p.base == b]
            return Failure("guard-band",
                           f"wrote {count} element(s) outside the bounds of {arg_name(owners[0])} "
                           f"(guard band / stride gaps of its buffer; first at buffer element {where})",
                           {"arg": owners[0], "changed": count, "buffer_element": where})
    return None


def inputs_unchanged(layout, before_views, after_views, read_only, arg_name) -> Failure | None:
    for i in sorted(read_only):
        pre, post = before_views[i], after_views[i]
        changed = cases.bits(pre) != cases.bits(post)
        if changed.any():
            count = int(changed.sum())
            where = _index(_first(changed), pre.shape)
            return Failure("input-mutated",
                           f"modified input {arg_name(i)}, which the original leaves unchanged: "
                           f"{count} of {pre.numel()} element(s) differ (checksum "
                           f"{checksum(pre)} -> {checksum(post)}), first at {list(where)}",
                           {"arg": i, "changed": count, "index": list(where)})
    return None


def checksum(tensor: torch.Tensor) -> str:
    import hashlib
    data = cases.bits(tensor.detach().contiguous().cpu()).numpy().tobytes()
    return hashlib.sha256(data).hexdigest()[:12]


def unwritten(i, cand, orig, arg_name) -> Failure | None:
    if not cases.poisonable(cand.dtype):
        return None
    left = cases.is_poison(cand) & ~cases.is_poison(orig)
    if left.any():
        where = _index(_first(left), cand.shape)
        return Failure("unwritten",
                       f"left {int(left.sum())} of {cand.numel()} element(s) of output {arg_name(i)} "
                       f"unwritten (still the poison value), first at {list(where)}",
                       {"arg": i, "unwritten": int(left.sum()), "index": list(where)})
    return None


def nonfinite_pattern(i, cand, orig, arg_name) -> Failure | None:
    if not cand.dtype.is_floating_point:
        return None
    c, o = cand.double(), orig.double()
    differ = (torch.isnan(c) != torch.isnan(o)) | (torch.isinf(c) != torch.isinf(o)) | \
             (torch.isinf(o) & torch.isinf(c) & (torch.sign(c) != torch.sign(o)))
    if differ.any():
        flat = _first(differ)
        where = _index(flat, cand.shape)
        return Failure("nonfinite",
                       f"NaN/Inf pattern of output {arg_name(i)} differs from the original at "
                       f"{int(differ.sum())} position(s), first at {list(where)}: candidate "
                       f"{c.reshape(-1)[flat].item():.6g}, original {o.reshape(-1)[flat].item():.6g} "
                       "(the sandbox fills torch.empty with NaN, so reading uninitialised memory shows here)",
                       {"arg": i, "positions": int(differ.sum()), "index": list(where)})
    return None


def _rel_error(x: torch.Tensor, ref: torch.Tensor, finite: torch.Tensor) -> float:
    diff = (x.double() - ref.double())[finite]
    scale = ref.double()[finite].norm()
    if diff.numel() == 0:
        return 0.0
    return float(diff.norm() / scale) if scale > 0 else float(diff.norm())


def values(i, cand, orig, ref, precision, factor, arg_name) -> tuple[Failure | None, float]:
    """Elementwise closeness to the original, then accuracy against the float64 reference.
    Returns the failure (or None) and the candidate's relative error (for the report)."""
    tol = tolerance_for(orig.dtype, precision)
    c, o = cand.double(), orig.double()
    finite = torch.isfinite(c) & torch.isfinite(o)
    if not orig.dtype.is_floating_point:
        wrong = (c != o)
        if wrong.any():
            flat = _first(wrong)
            where = _index(flat, cand.shape)
            return Failure("mismatch", f"output {arg_name(i)} ({orig.dtype}) differs from the original at "
                           f"{int(wrong.sum())} element(s), first at {list(where)}: candidate "
                           f"{int(c.reshape(-1)[flat])}, original {int(o.reshape(-1)[flat])} (exact match required)",
                           {"arg": i, "index": list(where)}), 0.0
        return None, 0.0
    r = ref.double() if ref is not None else None
    allowed = tol.atol + tol.rtol * o.abs() + _reference_slack(o, r, finite, factor)
    excess = torch.where(finite, (c - o).abs() - allowed, torch.zeros_like(c))
    rel_to_orig = _rel_error(c, o, finite)
    rel_c = _rel_error(c, r, finite) if r is not None else rel_to_orig
    rel_o = _rel_error(o, r, finite) if r is not None else 0.0
    lowered = orig.dtype == torch.float32 and precision == "strict" and looks_like_lowered_precision(rel_c, rel_o)
    if (excess > 0).any():
        flat = int(excess.reshape(-1).argmax())
        where = _index(flat, cand.shape)
        evidence = {"arg": i, "index": list(where), "out_of_tolerance": int((excess > 0).sum()),
                    "max_abs_err": float((c - o).abs()[finite].max()), "rel_err": rel_c,
                    "candidate": float(c.reshape(-1)[flat]), "original": float(o.reshape(-1)[flat]),
                    "allowed": float(allowed.reshape(-1)[flat] if torch.is_tensor(allowed) else allowed)}
        if lowered:
            return _precision_failure(i, rel_c, rel_o, r is not None, arg_name, evidence), rel_c
        return Failure("mismatch",
                       f"output {arg_name(i)} differs from the original beyond the {orig.dtype} tolerance "
                       f"(rtol={tol.rtol:g}, atol={tol.atol:g}): {evidence['out_of_tolerance']} element(s); "
                       f"worst at {list(where)}: candidate {evidence['candidate']:.8g}, original "
                       f"{evidence['original']:.8g}, allowed |diff| {evidence['allowed']:.3g}", evidence), rel_c
    if r is not None:
        bound = max(factor * rel_o, tol.accuracy_floor)
        if rel_c > bound:
            evidence = {"arg": i, "rel_err": rel_c, "original_rel_err": rel_o, "bound": bound}
            if lowered:
                return _precision_failure(i, rel_c, rel_o, True, arg_name, evidence), rel_c
            return Failure("less-accurate",
                           f"output {arg_name(i)} is less accurate than the original: relative error "
                           f"{rel_c:.3g} against the float64 reference > {factor:g} x the original's "
                           f"{rel_o:.3g} (floor {tol.accuracy_floor:g})", evidence), rel_c
    return None, rel_c


NOISE_QUANTILE = 0.99
NOISE_RANK = 100          # on large outputs: the 100th-largest error of the original, see _noise_level
_QUANTILE_MAX = 1 << 24


def _reference_slack(o, r, finite, factor):
    """Per element, how far beyond the dtype's tolerance a candidate may sit from the original when a
    float64 reference says the original is itself off: the original's own error at that element (the
    candidate may sit on the other side of the exact value), plus `factor` x the original's noise level
    on this output (_noise_level). Two correct fp32 algorithms that sum in a different order differ at
    that noise level, which can exceed the dtype's atol where the math cancels (a LayerNorm of values
    near -50 whose spread is small); a wrong result is far beyond it. The relative-error check against
    the reference still bounds the whole output."""
    if r is None:
        return 0.0
    error = (o - r).abs()
    return error.nan_to_num(0.0) + factor * _noise_level(error[finite & torch.isfinite(r)].float())


def _noise_level(errors: torch.Tensor) -> float:
    """The original's typical large error: its 99th percentile, or on outputs of more than 10^4 elements
    the 100th-largest error. The candidate's worst element is compared with this, and the extreme of n
    noise samples grows with n: with a fixed percentile, an fp32 LayerNorm retune on a 10^7-element
    output was rejected as a mismatch on the H200 although it was as accurate as the original (its few
    worst elements out of 10^7 sat just beyond 2 x the p99). The same rank, not the same percentile,
    keeps the comparison fair at every size, and a handful of wild elements cannot widen it."""
    n = errors.numel()
    if n == 0:
        return 0.0
    if n > _QUANTILE_MAX:               # torch.quantile's input limit: an even subsample
        step = -(-n // _QUANTILE_MAX)
        errors, n = errors[::step], -(-n // step)
    rank = int(n * (1.0 - NOISE_QUANTILE))
    if rank <= NOISE_RANK:
        return float(torch.quantile(errors, NOISE_QUANTILE))
    return float(torch.topk(errors.reshape(-1), NOISE_RANK).values[-1])


def _precision_failure(i, rel_c, rel_o, against_ref, arg_name, evidence) -> Failure:
    what = "the float64 reference" if against_ref else "the original"
    return Failure("precision",
                   f"output {arg_name(i)} (float32) looks computed in lower precision: relative error "
                   f"{rel_c:.3g} against {what} (original {rel_o:.3g}), the signature of bf16/fp16/tf32 "
                   "arithmetic, which --precision strict does not allow", evidence)
