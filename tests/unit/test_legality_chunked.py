"""The legality gate's comparisons run in bounded chunks: the same verdicts, messages and evidence as the
straightforward whole-tensor computation of the same rules (kept below as the oracle), for any shape,
strides, chunk size, NaN/Inf pattern and poisoned output; and no chunk is larger than the chunk size."""
import hashlib
import math

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernelopt.legality import cases as C
from kernelopt.legality import compare, rounding_noise

NAME = (lambda i: f"arg {i}")  # noqa: E731


# ----------------------------------------------------------------------------- the oracle (unchunked)

def _old_rel_error(x, ref, finite):
    diff = (x.double() - ref.double())[finite]
    scale = ref.double()[finite].norm()
    if diff.numel() == 0:
        return 0.0
    return float(diff.norm() / scale) if scale > 0 else float(diff.norm())


def _whole_noise(o, r, keep, dtype):
    """rounding_noise's reach and unit from the whole output at once: every error sorted."""
    n = int(keep.sum())
    unit = rounding_noise.unit_scale(float((r[keep] ** 2).sum()), n)
    error = (o - r).abs()
    if dtype in (torch.bfloat16, torch.float16):      # only what exceeds the output's own rounding
        error = (error - r.abs() * (2.0 ** -8 if dtype == torch.bfloat16 else 2.0 ** -11)).clamp(min=0.0)
    errors = (error / (r.abs() + unit))[keep]
    return rounding_noise.reach(torch.sort(errors, descending=True).values, n, dtype), unit


def _old_values(i, cand, orig, ref, precision, factor):
    """compare.values as one whole-tensor computation: (check, flat index, count, rel_c, evidence)."""
    from kernelopt.legality.tolerance import looks_like_lowered_precision, tolerance_for
    tol = tolerance_for(orig.dtype, precision)
    c, o = cand.double(), orig.double()
    finite = torch.isfinite(c) & torch.isfinite(o)
    if not orig.dtype.is_floating_point:
        wrong = c != o
        return ("mismatch", compare._first(wrong), int(wrong.sum()), 0.0, {}) if wrong.any() else (None,) * 3 + (0.0, {})
    r = ref.double() if ref is not None else None
    allowed = tol.rtol * o.abs()
    if r is not None:
        both = finite & torch.isfinite(r)
        reach, unit = _whole_noise(o, r, both, orig.dtype)
        own = torch.where(both, (o - r).abs(), 0.0)
        magnitude = torch.where(both, r.abs(), 0.0)
        rounding = (magnitude + unit) * (factor * reach) + magnitude * rounding_noise.final_rounding(orig.dtype)
        allowed = torch.maximum(allowed, rounding) + own
    allowed = allowed + tol.atol
    excess = torch.where(finite, (c - o).abs() - allowed, torch.zeros_like(c))
    rel_to_orig = _old_rel_error(c, o, finite)
    rel_c = _old_rel_error(c, r, both) if r is not None else rel_to_orig
    rel_o = _old_rel_error(o, r, both) if r is not None else 0.0
    lowered = orig.dtype == torch.float32 and precision == "strict" and looks_like_lowered_precision(rel_c, rel_o)
    if (excess > 0).any():
        flat = int(excess.reshape(-1).argmax())
        evidence = {"out_of_tolerance": int((excess > 0).sum()), "max_abs_err": float((c - o).abs()[finite].max()),
                    "candidate": float(c.reshape(-1)[flat]), "original": float(o.reshape(-1)[flat]),
                    "allowed": float(allowed.reshape(-1)[flat])}
        widespread = evidence["out_of_tolerance"] >= compare._WIDESPREAD * int(finite.sum())
        return ("precision" if lowered and widespread else "mismatch"), flat, evidence["out_of_tolerance"], rel_c, evidence
    if r is not None and rel_c > max(factor * rel_o, tol.accuracy_floor):
        squares = torch.where(both, c - r, 0.0) ** 2
        spread = bool(squares.max() < 0.5 * squares.sum()) if squares.numel() else False
        return ("precision" if lowered and spread else "less-accurate"), None, None, rel_c, {"original_rel_err": rel_o}
    return None, None, None, rel_c, {}


def _old_scan(mask):
    return (int(mask.sum()), compare._first(mask)) if mask.any() else (0, None)


