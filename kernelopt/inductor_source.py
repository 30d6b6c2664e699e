"""Inductor output modules as source text: the one home for reading them.

Inductor writes each kernel as `name = async_compile.triton('name', '''<source>''', device_str=...)`.
Readers need that source for the parameter names (which arguments are outputs), static screening
(does the original already use low-precision dtypes?), a float64 variant of the kernel that serves as
the accuracy reference, and the plain `@triton.jit` form without Inductor's autotuning decorator.
Shrinking hard-coded sizes (`xnumel = 4096`) for CPU-interpreter runs lives here too, because tests
and the suite build small versions of real kernels. Also here: `dotted_name` for the attribute
chains every reader of Inductor's Python meets, and `unsupported_parts`, what of a lifted module the
optimizer does not handle (C++ kernels, symbolic sizes, backward graphs).
"""
from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

from kernelopt.errors import InputError
from kernelopt.ir.core import Module

_KERNEL_RE = r"^{name}\s*=\s*async_compile\.triton\(\s*'{name}'\s*,\s*'''(?P<src>.*?)'''"
_WRITTEN_PARAM = re.compile(r"^(out_ptr\d+|in_out_ptr\d+)$")


def kernel_sources(module_text: str) -> dict[str, str]:
    """All `async_compile.triton` kernels of a module: name -> source."""
    found = {}
    for match in re.finditer(r"^(\w+)\s*=\s*async_compile\.triton\(\s*'(\w+)'\s*,\s*'''(.*?)'''",
                             module_text, re.S | re.M):
        found[match.group(2)] = match.group(3)
    return found


def kernel_source(module_text: str, name: str, path: str = "<module>") -> str:
    match = re.search(_KERNEL_RE.format(name=re.escape(name)), module_text, re.S | re.M)
    if match is None and "_KERNELS = globals()" in module_text:   # a module KernelOPT emitted
        emitted = _emitted_kernel_source(module_text, name)
        if emitted is not None:
            return emitted
    if match is None:
        raise InputError(f"{path}: no Triton kernel named {name!r} (known: "
                         f"{', '.join(sorted(kernel_sources(module_text))) or 'none'})")
    return match.group("src")


def _emitted_kernel_source(module_text: str, name: str) -> str | None:
    """Kernel `name` of an emitted module as Inductor defined it (its recorded decorator + the jit function)."""
    # lazy: a cycle: kernelopt.lift imports this module
    from kernelopt.lift import emitted_module

    try:
        tree = ast.parse(module_text)
    except SyntaxError:
        return None
    found = emitted_module.kernel_definitions(tree, module_text.splitlines(), {name}).get(name)
    return ast.literal_eval(found[0].args[1]) if found else None


def kernel_params(source: str, name: str) -> list[str]:
    """The parameter names of `def name(...)` without the constexpr block sizes."""
    match = re.search(rf"def\s+{re.escape(name)}\s*\((.*?)\)\s*:", source, re.S)
    if match is None:
        raise InputError(f"kernel {name!r}: no `def {name}(...)` in its source")
    params = []
    for part in match.group(1).split(","):
        part = part.strip()
        if not part or "constexpr" in part:
            continue
        params.append(part.split(":")[0].strip())
    return params


def mutated_arg_names(source: str) -> list[str]:
    match = re.search(r"'mutated_arg_names':\s*\[(.*?)\]", source)
    return re.findall(r"'(\w+)'", match.group(1)) if match else []


def written_param_indices(source: str, name: str) -> set[int]:
    """Positions (in `.run(...)` order) of the arguments the kernel writes: out_ptr*, in_out_ptr*,
    and whatever Inductor lists in `mutated_arg_names`."""
    params = kernel_params(source, name)
    mutated = set(mutated_arg_names(source))
    return {i for i, p in enumerate(params) if _WRITTEN_PARAM.match(p) or p in mutated}


def dotted_name(node: ast.AST) -> str:
    """`a.b.c` for an Attribute/Name chain (`torch.ops.aten.mm.default`), '' for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def pointer_base(pointer: ast.AST | None) -> tuple[str, ast.AST] | None:
    """`(param, offset)` for a Triton pointer written `param + offset` or `param` (offset 0), the two
    forms Inductor writes for a load or store address; None for any other expression."""
    if isinstance(pointer, ast.BinOp) and isinstance(pointer.op, ast.Add) and isinstance(pointer.left, ast.Name):
        return pointer.left.id, pointer.right
    if isinstance(pointer, ast.Name):
        return pointer.id, ast.Constant(0)
    return None


def names_in(node: ast.AST) -> set[str]:
    """Every name an expression (or statement) reads or writes."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def mask_conjuncts(mask: ast.AST | None) -> frozenset[str]:
    """A mask `a & b & c` as the set of its conjuncts, each as written (none for no mask): two masks with the same
    conjuncts in another order or grouping are the same mask."""
    parts, pending = [], [] if mask is None else [mask]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
            pending += [node.left, node.right]
        else:
            parts.append(ast.unparse(node))
    return frozenset(parts)


