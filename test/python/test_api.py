"""gather_mlir's public API: semantics on the seed examples, every mode,
dtype and layout, errors, `out`, threads and the kernel cache."""

import subprocess
import threading

import numpy as np
import pytest

import gather_mlir as g
from gather_mlir import _native
from gather_mlir.compiler import JitModule, Module

INT64_MIN, INT64_MAX = np.iinfo(np.int64).min, np.iinfo(np.int64).max

# --- Seed examples -----------------------------------------------------------


def test_onnx_gather_axis_0_and_1():
    data = np.array([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], np.float32)
    out = g.gather(data, [[0, 1], [1, 2]])
    assert out.dtype == np.float32
    np.testing.assert_array_equal(
        out, np.array([[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]],
                      np.float32))
    data = np.array([[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]],
                    np.float32)
    np.testing.assert_array_equal(
        g.gather(data, [[0, 2]], axis=1),
        np.array([[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]], np.float32))


@pytest.mark.parametrize("axis,batch_dims,indices,data,expected", [
    (0, 0, [0, 0, 4], [1, 2, 3, 4, 5], [1, 1, 5]),
    (1, 1, [[0, 0, 4], [4, 0, 0]], [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]],
     [[1, 1, 5], [10, 6, 6]]),
    (2, 2, [[[0, 0, 4], [4, 0, 0]], [[1, 2, 4], [4, 3, 2]]],
     [[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]],
      [[11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]],
     [[[1, 1, 5], [10, 6, 6]], [[12, 13, 15], [20, 19, 18]]]),
    (1, -1, [[0, 0, 4], [4, 0, 0]], [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]],
     [[1, 1, 5], [10, 6, 6]]),
    (0, 0, [0, -2, -1], [1, 2, 3, 4, 5], [1, 4, 5]),
])
def test_openvino_gather8_examples(axis, batch_dims, indices, data, expected):
    np.testing.assert_array_equal(
        g.gather(data, indices, axis=axis, batch_dims=batch_dims), expected)


def test_openvino_gather8_example_4_axis_after_batch():
    data = np.arange(1, 41).reshape(2, 1, 5, 4)
    out = g.gather(data, [[1, 2, 4], [4, 3, 2]], axis=2, batch_dims=1)
    expected = [[[[5, 6, 7, 8], [9, 10, 11, 12], [17, 18, 19, 20]]],
                [[[37, 38, 39, 40], [33, 34, 35, 36], [29, 30, 31, 32]]]]
    np.testing.assert_array_equal(out, expected)


def test_openvino_gather8_example_7_fill():
    np.testing.assert_array_equal(
        g.gather([1, 2, 3, 4, 5], [3, 10, -20], mode="fill"), [4, 0, 0])


@pytest.mark.parametrize("axis,data,indices,expected", [
    (0, [[1, 2], [3, 4]], [[0, 1], [0, 0]], [[1, 4], [1, 2]]),
    (1, [[1, 7], [4, 3]], [[1, 1, 0], [1, 0, 1]], [[7, 7, 1], [3, 4, 3]]),
    (0, [[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 0, 1], [1, 2, 0]],
     [[4, 2, 6], [4, 8, 3]]),
    (1, [[1, 2], [3, 4]], [[0, 1], [1, 0]], [[1, 2], [4, 3]]),  # torch.gather
])
def test_gather_elements_examples(axis, data, indices, expected):
    np.testing.assert_array_equal(g.gather_elements(data, indices, axis=axis),
                                  expected)


def test_keras_backend_gather_examples():
    var = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    np.testing.assert_array_equal(g.gather(var, [0]), [[1, 2, 3]])
    np.testing.assert_array_equal(g.gather(var, [1]), [[4, 5, 6]])
    np.testing.assert_array_equal(g.gather(var, [0, 1, 0]),
                                  [[1, 2, 3], [4, 5, 6], [1, 2, 3]])


# --- Modes -------------------------------------------------------------------

EDGE_INDICES = [-7, -5, -1, 0, 4, 5, 12, INT64_MIN, INT64_MAX]


@pytest.mark.parametrize("mode,expected", [
    ("fill", [0, 1, 5, 1, 5, 0, 0, 0, 0]),
    ("clamp", [1, 1, 5, 1, 5, 5, 5, 1, 5]),
    ("wrap", [4, 1, 5, 1, 5, 1, 3, 3, 3]),
])
def test_modes_on_edge_indices(mode, expected):
    out = g.gather(np.array([1, 2, 3, 4, 5], np.int32),
                   np.array(EDGE_INDICES, np.int64), mode=mode)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("bad", [5, -6, 12, INT64_MIN, INT64_MAX])
def test_check_mode_raises_index_error_naming_value_and_range(bad):
    with pytest.raises(IndexError, match=rf"index {bad} is out of range "
                       r"\[-5, 4\] for data dimension 0 of size 5"):
        g.gather(np.arange(5), np.array([0, bad, 1], np.int64))


def test_check_mode_names_each_op():
    with pytest.raises(IndexError, match="gather.gather_elements: index -4"):
        g.gather_elements(np.ones((2, 3)), [[0, -4]], axis=1)
    with pytest.raises(IndexError, match="gather.gather_nd: index 3 .* data "
                       "dimension 1 of size 3"):
        g.gather_nd(np.ones((2, 3)), [[1, 2], [1, 3]])


@pytest.mark.parametrize("rows", [4, 4096])  # One thread; 16 MiB: threads.
def test_failed_check_leaves_out_untouched(rows):
    # A kernel writing the caller's out validates every index before it
    # writes anything; one writing its own result may validate row by row
    # (gather_elements), and that result is discarded with the IndexError.
    # The bad index sits in the last row, which a thread reaches last.
    rng = np.random.default_rng(7)
    data = rng.random((rows, 1024), dtype=np.float32)
    elements = rng.integers(0, 1024, (rows, 1024))
    elements[rows - 1, 1000] = 1024
    rows_ids = np.arange(rows)
    rows_ids[-1] = rows
    pairs = np.stack([np.arange(rows), elements[:, 1000]], axis=1)
    calls = [
        (lambda out: g.gather_elements(data, elements, axis=1, out=out),
         (rows, 1024)),
        (lambda out: g.gather(data, rows_ids, out=out), (rows, 1024)),
        (lambda out: g.gather_nd(data, pairs, out=out), (rows,)),
    ]
    for call, shape in calls:
        with pytest.raises(IndexError, match="out of range"):
            call(None)
        out = np.full(shape, -1.0, np.float32)
        with pytest.raises(IndexError, match="out of range"):
            call(out)
        assert (out == -1.0).all()
    elements[rows - 1, 1000] = 3
    np.testing.assert_array_equal(g.gather_elements(data, elements, axis=1),
                                  np.take_along_axis(data, elements, axis=1))


def test_empty_axis_with_indices_is_an_index_error_except_fill():
    data = np.zeros((0, 3), np.float32)
    for mode in ("check", "clamp", "wrap"):
        with pytest.raises(IndexError, match="empty"):
            g.gather(data, [0], mode=mode)
    np.testing.assert_array_equal(g.gather(data, [0, 5], mode="fill"),
                                  np.zeros((2, 3), np.float32))


def _take_last_axis(data, ids, mode):
    """numpy's answer for a gather_elements along the last axis."""
    s = data.shape[-1]
    if mode == "clamp":
        ids = np.clip(np.where(ids < 0, ids + s, ids), 0, s - 1)
    elif mode == "wrap":
        ids = np.mod(ids, s)
    elif mode == "fill":
        inside = (ids >= -s) & (ids < s)
        got = np.take_along_axis(data, np.where(inside, ids, 0), axis=-1)
        return np.where(inside, got, 0)
    return np.take_along_axis(data, ids, axis=-1)


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("mode", ["check", "unchecked", "clamp", "wrap",
                                  "fill"])
def test_last_axis_rows_of_every_length(mode, index_dtype):
    """A row along the last axis is gathered a vector at a time and its tail
    as one masked vector: every row length from 1 to 2.5 vectors, in every
    mode, equals numpy's, and nothing past the result is written."""
    rng = np.random.default_rng(7)
    data = rng.standard_normal((3, 11)).astype(np.float32)
    in_range = mode in ("check", "unchecked")
    for n in range(1, 41):
        ids = rng.integers(-11 if in_range else -30, 11 if in_range else 30,
                           (3, n)).astype(index_dtype)
        buffer = np.full(3 * n + 8, -7.0, np.float32)
        out = buffer[:3 * n].reshape(3, n)
        g.gather_elements(data, ids, axis=-1, mode=mode, out=out)
        np.testing.assert_array_equal(out, _take_last_axis(data, ids, mode))
        assert (buffer[3 * n:] == -7.0).all()


@pytest.mark.parametrize("n", [1, 7, 8, 9, 20])
def test_last_axis_check_reports_a_bad_index_in_the_tail(n):
    """check finds a bad index wherever it lies in a row, the masked tail
    included (lanes past the row are not indices)."""
    data = np.arange(33, dtype=np.float32).reshape(3, 11)
    for position in range(n):
        ids = np.zeros((3, n), np.int64)
        ids[2, position] = 11
        with pytest.raises(IndexError, match="index 11 is out of range"):
            g.gather_elements(data, ids, axis=-1)
        with pytest.raises(IndexError, match="index 11 is out of range"):
            g.gather(data, ids[2], axis=-1)


