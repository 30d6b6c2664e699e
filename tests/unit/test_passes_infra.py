"""The pass registry, pipeline strings, plugins and the pass manager."""
import dataclasses
import subprocess
import sys

import pytest

from kernelopt.errors import UsageError
from kernelopt.ir.parser import parse_module
from kernelopt.passes.base import Pass, PassContext
from kernelopt.passes.pass_manager import Instrumentation, PassManager, PipelineFailed
from kernelopt.passes.pipeline import parse_pipeline, split_pipeline
from kernelopt.passes.registry import registry

SIMPLE = """ko.module @m {
  ko.kernel @k {kind = "pointwise", source = ""}
  %buf0 = ko.alloc : tensor<4xf32, [1]>
  ko.launch @k(%buf0, 4)
  ko.return %buf0
}
"""


def test_every_registry_key_is_the_pass_name():
    table = registry()
    assert table, "no passes registered"
    for key, cls in table.items():
        assert key == cls.name
        assert cls.summary and "\n" not in cls.summary
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen


def test_builtin_pass_files_are_named_after_their_pass():
    for name, cls in registry().items():
        if cls.__module__.startswith("kernelopt.passes."):
            assert cls.__module__.rsplit(".", 1)[-1] == name.replace("-", "_")


def test_plugin_pass_is_found_through_its_entry_point():
    cls = registry()["example-tag"]
    assert cls.__module__ == "kernelopt_example_plugin.passes"
    passes = parse_pipeline("example-tag{label=x count=2}")
    assert passes[0].label == "x" and passes[0].count == 2


def test_pipeline_options_follow_mlir_syntax():
    specs = split_pipeline('a,b{some-option=3 names=x,y url=http://host:1/v1 text="with spaces"},c')
    assert [s.name for s in specs] == ["a", "b", "c"]
    assert specs[1].options == {"some-option": "3", "names": "x,y", "url": "http://host:1/v1",
                                "text": "with spaces"}


def test_typed_options_convert_and_bad_ones_name_pass_option_and_type():
    p, = parse_pipeline("example-tag{ratio=0.25 enabled=false names=a,b}")
    assert (p.ratio, p.enabled, p.names) == (0.25, False, ["a", "b"])
    with pytest.raises(UsageError, match="pass 'example-tag': option 'ratio' expects a number, got 'fast'"):
        parse_pipeline("example-tag{ratio=fast}")


def test_unknown_pass_suggests_the_closest_name():
    with pytest.raises(UsageError, match="Did you mean 'example-tag'"):
        parse_pipeline("example-tga")


def test_duplicate_pass_names_are_an_error(tmp_path):
    # A second plugin claiming a built-in name must be refused, not silently win.
    pkg = tmp_path / "dup_plugin"
    (pkg / "dup_plugin").mkdir(parents=True)
    (pkg / "dup_plugin" / "__init__.py").write_text(
        "from dataclasses import dataclass\nfrom kernelopt.passes.base import Pass\n"
        "@dataclass(frozen=True)\nclass Dup(Pass):\n    name = 'classify-dispatch'\n    summary = 'dup'\n"
        "    def apply(self, ctx, module):\n        pass\n")
    dist = pkg / "dup_plugin-0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: dup-plugin\nVersion: 0.0\n")
    (dist / "entry_points.txt").write_text("[kernelopt.passes]\nclassify-dispatch = dup_plugin:Dup\n")
    code = ("import sys; sys.path.insert(0, %r)\n"
            "from kernelopt.passes.registry import registry, RegistryError\n"
            "try:\n    registry()\nexcept RegistryError as e:\n    print('ERR', e)\n") % str(pkg)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert "ERR two passes are named 'classify-dispatch'" in out


def test_pass_manager_verifies_after_each_pass_and_names_the_pass():
    module = parse_module(SIMPLE)
    manager = PassManager(parse_pipeline("example-break"), Instrumentation())
    with pytest.raises(PipelineFailed, match="invalid after pass 'example-break'"):
        manager.run(module, PassContext())


def test_statistics_are_counted_per_pass():
    module = parse_module(SIMPLE)
    ctx = PassContext()
    PassManager(parse_pipeline("classify-dispatch,example-tag")).run(module, ctx)
    assert ctx.statistics["example-tag"]["tagged"] == 1
    assert ctx.statistics["classify-dispatch"]["triton.pointwise"] == 1
    assert ctx.statistics["classify-dispatch"]["vendor.cublas"] == 0  # declared, shown even when zero


def test_pipeline_text_round_trips_options():
    p, = parse_pipeline("example-tag{count=3 names=a,b}")
    assert p.pipeline_text() == "example-tag{count=3 names=a,b}"
    assert parse_pipeline(p.pipeline_text()) == [p]
