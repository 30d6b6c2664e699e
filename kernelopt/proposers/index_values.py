"""The values a Triton kernel's index arithmetic takes, evaluated on numpy arrays of positions.

Proposers that prove something about a kernel's addresses (copy_map: a copy is a bijection of boxes;
traversal: a reduction walks a permuted box) evaluate its integer and boolean index expressions at many
positions at once: `x0 = xindex % 221`, `tmp2 = tmp0 < tl.full([1, 1], 112896, tl.int32)`, the address
`in_ptr0 + (...)`. Division and remainder are Triton's (C's: towards zero), not numpy's floor, so a
negative intermediate gives the value the GPU computes.
"""
from __future__ import annotations

import ast

import numpy as np

from kernelopt.inductor_source import dotted_name, expression_excerpt, pointer_base, strip_heuristics

X_ROOT, R_ROOTS = "xindex", ("r0_index", "rindex")
ROOTS = (X_ROOT, *R_ROOTS)                      # the indices every other index name is computed from


def truncdiv(a, b):
    """Triton's (C's) integer division: rounds toward zero."""
    q = np.abs(a) // np.abs(b)
    return np.where((np.sign(a) * np.sign(b)) < 0, -q, q)


_BINARY = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.BitAnd: np.bitwise_and,
           ast.BitOr: np.bitwise_or, ast.FloorDiv: truncdiv, ast.Mod: lambda a, b: a - b * truncdiv(a, b)}
_COMPARE = {ast.Lt: np.less, ast.LtE: np.less_equal, ast.Gt: np.greater, ast.GtE: np.greater_equal,
            ast.Eq: np.equal, ast.NotEq: np.not_equal}


class IndexEvaluator:
    """Evaluates index expressions over `assigns` (name -> expression, the kernel's single assignments).

    refused  names that must come from `env` (a caller's roots, such as xindex), never from an assignment
    error    the exception class raised for anything else: a loaded value, an unknown name or construct
    """

    def __init__(self, assigns: dict[str, ast.expr], error: type[Exception], refused: tuple[str, ...] = (),
                 what: str = "this proposer"):
        self.assigns, self.error, self.refused, self.what = assigns, error, refused, what

    def value(self, node: ast.expr, env: dict):
        """The value of `node`; `env` holds the roots' arrays and collects every name computed on the way."""
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            if node.id in self.refused or node.id not in self.assigns:
                raise self.error(f"the index arithmetic reads `{node.id}`, which is not an index")
            if _is_call(self.assigns[node.id], "tl.load"):
                raise self.error(f"an address or mask depends on a loaded value (`{node.id}`)")
            env[node.id] = self.value(self.assigns[node.id], env)
            return env[node.id]
        if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int)):
            return np.int64(node.value) if not isinstance(node.value, bool) else np.bool_(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = self.value(node.left, env), self.value(node.right, env)
            if isinstance(node.op, (ast.FloorDiv, ast.Mod)) and np.any(np.asarray(right) == 0):
                raise self.error(f"line {getattr(node, 'lineno', '?')}: `{expression_excerpt(node, 60)}` divides by zero")
            return _BINARY[type(node.op)](left, right)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.value(node.operand, env)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.Not)):
            return ~np.asarray(self.value(node.operand, env), bool)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
            return _COMPARE[type(node.ops[0])](self.value(node.left, env), self.value(node.comparators[0], env))
        if isinstance(node, ast.Subscript):           # `tl.full([XBLOCK], True, tl.int1)[:]`: a shape annotation
            return self.value(node.value, env)
        if _is_call(node, "tl.full") and len(node.args) >= 2:
            return self.value(node.args[1], env)
        if _is_call(node, "tl.where") and len(node.args) == 3:
            return np.where(self.value(node.args[0], env), self.value(node.args[1], env),
                            self.value(node.args[2], env))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to":
            return self.value(node.func.value, env)   # an integer cast of an index keeps its value
        raise self.error(f"line {getattr(node, 'lineno', '?')}: `{expression_excerpt(node, 60)}` is not index arithmetic "
                         f"{self.what} reads")


def parse_kernel(source: str, name: str, error: type[Exception]) -> tuple[ast.Module, ast.FunctionDef]:
    """The kernel's source parsed (Inductor's autotuning decorator dropped) and its function, or error(why)."""
    try:
        tree = ast.parse(strip_heuristics(source))
    except SyntaxError as err:
        raise error(f"its source does not parse ({err.msg})") from None
    function = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if function is None:
        raise error(f"no function named {name} in its source")
    return tree, function


def single_assignments(function: ast.FunctionDef) -> dict[str, ast.expr]:
    """name -> the expression of its first single-name assignment, loop bodies included (Inductor assigns
    each index name once)."""
    found: dict[str, ast.expr] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found.setdefault(node.targets[0].id, node.value)
    return found


def straight_line(function: ast.FunctionDef, error: type[Exception]):
    """(assignments by name, the loads assigned to a name by that name in program order, the `tl.store` calls) of a
    kernel body of single-name assignments and stores, a docstring skipped; error(why) for any other statement or a
    name assigned twice. A load inside an expression (`tl.load(...).to(tl.float32)`) is not among the loads: callers
    that must see every one walk the function."""
    assigns: dict[str, ast.expr] = {}
    loads: dict[str, ast.Call] = {}
    stores: list[ast.Call] = []
    for statement in function.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue     # a docstring
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if len(targets) != 1 or not isinstance(targets[0], ast.Name) or statement.value is None:
                raise error(f"line {statement.lineno}: an assignment to more than one name")
            if targets[0].id in assigns:
                raise error(f"line {statement.lineno}: `{targets[0].id}` is assigned twice")
            assigns[targets[0].id] = statement.value
            if _is_call(statement.value, "tl.load"):
                loads[targets[0].id] = statement.value
        elif isinstance(statement, ast.Expr) and _is_call(statement.value, "tl.store"):
            stores.append(statement.value)
        else:
            raise error(f"line {statement.lineno}: a {type(statement).__name__} statement (not straight-line "
                        "loads, index arithmetic and stores)")
    return assigns, loads, stores


def pointer_of(node: ast.expr | None, what: str, error: type[Exception]) -> tuple[str, ast.expr]:
    """`(param, offset)` of a load's or store's address (`param + offset`); error(why) for any other form."""
    found = pointer_base(node)
    if found is None:
        raise error(f"the {what} address is not `parameter + offset`")
    return found


def index_env(xs: np.ndarray, rs: np.ndarray, x_numel: int, r_numel: int, bound: dict | None = None) -> dict:
    """The roots' values for IndexEvaluator.value: x indices `xs` and r indices `rs` (broadcast against
    each other), the kernel's extents, and `bound` names taking given values."""
    return {"xindex": xs, "r0_index": rs, "rindex": rs, "xnumel": np.int64(x_numel), "r0_numel": np.int64(r_numel),
            **(bound or {})}


def _is_call(node, name: str) -> bool:
    return isinstance(node, ast.Call) and dotted_name(node.func) == name
