"""Issue 20, item 4: reading an Inductor output module never executes code from it.

The `@triton_heuristics.<kind>(...)` decorator of each kernel and the grid text in its inductor_meta are
read by walking their syntax tree (kernelopt/inductor_decorator.py, kernelopt/codegen/grid_arithmetic.py).
Users rely on two things: every decorator Inductor really wrote reads exactly as `eval` read it before
(same keyword values, same config list from Inductor's heuristic), and a crafted module is refused
with its file and line, the payload never having run (its canary file is not created).
"""
from __future__ import annotations

import ast
import math
import re
import time
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernelopt.cli import main as kernelopt
from kernelopt.codegen.grid_arithmetic import GridExpressionRefused, fold_grid_entry
from kernelopt.codegen.plain_jit import standalone_kernel
from kernelopt.inductor_decorator import DecoratorOrigin, DecoratorRefused, InductorDecorator, _capturing_configs
from kernelopt.inductor_source import kernel_sources

REPO = Path(__file__).resolve().parents[2]
CORPORA = [REPO / "tests" / "corpus", REPO / "tests" / "fixtures", Path("/work/shared/fixtures")]
SOFTMAX = REPO / "tests" / "corpus" / "cpu-2.13" / "softmax" / "small.default" / "softmax.default.0.py"
CHEAP = settings(max_examples=25, derandomize=True, deadline=None, database=None)


@lru_cache(maxsize=1)
def corpus_decorators() -> dict[str, str]:
    """Every distinct decorator of every Triton kernel in the corpora: text -> kernel name."""
    found = {}
    for folder in CORPORA:
        for path in sorted(folder.rglob("*.py")) if folder.is_dir() else ():
            for name, source in kernel_sources(path.read_text()).items():
                code = standalone_kernel(name, source)
                if code.heuristic_source is not None:
                    found.setdefault(code.heuristic_source, name)
    return found


def _eval_namespace() -> dict:
    """The namespace the old code eval'd decorators in (the reference: corpus text is trusted here)."""
    from torch._inductor.runtime import triton_heuristics
    from torch._inductor.runtime.hints import AutotuneHint, DeviceProperties, ReductionHint, TileHint

    return {"triton_heuristics": triton_heuristics, "ReductionHint": ReductionHint, "TileHint": TileHint,
            "AutotuneHint": AutotuneHint, "DeviceProperties": DeviceProperties, "__file__": "<kernelopt-emit>",
            "inf": math.inf, "nan": math.nan}


def _config_key(config) -> tuple:
    return (tuple(sorted(config.kwargs.items())), config.num_warps, config.num_stages,
            getattr(config, "num_ctas", None), getattr(config, "maxnreg", None))


def test_every_corpus_decorator_reads_as_eval_read_it():
    from torch._inductor.runtime import triton_heuristics

    decorators = corpus_decorators()
    assert len(decorators) > 100   # the corpora are there: CPU 2.13 and H200 2.11 captures
    namespace = _eval_namespace()
    for text, kernel in decorators.items():
        call = ast.parse(text.strip().lstrip("@"), mode="eval").body
        expected = {k.arg: eval(compile(ast.Expression(k.value), "<old>", "eval"), dict(namespace))
                    for k in call.keywords}
        captured: list = []
        try:
            with _capturing_configs(triton_heuristics, captured):
                eval(compile(ast.Expression(call), "<old>", "eval"), dict(namespace))
        except Exception:   # the old code gave [] when Inductor's heuristic failed here
            captured = [[]]
        decorator = InductorDecorator(text, kernel)
        assert repr(decorator.keywords()) == repr(expected), kernel   # repr: nan != nan
        assert [_config_key(c) for c in decorator.config_list()] == [_config_key(c) for c in captured[0]], kernel


@CHEAP
@given(st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(max_size=8)
                    | st.floats(allow_nan=False),
                    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=12))
def test_any_literal_inductor_could_write_reads_back_unchanged(value):
    decorator = InductorDecorator(f"@triton_heuristics.pointwise(size_hints={value!r}, filename=__file__)", "k",
                                  file_value="/x.py")
    assert decorator.keywords() == {"size_hints": value, "filename": "/x.py"}


