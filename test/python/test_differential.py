"""Differential tests: gather_mlir against the independent reference of
docs/Semantics.md (reference.py), numpy and torch, on shapes, dtypes, axes,
batch_dims, modes and index values that hypothesis generates (zero-size
dimensions, negative and out-of-range values, INT64_MIN/MAX)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gather_mlir as g
from gather_mlir import _native
import reference as ref

torch = pytest.importorskip("torch")

INT64_MIN, INT64_MAX = np.iinfo(np.int64).min, np.iinfo(np.int64).max
MODES = ["check", "fill", "clamp", "wrap", "unchecked"]
DATA_DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.float16,
               np.float32, np.float64, np.uint64, np.complex64, np.complex128]
INDEX_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32]

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.data_too_large])

dims = st.lists(st.integers(0, 4), min_size=1, max_size=4)


def data_of(draw, shape, dtype):
    raw = draw(st.binary(min_size=int(np.prod(shape)) * np.dtype(dtype).itemsize,
                         max_size=int(np.prod(shape)) * np.dtype(dtype).itemsize))
    if dtype == np.bool_:
        return np.frombuffer(raw, np.uint8).astype(bool).reshape(shape)
    return np.frombuffer(raw, dtype).reshape(shape).copy()


def indices_of(draw, shape, dtype, size, mode):
    """Index values around [-size, size), plus the extremes of the dtype;
    only in-range values for `unchecked`."""
    info = np.iinfo(dtype)
    if mode == "unchecked":
        if size == 0:  # No valid index: only an empty index tensor works.
            return None if int(np.prod(shape)) else np.zeros(shape, dtype)
        values = st.integers(max(-size, info.min), min(size - 1, info.max))
    else:
        values = st.one_of(
            st.integers(max(-2 * size - 2, info.min), min(2 * size + 2, info.max)),
            st.sampled_from([info.min, info.max]))
    flat = draw(st.lists(values, min_size=int(np.prod(shape)),
                         max_size=int(np.prod(shape))))
    return np.array(flat, dtype=dtype).reshape(shape)


def some_layout(draw, array):
    """The same values as a C-contiguous array, a reversed view (negative
    strides), a Fortran-ordered array or a step-2 slice of a larger array:
    the kernels must read every layout in place."""
    layout = draw(st.sampled_from(["c", "reversed", "fortran", "sliced"]))
    if array.ndim == 0 or layout == "c":
        return array
    if layout == "reversed":
        return np.flip(np.flip(array).copy())
    if layout == "fortran":
        return np.asfortranarray(array)
    wide = np.repeat(array, 2, axis=-1)
    return wide[..., ::2]


def mode_and_indices(draw, shape, size):
    """A mode and indices for it; `unchecked` needs valid indices, and an
    empty dimension has none, so it falls back to `fill` there."""
    mode = draw(st.sampled_from(MODES))
    dtype = draw(st.sampled_from(INDEX_DTYPES))
    indices = indices_of(draw, shape, dtype, size, mode)
    if indices is None:
        mode = "fill"
        indices = indices_of(draw, shape, dtype, size, mode)
    return mode, indices


def same_outcome(actual_fn, expected_fn):
    """Both raise IndexError, or both return equal arrays of one dtype;
    returns the actual array (None for the error)."""
    try:
        expected = expected_fn()
    except IndexError:
        with pytest.raises(IndexError):
            actual_fn()
        return None
    actual = actual_fn()
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(actual, expected)
    return actual


@st.composite
def gather_case(draw):
    data_shape = draw(dims)
    r = len(data_shape)
    axis = draw(st.integers(0, r - 1))
    batch_dims = draw(st.integers(0, axis))
    index_shape = data_shape[:batch_dims] + draw(
        st.lists(st.integers(0, 3), max_size=3 - min(batch_dims, 3)))
    mode, indices = mode_and_indices(draw, index_shape, data_shape[axis])
    data = some_layout(draw, data_of(draw, data_shape,
                                     draw(st.sampled_from(DATA_DTYPES))))
    indices = some_layout(draw, indices)
    # Written axes and batch_dims may be negative.
    q = len(index_shape)
    if draw(st.booleans()):
        axis -= r
    if draw(st.booleans()) and q > 0:
        batch_dims -= q
    return data, indices, axis, batch_dims, mode


@SETTINGS
@given(gather_case())
def test_gather_matches_reference(case):
    data, indices, axis, batch_dims, mode = case
    same_outcome(
        lambda: g.gather(data, indices, axis, batch_dims, mode),
        lambda: ref.gather(data, indices, axis, batch_dims, mode))


@st.composite
def gather_elements_case(draw):
    data_shape = draw(dims)
    r = len(data_shape)
    axis = draw(st.integers(0, r - 1))
    index_shape = [draw(st.integers(0, 5)) if d == axis else
                   draw(st.integers(0, n)) for d, n in enumerate(data_shape)]
    mode, indices = mode_and_indices(draw, index_shape, data_shape[axis])
    data = some_layout(draw, data_of(draw, data_shape,
                                     draw(st.sampled_from(DATA_DTYPES))))
    indices = some_layout(draw, indices)
    if draw(st.booleans()):
        axis -= r
    return data, indices, axis, mode


@SETTINGS
@given(gather_elements_case())
def test_gather_elements_matches_reference(case):
    data, indices, axis, mode = case
    same_outcome(lambda: g.gather_elements(data, indices, axis, mode),
                 lambda: ref.gather_elements(data, indices, axis, mode))


@st.composite
def gather_nd_case(draw):
    data_shape = draw(dims)
    r = len(data_shape)
    batch_dims = draw(st.integers(0, r - 1))
    k = draw(st.integers(1, r - batch_dims))
    index_shape = data_shape[:batch_dims] + draw(
        st.lists(st.integers(0, 3), max_size=2)) + [k]
    mode = draw(st.sampled_from(MODES))
    sizes = data_shape[batch_dims:batch_dims + k]
    if mode == "unchecked" and (0 in sizes and np.prod(index_shape) > 0):
        mode = "fill"
    index_dtype = draw(st.sampled_from(INDEX_DTYPES))
    # Each component within (or around) its own dimension.
    columns = [indices_of(draw, index_shape[:-1], index_dtype, s, mode)
               for s in sizes]
    indices = some_layout(draw, np.stack(columns, axis=-1).astype(index_dtype))
    data = some_layout(draw, data_of(draw, data_shape,
                                     draw(st.sampled_from(DATA_DTYPES))))
    return data, indices, batch_dims, mode


@SETTINGS
@given(gather_nd_case())
def test_gather_nd_matches_reference(case):
    data, indices, batch_dims, mode = case
    same_outcome(lambda: g.gather_nd(data, indices, batch_dims, mode),
                 lambda: ref.gather_nd(data, indices, batch_dims, mode))


# --- numpy and torch on their own terms --------------------------------------

NUMPY_MODES = {"check": "raise", "clamp": "clip", "wrap": "wrap"}


@st.composite
def short_rows_case(draw):
    """gather off the last axis or gather_nd with slices, with results of at
    least STATIC_MIN_RESULT_BYTES whose rows are at most 256 bytes: the Python package's
    kernels for one row length. Arrays from a drawn seed (hypothesis draws
    the shapes, not 16,000 values); items of 4 bytes or more keep the
    reference's loops short."""
    dtype = draw(st.sampled_from([np.int32, np.float32, np.float64,
                                  np.uint64, np.complex64, np.complex128]))
    item = np.dtype(dtype).itemsize
    width = draw(st.integers(1, 256 // item))
    rows = draw(st.integers(1, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    data = (rng.integers(-1000, 1000, (2, rows, width)) * 1.5).astype(dtype)
    mode = draw(st.sampled_from(MODES))
    in_range = mode == "unchecked" or draw(st.sampled_from([True, True, False]))
    index_dtype = draw(st.sampled_from([np.int32, np.int64]))
    # Rows for STATIC_MIN_RESULT_BYTES or more (rounded up), and a few more.
    count = (-(-_native.STATIC_MIN_RESULT_BYTES // (width * item))
             + draw(st.integers(0, 40)))
    op = draw(st.sampled_from(["gather", "batched", "nd", "nd_pairs"]))

    def ids(size, shape):
        lo, hi = (-size, size) if in_range else (-2 * size - 2, 2 * size + 2)
        return rng.integers(lo, hi, shape).astype(index_dtype)
    if op == "gather":  # along the middle axis: rows of `width`
        indices = ids(rows, (count // 2 + 1,))
        return (lambda f: f.gather(data, indices, 1, 0, mode)), op
    if op == "batched":
        indices = ids(rows, (2, count // 2 + 1))
        return (lambda f: f.gather(data, indices, 1, 1, mode)), op
    if op == "nd":  # one index a batch row
        indices = ids(rows, (2, count // 2 + 1, 1))
        return (lambda f: f.gather_nd(data, indices, 1, mode)), op
    first = ids(2, (count, 1))
    indices = np.concatenate([first, ids(rows, (count, 1))], axis=1)
    return (lambda f: f.gather_nd(data, indices, 0, mode)), op


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(short_rows_case())
def test_large_results_of_short_rows_match_reference(case):
    call, _ = case  # (the op's name: shown with a failing example)
    result = same_outcome(lambda: call(g), lambda: call(ref))
    if result is not None:
        assert result.nbytes >= _native.STATIC_MIN_RESULT_BYTES


@st.composite
def long_rows_case(draw):
    """Rows of up to 140 indices along the last axis (the kernels' full
    vectors and tails), mostly positions, with a few others drawn in:
    negative, past the end, the index dtype's extremes; every data and
    index dtype and layout. (Breadth: the boundaries of each way are
    pinned by test_rows_of_positions_but_one_match_reference.)"""
    op = draw(st.sampled_from(["gather_elements", "gather"]))
    size = draw(st.sampled_from([1, 16, 31, 32, 37, 64]))
    rows = draw(st.integers(1, 3))
    # (Lengths drawn as integers stay near 0, under a vector.)
    n = draw(st.sampled_from([0, 1, 15, 16, 17, 40, 63, 64, 65, 100, 140]))
    dtype = draw(st.sampled_from(INDEX_DTYPES))
    info = np.iinfo(dtype)
    shape = (rows, n) if op == "gather_elements" else (n,)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    indices = rng.integers(0, min(size, info.max + 1), shape).astype(dtype)
    mode = draw(st.sampled_from(MODES))
    others = [-1, -size, size, 2 * size + 1] if mode != "unchecked" else [-1]
    flat = indices.reshape(-1)
    for _ in range(draw(st.integers(1, 3)) if flat.size else 0):
        value = draw(st.sampled_from(others + [info.min, info.max]))
        if mode == "unchecked" and not -size <= value < size:
            continue
        flat[draw(st.integers(0, flat.size - 1))] = np.clip(
            value, info.min, info.max)
    # Distinct values (hypothesis' bytes are mostly zeros, which would hide
    # a read of the wrong element).
    values = rng.permutation(rows * size).reshape(rows, size) % 120 + 1
    data = some_layout(draw, values.astype(draw(st.sampled_from(
        [d for d in DATA_DTYPES if d != np.bool_]))))
    return op, data, some_layout(draw, indices), mode


@SETTINGS
@given(long_rows_case())
def test_long_rows_match_reference(case):
    op, data, indices, mode = case
    same_outcome(lambda: getattr(g, op)(data, indices, axis=-1, mode=mode),
                 lambda: getattr(ref, op)(data, indices, axis=-1, mode=mode))


@pytest.mark.parametrize("op", ["gather_elements", "gather"])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64])
@pytest.mark.parametrize("size", [37, 32])
def test_rows_of_positions_but_one_match_reference(size, dtype, index_dtype,
                                                   op):
    """Along the last axis, with scalar loads (the kernels of AMD hosts), a
    row's vectors whose indices one scalar operation resolves (positions in
    [0, size); in clamp every index not negative; in wrap along a power of
    two every index) are read first, each index as a scalar; from its
    first vector with another index on, the row resolves each index as a
    vector. Rows of positions but one index (negative, the size, far off),
    placed on either side of every vector boundary of 8, 16 and 64 lanes,
    give the reference's result in every mode; rows of positions alone,
    the positions' values."""
    rng = np.random.default_rng(5)
    data = rng.integers(-100, 100, (3, size)).astype(dtype)
    far = int(np.iinfo(index_dtype).max)
    for n in (1, 15, 16, 17, 63, 64, 65, 130):
        shape = (3, n) if op == "gather_elements" else (n,)
        positions = rng.integers(0, size, shape).astype(index_dtype)
        call = getattr(g, op)
        np.testing.assert_array_equal(
            call(data, positions, axis=-1),
            getattr(ref, op)(data, positions, axis=-1))
        ats = {0, 1, n // 2, n - 2, n - 1} | {
            k * lanes + d for lanes in (8, 16, 64)
            for k in range(1, n // lanes + 1) for d in (-1, 0)}
        for at in sorted(a for a in ats if 0 <= a < n):
            for other in (-1, -size, size, far):
                ids = positions.copy()
                ids[..., at] = other
                for mode in MODES:
                    if mode == "unchecked" and not -size <= other < size:
                        continue
                    same_outcome(
                        lambda: call(data, ids, axis=-1, mode=mode),
                        lambda: getattr(ref, op)(data, ids, axis=-1,
                                                 mode=mode))


def test_one_long_row_with_one_other_index_matches_numpy():
    """A single row of 2^19 indices makes a result large enough for threads
    on two cores, which take the row in pieces; one index that is not a
    position, at the row's start, either side of its middle or its end,
    gives numpy's result (or, in check mode, names that index)."""
    rng = np.random.default_rng(6)
    size, n = 1000, 1 << 19
    data = rng.standard_normal(size).astype(np.float32)
    positions = rng.integers(0, size, n)
    np.testing.assert_array_equal(g.gather(data, positions), data[positions])
    for at in (0, n // 2 - 1, n // 2, n - 1):
        for other in (-3, size, 5 * size):
            ids = positions.copy()
            ids[at] = other
            normalized = np.where(ids < 0, ids + size, ids)
            inside = (normalized >= 0) & (normalized < size)
            expected = {
                "fill": np.where(inside, data[np.where(inside, normalized,
                                                       0)], 0),
                "clamp": data[np.clip(normalized, 0, size - 1)],
                "wrap": data[np.mod(ids, size)]}
            for mode, values in expected.items():
                np.testing.assert_array_equal(
                    g.gather(data, ids, mode=mode), values)
            if inside.all():
                np.testing.assert_array_equal(g.gather(data, ids),
                                              data[normalized])
            else:
                with pytest.raises(IndexError,
                                   match=rf"index {other} is out of range"):
                    g.gather(data, ids)


@SETTINGS
@given(gather_case())
def test_gather_matches_numpy_take(case):
    data, indices, axis, _, mode = case
    if mode not in NUMPY_MODES:
        return
    # np.take has no batch dims; its "clip" clips the raw index, where clamp
    # first counts negative indices from the end: they agree on indices >= 0.
    if mode == "clamp" and indices.size and indices.astype(np.int64).min() < 0:
        return
    # numpy's "wrap" adds or subtracts the size until the index fits: time
    # linear in |index| / size, hours for INT64_MIN. Keep it to small values.
    size = data.shape[axis]
    if mode == "wrap" and indices.size and \
            np.abs(indices.astype(np.float64)).max() > 64 * (size + 1):
        return
    same_outcome(lambda: g.gather(data, indices, axis, 0, mode),
                 lambda: np.take(data, indices.astype(np.int64), axis=axis,
                                 mode=NUMPY_MODES[mode]))


@SETTINGS
@given(gather_elements_case())
def test_gather_elements_matches_torch_gather(case):
    data, indices, axis, mode = case
    if mode not in ("check", "unchecked") or data.dtype in (np.uint16,
                                                           np.uint64):
        return
    indices = indices.astype(np.int64)
    size = data.shape[axis]
    if indices.size and (indices.min() < 0 or indices.max() >= size):
        return  # torch.gather takes no negative or out-of-range indices.
    # torch takes no negative strides; gather_mlir reads the view itself.
    expected = torch.gather(torch.from_numpy(np.ascontiguousarray(data)),
                            axis,
                            torch.from_numpy(np.ascontiguousarray(indices)))
    expected = expected.numpy()
    np.testing.assert_array_equal(g.gather_elements(data, indices, axis, mode),
                                  expected)
