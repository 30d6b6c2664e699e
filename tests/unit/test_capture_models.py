"""The model-file conventions: what load_model accepts, what it builds, and the errors it gives."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import torch

from kernelopt.capture.models import CPU_INPUT_LIMIT_BYTES, ModelUnavailable, input_bytes, load_model
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


@pytest.mark.parametrize("size", ["large", "small"])
def test_file_without_sizes_has_one_size_its_own_whatever_is_asked(tmp_path, size):
    model, inputs, meta = load_model(str(write(tmp_path, KERNELBENCH)), device="cpu", seed=0, size=size)
    assert inputs[0].shape == (4, 8) and meta.size is None and meta.size_params == {}


def test_plain_kernelbench_file_captures_at_the_optimize_default_size(tmp_path):
    from kernelopt.capture.capture import capture
    from kernelopt.optimize_job import OptimizeOptions

    size = OptimizeOptions().size
    assert size == "large"
    result = capture(str(write(tmp_path, KERNELBENCH)), tmp_path / "cap", size=size, device="cpu", time_runs=False)
    assert result.manifest["model"]["size"] is None
    assert result.manifest["forward_inputs"][0]["shape"] == [4, 8]


HUGE = """
    import torch
    from torch import nn

    BATCH, DIM = 65536, 32768  # 8 GiB of fp32, plus 4 GiB of bf16 and 512 KiB of int64

    class Model(nn.Module):
        def forward(self, x, y, t):
            return x.sum() + y.sum() + t.sum()

    def get_init_inputs():
        return []

    def get_inputs():
        return [torch.randn(BATCH, DIM), torch.rand(BATCH, DIM, dtype=torch.bfloat16),
                torch.randint(0, 10, (BATCH,))]
"""


def test_input_bytes_is_exact_and_allocates_nothing(tmp_path):
    import resource
    import time

    path = str(write(tmp_path, HUGE))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    total = input_bytes(path)
    assert total == 65536 * 32768 * 4 + 65536 * 32768 * 2 + 65536 * 8
    assert time.perf_counter() - started < 5
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # Linux: KiB
    assert grown_kib < 200 * 1024
    assert total > CPU_INPUT_LIMIT_BYTES


def test_input_bytes_is_none_when_the_meta_device_cannot_tell(tmp_path):
    body = textwrap.dedent(KERNELBENCH).replace("return [torch.randn(4, 8)]",
                                                "n = int(torch.randint(2, 5, ()).item())\n    return [torch.randn(n, 8)]")
    assert input_bytes(str(write(tmp_path, body))) is None
    assert input_bytes(str(write(tmp_path, KERNELBENCH, "small.py"))) == 4 * 8 * 4


def test_input_bytes_of_a_sized_file_follows_the_size():
    small, large = input_bytes(str(ZOO / "softmax.py"), "small"), input_bytes(str(ZOO / "softmax.py"), "large")
    assert small == 8 * 256 * 2 and large == 8192 * 8192 * 2
    with pytest.raises(InputError, match="SIZES has no entry 'huge'"):
        input_bytes(str(ZOO / "softmax.py"), "huge")


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


def test_an_output_that_is_rounding_noise_around_zero_agrees_with_eager_but_a_wrong_one_does_not():
    # The mean of a group-normed tensor is ~1e-9 noise: a norm-wise relative error of noise against noise
    # must not fail the capture (it did for a conv + group norm + mean problem on the H200).
    from kernelopt.capture.capture import _agreement

    eager = torch.randn(64, generator=torch.Generator().manual_seed(0), dtype=torch.float64).float() * 1e-9
    noisy = eager + 8e-9
    assert _agreement([noisy], [eager])["ok"]
    wrong = torch.randn(64, generator=torch.Generator().manual_seed(1))
    assert not _agreement([wrong * 1.01], [wrong])["ok"]
    assert _agreement([wrong * (1 + 1e-6)], [wrong])["ok"]
