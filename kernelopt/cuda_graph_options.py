"""The CUDA-graph options of an emitted module, one definition for every place that takes them:
`kernelopt emit --cuda-graphs/--outputs`, `kernelopt optimize` (same flags), the emit-python pass
(`emit-python{cuda-graphs=on}`) and the torch.compile backend's `cuda_graphs` option.

What the emitted module does with them is kernelopt/runtime/graph_replay.py's docstring.
"""
from kernelopt.errors import UsageError

CUDA_GRAPHS = ("auto", "on", "off")
GRAPH_OUTPUTS = ("fresh", "static")
DEFAULT_MAX_GRAPHS = 8

CUDA_GRAPHS_HELP = (
    "run call() through CUDA graphs keyed on the inputs' data pointers, shapes, strides and dtypes: a call "
    "whose inputs sit where an earlier call's did replays its graph with no input copy; new input buffers "
    "get a graph of their own when they recur (at most 8 graphs, least recently used first out), else "
    "are copied into one graph's own buffers (arguments that stay put, like parameters, are never copied). "
    "The first call, calls during the caller's own capture, and machines without CUDA run the plain "
    "launches. on: always; off: never; auto (default): on a GPU module the emitted module times the "
    "plain path against replay and copy (copy on new input buffers) as it is called, keeps only what is "
    "faster, and turns graphs off where the calls it sees make them cost more (a CPU module: off)")
OUTPUTS_HELP = (
    "with CUDA graphs: fresh (default): outputs are tensors the caller owns, never overwritten while it "
    "holds them (graph memory the caller let go of is lent again, a second graph serves a caller that "
    "holds the last outputs, and a caller holding both runs the plain launches); static: outputs are views "
    "into graph memory that the next call overwrites (keep them only until the next call)")


def check_graph_options(cuda_graphs: str, outputs: str, max_graphs: int = DEFAULT_MAX_GRAPHS) -> None:
    """UsageError naming the flag, what is wrong and the choices."""
    if cuda_graphs not in CUDA_GRAPHS:
        raise UsageError(f"--cuda-graphs must be one of {', '.join(CUDA_GRAPHS)}, got {cuda_graphs!r}")
    if outputs not in GRAPH_OUTPUTS:
        raise UsageError(f"--outputs must be one of {', '.join(GRAPH_OUTPUTS)}, got {outputs!r}")
    if outputs == "static" and cuda_graphs == "off":
        raise UsageError("--outputs static hands out views of CUDA-graph memory: it needs --cuda-graphs on or "
                         "auto (with --cuda-graphs off outputs are always fresh tensors)")
    if isinstance(max_graphs, bool) or not isinstance(max_graphs, int) or max_graphs < 1:
        raise UsageError(f"the most CUDA graphs per module must be an integer >= 1, got {max_graphs!r}")
