"""Static screening of a candidate's source for what the CPU interpreter cannot show.

The interpreter runs every program on one host thread, ignores streams, and computes `tl.dot` in
numpy fp32 whatever `input_precision` says: work moved to another stream or a TF32/bf16 matmul would
pass there and fail (or be quietly less accurate) on a GPU. These patterns reject a candidate on any
device; on a GPU the dynamic checks run as well.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    check: str      # "stream" | "precision"
    line: int
    text: str
    why: str


_STREAM_PATTERNS = [
    (r"torch\.cuda\.(Stream|ExternalStream|stream|set_stream|StreamContext)\b",
     "creates or switches CUDA streams"),
    (r"\bstream\s*=", "passes an explicit stream="),
    (r"get_raw_stream\s*\(\s*(?!0\s*\))", "gets a raw stream other than the current device's stream 0"),
    (r"\b(_cuda_getCurrentRawStream|cudaStreamCreate|torch\.cuda\.Event)\b", "uses stream/event APIs"),
    (r"\bwait_stream\b|\brecord_stream\b", "synchronises on another stream"),
]

_PRECISION_PATTERNS = [
    (r"torch\.backends\.cuda\.matmul\.allow_tf32", "touches torch.backends.cuda.matmul.allow_tf32"),
    (r"torch\.backends\.cudnn\.allow_tf32", "touches torch.backends.cudnn.allow_tf32"),
    (r"set_float32_matmul_precision", "changes torch's float32 matmul precision"),
    (r"allow_(bf16|fp16)_reduced_precision_reduction", "enables reduced-precision reductions"),
    (r"\binput_precision\s*=\s*['\"](?!ieee)", "sets tl.dot input_precision to a non-IEEE mode"),
    (r"(?<!\.)\ballow_tf32\s*=\s*True", "enables allow_tf32 on a dot"),
]
_TF32_OK = {"allow-tf32", "allow-bf16"}

_LOW_DTYPE = r"(tl\.(bfloat16|float16|float8\w*)|torch\.(bfloat16|float16|half)|\.(half|bfloat16)\(\))"
_DOT_LOW_CAST = re.compile(r"tl\.dot\s*\((?:[^()]|\([^()]*\))*?\.to\(\s*tl\.(bfloat16|float16|float8\w*)")


def _line_of(source: str, offset: int) -> int:
    return source.count("\n", 0, offset) + 1


def _code_only(source: str) -> str:
    """Blank out comments so that a comment mentioning a stream does not reject (keeps offsets)."""
    return re.sub(r"#[^\n]*", lambda m: " " * len(m.group(0)), source)


def screen_source(source: str, *, precision: str = "strict", original_source: str | None = None,
                  low_precision_args: bool = False) -> list[Finding]:
    """Findings that reject the candidate. `low_precision_args`: some launch argument is bf16/fp16, so
    low-precision dtypes may legitimately appear (loads and stores of those tensors)."""
    code = _code_only(source)
    findings = []
    for pattern, why in _STREAM_PATTERNS:
        for match in re.finditer(pattern, code):
            findings.append(Finding("stream", _line_of(code, match.start()), match.group(0), why))
    if precision not in _TF32_OK:
        for pattern, why in _PRECISION_PATTERNS:
            for match in re.finditer(pattern, code):
                findings.append(Finding("precision", _line_of(code, match.start()), match.group(0), why))
    if precision == "strict":
        for match in _DOT_LOW_CAST.finditer(code):
            findings.append(Finding("precision", _line_of(code, match.start()), match.group(0)[:60],
                                    "casts a dot operand to lower precision"))
        original_low = bool(original_source and re.search(_LOW_DTYPE + r"|\*bf16|\*fp16", original_source))
        if not (original_low or low_precision_args):
            for match in re.finditer(_LOW_DTYPE, code):
                findings.append(Finding("precision", _line_of(code, match.start()), match.group(0),
                                        "computes in a lower precision than the all-fp32 original"))
    return sorted(findings, key=lambda f: f.line)
