"""store-remap: a kernel whose result the next launch only re-indexes stores it there, and the copy goes.

The groups are Inductor's own H200 output modules for the general problems (a reverse cumulative sum: a
split scan of the flipped input, then a flip copy; an exclusive one: a split scan, then a shift-by-one
copy with a zero in front), lifted, grouped by detect-fusion and shrunk so the Triton interpreter runs
them: rows of 96 = 3 scan chunks of 32 (the decoupled look-back really chains carries), 3 rows. Each
candidate must write exactly what the two original launches write into the output, and be as close as
they are to a float64 torch reference. `read_copy` is checked on the real copy kernels and on copies
written in Inductor's form for every pad, flip and slice of a 2-D output (Hypothesis).
"""
from __future__ import annotations

import ast
import dataclasses
import math

import pytest
import torch
from hypothesis import given, settings, strategies as st
from row_loop_helpers import REPO, assert_as_accurate

from kernelopt.inductor_source import shrink_sizes
from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.base import LaunchSpec
from kernelopt.proposers.candidate_source import LaunchConfig, candidate_source, grid_type_of
from kernelopt.proposers.copy_map import NotACopy, contiguous_strides, read_copy
from kernelopt.proposers.store_remap import StoreRemapProposer
from kernelopt.rewrite.evaluate import load_candidate
from kernelopt.rewrite.targets import group_target

GENERAL = REPO / "tests" / "fixtures" / "cuda-2.11-general"
ROWS, LENGTH, CHUNK = 3, 96, 32


def lifted_group(problem: str):
    """Detect-fusion group 0 of the problem's H200 module, as captured."""
    module = lift_file(str(GENERAL / problem / f"{problem}.default.0.py"))
    ctx = PassContext(current_pass="detect-fusion")
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    target, why = group_target(module, 0)
    assert target is not None, why
    return target


def group(problem: str, sizes: dict[int, int]):
    """Detect-fusion group 0 of the problem's H200 module, every hard-coded size in `sizes` shrunk, the
    producer recorded at R0_BLOCK=CHUNK (as a capture records the autotuner's choice)."""
    target = lifted_group(problem)
    kernels = tuple(dataclasses.replace(k, source=shrink_sizes(k.source, sizes)) for k in target.kernels)

    def shrunk(arg):
        if arg.is_tensor:
            shape = tuple(sizes.get(s, s) for s in arg.sizes)
            return dataclasses.replace(arg, sizes=shape, strides=contiguous_strides(shape))
        return dataclasses.replace(arg, value=sizes.get(arg.value, arg.value))

    launches = tuple(LaunchSpec(l.kernel, tuple(shrunk(a) for a in l.args), dict(l.config)) for l in target.launches)
    launches = (dataclasses.replace(launches[0], config={"R0_BLOCK": CHUNK, "num_warps": 1, "num_stages": 1}),
                launches[1])
    return dataclasses.replace(target, kernels=kernels, launches=launches,
                               group_args=tuple(shrunk(a) for a in target.group_args))


def make_group_args(target, seed: int) -> list:
    generator = torch.Generator().manual_seed(seed)
    args = []
    for arg in target.group_args:
        if not arg.is_tensor:
            args.append(arg.value)
        elif arg.dtype == "uint8":                  # the scan's workspace: zeroed before the launch
            args.append(torch.zeros(arg.sizes, dtype=torch.uint8))
        else:
            args.append(torch.randn(arg.sizes, generator=generator, dtype=torch.float64).to(getattr(torch, arg.dtype)))
    return args


def run_original(target, args: list) -> None:
    """The two launches, one after the other, each the kernel's own code."""
    for spec, positions in zip(target.launches, target.group_positions):
        kernel = next(k for k in target.kernels if k.name == spec.kernel)
        config = (LaunchConfig((("R0_BLOCK", CHUNK),), 1, 1) if "R0_BLOCK" in kernel.signature
                  else LaunchConfig((("XBLOCK", 32),), 1, 1))
        source = candidate_source(kernel.source, kernel.name, [a.name for a in spec.args], kernel.signature,
                                  grid_type_of(kernel), config)
        load_candidate(source, "store_remap_original")(*[args[p] for p in positions])