# ----------------------------------------------------------------------------- generated cases

DTYPES = (torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32)
# (TAIL_RANK, TAIL_SPAN, _SAMPLE_STRIDE): the real ones, and small ones that reach the rank cap and the
# sampled top-k prefilter on small outputs
NOISE_SETTINGS = ((100, 10, 64), (2, 10, 64), (1, 3, 2), (3, 5, 1))


@st.composite
def _case(draw):
    # small shapes, and outputs of hundreds of elements where the noise level's top-k branch and the
    # subsample apply (with the small NOISE_SETTINGS)
    shape = tuple(draw(st.one_of(st.lists(st.integers(0, 9), min_size=0, max_size=3),
                                 st.tuples(st.integers(10, 30), st.integers(10, 30)),
                                 st.tuples(st.integers(200, 700)))))
    dims = len(shape)
    view = draw(st.sampled_from(["contiguous", "transposed", "strided"])) if dims else "contiguous"
    return {"shape": shape, "view": view, "dtype": draw(st.sampled_from(DTYPES)),
            "chunk": draw(st.sampled_from([1, 2, 3, 7, 16, 50, 1 << 24])),
            "seed": draw(st.integers(0, 2 ** 31 - 1)), "noise": draw(st.sampled_from(NOISE_SETTINGS)),
            "defect": draw(st.sampled_from(["none", "noise", "wrong", "nan", "inf", "poison", "far"])),
            "with_ref": draw(st.booleans()), "factor": draw(st.sampled_from([2.0, 0.5]))}


def _layout_view(data: torch.Tensor, view: str) -> torch.Tensor:
    """The same logical values as `data`, laid out as a contiguous, transposed or strided view."""
    if view == "transposed":
        return data.permute(*reversed(range(data.dim()))).contiguous().permute(*reversed(range(data.dim())))
    if view == "strided":
        wide = torch.empty(data.shape[:-1] + (2 * data.shape[-1] + 1,), dtype=data.dtype)
        wide.view(torch.uint8).fill_(0x5A)
        strided = wide[..., 1::2]
        strided.copy_(data)
        return strided
    return data.clone()


