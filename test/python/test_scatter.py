"""gather_mlir.scatter, scatter_elements and scatter_nd: against the plain
loops of reference.py (bit for bit: the loops are the contract's sequential
order), against numpy's and torch's own scatters, and their errors."""

import os
import subprocess
import sys

import numpy as np
import pytest

import gather_mlir as g
import reference as ref

REDUCTIONS = ("none", "add", "mul", "max", "min")
MODES = ("check", "fill", "clamp", "wrap")
DTYPES = (np.float32, np.float64, np.float16, np.int8, np.int32, np.int64,
          np.uint8, np.uint64, np.bool_, np.complex64)


def values(rng, shape, dtype):
    """Small values, so that products stay exact in every dtype."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind == "c":
        return (rng.integers(-3, 4, shape)
                + 1j * rng.integers(-3, 4, shape)).astype(dtype)
    if dtype.kind == "u":
        return rng.integers(0, 250, shape).astype(dtype)
    if dtype.kind == "f":
        return (rng.integers(-8, 9, shape) / 4).astype(dtype)
    return rng.integers(-5, 6, shape).astype(dtype)


def assert_same(result, expected):
    assert result.dtype == expected.dtype
    assert result.shape == expected.shape
    # Bit for bit (NaNs included): the reference is the sequential loop.
    np.testing.assert_array_equal(result.view(np.uint8),
                                  np.ascontiguousarray(expected)
                                  .view(np.uint8))


CASES = [
    # function, data shape, indices shape, attributes, index range
    ("scatter", (7,), (12,), {}, 7),
    ("scatter", (4, 5), (6,), {"axis": 1}, 5),
    ("scatter", (3, 4, 2), (2, 3), {"axis": 1}, 4),
    ("scatter", (2, 5, 3), (2, 4), {"axis": 1, "batch_dims": 1}, 5),
    ("scatter", (6,), (), {}, 6),
    ("scatter_elements", (5, 3), (7, 3), {"axis": 0}, 5),
    ("scatter_elements", (3, 6), (2, 9), {"axis": -1}, 6),
    ("scatter_elements", (2, 3, 4), (2, 2, 5), {"axis": 2}, 4),
    ("scatter_nd", (5, 4), (9, 2), {}, 4),
    ("scatter_nd", (6, 3), (4, 1), {}, 6),
    ("scatter_nd", (2, 4, 3), (2, 5, 1), {"batch_dims": 1}, 4),
]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_against_reference(case, mode, reduction):
    function, data_shape, indices_shape, attrs, size = CASES[case]
    rng = np.random.default_rng(case * 97 + MODES.index(mode) * 7
                                + REDUCTIONS.index(reduction))
    # Mostly duplicates; out-of-range values where the mode defines them.
    low, high = (-size, size) if mode == "check" else (-3 * size, 3 * size)
    indices = rng.integers(low, high, indices_shape)
    reference = getattr(ref, function)
    gather = {"scatter": ref.gather, "scatter_elements": ref.gather_elements,
              "scatter_nd": ref.gather_nd}[function]
    shape = gather(np.zeros(data_shape), indices, mode="fill",
                   **attrs).shape
    # Three dtypes a case, in turn: every dtype meets every mode and
    # reduction over the cases, at a fraction of the kernels.
    start = case + MODES.index(mode) + REDUCTIONS.index(reduction)
    for dtype in (DTYPES * 2)[start % len(DTYPES):][:3]:
        if np.dtype(dtype).kind == "c" and reduction in ("max", "min"):
            continue
        data = values(rng, data_shape, dtype)
        updates = values(rng, shape, dtype)
        expected = reference(data, indices, updates, mode=mode,
                             reduction=reduction, **attrs)
        before = data.copy()
        result = getattr(g, function)(data, indices, updates, mode=mode,
                                      reduction=reduction, **attrs)
        assert_same(result, expected)
        np.testing.assert_array_equal(data, before)  # data is not modified


def test_float_add_is_the_sequential_loop():
    """Many float32 updates of mixed magnitudes into few elements: the
    result is the row-major loop's, bit for bit (another order rounds
    differently)."""
    rng = np.random.default_rng(0)
    data = np.zeros((4, 3), np.float32)
    indices = rng.integers(0, 4, 5000)
    updates = (rng.standard_normal((5000, 3))
               * 10.0 ** rng.integers(-6, 6, (5000, 1))).astype(np.float32)
    expected = ref.scatter(data, indices, updates, reduction="add")
    assert_same(g.scatter(data, indices, updates, reduction="add"), expected)
    # np.add.at is an unbuffered loop in the same order.
    at = data.copy()
    np.add.at(at, indices, updates)
    assert_same(at, expected)


def test_dims_read_alike_are_merged_and_tiles_keep_the_order():
    """Dims the op reads alike reach one kernel as one dim, and a scatter's
    rows before its axis are walked in tiles, each index position once a
    tile: the sums stay the sequential loop's, bit for bit, errors name the
    caller's dims, and shapes that merge to one share a kernel."""
    from gather_mlir import _scatter
    rng = np.random.default_rng(23)

    def updates_for(shape):
        return (rng.standard_normal(shape)
                * 10.0 ** rng.integers(-6, 6, shape)).astype(np.float32)

    # 600 rows of 20 positions: about 48 KiB of updates, two tiles of rows;
    # few ids, so each element gets several updates.
    cases = [((2, 300, 7), (4, 5), {"axis": 2}, 7),
             ((600, 3, 1), (20,), {"axis": 1}, 3),
             ((5000, 1, 1), (1,), {"axis": 2}, 1),
             ((2, 3, 400, 2), (2, 30), {"axis": 2, "batch_dims": 1}, 400)]
    for shape, index_shape, attrs, size in cases:
        data = updates_for(shape)
        indices = rng.integers(-size, size, index_shape)
        want_shape = ref.gather(data, indices, mode="fill", **attrs).shape
        updates = updates_for(want_shape)
        for reduction in ("add", "none", "max"):
            expected = ref.scatter(data, indices, updates,
                                   reduction=reduction, **attrs)
            assert_same(g.scatter(data, indices, updates,
                                  reduction=reduction, **attrs), expected)
    # scatter_elements off its axis, gather_nd's slices.
    data = updates_for((6, 5, 40))
    indices = rng.integers(0, 5, (6, 5, 40))
    updates = updates_for((6, 5, 40))
    assert_same(g.scatter_elements(data, indices, updates, axis=1,
                                   reduction="add"),
                ref.scatter_elements(data, indices, updates, axis=1,
                                     reduction="add"))
    with pytest.raises(IndexError, match="index 7 is out of range "
                       r"\[-5, 4\] for data dimension 2 of size 5"):
        g.scatter(np.zeros((3, 4, 5, 6), np.float32), [[1, 7]],
                  np.ones((3, 4, 1, 2, 6), np.float32), axis=2)
    with pytest.raises(IndexError, match="for data dimension 3 of size 6"):
        g.scatter_elements(np.zeros((3, 4, 5, 6), np.float32),
                           np.full((3, 4, 5, 6), 9),
                           np.ones((3, 4, 5, 6), np.float32), axis=3)
    g.scatter(np.zeros((12, 5, 6), np.float32), [[1, 2]],
              np.ones((12, 1, 2, 6), np.float32), axis=1, reduction="add")
    before = len(_scatter._kernels)
    got = g.scatter(np.zeros((3, 4, 5, 6), np.float32), [[1, 2]],
                    np.ones((3, 4, 1, 2, 6), np.float32), axis=2,
                    reduction="add")
    assert len(_scatter._kernels) == before
    assert got.sum() == 3 * 4 * 2 * 6 and (got[:, :, 1:3] == 1).all()


