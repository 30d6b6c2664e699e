"""Issue 20, item 1: what a new user meets at the front end — no lost files, no tracebacks, messages that
say what, where and how to fix, and the contracts the commands promise (emitted modules are output
modules too; check takes capture's inputs; the user install has no test plugin).

Commands run in-process through their `main()` (same code path as the console scripts, without a new
interpreter per test) unless the test is about the process itself."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest
import torch

from kernelopt.cli import main as kernelopt
from kernelopt.opt import main as kernelopt_opt

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "tests" / "corpus" / "cpu-2.13"
MLP = CORPUS / "mlp" / "small.default"
SOFTMAX_MODULE = CORPUS / "softmax" / "small.default" / "softmax.default.0.py"
MARKER = "# kernelopt-output"
SMALL_KIR = """ko.module @small {
  %buf0 = ko.alloc : tensor<4xf32, [1]>
  ko.return %buf0
}
"""


GELU_CANDIDATE = '''
import triton
import triton.language as tl


@triton.jit
def _gelu(ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    x = tl.load(ptr + i, m).to(tl.float32)
    z = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tl.store(ptr + i, 0.5 * x * (1.0 + (2.0 / (1.0 + tl.exp(-2.0 * z)) - 1.0)), m)   # tanh(z) through exp


def run(in_out_ptr0, xnumel):
    _gelu[(triton.cdiv(xnumel, 1000),)](in_out_ptr0, xnumel, BLOCK=1024)
'''


def _no_traceback(text: str) -> None:
    assert "Traceback" not in text and "UnicodeDecodeError" not in text, text


# -- a. every -o file starts with the marker; the input and files we did not write are never replaced ------

def test_opt_output_has_the_marker_and_reads_back(tmp_path, capsys):
    source, out = tmp_path / "in.kir", tmp_path / "out.kir"
    source.write_text(SMALL_KIR)
    assert kernelopt_opt([str(source), "-o", str(out)]) == 0
    assert out.read_text().splitlines()[0] == MARKER
    assert kernelopt_opt([str(out), "-o", str(out)]) == 2            # the input itself: refused
    assert kernelopt_opt([str(out), "-o", str(tmp_path / "again.kir")]) == 0   # the marked file parses
    assert kernelopt_opt([str(source), "-o", str(out)]) == 0          # ours: replaced without --force


@pytest.mark.parametrize("command", ["opt", "lift", "emit"])
def test_output_over_a_file_we_did_not_write_is_refused_unless_forced(tmp_path, capsys, command):
    source = tmp_path / "in.kir"
    source.write_text(SMALL_KIR)
    user_file = tmp_path / "mine.py"
    user_file.write_text("print('my work')\n")
    run = {"opt": lambda *extra: kernelopt_opt([str(source), "-o", str(user_file), *extra]),
           "lift": lambda *extra: kernelopt(["lift", str(SOFTMAX_MODULE), "-o", str(user_file), *extra]),
           "emit": lambda *extra: kernelopt(["emit", str(source), "-o", str(user_file), *extra])}[command]
    assert run() == 2
    err = capsys.readouterr().err
    assert "was not written by KernelOPT" in err and "--force" in err
    assert user_file.read_text() == "print('my work')\n"
    assert run("--force") == 0
    assert user_file.read_text().startswith(MARKER + "\n")


def test_optimize_refuses_an_unmarked_output_or_sidecar_before_any_work(tmp_path, capsys):
    model = tmp_path / "model.py"
    model.write_text("raise SystemExit('the model must not even be imported')\n")
    mine = tmp_path / "mine.py"
    mine.write_text("# my module\n")
    assert kernelopt(["optimize", str(model), "-o", str(mine)]) == 2
    assert mine.read_text() == "# my module\n"
    (tmp_path / "out.json").write_text('{"mine": true}')
    assert kernelopt(["optimize", str(model), "-o", str(tmp_path / "out.py")]) == 2
    assert "out.json" in capsys.readouterr().err
    assert kernelopt(["optimize", str(model), "-o", str(model)]) == 2
    assert "input file itself" in capsys.readouterr().err



def test_optimize_refuses_an_output_its_own_sidecar_would_replace(tmp_path, capsys):
    # `-o out.json` wrote the module, then the argument mapping over it, and said "wrote out.json (+ out.json...)".
    model = tmp_path / "model.py"
    model.write_text("raise SystemExit('the model must not even be imported')\n")
    for flags in ([], ["--force"]):
        assert kernelopt(["optimize", str(model), "-o", str(tmp_path / "out.json"), *flags]) == 2
        assert "give a .py path" in capsys.readouterr().err
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("name", ["manifest.json", "inputs.pt", "outputs.pt"])
def test_capture_refuses_a_folder_holding_the_users_files_before_any_work(tmp_path, capsys, name):
    # `kernelopt capture MODEL -o .` replaced the folder's own manifest.json and inputs.pt, silently.
    model = tmp_path / "model.py"
    model.write_text("raise SystemExit('the model must not even be imported')\n")
    (tmp_path / name).write_text("mine\n")
    assert kernelopt(["capture", str(model), "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert name in err and "--force" in err
    assert (tmp_path / name).read_text() == "mine\n"
    assert kernelopt(["capture", str(model), "-o", str(model)]) == 2
    assert "is a file" in capsys.readouterr().err


def test_capture_into_an_earlier_captures_folder_replaces_it(tmp_path):
    shutil.copytree(MLP, tmp_path / "cap")
    done = subprocess.run([sys.executable, "-m", "kernelopt.cli", "capture", str(REPO / "tests" / "zoo" / "mlp.py"),
                           "-o", str(tmp_path / "cap"), "--store-tensors", "no"], capture_output=True, text=True,
                          env=dict(os.environ, TRITON_INTERPRET="1"), timeout=600)
    assert done.returncode == 0, done.stderr

@pytest.mark.parametrize("name, content", [("report.md", "# notes I keep here\n"), ("report.json", '{"mine": 1}'),
                                           ("report.png", "not KernelOPT's plot")])
def test_optimize_refuses_a_report_folder_holding_the_users_report_files_before_any_work(tmp_path, capsys, name,
                                                                                         content):
    # `--report .` in a project folder replaced its report.md with KernelOPT's, silently (-o was guarded).
    model = tmp_path / "model.py"
    model.write_text("raise SystemExit('the model must not even be imported')\n")
    (tmp_path / name).write_text(content)
    assert kernelopt(["optimize", str(model), "-o", str(tmp_path / "out.py"), "--report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert name in err and "--force" in err
    assert (tmp_path / name).read_text() == content
    assert not (tmp_path / "out.py").exists()
    assert kernelopt(["optimize", str(model), "-o", str(tmp_path / "out.py"), "--report", str(tmp_path / name)]) == 2
    assert "is a file" in capsys.readouterr().err
    for report in ("out.py", "out.json"):         # a folder the job would create where it writes its module
        assert kernelopt(["optimize", str(model), "-o", str(tmp_path / "out.py"), "--report",
                          str(tmp_path / report)]) == 2
        assert "give a folder of its own" in capsys.readouterr().err


def test_a_report_folder_holding_an_earlier_jobs_report_is_written_over(tmp_path):
    from kernelopt.optimize_job import StepRecord
    from kernelopt.report.build import check_report_writable, plot, write_minimal_report

    plot({"kernels": []}, tmp_path / "report.png")
    write_minimal_report(tmp_path, [StepRecord("capture", "failed", "x")], {"status": "failed"})
    assert not (tmp_path / "report.png").exists()        # a plot of an earlier run's kernels does not stay
    plot({"kernels": []}, tmp_path / "report.png")
    check_report_writable(tmp_path, force=False)


# -- b. every module-level third-party import of the product is a declared dependency -----------------------

def test_module_level_imports_are_declared_dependencies():
    from importlib.metadata import packages_distributions

    declared = {d.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower()
                for d in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]}
    distributions = packages_distributions()
    missing = []
    for folder in ("kernelopt", "ir", "passes", "templates"):
        for path in (REPO / folder).rglob("*.py"):
            for node in ast.parse(path.read_text()).body:   # module level only: lazy imports are optional
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
                for name in names:
                    top = name.split(".")[0]
                    if top in sys.stdlib_module_names or top in ("kernelopt", "__future__"):
                        continue
                    dists = {d.lower() for d in distributions.get(top, [top])}
                    if not dists & declared:
                        missing.append(f"{path.relative_to(REPO)}: {top}")
    assert not missing, f"imported at module level but not in [project].dependencies: {missing}"


# -- c. check --inputs takes the {"args": [...]} file capture writes -----------------------------------------

def test_check_accepts_the_inputs_file_capture_writes(tmp_path, capsys):
    inputs, candidate = tmp_path / "inputs.pt", tmp_path / "gelu.py"
    candidate.write_text(GELU_CANDIDATE)
    torch.save({"args": torch.load(MLP / "inputs.pt", weights_only=True)["args"]}, inputs)
    code = kernelopt(["check", str(MLP / "mlp.default.0.py"), "--kernel", "no_such_kernel",
                      "--candidate", str(candidate), "--inputs", str(inputs)])
    err = capsys.readouterr().err
    assert code == 2 and "expected a list" not in err and "found dict" not in err
    assert "no Triton kernel named 'no_such_kernel'" in err     # it got past the inputs, to the kernel
    torch.save({"tensors": []}, inputs)
    assert kernelopt(["check", str(MLP / "mlp.default.0.py"), "--kernel", "k", "--candidate", str(candidate),
                      "--inputs", str(inputs)]) == 2
    assert "under 'args'" in capsys.readouterr().err


# -- d. an emitted module lifts, checks and re-emits like an Inductor output module ---------------------------

@pytest.fixture(scope="module")
def emitted_mlp(tmp_path_factory):
    out = tmp_path_factory.mktemp("emitted") / "mlp_emitted.py"
    assert kernelopt(["emit", str(MLP / "mlp.default.0.py"), "--manifest", str(MLP / "manifest.json"),
                      "-o", str(out)]) == 0
    return out


def test_emitted_module_lifts_like_its_input(emitted_mlp):
    from kernelopt.ir.verifier import verify
    from kernelopt.lift import lift_file

    original, again = lift_file(str(MLP / "mlp.default.0.py")), lift_file(str(emitted_mlp))
    assert not verify(again).errors
    assert [k.symbol for k in again.kernels] == [k.symbol for k in original.kernels]
    assert again.kernels[0].attrs["kind"] == original.kernels[0].attrs["kind"]
    assert [(op.name, op.symbol or op.callee) for op in again.body if op.name in ("ko.launch", "ko.extern")] == \
        [(op.name, op.symbol or op.callee) for op in original.body if op.name in ("ko.launch", "ko.extern")]
    assert [str(a.result.type) for a in again.ops_named("ko.arg")] == \
        [str(a.result.type) for a in original.ops_named("ko.arg")]
    assert again.launches()[0].attrs["config"]["grid"] == [64, 1, 1]    # the config the emitted module pinned


def test_reemitted_module_computes_what_the_original_does(emitted_mlp, tmp_path, capsys):
    from kernelopt.runtime.loader import load_output_module

    again = tmp_path / "again.py"
    assert kernelopt(["emit", str(emitted_mlp), "-o", str(again)]) == 0
    args = [torch.randn(t.shape, dtype=t.dtype) for t in torch.load(MLP / "inputs.pt", weights_only=True)["args"]]
    w1, b1, x, w2, b2 = (a.double() for a in args)          # call() order: weight, bias, input, ...
    reference = torch.nn.functional.gelu(x @ w1.T + b1, approximate="tanh") @ w2.T + b2   # the mlp in float64
    outputs = [load_output_module(str(path), "cpu").call([a.clone() for a in args])[0]
               for path in (MLP / "mlp.default.0.py", again)]
    torch.testing.assert_close(outputs[1], outputs[0], atol=0, rtol=0)    # same kernels, same configs
    error = (outputs[1].double() - reference).abs().max() / reference.abs().max()
    assert error < 0.02                                                  # bf16 math against float64




def test_check_finds_the_kernels_of_an_emitted_module(emitted_mlp, tmp_path, capsys):
    candidate = tmp_path / "gelu.py"
    candidate.write_text(GELU_CANDIDATE)
    code = kernelopt(["check", str(emitted_mlp), "--kernel", "triton_poi_fused_gelu_0", "--candidate", str(candidate)])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("ACCEPT"), out
    assert "float64 reference failed" not in out


# -- e. the user install has no test plugin; the tests still find it ----------------------------------------

def test_user_install_lists_no_example_passes():
    assert "tests/plugins" not in "".join(l for l in (REPO / "scripts" / "install.sh").read_text().splitlines()
                                          if not l.lstrip().startswith("#"))
    plugin_free = os.pathsep.join(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                  if p and "plugin" not in p)
    listed = subprocess.run([sys.executable, "-m", "kernelopt.opt", "--list-passes"], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=plugin_free), timeout=120)
    assert listed.returncode == 0 and "classify-dispatch" in listed.stdout
    assert "example-" not in listed.stdout


def test_tests_see_the_example_plugin():
    from kernelopt.passes.registry import registry

    assert registry()["example-tag"].__module__ == "kernelopt_example_plugin.passes"


# -- f. non-UTF-8 input ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["kernelopt.cli", "lift"], ["kernelopt.opt"]])
def test_a_reader_that_closes_the_pipe_early_gets_no_traceback(command):
    # `kernelopt cache list | head` printed a BrokenPipeError traceback once head had its lines.
    args = [sys.executable, "-m", *command, str(SOFTMAX_MODULE)] + (["-p", "classify-dispatch"]
                                                                    if command[0] == "kernelopt.opt" else [])
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()                      # the reader is gone before the first line is written
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141, err
    _no_traceback(err)
    assert "BrokenPipeError" not in err and "Exception ignored" not in err


def test_non_utf8_file_is_a_located_error(tmp_path, capsys):
    bad = tmp_path / "latin1.py"
    bad.write_bytes(b"def call(args):\n    x = 'caf\xe9'\n")
    assert kernelopt_opt([str(bad), "-p", "classify-dispatch"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2:13: not UTF-8 text" in err
    assert kernelopt(["optimize", str(bad), "-o", str(tmp_path / "out.py")]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2:13: not UTF-8 text" in err
    _no_traceback(err)


# -- g. any exception inside a pass is a diagnostic naming the pass ------------------------------------------

def test_exception_inside_a_pass_names_the_pass(tmp_path, capsys):
    kir = tmp_path / "proposed.kir"   # a proposed rewrite of a vendor call no vendor target handles
    kir.write_text('ko.module @m {\n  %a = ko.arg 0 : tensor<4x4xf32, [4, 1]>\n'
                   '  %b = ko.alloc : tensor<4x4xf32, [4, 1]>\n'
                   '  ko.extern "extern_kernels.no_such_call"(%a, out=%b) {rewrite = {status = "proposed", '
                   'target = "vendor:0", source = "def run(*args):\\n    pass\\n"}}\n  ko.return %b\n}\n')
    assert kernelopt_opt([str(kir), "-p", "check-legality"]) == 1
    err = capsys.readouterr().err
    assert "pass 'check-legality' failed on this input: KeyError" in err
    _no_traceback(err)


# -- h. kernelopt.optimize with a bare tensor ------------------------------------------------------------------

class _ShapeReporter(torch.nn.Module):
    def forward(self, x):
        raise ValueError(f"forward saw shape {tuple(x.shape)}")


def test_optimize_takes_a_bare_tensor_and_names_the_model_not_an_internal_entry(tmp_path):
    import kernelopt
    from kernelopt.errors import InputError

    with pytest.raises(InputError) as caught:
        kernelopt.optimize(_ShapeReporter(), torch.randn(3, 5), output=str(tmp_path / "o.py"))
    assert "forward saw shape (3, 5)" in str(caught.value)          # the tensor is one input, not 3 rows
    assert "kernelopt_api_models" not in str(caught.value) and "_ShapeReporter" in str(caught.value)
    with pytest.raises(InputError, match="a list or tuple"):
        kernelopt.optimize(_ShapeReporter(), {"x": torch.randn(3)}, output=str(tmp_path / "o.py"))


# -- i. located, clipped errors; the right missing file; unknown pass names ----------------------------------

def test_kir_cut_off_inside_a_string_is_located_and_clipped(tmp_path, capsys):
    cut = tmp_path / "cut.kir"
    cut.write_text('ko.module @m {\n  ko.kernel @k {kind = "pointwise", source = "' + "x = 1\\n" * 500)
    assert kernelopt_opt([str(cut)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{cut}:2:46: error: unterminated string")
    assert max(len(line) for line in err.splitlines()) < 200


def test_load_of_a_missing_module_names_it(tmp_path):
    import kernelopt
    from kernelopt.errors import InputError

    with pytest.raises(InputError, match=r"nosuch\.py: no such file") as caught:
        kernelopt.load(str(tmp_path / "nosuch.py"), torch.nn.Identity())
    assert "nosuch.json" not in str(caught.value)


def test_unknown_pass_name_in_print_ir_after_is_refused(tmp_path, capsys):
    source = tmp_path / "in.kir"
    source.write_text(SMALL_KIR)
    assert kernelopt_opt([str(source), "-p", "classify-dispatch", "--print-ir-after=clasify-dispatch"]) == 2
    err = capsys.readouterr().err
    assert "--print-ir-after=clasify-dispatch: no pass has that name" in err and "classify-dispatch" in err


# -- j. CPU runs: no torch backend warning, no claim that --device cpu was given ------------------------------

def test_cpu_interpreter_setup_silences_the_cpu_backend_warning():
    from torch._inductor.runtime import triton_helpers

    from kernelopt.runtime.interpret import install_cpu_triton_shims

    install_cpu_triton_shims()
    with warnings.catch_warnings(record=True) as seen:
        triton_helpers.set_driver_to_cpu()      # what Inductor's CPU kernels call
    assert not [w for w in seen if "CPU backend" in str(w.message)]


@pytest.mark.skipif(torch.cuda.is_available(), reason="about machines without a GPU")
def test_profile_remark_says_no_cuda_device(tmp_path, capsys):
    kir = tmp_path / "in.kir"
    kir.write_text(SMALL_KIR.replace("ko.return", 'ko.kernel @k {kind = "pointwise", source = ""}\n'
                                     "  ko.launch @k(%buf0, 4)\n  ko.return"))
    assert kernelopt_opt([str(kir), "-p", "annotate-profile", "--device", "cpu"]) == 0
    err = capsys.readouterr().err
    assert "timing skipped (no CUDA device)" in err and "was given" not in err


# -- k, l. the report: no temp paths in remarks; a legible plot ----------------------------------------------

def test_report_names_no_path_inside_the_work_folder(tmp_path):
    from kernelopt.ir.core import Location
    from kernelopt.lift import lift_file
    from kernelopt.optimize_job import OptimizeOptions, StepRecord
    from kernelopt.passes.base import PassContext
    from kernelopt.report.build import write_report

    work = tmp_path / "kernelopt-job-x"
    work.mkdir()
    module_path = work / SOFTMAX_MODULE.name
    shutil.copy(SOFTMAX_MODULE, module_path)
    ctx = PassContext()
    ctx.diagnostics.warning("an unmodelled statement", Location(str(module_path), 12))
    steps = [StepRecord("optimize", "failed", f"cannot read {module_path}")]
    report = write_report(tmp_path / "report", lift_file(str(module_path)), ctx, steps, None, str(module_path),
                          tmp_path / "out.py", None, OptimizeOptions(), "cpu", None,
                          extra=lambda: {"status": "fallback", "fallback_reason": f"{module_path}: broken"},
                          work_dir=work)
    text = (tmp_path / "report" / "report.md").read_text() + (tmp_path / "report" / "report.json").read_text()
    assert str(work) not in text
    assert f"{SOFTMAX_MODULE.name}:12: warning: an unmodelled statement" in report["remarks"]


def test_a_report_of_the_static_cost_model_says_its_kernel_figures_are_estimates(tmp_path):
    # On the CPU a report's kernel table showed "after µs 2.15, speedup 1.45x" beside "time µs –", nowhere
    # saying that no kernel had been timed.
    from kernelopt.lift import lift_file
    from kernelopt.optimize_job import OptimizeOptions
    from kernelopt.passes.base import PassContext
    from kernelopt.report.build import STATIC_ESTIMATES_NOTE, write_report

    for cost_model, said in (("static", True), ("measure", False)):
        folder = tmp_path / cost_model
        report = write_report(folder, lift_file(str(SOFTMAX_MODULE)), PassContext(), [], None, str(SOFTMAX_MODULE),
                              tmp_path / "out.py", None, OptimizeOptions(cost_model=cost_model), "cpu", None)
        assert report["cost_model"] == cost_model
        assert (STATIC_ESTIMATES_NOTE in (folder / "report.md").read_text()) is said


def test_plot_bars_sit_on_their_ticks_and_labels_are_unique(tmp_path):
    from kernelopt.report.build import plot, plot_layout

    prefix = "triton_per_fused__log_softmax_"
    rows = [{"op": f"{prefix}{i}_{'x' * i}", "time_us": None, "after_us": None, "floor_us": 1.0 + i}
            for i in range(5)]
    layout = plot_layout(rows)
    assert layout["series"]["floor"]["x"] == layout["ticks"]           # alone: centred on its tick
    assert len(set(layout["labels"])) == len(rows)
    assert all(row["op"] in line for row, line in zip(rows, layout["legend"]))   # full names listed
    for row in rows:
        row["time_us"], row["after_us"] = 3.0, 2.0
    series = plot_layout(rows)["series"]
    for i in range(len(rows)):                                          # a group of three, centred
        assert abs(sum(series[s]["x"][i] for s in series) / 3 - i) < 1e-9
    assert plot({"kernels": rows}, tmp_path / "report.png") is None
    assert (tmp_path / "report.png").stat().st_size > 0
