"""Read a user's input file as UTF-8 text, or say where it is not.

Every front end (`kernelopt-opt`, `kernelopt lift`, `kernelopt emit`, the `.kir` parser) reads its
input through here so that a binary or mis-encoded file gets one located message (the first bad
byte's `file:line:col`) instead of a `UnicodeDecodeError` traceback.
"""
from __future__ import annotations

from pathlib import Path

from .user_errors import InputError


def decode_utf8(data: bytes, path: str, expected: str) -> str:
    """`data` as text; `expected` names what the file should be (for the fix in the message)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        line_start = data.rfind(b"\n", 0, err.start) + 1
        # Columns count characters, as the parsers' columns do: decode what precedes the bad byte.
        column = len(data[line_start:err.start].decode("utf-8", "replace")) + 1
        raise InputError(f"{path}:{line}:{column}: not UTF-8 text (byte 0x{data[err.start]:02x}: {err.reason}); "
                         f"expected {expected}, saved as UTF-8") from None


def read_utf8(path: str | Path, expected: str) -> str:
    """The file's text; `OSError` (missing, unreadable) is left to the caller, whose exit code it picks."""
    return decode_utf8(Path(path).read_bytes(), str(path), expected)
