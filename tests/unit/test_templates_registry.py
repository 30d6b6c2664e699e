"""The template registry: every registered template matches a real capture (a table over the registry,
so a new template without one fails here), the unmatched ones stay out, and plugins from the
`kernelopt.templates` entry points join it, a duplicate name being an error."""
from __future__ import annotations

from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from kernelopt.lift import lift_file
from kernelopt.passes.base import PassContext
from kernelopt.passes.classify_dispatch import ClassifyDispatch
from kernelopt.passes.detect_fusion import DetectFusion
from kernelopt.proposers.base import KernelSpec, LaunchSpec, RewriteTarget
from kernelopt.proposers.templates import TemplatesProposer
from kernelopt.rewrite.targets import group_target, kernel_target, vendor_ops, vendor_target
from kernelopt.templates import template_registry
from kernelopt.templates.kernel_template import KernelTemplate
from kernelopt.templates.template_registry import TEMPLATE_NAMES, TemplateRegistryError, registry

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
TINY = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-2.13-templates"   # where no zoo model has the kernel
UNMATCHED: set[str] = set()     # templates rendered and tested with no matcher yet: none ship


def _lifted(relative: str):
    module = lift_file(str(CORPUS / relative))     # an absolute path (TINY / ...) replaces CORPUS
    ctx = PassContext()
    ClassifyDispatch().apply(ctx, module)
    DetectFusion().apply(ctx, module)
    return module


def _kernel(relative: str, name: str):
    return kernel_target(_lifted(relative), name)


def _group(relative: str, group: int):
    target, why = group_target(_lifted(relative), group)
    assert target is not None, why
    return target


def _vendor(relative: str):
    module = _lifted(relative)
    target, why = vendor_target(module, vendor_ops(module)[0])
    assert target is not None, why
    return target


# template name -> a target from a real Inductor capture that its matcher must match
REAL_CAPTURES = {
    "row_norm": lambda: _kernel("cuda-2.11-h200/rmsnorm/large.default/rmsnorm.default.0.py",
                                "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0"),
    "row_softmax": lambda: _kernel("cuda-2.11-h200/softmax/large.default/softmax.default.0.py",
                                   "triton_red_fused__softmax__to_copy_amax_mul_sub_0"),
    "row_kl_div": lambda: _kernel("cuda-2.11-h200/kl_div/large.default/kl_div.default.0.py",
                                  "triton_red_fused__log_softmax__to_copy_amax_div_exp_mul_sub_sum_0"),
    "cross_entropy": lambda: _group("cuda-2.11-h200/cross_entropy/large.default/cross_entropy.default.0.py", 0),
    "depthwise_conv2d": lambda: _vendor("cpu-2.13/depthwise_conv/small.default/depthwise_conv.default.0.py"),
    "var_mean": lambda: _kernel("cuda-2.11-h200/groupnorm_silu/small.default/groupnorm_silu.default.0.py",
                                "triton_per_fused_native_group_norm_0"),      # GroupNorm's statistics
    "group_norm": lambda: _group("cuda-2.11-h200/groupnorm_silu/small.default/groupnorm_silu.default.0.py", 0),
    "cumsum": lambda: _kernel(str(TINY / "cumsum_rows" / "cumsum_rows.default.0.py"), "triton_per_fused_cumsum_0"),
    "arg_reduce": lambda: _kernel(str(TINY / "argmax_rows" / "argmax_rows.default.0.py"), "triton_per_fused_argmax_0"),
}


def test_every_registered_template_has_a_matcher_and_a_real_capture():
    assert set(REAL_CAPTURES) == set(registry()), "add a real-capture target for each registered template"
    for name, template in registry().items():
        assert template.name == name
        assert type(template).match is not KernelTemplate.match, name


@pytest.mark.parametrize("name", sorted(REAL_CAPTURES))
def test_the_matcher_matches_its_real_capture_and_renders_every_variant(name):
    template, target = registry()[name], REAL_CAPTURES[name]()
    match = template.match(target)
    assert match is not None, name
    variants = template.variants(match)
    assert variants
    for variant in variants:
        assert "def run(*args)" in template.render(match, variant)
    strategies = [c.strategy for c in TemplatesProposer().propose(target, [])]
    assert strategies == [f"templates:{template.strategy(match, v)}" for v in variants]


def test_templates_without_a_matcher_render_but_stay_unregistered():
    assert set(TEMPLATE_NAMES) == set(registry()) | UNMATCHED
    assert not UNMATCHED & set(registry())


# ---------------------------------------------------------------------------------------------------
# Plugins

PLUGIN = '''
from kernelopt.templates.kernel_template import KernelTemplate


class Echo(KernelTemplate):
    name = "echo"

    def match(self, target):
        return target.id if target.id == "echo-me" else None

    def variants(self, match):
        return [1, 2]

    def render(self, match, variant):
        return f"def run(*args):\\n    pass  # {match} {variant}\\n"

    def strategy(self, match, variant):
        return f"echo {variant}"


class Clash(Echo):
    name = "row_norm"
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """Installs `tpl_plugin` (Echo, Clash) and lets a test declare its entry points."""
    (tmp_path / "tpl_plugin.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.cache_clear()

    def declare(**points):
        wanted = template_registry.ENTRY_POINT_GROUP
        found = [EntryPoint(name, value, wanted) for name, value in points.items()]
        monkeypatch.setattr(template_registry, "entry_points", lambda group: found if group == wanted else [])
    yield declare
    registry.cache_clear()


def test_a_plugin_template_is_offered_by_the_proposer(plugin):
    plugin(echo="tpl_plugin:Echo")
    assert "echo" in registry() and set(registry()) > set(REAL_CAPTURES)
    target = RewriteTarget(id="echo-me", kernels=(KernelSpec("k", "pointwise", ""),), launches=(LaunchSpec("k", ()),))
    candidates = list(TemplatesProposer().propose(target, []))
    assert [c.strategy for c in candidates] == ["templates:echo 1", "templates:echo 2"]
    assert candidates[0].source.endswith("# echo-me 1\n")


def test_two_templates_with_one_name_are_an_error(plugin):
    plugin(clash="tpl_plugin:Clash")
    with pytest.raises(TemplateRegistryError, match="two templates are named 'row_norm'"):
        registry()


def test_a_plugin_that_is_not_a_template_is_an_error(plugin):
    plugin(bad="tpl_plugin:PLUGIN_MISSING")
    with pytest.raises(TemplateRegistryError, match="cannot load template plugin 'bad'"):
        registry()
