"""Lift an Inductor output module (Python text) into a `ko` IR module.

The module is read with `ast`, never executed. Module-level `async_compile.*` calls become kernel
definitions; the body of `call(args)` (a function, or `Runner.call` since torch 2.9) is lifted
statement by statement, with graph partitions (`self.partitions[i](partition_i_args)`) inlined in
place and their ops marked `partition = i`. Conventions: docs/IR.md, "Lifting conventions".
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from kernelopt.errors import InputError
from kernelopt.inductor_source import dotted_name, parse_python
from kernelopt.ir.callees import library_callee
from kernelopt.ir.core import Arg, Location, Module, Op, Value
from kernelopt.ir.diagnostics import Diagnostics
from kernelopt.ir.effects import launch_params, storage_root
from kernelopt.ir.types import TUPLE, ScalarType, TensorType, Type

from .expressions import ExpressionLifting
from .kernel_defs import extra_launcher_args, is_async_compile_call, lift_kernel
from . import emitted_module
from .provenance import parse_provenance, torch_version_of_capture
from .pyexpr import SourceText, all_ints, literal, subscripted_names, torch_dtype
from .scope import ArgList, Scope, Stream, Symbol

_ALLOCATORS = {"empty_strided_cuda": "cuda", "empty_strided_cpu": "cpu", "empty_strided_xpu": "xpu",
               "empty_strided_mtia": "mtia", "empty_strided_cpu_pinned": "cpu", "empty_strided": None,
               "empty_strided_p2p": None, "torch.empty_strided": None}
_DEVICE_GUARDS = ("torch.cuda._DeviceGuard", "torch.xpu._DeviceGuard", "torch.cuda.device", "torch.mtia._DeviceGuard")
_IGNORED_CALLS = ("torch.cuda.set_device", "torch.xpu.set_device", "torch.mtia.set_device",
                  "torch._C._cuda_setDevice")   # an emitted module sets the device through the C call
_STREAM_GETTERS = ("get_raw_stream", "torch.cuda.current_stream", "torch._C._cuda_getCurrentRawStream")
_MODULE_NAME = re.compile(r"[^A-Za-z0-9_.$\-]")


def module_name(filename: str) -> str:
    stem = Path(filename).name
    stem = stem[:-3] if stem.endswith(".py") else stem
    name = _MODULE_NAME.sub("_", stem) or "module"
    return name if re.match(r"[A-Za-z_$]", name) else "_" + name


class Lifter(ExpressionLifting):
    def __init__(self, text: str, filename: str, diagnostics: Diagnostics):
        self.src = SourceText(text)
        self.filename = filename
        self.diags = diagnostics
        self.module = Module(module_name(filename))
        self.kernels: dict[str, Op] = {}
        self.functions: dict[str, ast.FunctionDef] = {}
        self.partition_names: list[str] = []
        self.used_names: set[str] = set()
        self.view_counts: dict[str, int] = {}
        self.dtype_hints: dict[int, str] = {}   # id(value) -> dtype its type would have, once sizes are known
        self.device = "cpu"
        self.symbolic = False
        self.symbols: dict[str, str] = {}
        self.last_line = 0
        self.pending_provenance: dict[str, Any] | None = None
        self.partitions_seen: set[int] = set()
        self.launch_objects: dict[str, emitted_module.LaunchObject] = {}   # a module KernelOPT emitted
        self.rewrite_runs: dict[str, str] = {}  # its `_rw_NAME_run` functions -> NAME, the rewrite's kernel
        self.arg_values: dict[int, Value] = {}  # position in call(args) -> its ko.arg result

    # -- entry ---------------------------------------------------------------------------------
    def lift(self) -> Module:
        tree = self._parse()
        call = self._discover(tree)
        self.module.loc = self.location(call)  # module-level diagnostics point at call(args)
        arg_types = self._get_args_types()
        self.device = self._module_device(arg_types)
        arg_types = [TensorType(t.sizes, t.strides, t.dtype, t.offset, self._type_device(t.device))
                     if isinstance(t, TensorType) else t for t in arg_types]
        for op in self.kernels.values():
            self.module.add_kernel(op)
        scope = Scope(params=[a.arg for a in call.args.args if a.arg != "self"])
        scope.tuples = subscripted_names(call)
        self._arg_types = arg_types
        self.last_line = call.body[0].lineno - 1 if call.body else call.lineno
        self.lift_block(call.body, scope)
        self.module.attrs = self._module_attrs(scope)
        return self.module

    def _parse(self) -> ast.Module:
        try:
            return parse_python(self.src.text, self.filename)
        except SyntaxError as err:
            col = err.offset if err.offset is not None else 1
            raise InputError(f"{self.filename}:{err.lineno or 1}:{col}: invalid Python syntax: "
                             f"{err.msg}; expected an Inductor output module") from None

    def _discover(self, tree: ast.Module) -> ast.FunctionDef:
        call = None
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and is_async_compile_call(stmt.value):
                target = stmt.targets[0]
                if isinstance(target, ast.Name):
                    self._add_kernel(target.id, stmt.value, self.location(stmt))
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[stmt.name] = stmt  # type: ignore[assignment]
                if stmt.name == "call":
                    call = stmt
            elif isinstance(stmt, ast.ClassDef):
                for item in stmt.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "call" and call is None:
                        call = item
            elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and \
                    dotted_name(stmt.value.func) == "Runner":
                for kw in stmt.value.keywords:
                    if kw.arg == "partitions" and isinstance(kw.value, (ast.List, ast.Tuple)):
                        self.partition_names = [dotted_name(e) for e in kw.value.elts]
        if emitted_module.is_emitted_module_text(self.src.text):
            self._discover_emitted(tree)
        markers = ("async_compile" in self.src.text or "extern_kernels" in self.src.text or bool(self.launch_objects)
                   or bool(self.rewrite_runs))
        if call is None or not markers:
            missing = "`call(args)` function" if call is None else "`async_compile`/`extern_kernels` markers"
            raise InputError(
                f"{self.filename}: not an Inductor output module: found no {missing} (expected the "
                "Python module torch.compile writes: kernels defined with async_compile.triton(...) and "
                "a call(args) function that launches them; capture one with `kernelopt capture` or "
                "torch._inductor.utils.run_and_get_code)")
        return call  # type: ignore[return-value]

    def _discover_emitted(self, tree: ast.Module) -> None:
        """A module KernelOPT emitted: its `_Launch` objects, and its @triton.jit kernels as Inductor defined
        them (see emitted_module.py)."""
        lines = self.src.text.splitlines()
        self.launch_objects = emitted_module.launch_objects(tree, lines)
        launched = {obj.kernel for obj in self.launch_objects.values()}
        for name, (call, line) in emitted_module.kernel_definitions(tree, lines, launched).items():
            self._add_kernel(name, call, Location(self.filename, line))
        for run, (name, source) in emitted_module.rewrite_runs(tree, lines).items():
            # as check-legality committed it: a kernel of kind "candidate" holding the candidate source
            self.kernels[name] = Op("ko.kernel", symbol=name, attrs={"kind": "candidate", "source": source})
            self.rewrite_runs[run] = name

    def _add_kernel(self, name: str, call: ast.Call, loc: Location) -> None:
        info = lift_kernel(name, call, loc)
        for message in info.warnings:
            self.diags.warning(message, loc)
        if name in self.kernels:
            self.diags.warning(f"kernel {name} is defined twice; the later definition is kept", loc)
        self.kernels[name] = info.op

    # -- module facts --------------------------------------------------------------------------
    def _get_args_types(self) -> list[Type | None]:
        fn = self.functions.get("get_args")
        if fn is None:
            return []
        types: dict[str, Type | None] = {}
        order: list[str] = []
        for stmt in fn.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                types[stmt.targets[0].id] = self._example_type(stmt.value)
            elif isinstance(stmt, ast.Return) and isinstance(stmt.value, (ast.List, ast.Tuple)):
                order = [e.id if isinstance(e, ast.Name) else "" for e in stmt.value.elts]
        return [types.get(name) for name in order]

    def _example_type(self, value: ast.AST) -> Type | None:
        if isinstance(value, ast.Constant) and isinstance(value.value, (int, float)):
            return ScalarType("bool" if isinstance(value.value, bool) else
                              "int64" if isinstance(value.value, int) else "float64")
        if isinstance(value, ast.Call) and dotted_name(value.func).endswith("rand_strided"):
            kw = {k.arg: k.value for k in value.keywords if k.arg}
            sizes, strides = (literal(a) for a in value.args[:2]) if len(value.args) >= 2 else (None, None)
            dtype_node = kw.get("dtype", value.args[2] if len(value.args) > 2 else None)  # emitted modules: positional
            dtype = torch_dtype(dtype_node) if dtype_node is not None else None
            device = literal(kw["device"]) if "device" in kw else "cpu"
            if all_ints(sizes) and all_ints(strides):
                return TensorType(tuple(sizes), tuple(strides), dtype.name if dtype else "float32", 0,
                                  _normal_device(str(device)))
        return None

    def _module_device(self, arg_types: list[Type | None]) -> str:
        for t in arg_types:
            if isinstance(t, TensorType) and t.device:
                return t.device
        if "empty_strided_cuda(" in self.src.text or "device_str='cuda'" in self.src.text:
            return "cuda:0"
        if "empty_strided_xpu(" in self.src.text:
            return "xpu:0"
        return "cpu"

    def _module_attrs(self, scope: Scope) -> dict[str, Any]:
        attrs: dict[str, Any] = {"source": "inductor", "device": self.device}
        version = torch_version_of_capture(self.filename)
        if version:
            attrs["torch"] = version
        attrs["num_args"] = len(self.module.ops_named("ko.arg"))
        if self.partition_names or self.partitions_seen:
            attrs["partitions"] = max(len(self.partition_names), len(self.partitions_seen))
        attrs["file"] = self.filename
        if self.symbolic:
            attrs["symbolic_shapes"] = True
        if self.symbols:
            attrs["symbols"] = dict(self.symbols)
        return attrs

    def _type_device(self, device: str | None) -> str | None:
        """A TensorType's device: None when it is the module's."""
        if device is None:
            return None
        device = _normal_device(device)
        return None if device == self.device else device

    # -- naming and emitting -------------------------------------------------------------------
    def fresh(self, base: str) -> Value:
        name = base if re.fullmatch(r"[A-Za-z0-9_.$]+", base) else re.sub(r"[^A-Za-z0-9_.$]", "_", base) or "v"
        if name in self.used_names:
            n = 1
            while f"{name}_{n}" in self.used_names:
                n += 1
            name = f"{name}_{n}"
        self.used_names.add(name)
        return Value(name)

    def emit(self, name: str, node: ast.AST, scope: Scope, *, results: list[Value] | None = None,
             args: list[Arg] | None = None, symbol: str | None = None, callee: str | None = None,
             attrs: dict[str, Any] | None = None) -> Op:
        attrs = dict(attrs or {})
        if scope.partition is not None:
            attrs["partition"] = scope.partition
        op = Op(name, results=results or [], args=args or [], symbol=symbol, callee=callee, attrs=attrs,
                loc=self.location(node))
        self.module.append(op)
        return op

    def location(self, node: ast.AST) -> Location:
        """Where `node` starts in the output module: line and (1-based) column, as `.kir` locations."""
        line = getattr(node, "lineno", 0) or 0
        column = getattr(node, "col_offset", None)
        return Location(self.filename, line, column + 1 if column is not None and line else None)

    def warn(self, node: ast.AST, message: str) -> None:
        self.diags.warning(message, self.location(node))

    # -- statements ----------------------------------------------------------------------------
    def lift_block(self, stmts: list[ast.stmt], scope: Scope) -> None:
        i = 0
        while i < len(stmts):
            stmt = stmts[i]
            self._read_comments(stmt.lineno)
            try:
                consumed = self.lift_statement(stmts, i, scope)
            except Exception as err:  # never crash on the unknown: keep the statement as it is
                self.generic(stmt, scope, f"the lifter failed on it: {type(err).__name__}: {err}")
                consumed = 1
            for done in stmts[i:i + consumed]:
                self.last_line = max(self.last_line, getattr(done, "end_lineno", done.lineno) or done.lineno)
            i += consumed

    def _read_comments(self, upto: int) -> None:
        for number in range(self.last_line + 1, upto):
            found = parse_provenance(self.src.line(number))
            if found is not None:
                self.pending_provenance = found

    def _take_provenance(self) -> dict[str, Any]:
        found, self.pending_provenance = self.pending_provenance, None
        return dict(found or {})

    def lift_statement(self, stmts: list[ast.stmt], i: int, scope: Scope) -> int:
        stmt = stmts[i]
        following = stmts[i + 1] if i + 1 < len(stmts) else None
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            return self.lift_call_statement(stmt, stmt.value, None, scope)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            return self.lift_assign(stmt, stmt.targets[0], stmt.value, following, scope)
        if isinstance(stmt, ast.Delete):
            self.lift_delete(stmt, scope)
            return 1
        if isinstance(stmt, ast.With):
            self.lift_with(stmt, scope)
            return 1
        if isinstance(stmt, ast.Return):
            self.lift_return(stmt, scope)
            return 1
        if isinstance(stmt, ast.Pass):
            return 1
        self.generic(stmt, scope, "no lifting rule for this kind of statement")
        return 1

    def lift_with(self, stmt: ast.With, scope: Scope) -> None:
        saved = scope.device_index
        for item in stmt.items:
            expr = item.context_expr
            if isinstance(expr, ast.Call) and dotted_name(expr.func) in _DEVICE_GUARDS and expr.args:
                index = literal(expr.args[0])
                scope.device_index = index if isinstance(index, int) else scope.device_index
            else:
                self.warn(stmt, f"unknown context manager `{self.src.segment(expr)}`: its body is lifted, "
                                "the context itself is dropped")
        self.last_line = stmt.lineno
        self.lift_block(stmt.body, scope)
        scope.device_index = saved

    def lift_return(self, stmt: ast.Return, scope: Scope) -> None:
        node = stmt.value
        elements = node.elts if isinstance(node, (ast.Tuple, ast.List)) else ([] if node is None else [node])
        values = [self.value_of(e, scope) for e in elements]
        if scope.partition is not None:
            scope.returned = values
            return
        self.emit("ko.return", stmt, scope, args=[Arg(v) for v in values])

    def lift_delete(self, stmt: ast.Delete, scope: Scope) -> None:
        for target in stmt.targets:
            names = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            for name_node in names:
                if not isinstance(name_node, ast.Name):
                    self.generic(stmt, scope, "deletes something other than a name")
                    return
                bound = scope.env.pop(name_node.id, None)
                if not isinstance(bound, Value):
                    continue  # streams, symbols, partition argument lists: nothing to free
                if scope.pending_handoff(bound):
                    continue  # handed to a partition, which now owns it
                root = storage_root(bound)
                if any(storage_root(v) is root for v in scope.values()):
                    continue  # the storage is still reachable under another name (a view, an alias)
                self.emit("ko.free", stmt, scope, args=[Arg(bound)])

    def lift_assign(self, stmt: ast.Assign, target: ast.AST, value: ast.AST, following, scope: Scope) -> int:
        if isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts):
            names = [e.id for e in target.elts]  # type: ignore[attr-defined]
            if isinstance(value, ast.Name) and value.id in scope.params:
                self.lift_unpack(stmt, names, scope)
                return 1
            if isinstance(value, ast.Call) and self._partition_index(value.func) is not None:
                self.lift_partition_call(stmt, names, value, scope)
                return 1
            self.generic(stmt, scope, "unpacks something other than call() arguments or a partition's results")
            return 1
        if not isinstance(target, ast.Name):
            self.generic(stmt, scope, "assigns to something other than a name")
            return 1
        name = target.id
        reuse_of = self._reuse_source(stmt, value, following, scope)
        if isinstance(value, ast.Name):
            bound = scope.lookup(value.id)
            if reuse_of is not None and isinstance(bound, Value):
                result = self.fresh(name)
                result.type = bound.type
                self.emit("ko.reuse", stmt, scope, results=[result], args=[Arg(bound)],
                          attrs=_symbolic_layout(bound))
                self._rebind_reused(scope, value.id, name, result)
                return 2
            if isinstance(bound, Value) and isinstance(bound.type, ScalarType) or \
                    (isinstance(bound, Value) and value.id in self._arg_names(scope) and bound.type is None
                     and re.fullmatch(r"[spu]\d+|[a-z]?s\d+", name)):
                self.symbols[name] = value.id
                self.symbolic = True
            if bound is not None:
                scope.env[name] = bound  # an alias: `s77 = arg0_1`
                return 1
        if isinstance(value, ast.Call):
            func = dotted_name(value.func)
            if func in _STREAM_GETTERS:
                index = literal(value.args[0]) if value.args else None
                scope.env[name] = Stream(index)
                return 1
            if func.rsplit(".", 1)[-1] == "reinterpret_tensor" and value.args:
                base = self.value_of(value.args[0], scope)
                if reuse_of is not None and isinstance(base, Value):
                    result = self.view_value(value, base, scope, stmt, name=name, op_name="ko.reuse")
                    self._rebind_reused(scope, reuse_of, name, result)
                    return 2
                scope.env[name] = self.view_value(value, base, scope, stmt, name=name)
                return 1
            return self.lift_call_statement(stmt, value, name, scope)
        if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
            index = literal(value.slice)
            source = scope.lookup(value.value.id)
            if isinstance(index, int) and isinstance(source, Value):
                scope.env[name] = self.getitem(stmt, source, index, scope, name)
                return 1
        if isinstance(value, ast.List) and re.fullmatch(r"partition\d*_args", name):
            scope.env[name] = ArgList([self.value_of(e, scope) for e in value.elts])
            return 1
        static = self.static_value(value, scope)
        if static is not None and not isinstance(value, ast.Constant):
            scope.env[name] = Symbol(str(static))
            self.symbols[name] = str(static)
            self.symbolic = True
            return 1
        if isinstance(value, ast.Constant) and isinstance(value.value, (int, float, bool)):
            scope.env[name] = value.value
            return 1
        self.generic(stmt, scope, "no lifting rule for this assignment")
        return 1

    def _arg_names(self, scope: Scope) -> set[str]:
        return {name for name, v in scope.env.items() if isinstance(v, Value) and v.owner is not None
                and v.owner.name == "ko.arg"}

    def _reuse_source(self, stmt: ast.Assign, value: ast.AST, following, scope: Scope) -> str | None:
        """`new = old; del old  # reuse` (or `new = reinterpret_tensor(old, ...); del old  # reuse`)."""
        if not isinstance(following, ast.Delete) or following.lineno != stmt.lineno:
            return None
        if "# reuse" not in self.src.line(stmt.lineno):
            return None
        source = value.args[0] if isinstance(value, ast.Call) and value.args else value
        if not isinstance(source, ast.Name):
            return None
        deleted = [t.id for t in following.targets if isinstance(t, ast.Name)]
        return source.id if deleted == [source.id] else None

    def _rebind_reused(self, scope: Scope, old: str, new: str, result: Value) -> None:
        scope.env.pop(old, None)
        scope.env[new] = result

    def lift_unpack(self, stmt: ast.Assign, names: list[str], scope: Scope) -> None:
        if scope.partition is not None:
            inputs = scope.inputs or []
            for index, name in enumerate(names):
                if index < len(inputs):
                    scope.env[name] = inputs[index]
                else:
                    self.warn(stmt, f"partition {scope.partition} unpacks {len(names)} arguments but is "
                                    f"passed {len(inputs)}; `{name}` is unknown")
            return
        repeated = [index for index in range(len(names)) if index in self.arg_values]
        if repeated:  # Inductor unpacks once; a second unpack re-binds names to the same arguments
            self.warn(stmt, f"call(args) is unpacked again; position(s) {', '.join(map(str, repeated))} "
                            "keep their first ko.arg")
        for index, name in enumerate(names):
            if index in self.arg_values:
                scope.env[name] = self.arg_values[index]
                continue
            value = self.fresh(name)
            value.type = self._arg_types[index] if index < len(self._arg_types) else None
            self.emit("ko.arg", stmt, scope, results=[value], args=[Arg(index)])
            scope.env[name] = self.arg_values[index] = value

    # -- partitions ----------------------------------------------------------------------------
    def _partition_index(self, func: ast.AST) -> int | None:
        """`self.partitions[i]` -> i; `partition_i` (a module-level function) -> i."""
        if isinstance(func, ast.Subscript) and dotted_name(func.value) in ("self.partitions", "runner.partitions"):
            index = literal(func.slice)
            return index if isinstance(index, int) else None
        name = dotted_name(func)
        match = re.fullmatch(r"partition_(\d+)", name)
        if match and name in self.functions:
            return int(match.group(1))
        return None

    def _partition_function(self, index: int) -> ast.FunctionDef | None:
        name = self.partition_names[index] if index < len(self.partition_names) else f"partition_{index}"
        return self.functions.get(name) or self.functions.get(f"partition_{index}")

    def lift_partition_call(self, stmt: ast.Assign, names: list[str], call: ast.Call, scope: Scope) -> None:
        index = self._partition_index(call.func)
        function = self._partition_function(index) if index is not None else None
        if function is None or len(call.args) != 1:
            self.generic(stmt, scope, f"graph partition {index} is not defined in this module")
            return
        arg = call.args[0]
        bound = scope.lookup(arg.id) if isinstance(arg, ast.Name) else None
        inputs = bound.values if isinstance(bound, ArgList) else \
            [self.value_of(e, scope) for e in arg.elts] if isinstance(arg, (ast.List, ast.Tuple)) else []
        if isinstance(bound, ArgList):
            bound.values = []  # handed over: a later `del` of these names is a real free again
        inner = Scope(params=[a.arg for a in function.args.args], partition=index, inputs=list(inputs),
                      device_index=scope.device_index)
        inner.tuples = subscripted_names(function)
        self.partitions_seen.add(index)
        saved_line, saved_provenance = self.last_line, self.pending_provenance
        self.last_line = function.body[0].lineno - 1 if function.body else function.lineno
        self.pending_provenance = None
        self.lift_block(function.body, inner)
        self.last_line, self.pending_provenance = saved_line, saved_provenance
        returned = inner.returned or []
        if len(returned) != len(names):
            self.warn(stmt, f"partition {index} returns {len(returned)} values, {len(names)} are unpacked")
        for name, value in zip(names, returned):
            scope.env[name] = value

    # -- calls ---------------------------------------------------------------------------------
    def lift_call_statement(self, stmt: ast.stmt, call: ast.Call, target: str | None, scope: Scope) -> int:
        func = call.func
        name = dotted_name(func)
        if name == "args.clear" or (name.endswith(".clear") and name[:-6] in scope.params):
            return 1
        if name in _IGNORED_CALLS:
            return 1
        if isinstance(func, ast.Attribute) and func.attr == "run" and isinstance(func.value, ast.Name) \
                and func.value.id in self.kernels:
            self.launch(stmt, func.value.id, call, scope)
            return 1
        if isinstance(func, ast.Name) and func.id in self.kernels and target is None:
            self.launch(stmt, func.id, call, scope)
            return 1
        if isinstance(func, ast.Name) and func.id in self.rewrite_runs and target is None:
            self.launch(stmt, self.rewrite_runs[func.id], call, scope)
            return 1
        emitted = emitted_module.launch_call(call, self.launch_objects) if target is None else None
        if emitted is not None and emitted[0].kernel in self.kernels:
            self.launch_emitted(stmt, emitted, scope)
            return 1
        if name in ("assert_size_stride", "torch._C._dynamo.guards.assert_size_stride"):
            self.assert_size_stride(stmt, call, scope)
            return 1
        if name in ("assert_alignment", "torch._C._dynamo.guards.assert_alignment"):
            self.assert_alignment(stmt, call, scope)
            return 1
        if name in _ALLOCATORS and target is not None:
            scope.env[target] = self.alloc(stmt, call, name, target, scope)
            return 1
        if name.rsplit(".", 1)[-1] in ("alloc_from_pool", "_alloc_from_pool") and target is not None:
            scope.env[target] = self.alloc_from_pool(stmt, call, target, scope)
            return 1
        if isinstance(func, ast.Attribute) and func.attr == "copy_" and isinstance(func.value, ast.Name) \
                and target is None and isinstance(scope.lookup(func.value.id), Value) and call.args:
            dst = scope.lookup(func.value.id)
            src = self.value_of(call.args[0], scope)
            attrs = {"non_blocking": literal(call.args[1])} if len(call.args) > 1 else {}
            self.emit("ko.copy", stmt, scope, args=[Arg(dst), Arg(src)], attrs=attrs)
            return 1
        if isinstance(func, ast.Attribute) and func.attr == "zero_" and isinstance(func.value, ast.Name) \
                and target is None and isinstance(scope.lookup(func.value.id), Value) and not call.args:
            # Inductor zeroes a split scan's workspace (the per-block carries) before each launch.
            self.emit("ko.zero", stmt, scope, args=[Arg(scope.lookup(func.value.id))])
            return 1
        if library_callee(name):
            value = self.library_call(stmt, call, library_callee(name), target, scope)
            if target is not None:
                scope.env[target] = value
            return 1
        self.generic(stmt, scope, f"unknown call `{name or self.src.segment(func)}`")
        return 1

    def launch(self, stmt: ast.stmt, kernel_name: str, call: ast.Call, scope: Scope) -> Op:
        kernel = self.kernels[kernel_name]
        positional = [self.value_of(a, scope) for a in call.args]
        attrs: dict[str, Any] = {}
        extra_kwargs = {}
        for kw in call.keywords:
            if kw.arg == "stream":
                attrs["stream"] = self._stream_index(kw.value, scope)
            elif kw.arg:  # e.g. `grid=grid(1024)` (torch <= 2.6): kept as written
                bound = scope.lookup(kw.value.id) if isinstance(kw.value, ast.Name) else None
                extra_kwargs[kw.arg] = self._attr_value(bound) if bound is not None else literal(kw.value)
        extra = extra_launcher_args(kernel)
        params = launch_params(kernel)
        if extra and params is not None and len(positional) == len(params) + len(extra):
            grid = [self._attr_value(v) for v in positional[len(params):]]
            positional = positional[:len(params)]
            attrs["grid"] = grid
            heuristics = kernel.attrs.get("heuristics") or {}
            config = {k: heuristics[k] for k in ("num_warps", "num_stages") if k in heuristics}
            config["grid"] = grid
            attrs["config"] = config
            attrs["config_source"] = "capture"
        if extra_kwargs:
            attrs["run_kwargs"] = extra_kwargs
        attrs.update(self._take_provenance())
        return self.emit("ko.launch", stmt, scope, args=[Arg(v) for v in positional], symbol=kernel_name,
                         attrs=attrs)

    def _stream_index(self, node: ast.expr, scope: Scope) -> int:
        """The CUDA stream a launch names: a `streamN = get_raw_stream(N)` binding or an integer. Anything else
        (a name no `get_raw_stream` bound, an expression) is refused here, at its line: codegen could not
        place the launch on a stream it cannot name."""
        bound = scope.lookup(node.id) if isinstance(node, ast.Name) else None
        if isinstance(bound, Stream):
            return bound.index
        value = literal(node)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise InputError(f"{self.location(node)}: a kernel launch on stream `{self.src.segment(node)}`, which no "
                         "`streamN = get_raw_stream(N)` in call() binds; expected the stream variable Inductor "
                         "writes (fix or re-capture the output module)")

    def launch_emitted(self, stmt: ast.stmt, found, scope: Scope) -> Op:
        """`launch_NAME(stream0, *args)` of an emitted module: a launch with the config its object pins."""
        obj, stream, grid, args = found
        attrs: dict[str, Any] = {"stream": self._stream_index(stream, scope)}
        config = dict(obj.config)
        if grid is not None:
            config["grid"] = [self._attr_value(self.value_of(g, scope)) for g in getattr(grid, "elts", [grid])]
        attrs["config"] = config
        attrs["config_source"] = obj.source
        attrs.update(self._take_provenance())
        return self.emit("ko.launch", stmt, scope, args=[Arg(self.value_of(a, scope)) for a in args],
                         symbol=obj.kernel, attrs=attrs)

    def library_call(self, stmt: ast.stmt, call: ast.Call, callee: str, target: str | None,
                     scope: Scope) -> Value | None:
        args = [Arg(self.value_of(a, scope)) for a in call.args if not isinstance(a, ast.Starred)]
        args += [Arg(self.value_of(kw.value, scope), kw.arg) for kw in call.keywords if kw.arg]
        if any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg is None for kw in call.keywords):
            self.warn(stmt, f"`*args`/`**kwargs` in the call of {callee} are dropped")
        attrs = self._take_provenance()
        packet = callee.split(".")[-2] if callee.count(".") >= 4 else callee.split(".")[-1]
        if callee.startswith("torch.ops.") and packet.endswith("_") and not packet.startswith("_"):
            attrs["mutates"] = [0]  # an in-place aten op writes its first argument
        results = []
        if target is not None:
            result = self.fresh(target)
            if target in scope.tuples:
                result.type = TUPLE
            else:
                dtype = _fallback_result_dtype(packet, _first_dtype(args))
                if dtype:
                    self.dtype_hints[id(result)] = dtype
            results.append(result)
        kind = "ko.extern" if callee.startswith("extern_kernels.") else "ko.call"
        self.emit(kind, stmt, scope, results=results, args=args, callee=callee, attrs=attrs)
        return results[0] if results else None

    def getitem(self, node: ast.AST, source: Value, index: int, scope: Scope, name: str) -> Value:
        result = self.fresh(name)
        call = source.owner
        if index == 0 and call is not None and call.name == "ko.call" and "attention" in (call.callee or ""):
            dtype = _first_dtype(call.args)  # attention's output 0 has the query's dtype
            if dtype:
                self.dtype_hints[id(result)] = dtype
        self.emit("ko.getitem", node, scope, results=[result], args=[Arg(source), Arg(index)])
        return result

    # -- buffers -------------------------------------------------------------------------------
    def alloc(self, stmt: ast.stmt, call: ast.Call, func: str, target: str, scope: Scope) -> Value:
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        sizes = self.static_value(call.args[0], scope) if call.args else None
        strides = self.static_value(call.args[1], scope) if len(call.args) > 1 else None
        dtype_node = call.args[2] if len(call.args) > 2 else kw.get("dtype")
        dtype = torch_dtype(dtype_node) if dtype_node is not None else None
        kind = _ALLOCATORS[func]
        if kind is None:
            device = str(literal(kw["device"])) if "device" in kw else self.device
        elif kind == "cpu":
            device = "cpu"
        else:
            device = f"{kind}:{scope.device_index if scope.device_index is not None else 0}"
        result = self.fresh(target)
        attrs: dict[str, Any] = {}
        if func not in ("empty_strided_cuda", "empty_strided_cpu", "empty_strided"):
            attrs["allocator"] = func
        result.type = self._tensor_type(sizes, strides, dtype.name if dtype else None, 0, device, attrs)
        self.emit("ko.alloc", stmt, scope, results=[result], attrs=attrs)
        return result

    def alloc_from_pool(self, stmt: ast.stmt, call: ast.Call, target: str, scope: Scope) -> Value:
        pool = self.value_of(call.args[0], scope) if call.args else None
        offset = self.static_value(call.args[1], scope) if len(call.args) > 1 else 0
        dtype = torch_dtype(call.args[2]) if len(call.args) > 2 else None
        sizes = self.static_value(call.args[3], scope) if len(call.args) > 3 else None
        strides = self.static_value(call.args[4], scope) if len(call.args) > 4 else None
        attrs: dict[str, Any] = {"pool_offset": offset}
        device = pool.type.device if isinstance(pool, Value) and isinstance(pool.type, TensorType) else None
        result = self.fresh(target)
        result.type = self._tensor_type(sizes, strides, dtype.name if dtype else None, 0, device or self.device, attrs)
        self.emit("ko.alloc", stmt, scope, results=[result], args=[Arg(pool)], attrs=attrs)
        return result

    def view_value(self, call: ast.Call, base: Any, scope: Scope, node: ast.AST, name: str | None = None,
                   op_name: str = "ko.view") -> Value:
        """`reinterpret_tensor(x, sizes, strides, offset)` -> `%x_vN = ko.view %x : T` (or a reuse)."""
        sizes = self.static_value(call.args[1], scope) if len(call.args) > 1 else None
        strides = self.static_value(call.args[2], scope) if len(call.args) > 2 else None
        offset = self.static_value(call.args[3], scope) if len(call.args) > 3 else 0
        base_type = base.type if isinstance(base, Value) else None
        dtype = base_type.dtype if isinstance(base_type, TensorType) else self.dtype_hints.get(id(base))
        device = base_type.device if isinstance(base_type, TensorType) else None
        if name is None:
            base_name = base.name if isinstance(base, Value) else "view"
            count = self.view_counts.get(base_name, 0)
            self.view_counts[base_name] = count + 1
            name = f"{base_name}_v{count}"
        result = self.fresh(name)
        attrs: dict[str, Any] = {}
        result.type = self._tensor_type(sizes, strides, dtype, offset, device or self.device, attrs)
        if result.type is None and dtype is None:
            self.dtype_hints.pop(id(result), None)
        self.emit(op_name, node, scope, results=[result], args=[Arg(base)], attrs=attrs)
        return result

    def _tensor_type(self, sizes, strides, dtype, offset, device, attrs: dict[str, Any]) -> TensorType | None:
        """The result type when everything is known; otherwise the parts go to `attrs`."""
        if all_ints(sizes) and all_ints(strides) and isinstance(offset, int) and dtype:
            return TensorType(tuple(sizes), tuple(strides), dtype, offset, self._type_device(device))
        if not (all_ints(sizes) and all_ints(strides) and isinstance(offset, int)):
            self.symbolic = True
        attrs["sizes"] = list(sizes) if isinstance(sizes, (list, tuple)) else sizes
        attrs["strides"] = list(strides) if isinstance(strides, (list, tuple)) else strides
        if offset != 0:
            attrs["offset"] = offset
        if dtype:
            attrs["dtype"] = dtype
        if self._type_device(device):
            attrs["device"] = self._type_device(device)
        return None

    def assert_size_stride(self, stmt: ast.stmt, call: ast.Call, scope: Scope) -> None:
        value = self.value_of(call.args[0], scope) if call.args else None
        sizes = self.static_value(call.args[1], scope) if len(call.args) > 1 else None
        strides = self.static_value(call.args[2], scope) if len(call.args) > 2 else None
        attrs: dict[str, Any] = {"sizes": list(sizes) if isinstance(sizes, (list, tuple)) else sizes,
                                 "strides": list(strides) if isinstance(strides, (list, tuple)) else strides}
        if len(call.args) > 3:
            attrs["context"] = literal(call.args[3])
        if not (all_ints(sizes) and all_ints(strides)):
            self.symbolic = True
        if isinstance(value, Value) and value.type is None and all_ints(sizes) and all_ints(strides) \
                and id(value) in self.dtype_hints:
            value.type = TensorType(tuple(sizes), tuple(strides), self.dtype_hints[id(value)])
        self.emit("ko.assert_size_stride", stmt, scope, args=[Arg(value)], attrs=attrs)

    def assert_alignment(self, stmt: ast.stmt, call: ast.Call, scope: Scope) -> None:
        value = self.value_of(call.args[0], scope) if call.args else None
        attrs: dict[str, Any] = {"alignment": literal(call.args[1]) if len(call.args) > 1 else None}
        if len(call.args) > 2:
            attrs["context"] = literal(call.args[2])
        self.emit("ko.assert_alignment", stmt, scope, args=[Arg(value)], attrs=attrs)



def _symbolic_layout(value: Value) -> dict[str, Any]:
    """The sizes/strides/dtype attributes of an untyped (symbolic) buffer, for a reuse of it."""
    if value.type is not None or value.owner is None:
        return {}
    return {k: value.owner.attrs[k] for k in ("sizes", "strides", "offset", "dtype", "device")
            if k in value.owner.attrs}


# ATen ops whose result is real for a complex argument (|z|, its phase, its parts) or complex for a real one: the
# result's dtype is not its first argument's (Inductor falls back to them for complex tensors, and its kernels
# read their results as float32: typed complex64, the lifted launches failed the verifier)
_COMPLEX_TO_REAL = {"abs", "angle", "real", "imag", "view_as_real"}
_REAL_TO_COMPLEX = {"view_as_complex"}
_COMPLEX_PARTS = {"complex64": "float32", "complex128": "float64", "complex32": "float16"}


def _fallback_result_dtype(packet: str, first_dtype: str | None) -> str | None:
    """The dtype of an ATen call's result, taken as its first tensor argument's unless the op changes it."""
    if packet in _COMPLEX_TO_REAL and first_dtype in _COMPLEX_PARTS:
        return _COMPLEX_PARTS[first_dtype]
    if packet in _REAL_TO_COMPLEX:
        complex_of = {part: whole for whole, part in _COMPLEX_PARTS.items()}
        return complex_of.get(first_dtype or "")
    return first_dtype


def _first_dtype(args: list[Arg]) -> str | None:
    for arg in args:
        if isinstance(arg.value, Value) and isinstance(arg.value.type, TensorType) and arg.keyword != "out":
            return arg.value.type.dtype
    return None


def _normal_device(device: str) -> str:
    return f"{device}:0" if device in ("cuda", "xpu", "mtia") else device