REVERSE = ("reverse_cumsum", {131072: LENGTH, 131071: LENGTH - 1, 16777216: ROWS * LENGTH, 128: ROWS},
           lambda x: torch.cumsum(x.double().flip(1), 1).flip(1))
EXCLUSIVE = ("exclusive_cumsum", {262144: LENGTH, 33554432: ROWS * LENGTH, 128: ROWS},
             lambda x: torch.nn.functional.pad(torch.cumsum(x.double(), 1)[:, :-1], (1, 0)))


@pytest.mark.parametrize("case", [REVERSE, EXCLUSIVE], ids=["reverse cumsum (flip)", "exclusive cumsum (shift + pad)"])
def test_remapped_scan_writes_what_scan_and_copy_wrote(case):
    problem, sizes, reference = case
    target = group(problem, sizes)
    assert StoreRemapProposer.declined(target) == ""
    candidates = list(StoreRemapProposer().propose(target, []))
    assert [c.strategy for c in candidates] == [f"store-remap {target.launches[0].kernel} R0_BLOCK={CHUNK} "
                                                "num_warps=1 num_stages=1"]
    output = target.group_positions[1][1]
    for seed in (0, 1):
        args = make_group_args(target, seed)
        original = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        run_original(target, original)
        mine = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
        mine[output].fill_(float("nan"))          # the candidate must write every element itself
        load_candidate(candidates[0].source, "store_remap_candidate")(*mine)
        assert torch.equal(mine[output], original[output])        # the same scan: the same bits
        assert_as_accurate(mine[output], original[output], reference(args[0]), problem)


def test_escaping_buffer_is_declined():
    """The scan's result read after the pair (not a scratch slot) must still be written: no candidate."""
    target = dataclasses.replace(group(*REVERSE[:2]), scratch_args=())
    assert list(StoreRemapProposer().propose(target, [])) == []
    assert "read after the group" in StoreRemapProposer.declined(target)


def test_group_target_marks_dead_intermediates_as_scratch():
    """buf0 (the scan's result) and the workspace are allocated by the module and only freed after the
    pair; the output is returned and the input is the caller's."""
    target = group(*REVERSE[:2])
    names = [(a.name, i in target.scratch_args) for i, a in enumerate(target.group_args) if a.is_tensor]
    assert names == [("in_ptr0", False), ("out_ptr0", True), ("ws_ptr", True), ("out_ptr0", False)]


# ---------------------------------------------------------------------------------- read_copy

def test_read_copy_of_real_flip_and_pad_kernels():
    for problem, kernel, sizes in (("reverse_cumsum", "triton_poi_fused_flip_1", (128, 131072)),
                                   ("exclusive_cumsum", "triton_poi_fused_constant_pad_nd_slice_1", (128, 262144))):
        module = lift_file(str(GENERAL / problem / f"{problem}.default.0.py"))
        copy = read_copy(module.kernel(kernel).attrs["source"], kernel, sizes)
        if problem == "reverse_cumsum":
            assert (copy.lo, copy.hi, copy.base, copy.coeff, copy.other) == ((0, 0), sizes, 131071, (131072, -1), None)
        else:
            assert (copy.lo, copy.hi, copy.base, copy.coeff, copy.other) == ((0, 1), sizes, 0, (262144, 1), 0.0)


