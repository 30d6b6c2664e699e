"""Gate behaviour beyond the suite: policies, multi-launch, sandbox, tables, the CLI."""
import os
import re

os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402
import torch  # noqa: E402

from kernelopt.legality import LaunchInputs, check_candidate, tolerance_for  # noqa: E402
from kernelopt.legality import cases as C  # noqa: E402
from kernelopt.legality.sandbox import sandbox_environment  # noqa: E402
from kernelopt.legality.screen import screen_source  # noqa: E402
from tests.adversarial.suite import CANDIDATES  # noqa: E402
from tests.adversarial.targets import CE_STATS, LAYERNORM, SILU_MUL, TARGETS  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "inductor-2.11-h200")


def _candidate(name):
    with open(os.path.join(CANDIDATES, name + ".py")) as handle:
        return handle.read()


def _check(target, source, launches=None, **options):
    options.setdefault("timeout_floor_s", 3.0)
    return check_candidate(target.original(), source, launches or target.launches(),
                           output_args=target.output_args(), reference_fn=target.reference(),
                           original_source=target.source(), arg_names=target.params(), **options)


def test_tolerance_table_never_looser_than_torch_testing():
    defaults = {torch.float32: (1.3e-6, 1e-5), torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5)}
    for dtype, (rtol, atol) in defaults.items():
        tol = tolerance_for(dtype)
        assert tol.rtol <= rtol and tol.atol <= atol
    assert tolerance_for(torch.int64).rtol == 0 and tolerance_for(torch.int64).atol == 0
    assert tolerance_for(torch.float32, "allow-tf32").rtol > tolerance_for(torch.float32).rtol


def test_screen_ignores_comments_and_respects_policy():
    assert screen_source("# torch.cuda.Stream() would be wrong here\nx = 1\n") == []
    assert screen_source("s = get_raw_stream(0)\n") == []
    assert [f.check for f in screen_source("s = get_raw_stream(1)\n")] == ["stream"]
    dot = "c = tl.dot(a, b, input_precision='tf32')\n"
    assert [f.check for f in screen_source(dot)] == ["precision"]
    assert screen_source(dot, precision="allow-tf32") == []
    low_dot = "c = tl.dot(a.to(tl.bfloat16), b.to(tl.bfloat16))\n"
    assert screen_source(low_dot, low_precision_args=True)
    assert screen_source(low_dot, precision="allow-bf16") == []


def test_layout_keeps_shared_storage_and_guards_it():
    base = torch.randn(10)
    launch = LaunchInputs((base[:4], base[2:6], torch.zeros(3, dtype=torch.int64), 7))
    layout = C.make_layout(launch)
    assert layout.places[0].base == layout.places[1].base != layout.places[2].base
    bases = C.build_bases(layout, {0: base[:4], 1: base[2:6]}, "cpu")
    views = layout.views(bases)
    assert torch.equal(views[1], base[2:6]) and views[3] == 7
    guard = ~layout.covered(0, "cpu")
    assert C.is_poison(bases[0])[guard].all() and int(guard.sum()) >= 2 * C.GUARD_MIN
    assert C.is_poison(views[2]).all()      # int arg without values: sentinel everywhere


def test_lowered_precision_is_caught_dynamically_without_screening():
    """What a GPU run relies on when the source hides its precision: the error signature. (fp16 here:
    the interpreter emulates fp16 exactly through numpy, its bf16 emulation is less faithful.)"""
    source = _candidate("gpt2_layernorm__bf16_math").replace("tl.bfloat16", "tl.float16")
    assert _check(LAYERNORM, source).check == "static-precision"
    verdict = _check(LAYERNORM, source, static_screen=False)
    assert verdict.check == "precision", verdict.report()
    assert "lower precision" in verdict.reason


def test_allow_bf16_policy_accepts_bf16_math_and_says_so():
    source = _candidate("ce_softmax_stats__bf16_math")
    assert _check(CE_STATS, source).check == "precision"
    assert _check(CE_STATS, source, precision="allow-bf16").accepted


