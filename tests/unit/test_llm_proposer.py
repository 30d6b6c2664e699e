"""The `llm` proposer against a real loopback HTTP server speaking the OpenAI chat-completions protocol
(tests/llm_server.py) with scripted answers, on a real Inductor kernel (rms_swiglu's mul/silu pointwise).

The proposer must yield the candidates that parse, record why the others gave none, show the
planner -> executor -> summarizer hand-offs, cache answers, count tokens, respect the budget, repair from
the gate's rejection text, skip cleanly without an endpoint, and never leak the API key.
"""
from __future__ import annotations

import ast
import importlib.util
import json
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from llm_server import ScriptedServer  # noqa: E402

from kernelopt.proposers.base import ArgSpec, Attempt, Candidate, KernelSpec, LaunchSpec, RewriteTarget  # noqa: E402
from kernelopt.proposers.llm import LLMProposer  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "inductor-2.11-h200" / "rms_swiglu.default.0.py"
KERNEL = "triton_poi_fused_mul_silu_1"
ENV_NAMES = ("KERNELOPT_LLM_BASE_URL", "OPENAI_BASE_URL", "KERNELOPT_LLM_MODEL", "KERNELOPT_LLM_API_KEY",
             "OPENAI_API_KEY")


# ---------------------------------------------------------------------------------------------------
# The target: the real kernel source and its launch `triton_poi_fused_mul_silu_1.run(buf4, buf3, 23068672)`.

def fixture_kernel(name: str) -> KernelSpec:
    text = FIXTURE.read_text()
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and node.value.args \
                and isinstance(node.value.args[0], ast.Constant) and node.value.args[0].value == name:
            source = node.value.args[1].value
            break
    else:
        raise AssertionError(f"{name} not in {FIXTURE.name}")
    before = text[: text.index(f"{name} = async_compile.triton(")]
    provenance = re.findall(r"Original ATen: (\[[^\]]*\])", before)[-1]
    signature = ast.literal_eval(re.search(r"'signature': (\{[^}]*\})", source).group(1))
    size_hints = ast.literal_eval(re.search(r"size_hints=(\{[^}]*\})", source).group(1))
    return KernelSpec(name=name, kind="pointwise", source=source, signature=signature, size_hints=size_hints,
                      provenance=f"Original ATen: {provenance}")


def silu_mul_target(target_id: str = KERNEL) -> RewriteTarget:
    shape, strides = (4096, 5632), (5632, 1)
    args = (ArgSpec("in_out_ptr0", True, shape, strides, 0, "bfloat16", written=True),
            ArgSpec("in_ptr0", True, shape, strides, 0, "bfloat16"),
            ArgSpec("xnumel", False, value=23068672))
    launch = LaunchSpec(KERNEL, args, {"grid": [22528, 1, 1], "XBLOCK": 1024, "num_warps": 4})
    return RewriteTarget(id=target_id, kernels=(fixture_kernel(KERNEL),), launches=(launch,), time_us=61.0,
                         floor_us=43.0, bound="memory", gpu="NVIDIA H200")


# ---------------------------------------------------------------------------------------------------
# Scripted answers.

CORRECT = '''import triton
import triton.language as tl


@triton.jit
def _silu_mul(io_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    a = tl.load(io_ptr + offsets, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask).to(tl.float32)
    tl.store(io_ptr + offsets, (a / (1.0 + tl.exp(-a))) * b, mask=mask)


def run(in_out_ptr0, in_ptr0, xnumel):
    BLOCK = 2048
    _silu_mul[(triton.cdiv(xnumel, BLOCK),)](in_out_ptr0, in_ptr0, xnumel, BLOCK=BLOCK, num_warps=8)
'''
WRONG = CORRECT.replace(" * b, mask=mask)", ", mask=mask)")          # forgets the multiplication
NOT_COMPILING = "def run(in_out_ptr0, in_ptr0, xnumel)\n    return None\n"


def looping(marker: Path) -> str:
    # module-level code writes `marker`: it exists only if someone executes the candidate
    return f"open({str(marker)!r}, 'w').close()\n\n\ndef run(*args):\n    while True:\n        pass\n"