def test_empty_last_axis_reads_nothing():
    """Along an empty last axis only fill has a result (zeros); check,
    clamp and wrap reject any index, for rows gathered element-wise."""
    data = np.zeros((3, 0), np.float32)
    ids = np.zeros((3, 5), np.int64)
    np.testing.assert_array_equal(
        g.gather_elements(data, ids, axis=-1, mode="fill"),
        np.zeros((3, 5), np.float32))
    for mode in ("check", "clamp", "wrap"):
        with pytest.raises(IndexError, match="out of range|empty"):
            g.gather_elements(data, ids, axis=-1, mode=mode)
    # No index: nothing to check, an empty result.
    assert g.gather_elements(data, np.zeros((3, 0), np.int64),
                             axis=-1).shape == (3, 0)


def test_unsigned_indices_keep_their_values():
    data = np.arange(300)
    np.testing.assert_array_equal(g.gather(data, np.array([255], np.uint8)),
                                  [255])
    np.testing.assert_array_equal(
        g.gather(data, np.array([2**64 - 1], np.uint64), mode="clamp"), [299])
    np.testing.assert_array_equal(
        g.gather(data, np.array([2**64 - 1], np.uint64), mode="wrap"),
        [(2**64 - 1) % 300])
    with pytest.raises(IndexError, match="18446744073709551615"):
        g.gather(data, np.array([2**64 - 1], np.uint64))


HUGE = 2**63 + 5  # above INT64_MAX: as a bit pattern it is negative


class Subclass(np.ndarray):
    """An ndarray subclass: the fast path leaves it to the general path."""


@pytest.mark.parametrize("shape", [(), (1,), (2, 2)])
@pytest.mark.parametrize("fast", [True, False])
def test_unsigned_indices_are_values_for_every_rank(shape, fast):
    """One path for unsigned indices of every rank (0-d ones were read as
    negative bit patterns): expected values from Python ints."""
    data = np.arange(8, dtype=np.int8).reshape(8, 1)
    ids = np.full(shape, HUGE, np.uint64)
    # The general path takes array-likes and views the fast path leaves.
    arg = ids if fast else ids.view(Subclass)
    full = lambda v: np.full(shape + (1,), v, np.int8)
    np.testing.assert_array_equal(g.gather(data, arg, mode="clamp"), full(7))
    np.testing.assert_array_equal(g.gather(data, arg, mode="wrap"),
                                  full(HUGE % 8))
    np.testing.assert_array_equal(g.gather(data, arg, mode="fill"), full(0))
    with pytest.raises(IndexError, match=r"gather.gather: index 9223372036854775813 "
                       r"is out of range \[-8, 7\] for data dimension 0 of size 8"):
        g.gather(data, arg)