def access_mask(call: ast.Call) -> ast.AST | None:
    """The mask argument of a `tl.load` (second) or `tl.store` (third), positional or `mask=`, as written
    (a literal None included); None when there is none."""
    at = 2 if dotted_name(call.func) == "tl.store" else 1
    if len(call.args) > at:
        return call.args[at]
    return next((k.value for k in call.keywords if k.arg == "mask"), None)


def load_other(call: ast.Call) -> ast.AST | None:
    """The `other` argument of a `tl.load` (third, or `other=`): what a masked-off lane reads; None when
    there is none (those lanes are undefined)."""
    if len(call.args) > 2:
        return call.args[2]
    return next((k.value for k in call.keywords if k.arg == "other"), None)


def filled_with(node: ast.AST) -> str:
    """The value of a constant or of `tl.full(shape, value, dtype)`, as written ('' for anything else): "0.0",
    "float('-inf')", "-float('inf')". A negated constant (`-0.0`) is not a constant here and reads ''."""
    if isinstance(node, ast.Call) and dotted_name(node.func) == "tl.full" and len(node.args) >= 2:
        node = node.args[1]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Call):
        return "-" + ast.unparse(node.operand)
    return ast.unparse(node) if isinstance(node, (ast.Constant, ast.Call)) else ""


ZERO_FILLS = ("0", "0.0")         # filled_with of a +0 constant


def without_broadcast(offset: ast.AST) -> tuple[ast.AST, ast.AST | None]:
    """An address offset with the `tl.broadcast_to(offset, shape)` Inductor wraps around one that does not
    move with r (a per-row or per-channel value read in an r-loop) taken off, and the shape (None: none).
    The broadcast changes the offset's shape, not its values; the shape's names are no index arithmetic."""
    shape = None
    while (isinstance(offset, ast.Call) and dotted_name(offset.func) == "tl.broadcast_to" and len(offset.args) == 2
           and not offset.keywords):
        offset, shape = offset.args[0], offset.args[1]
    return offset, shape