def fenced(code: str) -> str:
    return f"Here is the candidate.\n\n```python\n{code}```\n\nIt keeps the math in fp32."


def plan(*strategies: tuple[str, str]) -> str:
    return json.dumps({"strategies": [{"family": f, "label": label, "idea": f"do {label}"}
                                      for f, label in strategies]})


FIVE_PLANS = plan(("retune", "BLOCK 2048, 8 warps"), ("memory-access", "vectorized loads"),
                  ("tiling", "two rows per program"), ("persistent", "grid-stride loop"),
                  ("algebra", "sigmoid via exp2"))


def make_proposer(base_url: str, tmp_path: Path, **options) -> LLMProposer:
    options.setdefault("cache_dir", str(tmp_path / "answers"))
    options.setdefault("memory_path", str(tmp_path / "experience.json"))
    return LLMProposer(base_url=base_url, model="scripted-model", **options)


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch):
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server_for(request):
    servers = []

    def start(answers):
        server = ScriptedServer(answers)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


# ---------------------------------------------------------------------------------------------------

def test_yields_the_candidates_that_parse_and_records_the_rest(server_for, tmp_path):
    marker = tmp_path / "loop-was-executed"
    server = server_for({"planner": [FIVE_PLANS],
                         "executor": ["I would simply retune the block size.", fenced(NOT_COMPILING),
                                      fenced(WRONG), fenced(looping(marker)), fenced(CORRECT)]})
    proposer = make_proposer(server.base_url, tmp_path, strategies=5, repair_turns=0)
    started = time.monotonic()
    candidates = list(proposer.propose(silu_mul_target(), []))

    assert time.monotonic() - started < 30 and not marker.exists()      # the looping code was not run
    assert [c.source for c in candidates] == [WRONG, looping(marker), CORRECT]
    assert all(c.proposer == "llm" for c in candidates)
    assert [c.strategy for c in candidates] == ["tiling: two rows per program", "persistent: grid-stride loop",
                                                "algebra: sigmoid via exp2"]
    remarks = "\n".join(proposer.remarks)
    assert "[retune: BLOCK 2048, 8 warps] gave no candidate: no fenced python block (prose only)" in remarks
    assert "[memory-access: vectorized loads] gave no candidate: SyntaxError" in remarks

    roles = [(entry["role"], entry["handoff"]) for entry in proposer.transcript]
    assert roles == [("planner", "executor")] + [("executor", "executor (repair)")] * 2 + \
        [("executor", "legality gate")] * 3
    assert "SyntaxError" in proposer.transcript[2]["response_summary"]
    assert all(entry["tokens"]["prompt"] > 0 for entry in proposer.transcript)


def test_the_planner_sees_profile_source_and_ir_context(server_for, tmp_path):
    server = server_for({"planner": [plan(("retune", "BLOCK 2048"))], "executor": [fenced(CORRECT)]})
    list(make_proposer(server.base_url, tmp_path, strategies=1).propose(silu_mul_target(), []))
    planner_prompt = server.requests_for("planner")[0]["body"]["messages"][1]["content"]
    assert "time 61.0 us, roofline floor 43.0 us (1.42x the floor), bound: memory" in planner_prompt
    assert "tmp3 = libdevice.exp(tmp2)" in planner_prompt                       # the real kernel source
    assert "ko.launch @triton_poi_fused_mul_silu_1(in_out_ptr0, in_ptr0, xnumel)" in planner_prompt
    assert "0: in_out_ptr0, tensor [4096, 5632] strides [5632, 1] bfloat16, written" in planner_prompt
    executor_prompt = server.requests_for("executor")[0]["body"]["messages"][1]["content"]
    assert executor_prompt.startswith("Strategy from the planner: [retune] BLOCK 2048")


