"""One capture: load, compile with Inductor, rerun each output module, time, write the directory."""
from __future__ import annotations

import fcntl
import os
import re
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import torch.utils._pytree as pytree

from kernelopt.capture import environment, inductor, store
from kernelopt.capture.models import failed_at, load_model
from kernelopt.errors import InputError

MODES = ("default", "max-autotune-no-cudagraphs", "max-autotune")
# Tolerances for "the compiled model reproduces eager": Inductor reorders and fuses math, so
# low-precision outputs differ by a few ulps of their dtype.
TOLERANCE = {"float32": 1e-3, "float64": 1e-6, "bfloat16": 5e-2, "float16": 1e-2}


@dataclass
class CaptureResult:
    directory: Path
    manifest: dict[str, Any]
    # Graph 0's call() arguments as the capture ran them (on its device): a job keeps its inputs in
    # memory rather than reading a multi-GB inputs.pt back from disk.
    arg_values: list[Any] | None = None


def capture(
    spec: str | None,
    out_dir: str | Path,
    *,
    entry: str | None = None,
    size: str = "small",
    mode: str = "default",
    device: str = "cpu",
    seed: int = 0,
    store_tensors: bool | None = None,
    time_runs: bool = True,
    compile_threads: int | None = None,
) -> CaptureResult:
    """Capture one model in one mode into `out_dir`; returns the directory and its manifest."""
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
    environment.prepare_device(device, compile_threads)
    model, inputs, meta = load_model(spec, entry=entry, device=device, seed=seed, size=size)
    store_tensors = (size == "small") if store_tensors is None else store_tensors
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    versions, unrepeatable = _versions(model, inputs), None
    try:
        with torch.no_grad():
            eager = model(*inputs)
    except Exception as err:  # the model itself is broken: say so before Inductor gets involved
        where = failed_at(err, meta.source, meta.source if meta.source.endswith(".py") else None)
        raise InputError(f"{where}: the model's forward fails in eager mode: {type(err).__name__}: {err}") from None
    # before a rebuild: eager's outputs are views of these inputs and of this model's tensors
    aliases = output_aliases(eager, inputs, model)
    if _versions(model, inputs) != versions:
        # The forward updates an input or a buffer in place (`x.add_(1)`, a running mean): the compiled run
        # must start where eager did, not from eager's result, or it computes from other values (and the
        # capture reports a mismatch that is not Inductor's). The model and its inputs are built again,
        # from the same seed; eager's outputs are kept as they are.
        rebuilt = load_model(spec, entry=entry, device=device, seed=seed, size=size)
        if rebuilt[0] is model:   # an entry point that hands out one model: eager's update cannot be undone
            unrepeatable = ("the forward updates an input, parameter or buffer in place, and the entry point returns "
                            "the same model each call: the compiled run may have started from eager's result")
        model, inputs, meta = rebuilt
    # the forward's inputs as the compiled run gets them (it may update them in place)
    forward_host = store.to_host(inputs) if store_tensors else None
    started = time.perf_counter()
    try:
        compiled, result, graphs = inductor.compile_and_capture(model, inputs, mode)
    except InputError:
        raise
    except Exception as err:  # Dynamo/Inductor failures: the user needs the reason, not the stack
        if os.environ.get("KERNELOPT_TRACEBACK"):
            traceback.print_exc()
        reason = str(err).strip().splitlines()
        raise InputError(f"{meta.source}: torch.compile (mode {mode}, {device}) failed: "
                         f"{type(err).__name__}: {reason[-1] if reason else ''}") from None
    compile_s = time.perf_counter() - started
    # What the compiled module needs at least (its arguments, weights included, and its outputs): a job's
    # memory bound is a multiple of it. Counted from the tensors, not the allocator's peak, which during
    # capture also holds the eager run's outputs and compile-time benchmarking (2.4x the module's own
    # peak on a 7.5 GB instance norm, so the bound derived from it let the job fill the GPU).
    device_peak = _resident_bytes(graphs[0].arg_values, store.flatten_tensors(graphs[0].outputs)) if (
        device.startswith("cuda") and graphs) else None

    graph_entries = []
    per_graph_outputs = []
    for graph in graphs:
        inductor.check_against_get_args(graph)
        file_name = f"{meta.name}.{mode}.{graph.index}.py"
        (out / file_name).write_text(graph.code)
        arguments = inductor.name_arguments(graph, model, inputs)
        outputs = store.flatten_tensors(graph.outputs)
        # Host copies only of what is stored: a real-size capture would hold every tensor twice.
        host_args = store.to_host(graph.arg_values) if store_tensors else graph.arg_values
        per_graph_outputs.append(store.to_host(outputs) if store_tensors else None)
        graph_entries.append({
            "index": graph.index,
            "module": file_name,
            "arguments": arguments,
            "argument_checksums": [store.checksum(a) for a in host_args if isinstance(a, torch.Tensor)],
            "outputs": [store.checksum(t) for t in outputs],
            "kernels": inductor.kernel_configs(graph.module),
            "extern_calls": _extern_calls(graph.code),
        })
        if graph.index == 0:
            graph0_args, device_args = host_args, list(graph.arg_values)

    model_outputs = store.flatten_tensors(result)
    eager_outputs = store.flatten_tensors(eager)
    agreement = _agreement(model_outputs, eager_outputs, _lowest_precision(model, inputs))
    if unrepeatable and not agreement.get("ok"):
        agreement["reason"] = unrepeatable

    files = [g["module"] for g in graph_entries]
    if store_tensors:
        extra = {"graphs": [store.to_host(g.arg_values) for g in graphs]} if len(graphs) > 1 else {}
        store.save_tensors(out / "inputs.pt", "args", graph0_args, forward_inputs=forward_host, **extra)
        extra = {"graphs": per_graph_outputs} if len(graphs) > 1 else {}
        store.save_tensors(out / "outputs.pt", "outputs", per_graph_outputs[0],
                           model_outputs=store.to_host(model_outputs), **extra)
        files += ["inputs.pt", "outputs.pt"]

    manifest = {
        "format": store.FORMAT_VERSION,
        "name": meta.name,
        "mode": mode,
        "size": size,
        "model": meta.to_json(),
        "recipe": _recipe(spec, entry, size, seed, mode, device),
        "environment": environment.software(device),
        "forward_inputs": [_describe(x) for x in inputs],
        "input_ranges": meta.to_json()["input_ranges"],
        "graphs": graph_entries,
        "model_outputs": [store.checksum(t) for t in model_outputs],
        "output_structure": output_structure(result, aliases),
        "matches_eager": agreement,
        "compile_s": round(compile_s, 3),
        "device_peak_bytes": device_peak,
        "timings_ms": _timings(model, compiled, graphs, inputs) if (time_runs and device.startswith("cuda")) else None,
        "tensors_stored": bool(store_tensors),
        "files": files + [store.MANIFEST],
    }
    store.write_manifest(out, manifest)
    for graph in graphs:
        graph.release_values()      # the result holds its own list of the first graph's arguments
    return CaptureResult(out, manifest, device_args if graphs else None)


