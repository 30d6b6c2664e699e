"""Read a kernel's `@triton_heuristics.<kind>(...)` decorator without executing any of it.

Inductor writes the decorator's arguments as plain data: literals, lists/tuples/dicts/sets (`set()`
for an empty one), a negative number, `DeviceProperties(k=v, ...)`, members of its hint enums
(`ReductionHint.INNER`, `TileHint.SQUARE`, `AutotuneHint.ONE_ELEMENT_PER_THREAD`), `inf`/`nan` and
`__file__`. Only that grammar is evaluated here, by walking the syntax tree: anything else (a call of
`__import__`, an attribute of a literal such as `().__class__`, a lambda, a comprehension, `:=`, an
operator such as `**`) is refused with a located `DecoratorRefused`, because the module was not
written by Inductor, and reading it (lift, emit, optimize's analysis) must never run its code.

Inductor's heuristic still decides the config list: `InductorDecorator.config_list` calls the real
`triton_heuristics.<kind>` (the kind checked against an allow-list) with the safely evaluated values.
"""
from __future__ import annotations

import ast
import contextlib
import math
from dataclasses import dataclass
from typing import Any

from kernelopt.errors import InputError
from kernelopt.inductor_source import code_construct, expression_excerpt, parse_python, text_excerpt

# The heuristics Inductor's kernels are decorated with; only these are ever called.
HEURISTIC_KINDS = ("pointwise", "reduction", "persistent_reduction", "template", "foreach",
                   "split_scan", "cooperative_reduction", "user_autotune", "fixed_config")
# Deeper nesting than Inductor's (a dict of dicts of lists) is refused before it can exhaust the stack.
_MAX_DEPTH = 32
# Inductor's integers fit in 64 bits (sizes, strides, hashes are strings); a bigger one could only make
# the heuristic's arithmetic slow.
_MAX_INT_BITS = 64
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
              ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitAnd: "&",
              ast.BitXor: "^", ast.MatMult: "@"}


class DecoratorRefused(InputError):
    """The decorator holds something Inductor never writes: nothing of it was evaluated."""


class UnevaluableKeyword(InputError):
    """A keyword in Inductor's grammar that this torch cannot build (e.g. a `DeviceProperties` field
    it does not know): callers that can do without the keyword skip it."""


@dataclass(frozen=True)
class DecoratorOrigin:
    """Where the decorator's text sits, for messages: `file:line` of its first line (the text starts at the
    beginning of that line, as Inductor writes it); or, when only the kernel's line is known (a .kir file
    keeps the source as an escaped string), that line and `column` plus `source_line`, the decorator's
    first line within the kernel's source."""

    file: str
    line: int = 1
    source_line: int | None = None
    column: int | None = None

    def where(self, decorator_line: int, decorator_column: int | None = None) -> str:
        """`file:line:col` of line `decorator_line`, column `decorator_column` (1-based) of the decorator."""
        if self.source_line is None:
            return _where(self.file, self.line + decorator_line - 1, decorator_column)
        return _where(self.file, self.line, self.column)

    def detail(self, decorator_line: int, decorator_column: int | None = None) -> str:
        if self.source_line is None:
            return ""
        column = "" if decorator_column is None else f", column {decorator_column}"
        return f" (line {self.source_line + decorator_line - 1}{column} of its source)"


def _where(file: str, line: int, column: int | None) -> str:
    return f"{file}:{line}" if column is None else f"{file}:{line}:{column}"


def _hint_enums() -> dict[str, Any]:
    # lazy: torch._inductor imports triton, which must load after the CPU shims set TRITON_INTERPRET
    from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint

    return {"ReductionHint": ReductionHint, "TileHint": TileHint, "AutotuneHint": AutotuneHint}


def _device_properties() -> type:
    # lazy: as _hint_enums
    from torch._inductor.runtime.hints import DeviceProperties

    return DeviceProperties


