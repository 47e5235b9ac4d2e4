"""Nothing is read out of bounds: tables, ids and offsets placed against
inaccessible (PROT_NONE) pages, so that a read one byte past their end or
before their start faults. Each workload runs in a child process, where a
fault is a failed test (its signal), not a crashed test run: embedding bags
(float and row-wise quantized tables, rows shorter than a vector and with a
partial last chunk, every out-of-range mode with ids past both ends (also
`unchecked`, whose broken promise the package's gathers read as clamp and
its bags skip), broken
offsets), block-quantized gathers with their scales and zero points, and
gather, gather_elements and gather_nd, also along rows of indices read as
scalars."""
import subprocess
import sys
import textwrap

import pytest

_CHILD = textwrap.dedent('''
    import ctypes, mmap, sys
    import numpy as np
    import gather_mlir as g

    PAGE = mmap.PAGESIZE
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    keep = []

    def guarded(array, at_end):
        """A copy of `array` whose last byte (at_end) or first byte (not
        at_end) touches a PROT_NONE page."""
        array = np.ascontiguousarray(array)
        size = array.nbytes
        pages = -(-max(size, 1) // PAGE)
        m = mmap.mmap(-1, (pages + 2) * PAGE)
        base = ctypes.addressof(ctypes.c_char.from_buffer(m))
        for page in (0, pages + 1):
            if libc.mprotect(base + page * PAGE, PAGE, 0) != 0:
                raise OSError(ctypes.get_errno(), "mprotect")
        start = (pages + 1) * PAGE - size if at_end else PAGE
        out = np.frombuffer(m, dtype=array.dtype, count=array.size,
                            offset=start).reshape(array.shape)
        out[...] = array
        keep.append(m)
        return out

    rng = np.random.default_rng(0)
    done = 0
    for at_end in (True, False):
        G = lambda a: guarded(a, at_end)
        # Float tables: rows of 7 (shorter than a vector) and 130 (a
        # partial last chunk); ids past both ends of the table.
        for dim in (7, 130):
            table = G(rng.standard_normal((9, dim)).astype(np.float32))
            ids = G(np.array([0, 8, -9, 40, -40, 3], np.int64))
            offsets = G(np.array([0, 2, 2, 5], np.int64))
            for oob in ("fill", "clamp", "wrap", "unchecked"):
                for mode in ("sum", "mean", "max"):
                    g.embedding_bag(ids, table, offsets, mode=mode,
                                    oob_mode=oob)
            try:
                g.embedding_bag(ids, table, offsets)
                raise SystemExit("check mode took an id out of range")
            except IndexError:
                pass
            # Offsets past the ids, and decreasing.
            for bad in ([0, 9], [0, 4, 2]):
                try:
                    g.embedding_bag(ids, table, G(np.array(bad, np.int64)))
                    raise SystemExit("broken offsets were taken")
                except ValueError:
                    pass
            g.embedding_bag(G(ids.reshape(2, 3) % 9), table, mode="max")
            for oob in ("fill", "clamp", "wrap", "unchecked"):
                g.gather(table, ids, mode=oob)
            done += 1
        # Row-wise quantized tables: 8-bit rows of 7 and 130 values (138
        # bytes), 4-bit rows of 6 and 130 values (69 bytes).
        for bits, dim in ((8, 7), (8, 130), (4, 6), (4, 130)):
            width = dim + 8 if bits == 8 else dim // 2 + 4
            packed = G(rng.integers(0, 256, (9, width), dtype=np.uint8))
            ids = G(np.array([0, 8, -9, 40, -40, 3], np.int64))
            offsets = G(np.array([0, 2, 2, 5], np.int64))
            for oob in ("fill", "clamp", "wrap", "unchecked"):
                for mode in ("sum", "mean", "max"):
                    g.embedding_bag_rowwise_quantized(
                        ids, packed, offsets, mode=mode, bits=bits,
                        oob_mode=oob)
            done += 1
        # Block-quantized tables (4 bits, a partial last block) with their
        # scales and zero points, and the other gathers.
        data = G(rng.integers(0, 256, (9, 40), dtype=np.uint8))
        scales = G(rng.random((9, 5), dtype=np.float32))
        zero_points = G(rng.integers(0, 256, (9, 3), dtype=np.uint8))
        ids = G(np.array([0, 8, -9, 40, -40, 3], np.int64))
        for oob in ("fill", "clamp", "wrap", "unchecked"):
            g.gather_block_quantized(data, ids, scales, zero_points,
                                     block_size=16, mode=oob)
        cube = G(rng.standard_normal((4, 5, 6)).astype(np.float32))
        for oob in ("fill", "clamp", "wrap", "unchecked"):
            g.gather_elements(cube, G(rng.integers(-9, 9, (4, 5, 6))),
                              axis=2, mode=oob)
            g.gather_nd(cube, G(rng.integers(-9, 9, (7, 2))), mode=oob)
        done += 1
        # Rows of 37 and 130 indices (full vectors and a partial last one)
        # along axes of 32 (a power of two) and 37: most indices are read
        # as scalars, directly (docs/decisions/kernel-loops.md); the last three
        # are past both ends.
        for size in (32, 37):
            rows = G(rng.standard_normal((3, size)).astype(np.float32))
            for n in (37, 130):
                idx = rng.integers(0, size, (3, n))
                idx[:, -3:] = (-size - 5, size + 5, -1)
                idx = G(idx)
                for oob in ("fill", "clamp", "wrap", "unchecked"):
                    g.gather_elements(rows, idx, axis=1, mode=oob)
                    g.gather(rows, G(idx[1]), axis=1, mode=oob)
        done += 1
    print("done", done)
''')


def test_no_read_outside_operands():
    child = subprocess.run([sys.executable, "-c", _CHILD],
                           capture_output=True, text=True, timeout=600)
    assert child.returncode == 0, (
        f"the child ended with {child.returncode} (a negative number is the "
        f"signal that killed it):\n{child.stdout}\n{child.stderr}")
    assert child.stdout.split() == ["done", "16"]
