"""Comparisons of one case's results. Each returns None (passes) or a `Failure` with evidence.

Every check walks its tensors in chunks of at most CHUNK_ELEMENTS elements (`blocks`), so the
temporaries it makes (float64 copies, masks, errors) take O(chunk) memory, not O(output): a
1.9G-element fp32 output would otherwise need 15 GB per float64 temporary. Every element is still
compared; counts, first indices and the worst element are merged across chunks exactly, relative
errors from accumulated sums of squares. Tensors of one check may live on different devices (input
snapshots or the float64 reference kept on the host under a memory budget): each chunk is moved to
the accelerator, if any of them is on one.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import torch

from kernelopt.legality import cases
from kernelopt.legality.tolerance import looks_like_lowered_precision, tolerance_for

CHUNK_ELEMENTS = 1 << 24     # elements per chunk; tests set it tiny to exercise the merging


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


def _element(tensor: torch.Tensor, flat: int) -> torch.Tensor:
    """The element at a row-major flat index of a (possibly strided) tensor, without flattening it."""
    return tensor[_index(flat, tensor.shape)]


# ----------------------------------------------------------------------------- chunking

def compute_device(tensors) -> torch.device:
    """Where a check's chunks are compared: the accelerator, if any of the tensors lives on one."""
    for t in tensors:
        if t.device.type != "cpu":
            return t.device
    return torch.device("cpu")


def blocks(tensors, device=None):
    """Yield (start, pieces) over tensors of one shape: `pieces` are 1-D tensors holding the same
    consecutive row-major range [start, start + len) of each tensor, at most CHUNK_ELEMENTS long,
    on `device` (default: compute_device). Contiguous tensors are sliced in place; a non-contiguous
    view is split along its leading dims, and only a piece of at most a chunk is ever copied.
    Pieces may be views of the tensors: never modify them."""
    tensors = list(tensors)
    if device is None:
        device = compute_device(tensors)
    shape = tuple(tensors[0].shape)
    tensors = [t if tuple(t.shape) == shape else t.reshape(shape) for t in tensors]
    yield from _walk(tensors, 0, max(1, int(CHUNK_ELEMENTS)), device)


def _walk(tensors, start, chunk, device):
    n = tensors[0].numel()
    if n == 0:
        return
    if n <= chunk:
        yield start, [t.reshape(-1).to(device) for t in tensors]
        return
    if all(t.is_contiguous() for t in tensors):
        flats = [t.view(-1) for t in tensors]
        for s in range(0, n, chunk):
            yield start + s, [f[s:s + chunk].to(device) for f in flats]
        return
    rows = tensors[0].shape[0]
    inner = n // rows
    if inner <= chunk:
        step = chunk // inner
        for s in range(0, rows, step):
            yield start + s * inner, [t[s:s + step].reshape(-1).to(device) for t in tensors]
    else:
        for s in range(rows):
            yield from _walk([t[s] for t in tensors], start + s * inner, chunk, device)


def _scan(tensors, predicate) -> tuple[int, int | None]:
    """How many elements satisfy predicate(*pieces), and the flat index of the first one."""
    count, first = 0, None
    for start, pieces in blocks(tensors):
        mask = predicate(*pieces)
        found = int(mask.sum())
        if found:
            count += found
            if first is None:
                first = start + _first(mask)
    return count, first