class InductorDecorator:
    """One `@triton_heuristics.<kind>(...)` decorator, parsed (never executed).

    `text` is the decorator as written (with or without the `@`); `kernel` names it in messages;
    `file_value` is what `__file__` stands for (Inductor passes it as `filename=`, used for caching only).
    """

    def __init__(self, text: str, kernel: str, origin: DecoratorOrigin | None = None,
                 file_value: str = "<kernelopt-emit>"):
        self.kernel = kernel
        self.origin = origin or DecoratorOrigin(f"<kernel {kernel}>")
        self.file_value = file_value
        call = self._parse(text)
        target = call.func if isinstance(call, ast.Call) else call
        dotted = _dotted(target)
        if not isinstance(call, ast.Call) or not dotted.startswith("triton_heuristics.") \
                or not dotted.split(".", 1)[1].isidentifier() or dotted.split(".", 1)[1].startswith("_"):
            raise DecoratorRefused(self._prefix_at(call) + f" is `{text_excerpt(text.strip())}`, not a call "
                                   "`@triton_heuristics.<kind>(...)` as Inductor writes it; refusing to evaluate it")
        self.kind = dotted.split(".", 1)[1]
        self._call = call
        for keyword in call.keywords:
            if keyword.arg is None:
                raise self._refused(keyword.value, "`**` unpacking")
        if any(isinstance(a, ast.Starred) for a in call.args):
            raise self._refused(call, "`*` unpacking")
        for node in list(call.args) + [k.value for k in call.keywords]:
            self._check(node)   # refuse the whole decorator before any of it is used

    def _parse(self, text: str) -> ast.expr:
        expression = text.strip().lstrip("@")
        self._lines = expression.split("\n")
        # Columns are the text's as written: its first line lost its indentation and `@` to the parse.
        removed = text[:len(text) - len(text.lstrip())]
        removed += text.lstrip()[:len(text.lstrip()) - len(text.lstrip().lstrip("@"))]
        self._first_line_shift = len(removed) - (removed.rfind("\n") + 1)
        try:
            tree = parse_python(expression, f"<decorator of {self.kernel}>")
        except SyntaxError as err:
            line = err.lineno or 1
            raise DecoratorRefused(self._prefix(line, self._column(line, err.offset or 1)) + " is not a Python "
                                   f"expression ({err.msg}); regenerate the module with torch.compile") from None
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
            raise DecoratorRefused(self._prefix(1, self._column(1, 1)) + " is not one Python expression; "
                                   "regenerate the module with torch.compile")
        return tree.body[0].value

    # -- public ---------------------------------------------------------------------------------
    def keywords(self, skip_unevaluable: bool = False) -> dict[str, Any]:
        """Keyword name -> value, freshly built (the heuristic may mutate what it is given)."""
        found = {}
        for keyword in self._call.keywords:
            try:
                found[keyword.arg] = self._value(keyword.value)
            except UnevaluableKeyword:
                if not skip_unevaluable:
                    raise
        return found

    def positional(self) -> list[Any]:
        return [self._value(node) for node in self._call.args]

    def where_keyword(self, keyword: str, key: str | None = None) -> str:
        """`file:line:col` of keyword `keyword`'s value, or of its entry `key` when that value is a dict
        holding it (else of the call), plus the place within a .kir kernel's source: for errors in what
        the decorator declares but other code computes from (a launch grid, from `inductor_meta`)."""
        node: ast.AST = self._call
        value = next((k.value for k in self._call.keywords if k.arg == keyword), None)
        if value is not None:
            node = value
            if isinstance(value, ast.Dict) and key is not None:
                node = next((v for k, v in zip(value.keys, value.values)
                             if isinstance(k, ast.Constant) and k.value == key), value)
        line, column = self._place(node)
        return self.origin.where(line, column) + self.origin.detail(line, column)

    def config_list(self) -> list:
        """The triton `Config`s Inductor's heuristic would autotune over: the real
        `triton_heuristics.<kind>` called with the evaluated arguments. [] for a kind not on the
        allow-list, a keyword this torch cannot build, or a heuristic that fails here (e.g. it needs
        a GPU driver): callers then fall back to the size hints."""
        if self.kind not in HEURISTIC_KINDS:
            return []
        # lazy: as _hint_enums
        from torch._inductor.runtime import triton_heuristics

        heuristic = getattr(triton_heuristics, self.kind, None)
        if heuristic is None:   # a kind this torch does not have
            return []
        try:
            args, keywords = self.positional(), self.keywords()
        except UnevaluableKeyword:
            return []
        captured: list = []
        try:
            with _capturing_configs(triton_heuristics, captured):
                heuristic(*args, **keywords)
        except Exception:  # Inductor's own heuristic failing here (no GPU): not the input's fault
            return []
        return list(captured[0]) if captured else []

    # -- checking: the grammar ------------------------------------------------------------------
    def _check(self, node: ast.AST, depth: int = 0) -> None:
        if depth > _MAX_DEPTH:
            raise self._refused(node, f"nesting deeper than {_MAX_DEPTH} levels")
        if isinstance(node, ast.Constant):
            self._check_constant(node)
        elif isinstance(node, ast.Name):
            if node.id not in ("inf", "nan", "__file__"):
                raise self._refused(node, f"`{node.id}`")
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, ast.USub) or not _is_number_literal(node.operand):
                raise self._refused(node, f"`{expression_excerpt(node)}`")
            self._check(node.operand, depth + 1)
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    raise self._refused(element, "`*` unpacking")
                self._check(element, depth + 1)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if key is None:
                    raise self._refused(value, "`**` unpacking")
                self._check(key, depth + 1)
                self._check(value, depth + 1)
        elif isinstance(node, ast.Call):
            self._check_call(node, depth)
        elif isinstance(node, ast.Attribute):
            base = node.value.id if isinstance(node.value, ast.Name) else None
            if base not in ("ReductionHint", "TileHint", "AutotuneHint"):
                raise self._refused(node, _describe(node))
            if node.attr not in _hint_enums()[base].__members__:   # members only: never `__class__`
                raise self._refused(node, f"`{base}.{node.attr}`, not a member of {base}")
        else:
            raise self._refused(node, _describe(node))

    def _check_constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _MAX_INT_BITS:
            raise self._refused(node, f"an integer of {len(str(abs(value)))} digits")
        if value is not None and not isinstance(value, (bool, int, float, str)):
            raise self._refused(node, f"the constant `{text_excerpt(repr(value))}`")

    def _check_call(self, node: ast.Call, depth: int) -> None:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name == "set" and not node.args and not node.keywords:
            return
        if name == "DeviceProperties" and not node.args and all(k.arg for k in node.keywords):
            for keyword in node.keywords:
                self._check(keyword.value, depth + 1)
            return
        if name in ("set", "DeviceProperties"):
            raise self._refused(node, f"`{name}(...)` with arguments other than "
                                f"{'none' if name == 'set' else 'keywords'}")
        raise self._refused(node, _describe(node))

    # -- evaluating: only after the whole decorator passed _check -------------------------------
    def _value(self, node: ast.AST) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return {"inf": math.inf, "nan": math.nan, "__file__": self.file_value}[node.id]
        if isinstance(node, ast.UnaryOp):
            return -self._value(node.operand)
        if isinstance(node, ast.List):
            return [self._value(e) for e in node.elts]
        if isinstance(node, ast.Tuple):
            return tuple(self._value(e) for e in node.elts)
        if isinstance(node, ast.Set):
            return self._hashable(node, lambda: {self._value(e) for e in node.elts})
        if isinstance(node, ast.Dict):
            pairs = list(zip(node.keys, node.values))
            return self._hashable(node, lambda: {self._value(k): self._value(v) for k, v in pairs})
        if isinstance(node, ast.Call):
            if node.func.id == "set":
                return set()
            fields = {k.arg: self._value(k.value) for k in node.keywords}
            try:
                return _device_properties()(**fields)
            except TypeError as err:   # a field another torch version has
                raise UnevaluableKeyword(self._prefix_at(node) + f" has a DeviceProperties this torch "
                                         f"cannot build ({err})") from None
        if isinstance(node, ast.Attribute):
            return _hint_enums()[node.value.id].__members__[node.attr]
        raise AssertionError(f"unchecked node {type(node).__name__}")   # _check refuses every other node

    def _hashable(self, node: ast.AST, build):
        try:
            return build()
        except TypeError:   # a list as a dict key or set element
            raise self._refused(node, f"`{expression_excerpt(node)}`, a set or dict key that is not hashable")

    # -- messages -------------------------------------------------------------------------------
    def _prefix(self, line: int, column: int) -> str:
        """`file:line:col: decorator of kernel K`, for line and column (1-based) of the decorator as written."""
        return (f"{self.origin.where(line, column)}: decorator of kernel {self.kernel}"
                f"{self.origin.detail(line, column)}")

    def _prefix_at(self, node: ast.AST) -> str:
        return self._prefix(*self._place(node))

    def _place(self, node: ast.AST) -> tuple[int, int]:
        """Line and column (1-based) of `node` in the decorator as written."""
        line = getattr(node, "lineno", 1)
        # ast counts columns in UTF-8 bytes; messages count characters, as the parsers' columns do
        text = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
        chars = len(text.encode()[:getattr(node, "col_offset", 0)].decode("utf-8", "replace"))
        return line, self._column(line, chars + 1)

    def _column(self, line: int, column: int) -> int:
        """Column `column` (1-based) of line `line` of the parsed text, on that line as written."""
        return column + (self._first_line_shift if line == 1 else 0)

    def _refused(self, node: ast.AST, what: str) -> DecoratorRefused:
        return DecoratorRefused(f"{self._prefix_at(node)} uses {what}, which Inductor never writes; refusing to "
                                "evaluate it (KernelOPT reads only modules torch.compile wrote: regenerate it)")