def test_index_arrays_empty_along_an_inner_dim_return_at_once():
    """Indices of shape (2^40, 0) hold nothing: the kernels skip a loop nest
    whose inner loop is empty rather than walk its 2^40 outer iterations
    (hours). In a child process, so that a regression fails by its timeout
    instead of hanging the suite."""
    import subprocess
    import sys
    code = """if True:
        import numpy as np, gather_mlir as g
        ids = np.empty((2**40, 0), np.int64)
        for mode in ("check", "clamp", "wrap", "fill", "unchecked"):
            assert g.gather(np.arange(3.0), ids, mode=mode).shape == (2**40, 0)
            assert g.gather(np.zeros((3, 4)), ids, mode=mode).shape == (
                2**40, 0, 4)
            assert g.gather_elements(np.zeros((2**40, 0)), ids, axis=1,
                                     mode=mode).shape == (2**40, 0)
            assert g.gather_nd(np.zeros((3, 2)), ids[..., None],
                               mode=mode).shape == (2**40, 0, 2)
        print("ok")
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.split() == ["ok"], done.stderr[-2000:]


def test_unsigned_indices_along_an_empty_dim():
    data = np.zeros((5, 0), np.complex64)
    for mode in ("check", "clamp", "wrap"):
        with pytest.raises(IndexError, match="index 18446744073709551615 "
                           "selects along data dimension 1, which is empty"):
            g.gather(data, np.array(2**64 - 1, np.uint64), axis=1, mode=mode)
    assert g.gather(data, np.array(2**64 - 1, np.uint64), axis=1,
                    mode="fill").shape == (5,)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_unsigned_indices_of_every_width_for_every_op(dtype):
    top = np.iinfo(dtype).max
    data = np.arange(300).reshape(3, 100)
    ids = np.array([[top, 1], [2, top]], dtype)
    # gather_elements along axis 1: each value against 100.
    np.testing.assert_array_equal(
        g.gather_elements(data[:2], ids, axis=1, mode="wrap"),
        [[data[0, int(top) % 100], data[0, 1]],
         [data[1, 2], data[1, int(top) % 100]]])
    # gather_nd: each component against its own dimension (3 and 100).
    np.testing.assert_array_equal(
        g.gather_nd(data, ids, mode="clamp"), [data[2, 1], data[2, 99]])
    with pytest.raises(IndexError, match=f"index {int(top)} is out of range "
                       r"\[-3, 2\] for data dimension 0 of size 3"):
        g.gather_nd(data, ids)


@pytest.mark.parametrize("tuple_size", [1, 2, 3])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("count", [1, 5, 8, 16, 17, 40, 333])
def test_gather_nd_check_reports_the_first_bad_index_in_order(
        tuple_size, index_dtype, count):
    """check mode scans gather_nd's tuples a vector at a time (each lane
    against its component's dimension): every position and component, in
    whole vectors and in the tail, is reported as the first bad index in
    row-major order, and indices from -size to size - 1 all pass."""
    rng = np.random.default_rng(count * 10 + tuple_size)
    shape = (5, 7, 3)[:tuple_size] + (2,)
    data = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    sizes = shape[:tuple_size]
    low = np.array([-s for s in sizes])
    ids = rng.integers(low, np.array(sizes), (count, tuple_size)).astype(
        index_dtype)
    expected = data[tuple(ids.astype(np.int64).T)]
    np.testing.assert_array_equal(g.gather_nd(data, ids), expected)
    big = np.iinfo(index_dtype)
    for position in sorted({0, count // 2, count - 1}):
        for component in range(tuple_size):
            s = sizes[component]
            for bad in (s, -s - 1, big.max, big.min):
                bad_ids = ids.copy()
                bad_ids[position, component] = bad
                # A second bad index later in row-major order is not the
                # one reported.
                if position + 1 < count:
                    bad_ids[position + 1, 0] = sizes[0] + 7
                with pytest.raises(IndexError, match=(
                        rf"gather.gather_nd: index {bad} is out of range "
                        rf"\[{-s}, {s - 1}\] for data dimension "
                        rf"{component} of size {s}")):
                    g.gather_nd(data, bad_ids)


@pytest.mark.parametrize("tuple_size", [1, 2])
def test_gather_nd_threaded_check_reports_the_first_bad_index(tuple_size):
    """A result of 8 MiB or more takes a parallel kernel, whose check scan
    of a multi-dimensional index array runs on threads, a slab of outer
    positions each; the first flagged slab is scanned again (a strided
    subview of the indices) to report the first bad index in order."""
    rng = np.random.default_rng(tuple_size)
    shape = (64, 64, 256)[2 - tuple_size:]
    data = rng.random(shape, dtype=np.float32)
    sizes = shape[:tuple_size]
    ids = rng.integers(0, min(sizes), (64, 160, tuple_size))
    expected = data[tuple(np.moveaxis(ids, -1, 0))]
    assert expected.nbytes >= 8 << 20
    np.testing.assert_array_equal(g.gather_nd(data, ids), expected)
    for at in [(0, 0), (31, 77), (63, 159)]:
        bad = ids.copy()
        bad[at + (tuple_size - 1,)] = -sizes[-1] - 1
        if at != (63, 159):  # a later bad index, not the one reported
            bad[63, 159, 0] = sizes[0] + 9
        s = sizes[-1]
        with pytest.raises(IndexError, match=(
                rf"index {-s - 1} is out of range \[{-s}, {s - 1}\] for "
                rf"data dimension {tuple_size - 1} of size {s}")):
            g.gather_nd(data, bad)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_unsigned_indices_that_fit_are_read_in_place(dtype):
    """Unsigned indices whose values all fit the signed type of their width
    are read as that type, without a copy; one value with its top bit set
    and they are converted. Either way the values are what count."""
    fits = np.array([0, 5, 120, 7], dtype)
    view = _native.signed_view(fits)
    assert view.dtype == np.dtype(dtype.__name__[1:])
    assert np.shares_memory(view, fits)
    np.testing.assert_array_equal(view, [0, 5, 120, 7])
    top = np.array([1, int(np.iinfo(dtype).max)], dtype)
    assert _native.signed_view(top) is None
    assert _native.signed_view(fits[::2]) is None  # not contiguous
    data = np.arange(100, dtype=np.float32)
    for ids in (fits, top):
        values = [int(v) for v in ids]
        np.testing.assert_array_equal(g.gather(data, ids, mode="clamp"),
                                      [min(v, 99) for v in values])
        np.testing.assert_array_equal(g.gather(data, ids, mode="fill"),
                                      [v if v < 100 else 0 for v in values])
    # 120 is out of range for 100 rows: the error names it as a value.
    with pytest.raises(IndexError, match="index 120 is out of range"):
        g.gather(data, fits)
    np.testing.assert_array_equal(
        g.embedding_bag(fits[:2], np.eye(6, dtype=np.float32),
                        np.array([0], np.int64), mode="sum"),
        [[1, 0, 0, 0, 0, 1]])


def _key_flags(choice):
    """The flags of a kernel_choice's key (KernelKey::Flags)."""
    return int(choice["key"].split(" flags ")[1].split()[0])


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32])
def test_narrow_unsigned_indices_are_widened_by_the_kernel(dtype):
    """Unsigned indices narrower than 64 bits go to the kernel as they are
    (its key says so), strided ones too, and it widens them unsigned: values
    with the top bit set are large values in every mode, in rows gathered
    whole, elements and tuples, on one thread or on threads."""
    top = int(np.iinfo(dtype).max)
    choice = _native.kernel_choice("gather", np.zeros(8), np.zeros(3, dtype),
                                   0, 0, "check", None)
    assert _key_flags(choice) & 32, choice["key"]  # UnsignedIndices
    choice64 = _native.kernel_choice("gather", np.zeros(8),
                                     np.zeros(3, np.uint64), 0, 0, "check",
                                     None)
    assert not _key_flags(choice64) & 32, choice64["key"]
    rng = np.random.default_rng(top)
    data = rng.random((100, 5), dtype=np.float32)
    high = np.array([top, top // 2 + 1, 99, 0, 7] * 40, dtype)  # top bit set
    strided = np.stack([high, high])[:, ::2][0]  # a strided view
    assert not strided.flags.c_contiguous
    for ids in (high, strided):
        values = np.array([int(v) for v in ids])
        np.testing.assert_array_equal(g.gather(data, ids, mode="wrap"),
                                      data[values % 100])
        np.testing.assert_array_equal(g.gather(data, ids, mode="clamp"),
                                      data[np.minimum(values, 99)])
        fill = g.gather(data, ids, mode="fill")
        inside = values < 100
        np.testing.assert_array_equal(fill[inside], data[values[inside]])
        assert not fill[~inside].any()
    with pytest.raises(IndexError, match=f"index {top} is out of range"):
        g.gather(data, high)
    # gather_elements along the last axis (row-validated kernels) and a
    # result large enough for threads: the first bad index in row-major
    # order, named by its value.
    big = np.zeros((64, 70000), np.float32)
    ids = rng.integers(0, 70000 if top > 70000 else top, big.shape).astype(dtype)
    np.testing.assert_array_equal(
        g.gather_elements(big, ids, axis=1),
        np.take_along_axis(big, ids.astype(np.int64), axis=1))
    if top >= 70000:
        bad = ids.copy()
        bad[40, 123] = top
        bad[50, 0] = 70000
        with pytest.raises(IndexError, match=f"index {top} is out of range"):
            g.gather_elements(big, bad, axis=1)


def test_unsigned_check_reports_the_first_bad_index_in_order():
    """A huge value after a plain bad one: the plain one is reported, as the
    kernels report the first in row-major order."""
    data = np.arange(10)
    with pytest.raises(IndexError, match="index 12 is out of range"):
        g.gather(data, np.array([3, 12, 2**64 - 1], np.uint64))


# --- Dtypes, layouts, shapes -------------------------------------------------

DATA_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8,
               np.uint16, np.uint32, np.uint64, np.float16, np.float32,
               np.float64, np.complex64, np.complex128]
INDEX_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", DATA_DTYPES)
def test_every_data_dtype_round_trips_exactly(dtype):
    rng = np.random.default_rng(0)
    raw = rng.integers(0, 255, size=(7, 37 * np.dtype(dtype).itemsize),
                       dtype=np.uint8)
    data = raw.view(dtype) if dtype != np.bool_ else raw.astype(bool)
    idx = [6, -7, 3, 3]
    out = g.gather(data, idx, mode="fill")
    assert out.dtype == data.dtype
    np.testing.assert_array_equal(out.view(np.uint8), data[idx].view(np.uint8))


@pytest.mark.parametrize("dtype", INDEX_DTYPES)
def test_every_index_dtype(dtype):
    np.testing.assert_array_equal(
        g.gather(np.arange(10.0), np.array([9, 0, 3], dtype)), [9.0, 0.0, 3.0])


def test_bool_and_float_indices_are_type_errors():
    with pytest.raises(TypeError, match="integer dtype"):
        g.gather(np.arange(3), np.array([True]))
    with pytest.raises(TypeError, match="integer dtype"):
        g.gather(np.arange(3), [0.5])


@pytest.mark.parametrize("dtype", [np.longdouble, object, "U3", "datetime64[s]"])
def test_unsupported_data_dtypes_are_type_errors(dtype):
    with pytest.raises(TypeError, match="unsupported data dtype"):
        g.gather(np.zeros(3, dtype=dtype), [0])


def test_non_contiguous_fortran_and_byte_swapped_inputs():
    base = np.arange(60, dtype=np.float64).reshape(6, 10)
    for data in (base[:, ::2], base.T, np.asfortranarray(base),
                 base.astype(">f8"), base[::-1]):
        idx = np.array([[2, 0], [1, -1]])
        np.testing.assert_array_equal(g.gather(data, idx, axis=1),
                                      np.take(data, idx, axis=1))
    idx = np.arange(12, dtype=">i4").reshape(3, 4)[:, ::2] % 6
    np.testing.assert_array_equal(g.gather(base, idx), base[idx])


def test_zero_size_arrays():
    assert g.gather(np.zeros((3, 0, 2)), [1, 2], axis=0).shape == (2, 0, 2)
    assert g.gather(np.zeros((3, 4)), np.zeros((0, 5), np.int64)).shape == \
        (0, 5, 4)
    assert g.gather_elements(np.zeros((3, 4)), np.zeros((0, 4), np.int32)) \
        .shape == (0, 4)
    assert g.gather_nd(np.zeros((3, 4)), np.zeros((0, 2), np.int64)).shape \
        == (0,)


def test_scalars():
    data = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(g.gather(data, -1), [8, 9, 10, 11])
    np.testing.assert_array_equal(g.gather(data, np.int16(2), axis=1),
                                  [2, 6, 10])
    with pytest.raises(ValueError, match="rank >= 1"):
        g.gather(5, [0])


def test_array_likes_lists_tuples_and_torch_tensors():
    torch = pytest.importorskip("torch")
    t = torch.arange(10).reshape(2, 5)
    out = g.gather_elements(t, torch.tensor([[4, 0], [1, 1]]), axis=1)
    np.testing.assert_array_equal(out, [[4, 0], [6, 6]])
    np.testing.assert_array_equal(g.gather((1, 2, 3), (2,)), [3])


# --- Errors ------------------------------------------------------------------


@pytest.mark.parametrize("call,message", [
    (lambda: g.gather(np.ones((2, 5)), [1], axis=2),
     r"axis 2 is out of range \[-2, 1\] for data of rank 2"),
    (lambda: g.gather(np.ones((2, 5)), [[1]], axis=1, batch_dims=3),
     r"batch_dims 3 is out of range \[-2, 2\]"),
    (lambda: g.gather(np.ones((2, 5)), [[1]], axis=0, batch_dims=1),
     "batch_dims 1 must not exceed axis 0"),
    (lambda: g.gather(np.ones((2, 5)), np.zeros((3, 1), int), axis=1,
                      batch_dims=1), "batch dimension 0 has size 2"),
    (lambda: g.gather_elements(np.ones((2, 2)), [0, 1]),
     "indices must have the rank of data"),
    (lambda: g.gather_elements(np.ones((2, 2)), np.zeros((3, 2), int),
                               axis=1), "larger than data dimension 0"),
    (lambda: g.gather_nd(np.ones((2, 2)), np.zeros((2, 3), int)),
     "need data of rank >= 3"),
    (lambda: g.gather_nd(np.ones((2, 2)), np.zeros((2, 0), int)),
     "at least 1 component"),
    (lambda: g.gather_nd(np.ones((2, 2)), [[0]], batch_dims=-1),
     "batch_dims -1 must be >= 0"),
    (lambda: g.gather(np.ones(3), [0], mode="nearest"), "mode must be one of"),
    (lambda: g.gather(np.ones(3), [0], mode=None), "mode must be one of"),
    (lambda: g.gather(np.ones(3), [0], axis=2**70), "int64 range"),
])
def test_value_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_axis_must_be_an_integer():
    with pytest.raises(TypeError, match="axis must be an integer"):
        g.gather(np.ones(3), [0], axis=0.5)


# --- out ---------------------------------------------------------------------


def test_out_is_filled_and_returned():
    data = np.arange(20, dtype=np.float32).reshape(4, 5)
    out = np.full((2, 5), -1, np.float32)
    result = g.gather(data, [3, 0], out=out)
    assert result is out
    np.testing.assert_array_equal(out, data[[3, 0]])


def test_out_errors():
    data = np.arange(20, dtype=np.float32).reshape(4, 5)
    with pytest.raises(TypeError, match="out has dtype float64"):
        g.gather(data, [3, 0], out=np.empty((2, 5)))
    with pytest.raises(ValueError, match=r"gather: out has shape \(3, 5\), "
                       r"the result has \(2, 5\)"):
        g.gather(data, [3, 0], out=np.empty((3, 5), np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        g.gather(data, [3, 0], out=np.empty((5, 2), np.float32).T)
    with pytest.raises(TypeError, match="numpy array"):
        g.gather(data, [3, 0], out=[0] * 10)


def test_out_overlapping_the_input():
    data = np.arange(10, dtype=np.int64)
    result = g.gather(data[:5], [4, 3, 2, 1, 0], out=data[:5])
    np.testing.assert_array_equal(result, [4, 3, 2, 1, 0])


# --- Threads and cache -------------------------------------------------------


def test_concurrent_calls_from_threads():
    data = np.random.default_rng(1).random((500, 33)).astype(np.float32)
    errors, results = [], {}

    def work(k):
        try:
            idx = np.random.default_rng(k).integers(-500, 500, 2000)
            for _ in range(20):
                results[k] = (idx, g.gather(data, idx, mode="wrap"))
            if k % 2:  # Errors in one thread do not leak into others.
                with pytest.raises(IndexError):
                    g.gather(data, [1000])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for idx, out in results.values():
        np.testing.assert_array_equal(out, data[idx % 500])


def test_threads_missing_the_cache_at_once():
    # Each thread needs kernels no other call has used (its own data rank and
    # dtype), while others compile theirs: misses are serialized, hits are
    # read without a lock, and every thread gets its own kernel.
    errors = []
    barrier = threading.Barrier(6)

    def work(k):
        try:
            dtype = [np.int8, np.uint16, np.float32, np.complex128][k % 4]
            shape = (2, 3, 4, 5, 6)[: 3 + k % 3]
            data = np.arange(np.prod(shape), dtype=dtype).reshape(shape)
            idx = np.array([[1, -1], [0, 1]])
            barrier.wait(timeout=60)
            for mode in ("check", "wrap", "fill", "unchecked", "clamp"):
                for axis in range(data.ndim):
                    np.testing.assert_array_equal(
                        g.gather(data, idx, axis=axis, mode=mode),
                        np.take(data, idx, axis=axis))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def _kernel_cache_misses():
    """Kernels this process compiled or read from the disk cache."""
    stats = _native.kernel_cache_stats()
    return stats["compiled"] + stats["loaded"]


def test_second_call_does_not_recompile(tmp_path):
    # A process of its own: no other test's kernels in its cache.
    from test_kernel_cache import run
    counts = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path)}, """
        import json
        import numpy as np
        import gather_mlir as g
        from gather_mlir import _native

        def misses():
            stats = _native.kernel_cache_stats()
            return stats["compiled"] + stats["loaded"]
        # Index vectors longer than the short ones a kernel is compiled for
        # (STATIC_DIM_MAX_LENGTH).
        data = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
        ids = [[1] * 20]
        g.gather(data, ids, axis=2, batch_dims=0, mode="clamp")
        counts = [misses()]
        # New shapes, same kernel: dynamic shapes are not part of the key.
        g.gather(np.zeros((5, 7, 9), np.int16), [[1, 2, 3] * 10], axis=2,
                 mode="clamp")
        g.gather(np.zeros((1, 1, 1), np.uint16), [[0] * 17], axis=2,
                 mode="clamp")
        counts.append(misses())
        g.gather(data, ids, axis=2, mode="wrap")  # Another mode compiles.
        counts.append(misses())
        print(json.dumps(counts))
        """)
    assert counts == [1, 1, 2]


