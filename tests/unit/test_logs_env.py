"""KERNELOPT_LOGS: TORCH_LOGS-style names for KernelOPT's loggers (`+name` DEBUG, `name` INFO)."""
from __future__ import annotations

import logging

import pytest
import torch

from kernelopt.errors import UsageError
from kernelopt.logs_env import ENV, LOGGERS, apply_kernelopt_logs, parse_kernelopt_logs


@pytest.fixture(autouse=True)
def unset_afterwards(monkeypatch):
    yield
    monkeypatch.delenv(ENV, raising=False)
    apply_kernelopt_logs()      # unset: whatever a test configured is undone


@pytest.mark.parametrize("text, expected", [
    ("+search,cache", {"kernelopt.search": logging.DEBUG, "kernelopt.cache": logging.INFO}),
    (" backend , ,legality ", {"kernelopt.backend": logging.INFO, "kernelopt.legality": logging.INFO}),
    ("search,+search", {"kernelopt.search": logging.DEBUG}),       # the more verbose wins
    ("+all", {"kernelopt": logging.DEBUG}),
    ("", {}),
])
def test_names_map_to_loggers_and_levels(text, expected):
    assert parse_kernelopt_logs(text) == expected


@pytest.mark.parametrize("text, bad", [("search,serach", "'serach'"), ("++cache", "'+cache'"), ("-cache", "'-cache'")])
def test_an_unknown_name_is_a_clear_error_naming_the_known_ones(text, bad):
    with pytest.raises(UsageError) as raised:
        parse_kernelopt_logs(text)
    message = str(raised.value)
    assert f"unknown log name {bad}" in message and ENV in message
    assert "known names: " + ", ".join(sorted(LOGGERS)) in message


def test_named_loggers_print_to_stderr_others_only_from_warning_and_unset_undoes_it(monkeypatch, capsys):
    monkeypatch.setenv(ENV, "+search,cache")
    apply_kernelopt_logs()
    logging.getLogger("kernelopt.search").debug("a candidate")
    logging.getLogger("kernelopt.cache").debug("a lookup")            # cache is at INFO: not shown
    logging.getLogger("kernelopt.cache").info("a store")
    logging.getLogger("kernelopt.backend").info("a graph")            # not named
    logging.getLogger("kernelopt.backend").warning("a fallback")      # warnings always show
    err = capsys.readouterr().err
    assert "DEBUG kernelopt.search: a candidate" in err and "INFO kernelopt.cache: a store" in err
    assert "a lookup" not in err and "a graph" not in err and "WARNING kernelopt.backend: a fallback" in err
    assert not logging.getLogger("kernelopt").propagate              # a root handler does not print it twice

    monkeypatch.delenv(ENV)
    apply_kernelopt_logs()
    root = logging.getLogger("kernelopt")
    assert root.propagate and not root.handlers
    assert all(logging.getLogger(name).level == logging.NOTSET for name in LOGGERS.values())


def test_unset_leaves_the_programs_own_logging_alone(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    logging.getLogger("kernelopt.search").setLevel(logging.ERROR)     # the user's own choice
    try:
        apply_kernelopt_logs()
        assert logging.getLogger("kernelopt.search").level == logging.ERROR
    finally:
        logging.getLogger("kernelopt.search").setLevel(logging.NOTSET)


def test_a_wrong_value_is_a_clear_error_when_torch_compile_compiles(monkeypatch):
    monkeypatch.setenv(ENV, "backend,bogus")
    compiled = torch.compile(torch.nn.ReLU(), backend="kernelopt", options={"cost_model": "static"})
    with pytest.raises(Exception, match="KERNELOPT_LOGS='backend,bogus': unknown log name 'bogus'; known names"):
        compiled(torch.randn(3))
    torch._dynamo.reset()