@contextlib.contextmanager
def _capturing_configs(triton_heuristics, captured: list):
    """Make Inductor's heuristic hand us its config list instead of building an autotuner."""
    original = triton_heuristics.cached_autotune

    def capture(size_hints, configs, *args, **kwargs):
        captured.append(list(configs))
        return lambda fn: fn

    triton_heuristics.cached_autotune = capture
    try:
        yield
    finally:
        triton_heuristics.cached_autotune = original


def _is_number_literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("inf", "nan") or (
        isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool))


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id] + parts[::-1])


def _describe(node: ast.AST) -> str:
    """What the refused expression does, in the terms a reader recognises."""
    construct = code_construct(node)
    if construct:
        return construct
    known = {"inf", "nan", "__file__", "set", "DeviceProperties", "ReductionHint", "TileHint", "AutotuneHint"}
    unknown = sorted((n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id not in known),
                     key=lambda n: (n.lineno, n.col_offset))
    if unknown:
        return f"`{unknown[0].id}`"
    attributes = [n for n in ast.walk(node) if isinstance(n, ast.Attribute)]   # outermost first
    if attributes:
        return f"the attribute `.{attributes[0].attr}` in `{expression_excerpt(node)}`"
    if isinstance(node, ast.BinOp):
        return f"the operator `{_OPERATORS.get(type(node.op), '?')}` in `{expression_excerpt(node)}`"
    return f"`{expression_excerpt(node)}`"
