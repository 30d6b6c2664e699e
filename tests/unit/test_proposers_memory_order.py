"""memory-order: a split reduction over a channels-last tensor, written in logical order, reads memory in order.

The groups are Inductor's own output modules (torch 2.13, CPU tensors, under the Triton interpreter) for a
mean and a max over C, H and W of a channels-last [3, 16, 30, 30] tensor: a first kernel writes partial
results of 127-element chunks of the NCHW position (its last chunk masked), each load turning the position
into a channels-last address; the next kernels merge the partials. The candidate must give the group's
result as accurately as the original does against float64 (a max exactly), and the analysis must read the
same permutation from the H200 capture of a conv + group norm + mean, where it matters (16.8 % of the
kernel's floor).
"""
from __future__ import annotations

import ast
import dataclasses
import os

import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st
from row_loop_helpers import REPO, assert_as_accurate
from row_loop_helpers import fusion_group_target as group

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.proposers.candidate_source import LaunchConfig, candidate_source, grid_type_of
from kernelopt.proposers.memory_order import MemoryOrderProposer
from kernelopt.proposers.box_digits import Digit, NotABox, box_digits, fit_address, fit_text
from kernelopt.proposers.traversal import NO_DIGITS, NotPermuted, retraverse
from kernelopt.rewrite.evaluate import load_candidate

CHANNELS_LAST = REPO / "tests" / "fixtures" / "channels-last-cpu-2.13"
GENERAL = REPO / "tests" / "fixtures" / "cuda-2.11-general"
N, C, HW = 3, 16, 900           # the fixtures' [3, 16, 30, 30]


def group_args(target, seed: int) -> list:
    generator = torch.Generator().manual_seed(seed)
    args = []
    for arg in target.group_args:
        if not arg.is_tensor:
            args.append(arg.value)
        else:   # storage of the right size: the kernels address it as the strides say
            numel = 1 + sum((n - 1) * s for n, s in zip(arg.sizes, arg.strides))
            args.append(torch.randn(numel, generator=generator, dtype=torch.float64).float())
    return args


def run_original(target, args: list) -> None:
    for spec, positions in zip(target.launches, target.group_positions):
        kernel = next(k for k in target.kernels if k.name == spec.kernel)
        blocks = (("XBLOCK", 4),) + ((("R0_BLOCK", 64),) if "R0_BLOCK" in kernel.signature else ())
        source = candidate_source(kernel.source, kernel.name, [a.name for a in spec.args], kernel.signature,
                                  grid_type_of(kernel), LaunchConfig(blocks, 1, 1))
        load_candidate(source, "memory_order_original")(*[args[p] for p in positions])


def result_slot(target) -> int:
    last = target.launches[-1]
    return next(s for a, s in zip(last.args, target.group_positions[-1]) if a.is_tensor and a.written)


def channels_last(args: list) -> torch.Tensor:
    """The input's storage as [N, H*W, C] in float64 (channels last: the channel moves fastest)."""
    return args[0][:N * C * HW].double().reshape(N, HW, C)


@pytest.mark.parametrize("model, reference", [
    ("relu_mean", lambda a: channels_last(a).clamp(min=0).mean((1, 2))),
    ("amax_rows", lambda a: channels_last(a).amax((1, 2))),
    # per-channel weights: their loads read the channel of the logical position the memory position holds
    ("channel_affine_sum", lambda a: (channels_last(a) * a[1].double() + a[2].double()).sum((1, 2))),
    # the looped form (an r-loop over each chunk): the memory position is computed inside the loop
    ("channel_affine_sum_looped", lambda a: (channels_last(a) * a[1].double() + a[2].double()).sum((1, 2))),
], ids=["mean of relu", "amax", "per-channel affine, then sum", "the same, looped"])
def test_group_reads_in_memory_order_and_keeps_the_result(model, reference):
    target = group(CHANNELS_LAST / f"{model}.py")
    assert MemoryOrderProposer.declined(target) == ""
    candidates = list(MemoryOrderProposer().propose(target, []))
    assert len(candidates) == 3
    split = target.launches[0].kernel
    assert [c.strategy.split()[1] for c in candidates] == [split] * 3
    output = result_slot(target)
    for seed in (0, 1):
        args = group_args(target, seed)
        original = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        run_original(target, original)
        for candidate in candidates[:2]:
            mine = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
            mine[output].fill_(float("nan"))
            load_candidate(candidate.source, "memory_order_candidate")(*mine)
            want = reference(args)
            if model == "amax_rows":     # a max of the same elements: the same bits
                assert torch.equal(mine[output], original[output])
            assert_as_accurate(mine[output], original[output], want, f"{model} {candidate.strategy}")