def test_scripted_correct_and_wrong_candidates_really_differ_numerically(server_for, tmp_path):
    """The candidates come back byte-exact and runnable: the correct one matches a float reference on the
    CPU through the Triton interpreter, the wrong one does not (the gate's job is to reject it)."""
    torch = pytest.importorskip("torch")
    server = server_for({"planner": [plan(("retune", "a"), ("tiling", "b"))],
                         "executor": [fenced(CORRECT), fenced(WRONG)]})
    correct, wrong = make_proposer(server.base_url, tmp_path, strategies=2).propose(silu_mul_target(), [])

    def run_candidate(candidate: Candidate, tag: str):
        path = tmp_path / f"candidate_{tag}.py"
        path.write_text(candidate.source)
        spec = importlib.util.spec_from_file_location(f"candidate_{tag}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        generator = torch.Generator().manual_seed(7)
        a = torch.randn(3000, generator=generator).bfloat16()
        b = torch.randn(3000, generator=generator).bfloat16()
        expected = (torch.nn.functional.silu(a.float()) * b.float()).bfloat16()
        out = a.clone()
        module.run(out, b, a.numel())
        return out, expected

    out, expected = run_candidate(correct, "correct")
    torch.testing.assert_close(out, expected, atol=1e-2, rtol=1e-2)
    out, expected = run_candidate(wrong, "wrong")
    assert not torch.allclose(out.float(), expected.float(), atol=1e-2, rtol=1e-2)


def test_a_malformed_answer_is_repaired_with_the_error_text(server_for, tmp_path):
    server = server_for({"planner": [plan(("retune", "BLOCK 2048"))],
                         "executor": [fenced(NOT_COMPILING), fenced(CORRECT)]})
    proposer = make_proposer(server.base_url, tmp_path, strategies=1, repair_turns=1)
    candidates = list(proposer.propose(silu_mul_target(), []))
    assert [c.source for c in candidates] == [CORRECT]
    assert candidates[0].strategy == "retune: BLOCK 2048 [repair 1]"
    repair_messages = server.requests_for("executor")[1]["body"]["messages"]
    assert [m["role"] for m in repair_messages] == ["system", "user", "assistant", "user"]
    assert NOT_COMPILING in repair_messages[2]["content"]
    assert "SyntaxError: expected ':'" in repair_messages[3]["content"]


def test_repair_turn_carries_the_gate_rejection_and_the_summarizer_hands_off(server_for, tmp_path):
    reason = "out_ptr in_out_ptr0 mismatch: max abs error 0.91 at [17]; relative error 0.42 > 2x original"
    server = server_for({
        "planner": [plan(("tiling", "two rows per program")), plan(("persistent", "grid-stride loop"))],
        "executor": [fenced(WRONG), fenced(CORRECT), fenced(CORRECT.replace("BLOCK = 2048", "BLOCK = 4096"))],
        "summarizer": [json.dumps({"lessons": ["tiling rewrite dropped the multiply: check every store"]})],
    })
    proposer = make_proposer(server.base_url, tmp_path, strategies=1)
    target = silu_mul_target()
    (first,) = proposer.propose(target, [])
    assert first.source == WRONG
    history = [Attempt(first, accepted=False, reason=reason)]
    second = list(proposer.propose(target, history))

    assert [c.source for c in second][0] == CORRECT
    assert second[0].strategy == "tiling: two rows per program [repair 1]"
    repair = server.requests_for("executor")[1]["body"]["messages"]
    assert [m["role"] for m in repair] == ["system", "user", "assistant", "user"]
    assert WRONG in repair[2]["content"] and reason in repair[3]["content"]
    assert "legality gate rejected it" in repair[3]["content"]

    assert [e["role"] for e in proposer.transcript] == ["planner", "executor", "summarizer", "executor",
                                                        "planner", "executor"]
    summarizer_prompt = server.requests_for("summarizer")[0]["body"]["messages"][1]["content"]
    assert "tiling: two rows per program: rejected: out_ptr in_out_ptr0 mismatch" in summarizer_prompt
    planner_prompt = server.requests_for("planner")[1]["body"]["messages"][1]["content"]
    assert "tiling rewrite dropped the multiply: check every store" in planner_prompt
    assert "[tiling] tiling: two rows per program (llm): rejected" in planner_prompt


def test_experience_memory_persists_across_runs_and_kernels(server_for, tmp_path):
    lesson = "single-pass with the row on chip won 1.8x on H200 for this idiom"
    server = server_for({"summarizer": [json.dumps({"lessons": [lesson]})],
                         "planner": [plan(("memory-access", "vectorized loads"))],
                         "executor": [fenced(CORRECT), fenced(CORRECT)]})
    history = [Attempt(Candidate("def run(*a): pass\n", "templates", "single-pass: row on chip"), True, "ACCEPT", 1.8),
               Attempt(Candidate("def run(*a): pass\n", "search", "retune XBLOCK=512"), False, "mismatch at [3]")]
    first_run = make_proposer(server.base_url, tmp_path, strategies=1)
    list(first_run.propose(silu_mul_target(), history))
    stored = json.loads((tmp_path / "experience.json").read_text())
    assert {(o["family"], o["accepted"]) for o in stored["outcomes"]} == {("single-pass", True), ("retune", False)}
    assert list(stored["lessons"].values()) == [[lesson]]

    second_run = make_proposer(server.base_url, tmp_path, strategies=1, no_cache=True)
    server._queues["planner"].append(plan(("tiling", "two rows")))
    list(second_run.propose(silu_mul_target("another_mul_silu_kernel"), []))
    planner_prompt = server.requests_for("planner")[-1]["body"]["messages"][1]["content"]
    assert lesson in planner_prompt
    assert "single-pass: 1/1 accepted, best speedup 1.80x" in planner_prompt


def test_planner_is_steered_away_from_a_collapsed_family(server_for, tmp_path):
    history = [Attempt(Candidate("def run(*a): pass\n", "search", f"retune XBLOCK={b} num_warps=4"), True,
                       "ACCEPT", 1.01) for b in (256, 512, 1024)]
    server = server_for({"summarizer": [json.dumps({"lessons": ["retuning alone gains about 1%"]})],
                         "planner": [plan(("retune", "XBLOCK=2048"), ("retune", "num_warps=16"),
                                          ("tiling", "two rows per program"))],
                         "executor": [fenced(CORRECT), fenced(CORRECT)]})
    proposer = make_proposer(server.base_url, tmp_path, strategies=2)
    candidates = list(proposer.propose(silu_mul_target(), history))
    planner_prompt = server.requests_for("planner")[0]["body"]["messages"][1]["content"]
    assert "Recent plans collapsed onto retune. Do NOT use that family" in planner_prompt
    families = [c.strategy.split(":")[0] for c in candidates]
    assert "retune" not in families and families[0] == "tiling" and len(set(families)) == 2
    assert any("collapsed onto retune" in r for r in proposer.remarks)


def test_answers_are_cached_on_disk(server_for, tmp_path):
    answers = {"planner": [plan(("retune", "a"), ("tiling", "b"))], "executor": [fenced(CORRECT), fenced(WRONG)]}
    server = server_for(answers)
    first = make_proposer(server.base_url, tmp_path, strategies=2)
    first_sources = [c.source for c in first.propose(silu_mul_target(), [])]
    assert server.request_count == 3 and first.token_counts["requests"] == 3

    again = make_proposer(server.base_url, tmp_path, strategies=2)
    assert [c.source for c in again.propose(silu_mul_target(), [])] == first_sources
    assert server.request_count == 3                                  # no HTTP request the second time
    assert again.token_counts["total"] == 0 and again.token_counts["cache_hits"] == 3
    assert again.token_counts["cached_prompt"] == first.token_counts["prompt"]
    assert all(entry["cached"] for entry in again.transcript)

    server._queues.update({role: list(queue) for role, queue in answers.items()})
    uncached = make_proposer(server.base_url, tmp_path, strategies=2, no_cache=True)
    list(uncached.propose(silu_mul_target(), []))
    assert server.request_count == 6


def test_tokens_are_counted_and_the_budget_stops_the_proposer(server_for, tmp_path):
    server = server_for({"planner": [{"content": plan(("retune", "a"), ("tiling", "b")), "prompt_tokens": 1500,
                                      "completion_tokens": 500}],
                         "executor": [{"content": fenced(CORRECT), "prompt_tokens": 700, "completion_tokens": 300}]})
    proposer = make_proposer(server.base_url, tmp_path, strategies=2, max_tokens=3500)
    candidates = list(proposer.propose(silu_mul_target(), []))
    assert [c.source for c in candidates] == [CORRECT]                 # the second executor call would not fit
    assert server.request_count == 2
    assert proposer.token_counts["prompt"] == 2200 and proposer.token_counts["completion"] == 800
    assert proposer.token_counts["total"] == proposer.tokens_used == 3000
    assert [e["tokens"] for e in proposer.transcript] == [{"prompt": 1500, "completion": 500},
                                                          {"prompt": 700, "completion": 300}]
    assert any("token budget exhausted: 3000 of 3500 used" in r for r in proposer.remarks)
    assert list(proposer.propose(silu_mul_target("next_kernel"), [])) == []
    assert server.request_count == 2 and "token budget of 3500 spent" in proposer.remarks[-1]


def test_missing_endpoint_is_skipped_with_a_reason(tmp_path):
    proposer = LLMProposer(cache_dir=str(tmp_path / "a"), memory_path=str(tmp_path / "m.json"))
    ok, reason = proposer.available()
    assert not ok and "no endpoint configured" in reason and "KERNELOPT_LLM_BASE_URL" in reason
    assert list(proposer.propose(silu_mul_target(), [])) == []
    assert proposer.remarks == [f"skipped: {reason}"]
    assert proposer.tokens_used == 0 and proposer.token_counts["total"] == 0


def test_openai_is_imported_only_when_a_request_is_made(tmp_path):
    script = ("import sys\nfrom kernelopt.proposers.llm import LLMProposer\n"
              "from kernelopt.proposers.base import RewriteTarget\n"
              "p = LLMProposer(memory_path=sys.argv[1])\n"
              "assert list(p.propose(RewriteTarget('k', (), ()), [])) == []\n"
              "assert 'openai' not in sys.modules, 'openai imported'\n")
    env = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "m.json")], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_endpoint_from_environment_and_hosted_default(monkeypatch):
    monkeypatch.setenv("KERNELOPT_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    assert LLMProposer().available() == (False, "no model configured for http://127.0.0.1:9/v1: set the model "
                                                "option or KERNELOPT_LLM_MODEL")
    monkeypatch.setenv("KERNELOPT_LLM_MODEL", "local")
    assert LLMProposer().available() == (True, "local at http://127.0.0.1:9/v1")
    monkeypatch.delenv("KERNELOPT_LLM_BASE_URL")
    monkeypatch.delenv("KERNELOPT_LLM_MODEL")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-hosted")
    assert LLMProposer().available() == (True, "gpt-4o at https://api.openai.com/v1")
    assert LLMProposer.from_options({"max-tokens": 0, "base-url": "http://x/v1", "model": "m"}).available() \
        == (False, "the token budget (max-tokens) is 0")