def test_dims_read_alike_are_one_dim_of_the_kernel():
    """Adjacent dims a gather reads alike reach the kernel as one: ranks
    that differ only there share a kernel, and errors name the caller's
    dims."""
    rng = np.random.default_rng(4)
    data = rng.standard_normal((30, 19, 2, 1)).astype(np.float32)
    ids = np.array([3, 18, 7], np.uint32)
    np.testing.assert_array_equal(g.gather(data, ids, axis=1),
                                  np.take(data, ids.astype(np.int64), axis=1))
    key = g.kernel_choice("gather", data, ids, axis=1)["key"]
    assert key == g.kernel_choice("gather", data.reshape(30, 19, 2),
                                  ids, axis=1)["key"]
    assert "data 4B rank 3 indices 4B rank 1 axis 1 " in key
    # Data's leading dims and the indices' dims merge too.
    grid = rng.integers(-6, 6, (2, 2, 3))
    cube = rng.standard_normal((3, 4, 6, 5))
    np.testing.assert_array_equal(g.gather(cube, grid, axis=2),
                                  np.take(cube, grid, axis=2))
    assert "rank 3 indices 8B rank 1 axis 1 " in g.kernel_choice(
        "gather", cube, grid, axis=2)["key"]
    # gather_elements: dims off the axis where data and indices agree.
    picks = rng.integers(0, 4, (3, 4, 6, 5))
    np.testing.assert_array_equal(g.gather_elements(cube, picks, axis=1),
                                  np.take_along_axis(cube, picks, axis=1))
    assert "rank 3 indices 8B rank 3 axis 1 " in g.kernel_choice(
        "gather_elements", cube, picks, axis=1)["key"]
    # A shorter inner dim of the indices keeps its own dim.
    short = picks[:, :, :, :4].copy()
    np.testing.assert_array_equal(g.gather_elements(cube, short, axis=1),
                                  np.take_along_axis(cube[..., :4], short,
                                                     axis=1))
    assert "rank 4 indices 8B rank 4 axis 1 " in g.kernel_choice(
        "gather_elements", cube, short, axis=1)["key"]
    # Batch dims merge, gather_nd's tuple dims do not.
    batched = rng.standard_normal((2, 3, 5, 4))
    rows = rng.integers(0, 5, (2, 3, 7))
    np.testing.assert_array_equal(
        g.gather(batched, rows, axis=2, batch_dims=2),
        np.take_along_axis(batched, rows[..., None], axis=2))
    assert "rank 3 indices 8B rank 2 axis 1 batch_dims 1 " in \
        g.kernel_choice("gather", batched, rows, axis=2, batch_dims=2)["key"]
    tuples = rng.integers(0, 2, (4, 2))
    np.testing.assert_array_equal(g.gather_nd(batched, tuples),
                                  batched[tuples[:, 0], tuples[:, 1]])
    assert "rank 3 indices 8B rank 2 " in g.kernel_choice(
        "gather_nd", batched, tuples)["key"]
    # Errors name the caller's dims and the first bad index.
    with pytest.raises(IndexError, match=r"index 6 is out of range \[-6, 5\]"
                       r" for data dimension 2 of size 6"):
        g.gather(cube, np.array([[0, 6]]), axis=2)
    bad = picks.copy()
    bad[2, 3, 5, 4] = 9
    bad[2, 3, 5, 3] = -7
    with pytest.raises(IndexError, match="index -7 is out of range .* "
                       "data dimension 1 of size 4"):
        g.gather_elements(cube, bad, axis=1)
    # Arrays that are not C-contiguous keep their dims.
    assert "rank 4 " in g.kernel_choice("gather", data.transpose(1, 0, 2, 3),
                                        ids, axis=0)["key"]


def test_help_reads_well():
    assert "mode" in g.gather.__doc__ and "batch_dims" in g.gather.__doc__
    assert "IndexError" in g.__doc__


def test_large_results_use_parallel_kernels():
    # Results of 8 MiB or more (the lowering's parallel-min-bytes) get
    # kernels that may run on OpenMP threads.
    rng = np.random.default_rng(2)
    data = rng.random((3000, 128), dtype=np.float32)
    idx = rng.integers(-3000, 3000, 20000)
    for mode in ("check", "wrap", "fill"):
        out = g.gather(data, idx, mode=mode)
        np.testing.assert_array_equal(out, data[idx])
    before = _kernel_cache_misses()
    for mode in ("check", "wrap", "fill"):  # Also to a larger result.
        out = g.gather(data, np.tile(idx, 2), mode=mode)
        np.testing.assert_array_equal(out, data[np.tile(idx, 2)])
    assert _kernel_cache_misses() == before
    elements_idx = rng.integers(0, 128, (3000, 800))
    elements = g.gather_elements(data, elements_idx, axis=1, mode="clamp")
    np.testing.assert_array_equal(
        elements, np.take_along_axis(data, elements_idx, axis=1))
    with pytest.raises(IndexError, match="index 3000 is out of range"):
        g.gather(data, np.append(idx, 3000))