def _resident_bytes(*groups) -> int:
    """Bytes of the distinct storages the tensors in `groups` occupy (views of one buffer count once)."""
    storages = {}
    for group in groups:
        for value in group:
            if isinstance(value, torch.Tensor):
                storage = value.untyped_storage()
                storages[storage.data_ptr()] = storage.nbytes()
    return sum(storages.values())


def _versions(model, inputs) -> list[int]:
    """The version counters of the forward's tensor inputs and the model's parameters and buffers: each
    in-place update of one of them bumps its counter."""
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)] + list(model.parameters()) + list(model.buffers())
    return [-1 if t.is_inference() else t._version for t in tensors]


def _describe(value) -> dict[str, Any]:
    if isinstance(value, torch.Tensor):
        return {"shape": list(value.shape), "stride": list(value.stride()),
                "dtype": str(value.dtype).replace("torch.", ""), "device": str(value.device)}
    return {"value": repr(value)}


def _recipe(spec, entry, size, seed, mode, device) -> dict[str, Any]:
    """How to rebuild this capture's inputs: `kernelopt capture` with these arguments."""
    model_file = None
    if spec:
        path = Path(spec).resolve()
        try:
            model_file = str(path.relative_to(Path.cwd().resolve()))
        except ValueError:
            model_file = str(path)
    return {"model_file": model_file, "entry": entry, "size": size, "seed": seed, "mode": mode, "device": device}