def test_sets_negative_numbers_enums_and_device_properties_read_as_inductor_meant_them():
    from torch._inductor.runtime.hints import DeviceProperties, ReductionHint, TileHint

    decorator = InductorDecorator(
        "@triton_heuristics.pointwise(size_hints={'x': 8}, tile_hint=TileHint.SQUARE, "
        "triton_meta={'device': DeviceProperties(type='cpu', index=None, multi_processor_count=2, cc='', major=None, "
        "regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, "
        "warp_size=None)}, inductor_meta={'autotune_hints': set(), 'h': {1, 2}, 'm': -1, 'lo': -inf, "
        "'r': ReductionHint.INNER, 'n': nan})", "k")
    keywords = decorator.keywords()
    assert keywords["tile_hint"] is TileHint.SQUARE and keywords["inductor_meta"]["r"] is ReductionHint.INNER
    assert isinstance(keywords["triton_meta"]["device"], DeviceProperties)
    meta = keywords["inductor_meta"]
    assert meta["autotune_hints"] == set() and meta["h"] == {1, 2} and meta["m"] == -1 and meta["lo"] == -math.inf
    assert math.isnan(meta["n"])


# -- crafted decorators: refused, located, nothing run -------------------------------------------------------

def _payloads(canary: Path) -> list[tuple[str, str]]:
    """(keyword value that would create `canary` or escape if evaluated, what the message names)."""
    return [
        (f"__import__('os').system('touch {canary}')", "`__import__`"),
        ("().__class__.__base__.__subclasses__()", "`.__subclasses__`"),
        (f"(lambda: open('{canary}', 'w'))()", "a lambda"),
        (f"[open('{canary}', 'w') for _ in (1,)]", "a comprehension"),
        (f"(f := open('{canary}', 'w'))", "`:=`"),
        ("10**10**10", "`**`"),
        (f"open('{canary}', 'w')", "`open`"),
        (f"DeviceProperties(type=open('{canary}', 'w'))", "`open`"),
        ("ReductionHint.__class__", "not a member of ReductionHint"),
        ("{**{}}", "`**` unpacking"),
        ("1" * 100, "an integer of 100 digits"),
    ]


@pytest.mark.parametrize("index", range(11))
def test_a_crafted_decorator_is_refused_before_anything_runs(tmp_path, index):
    canary = tmp_path / "canary"
    payload, named = _payloads(canary)[index]
    text = f"@triton_heuristics.pointwise(\n    size_hints={{'x': 8}},\n    min_elem_per_thread={payload},\n)"
    start = time.monotonic()
    with pytest.raises(DecoratorRefused) as refused:
        InductorDecorator(text, "triton_poi_0", DecoratorOrigin("model.py", 40))
    message = str(refused.value)
    # located at the refused part: the payload starts at column 25 (`:=`, `**` and a call inside it further on)
    located = re.match(r"model\.py:42:(\d+): decorator of kernel triton_poi_0 uses ", message)
    assert located and 25 <= int(located.group(1)) < 25 + len(payload), message
    assert named in message and "which Inductor never writes; refusing to evaluate it" in message, message
    assert not canary.exists() and time.monotonic() - start < 1.0


def test_a_decorator_that_is_not_a_heuristics_call_is_refused():
    for text in ("@triton_heuristics.pointwise.__globals__['os'](size_hints={})", "@print('x')",
                 "@triton_heuristics.pointwise", "@triton_heuristics.pointwise(size_hints=["):
        with pytest.raises(DecoratorRefused, match="decorator of kernel k"):
            InductorDecorator(text, "k")


def test_a_kind_off_the_allow_list_is_never_called():
    decorator = InductorDecorator("@triton_heuristics.cached_autotune(size_hints=None, configs=[])", "k")
    assert decorator.config_list() == []   # the emitter then falls back to the size hints


def _crafted_module(tmp_path: Path, payload: str) -> tuple[Path, int]:
    """The softmax capture with `payload` as a decorator keyword; returns (path, the payload's line)."""
    lines = SOFTMAX.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == "filename=__file__,")
    lines.insert(at + 1, f"    min_elem_per_thread={payload},")
    path = tmp_path / "crafted.py"
    path.write_text("\n".join(lines) + "\n")
    return path, at + 2