def group_norm_chunk_sums(args: list, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """Group norm (4 groups of 4 channels, eps 1e-5) of the input, then summed over each half of the channels
    (8 of 16) and every pixel: what the group's last kernel writes, [3, 2], before the mean's last merge."""
    x = channels_last(args)
    groups = x.reshape(N, HW, 4, 4)
    mean = groups.mean((1, 3), keepdim=True)
    var = groups.var((1, 3), unbiased=False, keepdim=True)
    y = ((groups - mean) / torch.sqrt(var + 1e-5)).reshape(N, HW, C) * weight.double() + bias.double()
    return y.reshape(N, HW, 2, 8).sum((1, 3))


def test_a_group_that_merges_each_half_of_an_image_alone_permutes_within_the_halves():
    """Group norm then mean: detect-fusion's group (at most 4 launches) ends after the first merge, one result
    per image and half of its channels (6 for 3 images). The positions trade places only within each half
    (7200: channels 0-7 or 8-15 of every pixel, 32 contiguous bytes per pixel), so the 6 sums stay what they
    were, up to the order of their additions."""
    target = group(CHANNELS_LAST / "group_norm_mean.py")
    candidates = list(MemoryOrderProposer().propose(target, []))
    assert candidates, MemoryOrderProposer.declined(target)
    split = next(k for k in target.kernels if k.name.endswith("_2"))
    found = retraverse(split.source, split.name, 7200)
    assert found.unit == 7200 and found.digits == (Digit(1, 16, 900, 8), Digit(900, 1, 8, 1))
    output = result_slot(target)
    affine = target.launches[1]            # the pointwise kernel that applies the weight (in_ptr1) and bias (in_ptr3)
    names = [a.name for a in affine.args]
    weight, bias = (target.group_positions[1][names.index(p)] for p in ("in_ptr1", "in_ptr3"))
    for seed in (0, 1):
        args = group_args(target, seed)
        original = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        run_original(target, original)
        mine = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        mine[output].fill_(float("nan"))
        load_candidate(candidates[0].source, "memory_order_candidate")(*mine)
        want = group_norm_chunk_sums(args, args[weight][:C], args[bias][:C]).flatten()
        assert_as_accurate(mine[output][:N * 2], original[output][:N * 2], want, "group norm, then sums of half an image")


def test_parts_of_an_image_that_are_not_walked_alike_are_declined():
    """Had the group merged fifths of an image (2880 positions: 3.2 channels of every pixel), the parts would
    not be boxes walked alike: no candidate, and the remark says why."""
    target = group(CHANNELS_LAST / "group_norm_mean.py")
    output = result_slot(target)
    args = list(target.group_args)
    args[output] = dataclasses.replace(args[output], sizes=(3, 5), strides=(5, 1))
    target = dataclasses.replace(target, group_args=tuple(args))
    assert list(MemoryOrderProposer().propose(target, [])) == []
    assert "runs of 2880 positions are not walked alike" in MemoryOrderProposer.declined(target)


def test_a_partial_stored_where_its_x_names_say_keeps_its_place():
    """The split kernel's store spelled with the position's own x names (`x0 + 2*x1 + 114*x2`, the same place
    as `xindex`): each program still writes its partial where it did, so the transform applies and the
    group's mean stays as accurate."""
    target = group(CHANNELS_LAST / "relu_mean.py")
    split = target.kernels[0]
    assert "tl.store(out_ptr0 + (x4), tmp11, xmask)" in split.source
    edited = dataclasses.replace(split, source=split.source.replace(
        "tl.store(out_ptr0 + (x4), tmp11, xmask)", "tl.store(out_ptr0 + (x0 + 2*x1 + 114*x2), tmp11, xmask)"))
    target = dataclasses.replace(target, kernels=(edited,) + target.kernels[1:])
    candidates = list(MemoryOrderProposer().propose(target, []))
    assert candidates, MemoryOrderProposer.declined(target)
    output = result_slot(target)
    args = group_args(target, 3)
    original = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    run_original(target, original)
    mine = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    load_candidate(candidates[0].source, "memory_order_candidate")(*mine)
    assert_as_accurate(mine[output], original[output], channels_last(args).clamp(min=0).mean((1, 2)), "relu mean")


def test_a_store_that_moves_with_r_is_declined():
    kernel = group(CHANNELS_LAST / "relu_mean.py").kernels[0]
    source = kernel.source.replace("tl.store(out_ptr0 + (x4), tmp11, xmask)",
                                   "tl.store(out_ptr0 + (x4 + 0*r0_3), tmp11, xmask)")
    with pytest.raises(NotPermuted, match="store's address moves with the position"):
        retraverse(source, kernel.name)


def test_a_later_round_tries_the_configurations_next_to_the_fastest():
    """After the first round, the configurations one step (XBLOCK or warps, a factor of 2) from the fastest legal
    candidate, none tried before; with no legal one, nothing more."""
    import re

    from kernelopt.proposers.base import Attempt
    from kernelopt.proposers.retune import config_distance

    def config(strategy):
        values = dict(re.findall(r"(XBLOCK|num_warps)=(\d+)", strategy))
        return LaunchConfig((("XBLOCK", int(values["XBLOCK"])),), int(values["num_warps"]), 1)

    target = group(CHANNELS_LAST / "relu_mean.py")
    proposer = MemoryOrderProposer()
    first = list(proposer.propose(target, []))
    rejected = [Attempt(c, False, "mismatch") for c in first]
    assert list(proposer.propose(target, rejected)) == []
    history = [Attempt(c, True, "ACCEPT", 2.0 if n == 1 else 1.1) for n, c in enumerate(first)]
    later = list(proposer.propose(target, history))
    assert later and not {c.strategy for c in later} & {c.strategy for c in first}
    assert all(config_distance(config(c.strategy), config(first[1].strategy)) == 1 for c in later)


def edited_merge(target, old: str, new: str):
    """The group with its first merge kernel's source edited (`old` -> `new`)."""
    merge = target.kernels[1]
    assert old in merge.source
    return dataclasses.replace(target, kernels=(target.kernels[0], dataclasses.replace(
        merge, source=merge.source.replace(old, new))) + target.kernels[2:])


@pytest.mark.parametrize("new, why", [
    # odd chunks read from the next image: an image's partials merged with another's
    ("x0 + 2*r0_2 + 114*((x1 + r0_2 % 2) % 3)", "merges the first outer key's partials with others"),
    # the last chunk of each half image read in place of the first: the count is right, the partials are not
    ("x0 + 2*(r0_2 % 56) + 114*x1", "does not read each partial of in_ptr0 once"),
], ids=["mixes images", "drops a partial"])
def test_merges_that_mix_or_drop_partials_are_declined(new, why):
    """The buffer sizes alone would pass both (3 results for 3 images): following the first image's partials
    element by element through the merges shows what each result holds."""
    target = edited_merge(group(CHANNELS_LAST / "relu_mean.py"), "x0 + 2*r0_2 + 114*x1", new)
    assert list(MemoryOrderProposer().propose(target, [])) == []
    assert why in MemoryOrderProposer.declined(target)


def test_partials_read_after_the_group_are_declined():
    target = group(CHANNELS_LAST / "relu_mean.py")
    target = dataclasses.replace(target, scratch_args=())
    assert list(MemoryOrderProposer().propose(target, [])) == []
    assert "read after the group" in MemoryOrderProposer.declined(target)


def test_h200_conv_group_norm_mean_permutation_is_read_from_its_code():
    """The capture where it matters: positions x1, x0, r0_3 of the NCHW index over [64, 126, 126] per
    image; the channels-last address moves 64 per H*W step and 1 per channel."""
    target = group(GENERAL / "conv_group_norm_mean" / "conv_group_norm_mean.default.0.py")
    kernel = next(k for k in target.kernels if k.name.endswith("_3"))
    found = retraverse(kernel.source, kernel.name)
    assert found.positions == ("x1", "x0", "r0_3") and found.split
    assert found.count == 64 * 126 * 126 and found.outer_keys == 64
    assert found.digits == (Digit(1, 64, 126 * 126, 64), Digit(126 * 126, 1, 64, 1))
    function = next(n for n in ast.walk(ast.parse(found.source)) if isinstance(n, ast.FunctionDef))
    main_load = next(n for n in ast.walk(function) if isinstance(n, ast.Call) and ast.unparse(n.func) == "tl.load")
    assert ast.unparse(main_load.args[0]).endswith("+ _mo_t)")      # the image's base + the memory position
    loads = [ast.unparse(n.args[0]) for n in ast.walk(function)
             if isinstance(n, ast.Call) and ast.unparse(n.func) == "tl.load"]
    # the per-channel weights read the channel digit of the memory position, the group statistics its high
    # part (8 channels a group): no division by the logical shape is left, and no logical position either
    assert sum(a.endswith("+ _mo_t % 64)") for a in loads) == 3
    assert sum(a.endswith("+ _mo_t // 8 % 8)") for a in loads) == 2
    assert "_mo_p" not in found.source
    candidates = list(MemoryOrderProposer().propose(target, []))
    assert candidates and all(c.strategy.startswith(f"memory-order {kernel.name}") for c in candidates)


@pytest.mark.parametrize("fixture, why", [
    (GENERAL / "argmax_over_dim0" / "argmax_over_dim0.default.0.py", NO_DIGITS),
    (GENERAL / "cumsum_long_rows" / "cumsum_long_rows.default.0.py", NO_DIGITS),
    (GENERAL / "layer_norm_few_long_rows" / "layer_norm_few_long_rows.default.0.py", "already in memory order"),
    (GENERAL / "cross_entropy_spatial" / "cross_entropy_spatial.default.0.py", "indirect load"),
    # unsplit, Inductor reduces an image of a channels-last tensor in memory order itself
    (CHANNELS_LAST / "many_images_mean.py", NO_DIGITS),
], ids=["argmax over dim 0", "scan", "contiguous rows", "gathered target", "unsplit channels-last rows"])
def test_kernels_it_must_not_touch_say_why(fixture, why):
    module = lift_file(str(fixture))
    reasons = []
    for kernel in module.kernels:
        with pytest.raises(NotPermuted) as caught:
            retraverse(kernel.attrs["source"], kernel.symbol)
        reasons.append(str(caught.value))
    assert any(why in r for r in reasons), reasons


@pytest.mark.parametrize("helper", ["triton_helpers.max_with_index", "tl.associative_scan"])
def test_an_order_dependent_reduction_of_a_permuted_tensor_is_declined(helper):
    """The amax kernel's position split into channels-last digits, its max2 turned into an index-picking (or
    scanning) helper: whose result depends on the order the positions are visited, which this must keep."""
    kernel = next(k for k in group(CHANNELS_LAST / "amax_rows.py").kernels if k.name.endswith("_0"))
    with pytest.raises(NotPermuted, match="depends on the order"):
        retraverse(kernel.source.replace("triton_helpers.max2", helper), kernel.name)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(2, 6), min_size=2, max_size=4), st.data())
