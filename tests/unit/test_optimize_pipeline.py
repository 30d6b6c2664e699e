"""`kernelopt optimize` builds its pass objects directly; the `-p` pipeline it prints replays them.

The agentic-rewrite pass's fields are the one source of the search's defaults: the command's flags
and `OptimizeOptions` take theirs from there.
"""
from __future__ import annotations

import argparse

import pytest

from kernelopt.commands import optimize as command
from kernelopt.optimize_job import REWRITE_OPTIONS, OptimizeOptions, pipeline_text
from kernelopt.passes.agentic_rewrite import AgenticRewrite
from kernelopt.passes.pipeline import parse_pipeline


@pytest.mark.parametrize("options", [
    OptimizeOptions(),
    OptimizeOptions(proposers=("retune",), gpu_seconds=5, max_candidates=2, no_cache=True),
    OptimizeOptions(proposers=("llm", "templates"), gpu_seconds=12.5, llm_base_url="http://localhost:8000/v1",
                    llm_model="qwen", base="default", precision="allow-tf32"),
    OptimizeOptions(proposers=()),
], ids=["defaults", "small-search", "llm", "no-proposers"])
def test_the_printed_pipeline_parses_back_to_the_passes_the_driver_built(options):
    passes = options.passes()
    text = pipeline_text(passes)
    assert parse_pipeline(text) == passes
    assert [p.name for p in passes] == ["classify-dispatch", "detect-fusion", "annotate-profile",
                                        "agentic-rewrite", "check-legality", "emit-python"]


def test_default_options_print_the_bare_pipeline():
    assert pipeline_text(OptimizeOptions().passes()) == (
        "classify-dispatch,detect-fusion,annotate-profile,agentic-rewrite,check-legality,emit-python")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    command.register(parser.add_subparsers())
    return parser


def test_flag_and_option_defaults_are_the_pass_fields():
    args = _parser().parse_args(["optimize", "model.py", "-o", "out.py"])
    defaults = AgenticRewrite.option_defaults()
    options = OptimizeOptions()
    for name in REWRITE_OPTIONS:
        flag_default = getattr(args, name)
        if name == "proposers":
            assert flag_default.split(",") == defaults[name] and list(options.proposers) == defaults[name]
        else:
            assert flag_default == defaults[name] and getattr(options, name) == defaults[name], name
    assert AgenticRewrite() == OptimizeOptions().passes()[3]


def test_help_lists_every_rewrite_flag_with_its_default(capsys):
    with pytest.raises(SystemExit):
        _parser().parse_args(["optimize", "--help"])
    text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")   # argparse wraps after hyphens
    defaults = AgenticRewrite.option_defaults()
    for name in REWRITE_OPTIONS:
        assert "--" + name.replace("_", "-") in text
    assert f"(default: {','.join(defaults['proposers'])})" in text
    assert f"(default: {defaults['gpu_seconds']})" in text and f"(default: {defaults['max_candidates']})" in text
