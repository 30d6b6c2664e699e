"""`torch.compile(model, backend="kernelopt", options=...)` on the CPU (Triton's interpreter).

options={"cost_model": "static"} runs the whole path here: Inductor writes Triton kernels for CPU
tensors, the optimize job lifts, runs the pipeline and emits a module, the backend swaps it in for
Inductor's `call` and keeps it in the persistent cache. `proposers: []` keeps the search empty so each
compile costs a second, not a search (the search itself has its own tests).
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from kernelopt.backend.cache import ModuleCache
from kernelopt.cli import main as cli_main

CPU = {"cost_model": "static", "proposers": []}
LOGGER = "kernelopt.backend"

# The backend's whole path on the CPU (cost_model "static"): Triton's interpreter runs the kernels.
pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="CPU path of the backend: needs TRITON_INTERPRET=1 (scripts/test.sh sets it)")


class SiluSoftmax(torch.nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x) + torch.softmax(x, dim=-1)


SCRIPT = """
import logging, sys, torch
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")
sys.path.insert(0, {here!r})
from test_dynamo_backend import SiluSoftmax, CPU

model = SiluSoftmax()
x = torch.randn(8, 32)
with torch.no_grad():
    y = torch.compile(model, backend="kernelopt", options=CPU, dynamic=False)(x)
