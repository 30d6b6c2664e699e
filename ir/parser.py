"""Parse the `.kir` text form (grammar: `kir.lark` beside this file) into a `Module`.

Syntax errors raise `KirParseError` whose message names file:line:column, shows the offending line
and a caret under the column. Semantic problems (a value used before its definition, an unknown
kernel) are not parse errors: the parser builds the module and the verifier reports them.
"""
from __future__ import annotations

import json
import math
import re
import sys
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from .attributes import DType, SymbolRef, TypeAttr
from .core import Arg, Location, Module, Op, Value
from .user_errors import InputError, IRError
from .printer import KIR_VERSION
from .text_input import read_utf8
from .types import OpaqueType, ScalarType, TensorType, torch_dtype_name

# The first line of every file KernelOPT writes with -o (see kernelopt/user_files.py). In a .kir file it
# is read as an empty line, so `kernelopt-opt out.kir` reads back what `kernelopt-opt ... -o out.kir` wrote.
OUTPUT_MARKER = "# kernelopt-output"
# A source line shown under an error is cut to this many characters around the column (kernel sources
# make .kir lines thousands of characters long).
SHOWN_LINE_CHARS = 120


class KirParseError(IRError):
    """A located syntax error in `.kir` text."""

    def __init__(self, message: str, file: str, line: int, column: int | None, source_line: str = ""):
        self.file, self.line, self.column = file, line, column
        where = f"{file}:{line}" + (f":{column}" if column else "")
        text = f"{where}: error: {message}"
        if source_line:
            shown, caret_at = _clip(source_line, column or 1)
            text += f"\n{shown}\n{' ' * (caret_at - 1)}^"
        super().__init__(text)


