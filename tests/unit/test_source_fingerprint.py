"""KernelOPT's own source is part of every cache key: an edit (an editable install keeps its version number)
or an upgrade never reuses a search or a compiled module the current code would not produce."""
from __future__ import annotations

from kernelopt.source_fingerprint import kernelopt_fingerprint, source_fingerprint


def test_a_changed_source_file_changes_the_fingerprint(tmp_path):
    (tmp_path / "proposers").mkdir()
    source = tmp_path / "proposers" / "memory_order.py"
    source.write_text("UNIT = 1\n")
    (tmp_path / "notes.txt").write_text("not source")
    before = source_fingerprint([str(tmp_path)])
    (tmp_path / "notes.txt").write_text("still not source")
    assert source_fingerprint([str(tmp_path)]) == before        # only source files count
    source.write_text("UNIT = 2\n")
    edited = source_fingerprint([str(tmp_path)])
    assert edited != before
    (tmp_path / "proposers" / "block_digits.py").write_text("")   # a new module, even an empty one
    assert source_fingerprint([str(tmp_path)]) not in (before, edited)


def test_the_search_cache_key_holds_the_fingerprint():
    """A search cached by an earlier proposer (stale candidates that an edit had since improved) was served
    to the next optimize of the same module: the key named only KernelOPT's version."""
    from kernelopt.rewrite.search_cache import versions

    assert versions()["kernelopt_source"] == kernelopt_fingerprint()
    assert len(kernelopt_fingerprint()) == 64