def test_api_key_is_sent_but_never_logged_or_stored(server_for, tmp_path, monkeypatch, caplog):
    secret = "sk-test-KEEP-THIS-SECRET-4242"
    monkeypatch.setenv("KERNELOPT_LLM_API_KEY", secret)
    caplog.set_level(logging.DEBUG)
    server = server_for({"planner": [plan(("retune", "a"), ("tiling", "b"))],
                         "executor": ["no code, sorry", {"status": 400, "content": "bad request"}],
                         "summarizer": ["not json"]})
    proposer = make_proposer(server.base_url, tmp_path, strategies=2, repair_turns=0)
    history = [Attempt(Candidate("def run(*a): pass\n", "search", "retune XBLOCK=64"), False, "mismatch")]
    assert list(proposer.propose(silu_mul_target(), history)) == []
    assert all(r["authorization"] == f"Bearer {secret}" for r in server.requests)

    written = [p.read_text() for p in tmp_path.rglob("*") if p.is_file()]
    visible = [caplog.text, repr(proposer), json.dumps(proposer.transcript), "\n".join(proposer.remarks),
               json.dumps(proposer.token_counts), *written]
    assert written and not any(secret in text for text in visible)
    assert any("endpoint answered HTTP 400" in r for r in proposer.remarks)


