"""`torch.compile(model, backend="kernelopt")`: the Dynamo backend (dynamo.py), its options
(options.py; search_options.py: when and for which sizes the search runs) and its persistent cache of
emitted modules (cache.py). background_search.py runs the search in a separate process
(search_process.py) while Inductor's module answers calls; seen_sizes.py specializes symbolic-size
graphs for the sizes they are called with.

Kept empty so that `kernelopt cache` (which loads cache.py) does not pull torch through this package.
"""
