"""Comparisons of one case's results. Each returns None (passes) or a `Failure` with evidence.

Every check walks its tensors in chunks of at most CHUNK_ELEMENTS elements (`blocks`), so the
temporaries it makes (float64 copies, masks, errors) take O(chunk) memory, not O(output): a
1.9G-element fp32 output would otherwise need 15 GB per float64 temporary. Every element is still
compared; counts, first indices, the worst element and the original's largest errors (a running
top-k, for rounding_noise) are merged across chunks exactly, relative errors from accumulated sums of
squares. Tensors of one check may live on different devices (input
snapshots or the float64 reference kept on the host under a memory budget): each chunk is moved to
the accelerator, if any of them is on one.
"""
from __future__ import annotations

import contextlib
import contextvars
import hashlib
import math
from dataclasses import dataclass, field

import torch

from kernelopt.legality import cases, rounding_noise
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

# The accelerator a check runs on (compute_on): chunks of tensors that were all kept on the host are moved
# there to be compared. On an H200 the gate keeps snapshots and candidate results of multi-GB cases on the
# host, and comparing them with the host's own cores took seconds per GiB where the GPU takes milliseconds.
_ACCELERATOR: contextvars.ContextVar = contextvars.ContextVar("kernelopt_compare_accelerator", default=None)


@contextlib.contextmanager
def compute_on(device: torch.device):
    """Within the block, checks whose tensors all live on the host compare on `device` (when not the CPU)."""
    token = _ACCELERATOR.set(device if device.type != "cpu" else None)
    try:
        yield
    finally:
        _ACCELERATOR.reset(token)


def compute_device(tensors) -> torch.device:
    """Where a check's chunks are compared: the accelerator, if any of the tensors lives on one or the
    check runs within compute_on(an accelerator)."""
    for t in tensors:
        if t.device.type != "cpu":
            return t.device
    return _ACCELERATOR.get() or torch.device("cpu")


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
    diff = scale = 0.0
    count = 0
    for chunk in _finite_chunks(x, ref, None):
        d = chunk.c - chunk.o
        diff += float(torch.dot(d, d))
        scale += float(torch.dot(chunk.o, chunk.o))
        count += chunk.compared
    return _norm_ratio(diff, scale, count)


@dataclass
class _FiniteChunk:
    """One chunk of (candidate, original[, reference]) in float64, ready for arithmetic without masks:
    `c`, `o` are 0 wherever the candidate or the original is not finite, `r`, `c_ref`, `o_ref` (the
    candidate and original for comparisons with the reference) are 0 wherever any of the three is not
    finite. `compared` and `with_reference` count the elements that are not zeroed in each."""
    start: int
    c: torch.Tensor
    o: torch.Tensor
    compared: int
    r: torch.Tensor | None = None
    c_ref: torch.Tensor | None = None
    o_ref: torch.Tensor | None = None
    with_reference: int = 0


def _finite_chunks(cand, orig, ref):
    """`_FiniteChunk`s over the tensors' row-major ranges (see blocks). Outputs are almost always all
    finite, which one float64 sum per tensor shows (an fp32 chunk's sum cannot overflow float64; a
    float64 one that does only takes the masked path): then nothing is masked, no `where` copies, no
    elementwise isfinite, which would otherwise be most of the comparisons' time on a CPU."""
    for start, pieces in blocks([cand, orig] + ([ref] if ref is not None else [])):
        c, o = pieces[0].double(), pieces[1].double()
        finite = None if _all_finite(c) and _all_finite(o) else torch.isfinite(c) & torch.isfinite(o)
        chunk = _FiniteChunk(start, c, o, c.numel())
        if finite is not None:
            chunk.c, chunk.o = torch.where(finite, c, 0.0), torch.where(finite, o, 0.0)
            chunk.compared = int(finite.sum())
        if ref is not None:
            r = pieces[2].double()
            chunk.r, chunk.c_ref, chunk.o_ref, chunk.with_reference = r, chunk.c, chunk.o, chunk.compared
            if finite is not None or not _all_finite(r):
                both = torch.isfinite(r) if finite is None else finite & torch.isfinite(r)
                chunk.r, chunk.c_ref, chunk.o_ref = (torch.where(both, t, 0.0) for t in (r, c, o))
                chunk.with_reference = int(both.sum())
        yield chunk


