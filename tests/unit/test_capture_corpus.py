"""The committed corpus (tests/corpus/) is consistent: what the top-level manifest lists exists, every
CUDA kernel has the launch configuration its autotuner chose, and stored tensors match their manifests."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import torch

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
ZOO = Path(__file__).resolve().parents[1] / "zoo"
INDEX = json.loads((CORPUS / "manifest.json").read_text())
CAPTURED = [c for c in INDEX["captures"] if c["dir"]]


def manifest_of(entry: dict) -> dict:
    return json.loads((CORPUS / entry["dir"] / "manifest.json").read_text())


def test_every_listed_file_exists_and_every_capture_is_listed():
    for entry in INDEX["captures"]:
        for name in entry["files"]:
            assert (CORPUS / name).is_file(), name
    listed = {c["dir"] for c in CAPTURED}
    on_disk = {p.parent.relative_to(CORPUS).as_posix() for p in CORPUS.glob("*/*/*/manifest.json")}
    assert listed == on_disk


def test_the_gpu_corpus_covers_the_zoo():
    gpu = [c for c in CAPTURED if c["platform"].startswith("cuda")]
    zoo = {p.stem for p in ZOO.glob("*.py")}
    for mode in ("default", "max-autotune-no-cudagraphs"):
        assert {c["name"] for c in gpu if c["size"] == "small" and c["mode"] == mode} == zoo, mode
    assert len({c["name"] for c in gpu if c["size"] == "large"}) >= 6


@pytest.mark.parametrize("entry", CAPTURED, ids=lambda c: c["dir"])
def test_capture_manifest_is_complete(entry):
    manifest = manifest_of(entry)
    directory = CORPUS / entry["dir"]
    assert manifest["matches_eager"]["ok"]
    for name in manifest["files"]:
        assert (directory / name).is_file()
    on_gpu = manifest["environment"]["device"].startswith("cuda")
    if on_gpu:
        assert manifest["environment"]["gpu"] and manifest["timings_ms"]["compiled"] > 0
    for graph in manifest["graphs"]:
        source = (directory / graph["module"]).read_text()
        assert "def call(" in source
        assert len(graph["arguments"]) == len(graph["argument_checksums"])
        assert {a["kind"] for a in graph["arguments"]} <= {"input", "parameter", "buffer", "intermediate", "scalar"}
        for kernel, info in graph["kernels"].items():
            assert f"{kernel} = async_compile.triton(" in source
            if on_gpu:  # the autotuner's choice, as launched
                chosen = info["chosen"]
                assert chosen and chosen["num_warps"] and "kwargs" in chosen, kernel


def sha(t: torch.Tensor) -> str:
    return hashlib.sha256(t.contiguous().reshape(-1).view(torch.uint8).numpy().tobytes()).hexdigest()


@pytest.mark.parametrize("entry", [c for c in CAPTURED if c["tensors_stored"]], ids=lambda c: c["dir"])
def test_stored_tensors_match_their_checksums(entry):
    manifest = manifest_of(entry)
    directory = CORPUS / entry["dir"]
    graph = manifest["graphs"][0]
    args = torch.load(directory / "inputs.pt")["args"]
    assert [sha(a) for a in args] == [c["sha256"] for c in graph["argument_checksums"]]
    for arg, described in zip(args, graph["arguments"]):
        assert list(arg.shape) == described["shape"] and str(arg.dtype) == f"torch.{described['dtype']}"
    outputs = torch.load(directory / "outputs.pt")["outputs"]
    assert [sha(t) for t in outputs] == [c["sha256"] for c in graph["outputs"]]
