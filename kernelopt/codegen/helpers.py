"""The device helpers an emitted module ships instead of `torch._inductor.runtime.triton_helpers`.

Inductor's kernels call `triton_helpers.<fn>` (max/min with NaN propagation, Welford and online-softmax
combines, index-carrying reductions, ...). An emitted module must not import `torch._inductor`, so it
defines these as plain `@triton.jit` functions and binds them to a module object named
`triton_helpers` (Triton accepts attribute access on a real `ModuleType` global inside a kernel).

Only the helpers the kernels use are emitted, with the helpers they call in turn. Each one computes
with the same operations in the same order as Inductor's, so the emitted kernels stay bitwise
identical to the originals on the same launch configuration.

Inductor's helpers change between torch releases (torch 2.13 guards `welford_combine` against
inf - inf and gives `frexp` IEEE special values). A module calls the helpers of the torch that wrote
it, so a helper that changed has a variant per era (`LEGACY`): emitting a torch 2.11 module with the
2.13 Welford combine changes its results on overflowing inputs and costs one compare-and-select per
combine step, which made an H200 layer-norm kernel 5% slower.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Helper:
    name: str
    source: str                      # the `def` (decorated), using `tl`, `libdevice`, `tl_math`
    needs: tuple[str, ...] = ()      # other helpers it calls


def _h(name: str, source: str, *needs: str) -> Helper:
    return Helper(name, source.strip("\n"), tuple(needs))


HELPERS: dict[str, Helper] = {h.name: h for h in [
    _h("promote_to_tensor", '''
@triton.jit
def promote_to_tensor(x):
    # adding a one-element tensor turns a scalar into a tensor (and leaves tensors alone)
    return x + tl.zeros((1,), tl.int1)
'''),
    _h("is_floating", '''
@triton.jit
def is_floating(x):
    return promote_to_tensor(x).dtype.is_floating()
''', "promote_to_tensor"),
    _h("maximum", '''
@triton.jit
def maximum(a, b):
    # NaN wins, as torch.maximum
    take_a = a > b
    if is_floating(a):
        take_a |= a != a
    return tl.where(take_a, a, b)
''', "is_floating"),
    _h("minimum", '''
@triton.jit
def minimum(a, b):
    take_a = a < b
    if is_floating(a):
        take_a |= a != a
    return tl.where(take_a, a, b)
''', "is_floating"),
    _h("max2", '''
@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)
''', "maximum"),
    _h("min2", '''
@triton.jit
def min2(a, dim):
    return tl.reduce(a, dim, minimum)
''', "minimum"),
    _h("maximum_with_index", '''
@triton.jit
def maximum_with_index(a_value, a_index, b_value, b_index):
    take_a = a_value > b_value
    tie = a_value == b_value
    if is_floating(a_value):
        a_nan = a_value != a_value
        b_nan = b_value != b_value
        take_a |= a_nan & (not b_nan)
        tie |= a_nan & b_nan
    take_a |= tie & (a_index < b_index)   # first index among equals
    return tl.where(take_a, a_value, b_value), tl.where(take_a, a_index, b_index)
''', "is_floating"),
    _h("minimum_with_index", '''
@triton.jit
def minimum_with_index(a_value, a_index, b_value, b_index):
    take_a = a_value < b_value
    tie = a_value == b_value
    if is_floating(a_value):
        a_nan = a_value != a_value
        b_nan = b_value != b_value
        take_a |= a_nan & (not b_nan)
        tie |= a_nan & b_nan
    take_a |= tie & (a_index < b_index)
    return tl.where(take_a, a_value, b_value), tl.where(take_a, a_index, b_index)
''', "is_floating"),
    _h("max_with_index", '''
@triton.jit
def max_with_index(value, index, dim):
    return tl.reduce((value, index), dim, maximum_with_index)
''', "maximum_with_index"),
    _h("min_with_index", '''
@triton.jit
def min_with_index(value, index, dim):
    return tl.reduce((value, index), dim, minimum_with_index)
''', "minimum_with_index"),
    _h("_prod_combine", '''
@triton.jit
def _prod_combine(a, b):
    return a * b
'''),
    _h("prod", '''
@triton.jit
def prod(input, axis):
    return tl.reduce(input, axis, _prod_combine)
''', "_prod_combine"),
    _h("_or_combine", '''
@triton.jit
def _or_combine(a, b):
    return a | b
'''),
    _h("any", '''
@triton.jit
def any(a, dim):
    return tl.reduce(a, dim, _or_combine)
''', "_or_combine"),
    _h("exp", '''
@triton.jit
def exp(x, use_fast_math: tl.constexpr):
    if use_fast_math:
        return tl_math.exp(x)
    else:
        return libdevice.exp(x)
'''),
    _h("online_softmax_reduce", '''
@triton.jit
def online_softmax_reduce(lhs_max, lhs_sum, dim, use_fast_math: tl.constexpr):
    row_max = max2(lhs_max, dim)
    row_max_kept = tl.expand_dims(row_max, dim)
    shift = tl.where(row_max_kept == float("-inf"), 0, lhs_max - row_max_kept)
    row_sum = tl.sum(lhs_sum * exp(shift, use_fast_math), dim)
    return row_max, row_sum
''', "max2", "exp"),
    _h("online_softmax_combine", '''
@triton.jit
def online_softmax_combine(lhs_max, lhs_sum, rhs_max, use_fast_math: tl.constexpr):
    # lhs is the running accumulator, rhs one new block whose sum is 1 per element
    new_max = maximum(lhs_max, rhs_max)
    lhs_scale = tl.where(new_max == float("-inf"), 1.0, exp(lhs_max - new_max, use_fast_math))
    rhs_scale = tl.where(new_max == float("-inf"), 1.0, exp(rhs_max - new_max, use_fast_math))
    new_sum = lhs_sum * lhs_scale + rhs_scale
    return new_max, new_sum
''', "maximum", "exp"),
    _h("online_softmax_combine_with_sum", '''
@triton.jit
def online_softmax_combine_with_sum(lhs_max, lhs_sum, rhs_max, rhs_sum, use_fast_math: tl.constexpr):
    new_max = maximum(lhs_max, rhs_max)
    lhs_scale = tl.where(new_max == float("-inf"), 1.0, exp(lhs_max - new_max, use_fast_math))
    rhs_scale = tl.where(new_max == float("-inf"), 1.0, exp(rhs_max - new_max, use_fast_math))
    new_sum = lhs_sum * lhs_scale + rhs_sum * rhs_scale
    return new_max, new_sum
''', "maximum", "exp"),
    _h("welford_reduce", '''
@triton.jit
def welford_reduce(value, mean, m2, weight, first_iteration):
    if first_iteration:
        next_weight = tl.full(weight.shape, 1, weight.dtype)
        next_mean = value
        next_m2 = tl.zeros_like(m2)
    else:
        delta = value - mean
        next_weight = weight + 1
        next_mean = mean + delta / next_weight
        next_m2 = m2 + delta * (value - next_mean)
    return next_mean, next_m2, next_weight
'''),
    _h("welford_combine", '''
@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    # equal means give delta 0 (also for inf == inf, where the difference would be NaN);
    # an empty pair gives weight ratio 0
    delta = tl.where(mean_1 == mean_2, 0.0, mean_2 - mean_1)
    weight = weight_1 + weight_2
    ratio = tl.where(weight == 0.0, 0.0, weight_2 / weight)
    return (
        mean_1 + delta * ratio,
        m2_1 + m2_2 + delta * delta * weight_1 * ratio,
        weight,
    )
'''),
    _h("welford", '''
@triton.jit
def welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, welford_combine)
''', "welford_combine"),
    _h("div_floor_integer", '''
@triton.jit
def div_floor_integer(a, b):
    # `//` truncates toward zero in Triton; torch floors
    quotient = a // b
    rest = a % b
    floored = tl.where(rest != 0, quotient - 1, quotient)
    return tl.where((a < 0) != (b < 0), floored, quotient)
'''),
    _h("remainder_integer", '''
@triton.jit
def remainder_integer(a, b):
    rest = a % b
    return tl.where((rest != 0) & ((a < 0) != (b < 0)), rest + b, rest)
'''),
    _h("frexp", '''
@triton.jit
def frexp(x):
    zero = x == 0
    not_finite = libdevice.isinf(x).to(tl.int1) | libdevice.isnan(x).to(tl.int1)
    special = zero | not_finite
    safe_x = tl.where(special, 1.0, x)
    exponent_raw = libdevice.ilogb(safe_x) + 1
    exponent = tl.where(special, 0, exponent_raw)
    mantissa = tl.where(zero, 0, tl.where(not_finite, x, libdevice.ldexp(safe_x, -exponent_raw)))
    return mantissa, exponent
'''),
    _h("select_one", '''
@triton.jit
def select_one(x, mask, dim, keep_dims=False):
    bits_dtype = tl.core.get_int_dtype(x.dtype.primitive_bitwidth, signed=False)
    bits = x.to(bits_dtype, bitcast=True)
    picked = tl.sum(bits * mask, dim, keep_dims=keep_dims)
    return picked.to(bits_dtype).to(x.dtype, bitcast=True)
'''),
    # Inductor's split scans (one row's chunks in separate programs) chain the chunks' carries through a
    # workspace with a decoupled look-back: each program publishes its chunk total (flag 1), then walks
    # back over its predecessors' published values until one carries a whole prefix (flag 2), and
    # publishes its own prefix. A value of 32 bits or fewer travels packed with its flag in one 64-bit word.
    _h("pack_value_flag", '''
@triton.jit
def pack_value_flag(value, flag, DTYPE_VALUE_AS_UINT: tl.constexpr, DTYPE_PACK: tl.constexpr):
    # the value's bits above the flag's, in one word twice the value's width
    DTYPE_VALUE_AS_UINT = tl.core._unwrap_if_constexpr(DTYPE_VALUE_AS_UINT)
    width = DTYPE_VALUE_AS_UINT.primitive_bitwidth
    bits = value.to(DTYPE_VALUE_AS_UINT, bitcast=True).to(DTYPE_PACK)
    return flag.to(DTYPE_PACK) | (bits << width)
'''),
    _h("unpack_value", '''
@triton.jit
def unpack_value(pack, DTYPE_VALUE, DTYPE_VALUE_AS_UINT):
    DTYPE_VALUE = tl.core._unwrap_if_constexpr(DTYPE_VALUE)
    DTYPE_VALUE_AS_UINT = tl.core._unwrap_if_constexpr(DTYPE_VALUE_AS_UINT)
    width = DTYPE_VALUE_AS_UINT.primitive_bitwidth
    return (pack >> width).to(DTYPE_VALUE_AS_UINT).to(DTYPE_VALUE, bitcast=True)
'''),
    _h("unpack_flag", '''
@triton.jit
def unpack_flag(pack, DTYPE_FLAG):
    return pack.to(DTYPE_FLAG)
'''),
    _h("exclusive_scan_decoupled_lookback", '''
@triton.jit
def exclusive_scan_decoupled_lookback(scratch_base, block_value, index, combine_fn,
                                      DTYPE_VALUE_AS_UINT: tl.constexpr, DTYPE_PACK: tl.constexpr):
    DTYPE_VALUE = block_value.dtype
    # `pack` is re-read by the loop below: Triton's compiler needs a name that a loop assigns and
    # later code reads to be bound before the loop (the interpreter does not check this)
    pack = pack_value_flag(block_value, tl.full(block_value.shape, 1, DTYPE_VALUE_AS_UINT),
                           DTYPE_VALUE_AS_UINT, DTYPE_PACK)
    if index > 0:
        tl.atomic_xchg(scratch_base + index, pack, sem="relaxed")
    exclusive_prefix = tl.zeros([], DTYPE_VALUE)
    prefix_valid = False
    test_target = index - 1
    while test_target >= 0:
        flag = tl.full([], 0, DTYPE_VALUE_AS_UINT)
        while flag == 0:
            pack = tl.atomic_add(scratch_base + test_target, 0, sem="relaxed")
            flag = unpack_flag(pack, DTYPE_VALUE_AS_UINT)
        value = unpack_value(pack, DTYPE_VALUE, DTYPE_VALUE_AS_UINT)
        if prefix_valid:
            exclusive_prefix = combine_fn(value, exclusive_prefix)
        else:
            exclusive_prefix = value
            prefix_valid = True
        if flag == 2:
            test_target = -1
        else:
            test_target = test_target - 1
    if prefix_valid:
        inclusive_prefix = combine_fn(exclusive_prefix, block_value)
    else:
        inclusive_prefix = block_value
    published = pack_value_flag(inclusive_prefix, tl.full([], 2, DTYPE_VALUE_AS_UINT), DTYPE_VALUE_AS_UINT,
                                DTYPE_PACK)
    tl.atomic_xchg(scratch_base + index, published, sem="relaxed")
    return exclusive_prefix
''', "pack_value_flag", "unpack_value", "unpack_flag"),
    _h("exclusive_scan_decoupled_lookback_64", '''
@triton.jit
def exclusive_scan_decoupled_lookback_64(scratch_base, block_value, index, combine_fn):
    # a 64-bit value does not fit beside its flag: three words per chunk (flag, total, prefix)
    if index > 0:
        tl.store(scratch_base + 3 * index + 1, block_value.to(tl.uint64, bitcast=True))
        tl.debug_barrier()
        tl.atomic_xchg(scratch_base + 3 * index + 0, tl.full([], 1, tl.uint64), sem="release")
    exclusive_prefix = tl.zeros([], block_value.dtype)
    prefix_valid = False
    test_target = index - 1
    while test_target >= 0:
        flag = tl.full([], 0, tl.uint64)
        while flag == 0:
            flag = tl.atomic_add(scratch_base + 3 * test_target + 0, 0, sem="acquire")
        value = tl.load(scratch_base + 3 * test_target + flag.to(tl.int32)).to(block_value.dtype, bitcast=True)
        if prefix_valid:
            exclusive_prefix = combine_fn(value, exclusive_prefix)
        else:
            exclusive_prefix = value
            prefix_valid = True
        if flag == 2:
            test_target = tl.full([], -1, index.dtype)
        else:
            test_target = test_target - 1
    if prefix_valid:
        inclusive_prefix = combine_fn(exclusive_prefix, block_value)
    else:
        inclusive_prefix = block_value
    tl.store(scratch_base + 3 * index + 2, inclusive_prefix.to(tl.uint64, bitcast=True))
    tl.debug_barrier()
    tl.atomic_xchg(scratch_base + 3 * index + 0, tl.full([], 2, tl.uint64), sem="release")
    return exclusive_prefix
'''),
    _h("device_assert_then", '''
@triton.jit
def device_assert_then(cond, msg, r):
    tl.device_assert(cond, msg)
    return r
'''),
]}

_USE = re.compile(r"\btriton_helpers\.([A-Za-z_][A-Za-z0-9_]*)")
NOT_DEVICE_FUNCTIONS = {"set_driver_to_gpu", "set_driver_to_cpu"}


# Helpers as torch releases before the given version wrote them: name -> [(before_version, Helper)],
# oldest era first. A module from torch < before_version gets that variant.
LEGACY: dict[str, list[tuple[tuple[int, int], Helper]]] = {
    "welford_combine": [((2, 13), _h("welford_combine", '''
@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    weight = weight_1 + weight_2
    ratio = tl.where(weight == 0.0, 0.0, weight_2 / weight)
    return (
        mean_1 + delta * ratio,
        m2_1 + m2_2 + delta * delta * weight_1 * ratio,
        weight,
    )
'''))],
    "frexp": [((2, 13), _h("frexp", '''
@triton.jit
def frexp(x):
    exponent_raw = libdevice.ilogb(x) + 1
    exponent = tl.where(x == 0, 0, exponent_raw)
    mantissa = tl.where(x == 0, 0, libdevice.ldexp(x, -exponent_raw))
    return mantissa, exponent
'''))],
}


def torch_release(version: str | None) -> tuple[int, int] | None:
    """(major, minor) of a torch version string such as '2.11.0+cu130'; None when it is not one."""
    match = re.match(r"(\d{1,4})\.(\d{1,4})(?!\d)", version or "")   # bounded: a damaged .kir may say anything
    return (int(match.group(1)), int(match.group(2))) if match else None


def helper_for(name: str, torch_version: str | None = None) -> Helper:
    """The helper `name` as the torch that wrote the module defined it (the current one when unknown)."""
    release = torch_release(torch_version)
    if release is not None:
        for before, variant in LEGACY.get(name, ()):
            if release < before:
                return variant
    helper = HELPERS.get(name)
    if helper is None:
        raise MissingHelper(name)
    return helper


class MissingHelper(Exception):
    """A kernel calls a `triton_helpers` function this module does not provide."""


def used_helpers(kernel_sources: list[str]) -> list[str]:
    """Names of `triton_helpers.*` functions the sources call (driver switches excluded), sorted."""
    names = set()
    for source in kernel_sources:
        names.update(n for n in _USE.findall(source) if n not in NOT_DEVICE_FUNCTIONS)
    return sorted(names)


def with_dependencies(names: list[str], torch_version: str | None = None) -> list[str]:
    """`names` plus what they call, ordered so that every helper follows the helpers it needs."""
    ordered: list[str] = []

    def visit(name: str) -> None:
        if name in ordered:
            return
        for need in helper_for(name, torch_version).needs:
            visit(need)
        ordered.append(name)

    for name in names:
        visit(name)
    return ordered


def helpers_source(names: list[str], torch_version: str | None = None) -> str:
    """Python source defining the helpers (with dependencies) as attributes of a `triton_helpers` module.

    Each helper is defined under a private name, stored on the module object, and the private global
    is deleted: helpers reach each other as `triton_helpers.<name>` too, so the emitted module's
    globals hold only kernels (a launch hook that wraps every jit global wraps kernels, not helpers).
    `torch_version` is the version of the torch that wrote the kernels (see `LEGACY`).
    """
    ordered = with_dependencies(names, torch_version)
    if not ordered:
        return ""
    prefix = "_ko_helper_"
    blocks = ['triton_helpers = types.ModuleType("triton_helpers")']
    for name in ordered:
        helper = helper_for(name, torch_version)
        text = re.sub(rf"\bdef {re.escape(name)}\(", f"def {prefix}{name}(", helper.source)
        for other in helper.needs:
            text = re.sub(rf"(?<![\w.]){re.escape(other)}(?=\s*[(,)])", f"triton_helpers.{other}", text)
        blocks.append(f"{text}\n\n\ntriton_helpers.{name} = {prefix}{name}\ndel {prefix}{name}")
    return "\n\n\n".join(blocks) + "\n"