def copy_kernel(rows: int, cols: int, address: str, mask: str | None) -> str:
    """A pointwise copy written as Inductor writes one (index digits, a masked load, a store at xindex)."""
    lines = ["@triton.jit", "def copy(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):",
             f"    xnumel = {rows * cols}", "    xoffset = tl.program_id(0) * XBLOCK",
             "    xindex = xoffset + tl.arange(0, XBLOCK)[:]", "    xmask = xindex < xnumel",
             f"    x0 = (xindex % {cols})", f"    x1 = xindex // {cols}", "    x2 = xindex"]
    if mask:
        lines += [f"    tmp0 = {mask}", f"    tmp1 = tl.load(in_ptr0 + ({address}), tmp0 & xmask, other=-1.5)"]
    else:
        lines += [f"    tmp1 = tl.load(in_ptr0 + ({address}), xmask)"]
    lines += ["    tl.store(out_ptr0 + (x2), tmp1, xmask)"]
    return "\n".join(lines) + "\n"


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(1, 9), cols=st.integers(2, 40), flip_rows=st.booleans(), flip_cols=st.booleans(),
       before=st.integers(0, 3), after=st.integers(0, 3))
def test_read_copy_finds_pads_and_flips(rows, cols, flip_rows, flip_cols, before, after):
    """A copy of a [rows, cols - before - after] buffer into [rows, cols], flipped along either dimension
    and padded by `before`/`after` columns, is read as exactly that box and affine map."""
    inner = cols - before - after
    if inner < 1:
        return
    row = f"{rows - 1} - x1" if flip_rows else "x1"
    col = f"{inner - 1 + before} - x0" if flip_cols else f"x0 - {before}"
    address = f"{inner}*({row}) + ({col})"
    mask = f"(x0 >= {before}) & (x0 < {cols - after})" if before or after else None
    copy = read_copy(copy_kernel(rows, cols, address, mask), "copy", (rows, cols))
    assert copy.lo == (0, before) and copy.hi == (rows, cols - after)
    assert copy.other == (-1.5 if before or after else None)
    row_step = (-inner if flip_rows else inner) if rows > 1 else 0
    col_step = (-1 if flip_cols else 1) if inner > 1 else 0
    assert copy.coeff == (row_step, col_step)
    base_row = rows - 1 if flip_rows else 0
    base_col = inner - 1 if flip_cols else 0
    assert copy.base == inner * base_row + base_col


@pytest.mark.parametrize("address, mask, why", [
    ("x0", None, "not affine"),                                      # every row reads row 0: a broadcast
    ("x0 + 7*x1", "x0 + x1 < 9", "not a box"),                      # a triangular mask
    ("(x0 * x0) + 7*x1", None, "not affine"),
])
def test_read_copy_refuses_what_is_not_a_box_copy(address, mask, why):
    source = copy_kernel(5, 7, address, mask)
    if address == "x0":
        copy = read_copy(source, "copy", (5, 7))             # readable, but the row step is 0:
        assert copy.coeff[0] == 0                            # store-remap declines it as a broadcast
        return
    with pytest.raises(NotACopy, match=why):
        read_copy(source, "copy", (5, 7))


def test_read_copy_keeps_the_math_on_the_value_and_refuses_position_dependent_math():
    scaled = copy_kernel(5, 7, "x2", None).replace("tl.store(out_ptr0 + (x2), tmp1, xmask)",
                                                   "tmp2 = tmp1 * 2.0\n    tl.store(out_ptr0 + (x2), tmp2, xmask)")
    copy = read_copy(scaled, "copy", (5, 7))
    assert copy.loaded == "tmp1" and [ast.unparse(s) for s in copy.epilogue] == ["tmp2 = tmp1 * 2.0"]
    by_column = scaled.replace("tmp2 = tmp1 * 2.0", "tmp2 = tmp1 * x0.to(tl.float32)")
    with pytest.raises(NotACopy, match="depends on `xindex`"):
        read_copy(by_column, "copy", (5, 7))


# ---------------------------------------------------------------------------------- end to end

REVERSE_MODEL = '''"""Scan: reverse cumulative sum of [5, 90] (odd rows, a row length that is no power of two)."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        return torch.cumsum(x.flip(1), dim=1).flip(1)


def get_inputs():
    return [torch.randn(5, 90)]


def get_init_inputs():
    return []
'''