def _all_finite(t: torch.Tensor) -> bool:
    return math.isfinite(float(t.sum()))


def _accuracy_sums(cand, orig, ref) -> dict:
    """One pass: the sums of squares of the relative errors, candidate against original over the
    elements where both are finite ("finite" of them), and both against the reference over the elements
    where all three are ("noise" of them, the n of the rounding-noise model; "rr" also gives its unit),
    and the candidate's largest squared error against the reference ("cr_max")."""
    sums = {k: 0.0 for k in ("co", "oo", "cr", "rr", "or", "cr_max")}
    sums["finite"] = sums["noise"] = 0
    for chunk in _finite_chunks(cand, orig, ref):
        co = chunk.c - chunk.o
        sums["co"] += float(torch.dot(co, co))
        sums["oo"] += float(torch.dot(chunk.o, chunk.o))
        sums["finite"] += chunk.compared
        if ref is not None:
            cr, or_ = chunk.c_ref - chunk.r, chunk.o_ref - chunk.r
            sums["cr"] += float(torch.dot(cr, cr))
            if cr.numel():
                sums["cr_max"] = max(sums["cr_max"], float(cr.abs().max()) ** 2)
            sums["rr"] += float(torch.dot(chunk.r, chunk.r))
            sums["or"] += float(torch.dot(or_, or_))
            sums["noise"] += chunk.with_reference
    return sums


def finite_rms(tensor: torch.Tensor) -> float:
    """The root mean square of the tensor's finite elements (0.0 when there are none), streamed in chunks."""
    flat = tensor.detach().reshape(-1)
    squares, count = 0.0, 0
    for start in range(0, flat.numel(), CHUNK_ELEMENTS):
        x = flat[start:start + CHUNK_ELEMENTS].double()
        x = x[torch.isfinite(x)]
        squares, count = squares + float(torch.dot(x, x)), count + x.numel()
    return math.sqrt(squares / count) if count else 0.0


def run_to_run_reach(first: torch.Tensor, second: torch.Tensor) -> float:
    """How far two runs of the same original on the same inputs differ, at the worst element, in units of
    |first| + rms(first) (as rounding_noise measures errors): 0.0 when they agree bit for bit. Streamed in
    chunks; elements that are not finite in either run are left out."""
    a, b = first.detach().reshape(-1), second.detach().reshape(-1)
    unit = finite_rms(a)
    worst = 0.0
    for start in range(0, a.numel(), CHUNK_ELEMENTS):
        x, y = a[start:start + CHUNK_ELEMENTS].double(), b[start:start + CHUNK_ELEMENTS].double()
        finite = torch.isfinite(x) & torch.isfinite(y)
        if bool(finite.any()):
            ratio = (x - y).abs()[finite] / (x.abs()[finite] + unit + 1e-300)
            worst = max(worst, float(ratio.max()))
    return worst


