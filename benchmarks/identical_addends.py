"""Why a rewritten reduction that reads sums runs each row in one step: a float32 emulation of two summation orders.

    python benchmarks/identical_addends.py            # CPU, about 20 s

sum-through-gemm and sum-through-conv rewrite a reduction of a * y + c so that its lanes read 0 in place of y,
but for one lane per row that reads the row's sum of y. Every other lane then adds the same value c (a bias, a
shift). (The window readers of window-through-* do not: each of their lanes is a window with its own sum.)
Identical addends round alike: a lane that adds c k times, or a thread that adds its lanes in sequence, errs like
every other, and the sum of the lanes multiplies that error where the original's varied elements let their
roundings average out.

This script emulates, in float32 with torch on the CPU, the case the H100 gate rejected: column sums of
0.5 * (b + y) - shift over 16,384 rows, split in 32 chunks of 512 (Inductor's first half, then a merge of the 32).
It sums each chunk the way a GPU reduction does: each lane over the r-loop's steps, then each thread's lanes in
sequence, then a tree; and compares the original (the real y) with the candidate (the chunk's float64 sum in one
lane, 0 in the others) against a float64 reference, as relative norm errors.

The Triton interpreter cannot show this: it sums a block with numpy, in another order than a GPU.
Results on 2026-12-08 (seed 0, 256 columns; the emulation is deterministic):
  R0_BLOCK 8 (64 steps)      candidate 11.0x the original's error
  R0_BLOCK 64 (8 steps)      1.8x
  one step, 4 lanes/thread   1.1x
  one step, 8 lanes/thread   1.75x
so summed_reads.one_step_rows runs each row's lanes in one step, at most 4 a thread.
"""
from __future__ import annotations

import argparse

import torch


def block_sum(values: torch.Tensor, per_thread: int) -> torch.Tensor:
    """tl.sum over the last dimension as a GPU does it: each thread's `per_thread` lanes in sequence, then a tree."""
    rows, lanes = values.shape
    per_thread = min(per_thread, lanes)
    held = values.reshape(rows, lanes // per_thread, per_thread)
    total = held[:, :, 0].clone()
    for i in range(1, per_thread):
        total = total + held[:, :, i]
    while total.shape[1] > 1:
        total = total[:, 0::2] + total[:, 1::2]
    return total[:, 0]


def chunk_sum(values: torch.Tensor, r0_block: int, per_thread: int) -> torch.Tensor:
    """A looped reduction's row: each of r0_block lanes adds its elements over the steps, then block_sum."""
    acc = torch.zeros(values.shape[0], r0_block)
    for offset in range(0, values.shape[1], r0_block):
        acc = acc + values[:, offset:offset + r0_block]
    return block_sum(acc, per_thread)


def errors(columns: int, chunks: int, length: int, r0_block: int, per_thread: int, seed: int) -> tuple[float, float]:
    """(original's, candidate's) relative norm error against float64, for one order of summation."""
    generator = torch.Generator().manual_seed(seed)
    rows = chunks * length
    y64 = torch.randn(rows, columns, dtype=torch.float64, generator=generator) * 0.577   # a Linear's output scale
    b = (torch.rand(columns, dtype=torch.float64, generator=generator) - 0.5) / 32
    shift = torch.randn(columns, dtype=torch.float64, generator=generator)
    reference = (0.5 * (b + y64) - shift).sum(0)
    y, b32, shift32 = y64.float(), b.float(), shift.float()
    found = []
    for candidate in (False, True):
        parts = []
        for c in range(chunks):
            block = y[c * length:(c + 1) * length].T
            if candidate:
                block = torch.zeros_like(block)
                block[:, 0] = y64[c * length:(c + 1) * length].sum(0).float()
            parts.append(chunk_sum((b32[:, None] + block) * 0.5 - shift32[:, None], r0_block, per_thread))
        merged = block_sum(torch.stack(parts, 1), 1).double()
        found.append(float((merged - reference).norm() / reference.norm()))
    return found[0], found[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--columns", type=int, default=256, help="columns emulated (the H100 case had 4,096)")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args(argv)
    print("R0_BLOCK  steps  lanes/thread  original   candidate  ratio")
    for r0_block, per_thread in ((8, 4), (16, 4), (64, 4), (512, 1), (512, 2), (512, 4), (512, 8), (512, 16)):
        original, candidate = errors(options.columns, 32, 512, r0_block, per_thread, options.seed)
        print(f"{r0_block:8d}  {512 // r0_block:5d}  {per_thread:12d}  {original:.3g}  {candidate:.3g}  "
              f"{candidate / original:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