def test_optimize_replaces_scan_and_flip_with_one_remapped_scan(tmp_path):
    """`kernelopt optimize` on the CPU (static cost model): the gate accepts the group rewrite although
    the scan's intermediate is left unwritten, and the written module computes the reverse cumsum."""
    import subprocess
    import sys

    import kernelopt

    (tmp_path / "reverse.py").write_text(REVERSE_MODEL)
    proc = subprocess.run([sys.executable, "-m", "kernelopt.cli", "optimize", "reverse.py", "-o", "out.py",
                           "--device", "cpu", "--cost-model", "static", "--proposers", "store-remap",
                           "--base", "default", "--report", "report"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "store-remap" in proc.stderr and "1 rewrite(s) accepted" in proc.stderr, proc.stderr
    source = (tmp_path / "out.py").read_text()
    assert "store-remap: this value goes where" in source
    # the candidate came from Inductor's kernel source, but runs on the module's own helpers
    assert not [line for line in source.splitlines() if line.startswith(("from torch._inductor", "import torch._inductor"))]
    call = source.split("\ndef call(args):")[1].split("\ndef ")[0]
    launches = [line.strip() for line in call.splitlines() if "_run(" in line or ".run(" in line or "launch_" in line]
    assert len(launches) == 1 and "group0_run(" in launches[0], call     # one launch: the copy is gone
    namespace: dict = {}
    exec(compile(REVERSE_MODEL, "reverse.py", "exec"), namespace)
    model = namespace["Model"]()
    fast = kernelopt.load(str(tmp_path / "out.py"), model)
    x = torch.randn(5, 90)                       # fresh inputs, not the captured ones
    torch.testing.assert_close(fast(x), model(x), rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------------------------- any box copy, any layout

PRODUCER = """@triton.jit
def producer(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = {numel}
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tmp0 * 3.0 + 1.0
    tl.store(out_ptr0 + (x0), tmp1, xmask)
"""
SIGNATURE = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32", "XBLOCK": "constexpr"}


def _pointwise_pair(buffer_sizes, out_sizes, address: str, mask: str | None):
    """A producer (y = 3x + 1 over the buffer) and a copy of y into the output, as one detect-fusion group."""
    from kernelopt.proposers.base import ArgSpec, KernelSpec, RewriteTarget

    header = "import triton\nimport triton.language as tl\n\n"
    producer = KernelSpec("producer", "pointwise", header + PRODUCER.format(numel=math.prod(buffer_sizes)),
                          SIGNATURE)
    out_numel = math.prod(out_sizes)
    lines = copy_kernel(1, out_numel, "0", None).splitlines()[:6]          # the prologue, numel = the output's
    strides = contiguous_strides(out_sizes)
    digits = [f"    d{k} = (xindex // {s}) % {n}" for k, (s, n) in enumerate(zip(strides, out_sizes))]
    body = [f"    tmp0 = {mask}", f"    tmp1 = tl.load(in_ptr0 + ({address}), tmp0 & xmask, other=-7.0)"] if mask else \
        [f"    tmp1 = tl.load(in_ptr0 + ({address}), xmask)"]
    source = "\n".join(lines + digits + body + ["    tl.store(out_ptr0 + (xindex), tmp1, xmask)"]) + "\n"
    consumer = KernelSpec("copy", "pointwise", header + source, SIGNATURE)
    x = ArgSpec("in_ptr0", True, tuple(buffer_sizes), contiguous_strides(buffer_sizes), 0, "float32")
    buffer = dataclasses.replace(x, name="out_ptr0", written=True)
    out = ArgSpec("out_ptr0", True, tuple(out_sizes), strides, 0, "float32", written=True)
    launches = (LaunchSpec("producer", (x, buffer, ArgSpec("xnumel", False, value=math.prod(buffer_sizes))),
                           {"XBLOCK": 16, "num_warps": 1, "num_stages": 1}),
                LaunchSpec("copy", (dataclasses.replace(buffer, name="in_ptr0", written=False), out,
                                    ArgSpec("xnumel", False, value=out_numel))))
    group_args = (x, buffer, launches[0].args[2], out, launches[1].args[2])
    return RewriteTarget("group:0", (producer, consumer), launches, group_args, ((0, 1, 2), (1, 3, 4)),
                         scratch_args=(1,))


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 5), cols=st.integers(1, 6), transpose=st.booleans(),
       flips=st.tuples(st.booleans(), st.booleans()), drops=st.tuples(st.integers(0, 1), st.integers(0, 1)),
       pads=st.tuples(st.integers(0, 2), st.integers(0, 2)))
def test_any_box_copy_of_a_pointwise_result_is_stored_in_place(rows, cols, transpose, flips, drops, pads):
    """The copy takes a slice of the buffer (one row/column dropped at the start), flips either dimension,
    maybe transposes it, and pads the output's last dimension before and after with -7.0: the remapped
    producer writes exactly what producer + copy wrote, for every such copy."""
    buffer_sizes = (rows + drops[0], cols + drops[1])
    used = (rows, cols)
    order = (1, 0) if transpose else (0, 1)          # output dim k walks buffer dim order[k]
    out_sizes = [used[order[0]], used[order[1]]]
    out_sizes[1] += pads[0] + pads[1]
    terms = []
    for k, j in enumerate(order):
        coordinate = f"(d{k} - {pads[0]})" if k == 1 else f"d{k}"
        position = f"({used[j] - 1} - {coordinate})" if flips[j] else coordinate
        terms.append(f"{contiguous_strides(buffer_sizes)[j]} * ({drops[j]} + {position})")
    mask = f"(d1 >= {pads[0]}) & (d1 < {pads[0] + used[order[1]]})" if pads != (0, 0) else None
    target = _pointwise_pair(buffer_sizes, tuple(out_sizes), " + ".join(terms), mask)
    candidates = list(StoreRemapProposer().propose(target, []))
    assert len(candidates) == 1, StoreRemapProposer.declined(target)
    generator = torch.Generator().manual_seed(rows * 100 + cols)
    args = [torch.randn(buffer_sizes, generator=generator), torch.zeros(buffer_sizes), math.prod(buffer_sizes),
            torch.zeros(out_sizes), math.prod(out_sizes)]
    original = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    for spec, positions in zip(target.launches, target.group_positions):
        kernel = next(k for k in target.kernels if k.name == spec.kernel)
        source = candidate_source(kernel.source, kernel.name, [a.name for a in spec.args], kernel.signature, "Grid1D",
                                  LaunchConfig((("XBLOCK", 16),), 1, 1))
        load_candidate(source, "box_copy_original")(*[original[p] for p in positions])
    mine = [a.clone() if isinstance(a, torch.Tensor) else a for a in args]
    mine[3].fill_(float("nan"))
    load_candidate(candidates[0].source, "box_copy_candidate")(*mine)
    assert torch.equal(mine[3], original[3])


def test_a_copy_over_part_of_its_output_is_declined():
    """A copy kernel that writes only the first rows of its output leaves the others as they were: the
    remapped store (and its pad fill) would overwrite them, so store-remap must not apply."""
    target = _pointwise_pair((3, 4), (3, 4), "4 * d0 + d1", None)
    partial = dataclasses.replace(target.launches[1], args=target.launches[1].args[:2] + (
        dataclasses.replace(target.launches[1].args[2], value=8),))
    partial_target = dataclasses.replace(target, launches=(target.launches[0], partial))
    assert list(StoreRemapProposer().propose(partial_target, [])) == []
    assert "runs over 8 elements of an output of 12" in StoreRemapProposer.declined(partial_target)
    with pytest.raises(NotACopy, match="runs over 8 elements"):
        read_copy(copy_kernel(1, 8, "x2", None), "copy", (3, 4))


@pytest.mark.parametrize("problem", ["exclusive_cumsum", "reverse_cumsum"])
def test_the_scan_and_copy_group_says_its_workspace_is_zeroed_before_it(problem):
    """Inductor zeroes the split scan's workspace right before the scan: the group target names that slot
    (timing zeroes it before every run), and no other (the input, the scan's buffer and the output are not)."""
    target = lifted_group(problem)
    assert [target.group_args[i].name for i in target.zeroed_args] == ["ws_ptr"]
