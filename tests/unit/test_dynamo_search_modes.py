"""`torch.compile(backend="kernelopt")` with options={"search": "background"} and {"specialize": "seen"},
and the persistent cache under two processes, on the CPU (Triton's interpreter, cost_model static).

`proposers: []` keeps each search to the pipeline's fixed part (about a second), except where a search
must still be running when its process exits.
"""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from kernelopt.backend.cache import ModuleCache
from test_dynamo_backend import callees_of_the_compiled_graph
from test_dynamo_backend import fresh_dynamo  # noqa: F401 (autouse: a fresh Dynamo and cache folder per test)

# The backend's whole path on the CPU (cost_model "static"): Triton's interpreter runs the kernels.
pytestmark = pytest.mark.skipif(os.environ.get("TRITON_INTERPRET") != "1",
                                reason="CPU path of the backend: needs TRITON_INTERPRET=1 (scripts/test.sh sets it)")

CPU = {"cost_model": "static", "proposers": []}
BACKGROUND = CPU | {"search": "background"}
LOGGER = "kernelopt.backend"
SEARCH_TIMEOUT_S = 180


class SiluSoftmax(torch.nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x) + torch.softmax(x, dim=-1)


class ItemBreak(torch.nn.Module):
    """`.item()` and `print` split forward into two graphs (Dynamo's graph breaks)."""

    def forward(self, x):
        y = torch.softmax(x, dim=-1) * 2.0
        scale = y.amax().item()
        print("scale", scale)
        return torch.tanh(y) / scale


def _log_has(caplog, text: str) -> bool:
    return any(text in r.getMessage() for r in caplog.records)


def test_background_search_rebuilds_a_corrupt_entry_and_swaps_it_in_between_calls_it_never_blocks(caplog):
    model = SiluSoftmax()
    with torch.no_grad():                        # an entry for this graph, then truncated
        torch.compile(model, backend="kernelopt", options=CPU, dynamic=False)(torch.randn(7, 33))
    entry = ModuleCache().entries()[0].path
    entry.write_text(entry.read_text()[:-40])
    torch._dynamo.reset()
    compiled = torch.compile(model, backend="kernelopt", options=BACKGROUND, dynamic=False)
    call_seconds, started = [], time.perf_counter()
    with caplog.at_level(logging.INFO, logger=LOGGER), torch.no_grad():
        while not _log_has(caplog, "first call of the emitted module"):
            assert time.perf_counter() - started < SEARCH_TIMEOUT_S and "failed" not in caplog.text, caplog.text
            x = torch.randn(7, 33)               # fresh inputs: the search copied the first call's only
            began = time.perf_counter()
            got = compiled(x)
            call_seconds.append(time.perf_counter() - began)
            torch.testing.assert_close(got, model(x))
            time.sleep(0.05)                     # the search process needs a core of this machine too
        for _ in range(3):                       # after the swap: the emitted module, same outputs
            x = torch.randn(7, 33)
            torch.testing.assert_close(compiled(x), model(x))
    assert _log_has(caplog, "corrupt cache entry ignored") and _log_has(caplog, "checksum mismatch")
    searched = next(r for r in caplog.records if "runs from the next call" in r.getMessage())
    assert "cache miss" in searched.getMessage() and searched.threadName == "kernelopt-background-search"
    # Inductor's module answered every call while the search ran (calls 2.. are Inductor calls, the
    # first one compiles): none waited for the search, which took many calls' time.
    search_s = float(searched.getMessage().split("background search ")[1].split(" s")[0])
    assert len(call_seconds) >= 5 and max(call_seconds[1:]) < min(2.0, search_s / 2)
    assert str(entry) in searched.getMessage() and ModuleCache().get(entry.stem)    # rebuilt whole
    # swapped in, the emitted module's `call` is what the compiled graph calls: no BackgroundSwap frame left
    assert callees_of_the_compiled_graph(compiled, torch.randn(7, 33)) == [(os.path.realpath(str(entry)), "call")]