def test_digits_invert_any_permuted_box(sizes, data):
    """Any transpose of a box: the address of logical position t, in memory order, is undone digit by digit."""
    order = data.draw(st.permutations(range(len(sizes))))
    shape = np.arange(int(np.prod(sizes))).reshape(sizes)
    walked = np.ascontiguousarray(np.argsort(shape.transpose(order).ravel()))   # memory position of each t
    digits = box_digits(walked)
    t = np.arange(walked.size)
    inverse = sum(d.weight * ((t // d.rank) % d.radix) for d in digits)
    assert np.array_equal(walked[inverse], t)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(2, 5), min_size=2, max_size=3), st.data())
def test_digits_enumerate_any_box_with_gaps_in_memory_order(sizes, data):
    """A box cut out of a larger tensor (each dimension padded): its elements, enumerated by rank, come in
    increasing address order, each once."""
    order = data.draw(st.permutations(range(len(sizes))))
    padded = [n + data.draw(st.integers(0, 3)) for n in sizes]
    strides = np.cumprod([1] + padded[:-1])                       # the padded tensor's strides, first dim fastest
    moved = [sizes[i] for i in order]                            # logical order: the box's dims permuted
    t = np.arange(int(np.prod(sizes)))
    coords = np.unravel_index(t, moved[::-1])[::-1]               # first logical dim fastest
    walked = sum(c * strides[order[k]] for k, c in enumerate(coords))
    digits = box_digits(walked - walked[0])
    inverse = sum(d.weight * ((t // d.rank) % d.radix) for d in digits)
    assert sorted(inverse) == list(t) and (np.diff(walked[inverse]) > 0).all()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([2, 3, 4, 6, 8]), min_size=2, max_size=3), st.data())
def test_an_address_made_of_digit_parts_is_fitted_exactly(radices, data):
    """Any address that is a sum of whole digits of the memory position, or of their low and high parts at a
    constant the address names, is found as such terms and reproduces the address at every position."""
    ranks = np.cumprod([1] + radices[:-1])
    digits = tuple(Digit(0, 0, r, int(k)) for r, k in zip(radices, ranks))
    t = np.arange(int(np.prod(radices)))
    address, constants = np.zeros_like(t), set()
    for d in digits:
        digit = (t // d.rank) % d.radix
        coefficient = data.draw(st.integers(0, 5))
        cut = data.draw(st.sampled_from([c for c in (2, 3, 4) if d.radix % c == 0 and c < d.radix] or [0]))
        address += coefficient * (digit // cut if cut else digit)
        constants |= {cut} if cut else set()
    fit = fit_address(address, digits, constants)
    assert fit is not None
    text = fit_text(fit, "t")
    assert np.array_equal(eval(text, {"t": t}) if fit else 0 * t, address)


def test_a_scatter_is_not_a_box():
    walked = np.array([0, 2, 1, 3, 5, 4])
    with pytest.raises(NotABox):
        box_digits(walked)


# ---------------------------------------------------------------------------------------------------
# Through the pipeline: proposed by agentic-rewrite for the group, re-proven by check-legality, emitted, run

@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1", reason="runs kernels in the interpreter")
def test_the_pipeline_emits_the_memory_order_group_and_it_runs(tmp_path, monkeypatch):
    """torch 2.13's mean of a ReLU over C, H and W of a channels-last [3, 16, 30, 30] tensor: the group's
    candidate is accepted by the gate (on the module's real launches), re-proven, emitted in place of the
    three launches, and the emitted module's mean is as accurate as Inductor's against float64."""
    import io

    from kernelopt.passes.pass_manager import PassManager
    from kernelopt.passes.pipeline import parse_pipeline
    from kernelopt.runtime import run_module

    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))
    path = CHANNELS_LAST / "relu_mean.py"
    x = torch.randn(N, C, 30, 30, generator=torch.Generator().manual_seed(5)).to(memory_format=torch.channels_last)
    module = lift_file(str(path))
    ctx = PassContext(options={"device": "cpu", "inputs": [x], "progress_stream": io.StringIO()})
    pipeline = ("classify-dispatch,annotate-profile,detect-fusion,agentic-rewrite{cost-model=static "
                "max-candidates=2 proposers=memory-order},check-legality,emit-python")
    PassManager(parse_pipeline(pipeline)).run(module, ctx)
    rewrites = [k.attrs["rewrite"] for k in module.kernels if "rewrite" in k.attrs]
    assert [(r["status"], r["proposer"]) for r in rewrites] == [("accepted", "memory-order")], rewrites
    assert rewrites[0]["recheck"]["verdict"] == "ACCEPT"
    emitted = tmp_path / "relu_mean_opt.py"
    emitted.write_text(ctx.artifacts["python"])
    assert "_mo_t" in emitted.read_text()
    mean = run_module(str(emitted), [x.clone()], "cpu")["outputs"][0]
    inductor = run_module(str(path), [x.clone()], "cpu")["outputs"][0]
    assert_as_accurate(mean, inductor, x.double().clamp(min=0).mean((1, 2, 3)), "relu mean, emitted")


@pytest.mark.parametrize("results, unit", [
    (64, 1016064),          # one result per image: the whole image
    (1, 1016064),           # every image merged into one: still whole images
    (576, 1016064 // 9),    # nine consecutive parts per image (a group cut after the first merge)
    (100, None),            # not whole images, not equal parts of one: declined
], ids=["per image", "all images", "ninths of an image", "neither"])
def test_the_positions_one_result_merges(results, unit):
    from kernelopt.proposers.memory_order import MemoryOrderDeclined, _merge_unit
    from kernelopt.proposers.traversal import Retraversal

    found = Retraversal("", ("x1", "x0", "r0_3"), 1016064, True, (), 64, 1016064)
    if unit is None:
        with pytest.raises(MemoryOrderDeclined, match="100 results for 64 outer keys"):
            _merge_unit(found, results)
    else:
        assert _merge_unit(found, results) == unit


# KERNELOPT_FUZZ=nightly: many more mangled kernels (front_end_fuzzing.py's profiles)
@settings(max_examples=1000 if os.environ.get("KERNELOPT_FUZZ") == "nightly" else 40, deadline=None)
@given(st.data())
def test_a_mangled_kernel_is_declined_or_rewritten_never_a_crash(data):
    """Kernels the analysis did not foresee: the split kernel with a line dropped or an integer changed. The
    proposer either offers candidates or says why not; it never raises into the search."""
    import re

    target = group(CHANNELS_LAST / "channel_affine_sum.py")
    split = target.kernels[0]
    body = split.source.split("@triton.jit", 1)
    lines = body[1].split("\n")
    if data.draw(st.booleans()):
        lines.pop(data.draw(st.integers(2, len(lines) - 1)))
    else:
        numbers = [(i, m) for i, line in enumerate(lines) for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", line)]
        i, match = data.draw(st.sampled_from(numbers))
        value = str(data.draw(st.integers(0, 20000)))
        lines[i] = lines[i][:match.start()] + value + lines[i][match.end():]
    mangled = dataclasses.replace(split, source=body[0] + "@triton.jit" + "\n".join(lines))
    target = dataclasses.replace(target, kernels=(mangled,) + target.kernels[1:])
    why = MemoryOrderProposer.declined(target)
    candidates = list(MemoryOrderProposer().propose(target, []))
    assert isinstance(why, str)
    assert all(c.proposer == "memory-order" and "def run(" in c.source for c in candidates)