def values(i, cand, orig, ref, precision, factor, arg_name, reduction_length: int = 1,
           run_to_run: float = 0.0) -> tuple[Failure | None, float]:
    """Elementwise closeness to the original, then accuracy against the float64 reference.
    `reduction_length`: the kernel's reduction length, when known (the rounding-noise floor).
    `run_to_run`: the original's own run-to-run reach on this output (run_to_run_reach; 0 when it is
    bitwise reproducible): a kernel that combines in an order set at run time (atomics, a split scan's
    look-back) differs from itself by that much, and a correct candidate may differ from one of its runs
    by `factor` times it.
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
    rel_c = _norm_ratio(sums["cr"], sums["rr"], sums["noise"]) if ref is not None else rel_to_orig
    rel_o = _norm_ratio(sums["or"], sums["rr"], sums["noise"]) if ref is not None else 0.0
    lowered = orig.dtype == torch.float32 and precision == "strict" and looks_like_lowered_precision(rel_c, rel_o)
    noise = _rounding_noise(cand, orig, ref, sums, orig.dtype, reduction_length) if ref is not None else None
    spread = (factor * run_to_run, math.sqrt(sums["oo"] / max(sums["finite"], 1))) if run_to_run else None
    worst = _worst_excess(cand, orig, ref, tol, noise, factor, spread)
    if worst["count"]:
        flat = worst["flat"]
        where = _index(flat, cand.shape)
        evidence = {"arg": i, "index": list(where), "out_of_tolerance": worst["count"],
                    "max_abs_err": worst["max_abs_err"], "rel_err": rel_c,
                    "candidate": worst["candidate"], "original": worst["original"], "allowed": worst["allowed"]}
        if noise is not None:
            evidence.update(noise_reach=noise.reach, noise_unit=noise.unit, noise_elements=noise.count)
        # lowered arithmetic errs everywhere; a few wrong elements that lift the norm error into the
        # same band are a plain mismatch (one element of 10^7 off by 1e-3 is not bf16 math)
        if lowered and worst["count"] >= _WIDESPREAD * sums["finite"]:
            return _precision_failure(i, rel_c, rel_o, ref is not None, arg_name, evidence), rel_c
        return Failure("mismatch",
                       f"output {arg_name(i)} differs from the original beyond the {orig.dtype} tolerance "
                       f"(rtol={tol.rtol:g}, atol={tol.atol:g}{_noise_words(noise, factor)}"
                       f"{_spread_words(run_to_run, factor)}): "
                       f"{evidence['out_of_tolerance']} element(s); "
                       f"worst at {list(where)}: candidate {evidence['candidate']:.8g}, original "
                       f"{evidence['original']:.8g}, allowed |diff| {evidence['allowed']:.3g}", evidence), rel_c
    if ref is not None:
        bound = max(factor * rel_o, tol.accuracy_floor)
        if rel_c > bound:
            evidence = {"arg": i, "rel_err": rel_c, "original_rel_err": rel_o, "bound": bound}
            # lowered arithmetic spreads its error; one element that carries half of it is a local defect
            if lowered and sums["cr_max"] < 0.5 * sums["cr"]:
                return _precision_failure(i, rel_c, rel_o, True, arg_name, evidence), rel_c
            return Failure("less-accurate",
                           f"output {arg_name(i)} is less accurate than the original: relative error "
                           f"{rel_c:.3g} against the float64 reference > {factor:g} x the original's "
                           f"{rel_o:.3g} (floor {tol.accuracy_floor:g})", evidence), rel_c
    return None, rel_c


_WIDESPREAD = 0.01      # share of out-of-tolerance elements from which a mismatch may be lowered precision


def _spread_words(run_to_run: float, factor) -> str:
    if not run_to_run:
        return ""
    return (f"; plus {factor:g} x the {run_to_run:.3g} x (|orig| + rms(orig)) by which the original's own runs "
            "differ")


def _noise_words(noise, factor) -> str:
    if noise is None:
        return ""
    return (f"; the original's own error plus the larger of rtol x |orig| and {factor:g} x the "
            f"{noise.reach:.3g} x (|ref| + {noise.unit:.3g}) that rounding reaches on {noise.count} elements")


@dataclass
class RoundingNoise:
    """What rounding_noise says about one output: errors measured in units of |ref| + `unit` reach
    `reach` on its `count` elements."""
    reach: float
    unit: float
    count: int
    dtype: torch.dtype


def _rounding_noise(cand, orig, ref, sums, dtype, reduction_length) -> RoundingNoise:
    """The original's largest errors, in units of |ref| + rms(ref), streamed chunk by chunk into a
    running top-k (exact: the same values as from the whole output), and the reach they imply.
    Elements that are not finite in all three count as error 0: a 0 never displaces a larger error
    from the top, and where it would rank, the k-th largest error is 0 anyway."""
    n = sums["noise"]
    unit = rounding_noise.unit_scale(sums["rr"], n)
    largest = rounding_noise.LargestErrors(rounding_noise.kept_count(n))
    for chunk in _finite_chunks(cand, orig, ref):
        largest.add(rounding_noise.unit_errors(chunk.o_ref, chunk.r, unit, dtype))
    return RoundingNoise(rounding_noise.reach(largest.values(), n, dtype, reduction_length), unit, n, dtype)


def _worst_excess(cand, orig, ref, tol, noise, factor, spread=None) -> dict:
    """How far each finite element sits beyond the allowed |cand - orig| (tolerance + _reference_slack):
    how many exceed it, the worst (the first of the global maximum excess, like argmax on the whole
    output) with its values, and the largest |cand - orig|. (Elements that are not finite are 0 in
    both: never beyond the tolerance, whose atol is positive for every floating dtype.)"""
    worst = {"count": 0, "excess": None, "flat": None, "max_abs_err": None}
    for chunk in _finite_chunks(cand, orig, ref if noise is not None else None):
        c, o = chunk.c, chunk.o
        allowed = o.abs().mul_(tol.rtol)
        if noise is not None:
            allowed = _reference_allowance(chunk, noise, factor, allowed)
        if spread is not None:             # (factor x run-to-run reach, rms of the original)
            allowed.add_((o.abs() + spread[1]).mul_(spread[0]))
        allowed.add_(tol.atol)
        diff = (c - o).abs_()
        if chunk.compared:
            top = float(diff.max())
            worst["max_abs_err"] = top if worst["max_abs_err"] is None else max(worst["max_abs_err"], top)
        excess = diff.sub_(allowed)
        worst["count"] += int((excess > 0).sum())
        local = int(excess.argmax())
        value = float(excess[local])
        if worst["excess"] is None or value > worst["excess"]:
            worst.update(excess=value, flat=chunk.start + local, candidate=float(c[local]),
                         original=float(o[local]), allowed=float(allowed[local]))
    return worst


def _reference_allowance(chunk: _FiniteChunk, noise: RoundingNoise, factor, relative):
    """Per element, how far (beyond atol) a candidate may sit from the original when a float64 reference
    says how far the original itself is off: the original's own error at that element (the candidate
    may sit on the other side of the exact value), plus the larger of the dtype's rtol x |orig|
    (`relative`) and `factor` x the extreme that correct rounding errors reach on an output of this
    many elements (rounding_noise), in that element's unit |ref| + rms(ref), plus, for a bf16/fp16
    output, the candidate's own final rounding, which that model leaves out. The larger, not the sum:
    both say how far correct rounding goes, one by the dtype's rule of thumb, one measured on this
    output. Two correct fp32 algorithms that sum in a different order differ at that level, which can
    exceed the dtype's tolerance where the math cancels (a LayerNorm of values near -50 whose spread is
    small); a wrong result is far beyond it. The relative-error check against the reference still
    bounds the whole output. Where the reference is not finite it counts as 0 (no own error)."""
    magnitude = chunk.r.abs()
    rounding = (magnitude + noise.unit).mul_(factor * noise.reach)
    final = rounding_noise.final_rounding(noise.dtype)
    if final:
        rounding.add_(magnitude.mul_(final))
    return torch.maximum(relative, rounding).add_((chunk.o_ref - chunk.r).abs_())


def _precision_failure(i, rel_c, rel_o, against_ref, arg_name, evidence) -> Failure:
    what = "the float64 reference" if against_ref else "the original"
    return Failure("precision",
                   f"output {arg_name(i)} (float32) looks computed in lower precision: relative error "
                   f"{rel_c:.3g} against {what} (original {rel_o:.3g}), the signature of bf16/fp16/tf32 "
                   "arithmetic, which --precision strict does not allow", evidence)
