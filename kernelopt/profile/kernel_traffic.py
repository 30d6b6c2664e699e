"""What a Triton kernel's source says about its memory traffic and arithmetic.

Inductor writes kernels in a regular style: pointers are parameters (`in_ptr0`, `out_ptr1`,
`in_out_ptr0`), every access is `tl.load(ptr + (index), mask, ...)` / `tl.store(ptr + (index), value,
mask)`, index variables are named after their axis (`x0`, `r0_1`, `xindex`), and computed values are
`tmpN`. From that we read, per pointer, whether it is loaded and/or stored and whether its index is
data-dependent (a `tmpN` in the index: a gather or scatter), plus a count of arithmetic operations per
element of the iteration space. The analysis is syntactic; anything it cannot see is reported as
"unknown" to the caller, which then falls back to the IR's read/write sets.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

LOAD_CALLS = {"tl.load"}
STORE_CALLS = {"tl.store"}
ATOMIC_CALLS = {"tl.atomic_add", "tl.atomic_max", "tl.atomic_min", "tl.atomic_xchg", "tl.atomic_cas",
                "tl.atomic_and", "tl.atomic_or", "tl.atomic_xor"}
# Calls that move or shape data but do no arithmetic.
NON_ARITHMETIC_CALLS = LOAD_CALLS | STORE_CALLS | {
    "tl.full", "tl.zeros", "tl.broadcast_to", "tl.arange", "tl.reshape", "tl.view", "tl.program_id",
    "tl.device_assert", "tl.debug_barrier", "tl.static_assert", "tl.range", "range", "tl.make_block_ptr",
    "tl.advance", "tl.expand_dims", "tl.permute", "tl.trans", "tl.cast", "tl.num_programs"}
NUMEL_NAMES = ("xnumel", "ynumel", "znumel", "r0_numel", "r1_numel", "rnumel")


@dataclass
class PointerUse:
    loaded: bool = False
    stored: bool = False
    indirect: bool = False    # some access indexes with a loaded value (gather / scatter)
    accesses: int = 0


@dataclass
class KernelSourceFacts:
    params: list[str]
    pointers: dict[str, PointerUse] = field(default_factory=dict)
    numels: dict[str, int] = field(default_factory=dict)    # `xnumel = 4096` written in the body
    ops_per_element: int = 0        # arithmetic on the full (x * r) iteration space
    ops_per_row: int = 0            # arithmetic after a reduction loop (once per x)
    has_dot: bool = False

    @property
    def understood(self) -> bool:
        """True when the source showed at least one load or store."""
        return any(u.loaded or u.stored for u in self.pointers.values())


def dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


def _kernel_function(tree: ast.Module) -> ast.FunctionDef | None:
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    jitted = [f for f in functions if any("jit" in dotted(d if not isinstance(d, ast.Call) else d.func)
                                          for d in f.decorator_list)]
    chosen = jitted or functions
    return chosen[-1] if chosen else None


def analyze_kernel_source(source: str, pointer_params: set[str] | None = None) -> KernelSourceFacts | None:
    """Facts about the jitted function in `source`, or None when it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    func = _kernel_function(tree)
    if func is None:
        return None
    params = [a.arg for a in func.args.args]
    if pointer_params is None:
        pointer_params = {p for p in params if "ptr" in p}
    facts = KernelSourceFacts(params=params)
    aliases = {p: p for p in pointer_params}
    loaded_names: set[str] = set()
    _walk_statements(func.body, facts, aliases, loaded_names, in_loop=False, has_loop=_has_loop(func))
    return facts


def _has_loop(func: ast.FunctionDef) -> bool:
    return any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(func))


