"""The verifier: structural and semantic checks with located diagnostics.

Errors: unknown `ko.*` op, wrong op shape (results, symbol, callee, argument count, required
attributes), use of an undefined value, use before definition, def-use links out of step with the
arguments (a use a value does not list, or a listed use by an op no longer in the module: an edit that
bypassed `Module.erase` / `replace` / `Op.set_arg`), unknown kernel symbol, launch argument
count or type mismatch with the kernel signature, use after free, write into a view of a freed
buffer. Warnings: a kernel that is never launched, a buffer allocated but never used.
"""
from __future__ import annotations

from .core import Module, Op, Value
from .diagnostics import Diagnostics
from .effects import effects, launch_params, storage_root
from .user_errors import IRError
from .ops import OP_KINDS
from .types import ScalarType, TensorType, short_dtype

# Triton signature pointer element types -> torch dtype names.
_TRITON_PTR_DTYPES = {
    "fp64": "float64", "fp32": "float32", "fp16": "float16", "bf16": "bfloat16",
    "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8", "i1": "bool",
    "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2",
}
_TRITON_SCALARS = {"i1", "i8", "i16", "i32", "i64", "u32", "u64", "fp16", "bf16", "fp32", "fp64", "constexpr"}


class VerificationError(IRError):
    def __init__(self, diagnostics: list):
        self.diagnostics = diagnostics
        super().__init__("\n".join(str(d) for d in diagnostics))


def verify(module: Module, diags: Diagnostics | None = None) -> Diagnostics:
    diags = diags if diags is not None else Diagnostics()
    _Verifier(module, diags).run()
    return diags


def verify_or_raise(module: Module) -> None:
    errors = verify(module).errors
    if errors:
        raise VerificationError(errors)


