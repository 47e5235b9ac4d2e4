"""The per-call fast path (gather_mlir._native.try_gather & co.): it takes
plain numpy calls in one native call, hands everything else to the general
path (returns None), and gives the same results and errors as that path."""

import numpy as np
import pytest

import gather_mlir as g
from gather_mlir import _native

TRY = {"gather": _native.try_gather,
       "gather_elements": _native.try_gather_elements,
       "gather_nd": _native.try_gather_nd}
GENERAL = {"gather": _native.gather,
           "gather_elements": _native.gather_elements,
           "gather_nd": _native.gather_nd}

DATA = np.arange(20.0).reshape(4, 5)
IDX = np.array([[3, -1], [0, 2]])


def test_plain_numpy_calls_take_the_fast_path():
    result = _native.try_gather(DATA, IDX, 1, 0, "check", None)
    np.testing.assert_array_equal(result, np.take(DATA, IDX, axis=1))
    out = np.empty((4, 2, 2))
    assert _native.try_gather(DATA, IDX, 1, 0, "wrap", out) is out
    np.testing.assert_array_equal(out, np.take(DATA, IDX, axis=1))
    # A mode equal to a name but not the interned object.
    mode = "".join(["cl", "amp"])
    np.testing.assert_array_equal(
        _native.try_gather_elements(DATA, IDX, 1, 0, mode, None),
        np.take_along_axis(DATA[:2], IDX % 5, axis=1))
    np.testing.assert_array_equal(
        _native.try_gather_nd(DATA, IDX + [0, 5], 0, 0, "fill", None),
        [19.0, 0.0])


class Subclass(np.ndarray):
    pass


@pytest.mark.parametrize("args", [
    # Array-likes, subclasses, scalars.
    ([1.0, 2.0], IDX[0], 0, 0, "check", None),
    (DATA, [0, 1], 0, 0, "check", None),
    (DATA.view(Subclass), IDX, 0, 0, "check", None),
    (DATA, IDX.view(Subclass), 0, 0, "check", None),
    (np.float64(1.0), IDX, 0, 0, "check", None),
    # Indices the kernels cannot read as they are (unsigned ones they can:
    # the native layer converts them).
    (DATA, IDX.astype(">i8"), 0, 0, "check", None),
    (DATA, IDX.astype(np.float64), 0, 0, "check", None),
    (DATA, np.lib.stride_tricks.as_strided(
        np.zeros(13, np.uint8)[1:].view(np.int32), (2,), (6,)),
     0, 0, "check", None),
    # Data no kernel takes.
    (DATA.astype(object), IDX, 0, 0, "check", None),
    (DATA.astype(np.longdouble), IDX, 0, 0, "check", None),
    (np.lib.stride_tricks.as_strided(np.zeros(13, np.uint8)[1:].view(np.int32),
                                     (2,), (6,)), IDX, 0, 0, "check", None),
    # Attributes and modes that are not plain.
    (DATA, IDX, np.int64(1), 0, "check", None),
    (DATA, IDX, True, 0, "check", None),
    (DATA, IDX, 1.0, 0, "check", None),
    (DATA, IDX, 2**63, 0, "check", None),
    (DATA, IDX, 0, -2**63 - 1, "check", None),
    (DATA, IDX, 0, 0, "raise", None),
    (DATA, IDX, 0, 0, b"check", None),
    (DATA, IDX, 0, 0, None, None),
    # An out that is not a plain array.
    (DATA, IDX, 0, 0, "check", [[0.0] * 5] * 4),
    (DATA, IDX, 0, 0, "check", np.empty((2, 2, 5)).view(Subclass)),
])
@pytest.mark.parametrize("op", TRY)
def test_everything_else_takes_the_general_path(op, args):
    assert TRY[op](*args) is None


def test_the_general_path_still_handles_what_the_fast_path_leaves():
    np.testing.assert_array_equal(g.gather([10, 20, 30], [2, 0]), [30, 10])
    np.testing.assert_array_equal(
        g.gather(DATA, np.array([4], np.uint64), axis=np.int8(1)), DATA[:, [4]])
    np.testing.assert_array_equal(
        g.gather(DATA, np.array([1], ">i2"), axis=True), DATA[:, [1]])
    with pytest.raises(ValueError, match="mode must be one of check, fill"):
        g.gather(DATA, IDX, mode="raise")
    with pytest.raises(ValueError, match="out of the int64 range"):
        g.gather(DATA, IDX, axis=2**63)
    with pytest.raises(TypeError, match="axis must be an integer"):
        g.gather(DATA, IDX, axis=1.0)


@pytest.mark.parametrize("mode", ["raise", None, b"check", "\ud800",
                                  "check\0"])