def _tensors(case):
    gen = torch.Generator().manual_seed(case["seed"])
    shape, dtype = case["shape"], case["dtype"]
    ref = torch.randn(shape, dtype=torch.float64, generator=gen) * 3
    noise = lambda scale: scale * torch.randn(shape, dtype=torch.float64, generator=gen)  # noqa: E731
    if dtype.is_floating_point:
        orig = (ref + noise(1e-3)).to(dtype)
        cand = (ref + noise(1e-3 if case["defect"] == "noise" else 0.0)).to(dtype)
    else:
        orig = (ref * 10).round().to(dtype)
        cand = orig.clone()
    flat = cand.reshape(-1)
    n = flat.numel()
    picks = torch.randint(0, max(n, 1), (max(1, n // 7),), generator=gen) if n else torch.zeros(0, dtype=torch.long)
    defect = case["defect"]
    if n and defect == "wrong":
        flat[picks] = (flat[picks].double() + 5).to(dtype)
    elif n and defect == "far":
        flat[picks] = (flat[picks].double() * 1.01 + 0.02).to(dtype)
    elif n and defect in ("nan", "inf") and dtype.is_floating_point:
        value = float("nan") if defect == "nan" else float("-inf")
        flat[picks] = value
        orig.reshape(-1)[picks[: len(picks) // 2]] = value     # half shared with the original
        ref.reshape(-1)[picks[-1:]] = float("inf")
    elif n and defect == "poison":
        poison = C.poison_(torch.empty_like(flat))
        C.bits(flat)[picks] = C.bits(poison)[picks]
    cand = flat.reshape(shape)
    view = case["view"]
    return (_layout_view(cand, view), _layout_view(orig, view),
            _layout_view(ref, view) if case["with_ref"] and dtype.is_floating_point else None)


def _close(a, b):
    return a == b or (math.isnan(a) and math.isnan(b)) or (math.isfinite(a) and math.isfinite(b) and abs(a - b) <= 1e-12 * max(abs(a), abs(b)))


@pytest.fixture
def tiny_chunks(monkeypatch):
    def set_case(case):
        monkeypatch.setattr(compare, "CHUNK_ELEMENTS", case["chunk"])
        monkeypatch.setattr(rounding_noise, "TAIL_RANK", case["noise"][0])
        monkeypatch.setattr(rounding_noise, "TAIL_SPAN", case["noise"][1])
        monkeypatch.setattr(rounding_noise, "_SAMPLE_STRIDE", case["noise"][2])
    return set_case


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_case())
def test_chunked_values_match_the_whole_tensor_computation(tiny_chunks, case):
    tiny_chunks(case)
    cand, orig, ref = _tensors(case)
    check, flat, count, rel_c, evidence = _old_values(0, cand, orig, ref, "strict", case["factor"])
    failure, rel = compare.values(0, cand, orig, ref, "strict", case["factor"], NAME)
    if ref is not None:       # the rounding noise itself: the same order statistics, the same reach
        c, o, r = cand.double(), orig.double(), ref.double()
        keep = torch.isfinite(c) & torch.isfinite(o) & torch.isfinite(r)
        reach, unit = _whole_noise(o, r, keep, orig.dtype)
        noise = compare._rounding_noise(cand, orig, ref, compare._accuracy_sums(cand, orig, ref), orig.dtype, 1)
        assert noise.count == int(keep.sum())
        assert _close(noise.unit, unit) and _close(noise.reach, reach), (noise, reach, unit)
    assert (failure.check if failure else None) == check, (failure, check)
    assert _close(rel, rel_c), (rel, rel_c)
    if failure is None:
        return
    if flat is not None:
        assert failure.evidence["index"] == list(compare._index(flat, cand.shape))
    if failure.check in ("mismatch", "precision") and count is not None and cand.dtype.is_floating_point:
        got = failure.evidence
        assert got["out_of_tolerance"] == count
        for key in ("max_abs_err", "candidate", "original", "allowed"):
            assert _close(got[key], evidence[key]), (key, got[key], evidence[key])
    if "original_rel_err" in evidence:
        assert _close(failure.evidence["original_rel_err"], evidence["original_rel_err"])
    if count is not None and not cand.dtype.is_floating_point:
        assert f"at {count} element(s)" in failure.message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=_case())
def test_chunked_pattern_checks_match_the_whole_tensor_computation(tiny_chunks, case):
    tiny_chunks(case)
    cand, orig, _ = _tensors(case)
    # unwritten: poison left in the candidate where the original has none
    expect = _old_scan(C.is_poison(cand) & ~C.is_poison(orig)) if C.poisonable(cand.dtype) else (0, None)
    failure = compare.unwritten(0, cand, orig, NAME)
    _assert_scan(failure, expect, cand.shape, "unwritten")
    if cand.dtype.is_floating_point:
        c, o = cand.double(), orig.double()
        differ = (torch.isnan(c) != torch.isnan(o)) | (torch.isinf(c) != torch.isinf(o)) | \
                 (torch.isinf(o) & torch.isinf(c) & (torch.sign(c) != torch.sign(o)))
        failure = compare.nonfinite_pattern(0, cand, orig, NAME)
        _assert_scan(failure, _old_scan(differ), cand.shape, "positions")
        if failure:
            flat = compare._first(differ)
            assert f"candidate {c.reshape(-1)[flat].item():.6g}, original {o.reshape(-1)[flat].item():.6g}" \
                in failure.message
        finite = torch.isfinite(c) & torch.isfinite(o)
        assert _close(compare.rel_error(cand, orig), _old_rel_error(cand, orig, finite))
    # inputs_unchanged and the checksum (same digest as of the whole tensor's bytes)
    changed = C.bits(orig) != C.bits(cand)
    failure = compare.inputs_unchanged(None, {0: orig}, {0: cand}, {0}, NAME)
    _assert_scan(failure, _old_scan(changed), cand.shape, "changed")
    assert compare.same_bits(orig, cand) == (not changed.any())
    whole = hashlib.sha256(C.bits(cand.contiguous()).numpy().tobytes()).hexdigest()[:12]
    assert compare.checksum(cand) == whole


def _assert_scan(failure, expect, shape, count_key):
    count, first = expect
    assert (failure is not None) == (count > 0), (failure, expect)
    if failure:
        assert failure.evidence[count_key] == count
        assert failure.evidence["index"] == list(compare._index(first, shape))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sizes=st.lists(st.integers(1, 40), min_size=1, max_size=3), chunk=st.sampled_from([1, 3, 8, 64]),
       seed=st.integers(0, 1000), writes=st.integers(0, 6))
def test_chunked_guard_bands_match(monkeypatch, sizes, chunk, seed, writes):
    monkeypatch.setattr(compare, "CHUNK_ELEMENTS", chunk)
    gen = torch.Generator().manual_seed(seed)
    args = tuple(torch.randn(s) for s in sizes)
    layout = C.make_layout(C.LaunchInputs(args))
    before = C.build_bases(layout, dict(enumerate(args)), "cpu")
    after = [b.clone() for b in before]
    for _ in range(writes):
        b = int(torch.randint(0, len(after), (1,), generator=gen))
        after[b][int(torch.randint(0, after[b].numel(), (1,), generator=gen))] = 7.0
    failure = compare.guard_bands(layout, before, after, NAME)
    expected = None
    for b, (pre, post) in enumerate(zip(before, after)):
        changed = (C.bits(pre) != C.bits(post)) & layout.guard(b, "cpu")
        if changed.any():
            expected = (int(changed.sum()), compare._first(changed))
            break
    assert (failure is None) == (expected is None)
    if failure:
        assert (failure.evidence["changed"], failure.evidence["buffer_element"]) == expected


def test_chunks_never_exceed_the_chunk_size(monkeypatch):
    """Peak temporaries are O(chunk): every piece a comparison touches, of every check, is at most the
    chunk size, for contiguous and non-contiguous 2^22-element outputs."""
    largest = []
    real_blocks = compare.blocks

    def counting_blocks(tensors, device=None):
        for start, pieces in real_blocks(tensors, device):
            largest.append(max(p.numel() for p in pieces))
            yield start, pieces
    monkeypatch.setattr(compare, "blocks", counting_blocks)
    monkeypatch.setattr(compare, "CHUNK_ELEMENTS", 1 << 16)
    # hundreds of small ops: on a shared, loaded CPU each one's OpenMP barrier waits for a descheduled
    # thread (60 ms instead of 1 ms per op with 2 threads here)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        _compare_large(largest)
    finally:
        torch.set_num_threads(threads)


def _compare_large(largest):
    n = 1 << 22
    gen = torch.Generator().manual_seed(3)
    ref = torch.randn(n, dtype=torch.float64, generator=gen)
    orig = (ref + 1e-6 * torch.randn(n, dtype=torch.float64, generator=gen)).float()
    wrong = orig + 1e-4
    square = lambda t: t.reshape(2048, 2048).t()  # noqa: E731 - a non-contiguous view of each
    for cand, o, r in ((wrong, orig, ref), (square(wrong), square(orig), square(ref))):
        failure, _ = compare.values(0, cand, o, r, "strict", 2.0, NAME)
        assert failure is not None and failure.check in ("mismatch", "precision")
        assert compare.unwritten(0, cand, o, NAME) is None
        assert compare.nonfinite_pattern(0, cand, o, NAME) is None
        assert compare.inputs_unchanged(None, {0: o}, {0: cand}, {0}, NAME).check == "input-mutated"
    assert len(largest) >= 6 * (n >> 16)
    assert max(largest) <= 1 << 16


def test_host_kept_tensors_are_compared_on_the_gates_accelerator():
    """A GPU gate keeps a multi-GB case's snapshots and candidate results on the host; their checks must
    still run on the GPU (the host's cores took seconds per GiB). compute_on names that device; outside
    it, or for a CPU gate, host tensors compare on the host. (The meta device stands in for a GPU here.)"""
    from kernelopt.legality import compare

    host = [torch.zeros(4), torch.ones(4)]
    assert compare.compute_device(host) == torch.device("cpu")
    with compare.compute_on(torch.device("meta")):
        assert compare.compute_device(host) == torch.device("meta")
        assert [p.device.type for _, pieces in compare.blocks(host) for p in pieces] == ["meta", "meta"]
        with compare.compute_on(torch.device("cpu")):
            assert compare.compute_device(host) == torch.device("cpu")
    assert compare.compute_device(host) == torch.device("cpu")
