"""Results of 32 MiB and more get memory from the package's numpy memory
handler, which keeps the most recently freed block for the next result that
fits (python/src/ResultMemory.h). The arrays must stay ordinary arrays."""

import threading

import numpy as np
try:  # numpy 2 (numpy.core is a deprecated alias there)
    from numpy._core.multiarray import get_handler_name
except ImportError:  # numpy 1.x
    from numpy.core.multiarray import get_handler_name

import gather_mlir as g
from gather_mlir import _native

MIN_BYTES = _native.result_memory_stats()["min_bytes"]
ROW = 1024  # float32 elements per row: 4 KiB
ROWS = MIN_BYTES // (4 * ROW) + 8  # Just over the threshold.


def stats():
    s = _native.result_memory_stats()
    return s["mapped"], s["reused"]


def table(rows=2 * ROWS):
    return np.arange(rows * ROW, dtype=np.float32).reshape(rows, ROW)


def test_threshold_is_glibc_mmap_threshold():
    assert MIN_BYTES == 32 << 20


def test_a_freed_result_is_reused_by_the_next():
    data = table()
    ids = np.arange(ROWS)[::-1].copy()
    first = g.gather(data, ids)
    address = first.ctypes.data
    np.testing.assert_array_equal(first, data[ids])
    del first
    mapped, reused = stats()
    second = g.gather(data, ids + 1)
    assert second.ctypes.data == address
    assert stats() == (mapped, reused + 1)
    np.testing.assert_array_equal(second, data[ids + 1])


def test_live_results_never_share_memory():
    data = table()
    ids = np.arange(ROWS)
    results = [g.gather(data, ids + k) for k in range(3)]
    assert len({r.ctypes.data for r in results}) == 3
    for k, r in enumerate(results):
        np.testing.assert_array_equal(r, data[ids + k])


def test_a_much_smaller_result_does_not_take_a_large_block():
    data = table(5 * ROWS)
    big = g.gather(data, np.arange(4 * ROWS))
    del big
    mapped, reused = stats()
    small = g.gather(data, np.arange(ROWS))  # Under half the kept block.
    assert stats() == (mapped + 1, reused)
    np.testing.assert_array_equal(small, data[:ROWS])


def test_results_are_ordinary_arrays():
    data = table()
    ids = np.arange(ROWS)
    r = g.gather(data, ids)
    assert r.flags.owndata and r.flags.c_contiguous and r.flags.writeable
    assert get_handler_name(r) == "gather_mlir_result_memory"
    # numpy's own allocations keep numpy's handler.
    assert get_handler_name() == get_handler_name(np.empty(3))
    assert get_handler_name(np.empty(MIN_BYTES)) != get_handler_name(r)
    # resize reallocates through the handler and keeps the contents.
    r.resize((ROWS + 100, ROW), refcheck=False)
    np.testing.assert_array_equal(r[:ROWS], data[:ROWS])
    r.resize((10, ROW), refcheck=False)
    np.testing.assert_array_equal(r, data[:10])
    r.resize((ROWS * 2, ROW), refcheck=False)
    np.testing.assert_array_equal(r[:10], data[:10])
    small = g.gather(data, np.arange(4))  # Below the threshold: numpy's.
    assert get_handler_name(small) == get_handler_name(np.empty(3))


def test_gather_elements_and_gather_nd_results_too():
    data = table()
    rng = np.random.default_rng(0)
    idx = rng.integers(-ROW, ROW, data[:ROWS].shape)
    e = g.gather_elements(data[:ROWS], idx, axis=1)
    np.testing.assert_array_equal(e, np.take_along_axis(data[:ROWS], idx % ROW, 1))
    nd = g.gather_nd(data, np.arange(ROWS).reshape(-1, 1))
    np.testing.assert_array_equal(nd, data[:ROWS])
    assert get_handler_name(e) == get_handler_name(nd) == \
        "gather_mlir_result_memory"


def test_threads_get_their_own_blocks():
    data = table()
    errors = []

    def work(k):
        try:
            for j in range(4):
                ids = (np.arange(ROWS) + k + j) % len(data)
                r = g.gather(data, ids)
                if not np.array_equal(r, data[ids]):
                    errors.append((k, j))
        except Exception as e:  # Reported below, not lost in the thread.
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_jit_kernel_results_reuse_the_freed_block():
    # Kernels built on compiler.JitModule (embedding bags, block-quantized
    # gathers) allocate through the same blocks: a large result dropped
    # before the next call gives that call its pages.
    data = np.full((4, 2048), 0x88, np.uint8)  # 4096 4-bit values a row
    scales = np.ones((4, 32), np.float32)
    ids = np.zeros(MIN_BYTES // (4 * 4096) + 8, np.int64)
    first = g.gather_block_quantized(data, ids, scales, block_size=128)
    address = first.ctypes.data
    np.testing.assert_array_equal(first[:2, :3], 0.0)
    del first
    mapped, reused = stats()
    second = g.gather_block_quantized(data, ids, scales, block_size=128)
    assert second.ctypes.data == address
    assert stats() == (mapped, reused + 1)
    np.testing.assert_array_equal(second, 0.0)  # (8 - 8) * 1


def test_scatters_new_results_reuse_freed_blocks():
    # A scatter's new result (the general path, then a repeated signature's)
    # comes from the same memory: the second call reuses the first's block.
    data = table(ROWS)
    ones = np.ones_like(data)
    rows_added = data.copy()
    np.add.at(rows_added, [3, 0, 3], ones[:3])
    column_added = data.copy()
    column_added[0] += ROWS  # Exact: every value stays below 2**24.
    for function, args, expected in [
            ("scatter", (data, np.array([3, 0, 3]), ones[:3]), rows_added),
            ("scatter_elements", (data, np.zeros(data.shape, np.int64), ones),
             column_added)]:
        first = getattr(g, function)(*args, reduction="add")
        address = first.ctypes.data
        del first
        mapped, reused = stats()
        second = getattr(g, function)(*args, reduction="add")
        assert second.ctypes.data == address
        assert stats() == (mapped, reused + 1)
        assert second.flags.owndata
        np.testing.assert_array_equal(second, expected)