@pytest.mark.parametrize("index", [0, 2, 5])
def test_emit_refuses_a_crafted_module_with_its_file_and_line(tmp_path, capsys, index):
    canary = tmp_path / "canary"
    path, line = _crafted_module(tmp_path, _payloads(canary)[index][0])
    assert kernelopt(["emit", str(path), "-o", str(tmp_path / "out.py")]) == 1
    err = capsys.readouterr().err
    assert f"{path}:{line}:25: decorator of kernel triton_per_fused_" in err and "never writes" in err, err
    assert "Traceback" not in err and not canary.exists() and not (tmp_path / "out.py").exists()


def test_lift_keeps_a_crafted_decorator_as_text_and_emit_refuses_the_kir(tmp_path, capsys):
    canary = tmp_path / "canary"
    path, _ = _crafted_module(tmp_path, _payloads(canary)[0][0])
    kir = tmp_path / "crafted.kir"
    assert kernelopt(["lift", str(path), "-o", str(kir)]) == 0 and not canary.exists()
    capsys.readouterr()
    assert kernelopt(["emit", str(kir)]) == 1
    err = capsys.readouterr().err
    assert f"{kir}:" in err and "of its source) uses `__import__`" in err, err
    assert not canary.exists()


# -- grid expressions ---------------------------------------------------------------------------------------

def test_grid_text_inductor_writes_folds_to_ints_or_stays_symbolic():
    assert fold_grid_entry("-((1000) // -(128))") == 8
    assert fold_grid_entry("(0 if y_grid_div_ == 0 else -((y_grid_raw_) // -(y_grid_div_)))",
                           {"y_grid_div_": 2, "y_grid_raw_": 70000}) == 35000
    assert fold_grid_entry("max(xnumel_0 + 3, 5)", {"xnumel_0": 4}) == 7
    assert fold_grid_entry("-((s0) // -(128))") == "-((s0) // -(128))"   # pasted into the emitted call()
    assert fold_grid_entry(12) == 12


@CHEAP
@given(st.integers(0, 2**40), st.integers(0, 2**20), st.sampled_from([1, 8, 64, 1024]), st.sampled_from([1, 4, 32]))
def test_folded_grids_match_inductors_own_grid_evaluation(xnumel, ynumel, xblock, yblock):
    from torch._inductor.runtime.triton_heuristics import GridExpr

    meta = {"grid_type": "Grid2DWithYZOverflow"}
    expr = GridExpr.from_meta(meta, {"XBLOCK": xblock, "YBLOCK": yblock})
    scope = {"xnumel": xnumel, "ynumel": ynumel}
    for line in expr.prefix:
        name, _, value = line.partition(" = ")
        scope[name] = fold_grid_entry(value, scope)
    ours = [fold_grid_entry(d, scope) for d in (expr.x_grid, expr.y_grid, expr.z_grid)]
    assert tuple(ours) == expr.eval_slow({"xnumel": xnumel, "ynumel": ynumel})


@pytest.mark.parametrize("text, named", [
    ("__import__('os').system('touch CANARY')", "`__import__`"),
    ("().__class__.__bases__", "the attribute `.__bases__`"),
    ("(lambda: 1)()", "a lambda"),
    ("[x for x in (1,)][0]", "a comprehension"),
    ("(x := 4)", "`:=`"),
    ("10**10**10", "`**` by `10 ** 10`"),
    ("1 << 10**9", "`<<` by `10 ** 9`"),
    ("((2**64)**64)**64", "exceeds 2**256"),
    ("xnumel / 2", "the operator `/`"),
    ("open('CANARY', 'w')", "a call of `open`"),
])
def test_crafted_grid_text_is_refused_without_running_or_hanging(text, named):
    start = time.monotonic()
    with pytest.raises(GridExpressionRefused) as refused:
        fold_grid_entry(text, {"xnumel": 8})
    assert named in str(refused.value) and time.monotonic() - start < 1.0, str(refused.value)
    assert not Path("CANARY").exists()


