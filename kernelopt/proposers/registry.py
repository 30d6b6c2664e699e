"""Proposer plugins: the built-ins plus third-party ones from the `kernelopt.proposers` entry points.

A proposer is a small class with `name`, `summary` and `propose(target, history)` (see `base.py`);
a plugin package declares

    [project.entry-points."kernelopt.proposers"]
    my-proposer = "my_package.proposer:MyProposer"
"""
from __future__ import annotations

import difflib
from importlib.metadata import entry_points
from typing import Callable

from kernelopt.errors import UsageError

from .absorb_consumer import AbsorbConsumerProposer
from .align_split import AlignSplitProposer
from .block_online import BlockOnlineProposer
from .conv_layout import ConvLayoutProposer
from .diagonal_operand import DiagonalOperandProposer
from .epilogue import EpilogueProposer
from .fold_passes import FoldPassesProposer
from .fold_split import FoldSplitProposer
from .fuse import FuseProposer
from .memory_order import MemoryOrderProposer
from .narrow_math import NarrowMathProposer
from .llm.proposer import LLMProposer
from .loop_invariant import HoistInvariantProposer
from .outer_tile import OuterTileProposer
from .retune import RetuneProposer
from .row_on_chip import RowOnChipProposer
from .split_row.proposer import SplitRowProposer
from .store_remap import StoreRemapProposer
from .sum_through_conv import SumThroughConvProposer
from .sum_through_gemm import SumThroughGemmProposer
from .window_through_conv import WindowThroughConvProposer
from .window_through_gemm import WindowThroughGemmProposer
from .templates import TemplatesProposer

ENTRY_POINT_GROUP = "kernelopt.proposers"


# The default order in which they are asked is the agentic-rewrite pass's `proposers` option.
BUILTIN: dict[str, type] = {"retune": RetuneProposer, "templates": TemplatesProposer, "fuse": FuseProposer,
                            "store-remap": StoreRemapProposer, "absorb-consumer": AbsorbConsumerProposer,
                            "align-split": AlignSplitProposer,
                            "epilogue": EpilogueProposer, "diagonal-operand": DiagonalOperandProposer,
                            "sum-through-gemm": SumThroughGemmProposer,
                            "sum-through-conv": SumThroughConvProposer,
                            "window-through-gemm": WindowThroughGemmProposer,
                            "window-through-conv": WindowThroughConvProposer,
                            "conv-layout": ConvLayoutProposer,
                            "split-row": SplitRowProposer,
                            "row-on-chip": RowOnChipProposer, "fold-pass": FoldPassesProposer,
                            "fold-split": FoldSplitProposer,
                            "hoist-invariant": HoistInvariantProposer,
                            "block-online": BlockOnlineProposer, "narrow-math": NarrowMathProposer,
                            "outer-tile": OuterTileProposer, "memory-order": MemoryOrderProposer,
                            "llm": LLMProposer}


def proposer_classes() -> dict[str, Callable[[], type]]:
    table = {name: (lambda cls=cls: cls) for name, cls in BUILTIN.items()}   # loaders, as an entry point's load
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in table:
            raise UsageError(f"two proposers are named '{ep.name}' (a plugin: {ep.value})")
        table[ep.name] = ep.load
    return table


def make_proposer(name: str, **options):
    table = proposer_classes()
    if name not in table:
        close = difflib.get_close_matches(name, table, n=1)
        hint = f" Did you mean '{close[0]}'?" if close else ""
        raise UsageError(f"unknown proposer '{name}'.{hint} Known proposers: {', '.join(sorted(table))}")
    cls = table[name]()
    if name == "llm":
        return cls(**{k: v for k, v in options.items() if v is not None})
    return cls()