def test_every_function_parses_the_mode_alike(mode):
    """One parser (NativeArrays' modeOf): the gathers, their native ops and
    the bags name the modes in one message; a str that is not UTF-8 is no
    mode either."""
    expected = (f"mode must be one of check, fill, clamp, wrap, unchecked, "
                f"not {mode!r}")
    calls = [
        ("gather: ", lambda: g.gather(DATA, IDX, mode=mode)),
        ("gather_nd: ", lambda: g.gather_nd(DATA, [[0]], mode=mode)),
        ("gather: ", lambda: _native.gather(DATA, np.zeros(1, np.int64), 0, 0,
                                            mode, None)),
        ("embedding_bag: oob_", lambda: g.embedding_bag(np.ones(2, np.int64),
                                     np.ones((4, 3), "f4"), oob_mode=mode)),
    ]
    for function, call in calls:
        assert _error(call) == (ValueError, function + expected)


def _error(fn, *args, **kwargs):
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return type(info.value), str(info.value)


@pytest.mark.parametrize("op,data,indices,axis,batch_dims,mode", [
    ("gather", DATA, IDX, 2, 0, "check"),
    ("gather", DATA, IDX, -3, 0, "check"),
    ("gather", DATA, IDX, 0, 3, "check"),
    ("gather", DATA, IDX, 0, 1, "check"),
    ("gather", DATA, np.zeros((3, 1), np.int64), 1, 1, "check"),
    ("gather", np.array(1.0), IDX, 0, 0, "check"),
    ("gather", DATA, IDX + 10, 1, 0, "check"),
    ("gather", np.zeros((0, 3)), IDX, 0, 0, "clamp"),
    ("gather_elements", DATA, np.zeros(3, np.int64), 0, 0, "check"),
    ("gather_elements", DATA, np.zeros((5, 1), np.int64), 1, 0, "check"),
    ("gather_elements", DATA, np.zeros((2, 6), np.int64), 0, 0, "wrap"),
    ("gather_elements", DATA, IDX - 10, 0, 0, "check"),
    ("gather_nd", DATA, np.zeros((2, 3), np.int64), 0, 0, "check"),
    ("gather_nd", DATA, IDX, 0, -1, "check"),
    ("gather_nd", DATA, np.array(0), 0, 0, "check"),
    ("gather_nd", DATA, np.array([[4, 0]]), 0, 0, "check"),
])
def test_errors_are_those_of_the_general_path(op, data, indices, axis,
                                              batch_dims, mode):
    fast = _error(TRY[op], data, indices, axis, batch_dims, mode, None)
    general = _error(GENERAL[op], data, indices, axis, batch_dims, mode, None)
    assert fast == general
    public = getattr(g, op)
    kwargs = {"mode": mode}
    if op != "gather_nd":
        kwargs["axis"] = axis
    if op != "gather_elements":
        kwargs["batch_dims"] = batch_dims
    assert _error(public, data, indices, **kwargs) == general


def test_out_errors_are_those_of_the_general_path():
    for out in (np.empty((4, 2, 2), np.float32), np.empty((4, 4)),
                np.empty((4, 2, 4))[..., ::2]):
        fast = _error(_native.try_gather, DATA, IDX, 1, 0, "check", out)
        assert fast == _error(_native.gather, DATA, IDX, 1, 0, "check", out)
    frozen = np.empty((4, 2, 2))
    frozen.flags.writeable = False
    assert _error(_native.try_gather, DATA, IDX, 1, 0, "check", frozen) == \
        (ValueError, "gather: out is read-only")


def test_out_overlapping_the_operands_on_the_fast_path():
    data = np.arange(10, dtype=np.int64)
    result = g.gather(data[:5], np.array([4, 3, 2, 1, 0]), out=data[:5])
    assert result.base is data
    np.testing.assert_array_equal(data, [4, 3, 2, 1, 0, 5, 6, 7, 8, 9])
    indices = np.array([2, 0, 1, 1])
    assert g.gather(np.array([10, 20, 30]), indices, out=indices) is indices
    np.testing.assert_array_equal(indices, [30, 10, 20, 20])
    # Disjoint halves of one buffer do not overlap: written in place.
    buffer = np.arange(8, dtype=np.int64)
    assert g.gather(buffer[:4], np.array([3, 2, 1, 0]),
                    out=buffer[4:]).base is buffer
    np.testing.assert_array_equal(buffer, [0, 1, 2, 3, 3, 2, 1, 0])


def test_strided_and_byte_swapped_data_on_the_fast_path():
    base = np.arange(60, dtype=">f4").reshape(6, 10)
    data = base[::2, ::-3]
    idx = np.array([[1, -1], [0, 2]])[:, ::-1]
    result = _native.try_gather(data, idx, 1, 0, "check", None)
    assert result is not None and result.dtype == data.dtype
    np.testing.assert_array_equal(result, np.take(data, idx, axis=1))
