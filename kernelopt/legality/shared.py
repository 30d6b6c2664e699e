"""Host buffers the gate and its sandboxed child both map: case data crosses without pickling.

Each base buffer of a case layout (cases.py) gets its own anonymous shared file (memfd), mapped in
the gate and, after the file descriptors travel over the child's Unix socket (SCM_RIGHTS), in the
child. One memcpy puts a case's inputs where the child reads them, and the child's results are read
back where it left them: no copy to the CPU, no pickling, no pipe transfer of hundreds of MB per case.

On the CPU the child runs the candidate on the mapped buffers themselves. On a GPU they are the
staging area: the child copies them into its own device buffers before the run and back after it.
Every base has its own file, hence its own storage, as separate allocations had before (a write far
out of bounds cannot land in another base's memory unnoticed).
"""
from __future__ import annotations

import mmap
import os
from dataclasses import dataclass

import torch


@dataclass
class SharedBases:
    tensors: list[torch.Tensor]          # one flat CPU tensor per base, mapped MAP_SHARED
    fds: list[int]                        # open until sent (gate) or mapped (child)

    @classmethod
    def create(cls, sizes: list[int], dtypes: list[torch.dtype]) -> "SharedBases":
        tensors, fds = [], []
        for index, (numel, dtype) in enumerate(zip(sizes, dtypes)):
            fd = os.memfd_create(f"kernelopt-base-{index}", os.MFD_CLOEXEC)
            os.ftruncate(fd, max(1, numel * _itemsize(dtype)))
            fds.append(fd)
            tensors.append(_map(fd, numel, dtype))
        return cls(tensors, fds)

    @classmethod
    def attach(cls, fds: list[int], sizes: list[int], dtypes: list[torch.dtype]) -> "SharedBases":
        """Map buffers another process created (the fds are closed: the mappings keep them alive)."""
        shared = cls([_map(fd, n, d) for fd, n, d in zip(fds, sizes, dtypes)], list(fds))
        shared.close_fds()
        return shared

    def close_fds(self) -> None:
        for fd in self.fds:
            os.close(fd)
        self.fds = []


def _itemsize(dtype: torch.dtype) -> int:
    return torch.empty((), dtype=dtype).element_size()


def _map(fd: int, numel: int, dtype: torch.dtype) -> torch.Tensor:
    nbytes = numel * _itemsize(dtype)
    region = mmap.mmap(fd, max(1, nbytes), mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    # frombuffer keeps the mmap alive as long as the tensor; the mapping is unmapped with it
    raw = torch.frombuffer(region, dtype=torch.uint8, count=nbytes) if nbytes else torch.empty(0, dtype=torch.uint8)
    return raw.view(dtype)