def parse_python(source: str, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse`, whose every failure on user text is a `SyntaxError` with a line and column.

    CPython's parser gives up on deeply nested input with `MemoryError` ("too complex") or
    `RecursionError`, and on null bytes with `ValueError`; callers already turn `SyntaxError` into a
    located message, so those become one too, placed where the nesting is deepest (or the null byte).
    """
    try:
        with warnings.catch_warnings():  # "invalid escape sequence" and the like: noise to a user of the CLI
            warnings.simplefilter("ignore", SyntaxWarning)
            return ast.parse(source, filename=filename)
    except (MemoryError, RecursionError):
        line, column = _deepest_nesting(source)
        raise SyntaxError("nested too deeply to parse", (filename, line, column, None)) from None
    except (SyntaxError, ValueError) as err:  # null bytes: a ValueError, or a SyntaxError without a line
        if getattr(err, "lineno", None) is not None or "\0" not in source:
            raise
        index = source.index("\0")
        line = source.count("\n", 0, index) + 1
        raise SyntaxError("a null byte (\\0) in the source", (filename, line, index - source.rfind("\n", 0, index),
                                                           None)) from None


def _deepest_nesting(source: str) -> tuple[int, int]:
    """(line, column) where brackets nest deepest: a place to point at when a parse is too complex.
    Without brackets (a chain like `-----x` or `1+1+...`), the start of the longest line."""
    lines = source.split("\n")
    depth = best = 0
    where = (max(range(len(lines)), key=lambda i: len(lines[i])) + 1, 1)
    line, line_start = 1, 0
    for index, char in enumerate(source):
        if char in "([{":
            depth += 1
            if depth > best:
                best, where = depth, (line, index - line_start + 1)
        elif char in ")]}":
            depth -= 1
        elif char == "\n":
            line, line_start = line + 1, index + 1
    return where


def strip_heuristics(source: str, kernel_name: str | None = None,
                     missing: type[Exception] = InputError) -> str:
    """The kernel source without Inductor's autotuning decorator (`@triton_heuristics.<kind>(...)`)
    and the GPU driver switch (`triton_helpers.set_driver_to_gpu()`): `@triton.jit` and every other
    line stay as written.

    With `kernel_name`, only that function loses its decorator and it must be defined in the source
    (else `missing` is raised: a proposer raises its own "cannot relaunch" error); without it, every
    top-level function does.
    """
    tree = ast.parse(source)
    lines = source.splitlines()
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)
                 and (kernel_name is None or n.name == kernel_name)]
    if kernel_name is not None:
        if not functions:
            raise missing(f"no function named {kernel_name} in the kernel source")
        functions = functions[:1]
    drop: set[int] = set()
    for function in functions:
        for deco in function.decorator_list:
            if dotted_name(deco.func if isinstance(deco, ast.Call) else deco).startswith("triton_heuristics."):
                drop.update(range(deco.lineno - 1, deco.end_lineno))
    for node in tree.body:
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and dotted_name(node.value.func) == "triton_helpers.set_driver_to_gpu"):
            drop.update(range(node.lineno - 1, node.end_lineno))
    return "\n".join(line for i, line in enumerate(lines) if i not in drop) + "\n"


def shrink_sizes(source: str, sizes: dict[int, int]) -> str:
    """Replace hard-coded integer sizes (whole numbers only) in the kernel body: {4096: 8, 32000: 300}.
    Block-size constants (`R0_BLOCK: tl.constexpr = 1024`) are numbers too; list them to change them."""
    head, sep, body = source.partition("@triton.jit")
    if not sep:
        head, body = "", source
    for old, new in sizes.items():
        body = re.sub(rf"(?<![\w.]){old}(?![\w.])", str(new), body)
        body = re.sub(rf"(?<![\w.]){old}\.0(?![\w])", f"{new}.0", body)
    return head + sep + body


_LOW_FLOAT = re.compile(r"\btl\.(float32|bfloat16|float16)\b")


_FP32_ONLY_REPLACEMENT = {"sqrt_rn": "tl.sqrt("}
_FP32_ONLY = re.compile(r"\btl\.(sqrt_rn)\(")


def float64_variant(source: str) -> str:
    """The same kernel computing in float64: every explicit float dtype becomes tl.float64.

    Inductor kernels cast loads with `.to(tl.float32)` and build accumulators with tl.float32, so
    upcasting the tensors alone would still compute in fp32; rewriting the dtypes gives the math in
    float64 on float64 tensors, which is the reference the accuracy check needs."""
    source = _LOW_FLOAT.sub("tl.float64", source)
    # fp32-only operations: Triton's compiler rejects float64 operands (the interpreter does not), and the
    # reference of every norm was dropped on the GPU. On float64 the plain form rounds correctly too.
    source = _FP32_ONLY.sub(lambda m: _FP32_ONLY_REPLACEMENT[m.group(1)], source)
    source = _float64_split_scan(source)
    # the signature in triton_meta decides how a GPU build types the pointers
    return re.sub(r"'\*(fp32|bf16|fp16)'", "'*fp64'", source)


# A split scan publishes each chunk's carry through its workspace: a <= 32-bit value packed beside its flag
# in one word (`exclusive_scan_decoupled_lookback`), a 64-bit one in three words per chunk (flag, total,
# prefix: `..._64`), as Inductor writes it for a float64 scan. Without this the float64 variant packed a
# 64-bit value into 32 bits, failed to build, and the gate judged every scan candidate with no reference.
_LOOKBACK_32 = re.compile(
    r"triton_helpers\.exclusive_scan_decoupled_lookback\(\s*([^,]+?),\s*([^,]+?),\s*([^,]+?),\s*([^,]+?),"
    r"\s*DTYPE_VALUE_AS_UINT\s*=\s*[\w.]+,\s*DTYPE_PACK\s*=\s*[\w.]+,?\s*\)")
_SCRATCH_BASE = re.compile(r"(\bws_ptr\.to\(tl\.pointer_type\()tl\.uint(32|64)(\)\)\s*\+\s*xoffset\s*\*\s*)1(\s*\*)")


FLOAT64_SCAN_WORKSPACE_SCALE = 3     # 24 bytes per chunk where an fp32 scan's workspace gives 8


def _float64_split_scan(source: str) -> str:
    """The float64 form of a split scan's carry exchange. It needs FLOAT64_SCAN_WORKSPACE_SCALE times the
    workspace Inductor gave the original (bytes per chunk x rows x the most chunks its smallest block
    allows): whoever launches it passes a workspace that much larger (float64_scan_workspace_position). A launch
    whose chunks need more still fails to build (static_assert) rather than writing past the workspace.
    Sources of another shape are returned unchanged (their float64 build fails the same way it did
    before)."""
    if not _LOOKBACK_32.search(source):
        return source
    base = _SCRATCH_BASE.search(source)
    numel = re.search(r"^\s*r0_numel = (\d+)\s*$", source, re.M)
    if base is None or numel is None or "R0_BLOCK" not in source:
        return source
    word_bytes = int(base.group(2)) // 8
    smallest = re.search(r"'min_split_scan_rblock':\s*(\d+)", source)
    smallest_block = int(smallest.group(1)) if smallest else 256     # Inductor's default
    rnumel = int(numel.group(1))
    source = _LOOKBACK_32.sub(r"triton_helpers.exclusive_scan_decoupled_lookback_64(\1, \2, \3, \4)", source)
    source = _SCRATCH_BASE.sub(r"\g<1>tl.uint64\g<3>3\g<4>", source)
    guard = (f"tl.static_assert((({rnumel} + R0_BLOCK - 1) // R0_BLOCK) * 24 <= "
             f"(({rnumel} + {smallest_block - 1}) // {smallest_block}) * {word_bytes * FLOAT64_SCAN_WORKSPACE_SCALE})")
    return re.sub(r"^(\s*)(r0_numel = \d+\s*)$", lambda m: f"{m.group(1)}{m.group(2)}\n{m.group(1)}{guard}",
                  source, count=1, flags=re.M)


def float64_scan_workspace_position(source: str, name: str) -> int | None:
    """Where a float64 variant's split-scan workspace (`ws_ptr`) sits among its launch arguments: its launcher
    passes there a zeroed workspace FLOAT64_SCAN_WORKSPACE_SCALE times Inductor's (Inductor zeroes it before
    each launch). None for any other kernel."""
    if "exclusive_scan_decoupled_lookback_64(" not in source:
        return None
    params = kernel_params(source, name)
    return params.index("ws_ptr") if "ws_ptr" in params else None


_FLOAT_POINTER = re.compile(r"'(in_ptr\d+)'\s*:\s*'\*(fp32|bf16|fp16)'")


def float64_native_inputs_variant(source: str, keep: set[str] | None = None) -> str | None:
    """float64_variant, except that the kernel's read-only float inputs (`in_ptrN`) keep their dtype:
    each load of one is converted to float64 as it is read, so the math is the same float64 math, and
    the gate's reference needs no float64 copy of its inputs (a split reduction of a 256 MB input
    otherwise needs 512 MB more, which a 3x memory bound does not hold: the reference was dropped and
    reorder-only candidates were judged at the bare fp32 tolerance). None when an input is used other
    than as `tl.load(in_ptrN ...)` (a block pointer, a pointer cast): then float64_variant applies.
    `keep`: only these inputs keep their dtype (in a fusion group, an input that another member wrote
    is float64 in the reference); default every float input."""
    inputs = sorted(set(match.group(1) for match in _FLOAT_POINTER.finditer(source)
                        if keep is None or match.group(1) in keep))
    # the kernel is the last jit function: a scan's combine helpers (`_triton_helper_fn_add0`) come first
    head, sep, body = source.rpartition("@triton.jit")
    if not sep:
        return None
    if not inputs:          # no float input keeps its dtype: the plain float64 variant is this one
        return float64_variant(source)
    definition, colon, code = body.partition(":\n")
    for name in inputs:
        uses = len(re.findall(rf"\b{name}\b", code))
        loads = len(re.findall(rf"\btl\.load\(\s*{name}\b", code))
        if uses != loads:
            return None
    code = _upcast_loads(code, inputs)
    kept = {name: kind for name, kind in _FLOAT_POINTER.findall(source) if name in inputs}
    variant = float64_variant(head + sep + definition + colon + code)
    for name, kind in kept.items():       # the signature keeps the inputs' pointer types
        variant = variant.replace(f"'{name}': '*fp64'", f"'{name}': '*{kind}'")
    return variant


def _upcast_loads(code: str, inputs: list[str]) -> str:
    """`tl.load(in_ptrN ...)` -> `tl.load(in_ptrN ...).to(tl.float64)` for the named inputs (the call's
    closing parenthesis found by counting brackets; strings in a load's arguments hold none)."""
    pattern = re.compile(r"\btl\.load\(\s*(" + "|".join(map(re.escape, inputs)) + r")\b")
    out, position = [], 0
    for match in pattern.finditer(code):
        if match.start() < position:
            continue
        depth, end = 0, code.index("(", match.start())      # the load's own opening parenthesis
        for end in range(end, len(code)):
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            if depth == 0:
                break
        out.append(code[position:end + 1] + ".to(tl.float64)")
        position = end + 1
    out.append(code[position:])
    return "".join(out)


def float64_module_text(module_text: str, name: str, native_inputs: bool | set[str] = False) -> tuple[str, bool]:
    """The module with kernel `name` replaced by its float64 variant (everything else unchanged), and
    whether its read-only float inputs keep their dtype (float64_native_inputs_variant: asked for with
    `native_inputs`, True for every input or the set of those that keep theirs, and possible for this
    kernel)."""
    source = kernel_source(module_text, name)
    keep = native_inputs if isinstance(native_inputs, set) else None
    asked = native_inputs is True or keep is not None
    variant = float64_native_inputs_variant(source, keep) if asked else None
    if variant is not None:
        return module_text.replace(source, variant, 1), True
    return module_text.replace(source, float64_variant(source), 1), False


@dataclass(frozen=True)
class UnsupportedParts:
    """What of a lifted module the optimizer does not handle; each caller words its own message."""

    cpp_kernels: tuple[str, ...]   # C++ kernels (Inductor's CPU backend): emit-python writes Triton only
    symbols: tuple[str, ...]       # the size symbols, when the module has symbolic sizes
    symbolic_shapes: bool
    backward: bool

    def __bool__(self) -> bool:
        return bool(self.cpp_kernels or self.symbolic_shapes or self.backward)


def unsupported_parts(module: Module) -> UnsupportedParts:
    """The parts of `module` (as the lifter marked them) that only static-shape, Triton-kernel,
    inference graphs lack."""
    return UnsupportedParts(
        cpp_kernels=tuple(op.symbol for op in module.kernels if op.attrs.get("kind") == "cpp"),
        symbols=tuple(sorted((module.attrs.get("symbols") or {}).keys())),
        symbolic_shapes=bool(module.attrs.get("symbolic_shapes")),
        backward=bool(module.attrs.get("backward")))


def text_excerpt(text: str, limit: int = 60) -> str:
    """`text` on one line, cut to `limit` characters, for an error message."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def expression_excerpt(node: ast.AST, limit: int = 60) -> str:
    """The node as shortened source text for an error message, even for a tree too deep for `ast.unparse`."""
    try:
        return text_excerpt(ast.unparse(node), limit)
    except RecursionError:
        return "a deeply nested expression"


def code_construct(node: ast.AST) -> str:
    """The first construct in `node` that runs code of its own (a lambda, a comprehension, `:=`), named
    for an error message; '' when there is none. Inductor never writes these in a decorator or a grid."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Lambda):
            return "a lambda"
        if isinstance(sub, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return "a comprehension"
        if isinstance(sub, ast.NamedExpr):
            return "an assignment expression (`:=`)"
    return ""


# Block parameter -> (its extent, its mask, its index) as Inductor names them in a kernel's body.
_UNMASKED_BLOCKS = {"XBLOCK": ("xnumel", "xmask", "xindex"), "R0_BLOCK": ("r0_numel", "r0_mask", "r0_index")}


def unmasked_block_overrun(source: str, blocks: dict) -> str:
    """Why launching `source` with these block sizes would read or write past its tensors ('' when it
    would not).

    Inductor drops a mask (`xmask = tl.full([XBLOCK], True, ...)`) when the hard-coded extent is a
    multiple of every block it might launch with; a block that does not divide that extent would then
    run unmasked past the last row or element. Any other block size must keep to divisors of it."""
    for block, (numel_name, mask_name, index_name) in _UNMASKED_BLOCKS.items():
        value = blocks.get(block)
        if value is None or re.search(rf"\b{mask_name} = {index_name} < {numel_name}\b", source):
            continue
        numel = hardcoded_numel(source, numel_name)
        if numel is None:
            return f"{block}={value}: {mask_name} is dropped and {numel_name} is not a constant"
        if numel % value:
            return f"{block}={value} does not divide {numel_name}={numel}, and {mask_name} is dropped"
    return ""


def hardcoded_numel(source: str, name: str) -> int | None:
    """The extent a kernel hard-codes in its body (`xnumel = 65536`), None when it is only known at run time."""
    match = re.search(rf"^\s*{name} = (\d+)\s*$", source, re.M)
    return int(match.group(1)) if match else None
