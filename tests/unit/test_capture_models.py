"""The model-file conventions: what load_model accepts, what it builds, and the errors it gives."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import torch

from kernelopt.capture.models import ModelUnavailable, load_model
from kernelopt.errors import InputError

ZOO = Path(__file__).resolve().parents[1] / "zoo"
ZOO_FILES = sorted(p for p in ZOO.glob("*.py"))


def write(tmp_path: Path, body: str, name: str = "model.py") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


KERNELBENCH = """
    import torch
    from torch import nn

    class Model(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.lin = nn.Linear(dim, dim)

        def forward(self, x):
            return self.lin(x).relu()

    def get_init_inputs():
        return [8]

    def get_inputs():
        return [torch.randn(4, 8)]
"""


def test_kernelbench_file_builds_model_and_inputs_in_eval_mode(tmp_path):
    model, inputs, meta = load_model(str(write(tmp_path, KERNELBENCH)), device="cpu", seed=0)
    assert not model.training
    assert inputs[0].shape == (4, 8)
    assert model(*inputs).shape == (4, 8)
    assert meta.name == "model" and meta.size is None


def test_same_seed_same_weights_and_inputs_other_seed_differs(tmp_path):
    path = str(write(tmp_path, KERNELBENCH))
    m1, i1, _ = load_model(path, device="cpu", seed=3)
    m2, i2, _ = load_model(path, device="cpu", seed=3)
    m3, i3, _ = load_model(path, device="cpu", seed=4)
    assert torch.equal(m1.lin.weight, m2.lin.weight) and torch.equal(i1[0], i2[0])
    assert not torch.equal(m1.lin.weight, m3.lin.weight) and not torch.equal(i1[0], i3[0])


@pytest.mark.parametrize("missing", ["class Model", "def get_init_inputs", "def get_inputs"])
def test_file_lacking_a_required_name_is_an_input_error_naming_it(tmp_path, missing):
    body = textwrap.dedent(KERNELBENCH).replace(missing, missing.replace(missing.split()[-1], "Other" + missing.split()[-1]))
    path = write(tmp_path, body)
    name = missing.split()[-1]
    with pytest.raises(InputError, match=rf"model\.py: missing {name}"):
        load_model(str(path), device="cpu", seed=0)


def test_missing_file_and_syntax_error_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="no such model file"):
        load_model(str(tmp_path / "absent.py"), device="cpu", seed=0)
    with pytest.raises(InputError, match=r"bad\.py:2: syntax error"):
        load_model(str(write(tmp_path, "x = 1\ndef (:\n", "bad.py")), device="cpu", seed=0)


def test_file_without_sizes_accepts_only_small(tmp_path):
    with pytest.raises(InputError, match="no SIZES"):
        load_model(str(write(tmp_path, KERNELBENCH)), device="cpu", seed=0, size="large")


def test_input_outside_declared_range_is_rejected(tmp_path):
    body = """
        import torch
        from torch import nn
        INPUT_RANGES = {0: (0, 10)}
        class Model(nn.Module):
            def forward(self, ids):
                return ids * 2
        def get_init_inputs():
            return []
        def get_inputs():
            return [torch.tensor([3, 10])]
    """
    with pytest.raises(InputError, match=r"outside its declared range \[0, 10\)"):
        load_model(str(write(tmp_path, body)), device="cpu", seed=0)


def test_missing_required_package_is_model_unavailable(tmp_path):
    body = "REQUIRES = ('no_such_package_kernelopt',)\n" + textwrap.dedent(KERNELBENCH)
    with pytest.raises(ModelUnavailable, match="no_such_package_kernelopt"):
        load_model(str(write(tmp_path, body)), device="cpu", seed=0)


def test_entry_point_factory_receives_the_arguments_it_declares(tmp_path):
    write(tmp_path, """
        import torch
        from torch import nn
        INPUT_RANGES = {0: (0, 5)}
        def make(size, seed):
            assert size == "small"
            return nn.Embedding(5, 3), [torch.arange(5) % 5]
    """, "entrymod.py")
    model, inputs, meta = load_model(None, entry=f"{tmp_path / 'entrymod.py'}:make", device="cpu", seed=1)
    assert isinstance(model, torch.nn.Embedding)
    assert meta.input_ranges == {0: (0, 5)}


def test_entry_point_errors(tmp_path):
    with pytest.raises(InputError, match="cannot import"):
        load_model(None, entry="no_such_module_kernelopt:make", device="cpu", seed=0)
    with pytest.raises(InputError, match="missing nothing_here"):
        load_model(None, entry="kernelopt.capture.random_models:nothing_here", device="cpu", seed=0)
    write(tmp_path, "def make():\n    return 42\n", "bad_factory.py")
    with pytest.raises(InputError, match=r"must return \(model, example_inputs\)"):
        load_model(None, entry=f"{tmp_path / 'bad_factory.py'}:make", device="cpu", seed=0)


@pytest.mark.parametrize("path", ZOO_FILES, ids=lambda p: p.stem)
def test_every_zoo_model_follows_the_conventions_at_small_size(path):
    import importlib.util

    try:
        model, inputs, meta = load_model(str(path), device="cpu", seed=0, size="small")
    except ModelUnavailable as err:
        pytest.skip(str(err))
    assert meta.size == "small" and meta.size_params and meta.description
    with torch.no_grad():
        out = model(*inputs)
    assert isinstance(out, torch.Tensor) and torch.isfinite(out.float()).all()
    for position, (low, high) in meta.input_ranges.items():  # integer inputs declare their range
        assert not inputs[position].is_floating_point() and 0 <= low < high
    integer_inputs = {i for i, x in enumerate(inputs) if not x.is_floating_point()}
    assert integer_inputs == set(meta.input_ranges), "every integer input declares its valid range"
    assert importlib.util.find_spec("torch")


def test_zoo_has_the_promised_models():
    names = {p.stem for p in ZOO_FILES}
    assert len(names) >= 12
    assert {"mlp", "rmsnorm", "softmax", "cross_entropy", "transformer_block", "conv_bn_relu", "depthwise_conv",
            "groupnorm_silu", "embedding_pos", "gpt2", "vit", "kl_div"} <= names
