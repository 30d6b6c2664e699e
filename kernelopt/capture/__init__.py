"""Capture what Inductor writes for a model: `capture()` and the model-file loader (`models.load_model`).

A capture directory holds, for one model, size and mode:
  <name>.<mode>.<i>.py   the output module of Dynamo graph i, as Inductor wrote it
  inputs.pt              {"args": call() arguments of graph 0, in call() order, "forward_inputs": [...]}
  outputs.pt             {"outputs": what call() returned for those arguments, "model_outputs": [...]}
  manifest.json          versions, shapes, dtypes, input ranges, argument mapping, kernel configs, timings
Tensors are stored only when `store_tensors` (small shapes); otherwise the manifest carries the recipe
(model file, size, seed) and checksums, enough to rebuild and verify the same tensors.
"""
from __future__ import annotations

from kernelopt.capture.capture import CaptureResult, capture

__all__ = ["capture", "CaptureResult"]
