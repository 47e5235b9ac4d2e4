"""gather_mlir.embedding_bag against torch.nn.functional.embedding_bag (every
reduction, per-sample weights, padding_idx, include_last_offset, empty bags,
fixed-length bags, int32 and int64 ids, float16/32/64 tables), the
out-of-range modes torch lacks against a loop written from
docs/Semantics.md, and the errors."""
import numpy as np
import pytest

import gather_mlir as g

torch = pytest.importorskip("torch")
F = torch.nn.functional


def _case(rng, num=50, dim=7, bags=9, max_len=6, dtype=np.float32):
    """A table, ids with offsets (empty bags included) and weights."""
    table = rng.standard_normal((num, dim)).astype(dtype)
    lengths = rng.integers(0, max_len + 1, bags)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    ids = rng.integers(-num, num, int(lengths.sum())).astype(np.int64)
    weights = rng.standard_normal(ids.shape).astype(dtype)
    return table, ids, offsets, weights


def _torch_bag(table, ids, offsets, mode, weights=None, include_last=False,
               padding_idx=None):
    """torch's result, its ids made non-negative (torch takes no negative
    ids); float16 tables computed in float32, as the kernels accumulate."""
    num = table.shape[0]
    dtype = table.dtype
    wide = table.astype(np.float32) if dtype == np.float16 else table
    result = F.embedding_bag(
        torch.from_numpy(ids % num),
        torch.from_numpy(wide),
        None if offsets is None else torch.from_numpy(offsets),
        mode=mode,
        per_sample_weights=None if weights is None else torch.from_numpy(
            weights.astype(wide.dtype)),
        include_last_offset=include_last,
        padding_idx=padding_idx)
    return result.numpy().astype(dtype)