@pytest.mark.parametrize("mode", MODES)
def test_long_rows_go_a_few_at_a_time(mode):
    """Rows before the axis too long for a tile of several go four at a
    time, each index position once for the four, then the rows left over
    one at a time: every mode's sums and last writes stay the sequential
    loop's, bit for bit (on two threads: test_bit_identical_...)."""
    rng = np.random.default_rng(MODES.index(mode))
    # Rows of 1200 and 600 positions (past 4 KiB of updates and dest a
    # row): 7 rows are one group of four and three left over, 18 rows four
    # groups and two; few ids, so each element gets several updates. Rows
    # past 32 KiB (5 of 9000 + 600) have data copied whole first, shorter
    # ones a group's rows at a time.
    cases = [((7, 1500), (1200,), {"axis": 1}, 8),
             ((3, 6, 900), (2, 300), {"axis": 2}, 900),
             ((5, 9000), (600,), {"axis": 1}, 8)]
    for shape, index_shape, attrs, size in cases:
        low, high = (-size, size) if mode == "check" else (-2 * size,
                                                           2 * size)
        indices = rng.integers(low, high, index_shape)
        data = (rng.standard_normal(shape) * 1e3).astype(np.float32)
        want_shape = ref.gather(data, indices, mode="fill", **attrs).shape
        updates = rng.standard_normal(want_shape).astype(np.float32)
        for reduction in ("add", "none"):
            expected = ref.scatter(data, indices, updates, mode=mode,
                                   reduction=reduction, **attrs)
            assert_same(g.scatter(data, indices, updates, mode=mode,
                                  reduction=reduction, **attrs), expected)


