"""`torch.compile(model, backend="kernelopt")`: the Dynamo backend (dynamo.py), its options
(options.py) and its persistent cache of emitted modules (cache.py).

Kept empty so that `kernelopt cache` (which loads cache.py) does not pull torch through this package.
"""
