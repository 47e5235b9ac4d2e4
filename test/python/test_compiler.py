"""gather_mlir.compiler: parse, verify, run pipelines, JIT and call."""

import numpy as np
import pytest

from gather_mlir.compiler import JitModule, Module

ROWS = """
func.func @rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""

FILL = """
func.func @fill(%d: memref<?xi32>, %i: memref<?xi32>, %o: memref<?xi32>) {
  %dt = bufferization.to_tensor %d restrict : memref<?xi32> to tensor<?xi32>
  %it = bufferization.to_tensor %i restrict : memref<?xi32> to tensor<?xi32>
  %r = gather.gather %dt[%it] {mode = #gather<mode fill>} : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?xi32>, memref<?xi32>) -> ()
  return
}
"""


def test_parse_print_round_trip():
    m = Module(ROWS)
    m.verify()
    assert "gather.gather" in str(m)
    assert str(Module(str(m))) == str(m)


def test_parse_errors_are_value_errors_with_diagnostics():
    with pytest.raises(ValueError, match="axis 5 is out of range"):
        Module(ROWS.replace("%0 = gather.gather %d[%i] :",
                            "%0 = gather.gather %d[%i] {axis = 5 : i64} :"))
    with pytest.raises(ValueError, match="expected"):
        Module("func.func @broken(")


def test_run_pipelines():
    m = Module(ROWS).run("canonicalize,cse")
    assert "gather.gather" in str(m)
    m.run("convert-gather-to-affine")
    assert "affine.for" in str(m) and "gather.gather" not in str(m)
    with pytest.raises(ValueError, match="invalid pipeline"):
        Module(ROWS).run("no-such-pass")


def test_jit_call_returning_a_tensor():
    jit = JitModule(Module(ROWS))
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = jit.call("rows", data, np.array([3, -4, 1]))
    np.testing.assert_array_equal(out, data[[3, 0, 1]])


def test_jit_check_failure_is_an_index_error():
    jit = JitModule(Module(ROWS))
    with pytest.raises(IndexError, match="index 9 is out of range"):
        jit.call("rows", np.zeros((4, 3), np.float32), np.array([9]))


def test_jit_destination_passing():
    jit = JitModule(Module(FILL))
    out = np.full(3, -1, np.int32)
    jit.call("fill", np.array([1, 2, 3, 4, 5], np.int32),
             np.array([3, 10, -20], np.int32), out)
    np.testing.assert_array_equal(out, [4, 0, 0])


def test_jit_argument_errors():
    jit = JitModule(Module(ROWS))
    with pytest.raises(KeyError):
        jit.call("nope")
    with pytest.raises(TypeError, match="takes 2 arrays"):
        jit.call("rows", np.zeros((2, 2), np.float32))
    with pytest.raises(TypeError, match="2-d array of float32"):
        jit.call("rows", np.zeros(4, np.float32), np.array([0]))


def test_jit_rejects_non_contiguous_arrays_instead_of_copying():
    jit = JitModule(Module(FILL))
    out = np.zeros(6, np.int32)[::2]  # Writes into a copy would be lost.
    with pytest.raises(ValueError, match="argument 2 must be C-contiguous"):
        jit.call("fill", np.arange(5, dtype=np.int32),
                 np.array([0, 1, 2], np.int32), out)
    result = np.zeros(3, np.int32)
    jit.call("fill", np.arange(1, 6, dtype=np.int32),
             np.array([4, 0, 9], np.int32), result)
    np.testing.assert_array_equal(result, [5, 1, 0])


def test_jit_arguments_take_the_numpy_dtype_of_their_element_type():
    jit = JitModule(Module(
        "func.func @f(%a: memref<2xf16>, %b: memref<2xcomplex<f32>>, "
        "%c: memref<2xui16>, %d: memref<2xi1>) { return }"))
    jit.call("f", np.zeros(2, np.float16), np.zeros(2, np.complex64),
             np.zeros(2, np.uint16), np.zeros(2, bool))
    with pytest.raises(TypeError, match="1-d array of complex64"):
        jit.call("f", np.zeros(2, np.float16), np.zeros(2, np.complex128),
                 np.zeros(2, np.uint16), np.zeros(2, bool))


def test_jit_element_types_without_a_numpy_dtype_are_type_errors():
    with pytest.raises(TypeError, match="no numpy dtype for element type bf16"):
        JitModule(Module("func.func @f(%a: memref<2xbf16>) { return }"))


def test_diagnostics_carry_line_and_column():
    with pytest.raises(ValueError, match=r"<source>:3:8: error: .*axis 5 is "
                       r"out of range"):
        Module(ROWS.replace("%0 = gather.gather %d[%i] :",
                            "%0 = gather.gather %d[%i] {axis = 5 : i64} :"))
    with pytest.raises(ValueError, match=r"<source>:1:18: error: expected"):
        Module("func.func @broken(")
    unranked = Module("""
func.func @f(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}""")
    with pytest.raises(ValueError, match=r"<source>:3:8: error: failed to "
                       "legalize operation 'gather.gather'"):
        unranked.run("convert-gather-to-affine")


def test_opt_level_is_0_to_3():
    for level in range(4):
        JitModule(Module(FILL), opt_level=level)
    for level in (-1, 4, 100):
        with pytest.raises(ValueError, match="opt_level must be 0..3"):
            JitModule(Module(FILL), opt_level=level)