def _close(result, expected):
    assert result.dtype == expected.dtype and result.shape == expected.shape
    tol = 2e-3 if result.dtype == np.float16 else 1e-5
    np.testing.assert_allclose(result, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("id_dtype", [np.int32, np.int64])
def test_matches_torch(dtype, mode, id_dtype):
    rng = np.random.default_rng(hash((mode, np.dtype(dtype).name,
                                      np.dtype(id_dtype).name)) % 2**32)
    # Rows narrower than the kernels' chunks (whose last chunk is their
    # width rounded up to a power of two: masked for 7 and 71, not for 32),
    # one whole chunk (128 f32 lanes), a whole one and 8 or 72 more.
    for dim in (7, 32, 71, 128, 136, 200):
        table, ids, offsets, _ = _case(rng, dim=dim, dtype=dtype)
        ids = ids.astype(id_dtype)
        expected = _torch_bag(table, ids.astype(np.int64), offsets, mode)
        _close(g.embedding_bag(ids, table, offsets, mode=mode), expected)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_per_sample_weights(dtype):
    rng = np.random.default_rng(1)
    for dim in (7, 40, 64):
        table, ids, offsets, weights = _case(rng, dim=dim, dtype=dtype)
        expected = _torch_bag(table, ids, offsets, "sum", weights)
        _close(g.embedding_bag(ids, table, offsets, mode="sum",
                               per_sample_weights=weights), expected)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("padding_idx", [0, 3, -1, -50])
def test_padding_idx(mode, padding_idx):
    rng = np.random.default_rng(2)
    table, ids, offsets, _ = _case(rng, dim=37)
    ids[::3] = padding_idx % table.shape[0]   # plenty of padding ids
    ids[1::7] = padding_idx                   # negative spelling too
    expected = _torch_bag(table, ids, offsets, mode,
                          padding_idx=padding_idx % table.shape[0])
    _close(g.embedding_bag(ids, table, offsets, mode=mode,
                           padding_idx=padding_idx), expected)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_include_last_offset(mode):
    rng = np.random.default_rng(3)
    table, ids, offsets, _ = _case(rng)
    last = np.concatenate([offsets, [len(ids)]]).astype(np.int64)
    expected = _torch_bag(table, ids, last, mode, include_last=True)
    _close(g.embedding_bag(ids, table, last, mode=mode,
                           include_last_offset=True), expected)
    # Ids after the last offset are in no bag.
    short = last.copy()
    short[-1] = max(short[-2], len(ids) - 2)
    expected = _torch_bag(table, ids[:short[-1]], short, mode,
                          include_last=True)
    _close(g.embedding_bag(ids, table, short, mode=mode,
                           include_last_offset=True), expected)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_fixed_length_bags(mode):
    rng = np.random.default_rng(4)
    table = rng.standard_normal((30, 5)).astype(np.float32)
    ids = rng.integers(0, 30, (6, 4))
    expected = F.embedding_bag(torch.from_numpy(ids), torch.from_numpy(table),
                               mode=mode).numpy()
    _close(g.embedding_bag(ids, table, mode=mode), expected)


def test_empty_cases():
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    # No ids: every bag is empty.
    result = g.embedding_bag(np.zeros(0, np.int64), table, [0, 0, 0])
    np.testing.assert_array_equal(result, np.zeros((3, 3), np.float32))
    # No bags.
    assert g.embedding_bag([1, 2], table, np.zeros(0, np.int64)).shape == (0, 3)
    # An empty table and no ids is fine in check mode.
    empty = np.zeros((0, 3), np.float32)
    assert g.embedding_bag(np.zeros(0, np.int64), empty, [0]).shape == (1, 3)


def test_torch_in_torch_out():
    rng = np.random.default_rng(5)
    table, ids, offsets, weights = _case(rng)
    result = g.embedding_bag(torch.from_numpy(ids), torch.from_numpy(table),
                             torch.from_numpy(offsets), mode="sum",
                             per_sample_weights=torch.from_numpy(weights))
    assert isinstance(result, torch.Tensor)
    _close(result.numpy(), _torch_bag(table, ids, offsets, "sum", weights))
    out = torch.empty(len(offsets), table.shape[1])
    assert g.embedding_bag(ids, table, offsets, out=out) is out
    _close(out.numpy(), _torch_bag(table, ids, offsets, "mean"))


def test_out_written_in_place_or_copied():
    """The kernel writes into a C-contiguous, writable `out` that shares no
    memory with an operand; an `out` that overlaps one gets a copy of the
    result; any other `out` is an error."""
    from gather_mlir._native import result_array
    rng = np.random.default_rng(6)
    table, ids, offsets, _ = _case(rng, num=20, dim=5, bags=4)
    expected = _torch_bag(table, ids, offsets, "sum")
    out = np.empty((4, 5), np.float32)
    assert np.shares_memory(
        result_array("f", (4, 5), out.dtype, out, [table, ids]), out)
    assert g.embedding_bag(ids, table, offsets, mode="sum", out=out) is out
    _close(out, expected)
    # Not C-contiguous: an error, as the gather functions'.
    strided = np.empty((5, 4), np.float32).T
    with pytest.raises(ValueError, match="embedding_bag: out must be "
                       "C-contiguous"):
        g.embedding_bag(ids, table, offsets, mode="sum", out=strided)
    # Rows of the table itself: the kernel must not write what it reads.
    own = table.copy()
    alias = own[:4]
    assert not np.shares_memory(
        result_array("f", (4, 5), alias.dtype, alias, [own]), alias)
    assert g.embedding_bag(ids, own, offsets, mode="sum", out=alias) is alias
    _close(alias, expected)
    # A read-only out is an error naming the function, as the gathers'.
    frozen = np.empty((4, 5), np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="embedding_bag: out is read-only"):
        g.embedding_bag(ids, table, offsets, mode="sum", out=frozen)


def _reference(table, ids, offsets, mode, oob_mode):
    """docs/Semantics.md's embedding bag, one id at a time: ids resolved by
    the mode (fill: a row of zeros that counts), then reduced."""
    num, dim = table.shape
    ends = list(offsets[1:]) + [len(ids)]
    result = np.zeros((len(offsets), dim), table.dtype)
    for b, (start, end) in enumerate(zip(offsets, ends)):
        rows = []
        for i in ids[start:end]:
            i = int(i)
            n = i + num if -num <= i < 0 else i
            if 0 <= n < num:
                rows.append(table[n])
            elif oob_mode == "fill":
                rows.append(np.zeros(dim, table.dtype))
            elif oob_mode == "clamp":
                rows.append(table[min(max(n, 0), num - 1)])
            elif oob_mode == "wrap":
                rows.append(table[i % num])
        if rows:
            stack = np.stack(rows)
            result[b] = {"sum": stack.sum(0), "mean": stack.mean(0),
                         "max": stack.max(0)}[mode]
    return result


@pytest.mark.parametrize("oob_mode", ["fill", "clamp", "wrap"])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_out_of_range_modes(oob_mode, mode):
    rng = np.random.default_rng(6)
    table, _, offsets, _ = _case(rng, num=11, dim=45)
    ids = rng.integers(-40, 40, int(offsets[-1]) + 5)
    expected = _reference(table, ids, offsets, mode, oob_mode)
    _close(g.embedding_bag(ids, table, offsets, mode=mode, oob_mode=oob_mode),
           expected)


@pytest.mark.parametrize("oob_mode", ["check", "fill", "clamp", "wrap"])
def test_one_id_that_is_not_a_row_anywhere(oob_mode):
    """A bag's loops read each id's row as it is only when the bag's ids,
    read 16 at a time, are all rows; a bag with another id takes the loops
    that resolve each id. Two bags of 1 to 40 ids that are all rows but one
    (negative, the table's size, or far off; at every position, so in
    either bag and in a partial last 16) give the reference's bags, or
    name that id; without the one, the same bags of rows as they are."""
    rng = np.random.default_rng(9)
    num = 13
    table = rng.standard_normal((num, 24)).astype(np.float32)
    for n in (1, 15, 16, 17, 33, 40):
        rows = rng.integers(0, num, n)
        offsets = np.array([0, n // 2], np.int64)
        _close(g.embedding_bag(rows, table, offsets, mode="sum",
                               oob_mode=oob_mode),
               _reference(table, rows, offsets, "sum", "check"))
        for at in range(n):
            for other in (-1, -num, num, 2**40):
                ids = rows.copy()
                ids[at] = other
                if oob_mode == "check" and not -num <= other < num:
                    with pytest.raises(IndexError,
                                       match=rf"index {other} is out of range"):
                        g.embedding_bag(ids, table, offsets, mode="sum")
                    continue
                _close(g.embedding_bag(ids, table, offsets, mode="sum",
                                       oob_mode=oob_mode),
                       _reference(table, ids, offsets, "sum", oob_mode))


def test_unsigned_ids_keep_their_values():
    table = np.arange(10, dtype=np.float32).reshape(5, 2)
    ids = np.array([1, 2**63 + 5, 4], np.uint64)
    with pytest.raises(IndexError, match=r"index 9223372036854775813 is out "
                       r"of range \[-5, 4\]"):
        g.embedding_bag(ids, table, [0])
    np.testing.assert_array_equal(
        g.embedding_bag(ids, table, [0], mode="sum", oob_mode="fill"),
        [[10, 12]])
    np.testing.assert_array_equal(
        g.embedding_bag(ids, table, [0], mode="sum", oob_mode="clamp"),
        [[18, 21]])
    wrapped = (2**63 + 5) % 5
    np.testing.assert_array_equal(
        g.embedding_bag(ids, table, [0], mode="sum", oob_mode="wrap"),
        [table[1] + table[wrapped] + table[4]])
    # The caller's ids are read, never rewritten.
    assert ids.tolist() == [1, 2**63 + 5, 4]
    # The error names the first id out of range, as gather's does, and the
    # caller's value where an empty table makes the first one an error.
    with pytest.raises(IndexError, match=r"index 7 is out of range"):
        g.embedding_bag(np.array([7, 2**63 + 5], np.uint64), table, [0])
    empty = np.zeros((0, 2), np.float32)
    for mode in ("clamp", "wrap"):
        with pytest.raises(IndexError, match=r"index 18446744073709551615 "
                           r"selects along data dimension 0, which is empty"):
            g.embedding_bag(np.array([2**64 - 1, 1], np.uint64), empty, [0],
                            oob_mode=mode)
    # Ids from the last offset on (include_last_offset) are in no bag:
    # never read, so never an error, big or small.
    for tail in (7, 2**63 + 5):
        np.testing.assert_array_equal(
            g.embedding_bag(np.array([0, tail], np.uint64), table, [0, 1],
                            mode="sum", include_last_offset=True), [table[0]])
        np.testing.assert_array_equal(
            g.embedding_bag(np.array([tail], np.uint64), empty, [0, 0],
                            mode="sum", include_last_offset=True,
                            oob_mode="clamp"), np.zeros((1, 2)))
    np.testing.assert_array_equal(
        g.embedding_bag(np.array([[3, 255]], np.uint8) % 5, table, mode="sum"),
        [table[3] + table[0]])


def test_unsigned_offsets_and_odd_arguments():
    """uint64 offsets within range are offsets like any others; an
    include_last_offset whose truth raises raises that; a weight made by
    __array__ as a strided view with a dtype of its own (freed once the
    table is copied contiguous) is read correctly, checked in a process
    with Python's debug allocator, which poisons freed memory."""
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    for dtype in (np.uint64, np.uint32, np.uint8):
        np.testing.assert_array_equal(
            g.embedding_bag([0, 1, 3], table, np.array([0, 1], dtype),
                            mode="sum"),
            [table[0], table[1] + table[3]])

    class Undecided:
        def __bool__(self):
            raise ZeroDivisionError("no truth")
    with pytest.raises(ZeroDivisionError, match="no truth"):
        g.embedding_bag([0, 1], table, [0], include_last_offset=Undecided())
    code = """
import numpy as np, gather_mlir as g
class Weight:
    def __array__(self, dtype=None, copy=None):
        own = np.dtype("f4", metadata={"own": 1})
        return np.arange(32, dtype=own).reshape(4, 8)[:, ::2]
print(g.embedding_bag(np.array([0, 3]), Weight(), [0], mode="sum").tolist())
"""
    import os
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, env=dict(os.environ,
                                              PYTHONMALLOC="debug"),
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    # Rows 0 and 3 of the view: [0, 2, 4, 6] + [24, 26, 28, 30].
    assert done.stdout.split("\n")[0] == "[[24.0, 28.0, 32.0, 36.0]]"


@pytest.mark.parametrize("rowwise", [False, True])
def test_threaded_bags_report_the_first_bad_id(rowwise):
    """Bags of 2**20 values, threads on two or more cores: a bad id in the
    first, a middle or the last bag (and two at once) is found by the bags
    that read it and named in order; the same ids corrected give the sums
    (from numpy here)."""
    rng = np.random.default_rng(5)
    if rowwise:
        # FBGEMM's layout: 128 bytes, then each row's scale and bias.
        quantized = rng.integers(0, 256, (1000, 128), dtype=np.uint8)
        trailer = np.tile(np.float32([0.5, 1.0]), (1000, 1)).view(np.uint8)
        table = np.concatenate([quantized, trailer], axis=1)
        values = quantized.astype(np.float32) * 0.5 + 1.0

        def bags(ids, offsets):
            return g.embedding_bag_rowwise_quantized(ids, table, offsets,
                                                     bits=8)
    else:
        table = values = rng.random((1000, 128), dtype=np.float32)

        def bags(ids, offsets):
            return g.embedding_bag(ids, table, offsets, mode="sum")
    ids = rng.integers(0, 1000, 8192)
    offsets = np.arange(0, 8192, 4)
    np.testing.assert_allclose(
        bags(ids, offsets), values[ids].reshape(2048, 4, 128).sum(axis=1),
        rtol=1e-5)
    for at in ([0], [4001], [8191], [6000, 5000]):
        bad = ids.copy()
        bad[at] = [1000 + k for k in at]
        first = 1000 + min(at)
        with pytest.raises(IndexError, match=rf"index {first} is out of "
                           r"range \[-1000, 999\]"):
            bags(bad, offsets)


def test_tables_of_either_byte_order():
    """A big-endian table (or per-sample weights) holds the same values:
    the same bags, as gather takes big-endian data."""
    table = np.arange(15, dtype=np.float32).reshape(5, 3)
    weights = np.array([1.0, 2.0, 0.5], np.float32)
    expected = g.embedding_bag([0, 4, 2], table, [0, 1], mode="sum",
                               per_sample_weights=weights)
    np.testing.assert_array_equal(expected, [[0, 1, 2], [27, 29.5, 32]])
    np.testing.assert_array_equal(
        g.embedding_bag([0, 4, 2], table.astype(">f4"), [0, 1], mode="sum",
                        per_sample_weights=weights.astype(">f4")),
        expected)


def test_errors():
    table = np.zeros((5, 3), np.float32)
    # A scalar is no bag (torch: "input has to be 1D or 2D Tensor").
    with pytest.raises(ValueError, match="input must be 1-D with offsets, "
                       "but is a scalar"):
        g.embedding_bag(np.int64(1), table, [0])
    with pytest.raises(IndexError, match=r"gather.embedding_bag: index 7 is "
                       r"out of range \[-5, 4\] for data dimension 0 of size 5"):
        g.embedding_bag([0, 7, 9], table, [0, 1])
    with pytest.raises(ValueError, match=r"offsets\[2\] is 1, less than "
                       r"offsets\[1\] = 2"):
        g.embedding_bag([0, 1, 2], table, [0, 2, 1])
    with pytest.raises(ValueError, match=r"offsets\[0\] is 1, but the first "
                       r"bag must start at 0"):
        g.embedding_bag([0, 1, 2], table, [1, 2])
    with pytest.raises(ValueError, match=r"offsets\[1\] is 4, past the end "
                       r"of the 3 ids"):
        g.embedding_bag([0, 1, 2], table, [0, 4])
    with pytest.raises(IndexError, match="which is empty"):
        g.embedding_bag([1], np.zeros((0, 3), np.float32), [0],
                        oob_mode="wrap")
    with pytest.raises(ValueError, match="mode must be one of sum, mean, max"):
        g.embedding_bag([0], table, [0], mode="min")
    with pytest.raises(ValueError, match="mode must be one of"):
        g.embedding_bag([0], table, [0], oob_mode="nearest")
    with pytest.raises(TypeError, match="weight must be float16, float32 or "
                       "float64, not int32"):
        g.embedding_bag([0], np.zeros((5, 3), np.int32), [0])
    with pytest.raises(ValueError, match="weight must be 2-D"):
        g.embedding_bag([0], np.zeros(5, np.float32), [0])
    with pytest.raises(TypeError, match="input must have an integer dtype"):
        g.embedding_bag([0.5], table, [0])
    with pytest.raises(ValueError, match="input must be 1-D with offsets"):
        g.embedding_bag([[0]], table, [0])
    with pytest.raises(ValueError, match=r"input must be 2-D \[bags, n\] "
                       "without offsets"):
        g.embedding_bag([0, 1], table)
    with pytest.raises(TypeError, match="offsets must have an integer dtype"):
        g.embedding_bag([0], table, [0.0])
    with pytest.raises(ValueError, match="per_sample_weights is only "
                       "supported with mode='sum'"):
        g.embedding_bag([0], table, [0], per_sample_weights=[1.0])
    with pytest.raises(TypeError, match="per_sample_weights must have "
                       "weight's dtype float32, not float64"):
        g.embedding_bag([0], table, [0], mode="sum",
                        per_sample_weights=np.ones(1))
    with pytest.raises(ValueError, match="per_sample_weights must have the "
                       "shape of input"):
        g.embedding_bag([0, 1], table, [0], mode="sum",
                        per_sample_weights=np.ones(3, np.float32))
    with pytest.raises(ValueError, match=r"padding_idx 36893488147419103232 "
                       "does not fit in int64"):
        g.embedding_bag([0], table, [0], padding_idx=2**65)
    with pytest.raises(ValueError, match=r"padding_idx 5 is out of range "
                       r"\[-5, 4\]"):
        g.embedding_bag([0], table, [0], padding_idx=5)
    with pytest.raises(ValueError, match="include_last_offset needs at least "
                       "one offset"):
        g.embedding_bag([0], table, np.zeros(0, np.int64),
                        include_last_offset=True)
    with pytest.raises(TypeError, match="out has dtype float64"):
        g.embedding_bag([0], table, [0], out=np.zeros((1, 3)))
    with pytest.raises(ValueError, match=r"out has shape \(2, 3\)"):
        g.embedding_bag([0], table, [0], out=np.zeros((2, 3), np.float32))


def test_more_argument_errors():
    table = np.zeros((5, 3), np.float32)
    with pytest.raises(ValueError, match=r"include_last_offset needs offsets "
                       r"\(1-D input\)"):
        g.embedding_bag([[0, 1]], table, include_last_offset=True)
    with pytest.raises(TypeError, match="padding_idx must be an integer, not "
                       "float"):
        g.embedding_bag([0], table, [0], padding_idx=1.0)
    with pytest.raises(ValueError, match="offsets must not be past the end of "
                       "the 1 ids"):
        g.embedding_bag([0], table, np.array([0, 2**64 - 1], np.uint64))
    with pytest.raises(TypeError, match="out must be a numpy array or a torch "
                       "tensor, not list"):
        g.embedding_bag([0], table, [0], out=[[0.0, 0.0, 0.0]])


def test_kernel_module_rejects_what_the_op_rejects():
    """The kernels' module builder reports the op's own diagnostics."""
    from gather_mlir import _native
    args = dict(name="bag", table=np.dtype(np.float32), row_width=None,
                ids=np.dtype(np.int64), ids_rank=1, bag_length=None,
                offsets=True, per_sample_weights=None, scales=None,
                zero_points=False, reduction="sum", padding_idx=None,
                include_last_offset=False, mode="check", rowwise_bits=None,
                block_bits=None, block_size=None)
    assert "gather.embedding_bag" in str(_native.embedding_bag_module(**args))
    with pytest.raises(ValueError, match="per_sample_weights is only "
                                         "supported with reduction sum"):
        _native.embedding_bag_module(**{**args, "reduction": "max",
                                        "per_sample_weights":
                                            np.dtype(np.float32)})
    with pytest.raises(ValueError, match="no reduction 'median'"):
        _native.embedding_bag_module(**{**args, "reduction": "median"})
    with pytest.raises(TypeError, match="no MLIR element type"):
        _native.embedding_bag_module(**{**args, "table": np.dtype(object)})
    with pytest.raises(ValueError, match="row_width must be >= 0, not -1"):
        _native.embedding_bag_module(**{**args, "row_width": -1})


def test_kernel_module_marks_its_buffers_noalias():
    """Every argument of a bag's kernel (table, ids, offsets, weights, the
    result) is `llvm.noalias`, which gather-noalias-memref-args carries to
    the data pointers."""
    from gather_mlir import _native
    text = str(_native.embedding_bag_module(
        name="bag", table=np.dtype(np.float32), row_width=None,
        ids=np.dtype(np.int64), ids_rank=1, bag_length=None, offsets=True,
        per_sample_weights=np.dtype(np.float32), scales=None,
        zero_points=False, reduction="sum", padding_idx=None,
        include_last_offset=False, mode="check", rowwise_bits=None,
        block_bits=None, block_size=None))
    signature = text[text.index("func.func @bag("):]
    signature = signature[:signature.index("{\n")]
    assert signature.count("{llvm.noalias}") == 5


def test_kernel_module_takes_the_row_width():
    """A kernel is built for the table's width (its row stride a constant);
    without one the width is dynamic."""
    from gather_mlir import _native
    args = dict(name="bag", table=np.dtype(np.float32), ids=np.dtype(np.int64),
                ids_rank=1, bag_length=None, offsets=True,
                per_sample_weights=None, scales=None, zero_points=False,
                reduction="sum", padding_idx=None, include_last_offset=False,
                mode="check", rowwise_bits=None, block_bits=None,
                block_size=None)
    assert "tensor<?x24xf32>" in str(_native.embedding_bag_module(
        **args, row_width=24))
    assert "tensor<?x?xf32>" in str(_native.embedding_bag_module(
        **args, row_width=None))


def test_bags_of_tables_of_several_widths():
    """Each width gets its own kernel; tables of different widths with the
    same dtypes and attributes give torch's results, the first one again
    after the others."""
    rng = np.random.default_rng(3)
    ids = np.array([0, 3, 1, 2, 2, 4], dtype=np.int64)
    offsets = np.array([0, 2, 2, 5], dtype=np.int64)
    tables = [rng.standard_normal((5, width), dtype=np.float32)
              for width in (1, 7, 128, 130, 7)]
    for table in tables:
        expected = np.stack([table[ids[s:e]].sum(axis=0) for s, e in
                             zip(offsets, list(offsets[1:]) + [ids.size])])
        np.testing.assert_allclose(
            g.embedding_bag(ids, table, offsets, mode="sum"), expected,
            rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("oob_mode", ["check", "clamp", "wrap"])
def test_ids_in_no_bag_are_not_checked(oob_mode):
    """No offset at all: every id is in no bag, and is neither read nor
    checked, as in torch, whatever the ids (a uint64 past INT64_MAX, one
    out of range of a table of empty rows or of an empty table)."""
    none = np.zeros(0, np.int64)
    table = np.ones((3, 4), np.float32)
    big = np.array([2**64 - 1, 1], np.uint64)
    result = g.embedding_bag(big, table, none, mode="sum", oob_mode=oob_mode)
    assert result.shape == (0, 4)
    ids = np.array([9, -7], np.int64)
    assert g.embedding_bag(ids, np.ones((3, 0), np.float32), none,
                           oob_mode=oob_mode).shape == (0, 0)
    assert g.embedding_bag(ids, np.ones((0, 4), np.float32), none,
                           oob_mode=oob_mode).shape == (0, 4)