def test_data_of_any_layout_is_copied_into_a_new_result():
    """A new result is data's copy: made by the kernel from C-contiguous,
    native data, by numpy from strided or byte-swapped data; either way
    the sums of the sequential loop, and data left as it was. Plans are
    kept for at most _MAX_PLANS shapes."""
    from gather_mlir import _scatter
    rng = np.random.default_rng(29)
    base = rng.standard_normal((30, 8)).astype(np.float32)
    indices = rng.integers(0, 30, 50)
    updates = rng.standard_normal((50, 4)).astype(np.float32)
    for data in (base[:, ::2], base[:, :4].astype(">f4"),
                 np.ascontiguousarray(base[:, :4])):
        before = data.copy()
        expected = ref.scatter(np.ascontiguousarray(data, np.float32),
                               indices, updates, reduction="add")
        got = g.scatter(data, indices, updates.astype(data.dtype),
                        reduction="add")
        assert_same(got.astype(np.float32), expected)
        np.testing.assert_array_equal(data, before)
    limit = _scatter._MAX_PLANS
    try:
        _scatter._MAX_PLANS = 3
        for rows in range(5, 12):
            data = np.zeros((rows, 2), np.float32)
            got = g.scatter(data, [rows - 1], np.ones((1, 2), np.float32),
                            reduction="add")
            assert got[-1].tolist() == [1, 1] and got.sum() == 2
            assert len(_scatter._plans) <= 3
    finally:
        _scatter._MAX_PLANS = limit


SCRIPT = """
import numpy as np, gather_mlir as g, sys
rng = np.random.default_rng(1)
i = rng.integers(0, 64, 1 << 16)
u = rng.standard_normal((1 << 16, 32)).astype(np.float32)
r = g.scatter(np.zeros((64, 32), np.float32), i, u, reduction="add")
sys.stdout.write(r.tobytes().hex())
e = g.scatter_elements(np.zeros((8, 1 << 14), np.float32), i.reshape(4, -1) % 8,
                       u[:, 0].reshape(4, -1), axis=0, reduction="add")
f = g.scatter(np.zeros(64, np.float32), i, u[:, 0], reduction="add")
l = g.scatter(np.zeros((11, 64), np.float32), i[:1 << 15] % 64,
              u.reshape(-1)[:11 << 15].reshape(11, -1), axis=1,
              reduction="add")
base = rng.standard_normal((1 << 14, 16)).astype(np.float32)
t = g.scatter(base, i[:128] % 16, u.reshape(-1)[:1 << 21].reshape(-1, 128),
              axis=1, reduction="add")
sys.stdout.write(" " + " ".join(a.tobytes().hex() for a in (e, f, l, t)))
"""