def test_emit_refuses_a_crafted_precomputed_grid_with_its_file_and_line(tmp_path, capsys):
    canary = tmp_path / "canary"
    text = SOFTMAX.read_text()
    crafted = text.replace("'grid_type': 'Grid1D'", "'grid_type': 'PrecomputedGrid', 'precomputed_grids': [{'config': "
                           f"{{}}, 'python': [\"__import__('os').system('touch {canary}')\", 1, 1]}}]", 1)
    assert crafted != text
    path = tmp_path / "crafted.py"
    path.write_text(crafted)
    assert kernelopt(["emit", str(path), "-o", str(tmp_path / "out.py")]) == 1
    err = capsys.readouterr().err
    where = _place(crafted, "'precomputed_grids': ")
    assert f"{path}:{where}: kernel @triton_per_fused_" in err and "`__import__`" in err, err
    assert "Traceback" not in err and not canary.exists()


def _place(text: str, before: str, within: str | None = None) -> str:
    """`line:col` (1-based) of what follows the only `before` in `text` (or in its only `within`)."""
    within = within or before
    assert text.count(within) == 1 and within.count(before) == 1, before
    offset = text.index(within) + within.index(before) + len(before)
    line, column = text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)
    return f"{line}:{column}"


DEPTHWISE_CONV = (REPO / "tests" / "corpus" / "cuda-2.11-h200" / "depthwise_conv" / "small.max-autotune-no-cudagraphs"
                  / "depthwise_conv.max-autotune-no-cudagraphs.0.py")


@pytest.mark.parametrize("command", ["emit", "kernelopt-opt"])
def test_a_refused_grid_is_located_at_its_line_and_column(tmp_path, capsys, command):
    """Issue 20: every input error is located `file:line:col`; a refused grid entry of an output module was
    located at its decorator's line only. It names the inductor_meta entry the grid comes from."""
    from kernelopt.opt import main as kernelopt_opt

    text = DEPTHWISE_CONV.read_text()
    damaged = text.replace("'fixed_grid': ['_grid_0',", "'fixed_grid': [2.5,", 1)
    assert damaged != text
    path = tmp_path / "damaged.py"
    path.write_text(damaged)
    if command == "emit":
        assert kernelopt(["emit", str(path), "-o", str(tmp_path / "out.py")]) == 1
    else:
        assert kernelopt_opt([str(path), "-p", "emit-python", "-o", str(tmp_path / "out.py")]) == 1
    err = capsys.readouterr().err
    where = _place(damaged, "'fixed_grid': ")
    assert f"{path}:{where}: kernel @triton_tem_fused_convolution_1: grid entry 2.5 is a float" in err, err


@pytest.mark.parametrize("old, new, entry, says", [
    ("'fixed_grid': ['_grid_0', '_grid_1', '_grid_2']", "'fixed_grid': 5", "'fixed_grid': ",
     "does not describe a FixedGrid grid as Inductor writes it ('int' object is not iterable)"),
    ("'grid_type': 'FixedGrid'", "'grid_type': 'PrecomputedGrid', 'precomputed_grids': [{'python': [1, 1, 1]}]",
     "'precomputed_grids': ", "does not describe a PrecomputedGrid grid as Inductor writes it (no 'config')"),
    ("'grid_type': 'FixedGrid'", "'grid_type': ['FixedGrid']", "'grid_type': ",
     "grid_type `['FixedGrid']` is not a name"),
])
def test_a_grid_meta_of_another_shape_is_a_located_error_not_a_traceback(tmp_path, capsys, old, new, entry, says):
    """inductor_meta entries the grid rules read (a list, a dict, a name) holding something else ended in a
    TypeError or KeyError traceback; now an input error at that entry."""
    text = DEPTHWISE_CONV.read_text()
    damaged = text.replace(old, new, 1)
    assert damaged != text
    path = tmp_path / "damaged.py"
    path.write_text(damaged)
    assert kernelopt(["emit", str(path), "-o", str(tmp_path / "out.py")]) == 1
    err = capsys.readouterr().err
    assert f"{path}:{_place(damaged, entry, new)}: kernel @triton_tem_fused_convolution_1: " in err and says in err, err
    assert "Traceback" not in err