def test_an_unreachable_endpoint_is_a_remark_not_a_crash(tmp_path):
    with ScriptedServer([]) as server:
        closed = server.base_url                                      # nothing listens there afterwards
    proposer = make_proposer(closed, tmp_path, timeout_s=5)
    assert list(proposer.propose(silu_mul_target(), [])) == []
    assert any("endpoint request failed: APIConnectionError" in r for r in proposer.remarks)


def test_a_slower_accepted_candidate_gets_a_timing_repair(server_for, tmp_path):
    server = server_for({"planner": [plan(("retune", "BLOCK 2048")), plan(("tiling", "b"))],
                         "executor": [fenced(CORRECT), fenced(CORRECT.replace("num_warps=8", "num_warps=4")),
                                      fenced(CORRECT)],
                         "summarizer": [json.dumps({"lessons": []})]})
    proposer = make_proposer(server.base_url, tmp_path, strategies=1)
    (first,) = proposer.propose(silu_mul_target(), [])
    history = [Attempt(first, accepted=True, reason="ACCEPT", speedup=0.8)]
    repaired = list(proposer.propose(silu_mul_target(), history))[0]
    assert repaired.strategy == "retune: BLOCK 2048 [repair 1]" and "num_warps=4" in repaired.source
    follow_up = server.requests_for("executor")[1]["body"]["messages"][-1]["content"]
    assert "correct but not faster than the original (speedup 0.80x)" in follow_up


