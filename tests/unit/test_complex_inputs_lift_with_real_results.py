"""A model on complex64 tensors (found by the tenth holdout pass).

Inductor falls back to ATen for `torch.abs` and `view_as_real` of a complex tensor and reads their results in
float32 kernels. The lifter typed each fallback's result with its first argument's dtype (complex64), so the
launches failed the verifier, and `kernelopt optimize` and torch.compile(backend="kernelopt") ran Inductor's
module saying only "the IR is invalid after pass 'classify-dispatch':" (the errors were on the lines after it,
which neither prints).
"""
from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402

from kernelopt.capture import capture  # noqa: E402
from kernelopt.ir.parser import parse_module  # noqa: E402
from kernelopt.ir.verifier import verify  # noqa: E402
from kernelopt.lift import lift_file  # noqa: E402
from kernelopt.passes.base import PassContext  # noqa: E402
from kernelopt.passes.pass_manager import Instrumentation, PassManager, PipelineFailed  # noqa: E402
from kernelopt.passes.pipeline import parse_pipeline  # noqa: E402

COMPLEX_MAGNITUDE_AND_PHASE = '''
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, z):
        return torch.abs(z) * 2.0, torch.angle(z)


def get_inputs():
    return [torch.randn(6, 40, dtype=torch.complex64)]


def get_init_inputs():
    return []
'''

FREED_THEN_LAUNCHED = """ko.module @m {
  ko.kernel @k {kind = "pointwise", source = ""}
  %buf0 = ko.alloc : tensor<4xf32, [1]>
  ko.launch @k(%buf0, 4)
  ko.launch @k(%buf0, 4)
  ko.return %buf0
}
"""


@pytest.mark.filterwarnings("ignore:Torchinductor does not support code generation for complex")
def test_the_real_results_of_complex_fallbacks_lift_as_float32(tmp_path):
    path = tmp_path / "complex_magnitude.py"
    path.write_text(COMPLEX_MAGNITUDE_AND_PHASE)
    result = capture(str(path), tmp_path / "cap", device="cpu", seed=0, store_tensors=False)
    module = lift_file(result.directory / result.manifest["graphs"][0]["module"])
    assert [str(d) for d in verify(module).errors] == []
    launch_arg_dtypes = {arg.value.type.dtype for launch in module.launches() for arg in launch.args
                         if getattr(arg.value, "type", None) is not None and hasattr(arg.value.type, "dtype")}
    assert "complex64" not in launch_arg_dtypes, launch_arg_dtypes


def test_an_invalid_ir_names_its_first_error_on_the_failures_first_line():
    module = parse_module(FREED_THEN_LAUNCHED)
    with pytest.raises(PipelineFailed) as failure:
        PassManager(parse_pipeline("example-break"), Instrumentation()).run(module, PassContext())
    first_line = str(failure.value).splitlines()[0]
    assert "invalid after pass 'example-break'" in first_line
    assert "use of %buf0 after %buf0 was freed" in first_line and "more below" in first_line, first_line