def _walk_statements(body, facts, aliases, loaded_names, in_loop: bool, has_loop: bool) -> None:
    for stmt in body:
        if isinstance(stmt, (ast.For, ast.While)):
            _walk_statements(stmt.body, facts, aliases, loaded_names, True, has_loop)
            continue
        if isinstance(stmt, ast.If):
            _walk_statements(stmt.body + stmt.orelse, facts, aliases, loaded_names, in_loop, has_loop)
            continue
        _record_numel(stmt, facts)
        _record_alias(stmt, aliases)
        for call in (n for n in ast.walk(stmt) if isinstance(n, ast.Call)):
            _record_access(call, facts, aliases, loaded_names)
        _record_loaded_targets(stmt, loaded_names)
        ops = _count_value_ops(stmt)
        if has_loop and not in_loop:
            facts.ops_per_row += ops
        else:
            facts.ops_per_element += ops


def _record_numel(stmt: ast.stmt, facts: KernelSourceFacts) -> None:
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id in NUMEL_NAMES and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, int)):
        facts.numels[stmt.targets[0].id] = stmt.value.value


def _record_alias(stmt: ast.stmt, aliases: dict[str, str]) -> None:
    """`a_ptrs = in_ptr0 + offsets` or `A = arg_A`: later accesses through `a_ptrs` hit `in_ptr0`."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return
    if any(isinstance(n, ast.Call) and dotted(n.func) in LOAD_CALLS for n in ast.walk(stmt.value)):
        return
    roots = {aliases[n.id] for n in ast.walk(stmt.value) if isinstance(n, ast.Name) and n.id in aliases}
    target = stmt.targets[0].id
    if len(roots) == 1:
        aliases[target] = roots.pop()
    elif target in aliases and aliases[target] != target:
        del aliases[target]


def _record_loaded_targets(stmt: ast.stmt, loaded_names: set[str]) -> None:
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name) and node.id.lstrip("_").startswith("tmp"):
                    loaded_names.add(node.id)


def _record_access(call: ast.Call, facts: KernelSourceFacts, aliases: dict[str, str], loaded: set[str]) -> None:
    name = dotted(call.func)
    if name == "tl.dot":
        facts.has_dot = True
    if name not in LOAD_CALLS | STORE_CALLS | ATOMIC_CALLS or not call.args:
        return
    address = call.args[0]
    names = [n.id for n in ast.walk(address) if isinstance(n, ast.Name)]
    pointers = {aliases[n] for n in names if n in aliases}
    if len(pointers) != 1:
        return
    use = facts.pointers.setdefault(pointers.pop(), PointerUse())
    use.accesses += 1
    use.loaded |= name in LOAD_CALLS or name in ATOMIC_CALLS
    use.stored |= name in STORE_CALLS or name in ATOMIC_CALLS
    # A computed value (`tmp8`) inside the address makes the access data-dependent.
    use.indirect |= any(n.lstrip("_").startswith("tmp") and n not in aliases for n in names)


_ARITH_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.BitAnd, ast.BitOr,
                 ast.BitXor, ast.LShift, ast.RShift)


def _count_value_ops(stmt: ast.stmt) -> int:
    """Arithmetic operations computing `tmpN` values (index arithmetic is not counted)."""
    if isinstance(stmt, ast.Assign):
        targets = [n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        value = stmt.value
    elif isinstance(stmt, ast.AugAssign):
        targets = [dotted(stmt.target)]
        value = stmt.value
    else:
        return 0
    if not any(t.lstrip("_").startswith("tmp") for t in targets):
        return 0
    return (1 if isinstance(stmt, ast.AugAssign) else 0) + _ops_in(value)


def _ops_in(node: ast.AST) -> int:
    """Operations in an expression, not looking inside loads, stores and other data movement."""
    if isinstance(node, ast.Call):
        callee = dotted(node.func)
        if callee in NON_ARITHMETIC_CALLS:
            return 0
        own = 1 if callee and not callee.endswith(".to") else 0
    elif isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH_BINOPS):
        own = 1
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Invert, ast.Not)):
        own = 1
    elif isinstance(node, ast.Compare):
        own = len(node.ops)
    elif isinstance(node, ast.BoolOp):
        own = len(node.values) - 1
    else:
        own = 0
    return own + sum(_ops_in(child) for child in ast.iter_child_nodes(node))
