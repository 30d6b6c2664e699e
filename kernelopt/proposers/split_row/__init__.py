"""split-row: a schedule transform for reduction kernels whose rows are few and long.

structure.py reads the kernel (row loops, accumulators, the reductions folding them, which program
touches which element) and proves the split legal; phases.py writes the split kernels and their
launcher; proposer.py decides when it applies and which chunk counts to try.
"""
