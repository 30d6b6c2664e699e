"""Online cross-entropy: Inductor's two-launch group (prepare_softmax_online, then the mean of
nll_loss_forward) replaced by one pass over the logits that also writes the per-row max / sum-of-exp."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kernelopt.proposers.base import ArgSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.idioms import (FLOAT_DTYPES, Expr, KernelFacts, analyse, index_is, is_row_major,
                                        launch_position, numel, row_index, unify)
from kernelopt.templates.kernel_template import MAX_ROW_ON_CHIP, KernelTemplate, next_pow2, render_kernel

# ---------------------------------------------------------------------------------------------------
# Matcher

@dataclass(frozen=True)
class CrossEntropyMatch:
    n_rows: int
    n_cols: int
    ignore_index: int
    logits_dtype: str
    roles: dict[str, int]   # logits, row_max, row_sum, loss, target -> group argument position
    writes: tuple[str, ...] = field(default=("loss", "row_max", "row_sum"))


def _match_softmax_stats(facts: KernelFacts) -> tuple[str, str, str] | None:
    """Kernel A: stores max and sum-of-exp of one row-major load. Returns (logits, max_ptr, sum_ptr)."""
    if len(facts.stores) != 2 or facts.has_assert:
        return None
    n = facts.sizes.get("r0_numel")
    stats: dict[str, tuple[str, Expr]] = {}
    for ptr, index, value in facts.stores:
        if value[0] not in ("max", "sumexp") or not index_is(index, ("var", "x")):
            return None
        stats[value[0]] = (ptr, value[1])
    if set(stats) != {"max", "sumexp"} or stats["max"][1] != stats["sumexp"][1]:
        return None
    operand = stats["max"][1]
    if n is None or operand[0] != "load" or not index_is(operand[2], row_index(n)):
        return None
    return operand[1], stats["max"][0], stats["sumexp"][0]


def _nll_mean_pattern(n_cols: int) -> Expr:
    valid = ("ne", ("load", "?target", ("var", "r")), ("const", "?ignore"))
    clamped = ("where", valid, ("load", "?target", ("var", "r")), ("const", 0))
    wrapped = ("where", ("lt", clamped, ("const", 0)), ("add", clamped, ("const", n_cols)), clamped)
    gathered = ("load", "?logits", ("add", wrapped, ("mul", ("const", n_cols), ("var", "r"))))
    logprob = ("sub", ("sub", gathered, ("load", "?max", ("var", "r"))), ("log", ("load", "?sum", ("var", "r"))))
    total = ("sum", ("where", valid, ("neg", logprob), ("const", 0.0)))
    count = ("sum", valid)
    return ("div", total, count)


def _match_nll_mean(facts: KernelFacts, n_cols: int) -> dict[str, Any] | None:
    """Kernel B: one scalar store of sum(-logprob[target]) / count(target != ignore)."""
    if len(facts.stores) != 1 or facts.sizes.get("xnumel") != 1:
        return None
    ptr, index, value = facts.stores[0]
    if index != ("const", 0) and not index_is(index, ("const", 0)):
        return None
    binds = unify(_nll_mean_pattern(n_cols), value, {})
    if binds is None or not isinstance(binds["?ignore"], int):
        return None
    return {"loss": ptr, "target": binds["?target"], "logits": binds["?logits"], "max": binds["?max"],
            "sum": binds["?sum"], "ignore": binds["?ignore"]}


def match_cross_entropy(target: RewriteTarget) -> CrossEntropyMatch | None:
    """The two-launch cross-entropy group; roles are positions in `target.group_args`."""
    if len(target.launches) != 2 or not target.group_args:
        return None
    kernels = {k.name: k for k in target.kernels}
    first, second = target.launches
    if first.kernel not in kernels or second.kernel not in kernels:
        return None
    facts_a, facts_b = analyse(kernels[first.kernel]), analyse(kernels[second.kernel])
    if facts_a is None or facts_b is None:
        return None
    stats = _match_softmax_stats(facts_a)
    n_rows, n_cols = facts_a.sizes.get("xnumel"), facts_a.sizes.get("r0_numel")
    if stats is None or not n_rows or not n_cols:
        return None
    nll = _match_nll_mean(facts_b, n_cols)
    if nll is None or facts_b.sizes.get("r0_numel") != n_rows:
        return None
    launch_args = _ce_launch_args(first, second, stats, nll)
    if launch_args is None:
        return None
    roles = _ce_group_positions(target.group_args, launch_args)
    if roles is None or not _ce_args_fit(launch_args, n_rows, n_cols):
        return None
    return CrossEntropyMatch(n_rows, n_cols, nll["ignore"], launch_args["logits"].dtype, roles)


def _ce_launch_args(first: LaunchSpec, second: LaunchSpec, stats, nll) -> dict[str, ArgSpec] | None:
    logits_a, max_a, sum_a = stats
    wanted = {"logits": (first, logits_a), "row_max": (first, max_a), "row_sum": (first, sum_a),
              "loss": (second, nll["loss"]), "target": (second, nll["target"]),
              "logits_b": (second, nll["logits"]), "max_b": (second, nll["max"]), "sum_b": (second, nll["sum"])}
    found = {}
    for role, (launch, param) in wanted.items():
        pos = launch_position(launch, param)
        if pos is None or not launch.args[pos].is_tensor:
            return None
        found[role] = launch.args[pos]
    # the second kernel must read the tensors the first one read/wrote (same shapes and dtypes)
    for a, b in (("logits", "logits_b"), ("row_max", "max_b"), ("row_sum", "sum_b")):
        if (found[a].sizes, found[a].strides, found[a].dtype) != (found[b].sizes, found[b].strides, found[b].dtype):
            return None
    return found


def _ce_group_positions(group_args: tuple[ArgSpec, ...], launch_args: dict[str, ArgSpec]) -> dict[str, int] | None:
    """Group args are the union in first-use order: the tensors must be logits, max, sum, loss, target."""
    tensors = [i for i, a in enumerate(group_args) if a.is_tensor]
    order = ("logits", "row_max", "row_sum", "loss", "target")
    if len(tensors) != len(order):
        return None
    roles = {}
    for role, position in zip(order, tensors):
        arg, want = group_args[position], launch_args[role]
        if (arg.sizes, arg.strides, arg.dtype) != (want.sizes, want.strides, want.dtype):
            return None
        roles[role] = position
    return roles


def _ce_args_fit(args: dict[str, ArgSpec], n_rows: int, n_cols: int) -> bool:
    logits, target = args["logits"], args["target"]
    return (logits.dtype in FLOAT_DTYPES and is_row_major(logits, n_cols)
            and numel(logits) == n_rows * n_cols and target.dtype == "int64" and numel(target) == n_rows
            and args["loss"].dtype == "float32" and numel(args["loss"]) == 1
            and numel(args["row_max"]) == n_rows and numel(args["row_sum"]) == n_rows
            and args["row_max"].dtype == "float32" and args["row_sum"].dtype == "float32")


# ---------------------------------------------------------------------------------------------------
# Rendering and variants

def cross_entropy_source(roles: dict, n_cols: int, ignore_index: int = -100, block: int = 4096,
                         num_warps: int = 16, row_on_chip: bool | None = None, store_stats: bool = True,
                         n_rows: int = 1024, num_stages: int | None = None, unroll: int = 1) -> str:
    if row_on_chip is None:
        row_on_chip = next_pow2(n_cols) <= block
    if row_on_chip:
        block = max(block, next_pow2(n_cols))
    finish_block = min(1024, next_pow2(max(n_rows, 16)))
    return render_kernel("cross_entropy", roles=roles, ignore_index=ignore_index, block=block, num_warps=num_warps,
                         row_on_chip=row_on_chip, store_stats=store_stats, finish_block=finish_block, finish_warps=4,
                         num_stages=num_stages, unroll=unroll)


def cross_entropy_variants(n_cols: int) -> list[tuple[bool, int, int, int]]:
    """(row_on_chip, BLOCK, num_warps, UNROLL), likeliest winners first on an H200-class GPU for
    [4096, 32000] bf16 logits: the order `benchmarks/ce_sweep.py` measured (its results are under
    benchmarks/results/). Chunked rows with two chunks in flight per thread lead; the whole row in
    registers comes last. num_stages makes no difference here (loads that feed no dot are not
    pipelined). The search has a budget, so the order matters."""
    fits = next_pow2(n_cols) <= MAX_ROW_ON_CHIP
    menu = [(False, 512, 4, 2), (False, 1024, 8, 2), (False, 512, 8, 4), (False, 2048, 4, 4),
            (False, 1024, 4, 1), (False, 2048, 8, 1), (False, 4096, 16, 1), (True, 0, 16, 1)]
    variants = []
    for row_on_chip, block, warps, unroll in menu:
        if row_on_chip:
            if not fits:
                continue
            block = next_pow2(n_cols)
        else:
            block = min(block, next_pow2(n_cols))
            if fits and block >= n_cols:
                continue  # one chunk is the whole row: the row-on-chip variant already covers it
            unroll = min(unroll, max(1, next_pow2(n_cols) // block))
        variant = (row_on_chip, block, warps, unroll)
        if variant not in variants:
            variants.append(variant)
    return variants


class CrossEntropyTemplate(KernelTemplate):
    name = "cross_entropy"
    scope = "group"

    def match(self, target: RewriteTarget) -> CrossEntropyMatch | None:
        return match_cross_entropy(target)

    def variants(self, match: CrossEntropyMatch) -> list[tuple[bool, int, int, int]]:
        return cross_entropy_variants(match.n_cols)

    def render(self, match: CrossEntropyMatch, variant: tuple[bool, int, int, int]) -> str:
        row_on_chip, block, warps, unroll = variant
        return cross_entropy_source(match.roles, match.n_cols, match.ignore_index, block=block, num_warps=warps,
                                    row_on_chip=row_on_chip, n_rows=match.n_rows, unroll=unroll)

    def strategy(self, match: CrossEntropyMatch, variant: tuple[bool, int, int, int]) -> str:
        row_on_chip, block, warps, unroll = variant
        label = ("row-on-chip " if row_on_chip else "") + (f"UNROLL={unroll} " if unroll > 1 else "")
        return f"online-cross-entropy {label}BLOCK={block} warps={warps}"

    def notes(self, match: CrossEntropyMatch, variant: tuple[bool, int, int, int]) -> str:
        return (f"one pass over logits [{match.n_rows}, {match.n_cols}] {match.logits_dtype}; writes the loss "
                "and the per-row max / sum-of-exp buffers of the original group; mean over targets != "
                f"{match.ignore_index}; exp via tl.exp (fp32)")