def test_bit_identical_on_one_and_two_threads():
    """The same float add scatter in processes of one and two threads:
    the same bits, those of the sequential loop."""
    outputs = []
    for threads in ("1", "2"):
        env = dict(os.environ, OMP_NUM_THREADS=threads)
        outputs.append(subprocess.run(
            [sys.executable, "-c", SCRIPT], env=env, check=True,
            capture_output=True, text=True).stdout)
    assert outputs[0] == outputs[1]
    rng = np.random.default_rng(1)
    i = rng.integers(0, 64, 1 << 16)
    u = rng.standard_normal((1 << 16, 32)).astype(np.float32)
    expected = np.zeros((64, 32), np.float32)
    np.add.at(expected, i, u)
    # Threads that own columns (scatter_elements along axis 0) and rows
    # of a 1-D dest: the same sums as numpy's sequential add.at.
    columns = np.zeros((8, 1 << 14), np.float32)
    rows = (i.reshape(4, -1) % 8, np.arange(1 << 14))
    np.add.at(columns, rows, u[:, 0].reshape(4, -1))
    flat = np.zeros(64, np.float32)
    np.add.at(flat, i, u[:, 0])
    # Threads that own ranges of 11 long rows, four at a time and the rest.
    long_rows = np.zeros((11, 64), np.float32)
    for row, values in enumerate(u.reshape(-1)[:11 << 15].reshape(11, -1)):
        np.add.at(long_rows[row], i[:1 << 15] % 64, values)
    # Threads that own ranges of short rows, in tiles: each tile's rows of
    # data copied into the result just before its updates are added.
    tiles = rng.standard_normal((1 << 14, 16)).astype(np.float32)
    for k, column in enumerate(u.reshape(-1)[:1 << 21].reshape(-1, 128).T):
        tiles[:, i[k] % 16] += column
    assert outputs[0] == " ".join(a.tobytes().hex()
                                  for a in (expected, columns, flat,
                                            long_rows, tiles))


def test_out_is_data_updates_in_place():
    data = np.zeros(5)
    result = g.scatter(data, [1, 1, 4], np.array([1.0, 2.0, 3.0]),
                       reduction="add", out=data)
    assert result is data
    np.testing.assert_array_equal(data, [0, 3, 0, 0, 3])


def test_out_is_data_and_indices_reads_the_indices_first():
    # The indices are out's own memory: each is read as it was before the
    # scatter wrote (index 2 becomes 11 once written, out of range).
    data = np.array([2, 0, 1, 3])
    result = g.scatter(data, data, np.array([10, 20, 30, 40]),
                       reduction="add", out=data)
    assert result is data
    np.testing.assert_array_equal(data, [22, 30, 11, 43])


def test_kernel_marks_its_buffers_noalias(monkeypatch):
    """The scatter's kernel marks dest, indices and updates `llvm.noalias`
    (restrict buffers; operands that share out's memory are copied)."""
    from gather_mlir import _scatter
    from gather_mlir.compiler import Module
    texts = []

    def recording(text):
        texts.append(text)
        return Module(text)
    monkeypatch.setattr(_scatter, "_kernels", {})
    monkeypatch.setattr(_scatter, "Module", recording)
    data = np.zeros(4, np.int16)
    g.scatter(data, [3, 1], np.array([5, 7], np.int16), reduction="max",
              mode="wrap", out=data)
    np.testing.assert_array_equal(data, [0, 7, 0, 5])
    assert len(texts) == 1
    head = texts[0][:texts[0].index(") {")]
    assert head.count("{llvm.noalias}") == 3


def test_out_elsewhere_leaves_data():
    data, out = np.ones(4, np.int32), np.zeros(4, np.int32)
    result = g.scatter_nd(data, [[2]], np.array([5], np.int32),
                          reduction="mul", out=out)
    assert result is out
    np.testing.assert_array_equal(out, [1, 1, 5, 1])
    np.testing.assert_array_equal(data, [1, 1, 1, 1])