def _lowest_precision(model, inputs) -> float:
    """The tolerance of the least precise floating dtype the model computes with (weights or inputs):
    an fp32 output of a bf16 network carries bf16 rounding."""
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)] + list(model.parameters())
    names = {str(t.dtype).replace("torch.", "") for t in tensors if t.is_floating_point()}
    return max((TOLERANCE.get(n, 1e-3) for n in names), default=TOLERANCE["float32"])


NOISE_FLOOR = 1e-3


def _agreement(compiled: list[Any], eager: list[Any], floor: float = 0.0) -> dict[str, Any]:
    """Max abs / relative error of the compiled model against eager, and whether it is within tolerance."""
    if len(compiled) != len(eager):
        return {"ok": False, "reason": f"{len(compiled)} compiled outputs, {len(eager)} eager"}
    worst_abs, worst_rel, ok = 0.0, 0.0, True
    for got, want in zip(compiled, eager):
        if got.shape != want.shape or got.dtype != want.dtype:
            return {"ok": False, "reason": f"output {tuple(got.shape)} {got.dtype} vs eager {tuple(want.shape)} {want.dtype}"}
        if not got.is_floating_point():
            ok = ok and bool((got == want).all())
            continue
        g, w = got.double(), want.double()
        err = float((g - w).abs().max()) if g.numel() else 0.0
        rel = float((g - w).norm() / w.norm().clamp_min(1e-30)) if g.numel() else 0.0
        worst_abs, worst_rel = max(worst_abs, err), max(worst_rel, rel)
        tol = max(floor, TOLERANCE.get(str(got.dtype).replace("torch.", ""), 1e-3))
        # An output that is rounding noise around zero (the mean of a normalized tensor) has no scale to be
        # relative to: a norm-wise relative error there measures noise against noise. Such an output
        # agrees when its absolute error is within NOISE_FLOOR x the tolerance.
        ok = ok and (rel <= tol or err <= NOISE_FLOOR * tol)
    return {"ok": ok, "max_abs_err": worst_abs, "max_rel_err": worst_rel}


def _extern_calls(code: str) -> list[str]:
    calls = re.findall(r"\b(extern_kernels\.\w+|torch\.ops\.aten\.\w+(?:\.\w+)?|aten\.\w+(?:\.\w+)?)\(", code)
    return sorted(set(calls))


def _timings(model, compiled, graphs, inputs) -> dict[str, Any]:
    """Median milliseconds (triton.testing.do_bench) of eager, the compiled model, and call() alone."""
    # lazy: triton must load after install_cpu_triton_shims sets TRITON_INTERPRET (runtime/interpret.py)
    from triton.testing import do_bench

    with _gpu_lock(), torch.no_grad():
        timings = {
            "eager": do_bench(lambda: model(*inputs), return_mode="median"),
            "compiled": do_bench(lambda: compiled(*inputs), return_mode="median"),
        }
        if len(graphs) == 1:
            graph = graphs[0]
            args = graph.arg_values
            timings["module_call"] = do_bench(lambda: graph.module.call(list(args)), return_mode="median")
    timings["method"] = "triton.testing.do_bench median, default warmup/rep, same inputs every call"
    return {k: (round(v, 5) if isinstance(v, float) else v) for k, v in timings.items()}