RESTART = """
import glob, logging, os, sys, time, torch
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")
sys.path.insert(0, {here!r})
from test_dynamo_search_modes import SiluSoftmax, BACKGROUND
from kernelopt.backend import background_search
model = SiluSoftmax()
with torch.no_grad():
    x = torch.randn(8, 32)        # searched by the previous process: a cache hit, no search
    y = torch.compile(model, backend="kernelopt", options=BACKGROUND, dynamic=False)(x)
    print("max-error", (y - model(x)).abs().max().item(), "searches", background_search.search_process_ids())
    # a new shape, searched with a proposer that takes its time: the process exits while it runs;
    # its inputs (256 bytes) exceed the copy bound set below, so it searches on random inputs
    slow = torch.compile(model, backend="kernelopt", options=dict(BACKGROUND, proposers=["retune"]), dynamic=False)
    slow(torch.randn(4, 16))
deadline = time.time() + 120
while not glob.glob(os.path.join(os.environ["TMPDIR"], "kernelopt-optimize-*")) and time.time() < deadline:
    time.sleep(0.005)
print("search-pid", background_search.search_process_ids()[0], "work", os.listdir(os.environ["TMPDIR"]), flush=True)
background_search.STOP_WAIT_S = {stop_wait_s}     # 0: the search gets no time to clean up, SIGKILL at once
"""


# 10 s: the search ends on SIGTERM and removes its folders itself; 0 s: it is killed at once (what a
# loaded machine gives when it is slow to unwind) and the exiting process sweeps what it owned.
@pytest.mark.parametrize("stop_wait_s", [10.0, 0.0], ids=["terminated", "killed"])
def test_a_second_process_starts_warm_from_the_cache_and_exits_promptly_while_a_search_runs(
        tmp_path, caplog, stop_wait_s):
    model = SiluSoftmax()
    with caplog.at_level(logging.INFO, logger=LOGGER), torch.no_grad():     # this process fills the cache
        torch.compile(model, backend="kernelopt", options=CPU, dynamic=False)(torch.randn(8, 32))
    assert _log_has(caplog, "cache miss")
    temp = tmp_path / "tmp"
    temp.mkdir()
    from torch._inductor.runtime.cache_dir_utils import cache_dir as inductor_cache_dir

    env = dict(os.environ, TRITON_INTERPRET="1", TMPDIR=str(temp), TORCHINDUCTOR_CACHE_DIR=inductor_cache_dir(),
               KERNELOPT_BACKGROUND_INPUT_BYTES="100")
    code = RESTART.format(here=str(Path(__file__).parent), stop_wait_s=stop_wait_s)
    second = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    lines = []
    for line in second.stdout:                   # read as it comes: the exit is timed from the last line
        lines.append(line)
        if line.startswith("search-pid"):
            break
    exiting = time.perf_counter()
    rest, err = second.communicate(timeout=60)
    exit_s, out = time.perf_counter() - exiting, "".join(lines) + rest
    assert second.returncode == 0, err[-3000:]
    assert "cache hit" in out and "searches []" in out and "running the emitted module" in out
    assert float(out.split("max-error")[1].split()[0]) < 1e-5
    assert "0.0 MiB left of what background searches may hold" in out and "so they are not copied" in out
    assert "kernelopt-optimize-" in out.split("search-pid")[1]           # it was searching at exit
    assert exit_s < 15, out
    pid = int(out.split("search-pid")[1].split()[0])
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)                                                 # the search process is gone ...
    assert [p.name for p in temp.iterdir() if p.name.startswith("kernelopt")] == []   # ... with its folders


WRITER = """
import os, random, sys, time
from pathlib import Path
from kernelopt.backend.cache import ModuleCache
cache, go, tag = ModuleCache(Path(sys.argv[1])), Path(sys.argv[2]), sys.argv[3]
while not go.exists():
    time.sleep(0.001)
for i in range(150):
    cache.put("k" * 64, "# " + tag * random.randint(1, 50000) + "\\n", {{"writer": tag}})
"""