@pytest.mark.parametrize("mode", ["clamp", "wrap", "fill", "unchecked"])
def test_out_elsewhere_is_written_directly_where_no_error_can_follow(
        mode, monkeypatch):
    """Outside check mode the kernel copies data straight into an out that
    shares no memory with data (no result array of its own, then a copy):
    data is left as it was; updates or indices in out's memory are read
    from copies; an out overlapping data takes the new array."""
    from gather_mlir import _scatter
    dests = []
    into = _scatter._scatter_into

    def recording(function, view, *rest):
        dests.append(view)
        return into(function, view, *rest)
    monkeypatch.setattr(_scatter, "_scatter_into", recording)
    rng = np.random.default_rng(5)
    data = rng.standard_normal((6, 5)).astype(np.float32)
    ids = np.array([4, 0, 4, 5])
    updates = rng.standard_normal((4, 5)).astype(np.float32)
    expected = data.copy()
    np.add.at(expected, ids, updates)
    before = data.copy()
    out = np.full_like(data, np.nan)
    assert g.scatter(data, ids, updates, mode=mode, reduction="add",
                     out=out) is out
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(data, before)
    assert dests[-1] is out
    # updates in out's memory (its last four rows): read as they were
    # before data was copied over them.
    room = np.zeros_like(data)
    room[2:] = updates
    assert g.scatter(data, ids, room[2:], mode=mode, reduction="add",
                     out=room) is room
    np.testing.assert_array_equal(room, expected)
    # An out overlapping data: the kernel writes a new array, copied after.
    wide = np.zeros((7, 5), np.float32)
    wide[:6] = data
    g.scatter(wide[:6], ids, updates, mode=mode, reduction="add",
              out=wide[1:])
    np.testing.assert_array_equal(wide[1:], expected)
    assert not np.shares_memory(dests[-1], wide)


@pytest.mark.parametrize("in_place", [True, False])
def test_check_failure_writes_nothing(in_place):
    data = np.arange(6, dtype=np.float32)
    out = data if in_place else np.full(6, 7, np.float32)
    before = out.copy()
    with pytest.raises(IndexError, match=r"gather.scatter: index 9 is out of "
                       r"range \[-6, 5\] for data dimension 0 of size 6"):
        g.scatter(data, [0, 9, 2, 11], np.ones(4, np.float32),
                  reduction="add", out=out)
    np.testing.assert_array_equal(out, before)


@pytest.mark.parametrize("function,updates_shape",
                         [("scatter", (4, 4, 3)), ("scatter_elements", (4, 3))])
def test_check_reports_first_bad_index_in_row_major_order(function,
                                                          updates_shape):
    # Indices of rank 2 are scanned as one run; the report names the first
    # bad one in row-major order (5), not a later one (-9), and -3 is valid.
    indices = np.array([[0, -3, 2], [1, 2, 5], [-9, 0, 1], [2, 2, 2]])
    with pytest.raises(IndexError, match=r"index 5 is out of range "
                       r"\[-3, 2\] for data dimension 1 of size 3"):
        getattr(g, function)(np.zeros((4, 3), np.float32), indices,
                             np.ones(updates_shape, np.float32), axis=1,
                             reduction="add")
    indices[1, 2], indices[2, 0] = 1, -1
    expected = np.zeros((4, 3), np.float32)
    for (row, _), i in np.ndenumerate(indices):
        if function == "scatter":
            expected[:, i] += 1
        else:
            expected[row, i] += 1
    np.testing.assert_array_equal(
        getattr(g, function)(np.zeros((4, 3), np.float32), indices,
                             np.ones(updates_shape, np.float32), axis=1,
                             reduction="add"), expected)


def test_unsigned_max_and_min_compare_values():
    data = np.array([10, 200, 3], np.uint8)
    updates = np.array([250, 1, 128], np.uint8)
    np.testing.assert_array_equal(
        g.scatter(data, [0, 1, 2], updates, reduction="max"), [250, 200, 128])
    np.testing.assert_array_equal(
        g.scatter(data, [0, 1, 2], updates, reduction="min"), [10, 1, 3])


def test_unsigned_indices_are_values():
    data = np.zeros(4, np.int64)
    idx = np.array([2**64 - 1, 1], np.uint64)
    with pytest.raises(IndexError):
        g.scatter(data, idx, np.array([1, 1]), reduction="add")
    np.testing.assert_array_equal(
        g.scatter(data, idx, np.array([1, 1]), reduction="add", mode="fill"),
        [0, 1, 0, 0])
    # (2**64 - 1) mod 4 is 3.
    np.testing.assert_array_equal(
        g.scatter(data, idx, np.array([1, 1]), reduction="add", mode="wrap"),
        [0, 1, 0, 1])


