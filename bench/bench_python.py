"""gather_mlir against numpy and torch on their own workloads, in one run.

    PYTHONPATH=build/python_packages /usr/bin/python3 bench/bench_python.py

Prints, per workload, the median time of each implementation and the ratio
peer / gather_mlir (above 1: gather_mlir is faster). Results are checked
equal before timing. Timings are medians of repeated runs on this machine;
nothing here is asserted.
"""

import statistics
import time

import numpy as np

import gather_mlir as g

try:
    import torch
    torch.set_num_threads(1)
except ImportError:  # pragma: no cover - torch is optional here
    torch = None


def timeit(fn, repeat=15, number=None):
    fn()  # Warm up (and compile).
    if number is None:
        t0 = time.perf_counter()
        fn()
        number = max(1, int(0.02 / max(time.perf_counter() - t0, 1e-7)))
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number)
    return statistics.median(samples)


def report(name, ours, peers):
    t_ours = timeit(ours)
    line = f"{name:<46} gather_mlir {t_ours * 1e6:9.1f} us"
    for peer, fn in peers.items():
        t = timeit(fn)
        line += f" | {peer} {t * 1e6:9.1f} us ({t / t_ours:5.2f}x)"
    print(line, flush=True)


def main():
    rng = np.random.default_rng(0)
    print("ratio = peer time / gather_mlir time (>1 means gather_mlir is "
          "faster)\n")

    # Embedding lookup: rows of a table (np.take / torch.index_select).
    for rows, width, count in [(50_000, 128, 4096), (1_000, 16, 100_000),
                               (100, 4, 16)]:
        table = rng.random((rows, width), dtype=np.float32)
        ids = rng.integers(0, rows, count)
        np.testing.assert_array_equal(g.gather(table, ids), table[ids])
        peers = {"np.take": lambda: np.take(table, ids, axis=0)}
        if torch is not None:
            tt, ti = torch.from_numpy(table), torch.from_numpy(ids)
            peers["torch.index_select"] = lambda: torch.index_select(tt, 0, ti)
        report(f"gather rows {rows}x{width} f32, {count} ids", lambda:
               g.gather(table, ids, mode="unchecked"), peers)
        report(f"  same, mode=check", lambda: g.gather(table, ids), peers)

    # Gather along an inner axis.
    data = rng.random((64, 512, 32), dtype=np.float32)
    idx = rng.integers(-512, 512, 256)
    np.testing.assert_array_equal(g.gather(data, idx, axis=1),
                                  np.take(data, idx, axis=1))
    peers = {"np.take": lambda: np.take(data, idx, axis=1)}
    if torch is not None:
        td, tx = torch.from_numpy(data), torch.from_numpy(idx % 512)
        peers["torch.index_select"] = lambda: torch.index_select(td, 1, tx)
    report("gather axis=1 64x512x32 f32, 256 ids", lambda:
           g.gather(data, idx, axis=1), peers)

    # Out-of-range handling that numpy does in Python-visible passes.
    v = rng.random(1_000_000, dtype=np.float32)
    wild = rng.integers(-2_000_000, 2_000_000, 1_000_000)
    np.testing.assert_array_equal(g.gather(v, wild, mode="wrap"),
                                  np.take(v, wild, mode="wrap"))
    report("gather 1M f32, 1M ids, mode=wrap", lambda:
           g.gather(v, wild, mode="wrap"),
           {"np.take(mode=wrap)": lambda: np.take(v, wild, mode="wrap")})
    report("gather 1M f32, 1M ids, mode=clamp (>=0 ids)", lambda:
           g.gather(v, np.abs(wild), mode="clamp"),
           {"np.take(mode=clip)": lambda: np.take(v, np.abs(wild),
                                                  mode="clip")})

    def numpy_fill():
        n = np.where(wild < 0, wild + v.size, wild)
        ok = (n >= 0) & (n < v.size)
        return np.where(ok, v[np.where(ok, n, 0)], 0)
    np.testing.assert_array_equal(g.gather(v, wild, mode="fill"),
                                  numpy_fill())
    report("gather 1M f32, 1M ids, mode=fill", lambda:
           g.gather(v, wild, mode="fill"), {"numpy where/take": numpy_fill})

    # torch.gather / take_along_axis along the last axis.
    scores = rng.random((2048, 256), dtype=np.float32)
    picks = rng.integers(0, 256, (2048, 64))
    np.testing.assert_array_equal(g.gather_elements(scores, picks, axis=1),
                                  np.take_along_axis(scores, picks, axis=1))
    peers = {"np.take_along_axis":
             lambda: np.take_along_axis(scores, picks, axis=1)}
    if torch is not None:
        ts, tp = torch.from_numpy(scores), torch.from_numpy(picks)
        peers["torch.gather"] = lambda: torch.gather(ts, 1, tp)
    report("gather_elements 2048x256 f32, 64 per row", lambda:
           g.gather_elements(scores, picks, axis=1, mode="unchecked"), peers)

    # GatherND: points of a 3-D volume.
    vol = rng.random((64, 64, 64), dtype=np.float32)
    pts = rng.integers(0, 64, (100_000, 3))
    np.testing.assert_array_equal(g.gather_nd(vol, pts),
                                  vol[tuple(pts.T)])
    report("gather_nd 64^3 f32, 100k points", lambda: g.gather_nd(vol, pts),
           {"numpy fancy indexing": lambda: vol[tuple(pts.T)]})

    # Tiny calls: the per-call overhead.
    small, sidx = np.arange(10.0), np.array([3, 1])
    report("tiny gather (10 elements, 2 ids)", lambda: g.gather(small, sidx),
           {"np.take": lambda: np.take(small, sidx)})


if __name__ == "__main__":
    main()