class _Verifier:
    def __init__(self, module: Module, diags: Diagnostics):
        self.module = module
        self.diags = diags
        self.kernels = module.kernel_table()
        self.position = {id(op): i for i, op in enumerate(module.body)}
        self.freed: dict[int, Op] = {}   # id(storage root) -> the free op

    def run(self) -> None:
        seen_kernels: set[str] = set()
        for op in self.module.kernels:
            self.check_shape(op)
            if op.symbol in seen_kernels:
                self.diags.error(f"kernel @{op.symbol} is defined twice", op)
            seen_kernels.add(op.symbol or "")
        launched = set()
        for op in self.module.body:
            self.check_shape(op)
            self.check_operands_defined(op)
            if op.name == "ko.launch":
                launched.add(op.symbol)
                self.check_launch(op)
            self.check_freed(op)
        self.check_use_lists()
        self.check_args()
        for op in self.module.kernels:
            if op.symbol not in launched:
                self.diags.warning(f"kernel @{op.symbol} is never launched", op)
        for op in self.module.body:
            if op.name == "ko.alloc" and op.results and not op.results[0].uses:
                self.diags.warning(f"buffer %{op.results[0].name} is allocated but never used", op)

    # -- shape ---------------------------------------------------------------------------------
    def check_shape(self, op: Op) -> None:
        kind = OP_KINDS.get(op.name)
        if kind is None:
            if op.name.startswith("ko."):
                known = ", ".join(sorted(OP_KINDS))
                self.diags.error(f"unknown op '{op.name}' (known ops: {known})", op)
            return
        n = len(op.results)
        if kind.results == "none" and n:
            self.diags.error(f"'{op.name}' has no results, but {n} are named", op)
        elif kind.results == "one" and n != 1:
            self.diags.error(f"'{op.name}' must have exactly one result", op)
        elif kind.results == "optional" and n > 1:
            self.diags.error(f"'{op.name}' has at most one result", op)
        if kind.symbol and not op.symbol:
            self.diags.error(f"'{op.name}' needs a symbol (@name)", op)
        if kind.callee and not op.callee:
            self.diags.error(f"'{op.name}' needs a callee string (\"extern_kernels.mm\")", op)
        if len(op.args) < kind.min_args or (kind.max_args is not None and len(op.args) > kind.max_args):
            bound = f"{kind.min_args}" if kind.max_args == kind.min_args else \
                f"{kind.min_args} to {kind.max_args if kind.max_args is not None else 'any'}"
            self.diags.error(f"'{op.name}' takes {bound} arguments, got {len(op.args)}", op)
        for attr in kind.required_attrs:
            if attr not in op.attrs:
                self.diags.error(f"'{op.name}' needs attribute '{attr}'", op)

    # -- SSA -----------------------------------------------------------------------------------
    def check_operands_defined(self, op: Op) -> None:
        here = self.position[id(op)]
        for value in op.operands():
            owner = value.owner
            if owner is None:
                self.diags.error(f"use of undefined value %{value.name}", op)
            elif id(owner) in self.position and self.position[id(owner)] >= here:
                line = f" (defined at line {owner.loc.line})" if owner.loc else ""
                self.diags.error(f"value %{value.name} is used before its definition{line}", op)

    def check_use_lists(self) -> None:
        """Every value argument is listed among its value's uses, and every listed use is such an argument
        of an op in the module: passes read users from the use lists, so a stale entry misleads them."""
        values: dict[int, Value] = {}
        for op in self.module.body:
            for result in op.results:
                values[id(result)] = result
                if result.owner is not op:
                    self.diags.error(f"%{result.name} is a result of this op, but names another op as its owner", op)
            for index, arg in enumerate(op.args):
                if isinstance(arg.value, Value):
                    values[id(arg.value)] = arg.value
                    if not any(user is op and i == index for user, i in arg.value.uses):
                        self.diags.error(f"argument {index} (%{arg.value.name}) is missing from the value's uses", op)
        for value in values.values():
            for user, index in value.uses:
                if id(user) not in self.position:
                    self.diags.error(f"%{value.name} lists a use by a '{user.name}' that is no longer in the module "
                                     "(removed without Module.erase)", value.owner)
                elif index >= len(user.args) or user.args[index].value is not value:
                    self.diags.error(f"%{value.name} lists argument {index} of this op as a use, but that "
                                     "argument is something else", user)

    # -- call(args) ----------------------------------------------------------------------------
    def check_args(self) -> None:
        """`ko.arg N` ops name the positions of call(args) once each, and `num_args` (the emitter unpacks
        that many) counts them: a damaged count would make it unpack a billion placeholders."""
        seen: dict[int, Op] = {}
        for op in self.module.ops_named("ko.arg"):
            index = op.args[0].value if op.args else None
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                self.diags.error(f"ko.arg takes a position of call(args) (an integer >= 0), got {index!r}", op)
            elif index in seen:
                self.diags.error(f"ko.arg {index} is defined twice (call(args) has one argument per position)", op)
            else:
                seen[index] = op
        if "num_args" not in self.module.attrs:
            return
        count = self.module.attrs["num_args"]
        if not isinstance(count, int) or isinstance(count, bool) or count != len(seen) or \
                any(index >= count for index in seen):
            self.diags.error(f"module attribute num_args = {count!r}, but the module has {len(seen)} ko.arg "
                             f"op(s) (positions {_ranges(sorted(seen))}); num_args counts the positions of "
                             "call(args), one ko.arg each", self.module.loc)

    # -- launches ------------------------------------------------------------------------------
    def check_launch(self, op: Op) -> None:
        kernel = self.kernels.get(op.symbol or "")
        if kernel is None:
            known = ", ".join(f"@{k}" for k in sorted(self.kernels)) or "none"
            self.diags.error(f"launch of unknown kernel @{op.symbol} (kernels defined: {known})", op)
            return
        params = launch_params(kernel)
        if params is None:
            return
        if len(op.args) != len(params):
            self.diags.error(
                f"launch of @{op.symbol} passes {len(op.args)} arguments, but its signature takes "
                f"{len(params)} ({', '.join(params)})", op)
            return
        signature = kernel.attrs["signature"]
        for index, (arg, param) in enumerate(zip(op.args, params)):
            problem = _arg_type_problem(arg.value, str(signature.get(param, "")))
            if problem:
                self.diags.error(f"launch of @{op.symbol}: argument {index} ({param}) {problem}", op)

    # -- lifetimes -----------------------------------------------------------------------------
    def check_freed(self, op: Op) -> None:
        writes = {id(storage_root(v)) for v in effects(op, self.module).writes}
        for value in op.operands():
            root = storage_root(value)
            freed_by = self.freed.get(id(root))
            if freed_by is None:
                continue
            line = f" at line {freed_by.loc.line}" if freed_by.loc else ""
            if id(root) in writes and value is not root:
                self.diags.error(f"write into %{value.name}, a view of %{root.name}, which was freed{line}", op)
            else:
                self.diags.error(f"use of %{value.name} after %{root.name} was freed{line}", op)
        if op.name == "ko.free" and op.args and isinstance(op.args[0].value, Value):
            self.freed.setdefault(id(storage_root(op.args[0].value)), op)


def _arg_type_problem(value, sig_type: str) -> str | None:
    if sig_type.startswith("*"):
        if not isinstance(value, Value):
            return f"must be a tensor ({sig_type}), got the literal {value!r}"
        if isinstance(value.type, TensorType):
            expected = _TRITON_PTR_DTYPES.get(sig_type[1:])
            if expected and value.type.dtype != expected:
                return (f"must be a {sig_type} tensor, got %{value.name} of dtype "
                        f"{short_dtype(value.type.dtype)}")
        elif isinstance(value.type, ScalarType):
            return f"must be a tensor ({sig_type}), got the scalar %{value.name}"
        return None
    if sig_type in _TRITON_SCALARS:
        if isinstance(value, Value) and isinstance(value.type, TensorType):
            return f"must be a scalar ({sig_type}), got the tensor %{value.name}"
    return None


def _ranges(indices: list[int]) -> str:
    """`0-3, 7` for [0, 1, 2, 3, 7] (a damaged index list can be long)."""
    parts, start = [], None
    for i, index in enumerate(indices):
        if start is None:
            start = index
        if i + 1 == len(indices) or indices[i + 1] != index + 1:
            parts.append(f"{start}" if start == index else f"{start}-{index}")
            start = None
    return ", ".join(parts) or "none"