def test_errors():
    data = np.zeros((3, 4), np.float32)
    with pytest.raises(TypeError, match="scatter: updates must have data's "
                       "dtype float32, not float64"):
        g.scatter(data, [0], np.zeros((1, 4)))
    with pytest.raises(ValueError, match="scatter: reduction must be one of "
                       "none, add, mul, max, min, not 'sum'"):
        g.scatter(data, [0], np.zeros((1, 4), np.float32), reduction="sum")
    with pytest.raises(ValueError, match="scatter: mode must be one of"):
        g.scatter(data, [0], np.zeros((1, 4), np.float32), mode="raise")
    with pytest.raises(ValueError, match=r"scatter: updates has shape "
                       r"\(2, 4\), but the gather of data \(3, 4\) by "
                       r"indices \(1,\) gives \(1, 4\)"):
        g.scatter(data, [0], np.zeros((2, 4), np.float32))
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        g.scatter(data, [0], np.zeros((1, 4), np.float32), axis=2)
    with pytest.raises(ValueError, match="not defined on complex"):
        g.scatter(np.zeros(2, np.complex64), [0], np.ones(1, np.complex64),
                  reduction="max")
    with pytest.raises(TypeError, match="indices must have an integer dtype"):
        g.scatter(data, [0.5], np.zeros((1, 4), np.float32))
    with pytest.raises(TypeError, match="out has dtype float64"):
        g.scatter(data, [0], np.zeros((1, 4), np.float32), out=np.zeros((3, 4)))
    with pytest.raises(IndexError, match="which is empty"):
        g.scatter(np.zeros((0, 2)), [0], np.zeros((1, 2)), mode="clamp")


torch = pytest.importorskip("torch")


def test_against_torch_index_add_and_scatter_reduce():
    rng = np.random.default_rng(3)
    data = torch.from_numpy(rng.standard_normal((6, 5)))
    index = torch.from_numpy(rng.integers(0, 6, 9))
    source = torch.from_numpy(rng.standard_normal((9, 5)))
    expected = data.clone().index_add_(0, index, source)
    torch.testing.assert_close(g.scatter(data, index, source,
                                         reduction="add"), expected,
                               rtol=0, atol=0)
    idx2 = torch.from_numpy(rng.integers(0, 6, (4, 5)))
    src2 = torch.from_numpy(rng.standard_normal((4, 5)))
    for reduction, torch_name in (("add", "sum"), ("mul", "prod"),
                                  ("max", "amax"), ("min", "amin")):
        expected = data.scatter_reduce(0, idx2, src2, torch_name)
        result = g.scatter_elements(data, idx2, src2, reduction=reduction)
        assert isinstance(result, torch.Tensor)
        torch.testing.assert_close(result, expected, rtol=0, atol=0)
    # index_put_(accumulate=True) is scatter_nd add.
    tuples = torch.from_numpy(rng.integers(0, 5, (7, 2)))
    values_ = torch.from_numpy(rng.standard_normal(7))
    expected = data.clone().index_put_(tuple(tuples.T), values_,
                                       accumulate=True)
    torch.testing.assert_close(g.scatter_nd(data, tuples, values_,
                                            reduction="add"),
                               expected, rtol=0, atol=0)


def test_torch_out_is_data_like_index_add_():
    data = torch.zeros(4, 3)
    result = g.scatter(data, torch.tensor([1, 1]), torch.ones(2, 3),
                       reduction="add", out=data)
    assert result is data
    assert data[1].tolist() == [2.0, 2.0, 2.0]


def test_bfloat16_combines_in_float32():
    """Four ones added to 256, where bfloat16's spacing is 2: 260 (one
    rounding), not 256 (a rounding per add)."""
    data = torch.tensor([256.0, 0.0], dtype=torch.bfloat16)
    result = g.scatter(data, torch.zeros(4, dtype=torch.int64),
                       torch.ones(4, dtype=torch.bfloat16), reduction="add")
    assert result.dtype == torch.bfloat16
    assert result.tolist() == [260.0, 0.0]


def test_out_errors():
    data = np.zeros((3, 2), np.float32)
    upd = np.ones((1, 2), np.float32)
    with pytest.raises(ValueError, match=r"scatter: out has shape \(2, 2\), "
                       r"data has \(3, 2\)"):
        g.scatter(data, [0], upd, out=np.zeros((2, 2), np.float32))
    frozen = np.zeros((3, 2), np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="scatter: out is read-only"):
        g.scatter(data, [0], upd, out=frozen)
    with pytest.raises(TypeError, match="scatter: out must be a numpy array "
                       "or a torch tensor, not list"):
        g.scatter(data, [0], upd, out=[[0, 0]] * 3)