def same_bits(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bitwise equality (NaN == NaN when the bits match), chunk by chunk and across devices."""
    return _scan([a, b], lambda p, q: cases.bits(p) != cases.bits(q))[0] == 0


# ----------------------------------------------------------------------------- checks

def guard_bands(layout, before: list, after: list, arg_name) -> Failure | None:
    for b, (pre, post) in enumerate(zip(before, after)):
        # the guard mask lives with the snapshot: on the host when the snapshots are kept there
        guard = layout.guard(b, pre.device)
        count, where = _scan([pre, post, guard], lambda p, q, g: (cases.bits(p) != cases.bits(q)) & g)
        if count:
            owners = [i for i, p in layout.places.items() if p.base == b]
            return Failure("guard-band",
                           f"wrote {count} element(s) outside the bounds of {arg_name(owners[0])} "
                           f"(guard band / stride gaps of its buffer; first at buffer element {where})",
                           {"arg": owners[0], "changed": count, "buffer_element": where})
    return None


def inputs_unchanged(layout, before_views, after_views, read_only, arg_name) -> Failure | None:
    for i in sorted(read_only):
        pre, post = before_views[i], after_views[i]
        count, first = _scan([pre, post], lambda p, q: cases.bits(p) != cases.bits(q))
        if count:
            where = _index(first, pre.shape)
            return Failure("input-mutated",
                           f"modified input {arg_name(i)}, which the original leaves unchanged: "
                           f"{count} of {pre.numel()} element(s) differ (checksum "
                           f"{checksum(pre)} -> {checksum(post)}), first at {list(where)}",
                           {"arg": i, "changed": count, "index": list(where)})
    return None


def checksum(tensor: torch.Tensor) -> str:
    """sha256 of the row-major bytes, fed chunk by chunk (the same digest as of the whole)."""
    digest = hashlib.sha256()
    for _, (piece,) in blocks([tensor.detach()], torch.device("cpu")):
        digest.update(cases.bits(piece).contiguous().numpy().tobytes())
    return digest.hexdigest()[:12]


def unwritten(i, cand, orig, arg_name) -> Failure | None:
    if not cases.poisonable(cand.dtype):
        return None
    count, first = _scan([cand, orig], lambda c, o: cases.is_poison(c) & ~cases.is_poison(o))
    if count:
        where = _index(first, cand.shape)
        return Failure("unwritten",
                       f"left {count} of {cand.numel()} element(s) of output {arg_name(i)} "
                       f"unwritten (still the poison value), first at {list(where)}",
                       {"arg": i, "unwritten": count, "index": list(where)})
    return None


def _nonfinite_differ(c, o):
    c, o = c.double(), o.double()
    return (torch.isnan(c) != torch.isnan(o)) | (torch.isinf(c) != torch.isinf(o)) | \
        (torch.isinf(o) & torch.isinf(c) & (torch.sign(c) != torch.sign(o)))


def nonfinite_pattern(i, cand, orig, arg_name) -> Failure | None:
    if not cand.dtype.is_floating_point:
        return None
    count, flat = _scan([cand, orig], _nonfinite_differ)
    if count:
        where = _index(flat, cand.shape)
        return Failure("nonfinite",
                       f"NaN/Inf pattern of output {arg_name(i)} differs from the original at "
                       f"{count} position(s), first at {list(where)}: candidate "
                       f"{_element(cand, flat).double().item():.6g}, original "
                       f"{_element(orig, flat).double().item():.6g} "
                       "(the sandbox fills torch.empty with NaN, so reading uninitialised memory shows here)",
                       {"arg": i, "positions": count, "index": list(where)})
    return None


def _norm_ratio(diff_squares: float, scale_squares: float, count: int) -> float:
    """_rel_error's ||diff|| / ||ref|| (or ||diff|| when the scale is 0) from sums of squares."""
    if count == 0:
        return 0.0
    diff, scale = math.sqrt(diff_squares), math.sqrt(scale_squares)
    return diff / scale if scale > 0 else diff


def rel_error(x: torch.Tensor, ref: torch.Tensor) -> float:
    """||x - ref|| / ||ref|| over the elements where both are finite, in float64, chunk by chunk."""
    diff = scale = count = 0.0
    for _, (p, q) in blocks([x, ref]):
        p, q = p.double(), q.double()
        finite = torch.isfinite(p) & torch.isfinite(q)
        diff += float(((p - q)[finite] ** 2).sum())
        scale += float((q[finite] ** 2).sum())
        count += int(finite.sum())
    return _norm_ratio(diff, scale, int(count))


def _accuracy_sums(cand, orig, ref) -> dict:
    """One pass: the sums of squares of the three relative errors over the elements where candidate
    and original are finite, and how many of those also have a finite reference (_noise_level's n)."""
    keys = ("co", "oo", "cr", "rr", "or")
    sums = {k: 0.0 for k in keys}
    finite_count = noise_count = 0
    for _, pieces in blocks([cand, orig] + ([ref] if ref is not None else [])):
        c, o = pieces[0].double(), pieces[1].double()
        finite = torch.isfinite(c) & torch.isfinite(o)
        finite_count += int(finite.sum())
        sums["co"] += float(((c - o)[finite] ** 2).sum())
        sums["oo"] += float((o[finite] ** 2).sum())
        if ref is not None:
            r = pieces[2].double()
            rf = r[finite]
            sums["cr"] += float(((c[finite] - rf) ** 2).sum())
            sums["rr"] += float((rf ** 2).sum())
            sums["or"] += float(((o[finite] - rf) ** 2).sum())
            noise_count += int((finite & torch.isfinite(r)).sum())
    sums["finite"], sums["noise"] = finite_count, noise_count
    return sums


def values(i, cand, orig, ref, precision, factor, arg_name) -> tuple[Failure | None, float]:
    """Elementwise closeness to the original, then accuracy against the float64 reference.
    Returns the failure (or None) and the candidate's relative error (for the report)."""
    tol = tolerance_for(orig.dtype, precision)
    if not orig.dtype.is_floating_point:
        count, flat = _scan([cand, orig], lambda c, o: c.double() != o.double())
        if count:
            where = _index(flat, cand.shape)
            return Failure("mismatch", f"output {arg_name(i)} ({orig.dtype}) differs from the original at "
                           f"{count} element(s), first at {list(where)}: candidate "
                           f"{int(_element(cand, flat).double())}, original {int(_element(orig, flat).double())} "
                           "(exact match required)", {"arg": i, "index": list(where)}), 0.0
        return None, 0.0
    sums = _accuracy_sums(cand, orig, ref)
    rel_to_orig = _norm_ratio(sums["co"], sums["oo"], sums["finite"])
    rel_c = _norm_ratio(sums["cr"], sums["rr"], sums["finite"]) if ref is not None else rel_to_orig
    rel_o = _norm_ratio(sums["or"], sums["rr"], sums["finite"]) if ref is not None else 0.0
    lowered = orig.dtype == torch.float32 and precision == "strict" and looks_like_lowered_precision(rel_c, rel_o)
    noise = factor * _noise_level(cand, orig, ref, sums["noise"]) if ref is not None else None
    worst = _worst_excess(cand, orig, ref, tol, noise)
    if worst["count"]:
        flat = worst["flat"]
        where = _index(flat, cand.shape)
        evidence = {"arg": i, "index": list(where), "out_of_tolerance": worst["count"],
                    "max_abs_err": worst["max_abs_err"], "rel_err": rel_c,
                    "candidate": worst["candidate"], "original": worst["original"], "allowed": worst["allowed"]}
        if lowered:
            return _precision_failure(i, rel_c, rel_o, ref is not None, arg_name, evidence), rel_c
        return Failure("mismatch",
                       f"output {arg_name(i)} differs from the original beyond the {orig.dtype} tolerance "
                       f"(rtol={tol.rtol:g}, atol={tol.atol:g}): {evidence['out_of_tolerance']} element(s); "
                       f"worst at {list(where)}: candidate {evidence['candidate']:.8g}, original "
                       f"{evidence['original']:.8g}, allowed |diff| {evidence['allowed']:.3g}", evidence), rel_c
    if ref is not None:
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


def _worst_excess(cand, orig, ref, tol, noise) -> dict:
    """How far each finite element sits beyond the allowed |cand - orig| (tolerance + _reference_slack):
    how many exceed it, the worst (the first of the global maximum excess, like argmax on the whole
    output) with its values, and the largest |cand - orig|."""
    worst = {"count": 0, "excess": None, "flat": None, "max_abs_err": None}
    for start, pieces in blocks([cand, orig] + ([ref] if ref is not None else [])):
        c, o = pieces[0].double(), pieces[1].double()
        finite = torch.isfinite(c) & torch.isfinite(o)
        slack = _reference_slack(o, pieces[2].double(), noise) if ref is not None else 0.0
        allowed = tol.atol + tol.rtol * o.abs() + slack
        diff = (c - o).abs()
        excess = torch.where(finite, diff - allowed, torch.zeros_like(c))
        worst["count"] += int((excess > 0).sum())
        if finite.any():
            top = float(diff[finite].max())
            worst["max_abs_err"] = top if worst["max_abs_err"] is None else max(worst["max_abs_err"], top)
        local = int(excess.argmax())
        value = float(excess[local])
        if worst["excess"] is None or value > worst["excess"]:
            worst.update(excess=value, flat=start + local, candidate=float(c[local]),
                         original=float(o[local]), allowed=float(allowed[local]))
    return worst


NOISE_QUANTILE = 0.99
NOISE_RANK = 100          # on large outputs: the 100th-largest error of the original, see _noise_level
_QUANTILE_MAX = 1 << 24


def _reference_slack(o, r, noise):
    """Per element, how far beyond the dtype's tolerance a candidate may sit from the original when a
    float64 reference says the original is itself off: the original's own error at that element (the
    candidate may sit on the other side of the exact value), plus `factor` x the original's noise level
    on this output (`noise`, see _noise_level). Two correct fp32 algorithms that sum in a different order
    differ at that noise level, which can exceed the dtype's atol where the math cancels (a LayerNorm of
    values near -50 whose spread is small); a wrong result is far beyond it. The relative-error check
    against the reference still bounds the whole output."""
    return (o - r).abs().nan_to_num(0.0) + noise


def _noise_errors(cand, orig, ref):
    """The original's errors |orig - ref| (as float32) where candidate, original and reference are
    finite, in row-major order, one chunk at a time."""
    for _, (c, o, r) in blocks([cand, orig, ref]):
        c, o, r = c.double(), o.double(), r.double()
        keep = torch.isfinite(c) & torch.isfinite(o) & torch.isfinite(r)
        yield (o - r).abs()[keep].float()


def _noise_level(cand, orig, ref, n: int) -> float:
    """The original's typical large error: its 99th percentile, or on outputs of more than 10^4 elements
    the 100th-largest error. The candidate's worst element is compared with this, and the extreme of n
    noise samples grows with n: with a fixed percentile, an fp32 LayerNorm retune on a 10^7-element
    output was rejected as a mismatch on the H200 although it was as accurate as the original (its few
    worst elements out of 10^7 sat just beyond 2 x the p99). The same rank, not the same percentile,
    keeps the comparison fair at every size, and a handful of wild elements cannot widen it.

    Chunked: the n errors (counted beforehand) are streamed; beyond _QUANTILE_MAX of them the same even
    subsample as ever is taken (every step-th error, counted across chunks), a running top NOISE_RANK is
    merged chunk by chunk, and the percentile branch (at most ~10^4 errors) gathers them all."""
    if n == 0:
        return 0.0
    step = 1
    if n > _QUANTILE_MAX:               # torch.quantile's input limit: an even subsample
        step = -(-n // _QUANTILE_MAX)
        n = -(-n // step)
    rank = int(n * (1.0 - NOISE_QUANTILE))
    gathered, top, seen = [], None, 0
    for errors in _noise_errors(cand, orig, ref):
        if step > 1:
            taken = errors[(-seen) % step::step]
            seen += errors.numel()
            errors = taken
        if rank <= NOISE_RANK:
            gathered.append(errors)
        elif errors.numel():
            merged = errors if top is None else torch.cat([top, errors])
            top = torch.topk(merged, min(NOISE_RANK, merged.numel())).values
    if rank <= NOISE_RANK:
        return float(torch.quantile(torch.cat(gathered), NOISE_QUANTILE))
    return float(top[NOISE_RANK - 1])


def _precision_failure(i, rel_c, rel_o, against_ref, arg_name, evidence) -> Failure:
    what = "the float64 reference" if against_ref else "the original"
    return Failure("precision",
                   f"output {arg_name(i)} (float32) looks computed in lower precision: relative error "
                   f"{rel_c:.3g} against {what} (original {rel_o:.3g}), the signature of bf16/fp16/tf32 "
                   "arithmetic, which --precision strict does not allow", evidence)