def test_one_or_few_long_rows_are_split_on_threads():
    """A parallel kernel splits one row, or a few long rows, into pieces on
    threads, its outer dims tested at run time (KernelEmitter::fewLongRows);
    check mode checks each piece as it gathers it. It gathers exactly in
    every mode and reports the first bad index in row-major order, whichever
    piece met one first."""
    rng = np.random.default_rng(12)
    data = rng.standard_normal((3, 1100003))  # 8.4 MiB results, on threads
    ids = rng.integers(-3, 3, (1, data.shape[1]))
    choice = g.kernel_choice("gather_elements", data, ids, axis=0)
    assert _key_flags(choice) & 8, choice["key"]
    expected = np.take_along_axis(data, ids % 3, axis=0)
    for mode in ("check", "clamp", "wrap", "fill"):
        np.testing.assert_array_equal(
            g.gather_elements(data, ids, axis=0, mode=mode), expected)
    bad = ids.copy()
    bad[0, -5] = 3
    bad[0, 700001] = -4
    with pytest.raises(IndexError, match="index -4 is out of range"):
        g.gather_elements(data, bad, axis=0)
    # The module and pipeline it reports are the kernel: its dims are
    # dynamic, and the package's compiler builds the same gather from them.
    assert "memref<?x?xi64" in choice["module"], choice["module"]
    jit = JitModule(Module(choice["module"]), choice["pipeline"])
    out = np.empty(ids.shape)
    jit.call("kernel", data.view(np.int64), ids, out.view(np.int64))
    np.testing.assert_array_equal(out, expected)
    # A few long rows along either axis, checked piece by piece: the first
    # bad index is the first in row-major order, not the first met.
    for axis in (0, 1):
        rows = rng.integers(-3, 3, (3, data.shape[1]))
        np.testing.assert_array_equal(
            g.gather_elements(data, rows, axis=axis),
            np.take_along_axis(data, rows % data.shape[axis], axis=axis))
        size = data.shape[axis]
        rows[2, 5] = -size - 6
        rows[1, data.shape[1] - 2] = size + 4
        with pytest.raises(IndexError,
                           match=f"index {size + 4} is out of range"):
            g.gather_elements(data, rows, axis=axis)
    # A gather along the last axis of one data row (the indices' dims
    # merge into one).
    row = data[:1]
    picks = rng.integers(0, row.shape[1], (1, row.shape[1]))
    np.testing.assert_array_equal(g.gather(row, picks, axis=1),
                                  np.take(row, picks, axis=1))