print("max-error", (y - model(x)).abs().max().item())
"""


@pytest.fixture(autouse=True)
def fresh_dynamo(tmp_path, monkeypatch):
    """Each test compiles afresh, into its own cache folder."""
    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(tmp_path / "cache"))
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


def _compile_and_check(model, shape, caplog, options=CPU, **compile_kwargs):
    compiled = torch.compile(model, backend="kernelopt", options=options, **compile_kwargs)
    x = torch.randn(*shape)
    with caplog.at_level(logging.INFO, logger=LOGGER), torch.no_grad():
        got = compiled(x)
    torch.testing.assert_close(got, model(x))
    return compiled


def test_compiled_model_gives_eager_outputs_runs_the_emitted_module_and_recompiles_per_shape(caplog):
    model = SiluSoftmax()
    compiled = _compile_and_check(model, (8, 32), caplog, dynamic=False)
    entries = ModuleCache().entries()
    assert len(entries) == 1 and "# kernelopt-output" in entries[0].path.read_text()
    assert "cache miss" in caplog.text and f"running the emitted module {entries[0].path}" in caplog.text
    caplog.clear()
    x = torch.randn(4, 16)     # a new shape: Dynamo recompiles, and that graph is optimized on its own
    with caplog.at_level(logging.INFO, logger=LOGGER), torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))
    assert "running the emitted module" in caplog.text
    assert len(ModuleCache().entries()) == 2


def test_a_second_process_loads_the_cached_module_without_running_the_pipeline(caplog):
    _compile_and_check(SiluSoftmax(), (8, 32), caplog, dynamic=False)     # this process fills the cache
    assert "cache miss" in caplog.text
    env = dict(os.environ, TRITON_INTERPRET="1")
    code = SCRIPT.format(here=str(Path(__file__).parent))
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr[-2000:]
    assert "cache hit" in second.stdout and "cache miss" not in second.stdout
    assert float(second.stdout.split("max-error")[1]) < 1e-5


def test_a_corrupt_entry_is_ignored_with_a_warning_and_rebuilt(caplog):
    model = SiluSoftmax()
    _compile_and_check(model, (8, 32), caplog, dynamic=False)
    entry = ModuleCache().entries()[0].path
    entry.write_text(entry.read_text()[:-40])      # truncated: the checksum no longer matches
    torch._dynamo.reset()
    caplog.clear()
    _compile_and_check(model, (8, 32), caplog, dynamic=False)
    assert "corrupt cache entry ignored" in caplog.text and "checksum mismatch" in caplog.text
    assert "cache miss" in caplog.text
    ModuleCache().get(entry.stem)                  # rebuilt whole: it checks out again


@pytest.mark.parametrize("options, expected", [
    ({"cost_model": "static", "bogus": 1}, "unknown option 'bogus'; known options: base, cost_model"),
    ({"proposers": ["retune", "no-such"]}, "unknown proposer 'no-such'"),
    ({"precision": "fp8"}, "--precision must be one of strict"),
    ({"time_limit": -5}, "--time-limit must be a positive number of seconds"),
    ({"time_limit": "soon"}, "option 'time_limit' must be int or float"),
])
def test_a_wrong_option_is_a_clear_error_at_compile_time(options, expected):
    compiled = torch.compile(SiluSoftmax(), backend="kernelopt", options=options)
    with pytest.raises(Exception, match="torch.compile\\(backend='kernelopt'\\)") as raised:
        compiled(torch.randn(4, 8))
    assert expected in str(raised.value)


def test_a_failure_inside_kernelopt_falls_back_to_inductors_module_with_a_warning(tmp_path, monkeypatch, caplog):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("KERNELOPT_CACHE_DIR", str(blocked))     # the cache cannot be written
    _compile_and_check(SiluSoftmax(), (8, 32), caplog, dynamic=False)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and r.name == LOGGER]
    assert len(warnings) == 1 and "KernelOPT failed" in warnings[0].getMessage()
    assert "running Inductor's module" in warnings[0].getMessage()


def test_symbolic_sizes_run_inductors_module_and_say_so(caplog):
    _compile_and_check(SiluSoftmax(), (8, 32), caplog, dynamic=True)
    assert "symbolic sizes" in caplog.text and "running Inductor's module" in caplog.text


def test_cache_command_lists_describes_and_clears(tmp_path, capsys):
    cache = ModuleCache()
    cache.put("a" * 64, "def call(args):\n    return []\n", {"rewrites": 2, "device": "cpu"})
    cache.put("b" * 64, "def call(args):\n    return []\n", {"rewrites": 0, "device": "cpu"})
    cache.path("b" * 64).write_text("# kernelopt-cache {}\ntruncated")
    assert cli_main(["cache", "list"]) == 0
    listed = capsys.readouterr().out
    assert "aaaaaaaaaaaaaaaa" in listed and "2 kernel(s) rewritten" in listed and "corrupt:" in listed
    assert cli_main(["cache", "info"]) == 0
    info = capsys.readouterr().out
    assert "entries: 2 (1 corrupt, never loaded)" in info and "of 5.0 GB" in info
    writing = cache.root / ".tmp-another-process.py"     # another process's put(), not renamed onto its entry yet
    writing.write_text("def call(args):\n")
    assert cli_main(["cache", "clear"]) == 0
    assert "removed 2 entries" in capsys.readouterr().out and cache.entries() == []   # said 3, the put's file too
    assert writing.exists()


def test_the_cache_evicts_least_recently_used_entries_beyond_its_cap(tmp_path):
    cache = ModuleCache(tmp_path, limit=10 ** 6)
    for i, key in enumerate(("old", "mid", "new")):
        cache.put(key, "x" * 1000, {})
        os.utime(cache.path(key), (1000 + i, 1000 + i))
    cache.limit = 2500                                 # room for two entries of ~1.1 KB
    cache.get("old")                                   # a hit: now the most recently used
    cache.put("newest", "x" * 1000, {})
    assert sorted(e.key for e in cache.entries()) == ["newest", "old"]


# -- per-call host cost: what runs between Inductor's CompiledFxGraph and the module ----------------

def callees_of_the_compiled_graph(compiled, x) -> list[tuple[str, str]]:
    """(file, function) of each Python function CompiledFxGraph.__call__ calls directly in one call."""
    found = []

    def profile(frame, event, arg):
        caller = frame.f_back
        if event == "call" and caller is not None and caller.f_code.co_name == "__call__" \
                and caller.f_code.co_filename.endswith("output_code.py"):
            found.append((os.path.realpath(frame.f_code.co_filename), frame.f_code.co_name))
    sys.setprofile(profile)
    try:
        with torch.no_grad():
            compiled(x)
    finally:
        sys.setprofile(None)
    torch_itself = os.path.realpath(os.path.dirname(torch.__file__))     # its metrics and context helpers
    return [(f, name) for f, name in found if not f.startswith(torch_itself) and not f.endswith("contextlib.py")]


KERNELOPT_SOURCE = os.path.realpath(str(Path(__file__).parents[2] / "kernelopt"))


@pytest.mark.parametrize("cuda_graphs", ["auto", "on"])
def test_the_compiled_graph_calls_the_emitted_modules_call_directly(caplog, cuda_graphs):
    # Inductor's CompiledFxGraph calls its module's `call` itself; the emitted module must sit exactly there,
    # with no loader wrapper (no_grad, list copy, tuple) and, once graphs are off (a CPU module under
    # cuda_graphs "on" turns them off at its first call), no GraphReplay.run either.
    model = SiluSoftmax()
    compiled = _compile_and_check(model, (5, 33), caplog, options=CPU | {"cuda_graphs": cuda_graphs}, dynamic=False)
    x = torch.randn(5, 33)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x))
    entry = os.path.realpath(str(ModuleCache().entries()[0].path))
    assert ("cuda_graphs = GraphReplay(" in Path(entry).read_text()) == (cuda_graphs == "on")
    callees = callees_of_the_compiled_graph(compiled, x)
    assert callees == [(entry, "call")], callees
    assert not [c for c in callees if c[0].startswith(KERNELOPT_SOURCE)]


def test_a_module_the_job_kept_as_inductors_runs_inductors_own_callable(caplog):
    model = SiluSoftmax()
    _compile_and_check(model, (6, 17), caplog, dynamic=False)
    cache = ModuleCache()
    entry = cache.entries()[0]
    source = entry.path.read_text().split("\n", 1)[1]
    cache.put(entry.key, source, entry.meta | {"emitted": False})     # as the guard leaves it on a GPU
    torch._dynamo.reset()
    caplog.clear()
    compiled = _compile_and_check(model, (6, 17), caplog, dynamic=False)
    assert "the optimize job kept Inductor's module" in caplog.text and "cache hit" in caplog.text
    callees = callees_of_the_compiled_graph(compiled, torch.randn(6, 17))
    assert len(callees) == 1 and callees[0][1] == "call"
    assert callees[0][0] != os.path.realpath(str(entry.path)) and not callees[0][0].startswith(KERNELOPT_SOURCE)
