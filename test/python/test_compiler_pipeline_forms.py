"""Module.run and JitModule take a pipeline in both of mlir-opt's forms: the
passes alone, and --pass-pipeline's form anchored on builtin.module. The
anchored form once ran its passes on the modules nested in the module (none),
leaving it unchanged without a word."""

import numpy as np
import pytest

from gather_mlir.compiler import JitModule, Module

ROWS = """
func.func @rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""

# canonicalize folds the addition of constants.
FOLDABLE = """
func.func @three() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.constant 2 : i32
  %c = arith.addi %a, %b : i32
  return %c : i32
}
"""

DATA = np.arange(12, dtype=np.float32).reshape(4, 3)


@pytest.mark.parametrize("pipeline", [
    "gather-to-llvm", "builtin.module(gather-to-llvm)",
    "  builtin.module ( gather-to-llvm )  "])
def test_run_lowers_in_either_form(pipeline):
    m = Module(ROWS).run(pipeline)
    assert "func.func" not in str(m) and "llvm.func @rows" in str(m)
    out = JitModule(m, "").call("rows", DATA, np.array([3, -4]))
    np.testing.assert_array_equal(out, DATA[[3, 0]])


@pytest.mark.parametrize("pipeline", [
    "canonicalize", "builtin.module(canonicalize)",
    "func.func(canonicalize)", "builtin.module(func.func(canonicalize))"])
def test_run_folds_in_either_form(pipeline):
    text = str(Module(FOLDABLE).run(pipeline))
    assert "arith.addi" not in text and "arith.constant 3 : i32" in text


def test_jit_module_takes_the_anchored_form():
    jit = JitModule(Module(ROWS), "builtin.module(gather-to-llvm)")
    np.testing.assert_array_equal(jit.call("rows", DATA, np.array([1])),
                                  DATA[[1]])


def test_nested_modules_are_still_reached_by_a_nest():
    """Two anchors in a row are not the module's own anchor: they nest."""
    nested = "module {\n module @inner {" + FOLDABLE + "}\n}"
    text = str(Module(nested).run(
        "builtin.module(func.func(canonicalize)),"
        "builtin.module(func.func(cse))"))
    assert "arith.addi" not in text


@pytest.mark.parametrize("pipeline", [
    "builtin.module(no-such-pass)", "builtin.module(canonicalize",
    "func.func(no-such-pass)"])
def test_a_pipeline_that_cannot_run_is_an_error(pipeline):
    with pytest.raises(ValueError, match="invalid pipeline"):
        Module(ROWS).run(pipeline)