def test_few_long_slices_are_split_on_threads():
    """Results on threads whose outermost dim has few positions split long
    slices into pieces (KernelEmitter::piecedNest): a single slice, a few
    gather_nd slices, slices at indices every row shares, with pieces that
    end inside a vector, filled with zeros where an index is out of range,
    wrapped, clamped, and checked."""
    threaded = _native.host_parallel_min_bytes()
    rng = np.random.default_rng(13)
    n = threaded // 4 + 4099  # f32 rows past the threshold, ragged pieces
    rows = rng.standard_normal((2, n)).astype(np.float32)
    for ids, mode in (([1], "check"), ([-1], "wrap"), ([5], "fill"),
                      ([7], "clamp")):
        ids = np.array(ids)
        expected = (np.zeros((1, n), np.float32) if mode == "fill"
                    else rows[np.clip(ids % 2 if mode == "wrap" else ids,
                                      -2, 1)])
        np.testing.assert_array_equal(g.gather(rows, ids, mode=mode),
                                      expected)
        out = np.full((1, n), np.nan, np.float32)
        g.gather(rows, ids, mode=mode, out=out)
        np.testing.assert_array_equal(out, expected)
    with pytest.raises(IndexError, match="index 2 is out of range"):
        g.gather(rows, np.array([2]))
    # gather_nd: 5 slices of 3 x (n / 3) halves, one tuple out of range.
    cube = rng.standard_normal((4, 3, n // 3 + 5)).astype(np.float16)
    tuples = np.array([[3], [0], [-1], [9], [2]])
    got = g.gather_nd(cube, tuples, mode="fill")
    expected = cube[np.clip(tuples[:, 0], -4, 3)]
    expected[3] = 0
    np.testing.assert_array_equal(got, expected)
    # A gather along axis 1 at 16 shared indices: 3 outer positions.
    data = rng.standard_normal((3, 12, threaded // 64 + 333)).astype(
        np.float16)
    shared = np.array([0, 11, -1, 5, 3, 3, -12, 7, 1, 2, 9, 10, 4, 6, 8, 0])
    np.testing.assert_array_equal(g.gather(data, shared, axis=1),
                                  np.take(data, shared, axis=1))
    bad = shared.copy()
    bad[9] = 12
    with pytest.raises(IndexError, match="index 12 is out of range"):
        g.gather(data, bad, axis=1)


def test_strided_views_are_read_in_place_by_every_op():
    base = np.arange(8 * 12, dtype=np.int32).reshape(8, 12)
    views = [base[1::2, ::3], base.T[::-1], base[::-2, 5:1:-1],
             np.asfortranarray(base)]
    for data in views:
        rows, cols = data.shape
        idx = np.array([[cols - 1, 0], [-1, 1]])[:, ::-1]  # a strided view too
        np.testing.assert_array_equal(g.gather(data, idx, axis=1),
                                      np.take(data, idx, axis=1))
        picks = np.zeros((rows, 3), np.int64)[:, ::-1] + [0, cols - 1, -1]
        np.testing.assert_array_equal(
            g.gather_elements(data, picks, axis=1),
            np.take_along_axis(data, picks % cols, axis=1))
        pts = np.array([[rows - 1, 0], [0, cols - 1], [-1, -1]])
        np.testing.assert_array_equal(g.gather_nd(data, pts),
                                      data[pts[:, 0], pts[:, 1]])


def test_gather_elements_past_streaming_min_bytes():
    """Rows gathered along the last axis stream at 40 MiB too: rows of 5121
    f32 (not a whole number of vectors, so rows start at every alignment)
    in check mode, and a bad index in the last row is still found."""
    rng = np.random.default_rng(11)
    data = rng.standard_normal((2048, 5121), dtype=np.float32)
    ids = rng.integers(-5121, 5121, data.shape).astype(np.int32)  # 40 MiB
    before = g.compile_count()
    got = g.gather_elements(data, ids, axis=1)
    assert g.compile_count() == before + 1
    np.testing.assert_array_equal(got, np.take_along_axis(data, ids, axis=1))
    ids[-1, -1] = 5121
    with pytest.raises(IndexError, match="index 5121 is out of range"):
        g.gather_elements(data, ids, axis=1)


def test_results_past_streaming_min_bytes_get_a_kernel_of_their_own():
    # A result of at least the lowering's streaming-min-bytes (40 MiB) gets
    # a kernel that may write rows with non-temporal stores; smaller ones a
    # kernel without those copies (less to compile). Both gather exactly.
    rng = np.random.default_rng(7)
    table = rng.integers(0, 1 << 16, (64, 2048), dtype=np.uint16)  # 4 KiB rows
    small_ids = rng.integers(-64, 64, (2, 1280)).astype(np.int32)  # 10 MiB
    large_ids = rng.integers(-64, 64, (2, 5120)).astype(np.int32)  # 40 MiB
    small = g.gather(table, small_ids)
    before = g.compile_count()
    large = g.gather(table, large_ids)
    assert g.compile_count() == before + 1
    np.testing.assert_array_equal(small, table[small_ids])
    np.testing.assert_array_equal(large, table[large_ids])
    again = g.gather(table, large_ids[:, ::-1].copy())
    assert g.compile_count() == before + 1
    np.testing.assert_array_equal(again, table[large_ids[:, ::-1]])


def test_short_last_dims_get_a_kernel_for_their_length():
    """Results of at least 64 KiB whose data or indices end in a dim of at
    most 16 elements get a kernel for that length: gather and
    gather_elements along such a last axis, and along an axis before one.
    Each gathers as numpy does with the mode's positions, in every mode;
    longer last dims share the kernel for any length."""
    rng = np.random.default_rng(11)

    def expected(data, ids, axis, mode, elements):
        size = data.shape[axis]
        if mode == "wrap":
            at, ok = ids % size, np.ones(ids.shape, bool)
        else:
            n = np.where((ids < 0) & (ids >= -size), ids + size, ids)
            ok = (n >= 0) & (n < size) if mode == "fill" else \
                np.ones(ids.shape, bool)
            at = np.clip(n, 0, size - 1)
        if elements:
            return np.where(ok, np.take_along_axis(data, at, axis), 0)
        got = np.take(data, at, axis=axis)
        shape = [1] * got.ndim
        shape[axis:axis + ok.ndim] = ok.shape
        return np.where(ok.reshape(shape), got, 0)

    def check(last, mode="check", dtype=np.float32):
        far = 1 if mode == "check" else 3
        rows = (64 << 10) // (last * np.dtype(dtype).itemsize) + 5
        data = rng.integers(0, 100, (rows, last)).astype(dtype)
        ids = rng.integers(-last * far, last * far, (rows, last))
        got = g.gather_elements(data, ids, axis=1, mode=mode)
        np.testing.assert_array_equal(
            got, expected(data, ids, 1, mode, elements=True))
        few = rng.integers(-last * far, last * far, 8)
        got = g.gather(data, few, axis=1, mode=mode)
        np.testing.assert_array_equal(
            got, expected(data, few, 1, mode, elements=False))
        cube = rng.integers(0, 100, (rows // 4, 4, last)).astype(dtype)
        ids = rng.integers(-4 * far, 4 * far, cube.shape)
        got = g.gather_elements(cube, ids, axis=1, mode=mode)
        np.testing.assert_array_equal(
            got, expected(cube, ids, 1, mode, elements=True))

    for mode in ("check", "clamp", "wrap", "fill", "unchecked"):
        for last in (1, 2, 5, 16):
            check(last, "clamp" if mode == "unchecked" else mode)
    check(3, dtype=np.int8)
    check(7, dtype=np.float64)
    # A new length compiles its kernels; the same length again does not.
    before = g.compile_count()
    check(6)
    compiled = g.compile_count() - before
    assert compiled == 3
    before = g.compile_count()
    check(6)
    assert g.compile_count() == before
    # Last dims past 16 elements share the kernels of any length.
    check(40)
    before = g.compile_count()
    check(50)
    assert g.compile_count() == before
    with pytest.raises(IndexError, match="index 2 is out of range"):
        g.gather_elements(np.zeros((9000, 2), np.float32),
                          np.full((9000, 2), 2), axis=1)


def test_gather_elements_in_column_blocks():
    """gather_elements along an axis before the last, of at most 2048
    positions, with 8 MiB of data or more from the axis on, walks the last
    dim in blocks (column-block-min-bytes): the same results as numpy in
    every mode, with indices narrower than data off the axis, a last dim
    that is not whole blocks, a middle dim, and check's first bad index in
    row-major order."""
    rng = np.random.default_rng(13)

    def expected(data, ids, axis, mode):
        # torch.gather's rule: indices may be shorter than data off the axis.
        data = data[tuple(slice(None) if d == axis else slice(0, n)
                          for d, n in enumerate(ids.shape))]
        size = data.shape[axis]
        if mode == "wrap":
            return np.take_along_axis(data, ids % size, axis)
        n = np.where((ids < 0) & (ids >= -size), ids + size, ids)
        got = np.take_along_axis(data, np.clip(n, 0, size - 1), axis)
        if mode == "fill":
            got = np.where((n >= 0) & (n < size), got, 0)
        return got

    cases = [(rng.random((600, 3601), dtype=np.float32), (600, 3601)),
             (rng.random((600, 3601), dtype=np.float32), (300, 3000)),
             (rng.random((700, 1801)), (700, 1801)),
             (rng.random((40, 3, 18001), dtype=np.float32), (40, 3, 18001))]
    for data, shape in cases:
        assert data.nbytes >= 8 << 20
        size = data.shape[0]
        for mode in ("check", "clamp", "wrap", "fill", "unchecked"):
            far = 1 if mode in ("check", "unchecked") else 3
            ids = rng.integers(-size * far, size * far, shape)
            np.testing.assert_array_equal(
                g.gather_elements(data, ids, axis=0, mode=mode),
                expected(data, ids, 0, mode))
    data, shape = cases[0]
    ids = rng.integers(0, 600, shape)
    ids[5, 3000] = 600
    ids[7, 10] = -601
    with pytest.raises(IndexError, match="index 600 is out of range"):
        g.gather_elements(data, ids, axis=0)
    out = np.zeros(shape, np.float32)
    with pytest.raises(IndexError, match="index 600 is out of range"):
        g.gather_elements(data, ids, axis=0, out=out)
    assert not out.any()


def test_short_rows_get_a_kernel_for_their_length():
    """Results of at least 64 KiB whose rows are rows of data of at most 256
    bytes get a kernel compiled for that row length (a few whole vectors a
    row): one for each length, shared by every other shape; longer rows and
    smaller results share the kernel for any length. Each gathers as numpy
    does with the mode's positions: gather along the first and a middle axis
    and with batch_dims, gather_nd with slices, in every mode; check's
    errors too."""
    rng = np.random.default_rng(5)

    def picks(ids, size, mode):
        """The positions the mode reads (0 where fill reads none) and which
        ids read one."""
        if mode == "wrap":
            return ids % size, np.ones(ids.shape, bool)
        n = np.where((ids < 0) & (ids >= -size), ids + size, ids)
        if mode == "clamp":
            return np.clip(n, 0, size - 1), np.ones(ids.shape, bool)
        valid = (n >= 0) & (n < size)
        assert mode == "fill" or valid.all()
        return np.where(valid, n, 0), valid

    def cases(width, dtype, modes):
        # Enough indices for 64 KiB of result and more, in every case.
        item = np.dtype(dtype).itemsize
        n = (64 << 10) // (width * item) + 3
        rows = rng.integers(0, 100, (41, width)).astype(dtype)
        cube = rng.integers(0, 100, (3, 37, width)).astype(dtype)
        for mode in modes:
            far = 1 if mode == "check" else 3  # ids from -far*size
            ids = rng.integers(-41 * far, 41 * far, n)
            at, ok = picks(ids, 41, mode)
            yield (g.gather(rows, ids, mode=mode),
                   np.where(ok[:, None], rows[at], 0))
            mid = rng.integers(-37 * far, 37 * far, n // 3 + 1)
            at, ok = picks(mid, 37, mode)
            yield (g.gather(cube, mid, axis=1, mode=mode),
                   np.where(ok[:, None], cube[:, at], 0))
            batched = rng.integers(-37 * far, 37 * far, (3, n // 3 + 1))
            at, ok = picks(batched, 37, mode)
            yield (g.gather(cube, batched, axis=1, batch_dims=1, mode=mode),
                   np.where(ok[..., None], cube[np.arange(3)[:, None], at],
                            0))
            first = rng.integers(-3 * far, 3 * far, n)
            second = rng.integers(-37 * far, 37 * far, n)
            (a, ok_a), (b, ok_b) = picks(first, 3, mode), picks(second, 37,
                                                                mode)
            yield (g.gather_nd(cube, np.stack([first, second], axis=1),
                               mode=mode),
                   np.where((ok_a & ok_b)[:, None], cube[a, b], 0))

    def check(width, dtype, modes=("check", "wrap", "clamp", "fill")):
        for got, want in cases(width, dtype, modes):
            assert got.dtype == want.dtype
            assert got.nbytes >= 64 << 10
            np.testing.assert_array_equal(got, want)

    # Lengths around a 512-bit vector's lanes, up to 256 bytes.
    for width, dtype in ((1, np.float32), (3, np.int8), (15, np.float32),
                         (16, np.float32), (17, np.int16), (33, np.float32),
                         (64, np.float32), (32, np.float64),
                         (256, np.uint8)):
        check(width, dtype)
    # One kernel for a new length: gather from the first axis in check mode.
    before = g.compile_count()
    check(24, np.float32, modes=("check",))
    compiled = g.compile_count() - before
    assert compiled == 4  # gather, middle axis, batch_dims, gather_nd
    before = g.compile_count()
    check(24, np.float32, modes=("check",))
    assert g.compile_count() == before
    check(25, np.float32, modes=("check",))
    assert g.compile_count() == before + compiled
    # Rows of more than 256 bytes: 65 and 80 f32 share one kernel.
    check(65, np.float32, modes=("check",))
    before = g.compile_count()
    check(80, np.float32, modes=("check",))
    assert g.compile_count() == before
    # Results below 64 KiB: any length, one kernel.
    small = rng.random((41, 7), dtype=np.float32)
    np.testing.assert_array_equal(g.gather(small, [1, -2, 40]),
                                  small[[1, -2, 40]])
    before = g.compile_count()
    small = rng.random((41, 9), dtype=np.float32)
    np.testing.assert_array_equal(g.gather(small, [1, -2, 40]),
                                  small[[1, -2, 40]])
    assert g.compile_count() == before
    # check's errors from the kernels of a length.
    rows = rng.random((41, 16), dtype=np.float32)
    ids = np.zeros(4096, np.int64)
    ids[-1] = 41
    with pytest.raises(IndexError, match="index 41 is out of range"):
        g.gather(rows, ids)
    pairs = np.zeros((4096, 2), np.int64)
    pairs[-1] = [0, -42]
    with pytest.raises(IndexError, match="index -42 is out of range"):
        g.gather_nd(rows.reshape(1, 41, 16), pairs)
    # A destination: the same kernel writes into it.
    out = np.empty((4096, 16), np.float32)
    ids[-1] = -41
    assert g.gather(rows, ids, out=out) is out
    np.testing.assert_array_equal(out, rows[ids])


def test_rows_gathered_from_long_axes():
    """Rows gathered from a data axis of 128 KiB or more (here 40000 f32)
    read one element an iteration on every host (their kernels are keyed
    apart): each mode and index width against numpy, and check's error."""
    n = 40000
    rng = np.random.default_rng(11)
    data = rng.random((3, n), dtype=np.float32)
    idx = rng.integers(-n, n, (3, 37))
    far = idx + np.array([0, 3 * n, -5 * n])[:, None]  # rows 1, 2 outside
    for dtype in (np.int32, np.int64):
        i, f = idx.astype(dtype), far.astype(dtype)
        np.testing.assert_array_equal(
            g.gather_elements(data, i, axis=1),
            np.take_along_axis(data, i % n, axis=1))
        np.testing.assert_array_equal(g.gather(data, i[2], axis=1),
                                      data[:, i[2] % n])
        np.testing.assert_array_equal(
            g.gather_elements(data, f, axis=1, mode="wrap"),
            np.take_along_axis(data, f % n, axis=1))
        np.testing.assert_array_equal(
            g.gather_elements(data, f, axis=1, mode="clamp"),
            np.take_along_axis(data, np.clip(np.where(f < 0, f + n, f), 0,
                                             n - 1), axis=1))
        filled = g.gather_elements(data, f, axis=1, mode="fill")
        np.testing.assert_array_equal(filled[0], data[0, idx[0] % n])
        np.testing.assert_array_equal(filled[1:], 0)
        with pytest.raises(IndexError,
                           match=rf"index {far[1, 0]} is out of range"):
            g.gather_elements(data, f, axis=1)


def _cpuinfo():
    """The first CPU's /proc/cpuinfo fields."""
    info = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    return info


def _host_is_amd_zen():
    """AMD family 17h and later: the CPUs LLVM names znver*."""
    info = _cpuinfo()
    return (info.get("vendor_id") == "AuthenticAMD"
            and int(info.get("cpu family", "0")) >= 0x17)


def test_kernels_are_compiled_for_the_cpu_llvm_names_here():
    """The CPU name is LLVM's for this host, as llc reports it."""
    llc = subprocess.run(["/usr/lib/llvm-22/bin/llc", "--version"],
                         capture_output=True, text=True, check=True).stdout
    (host,) = [line.split(":", 1)[1].strip() for line in llc.splitlines()
               if line.strip().startswith("Host CPU:")]
    assert _native.host_cpu() == host


def test_kernels_use_the_vector_width_llvm_prefers_here():
    """512-bit vectors where LLVM's tuning prefers them (AMD Zen 4 and 5:
    row copies ran 10-18% faster on a Zen 5), 256 on Intel's AVX-512
    cores, which it tunes for 256-bit vectors."""
    bits = _native.host_vector_bits()
    assert bits in (128, 256, 512)
    info = _cpuinfo()
    flags = info.get("flags", "").split()
    if info.get("vendor_id") == "GenuineIntel":
        assert bits <= 256
    elif _host_is_amd_zen() and int(info["cpu family"]) >= 0x1A:
        assert bits == (512 if "avx512f" in flags else 256)


def test_narrow_elements_read_rows_with_scalar_loads():
    """Vector gathers of 1- and 2-byte elements have no x86 instruction:
    the cost model reads their rows with one scalar load a lane on every
    host (4-byte elements as the host reads any row), and the results are
    those of numpy."""
    host = _native.host_gather_loads()
    assert _native.host_gather_loads(None, None, 1) == "scalar"
    assert _native.host_gather_loads(None, 12, 2) == "scalar"
    assert _native.host_gather_loads(None, None, 4) == host
    assert _native.host_gather_loads(None, None, 8) == host
    # Sparse rows of a long axis still read one element an iteration.
    sparse = "scalar" if _host_is_amd_zen() else "element"
    assert _native.host_gather_loads(128 << 10, 256, 1) == sparse
    rng = np.random.default_rng(7)
    for dtype in (np.int8, np.uint8, np.float16, np.int16):
        data = rng.integers(-100, 100, (4522, 6)).astype(dtype)
        ids = rng.integers(0, 6, (4522, 6))
        choice = g.kernel_choice("gather_elements", data, ids, axis=1)
        assert choice["loads"] == "scalar", (dtype, choice["loads"])
        np.testing.assert_array_equal(
            g.gather_elements(data, ids, axis=1),
            np.take_along_axis(data, ids, axis=1))
        wide = rng.integers(-9, 15, (300, 37))
        np.testing.assert_array_equal(
            g.gather_elements(data[:300], wide, axis=1, mode="clamp"),
            np.take_along_axis(data[:300],
                               np.clip(np.where(wide < 0, wide + 6, wide), 0, 5),
                               axis=1))
    wide = g.kernel_choice("gather_elements", np.zeros((4522, 6), np.float32),
                           np.zeros((4522, 6), np.int64), axis=1)
    assert wide["loads"] == _native.host_gather_loads(24, 24, 4)


def test_long_axes_get_kernels_of_their_own():
    """A row gather from a last axis of 128 KiB or more whose rows read at
    most one element in 512 reads one element an iteration, in a kernel of
    its own, but on AMD Zen (shorter axes and denser rows read as the host
    reads an axis of unknown length: vector gathers or one scalar load a
    lane)."""
    host = _native.host_gather_loads()
    assert host in ("vector", "scalar")
    # AMD Zen reads every row with one scalar load a lane (GatherLoads.h).
    zen = _host_is_amd_zen()
    sparse = "scalar" if zen else "element"
    assert _native.host_gather_loads(128 << 10) == sparse
    assert _native.host_gather_loads(128 << 10, 256) == sparse
    assert _native.host_gather_loads(128 << 10, 257) == host
    assert _native.host_gather_loads((128 << 10) - 1, 2) == host
    assert _native.host_gather_loads((128 << 10) - 1) == host
    # A dense row of a long axis: the host's kernel, not a new one.
    vector = np.arange(70000, dtype=np.int16)
    before = _kernel_cache_misses()
    np.testing.assert_array_equal(
        g.gather(vector, np.arange(69999, -1, -1), mode="clamp"),
        vector[::-1])
    dense = _kernel_cache_misses() - before
    np.testing.assert_array_equal(
        g.gather(np.arange(7000, dtype=np.int16), np.arange(6999, -1, -1),
                 mode="clamp"), np.arange(6999, -1, -1))
    assert _kernel_cache_misses() == before + dense
    ids = np.array([[[0, -1, 5]] * 3] * 2, np.int32)
    short = np.arange(2 * 3 * 1000, dtype=np.int16).reshape(2, 3, 1000)
    long = np.arange(2 * 3 * 70000, dtype=np.int16).reshape(2, 3, 70000)
    np.testing.assert_array_equal(
        g.gather_elements(short, ids, axis=2, mode="clamp"),
        np.take_along_axis(short, ids % 1000, axis=2))
    before = _kernel_cache_misses()
    np.testing.assert_array_equal(
        g.gather_elements(long, ids, axis=2, mode="clamp"),
        np.take_along_axis(long, ids % 70000, axis=2))
    assert _kernel_cache_misses() == before + (0 if zen else 1)


def _wrap_cases():
    """Indices for wrap against axis sizes (powers of two, whose kernels
    take the indices' low bits, and others): near the multiples of the size,
    around 2**52 (where the kernels switch from a quotient taken from
    doubles to a division), at the int64 extremes, and at random."""
    rng = np.random.default_rng(52)
    for size in (1, 2, 3, 7, 64, 1000, 4096, 65537, 1 << 20):
        special = [0, -1, size, -size, size - 1, -size - 1,
                   2**52 - 1, 2**52, 2**52 + 1, -2**52, -2**52 - 1,
                   -2**52 + 1, 2**63 - 1, -2**63, -2**63 + 1]
        for k in (2, 3, 12345, (2**51) // size, (2**52) // size,
                  (2**62) // size):
            special += [k * size + d for d in (-1, 0, 1)]
            special += [-(k * size) + d for d in (-1, 0, 1)]
        special = [v for v in special if -2**63 <= v < 2**63]
        spread = rng.integers(-2**63, 2**63 - 1, 4096, dtype=np.int64)
        near = rng.integers(-2**53, 2**53, 4096, dtype=np.int64)
        yield size, np.concatenate([np.array(special, np.int64), spread,
                                    near])


@pytest.mark.parametrize("size,ids", list(_wrap_cases()),
                         ids=lambda v: str(v) if isinstance(v, int) else "")
def test_wrap_is_python_modulo_for_every_magnitude(size, ids):
    """wrap's remainder, for vector rows (a 1-D gather of many ids), one
    index at a time (rows of a 2-D table) and one ids' scalar at a time
    (a few ids from a long axis): numpy's Python-style modulo."""
    data = np.arange(size, dtype=np.int64) * 3 + 1
    want = data[np.mod(ids, size)]
    np.testing.assert_array_equal(g.gather(data, ids, mode="wrap"), want)
    np.testing.assert_array_equal(
        g.gather(data[:, None], ids, mode="wrap")[:, 0], want)
    for start in range(0, ids.size, 64):
        few = ids[start:start + 4]
        np.testing.assert_array_equal(g.gather(data, few, mode="wrap"),
                                      data[np.mod(few, size)])


def test_kernel_choice_names_the_kernel_and_its_pipeline():
    """kernel_choice tells the kernel a call gets without running it: its
    key (short dims, flags) and the gather-to-llvm options it is compiled
    with, which the compiler API (as gather-opt) runs as they are."""
    from gather_mlir.compiler import Module
    data = np.zeros((9000, 2), np.float32)
    ids = np.zeros((9000, 2), np.uint32)
    short = g.kernel_choice("gather_elements", data, ids, axis=1)
    assert short["key"].startswith("gather_elements mode 0 data 4B rank 2 "
                                   "indices 4B rank 2 axis 1")
    assert "row 2 index row 2 axis length 0 loads " in short["key"]
    # Rows along the last axis read as the host's cost model says (results
    # under 256 KiB are not measured).
    assert short["loads"] == _native.host_gather_loads(8, 8)
    assert short["chosen_by"] == "cost model"
    assert short["buffered"] is False
    # Small results and long last dims: kernels for any length.
    small = g.kernel_choice("gather_elements", data[:10], ids[:10], axis=1,
                            mode="fill")
    assert small["key"].startswith("gather_elements mode 1 ")
    assert "row 0 index row 0 axis length 0 loads " in small["key"]
    # A gather's few indices shared by every row: their length at any
    # size (each subscript resolved once), not along the first axis.
    columns = g.kernel_choice("gather", data[:10], ids[0, :1], axis=1)
    assert "row 0 index row 1 axis length 0 loads " in columns["key"]
    np.testing.assert_array_equal(
        g.gather(np.arange(20.0).reshape(10, 2), [1, -2, 1], axis=1),
        np.arange(20.0).reshape(10, 2)[:, [1, 0, 1]])
    rows = g.kernel_choice("gather", data[:10], ids[0, :1], axis=0)
    assert "row 0 index row 0 axis length 0 loads " in rows["key"]
    # A short gathered axis before the last, whose rows read across the
    # data rows of the axis as the host's cost model says.
    axis0 = g.kernel_choice("gather_elements", data.T.copy(), ids.T.copy())
    loads = _native.host_gather_loads(None, 9000 * 4)
    assert axis0["loads"] == loads
    assert axis0["key"].endswith(
        f"row 0 index row 0 axis length 2 loads "
        f"{['auto', 'vector', 'scalar', 'element'].index(loads)} "
        "column blocks 0")
    pipeline = short["pipeline"]
    assert pipeline.startswith("gather-to-llvm{")
    assert "column-block-min-bytes=8388608" in pipeline
    assert "validate-rows=true" in pipeline  # a result of its own
    text = """
    func.func @f(%d: tensor<?x2xf32>, %i: tensor<?x2xi32>) -> tensor<?x2xf32> {
      %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x2xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>
      return %r : tensor<?x2xf32>
    }"""
    assert "llvm.func" in str(Module(text).run(pipeline))
    with pytest.raises(ValueError, match="op must be gather"):
        g.kernel_choice("scatter", data, ids)
    with pytest.raises(ValueError, match="mode must be one of"):
        g.kernel_choice("gather", data, ids, mode="bogus")


def test_few_indices_shared_by_every_row():
    """gather along an axis after the first at a vector of at most 16
    indices resolves them once for every row (their count is static in the
    kernels of short last dims): every mode against numpy, along the last
    axis and before it, results large enough for threads, an empty axis
    (fill: zeros; the others raise)."""
    rng = np.random.default_rng(17)
    for shape, axis, count in (((40000, 8), 1, 7), ((300, 50, 3), 2, 5),
                               ((70000, 40), 1, 16), ((9000, 1), 1, 1),
                               ((73226, 19, 2, 1), 1, 5),
                               ((3000, 12, 40), 1, 3),
                               ((500, 7, 9, 30), 2, 16)):
        data = rng.standard_normal(shape).astype(np.float32)
        size = shape[axis]
        for mode in ("check", "clamp", "wrap", "fill", "unchecked"):
            far = 1 if mode in ("check", "unchecked") else 3
            ids = rng.integers(-size * far, size * far, count)
            n = np.where((ids < 0) & (ids >= -size), ids + size, ids)
            if mode == "wrap":
                want = np.take(data, ids % size, axis=axis)
            elif mode == "fill":
                ok = (n >= 0) & (n < size)
                mask = ok.reshape((-1,) + (1,) * (len(shape) - axis - 1))
                want = np.where(mask, np.take(data, np.clip(n, 0, size - 1),
                                              axis=axis), 0)
            else:
                want = np.take(data, np.clip(n, 0, size - 1), axis=axis)
            np.testing.assert_array_equal(
                g.gather(data, ids, axis=axis, mode=mode), want)
    middle = np.zeros((9000, 0, 4), np.float32)
    np.testing.assert_array_equal(
        g.gather(middle, np.array([0, 2]), axis=1, mode="fill"),
        np.zeros((9000, 2, 4)))
    empty = np.zeros((9000, 0), np.float32)
    ids = np.array([0, -1, 3])
    np.testing.assert_array_equal(
        g.gather(empty, ids, axis=1, mode="fill"), np.zeros((9000, 3)))
    for mode in ("check", "clamp", "wrap"):
        with pytest.raises(IndexError):
            g.gather(empty, ids, axis=1, mode=mode)
    with pytest.raises(IndexError, match="index 8 is out of range"):
        g.gather(np.zeros((40000, 8), np.float32), np.array([1, 8]), axis=1)


def test_short_gathered_axes_get_a_kernel_for_their_size():
    """Results of at least 64 KiB gathered along an axis before the last of
    at most 16 positions get a kernel for that size, whose subscripts fold
    (one position: a copy): gather_elements and gather in every mode
    against numpy, indices narrower than data off the axis, check's
    error."""
    rng = np.random.default_rng(23)

    def positions(ids, size, mode):
        if mode == "wrap":
            return ids % size, np.ones(ids.shape, bool)
        n = np.where((ids < 0) & (ids >= -size), ids + size, ids)
        ok = (n >= 0) & (n < size) if mode == "fill" else \
            np.ones(ids.shape, bool)
        return np.clip(n, 0, size - 1), ok

    for size in (1, 2, 5, 16):
        data = rng.standard_normal((size, 3, 9000)).astype(np.float32)
        for mode in ("check", "clamp", "wrap", "fill", "unchecked"):
            far = 1 if mode in ("check", "unchecked") else 3
            ids = rng.integers(-size * far, size * far, (4, 3, 8000))
            at, ok = positions(ids, size, mode)
            want = np.where(ok, np.take_along_axis(data[:, :, :8000], at, 0),
                            0)
            np.testing.assert_array_equal(
                g.gather_elements(data, ids, axis=0, mode=mode), want)
            few = rng.integers(-size * far, size * far, 3)
            at, ok = positions(few, size, mode)
            want = np.where(ok[:, None, None], data[at], 0)
            np.testing.assert_array_equal(
                g.gather(data, few, axis=0, mode=mode), want)
    assert "axis length 5" in g.kernel_choice(
        "gather_elements", np.zeros((5, 9000)), np.zeros((5, 9000), np.int32))[
            "key"]
    ids = np.zeros((2, 9000), np.int64)
    ids[1, 4000] = 2
    with pytest.raises(IndexError, match="index 2 is out of range"):
        g.gather_elements(np.zeros((2, 9000), np.float32), ids, axis=0)


def test_long_rows_are_copied_by_memcpy():
    """Rows of 4 KiB or more are a call of memcpy (memcpy-row-min-bytes):
    from and to the right element of every row, across the threshold,
    along an inner axis, from data and into an out that start past their
    buffers' first element, with zeros for fill mode's bad indices."""
    rng = np.random.default_rng(21)
    for dtype in (np.int8, np.float16, np.float64):
        size = np.dtype(dtype).itemsize
        for row_bytes in (4095, 4096, 4097, 65536 + 3 * size):
            n = row_bytes // size
            buffer = rng.integers(-100, 100, (7, n)).astype(dtype)
            data = buffer[2:]  # an offset into its buffer
            ids = np.array([4, 0, -1, 2, 2, 3])
            np.testing.assert_array_equal(g.gather(data, ids), data[ids])
            space = np.zeros((len(ids) + 1, n), dtype)
            out = space[1:]
            g.gather(data, ids, out=out)
            np.testing.assert_array_equal(out, data[ids])
            assert not space[0].any()
            bad = np.array([1, 9, -6, 0])
            expected = data[np.clip(bad, 0, 4)]
            expected[1:3] = 0
            np.testing.assert_array_equal(g.gather(data, bad, mode="fill"),
                                          expected)
    # Along axis 1 of a 3-D tensor: rows at every outer position.
    cube = rng.standard_normal((3, 5, 1500)).astype(np.float32)
    ids = np.array([[4, 0], [1, -2]])
    np.testing.assert_array_equal(g.gather(cube, ids, axis=1),
                                  np.take(cube, ids % 5, axis=1))
    # gather_nd slices of 2 x 1024 int16 elements, collapsed into one row.
    tensor = rng.integers(0, 1000, (6, 4, 2, 1024)).astype(np.int16)
    tuples = np.array([[5, 3], [0, 0], [2, 1]])
    np.testing.assert_array_equal(g.gather_nd(tensor, tuples),
                                  tensor[tuples[:, 0], tuples[:, 1]])


def test_wrap_gathers_wrap_shared_indices_once():
    """A wrap gather along an axis after the first wraps its indices once
    for all the data rows before the axis (up to 16384 of them, else row by
    row): the same results either way, for index arrays of any rank and
    dtype, values far out of range, and into an out."""
    rng = np.random.default_rng(22)
    data = rng.standard_normal((6, 7, 5, 3)).astype(np.float32)
    for count in (1, 17, 16384, 16385):
        for dtype in (np.int64, np.int32, np.uint32):
            low = 0 if dtype == np.uint32 else -40
            ids = rng.integers(low, 40, count).astype(dtype)
            ids[:1] = np.iinfo(dtype).max
            for axis in (1, 2, 3):
                np.testing.assert_array_equal(
                    g.gather(data, ids, axis=axis, mode="wrap"),
                    np.take(data, ids.astype(np.int64) % data.shape[axis],
                            axis=axis))
    grid = rng.integers(-1000, 1000, (3, 4))
    out = np.empty((6, 3, 4, 5, 3), np.float32)
    g.gather(data, grid, axis=1, mode="wrap", out=out)
    np.testing.assert_array_equal(out, np.take(data, grid % 7, axis=1))