class _gpu_lock:
    """Serialize timing between capture processes sharing one GPU (KERNELOPT_GPU_LOCK names the lock file)."""

    def __enter__(self):
        path = os.environ.get("KERNELOPT_GPU_LOCK")
        self.handle = open(path, "a") if path else None
        if self.handle:
            fcntl.flock(self.handle, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        if self.handle:
            fcntl.flock(self.handle, fcntl.LOCK_UN)
            self.handle.close()
        return False


def output_structure(result: Any, aliases: list[dict] | None = None) -> dict:
    """How the forward's result nests its tensors ({"spec": torch's pytree spec as JSON}), so that a loaded
    module returns a dict or a nested tuple as the forward does, with `aliases` (output_aliases) when there are
    any, and `constants` ([leaf position, value]) for the None, bool, int, float and str leaves returned beside
    the tensors (no output of the compiled graph: Dynamo returns them as the constants they were at compile
    time, for the sizes and layer settings a loaded module checks before it runs); {"spec": None, "why": ...}
    when another kind of value is returned or the nesting cannot be written down (a container type pytree
    cannot serialise)."""
    leaves, spec = pytree.tree_flatten(result)
    constants = [[position, leaf] for position, leaf in enumerate(leaves) if _is_constant(leaf)]
    others = [type(leaf).__name__ for leaf in leaves if not isinstance(leaf, torch.Tensor) and not _is_constant(leaf)]
    if others:
        return {"spec": None, "why": f"the forward returns values that are not the module's outputs (a {others[0]})"}
    try:
        structure = {"spec": pytree.treespec_dumps(spec)}
    except Exception as err:  # noqa: BLE001 - any container pytree cannot write: the result's shape is unknown
        return {"spec": None, "why": f"the forward's result nests its tensors in a way that cannot be recorded "
                                     f"({type(err).__name__})"}
    return structure | ({"aliases": aliases} if aliases else {}) | ({"constants": constants} if constants else {})


def _is_constant(leaf: Any) -> bool:
    """A result leaf Dynamo returns as the constant it was at compile time (JSON can hold it as it is)."""
    return leaf is None or type(leaf) in (bool, int, float, str)


def output_aliases(result: Any, inputs: list, model: Any = None) -> list[dict]:
    """The forward's outputs (by position among its result's leaves) that are views of one of its tensor inputs or
    of one of the model's buffers or parameters: the input's position (or the tensor's name) and the view's shape,
    strides and storage offset from that tensor's. Eager's `x.t()` of an input (or `self.running[:3]` of a buffer)
    that the forward updated in place is a view of the caller's tensor (torch.compile's too: AOTAutograd makes it
    again); Inductor's module returns a view of its own buffer holding the same values, which a later write to
    the tensor does not reach. A view of another dtype, or of storage two such tensors share, is not recorded
    (no single base and no plain as_strided makes it again)."""
    bases = [({"input": index}, x) for index, x in enumerate(inputs) if isinstance(x, torch.Tensor)]
    if isinstance(model, torch.nn.Module):
        bases += [({"tensor": name}, t) for name, t in [*model.named_parameters(), *model.named_buffers()]]
    aliases = []
    for position, out in enumerate(pytree.tree_leaves(result)):
        if not isinstance(out, torch.Tensor):
            continue
        owners = [(key, base) for key, base in bases
                  if base.untyped_storage().data_ptr() == out.untyped_storage().data_ptr()]
        if len(owners) != 1 or owners[0][1].dtype != out.dtype or owners[0][1].device != out.device:
            continue
        key, base = owners[0]
        aliases.append({"output": position, **key, "shape": list(out.shape), "stride": list(out.stride()),
                        "offset": out.storage_offset() - base.storage_offset()})
    return aliases
