"""Reading the user's files and writing KernelOPT's own, for every command.

Reading: `read_text` turns an unreadable or non-UTF-8 file into an `InputError` naming the file and the
byte that broke decoding, never a `UnicodeDecodeError` traceback.

Writing: every file a command writes with `-o` starts with the marker line `# kernelopt-output`, so a
later run can tell its own outputs from the user's files. `write_output` refuses (a `UsageError`, exit 2)
to replace the command's input, or an existing file that does not start with the marker (a model, a
hand-written module): either would lose the user's work. `--force` lifts the refusal. The file is
replaced atomically (written beside it, then renamed), so Ctrl-C never leaves half a file.
"""
from __future__ import annotations

import os
from pathlib import Path

from kernelopt.errors import InputError, UsageError
from kernelopt.ir.parser import OUTPUT_MARKER
from kernelopt.ir.text_input import decode_utf8

__all__ = ["OUTPUT_MARKER", "read_text", "decode_text", "with_marker", "is_kernelopt_output",
           "check_writable", "check_folder_writable", "write_output"]


def decode_text(data: bytes, where: str, expected: str) -> str:
    """`data` as UTF-8 text; `where` names the file and `expected` says what it should have been."""
    return decode_utf8(data, where, expected)


def read_text(path: str | Path, expected: str) -> str:
    """The text of `path`: a clear `InputError` when it is missing, unreadable or not UTF-8."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file (expected {expected})") from None
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror}") from None
    return decode_text(data, str(path), expected)


def with_marker(text: str) -> str:
    """`text` starting with the marker line (added once)."""
    return text if text.startswith(OUTPUT_MARKER + "\n") else f"{OUTPUT_MARKER}\n{text}"


def is_kernelopt_output(path: str | Path) -> bool:
    """Whether the file at `path` starts with the marker line (a file KernelOPT wrote)."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(len(OUTPUT_MARKER) + 3)
    except OSError:
        return False
    return first.rstrip(b"\r\n") == OUTPUT_MARKER.encode()


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def check_writable(target: str | Path, inputs: list[str | Path | None], force: bool, flag: str = "-o",
                   ours=None, not_ours: str = "") -> None:
    """Refuse (exit 2) to replace an input, or an existing file KernelOPT did not write, unless `force`.
    `ours(path)` recognises a file KernelOPT wrote (default: the marker line of a text output; a binary
    output has its own test) and `not_ours` says, in the message, what the file fails to be."""
    if force:
        return
    target = Path(target)
    for given in inputs:
        if given is not None and str(given) != "-" and _same_file(Path(given), target):
            raise UsageError(f"{flag} {target} is the input file itself: give another output path (the input is "
                             "never overwritten; --force overrides this)")
    if target.is_dir():
        raise UsageError(f"{flag} {target} is a folder: give a file path")
    _refuse_a_file_on_the_way(target.parent, flag, target)
    if target.exists() and not (ours or is_kernelopt_output)(target):
        not_ours = not_ours or f"was not written by KernelOPT (its first line is not `{OUTPUT_MARKER}`)"
        raise UsageError(f"{flag} {target} exists and {not_ours}: give another output path, delete it, or pass "
                         "--force to replace it")


def _refuse_a_file_on_the_way(folder: Path, flag: str, target: Path) -> None:
    """Refuse (exit 2) a path whose folder cannot be made because a file stands where one of its folders would
    be (`-o model.py/out.py`): checked before any work, else the job died with a FileExistsError traceback
    after capturing."""
    for ancestor in (folder, *folder.parents):
        if ancestor.exists():
            if not ancestor.is_dir():
                raise UsageError(f"{flag} {target}: {ancestor} is a file, not a folder: give another path")
            return


def write_output(target: str | Path, text: str, inputs: list[str | Path | None] = (), force: bool = False,
                 flag: str = "-o") -> None:
    """Write `text` (with the marker line) to `target` atomically, after `check_writable`."""
    check_writable(target, list(inputs), force, flag)
    target = Path(target)
    tmp = target.with_name(f".{target.name}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(with_marker(text))
        tmp.replace(target)
    except OSError as err:
        raise UsageError(f"cannot write {flag} {target}: {err.strerror}") from None
    finally:
        if tmp.exists():
            tmp.unlink()


def check_folder_writable(folder: str | Path, names: tuple[str, ...], force: bool, flag: str, ours, not_ours: str,
                          writer: str, holds: str = "") -> None:
    """check_writable for a folder a command writes fixed file names into (`names`): refuse (exit 2) a folder
    that is a file, or one holding any of `names` that `ours(path)` does not recognise as KernelOPT's, which
    the command (`writer`) would replace; `not_ours` says, in the message, what such a file fails to be, and
    `holds` what goes in the folder. `--force` lifts the second refusal, not the first."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{flag} {folder} is a file: give a folder" + (f" ({holds})" if holds else ""))
    _refuse_a_file_on_the_way(folder.parent, flag, folder)
    if force:
        return
    theirs = [name for name in names if (folder / name).exists() and not ours(folder / name)]
    if theirs:
        raise UsageError(f"{flag} {folder}: {', '.join(theirs)} there {not_ours} and the {writer} would replace it: "
                         "give another folder, move it, or pass --force to replace it")
