"""Issue 20: `kernelopt run -o` never replaces the module, the inputs file or a file an earlier run did not
write (exit 2 unless --force), and a non-UTF-8 module given to run, bench or `kernelopt.load` is a located
error, never a `UnicodeDecodeError` traceback.

Commands run in-process through `main()` (the console script's code path), as in test_front_end_contracts."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch

import kernelopt
from kernelopt.cli import main as kernelopt_cli
from kernelopt.errors import InputError

REPO = Path(__file__).resolve().parents[2]
SOFTMAX_MODULE = REPO / "tests" / "corpus" / "cpu-2.13" / "softmax" / "small.default" / "softmax.default.0.py"
NOT_UTF8 = b"x = 1\n# caf\xe9\n"


@pytest.fixture
def module(tmp_path) -> Path:
    path = tmp_path / "softmax.py"
    shutil.copy(SOFTMAX_MODULE, path)
    return path


def _no_traceback(text: str) -> None:
    assert "Traceback" not in text and "UnicodeDecodeError" not in text, text


# -- run -o: what it may replace ----------------------------------------------------------------------------

def test_run_refuses_to_write_over_its_module_or_inputs_file(module, tmp_path, capsys):
    before = module.read_bytes()
    assert kernelopt_cli(["run", str(module), "-o", str(module)]) == 2
    assert "is the input file" in capsys.readouterr().err
    assert module.read_bytes() == before
    inputs = tmp_path / "args.pt"
    torch.save([torch.randn(8, 256)], inputs)
    saved = inputs.read_bytes()
    assert kernelopt_cli(["run", str(module), "--inputs", str(inputs), "-o", str(inputs)]) == 2
    assert "is the input file" in capsys.readouterr().err
    assert inputs.read_bytes() == saved


@pytest.mark.parametrize("kind", ["text", "torch"])
def test_run_refuses_a_file_it_did_not_write_unless_forced(module, tmp_path, capsys, kind):
    mine = tmp_path / "mine.pt"
    if kind == "text":
        mine.write_text("my notes\n")
    else:   # a torch.save file, but not of run's format: a user's checkpoint
        torch.save({"weights": torch.ones(3)}, mine)
    before = mine.read_bytes()
    assert kernelopt_cli(["run", str(module), "-o", str(mine)]) == 2
    err = capsys.readouterr().err
    assert "is not the output of an earlier `kernelopt run`" in err and "--force" in err, err
    assert mine.read_bytes() == before
    assert kernelopt_cli(["run", str(module), "-o", str(mine), "--force"]) == 0
    assert set(torch.load(mine)) == {"outputs", "mutated"}


def test_run_replaces_its_own_earlier_output(module, tmp_path):
    out = tmp_path / "out.pt"
    assert kernelopt_cli(["run", str(module), "-o", str(out)]) == 0
    first = torch.load(out)["outputs"][0]
    assert kernelopt_cli(["run", str(module), "-o", str(out), "--seed", "1"]) == 0   # no --force needed
    assert torch.load(out)["outputs"][0].shape == first.shape


# -- a non-UTF-8 module: one located line, no traceback -----------------------------------------------------

@pytest.mark.parametrize("argv", [["run"], ["bench", "--device", "cpu"]])
def test_a_non_utf8_module_is_a_located_error(tmp_path, capsys, argv):
    bad = tmp_path / "b.py"
    bad.write_bytes(NOT_UTF8)
    assert kernelopt_cli([*argv, str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:2:6: not UTF-8 text (byte 0xe9" in err, err
    _no_traceback(err)


def test_load_of_a_non_utf8_module_is_a_located_input_error(tmp_path):
    bad = tmp_path / "b.py"
    bad.write_bytes(NOT_UTF8)
    bad.with_suffix(".json").write_text(json.dumps({"device": "cpu"}))
    with pytest.raises(InputError, match=r"b\.py:2:6: not UTF-8 text \(byte 0xe9"):
        kernelopt.load(str(bad), torch.nn.Identity())