def _clip(line: str, column: int) -> tuple[str, int]:
    """At most SHOWN_LINE_CHARS of `line` around `column`, with `...` where it was cut; the caret's column."""
    if len(line) <= SHOWN_LINE_CHARS:
        return line, column
    start = max(0, min(column - 1 - SHOWN_LINE_CHARS // 2, len(line) - SHOWN_LINE_CHARS))
    end = start + SHOWN_LINE_CHARS
    head, tail = ("..." if start else ""), ("..." if end < len(line) else "")
    return head + line[start:end] + tail, column - start + len(head)


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = (Path(__file__).with_name("kir.lark")).read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True)


_TENSOR_BODY = re.compile(
    r"tensor<\s*(?P<head>[A-Za-z0-9_]+)\s*,\s*\[(?P<strides>[^\]]*)\]"
    r"(?:\s*,\s*offset=(?P<offset>-?\d+))?(?:\s*,\s*\"(?P<device>[^\"]*)\")?\s*>\Z"
)


def parse_tensor_type(text: str) -> TensorType:
    match = _TENSOR_BODY.match(text)
    if not match:
        raise ValueError(f"malformed tensor type {text!r}: expected tensor<4x8xf32, [8, 1]>")
    *sizes, dtype = match["head"].split("x")
    try:
        sizes_t = tuple(_parse_int(s) for s in sizes)
        strides = tuple(_parse_int(s.strip()) for s in match["strides"].split(",") if s.strip())
        offset = _parse_int(match["offset"] or "0")
    except ValueError as err:
        reason = str(err) if "too large" in str(err) else "sizes and strides must be integers"
        raise ValueError(f"malformed tensor type {text!r}: {reason}") from None
    if len(strides) != len(sizes_t):
        raise ValueError(f"tensor type {text!r} has {len(sizes_t)} sizes but {len(strides)} strides")
    return TensorType(sizes_t, strides, torch_dtype_name(dtype), offset, match["device"])


def _parse_int(text: str) -> int:
    """An integer literal; Python refuses to convert more than a few thousand digits, so say so plainly."""
    try:
        return int(text)
    except ValueError:
        digits = len(text.strip().lstrip("-"))
        if not text.strip().lstrip("-").isdigit():
            raise ValueError(f"{text!r} is not an integer") from None
        raise ValueError(f"integer literal of {digits} digits is too large (at most "
                         f"{sys.get_int_max_str_digits()} digits)") from None


def _decode_string(text: str) -> str:
    """A double-quoted `.kir` string (JSON escapes) as text."""
    try:
        return json.loads(text)
    except ValueError as err:  # a bad escape such as \x41 or \u12
        raise ValueError(f"malformed string literal: {getattr(err, 'msg', err)} (at character "
                         f"{getattr(err, 'pos', 0) + 1} of the string; strings use JSON escapes: "
                         "\\n \\\" \\uXXXX)") from None


def _position(obj) -> tuple[int, int | None]:
    """Line and column of a lark tree or token (1, None when lark kept none)."""
    if isinstance(obj, Token):
        return obj.line or 1, obj.column
    meta = getattr(obj, "meta", None)
    if meta is not None and not meta.empty:
        return meta.line, meta.column
    return 1, None


class _ValueTable:
    """Resolves value names; a name used before (or without) its definition still gets a Value."""

    def __init__(self) -> None:
        self.values: dict[str, Value] = {}
        self.defined: set[str] = set()

    def get(self, name: str) -> Value:
        if name not in self.values:
            self.values[name] = Value(name)
        return self.values[name]

    def define(self, name: str) -> Value | None:
        if name in self.defined:
            return None
        self.defined.add(name)
        return self.get(name)


@v_args(inline=True)
class _AttrBuilder(Transformer):
    """Turns attribute and argument subtrees into Python values."""

    def int(self, tok):
        return _parse_int(tok)

    def float(self, tok):
        return float(tok)

    def true(self):
        return True

    def false(self):
        return False

    def none(self):
        return None

    def inf(self):
        return math.inf

    def neg_inf(self):
        return -math.inf

    def nan(self):
        return math.nan

    def string(self, tok):
        return _decode_string(tok)

    def symbol_ref(self, tok):
        return SymbolRef(str(tok)[1:])

    def dtype(self, tok):
        return DType(str(tok)[len("dtype<"):-1])

    def tensor_attr(self, tok):
        return TypeAttr(parse_tensor_type(str(tok)))

    def list(self, *items):
        return list(items)

    def empty_list(self):
        return []

    def empty_dict(self):
        return {}

    def empty_tuple(self):
        return ()

    def tuple(self, *items):
        return tuple(items)

    def dict(self, d):
        return d

    def attr_dict(self, *entries):
        return dict(entries)

    def entry(self, key, value):
        if isinstance(key, Token) and key.type == "STRING":
            key = _decode_string(key)
        elif isinstance(key, Token) and key.type == "INT":
            key = _parse_int(key)
        else:
            key = str(key)
        return (key, value)


class _ModuleBuilder:
    def __init__(self, filename: str):
        self.filename = filename
        self.values = _ValueTable()
        self.attrs = _AttrBuilder()

    def build(self, tree: Tree) -> Module:
        module_tree = tree.children[0]
        name_tok, version, attrs_tree, *op_trees = module_tree.children
        if version is not None:
            digits = str(version.children[0])
            if len(digits) > 9 or int(digits) > KIR_VERSION:  # a huge number is a future version too
                number = digits if len(digits) <= 9 else f"{digits[:9]}..."
                raise KirParseError(
                    f"this file is kir version {number}; this KernelOPT reads versions up to {KIR_VERSION}"
                    " (upgrade KernelOPT)", self.filename, version.meta.line, version.meta.column)
        attrs = self.attrs.transform(attrs_tree.children[0]) if attrs_tree is not None else {}
        module = Module(str(name_tok)[1:], attrs, loc=Location(self.filename, module_tree.meta.line, 1))
        for op_tree in op_trees:
            op = self.build_op(op_tree)
            (module.add_kernel if op.name == "ko.kernel" else module.append)(op)
        return module

    def build_op(self, tree: Tree) -> Op:
        results_tree, opname, symbol, callee, call_args, bare_args, attr_dict, type_list = tree.children
        loc = Location(self.filename, tree.meta.line, tree.meta.column)
        results = []
        if results_tree is not None:
            for tok in results_tree.children:
                value = self.values.define(str(tok)[1:])
                if value is None:
                    raise KirParseError(f"value {tok} is defined twice", self.filename, tok.line, tok.column)
                results.append(value)
        args = self.build_args(call_args, bare_args)
        types = self.build_types(type_list)
        if types and len(types) != len(results):
            raise KirParseError(f"{len(results)} results but {len(types)} types", self.filename,
                                tree.meta.line, tree.meta.column)
        for value, type_ in zip(results, types):
            value.type = type_
        return Op(
            name=str(opname),
            results=results,
            args=args,
            symbol=str(symbol)[1:] if symbol is not None else None,
            callee=self.callee(callee) if callee is not None else None,
            attrs=self.attrs.transform(attr_dict) if attr_dict is not None else {},
            loc=loc,
        )

    def callee(self, tok: Token) -> str:
        try:
            return _decode_string(tok)
        except ValueError as err:
            raise KirParseError(str(err), self.filename, tok.line, tok.column) from None

    def build_args(self, call_args, bare_args) -> list[Arg]:
        args: list[Arg] = []
        if call_args is not None:
            for arg_tree in call_args.children:
                keyword, value_tree = arg_tree.children
                args.append(Arg(self.arg_value(value_tree), str(keyword) if keyword is not None else None))
        if bare_args is not None:
            args += [Arg(self.arg_value(child)) for child in bare_args.children]
        return args

    def arg_value(self, tree):
        if isinstance(tree, Tree) and tree.data == "value_ref":
            return self.values.get(str(tree.children[0])[1:])
        return self.attrs.transform(tree) if isinstance(tree, Tree) else tree

    def build_types(self, type_list) -> list:
        if type_list is None:
            return []
        types = []
        for t in type_list.children:
            tok = t.children[0]
            if t.data == "tensor_type":
                try:
                    types.append(parse_tensor_type(str(tok)))
                except ValueError as err:
                    raise KirParseError(str(err), self.filename, tok.line, tok.column) from None
            elif t.data == "opaque_type":
                types.append(OpaqueType(str(tok)))
            else:
                types.append(ScalarType(torch_dtype_name(str(tok))))
        return types


_TOKEN_NAMES = {
    "COLON": "':'", "COMMA": "','", "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'",
    "LSQB": "'['", "RSQB": "']'", "EQUAL": "'='", "BANG": "'!'", "_NL": "end of line", "$END": "end of input",
    "VALUE": "a value (%name)", "SYMBOL": "a symbol (@name)", "OPNAME": "an op name (ko.launch)",
    "STRING": "a string", "INT": "an integer", "FLOAT": "a number", "KEY": "a name",
    "TENSOR_TYPE": "a tensor type", "DTYPE": "a dtype",
}


def _token_name(name: str) -> str:
    return _TOKEN_NAMES.get(name, name.lower().replace("_", " ") if name.isupper() else name)


def _describe(err: UnexpectedInput, source_line: str = "") -> str:
    if isinstance(err, UnexpectedToken):
        if err.token.type == "$END":
            return "unexpected end of input (is the closing `}` of the module missing?)"
        expected = sorted({_token_name(e) for e in err.expected if not e.startswith("__ANON")})[:8]
        got = "end of line" if err.token.type == "_NL" else repr(str(err.token))
        return f"unexpected {got}; expected {' or '.join(expected) if expected else 'something else'}"
    if isinstance(err, UnexpectedCharacters):
        if err.char == '"' and _unterminated_string(source_line, err.column):
            return "unterminated string: no closing '\"' on this line (is the file cut off?)"
        return f"unexpected character {err.char!r}"
    if isinstance(err, UnexpectedEOF):
        return "unexpected end of input"
    return str(err)


def _unterminated_string(line: str, column: int) -> bool:
    """A `"` the lexer cannot start a string with: its line has no closing quote after it."""
    rest = line[column:]
    return not re.search(r'(?<!\\)(?:\\\\)*"', rest)


def parse_module(text: str, filename: str = "<input>", line_offset: int = 0) -> Module:
    """Parse one module. `line_offset` shifts reported lines (for `--split-input-file` chunks)."""
    if text.startswith(OUTPUT_MARKER + "\n"):
        text = text[len(OUTPUT_MARKER):]    # the marker line reads as an empty line: line numbers stay
    lines = text.splitlines()
    try:
        tree = _lark().parse(text)
    except UnexpectedInput as err:
        line = getattr(err, "line", 1) or 1
        column = getattr(err, "column", None)
        source_line = lines[line - 1] if 0 < line <= len(lines) else ""
        raise KirParseError(_describe(err, source_line), filename, line + line_offset, column, source_line) from None
    try:
        module = _ModuleBuilder(filename).build(tree)
    except KirParseError as err:
        raise KirParseError(str(err).split(": error: ", 1)[-1].split("\n")[0], filename,
                            err.line + line_offset, err.column,
                            lines[err.line - 1] if 0 < err.line <= len(lines) else "") from None
    except VisitError as err:  # an attribute that failed to convert (a malformed tensor type, string, number)
        line, column = _position(err.obj)
        raise KirParseError(str(err.orig_exc), filename, line + line_offset, column,
                            lines[line - 1] if 0 < line <= len(lines) else "") from None
    if line_offset:
        _shift_locations(module, line_offset)
    return module


def _shift_locations(module: Module, offset: int) -> None:
    for op in module.walk():
        if op.loc is not None:
            op.loc = Location(op.loc.file, op.loc.line + offset, op.loc.column)
    if module.loc is not None:
        module.loc = Location(module.loc.file, module.loc.line + offset, module.loc.column)


def parse_file(path: str | Path) -> Module:
    path = Path(path)
    try:
        text = read_utf8(path, "a .kir file")
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror}") from None
    return parse_module(text, str(path))
