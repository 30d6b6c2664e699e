"""Static cost of one op: bytes read, bytes written, FLOPs, and which peak the FLOPs run at.

Triton launches: every pointer the kernel loads is read once and every pointer it stores is written
once, each counting the bytes of the tensor passed for it, capped by the kernel's iteration space
(a gather through `tmp` indices touches one element per iteration, not the whole tensor). A tensor
smaller than the iteration space (a [N, 1] row statistic, a weight vector read by every row) counts
its own size: we count DRAM traffic, and broadcast reuse is served from cache.
Vendor calls: operands read once and outputs written once; FLOPs from shapes (GEMM 2*M*N*K, conv
2*N*Cout*Hout*Wout*Cin/groups*kh*kw, attention 4*B*H*L*S*D, halved when causal).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kernelopt.ir.callees import op_basename
from kernelopt.ir.core import Module, Op, Value
from kernelopt.ir.effects import effects, launch_params, storage_root
from kernelopt.ir.types import DTYPE_BYTES, TensorType

from .kernel_traffic import NUMEL_NAMES, analyze_kernel_source

# Triton signature element types -> torch dtype names.
TRITON_DTYPES = {"fp64": "float64", "fp32": "float32", "fp16": "float16", "bf16": "bfloat16",
                 "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8", "i1": "bool",
                 "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2"}


@dataclass
class Cost:
    bytes_read: int = 0
    bytes_written: int = 0
    flops: int = 0
    flop_class: str = "fp32"       # which ceiling the FLOPs run at: fp32 | tf32 | bf16 | fp16 | fp8 | int
    method: str = "shapes"          # how the figures were obtained (documented in docs/passes.md)
    notes: list[str] = field(default_factory=list)

    @property
    def bytes_total(self) -> int:
        return self.bytes_read + self.bytes_written


def tensor_bytes(value) -> int:
    """Bytes a tensor value spans: min(numel, storage extent) elements (expanded views count once)."""
    ty = value.type if isinstance(value, Value) else None
    if not isinstance(ty, TensorType):
        return 0
    elements = min(ty.numel, max(ty.storage_extent() - ty.offset, 0))
    return elements * ty.itemsize


def _tensor_type(value) -> TensorType | None:
    ty = value.type if isinstance(value, Value) else None
    return ty if isinstance(ty, TensorType) else None


# --------------------------------------------------------------------------------------------
# Triton launches
# --------------------------------------------------------------------------------------------

def iteration_numel(op: Op, kernel: Op, numels_in_source: dict[str, int]) -> int | None:
    """x * y * r elements the launch iterates over, from the source, the launch or `constants`."""
    params = launch_params(kernel) or []
    constants = kernel.attrs.get("constants") or {}
    values: dict[str, int] = {}
    for index, name in enumerate(params):
        if name in NUMEL_NAMES and index < len(op.args) and isinstance(op.args[index].value, int):
            values[name] = op.args[index].value
    for name, value in constants.items():
        if name in NUMEL_NAMES and isinstance(value, int):
            values.setdefault(name, value)
    values.update(numels_in_source)
    if not values:
        return None
    total = 1
    for name, value in values.items():
        if name != "rnumel" or "r0_numel" not in values:
            total *= max(int(value), 1)
    return total


def launch_cost(op: Op, module: Module) -> Cost:
    kernel = module.kernel(op.symbol or "")
    if kernel is None:
        return _effects_cost(op, module, f"kernel @{op.symbol} is not defined")
    params = launch_params(kernel) or []
    signature = kernel.attrs.get("signature") or {}
    pointer_params = {name for name, ty in signature.items() if isinstance(ty, str) and ty.startswith("*")}
    facts = analyze_kernel_source(str(kernel.attrs.get("source", "")), pointer_params or None)
    if facts is None or not facts.understood:
        return _effects_cost(op, module, "kernel source shows no tl.load/tl.store")
    numel = iteration_numel(op, kernel, facts.numels)
    cost = Cost(method="source")
    for index, name in enumerate(params):
        use = facts.pointers.get(name)
        if use is None or index >= len(op.args):
            continue
        value = op.args[index].value
        size = tensor_bytes(value)
        if numel is not None and isinstance(value, Value):
            size = min(size, numel * _tensor_type(value).itemsize) if _tensor_type(value) else size
        if use.loaded:
            cost.bytes_read += size
        if use.stored:
            cost.bytes_written += size
        if use.indirect:
            cost.notes.append(f"{name} is indexed by loaded values (gather/scatter)")
    if numel is not None:
        rows = _row_count(op, kernel, facts.numels)
        cost.flops = facts.ops_per_element * numel + facts.ops_per_row * rows
    cost.flop_class = _dot_class(signature) if facts.has_dot else "fp32"
    return cost


def _row_count(op: Op, kernel: Op, numels_in_source: dict[str, int]) -> int:
    params = launch_params(kernel) or []
    values = {name: op.args[i].value for i, name in enumerate(params)
              if name in ("xnumel", "ynumel") and i < len(op.args) and isinstance(op.args[i].value, int)}
    values.update({k: v for k, v in numels_in_source.items() if k in ("xnumel", "ynumel")})
    rows = 1
    for value in values.values():
        rows *= max(int(value), 1)
    return rows


def _dot_class(signature: dict) -> str:
    types = {TRITON_DTYPES.get(str(t).lstrip("*"), "") for t in signature.values() if str(t).startswith("*")}
    if "bfloat16" in types:
        return "bf16"
    if "float16" in types:
        return "fp16"
    return "tf32"


def _effects_cost(op: Op, module: Module, why: str) -> Cost:
    """Fallback: every tensor the op reads is read whole, every tensor it writes is written whole."""
    eff = effects(op, module)
    cost = Cost(method="effects", notes=[why])
    cost.bytes_read = sum(tensor_bytes(v) for v in _unique_storage(eff.reads))
    cost.bytes_written = sum(tensor_bytes(v) for v in _unique_storage(eff.writes))
    return cost


def _unique_storage(values: list[Value]) -> list[Value]:
    seen, unique = set(), []
    for value in values:
        key = (id(storage_root(value)), str(value.type))
        if key not in seen:
            seen.add(key)
            unique.append(value)
    return unique


# --------------------------------------------------------------------------------------------
# Library calls
# --------------------------------------------------------------------------------------------

def _flop_class_for(dtype: str) -> str:
    return {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32", "float64": "fp64",
            "float8_e4m3fn": "fp8", "float8_e5m2": "fp8"}.get(dtype, "int")


def library_cost(op: Op, module: Module, dispatch: str) -> Cost:
    tensors = [a.value for a in op.args if isinstance(a.value, Value) and a.keyword != "out"
               and _tensor_type(a.value) is not None]
    outputs = _outputs(op)
    cost = Cost(method="shapes")
    cost.bytes_read = sum(tensor_bytes(v) for v in _unique_storage(tensors))
    cost.bytes_written = sum(tensor_bytes(v) for v in outputs)
    if dispatch == "vendor.cublas":
        _gemm_flops(op, tensors, outputs, cost)
    elif dispatch == "vendor.cudnn":
        _conv_flops(op, tensors, outputs, cost)
    elif dispatch == "vendor.attention":
        _attention_cost(op, tensors, cost)
    elif outputs:
        cost.flops = sum(_tensor_type(v).numel for v in outputs)
        cost.notes.append("library op: one operation per output element assumed")
    return cost


def _outputs(op: Op) -> list[Value]:
    out = op.keyword("out")
    if isinstance(out, Value):
        return [out]
    results = [r for r in op.results if isinstance(r.type, TensorType)]
    if results:
        return results
    # A tuple result: its typed getitems are the outputs.
    return [user.results[0] for r in op.results for user, _ in r.uses
            if user.name == "ko.getitem" and user.results and isinstance(user.results[0].type, TensorType)]


def _vendor_flop_class(dtype: str, cost: Cost) -> str:
    """fp32 GEMMs and convolutions may run on TF32 tensor cores (torch's allow_tf32 settings, on by
    default for cuDNN): a floor must be a lower bound, so it uses the TF32 peak."""
    flop_class = _flop_class_for(dtype)
    if flop_class == "fp32":
        cost.notes.append("fp32 library GEMM/conv may use TF32: floor uses the tf32 peak")
        return "tf32"
    return flop_class


def _gemm_flops(op: Op, tensors: list[Value], outputs: list[Value], cost: Cost) -> None:
    has_bias = op_basename(op.callee or "").rstrip("_") in ("addmm", "bias_addmm", "baddbmm", "addbmm",
                                                              "addmv", "_addmm_activation")
    operands = tensors[1:3] if has_bias and len(tensors) >= 3 else tensors[:2]
    if len(operands) < 2:
        cost.notes.append("GEMM operands not typed: no FLOPs counted")
        return
    a, b = (_tensor_type(v) for v in operands)
    if len(a.sizes) < 1 or len(b.sizes) < 1:
        return
    k = a.sizes[-1]
    m = a.numel // max(k, 1)
    n = b.sizes[-1] if len(b.sizes) >= 2 else 1
    batch = b.numel // max(b.sizes[-1] * (b.sizes[-2] if len(b.sizes) >= 2 else 1), 1)
    if len(b.sizes) == 3 and len(a.sizes) == 3:      # bmm: [B, M, K] x [B, K, N]
        m, batch = a.sizes[1], a.sizes[0]
    cost.flops = 2 * batch * m * n * k
    if has_bias:
        cost.flops += batch * m * n
    cost.flop_class = _vendor_flop_class(a.dtype, cost)


def _conv_flops(op: Op, tensors: list[Value], outputs: list[Value], cost: Cost) -> None:
    if len(tensors) < 2:
        cost.notes.append("convolution operands not typed: no FLOPs counted")
        return
    x, w = _tensor_type(tensors[0]), _tensor_type(tensors[1])
    positional = op.positional()
    out = _tensor_type(outputs[0]) if outputs else None
    if out is None:
        cost.notes.append("convolution output not typed: no FLOPs counted")
        return
    spatial_out = out.numel // max(out.sizes[0] * out.sizes[1], 1) if len(out.sizes) >= 2 else 1
    kernel_elems = w.numel // max(w.sizes[0], 1)    # the weight is [Cout, Cin/groups, kh, kw]
    transposed = op.keyword("transposed")
    if transposed is None and len(positional) >= 7 and isinstance(positional[6], bool):
        transposed = positional[6]
    if transposed:
        # A transposed conv does the forward conv's work on the input's spatial grid.
        spatial_in = x.numel // max(x.sizes[0] * x.sizes[1], 1)
        cost.flops = 2 * x.sizes[0] * x.sizes[1] * spatial_in * (w.numel // max(w.sizes[0], 1))
    else:
        cost.flops = 2 * out.sizes[0] * out.sizes[1] * spatial_out * kernel_elems
    cost.flop_class = _vendor_flop_class(x.dtype, cost)


def _attention_cost(op: Op, tensors: list[Value], cost: Cost) -> None:
    if len(tensors) < 3:
        cost.notes.append("attention operands not typed: no FLOPs counted")
        return
    q, k, v = (_tensor_type(t) for t in tensors[:3])
    *batch, length, head_dim = q.sizes
    source_length = k.sizes[-2]
    value_dim = v.sizes[-1]
    heads = 1
    for size in batch:
        heads *= size
    flops = 2 * heads * length * source_length * (head_dim + value_dim)
    if _is_causal(op):
        flops //= 2
    cost.flops = flops
    cost.flop_class = _flop_class_for(q.dtype)
    # The output is q-shaped with v's last dimension, written once (whatever getitems are typed).
    cost.bytes_written = max(cost.bytes_written, heads * length * value_dim * q.itemsize)


# Position of `is_causal` in each SDPA overload's schema.
_CAUSAL_POSITION = {"_scaled_dot_product_cudnn_attention": 6, "_scaled_dot_product_efficient_attention": 6,
                    "_scaled_dot_product_flash_attention": 4, "scaled_dot_product_attention": 5,
                    "_scaled_dot_product_flash_attention_for_cpu": 4}


def _is_causal(op: Op) -> bool:
    keyword = op.keyword("is_causal")
    if isinstance(keyword, bool):
        return keyword
    positional = op.positional()
    for name, index in _CAUSAL_POSITION.items():
        if f".{name}." in f".{op.callee}." and index < len(positional):
            return positional[index] is True
    return False


def dtype_bytes(name: str) -> int:
    return DTYPE_BYTES.get(name, 4)