def test_bfloat16_operands_must_all_be_bfloat16():
    with pytest.raises(TypeError, match="scatter: updates must be a bfloat16 "
                       "tensor like the other operands"):
        g.scatter(torch.zeros(3, dtype=torch.bfloat16), torch.tensor([0]),
                  torch.ones(1))


def test_short_last_dims_of_large_scatters_get_a_kernel_for_their_length():
    """Scatters of 16 KiB of updates or more whose operands end in a dim of
    at most 16 elements get a kernel for that length, as the gathers do:
    the same sums as numpy's add.at, a kernel per length (the package's
    scatter kernels), one for longer last dims."""
    rng = np.random.default_rng(19)

    def check(last, axis):
        dest = rng.standard_normal((9000, last))
        n = 9000 if axis == 0 else 5
        ids = rng.integers(-dest.shape[axis], dest.shape[axis], n)
        updates = rng.standard_normal((n, last) if axis == 0 else (9000, n))
        want = dest.copy()
        at = (ids,) if axis == 0 else (slice(None), ids)
        np.add.at(want, at, updates)
        got = g.scatter(dest, ids, updates, axis=axis, reduction="add")
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)

    from gather_mlir import _scatter
    for last in (1, 2, 5):
        check(last, 0)
        check(last, 1)
    before = len(_scatter._kernels)
    check(6, 0)
    assert len(_scatter._kernels) == before + 1
    check(6, 0)
    check(30, 0)
    before = len(_scatter._kernels)
    check(40, 0)
    assert len(_scatter._kernels) == before


def test_repeated_calls_go_straight_to_the_kernel(monkeypatch):
    """A call of numpy operands into a new result that needed no conversion
    is remembered by its signature: the next call of the same shapes,
    dtypes, strides and attributes skips the checks and plans (here made
    to fail) and runs the kernel, with the same results and errors. Calls
    of another signature, or whose operands were converted, still check."""
    from gather_mlir import _scatter
    rng = np.random.default_rng(31)
    data = rng.standard_normal((9, 5)).astype(np.float32)
    ids = rng.integers(-9, 9, 7)
    updates = rng.standard_normal((9, 7)).astype(np.float32)
    g.scatter(data, ids, updates, axis=1, mode="wrap", reduction="add")
    g.scatter(data, ids % 5, updates, axis=1, reduction="add")

    def checked(*args):
        raise AssertionError("a repeated call was planned again")
    monkeypatch.setattr(_scatter, "_plan", checked)
    for _ in range(2):
        data = rng.standard_normal((9, 5)).astype(np.float32)
        ids = rng.integers(-9, 9, 7)
        before = data.copy()
        got = g.scatter(data, ids, updates, axis=1, mode="wrap",
                        reduction="add")
        assert_same(got, ref.scatter(before, ids % 5, updates, axis=1,
                                     reduction="add"))
        np.testing.assert_array_equal(data, before)
    # check mode's errors on a remembered signature, data untouched.
    with pytest.raises(IndexError, match="index 5 is out of range"):
        g.scatter(data, np.full(7, 5), updates, axis=1, reduction="add")
    np.testing.assert_array_equal(data, before)
    # Another signature (a numpy integer axis, unsigned ids converted by
    # the package, an out) is checked and planned; so is a float axis,
    # which is an error every time.
    with pytest.raises(AssertionError, match="planned again"):
        g.scatter(data, ids % 5, updates, axis=np.int64(1), reduction="add")
    with pytest.raises(AssertionError, match="planned again"):
        g.scatter(data, (ids % 5).astype(np.uint32), updates, axis=1,
                  reduction="add")
    with pytest.raises(AssertionError, match="planned again"):
        g.scatter(data, ids % 5, updates, axis=1, reduction="add",
                  out=np.empty_like(data))
    monkeypatch.undo()
    with pytest.raises((TypeError, ValueError)):
        g.scatter(data, ids % 5, updates, axis=1.0, reduction="add")
    with pytest.raises((TypeError, ValueError)):
        g.scatter(data, ids % 5, updates, axis=1.0, reduction="add")