def test_every_launch_must_pass():
    """A candidate that hard-codes the first launch's size fails on the second launch."""
    small = SILU_MUL.launches()[0]
    gate, up, numel = small.args
    larger = LaunchInputs((torch.randn(32, 64).to(torch.bfloat16), torch.randn(32, 64).to(torch.bfloat16), 2048),
                          label="second launch")
    source = _candidate("silu_mul__accept_sigmoid_block256").replace(
        "_launch(in_out_ptr0, in_ptr0, xnumel)\n", f"_launch(in_out_ptr0, in_ptr0, {numel})\n")
    assert _check(SILU_MUL, source, [small]).accepted
    verdict = _check(SILU_MUL, source, [small, larger])
    assert not verdict.accepted and verdict.check == "mismatch"   # in place: the unwritten half keeps its input
    assert verdict.evidence["launch"].startswith("1")


def test_sandbox_strips_credentials_and_isolates(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("KERNELOPT_LLM_API_KEY", "x")
    monkeypatch.setenv("HF_TOKEN", "x")
    env = sandbox_environment("cpu")
    assert not {"OPENAI_API_KEY", "KERNELOPT_LLM_API_KEY", "HF_TOKEN"} & set(env)
    assert env["TRITON_INTERPRET"] == "1" and "TRITON_INTERPRET" not in sandbox_environment("cuda")
    # A candidate that finds a key or reaches the network writes garbage: it must still be accepted,
    # i.e. neither is visible from inside.
    probe = _candidate("silu_mul__accept_sigmoid_block256") + (
        "\nimport os, socket\n_real = run\n"
        "def run(*args):\n"
        "    leaked = any(k.endswith(('_KEY', '_TOKEN')) for k in os.environ)\n"
        "    try:\n"
        "        socket.create_connection(('1.1.1.1', 53), timeout=1).close(); online = True\n"
        "    except OSError:\n"
        "        online = False\n"
        "    _real(*args)\n"
        "    if leaked or online:\n"
        "        args[0].zero_()\n")
    verdict = _check(SILU_MUL, probe)
    assert verdict.accepted, verdict.report()


def test_crash_does_not_stop_the_next_check():
    assert _check(LAYERNORM, _candidate("gpt2_layernorm__segfault")).check == "crash"
    assert _check(LAYERNORM, _candidate("gpt2_layernorm__accept_row_per_program")).accepted


def test_a_launched_sandbox_checks_candidates_once_its_zygote_is_up():
    """A job launches the gate's zygote before its capture (its imports overlap the capture) and does not
    wait for it; the first check then waits for that same zygote rather than starting another."""
    from kernelopt.legality.sandbox import WorkerPool

    pool = WorkerPool("cpu")
    try:
        pool.launch()
        zygote = pool.process.pid
        assert not pool.ready            # launch returned before the zygote said hello
        pool.launch()                    # a second launch keeps the one starting
        assert pool.process.pid == zygote
        assert _check(LAYERNORM, _candidate("gpt2_layernorm__accept_row_per_program"), pool=pool).accepted
        assert pool.ready and pool.process.pid == zygote
        assert _check(LAYERNORM, _candidate("gpt2_layernorm__segfault"), pool=pool).check == "crash"
    finally:
        pool.close()
    assert not os.path.exists(pool.root)


def test_compile_error_and_missing_run_are_rejections():
    assert _check(SILU_MUL, "def run(:\n").check == "compile"
    assert _check(SILU_MUL, "x = 1\n").check == "no-run"
    verdict = _check(SILU_MUL, "def run(*args):\n    raise RuntimeError('illegal memory access')\n")
    assert verdict.check == "exception" and "illegal memory access" in verdict.reason


def _small_ce_module(tmp_path):
    with open(os.path.join(FIXTURES, "ce.default.0.py")) as handle:
        text = handle.read()
    text = re.sub(r"(?<![\w.])4096(?![\w.])", "8", text)
    text = re.sub(r"(?<![\w.])32000(?![\w.])", "300", text)
    path = tmp_path / "ce_small.py"
    path.write_text(text)
    return str(path)


def test_cli_exit_codes(tmp_path, capsys):
    from kernelopt.cli import main
    module = _small_ce_module(tmp_path)
    kernel = CE_STATS.kernel
    good = os.path.join(CANDIDATES, "ce_softmax_stats__accept_online_softmax.py")
    bad = os.path.join(CANDIDATES, "ce_softmax_stats__first_block_only.py")
    assert main(["check", module, "--kernel", kernel, "--candidate", good, "--launch", "0"]) == 0
    assert capsys.readouterr().out.startswith("ACCEPT")
    assert main(["check", module, "--kernel", kernel, "--candidate", bad]) == 1
    out = capsys.readouterr().out
    assert out.startswith("REJECT: unwritten") and "case: realistic" in out
    assert main(["check", module, "--kernel", "no_such_kernel", "--candidate", good]) == 2
    assert main(["check", module, "--kernel", kernel, "--candidate", str(tmp_path / "missing.py")]) == 2
    assert main(["check", module, "--kernel", kernel, "--candidate", good, "--launch", "5"]) == 2


# --------------------------------------------------------------------------- time limits and data path

_SLOW_COMPILE = '''
import gc, time
import triton

# the sandbox's reporter, as its wrappers around triton.compile / CompiledKernel._init_handles use it
# (the worker runs as __main__: found by class name)
_events = next(o for o in gc.get_objects() if type(o).__name__ == "_Events")
assert "_watch_compiles" in triton.compile.__qualname__, "triton.compile is not watched"
_real = run


def run(*args):
    if {compiles}:
        _events.compile_enter()
    time.sleep(2.6)   # 2.5 s plus a margin: the gate sees the span between two messages, and on a loaded
                      # machine it may read compile-start a little late (CI once booked 2.4998 s)
    if {compiles}:
        _events.compile_exit()
    _real(*args)
'''


def test_compilation_does_not_count_against_the_run_time_limit():
    """2.5 s reported as compilation passes a 1 s run limit; the same 2.5 s of plain running does not,
    and is caught after about the limit. (A tiny `timeout_factor` keeps the limit at the 1 s floor however
    slowly a loaded machine runs the original: 20x a 0.07 s original would be 1.4 s.)"""
    good = _candidate("silu_mul__accept_sigmoid_block256")
    limits = {"timeout_floor_s": 1.0, "first_timeout_s": 1.0, "timeout_factor": 0.01}
    compiling = _check(SILU_MUL, good + _SLOW_COMPILE.format(compiles=True), seeds=(), adversarial=(), **limits)
    assert compiling.accepted, compiling.report()
    assert compiling.timings["compile"] >= 2.5 and compiling.timings["run"] < 1.0
    import time
    start = time.perf_counter()
    running = _check(SILU_MUL, good + _SLOW_COMPILE.format(compiles=False), seeds=(), adversarial=(), **limits)
    assert running.check == "timeout" and "time limit of 1 s" in running.reason, running.report()
    assert time.perf_counter() - start < 2.4      # killed at the limit, not after the sleep


def test_compile_cap_still_applies():
    source = _candidate("silu_mul__accept_sigmoid_block256") + _SLOW_COMPILE.format(compiles=True)
    verdict = _check(SILU_MUL, source, seeds=(), adversarial=(), compile_timeout_s=1.0)
    assert verdict.check == "timeout" and "compiling" in verdict.reason, verdict.report()


def test_timings_say_where_the_time_went():
    verdict = _check(SILU_MUL, _candidate("silu_mul__accept_sigmoid_block256"))
    timings = verdict.timings
    assert verdict.accepted and len(timings["cases"]) == verdict.cases_run
    for phase in ("spawn", "load", "inputs", "original", "reference", "to_child", "run", "compare"):
        assert phase in timings, phase
    assert all("run" in case and "original" in case for case in timings["cases"])
    assert "time: total" in verdict.report()


def test_case_data_does_not_travel_in_messages(monkeypatch):
    """Buffers cross through shared memory: every message stays small even for a 4 MB argument,
    while the candidate still sees the data and its writes come back."""
    from kernelopt.legality import sandbox, wire
    sizes = []

    def recording_send(conn, message):
        sizes.append(len(__import__("pickle").dumps(message)))
        wire.send(conn, message)
    monkeypatch.setattr(sandbox, "_send", recording_send)
    numel = 1 << 21

    def original(gate, up, n):       # torch, not the interpreter: the test is about moving data
        gate.copy_(torch.nn.functional.silu(gate.float()) * up.float())
    gate = torch.randn(numel // 64, 64).to(torch.bfloat16)
    up = torch.randn(numel // 64, 64).to(torch.bfloat16)
    source = "import torch\ndef run(gate, up, n):\n    gate.copy_(torch.nn.functional.silu(gate.float()) * up.float())\n"
    verdict = check_candidate(original, source, [LaunchInputs((gate, up, numel))], output_args={0},
                              seeds=(0,), adversarial=("large",))
    assert verdict.accepted, verdict.report()
    assert verdict.cases_run == 3
    assert sizes and max(sizes) < 16384, sizes


def test_elementwise_slack_is_the_originals_rounding_noise_not_more():
    # Two correct fp32 algorithms (different summation order) both err by ~2e-5 against float64 where
    # the math cancels: beyond float32's atol of each other, within the original's own noise level.
    from kernelopt.legality import compare

    gen = torch.Generator().manual_seed(5)
    ref = torch.randn(4096, dtype=torch.float64, generator=gen)
    noise = lambda scale: scale * torch.randn(4096, dtype=torch.float64, generator=gen)  # noqa: E731
    original = (ref + noise(2e-5)).float()
    name = lambda i: f"arg {i}"  # noqa: E731
    same_quality = (ref + noise(2e-5)).float()
    assert (same_quality.double() - original.double()).abs().max() > 1e-5 + 1.3e-6 * 4  # plain tolerance fails
    failure, _ = compare.values(0, same_quality, original, ref, "strict", 2.0, name)
    assert failure is None
    ten_times_noisier = (ref + noise(2e-4)).float()
    failure, _ = compare.values(0, ten_times_noisier, original, ref, "strict", 2.0, name)
    assert failure is not None and failure.check in ("mismatch", "less-accurate")
    # without a float64 reference the dtype's tolerance alone applies
    failure, _ = compare.values(0, same_quality, original, None, "strict", 2.0, name)
    assert failure is not None and failure.check == "mismatch"


def test_elementwise_slack_compares_extremes_at_the_same_rank_on_large_outputs():
    # On a 10^7-element output the worst of the candidate's rounding errors lies further out than the
    # original's 99th percentile x 2 (the H200 adaln_modulate LayerNorm retune was rejected so). Noise
    # with a heavy tail (Laplace) of the same scale on both sides must pass; an error the original
    # never makes (a bug in 1% of the elements) must not.
    from kernelopt.legality import compare

    n, scale = 4_000_000, 2e-5
    gen = torch.Generator().manual_seed(11)
    ref = torch.randn(n, dtype=torch.float64, generator=gen)

    def laplace():
        u = torch.rand(n, dtype=torch.float64, generator=gen) - 0.5
        return -scale * u.sign() * torch.log1p(-2 * u.abs())

    name = lambda i: f"arg {i}"  # noqa: E731
    original = (ref + laplace()).float()
    same_quality = (ref + laplace()).float()
    error = (original.double() - ref).abs()
    old_rule = error + 2.0 * float(torch.quantile(error[::4].float(), 0.99))
    assert ((same_quality.double() - original.double()).abs() > old_rule).sum() > 100   # a fixed p99 rejects
    failure, _ = compare.values(0, same_quality, original, ref, "strict", 2.0, name)
    assert failure is None, failure
    buggy = same_quality.clone()
    buggy[:: 100] += 40 * scale
    failure, _ = compare.values(0, buggy, original, ref, "strict", 2.0, name)
    assert failure is not None and failure.check in ("mismatch", "less-accurate")


GAPPED_STORE = '''
import triton
import triton.language as tl


@triton.jit
def gapped_double(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    xmask = xindex < xnumel
    x0 = xindex % 10
    x1 = xindex // 10
    tmp0 = tl.load(in_ptr0 + xindex, xmask)
    tl.store(out_ptr0 + (x0 + 16 * x1), tmp0 * 2.0, xmask)   # rows of 10 padded to 16, as Inductor pads


def run(*args):
    gapped_double[(triton.cdiv(args[2], 64),)](*args, XBLOCK=64)
'''


def test_a_captured_buffer_with_gaps_keeps_its_strides_and_the_gate_can_guard_it():
    """Inductor pads a buffer's rows ([4, 10] with strides (16, 1)) and its kernels hard-code those strides. The
    capture's copy must keep them: a contiguous copy (what `clone()` gives) is 24 elements short, the replayed
    original writes past it, and the gate refused every candidate ("cannot guard it")."""
    from kernelopt.rewrite.evaluate import _CaptureStore, load_candidate

    padded = torch.as_strided(torch.zeros(64), (4, 10), (16, 1))
    copied = _CaptureStore(1 << 20).copy(padded)
    assert copied.stride() == (16, 1) and torch.equal(copied, padded)
    assert C.host_copy(padded).stride() == (16, 1)
    launch = LaunchInputs((torch.randn(40), copied, 40))
    run = load_candidate(GAPPED_STORE, "gapped_original")
    verdict = check_candidate(run, GAPPED_STORE, [launch], output_args=[1], timeout_floor_s=3.0)
    assert verdict.accepted, verdict
