"""KernelOPT: make PyTorch Inductor output modules faster."""

__version__ = "0.1.0"


def optimize(model, example_inputs, **options):
    """Optimize `model` for `example_inputs`; returns a drop-in callable (see `kernelopt.api`)."""
    # lazy: start-up: every `import kernelopt.X` runs this file, and kernelopt.api pulls torch
    from kernelopt.api import optimize as _optimize

    return _optimize(model, example_inputs, **options)


def load(path, model, device=None):
    """Load a module written by `kernelopt optimize` as a drop-in callable for `model`."""
    # lazy: start-up: as in optimize() above
    from kernelopt.api import load as _load

    return _load(path, model, device)
