"""A looped reduction's running state as Inductor writes it, for the rewrites that keep it per row.

An r-loop carries each accumulator as a [rows, block] tile made before the loop (`tl.full`/`tl.zeros`)
and commits it once per step as `acc = tl.where(mask, acc_next, acc)`. The block forms (`block_online`,
`block_welford`) read that commit and turn the tile into one column per row; each raises its own
"declined" exception with the reason when the code has another shape.
"""
from __future__ import annotations

import ast
import copy

from .row_loops import R_LOOP_TARGETS


def assigned_name(stmt: ast.stmt) -> str | None:
    """The name a single-target assignment binds (None for anything else)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    return None


def reads_any(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names for n in ast.walk(node))


def commit_mask(loop: ast.For, name: str, nxt: str, line: int, declined: type[Exception]) -> ast.expr:
    """The mask of `name = tl.where(mask, nxt, name)`, which must be the loop's only assignment to `name`."""
    commits = [s for s in loop.body if assigned_name(s) == name]
    if len(commits) != 1:
        raise declined(f"line {line}: {name} is assigned {len(commits)} times in its r-loop")
    value = commits[0].value
    if not (isinstance(value, ast.Call) and ast.unparse(value.func) == "tl.where" and len(value.args) == 3
            and ast.unparse(value.args[1]) == nxt and ast.unparse(value.args[2]) == name):
        raise declined(f"line {commits[0].lineno}: {name} is not committed as tl.where(mask, {nxt}, {name})")
    return value.args[0]


def one_column(before: list[ast.stmt], name: str, declined: type[Exception]) -> None:
    """`name = tl.full([XBLOCK, R0_BLOCK], ...)` / `tl.zeros([XBLOCK, R0_BLOCK], ...)` -> `[XBLOCK, 1]`."""
    init = next((s for s in reversed(before) if assigned_name(s) == name), None)
    call = init.value if init is not None else None
    if not (isinstance(call, ast.Call) and ast.unparse(call.func) in ("tl.full", "tl.zeros") and call.args
            and isinstance(call.args[0], ast.List) and len(call.args[0].elts) == 2):
        raise declined(f"{name} is not initialised as a [rows, block] tile before its loop")
    call.args[0].elts[1] = ast.Constant(1)


def splice(loop: ast.For, update: ast.stmt, replacement: list[ast.stmt], committed: tuple[str, ...]) -> None:
    """The loop body with `update` (the per-lane combine) replaced by `replacement`, and the commits of
    the names in `committed` dropped (the replacement assigns them itself)."""
    body = []
    for stmt in loop.body:
        if stmt is update:
            body += replacement
        elif assigned_name(stmt) not in committed:
            body.append(stmt)
    loop.body = body


def final_reduction(after: list[ast.stmt], names: list[str], helper: str, declined: type[Exception]) -> ast.Assign:
    """The one statement after the loop that reads the running state: `a, b, ... = helper(*names, 1, ...)`,
    the cross-lane reduction the block form makes trivial."""
    uses = [s for s in after if reads_any(s, set(names))]
    if len(uses) != 1:
        raise declined(f"{' and '.join(names)} are read {len(uses)} times after their loop, not only by {helper}")
    stmt = uses[0]
    call = stmt.value if isinstance(stmt, ast.Assign) else None
    if not (isinstance(call, ast.Call) and ast.unparse(call.func) == helper and isinstance(stmt.targets[0], ast.Tuple)
            and [ast.unparse(a) for a in call.args[:len(names) + 1]] == [*names, "1"]):
        raise declined(f"line {stmt.lineno}: the running state is not reduced by {helper}({', '.join(names)}, 1, ...)")
    return stmt


def helper_call(stmt: ast.stmt, helper: str) -> ast.Call | None:
    """The `helper(...)` call a statement assigns (None for any other statement)."""
    call = stmt.value if isinstance(stmt, ast.Assign) else None
    return call if isinstance(call, ast.Call) and ast.unparse(call.func) == helper else None


def rewrite_helper_calls(function: ast.FunctionDef, helper: str, rewrite, declined: type[Exception],
                         state: str) -> tuple[ast.FunctionDef, int]:
    """A copy of `function` with `rewrite(function, loop, stmt, call, number)` applied to each statement of
    its r-loops that assigns a `helper(...)` call; how many. Declined when there is none."""
    function = copy.deepcopy(function)
    count = 0
    for loop in [s for s in function.body if isinstance(s, ast.For) and isinstance(s.target, ast.Name)
                 and s.target.id in R_LOOP_TARGETS]:
        for stmt in [s for s in loop.body if helper_call(s, helper) is not None]:
            rewrite(function, loop, stmt, helper_call(stmt, helper), count)
            count += 1
    if not count:
        raise declined(f"no r-loop keeps {state} ({helper.rsplit('.', 1)[-1]})")
    return ast.fix_missing_locations(function), count


def welford_parts(stmt: ast.Assign, call: ast.Call, declined: type[Exception]) -> tuple[ast.expr, list[str], list[str]]:
    """(value, [mean, m2, weight], [their next names]) of `a, b, c = welford_reduce(x, mean, m2, weight, first)`."""
    target = stmt.targets[0]
    if not (len(stmt.targets) == 1 and isinstance(target, ast.Tuple) and len(target.elts) == 3
            and all(isinstance(e, ast.Name) for e in target.elts) and len(call.args) == 5
            and all(isinstance(a, ast.Name) for a in call.args[1:4])):
        raise declined(f"line {stmt.lineno}: a welford_reduce of a form not read")
    return call.args[0], [a.id for a in call.args[1:4]], [e.id for e in target.elts]


def online_pair_parts(stmt: ast.Assign, call: ast.Call, declined: type[Exception]) -> tuple[ast.expr, list[str], list[str]]:
    """(value, [max, sum], [their next names]) of `a, b = online_softmax_combine(max, sum, x, False)`; a
    fast-math combine is declined (its exponentials differ from the `tl_math.exp` the rewrites write)."""
    target = stmt.targets[0]
    if not (len(stmt.targets) == 1 and isinstance(target, ast.Tuple) and len(target.elts) == 2
            and all(isinstance(e, ast.Name) for e in target.elts) and len(call.args) == 4
            and all(isinstance(a, ast.Name) for a in call.args[:2])):
        raise declined(f"line {stmt.lineno}: an online_softmax_combine of a form not read")
    flag = call.args[3]
    if not (isinstance(flag, ast.Constant) and flag.value is False):
        raise declined(f"line {stmt.lineno}: the online softmax uses fast math")
    return call.args[2], [a.id for a in call.args[:2]], [e.id for e in target.elts]


def state_read_only_by_update(loop: ast.For, update: ast.stmt, running: list[str], following: list[str],
                              declined: type[Exception], what: str) -> None:
    """The loop reads the running state and its next values only in `update` and the commits."""
    names = set(running) | set(following)
    for stmt in loop.body:
        if stmt is not update and assigned_name(stmt) not in running and reads_any(stmt, names):
            raise declined(f"line {stmt.lineno}: the loop reads the running {what} other than to update it")
