"""gather_mlir._native checks what it is given itself: called directly,
without the Python layer's conversions, bad arrays are exceptions, never
writes out of bounds or into read-only memory."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from gather_mlir import _native


def run_isolated(code):
    """Runs `code` in a fresh interpreter, so that a crash fails the test
    instead of killing pytest; returns its stdout."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, env=os.environ,
                          timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    return done.stdout


OPS = [("gather", lambda: (np.arange(20, dtype=np.int64).reshape(4, 5),
                           np.array([3, 0, 1]), 0, 0)),
       ("gather_elements", lambda: (np.arange(20, dtype=np.int64).reshape(4, 5),
                                    np.zeros((2, 3), np.int64), 1, 0)),
       ("gather_nd", lambda: (np.arange(20, dtype=np.int64).reshape(4, 5),
                              np.array([[1], [2], [3]]), 0, 0))]


@pytest.mark.parametrize("op", [op for op, _ in OPS])
def test_out_of_a_narrower_dtype_is_a_type_error(op):
    # An int8 out of the result's shape used to take 8 bytes per element.
    out = run_isolated(f"""
        import numpy as np
        from gather_mlir import _native
        data = np.arange(1 << 16, dtype=np.int64).reshape(1 << 8, 1 << 8)
        indices = np.zeros((1 << 8, 1 << 8), np.int64)
        if {op!r} == "gather_nd":
            indices = indices[..., None]
        shape = {{"gather": (256, 256, 256), "gather_elements": (256, 256),
                  "gather_nd": (256, 256, 256)}}[{op!r}]
        try:
            _native.{op}(data, indices, 0, 0, "check", np.zeros(shape, np.int8))
        except TypeError as e:
            print(e)
        """)
    assert "out has dtype int8, the result has int64" in out


@pytest.mark.parametrize("op,args", OPS, ids=[op for op, _ in OPS])
def test_out_must_be_c_contiguous_writeable_and_an_array(op, args):
    data, indices, axis, batch_dims = args()
    fn = getattr(_native, op)
    expected = fn(data, indices, axis, batch_dims, "check", None)
    wide = np.zeros(expected.shape[:-1] + (2 * expected.shape[-1],), np.int64)
    with pytest.raises(ValueError, match=f"{op}: out must be C-contiguous"):
        fn(data, indices, axis, batch_dims, "check", wide[..., ::2])
    assert not wide.any()
    frozen = np.zeros(expected.shape, np.int64)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match=f"{op}: out is read-only"):
        fn(data, indices, axis, batch_dims, "check", frozen)
    assert not frozen.any()
    with pytest.raises(TypeError, match=f"{op}: out must be a numpy array"):
        fn(data, indices, axis, batch_dims, "check", expected.tolist())


def test_out_overlapping_the_inputs_gets_the_right_values():
    data = np.arange(10, dtype=np.int64)
    result = _native.gather(data[:5], np.array([4, 3, 2, 1, 0]), 0, 0,
                            "check", data[:5])
    np.testing.assert_array_equal(result, [4, 3, 2, 1, 0])
    np.testing.assert_array_equal(data, [4, 3, 2, 1, 0, 5, 6, 7, 8, 9])
    indices = np.array([2, 0, 1, 1])
    result = _native.gather(np.array([10, 20, 30]), indices, 0, 0, "check",
                            indices)
    assert result is indices
    np.testing.assert_array_equal(indices, [30, 10, 20, 20])


def test_operands_the_kernels_cannot_read_are_errors():
    data = np.arange(6, dtype=np.int32)
    with pytest.raises(TypeError, match="gather: unsupported data dtype object"):
        _native.gather(np.array([None, 1]), np.array([0]), 0, 0, "check", None)
    with pytest.raises(TypeError, match="gather: indices must be native "
                       "integers, not float64"):
        _native.gather(data, np.array([0.0]), 0, 0, "check", None)
    # Unchecked mode trusts the values: byte-swapped indices would be huge.
    with pytest.raises(TypeError, match="gather: indices must be native "
                       "integers, not >i8"):
        _native.gather(data, np.array([1], ">i8"), 0, 0, "unchecked", None)
    # Unsigned indices are values (255, never -1): out of range here.
    with pytest.raises(IndexError, match="gather.gather: index 255 is out of "
                       "range"):
        _native.gather(data, np.array([255], np.uint8), 0, 0, "check", None)
    odd = np.zeros(13, np.uint8)[1:].view(np.int32)[::1]
    strided = np.lib.stride_tricks.as_strided(odd, (2,), (6,))
    with pytest.raises(ValueError, match="gather: data strides must be whole "
                       "elements"):
        _native.gather(strided, np.array([0]), 0, 0, "check", None)


def test_a_bfloat16_bag_table_must_come_as_its_int16_view():
    """The native bags take bfloat16 only as the int16 view the package
    makes of a torch.bfloat16 tensor: anything else is named."""
    with pytest.raises(TypeError, match="embedding_bag: a bfloat16 weight "
                       "must come as its int16 view, not float32"):
        _native.embedding_bag("embedding_bag", [1], np.ones((3, 4), np.float32),
                              [0], "sum", None, False, None, "check", None,
                              None, True)
