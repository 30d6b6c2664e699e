"""Types of IR values: strided tensors, scalars, and opaque tuples.

A `TensorType` is what Inductor asserts about a buffer: sizes, strides, storage offset, dtype and
device. Its text form is `tensor<4096x2048xbf16, [2048, 1]>`, with `, offset=N` and `, "cuda:0"`
appended when they are not the defaults (offset 0, the module's device).
"""
from __future__ import annotations

from dataclasses import dataclass

# Short dtype spellings used in the text form, and their torch names.
DTYPE_SHORT_TO_TORCH = {
    "f64": "float64", "f32": "float32", "f16": "float16", "bf16": "bfloat16",
    "f8e4m3": "float8_e4m3fn", "f8e5m2": "float8_e5m2",
    "i64": "int64", "i32": "int32", "i16": "int16", "i8": "int8", "u8": "uint8",
    "i1": "bool", "c64": "complex64", "c128": "complex128",
}
DTYPE_TORCH_TO_SHORT = {v: k for k, v in DTYPE_SHORT_TO_TORCH.items()}
DTYPE_BYTES = {
    "float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "float8_e4m3fn": 1, "float8_e5m2": 1,
    "int64": 8, "int32": 4, "int16": 2, "int8": 1, "uint8": 1, "bool": 1,
    "complex64": 8, "complex128": 16,
}


def short_dtype(torch_name: str) -> str:
    """`bfloat16` -> `bf16`; unknown names pass through so nothing is lost."""
    return DTYPE_TORCH_TO_SHORT.get(torch_name, torch_name)


def torch_dtype_name(short: str) -> str:
    return DTYPE_SHORT_TO_TORCH.get(short, short)


class Type:
    """Base of all value types."""


@dataclass(frozen=True)
class TensorType(Type):
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    dtype: str                      # torch name: "bfloat16", "float32", "int64", ...
    offset: int = 0
    device: str | None = None       # None: the module's device

    @property
    def numel(self) -> int:
        n = 1
        for s in self.sizes:
            n *= s
        return n

    @property
    def itemsize(self) -> int:
        return DTYPE_BYTES.get(self.dtype, 4)

    @property
    def nbytes(self) -> int:
        return self.numel * self.itemsize

    def storage_extent(self) -> int:
        """Elements of storage this view can touch: offset + 1 + sum((size-1)*stride)."""
        if any(s == 0 for s in self.sizes):
            return self.offset
        return self.offset + 1 + sum((s - 1) * st for s, st in zip(self.sizes, self.strides))

    def is_contiguous(self) -> bool:
        return dense_in_order(self.sizes, self.strides, range(len(self.sizes)))

    def __str__(self) -> str:
        shape = "x".join(str(s) for s in self.sizes)
        head = f"{shape}x{short_dtype(self.dtype)}" if self.sizes else short_dtype(self.dtype)
        text = f"tensor<{head}, [{', '.join(str(s) for s in self.strides)}]"
        if self.offset:
            text += f", offset={self.offset}"
        if self.device is not None:
            text += f', "{self.device}"'
        return text + ">"


def dense_in_order(sizes, strides, order) -> bool:
    """Whether a view of `sizes` and `strides` packs its elements densely with the dimensions of `order` from
    the outermost to the innermost (range(n): contiguous; (0, 2, 3, 1): channels-last); sizes of 1 take any
    stride."""
    expected = 1
    for axis in reversed(list(order)):
        if sizes[axis] != 1 and strides[axis] != expected:
            return False
        expected *= sizes[axis]
    return True


@dataclass(frozen=True)
class ScalarType(Type):
    """A host scalar (e.g. an integer returned by an op, a seed)."""

    dtype: str  # torch name

    def __str__(self) -> str:
        return short_dtype(self.dtype)


@dataclass(frozen=True)
class OpaqueType(Type):
    """A value we do not model (a tuple of results, a Python object): `!tuple`, `!object`."""

    name: str

    def __str__(self) -> str:
        return f"!{self.name}"


TUPLE = OpaqueType("tuple")
OBJECT = OpaqueType("object")