def test_a_fusion_group_is_described_launch_by_launch(server_for, tmp_path):
    single = silu_mul_target()
    launch = single.launches[0]
    scratch = ArgSpec("in_ptr1", True, (4096, 5632), (5632, 1), 0, "bfloat16")
    second = LaunchSpec(KERNEL, (launch.args[0], scratch, launch.args[2]), launch.config)
    group = RewriteTarget(id="group:0", kernels=single.kernels, launches=(launch, second),
                          group_args=(launch.args[0], launch.args[1], launch.args[2], scratch), bound="memory")
    server = server_for({"planner": [plan(("fuse-launches", "one pass"), ("retune", "b"))],
                         "executor": [fenced(CORRECT), fenced(CORRECT.replace("xnumel):", "xnumel, in_ptr1):"))]})
    proposer = make_proposer(server.base_url, tmp_path, strategies=2, repair_turns=0)
    candidates = list(proposer.propose(group, []))
    assert [c.strategy for c in candidates] == ["retune: b"]          # run(a, b, n) cannot take 4 group args
    assert "cannot be called with the launch's 4 positional arguments" in proposer.remarks[-1]
    prompt = server.requests_for("planner")[0]["body"]["messages"][1]["content"]
    assert prompt.count("ko.launch @triton_poi_fused_mul_silu_1(") == 2
    assert "3: in_ptr1, tensor [4096, 5632]" in prompt


def test_group_launches_show_which_run_argument_each_launch_takes(server_for, tmp_path):
    from dataclasses import fields
    if "group_positions" not in {f.name for f in fields(RewriteTarget)}:
        pytest.skip("this RewriteTarget has no group_positions")
    single = silu_mul_target()
    launch = single.launches[0]
    scratch = ArgSpec("in_ptr1", True, (4096, 5632), (5632, 1), 0, "bfloat16")
    second = LaunchSpec(KERNEL, (launch.args[0], scratch, launch.args[2]), launch.config)
    group = RewriteTarget(id="group:0", kernels=single.kernels, launches=(launch, second),
                          group_args=(launch.args[0], launch.args[1], launch.args[2], scratch),
                          group_positions=((0, 1, 2), (0, 3, 2)), bound="memory")
    server = server_for({"planner": [plan(("fuse-launches", "one pass"))], "executor": ["no code"]})
    list(make_proposer(server.base_url, tmp_path, strategies=1, repair_turns=0).propose(group, []))
    prompt = server.requests_for("planner")[0]["body"]["messages"][1]["content"]
    assert "(args[0]=in_out_ptr0, args[3]=in_ptr1, args[2]=xnumel)" in prompt
