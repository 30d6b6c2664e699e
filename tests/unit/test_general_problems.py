"""The general benchmark's problem files: valid KernelBench files, frozen by their manifest, documented.

Nothing is allocated: models and inputs are built on the meta device, so a 0.5 GB problem costs
milliseconds (the first batch-norm call imports torch's decompositions once, a few seconds).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch

from kernelopt.capture.models import _import_file, input_bytes
from suite_helpers import load_suite

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "benchmarks" / "general_problems"
FILES = sorted(p for p in FOLDER.glob("*.py") if not p.name.startswith("_"))
MANIFEST = json.loads((FOLDER / "problems.json").read_text())
ZOO = REPO / "tests" / "zoo"


@pytest.fixture(scope="module")
def suite():
    return load_suite("general_suite")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_problem_builds_and_runs_on_the_meta_device(path):
    module = _import_file(path)
    assert not hasattr(module, "SIZES"), "a general problem has one size, its own"
    doc = (module.__doc__ or "").strip()
    assert doc and "\n" not in doc, "the docstring is one line naming the category"
    with torch.device("meta"):
        model = module.Model(*module.get_init_inputs()).eval()
        inputs = module.get_inputs()
        with torch.no_grad():
            out = model(*inputs)
    assert all(x.device.type == "meta" for x in inputs if isinstance(x, torch.Tensor))
    assert isinstance(out, torch.Tensor) and out.device.type == "meta"
    total = input_bytes(str(path))
    assert total is not None and 0 < total <= 4 * 10**9


def test_manifest_describes_every_file_and_its_hash_matches(suite):
    problems = MANIFEST["problems"]
    assert sorted(problems) == [p.stem for p in FILES], "every file has an entry and every entry a file"
    edited = [p.stem for p in FILES if suite.file_sha256(p) != problems[p.stem]["sha256"]]
    assert not edited, (f"edited after the manifest froze them: {edited}; restore them and add a changed "
                        "problem as a new file (python3 benchmarks/general_suite.py --write-manifest)")
    for path in FILES:   # category, dtype, shapes, channels-last and bytes are what the file builds
        assert suite.describe(path) == problems[path.stem], path.stem


def test_coverage_dtypes_layouts_and_the_dev_subset(suite):
    problems = MANIFEST["problems"].values()
    assert len(MANIFEST["problems"]) >= 30
    assert sum(p["dtype"] == "bf16" for p in problems) >= 5
    assert sum(p["channels_last"] for p in problems) >= 3
    assert {p["category"] for p in problems} == set(suite.CATEGORIES)
    dev = MANIFEST["subsets"]["dev"]
    assert len(dev) == len(set(dev)) == 8 and set(dev) <= set(MANIFEST["problems"])
    assert {MANIFEST["problems"][n]["category"] for n in dev} == set(suite.CATEGORIES)


def test_no_problem_is_a_zoo_model():
    """The zoo's forward bodies must not reappear (the zoo's graphs are avoided at every shape)."""
    def body(path):
        source = path.read_text()
        start = source.find("def forward")
        return " ".join(source[start:].split("\ndef ")[0].split()) if start >= 0 else None

    zoo = {body(p) for p in ZOO.glob("*.py")} - {None}
    assert not [p.stem for p in FILES if body(p) in zoo]


def test_readme_table_is_the_one_the_manifest_writes(suite, tmp_path):
    readme = tmp_path / "README.md"
    shutil.copy(FOLDER / "README.md", readme)
    suite._write_readme_table(readme, MANIFEST)
    assert readme.read_text() == (FOLDER / "README.md").read_text(), "rerun --write-manifest"
    for name in MANIFEST["problems"]:
        assert f"| {name}.py |" in readme.read_text()


def test_write_manifest_adds_new_files_and_refuses_edited_ones(suite, tmp_path):
    folder = tmp_path / "problems"
    folder.mkdir()
    for name in ("reverse_cumsum", "huber_loss"):
        shutil.copy(FOLDER / f"{name}.py", folder)
    manifest, readme = folder / "problems.json", folder / "README.md"
    readme.write_text(f"# t\n{suite.TABLE_BEGIN}\n{suite.TABLE_END}\n")
    assert suite.write_manifest(folder, manifest, readme) == ["huber_loss", "reverse_cumsum"]
    assert "| huber_loss.py | loss | predictions [128, 262144] fp32, targets [128, 262144] fp32 | fp32 | 268.4 |" \
        in readme.read_text()
    assert suite.write_manifest(folder, manifest, readme) == []
    with (folder / "huber_loss.py").open("a") as handle:
        handle.write("# edited\n")
    with pytest.raises(SystemExit, match="edited: huber_loss"):
        suite.write_manifest(folder, manifest, readme)
    (folder / "huber_loss.py").unlink()
    with pytest.raises(SystemExit, match="removed: huber_loss"):
        suite.write_manifest(folder, manifest, readme)
    shutil.copy(FOLDER / "huber_loss.py", folder)
    (folder / "no_category.py").write_text('"""A problem whose docstring names no category."""\n')
    with pytest.raises(SystemExit, match="must start with a category"):
        suite.write_manifest(folder, manifest, readme)