def test_two_processes_writing_the_same_entry_at_once_both_succeed_and_it_stays_valid(tmp_path):
    root, go = tmp_path / "backend", tmp_path / "go"
    writers = [subprocess.Popen([sys.executable, "-c", WRITER.format(), str(root), str(go), tag],
                                stderr=subprocess.PIPE, text=True) for tag in "ab"]
    go.touch()
    cache, reads = ModuleCache(root), 0
    while any(w.poll() is None for w in writers):       # a reader meanwhile sees one whole entry or none
        found = cache.get("k" * 64)           # raises CorruptEntry for half an entry or a mix of two
        if found is not None:
            assert found[1]["writer"] in ("a", "b")
            reads += 1
    for writer in writers:
        assert writer.wait() == 0, writer.stderr.read()
    path, header = cache.get("k" * 64)                   # valid: its checksum holds
    text = path.read_text().split("\n", 1)[1]
    assert set(text[2:-1]) == {header["writer"]} and reads > 0
    assert [p.name for p in root.iterdir()] == ["k" * 64 + ".py"]        # no temp file left behind


def test_specialize_seen_compiles_a_static_specialization_once_a_size_was_called_n_times(caplog):
    model = SiluSoftmax()
    compiled = torch.compile(model, backend="kernelopt", dynamic=True,
                             options=CPU | {"specialize": "seen", "specialize_after": 2})
    with caplog.at_level(logging.INFO, logger=LOGGER), torch.no_grad():
        for shape in [(5, 7), (5, 7), (5, 7), (1, 7), (5, 7)]:
            x = torch.randn(*shape)
            torch.testing.assert_close(compiled(x), model(x))
    messages = [r.getMessage() for r in caplog.records]
    assert any("symbolic sizes" in m for m in messages)
    compiles = [m for m in messages if "compiling a static specialization" in m]
    assert len(compiles) == 1 and "size (5, 7)" in compiles[0] and "called 2 times" in compiles[0]
    assert any("calls of size (5, 7) run its static specialization" in m for m in messages)
    emitted = [m for m in messages if "running the emitted module" in m]
    assert len(emitted) == 1                     # the specialization is KernelOPT's module; (1, 7) is not


def test_a_graph_break_runs_both_graphs_through_the_backend(caplog, capsys):
    model = ItemBreak()
    compiled = torch.compile(model, backend="kernelopt", options=CPU, dynamic=False)
    x = torch.randn(3, 5)
    with caplog.at_level(logging.INFO, logger=LOGGER), torch.no_grad():
        got = compiled(x)
    torch.testing.assert_close(got, model(x))
    assert "scale" in capsys.readouterr().out
    emitted = [r.getMessage().split(":")[1] for r in caplog.records if "running the emitted module" in r.getMessage()]
    assert len(emitted) == 2 and len(set(emitted)) == 2      # the graphs before and after the break


@pytest.mark.parametrize("options, expected", [
    ({"search": "later"}, "option 'search' must be one of 'blocking', 'background', got 'later'"),
    ({"specialize": "all"}, "option 'specialize' must be one of 'none', 'seen'"),
    ({"specialize_after": 3}, "option 'specialize_after' applies to specialize='seen' only"),
    ({"specialize": "seen", "specialize_max": 0}, "option 'specialize_max' must be at least 1, got 0"),
    ({"specialize": "seen", "specialize_after": 2.5}, "option 'specialize_after' must be int, got 2.5"),
])
def test_a_wrong_search_option_is_a_clear_error_at_compile_time(options, expected):
    compiled = torch.compile(SiluSoftmax(), backend="kernelopt", options=CPU | options)
    with pytest.raises(Exception, match="torch.compile\\(backend='kernelopt'\\)") as raised:
        compiled(torch.randn(4, 8))
    assert expected in str(raised.value)
