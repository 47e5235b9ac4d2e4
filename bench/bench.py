"""gather_mlir against numpy, torch and numba on their own workloads.

    PYTHONPATH=build/python_packages /usr/bin/python3 bench/bench.py [--quick]
        [--cases SUBSTRING] [--out DIR]

One process, one case at a time. Every implementation is run once and its
result compared with gather_mlir's before anything is timed; then each is
timed as the median of repeated batches after a warm-up. The table gives, per
case, gather_mlir's time and bandwidth (GB/s counts the gathered bytes read,
the result bytes written and the index bytes read), each peer's time, the
ratio best peer / gather_mlir (above 1: gather_mlir is faster) and the
fraction of copy speed (np.copyto of the result's bytes into a preallocated
array, divided by gather_mlir's time; 1.0 means as fast as a plain copy).
The table, machine facts and a chart of the ratios go to
DIR/bench-<host>.md and DIR/bench-<host>.png (DIR: bench/results; <host>:
LLVM's name of the host CPU, so a run replaces the last one on its kind of
host; --quick or --cases adds "-partial"). Then the first
call of a new kernel: in a new process with an empty kernel cache (cold)
and with the kernel on disk (warm), and the first call of each common
kernel in a process that has compiled another (its own compile; each in a
new interpreter with an empty cache). Nothing is asserted: this is a
measurement, not a test.

(bench/peers.py compares with numpy 2, torch 2, torch.compile, JAX, ONNX
Runtime and OpenVINO at equal threads, and times the fused dequantized
embedding lookup.)

Peers: numpy on one thread; torch with its default thread count; numba
`@njit` loops (serial, no bounds checks: the `unchecked` equivalent). Peers
get a mode's equivalent where they have one (np.take's mode="wrap" and
"clip"); otherwise they run their only (checking) form.
"""

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import gather_mlir as g

try:
    import torch
except ImportError:  # pragma: no cover - torch is an apt package here
    torch = None
try:
    import numba
    from numba import njit
except ImportError:  # pragma: no cover
    numba = None


# --- numba peers: the loops a user would write ------------------------------
if numba is not None:
    @njit(cache=False)
    def nb_rows(data, ids, out):
        for i in range(ids.shape[0]):
            out[i, :] = data[ids[i], :]

    @njit(cache=False)
    def nb_along_last(data, idx, out):
        for r in range(idx.shape[0]):
            for c in range(idx.shape[1]):
                out[r, c] = data[r, idx[r, c]]

    @njit(cache=False)
    def nb_nd2(data, idx, out):
        for i in range(idx.shape[0]):
            out[i, :] = data[idx[i, 0], idx[i, 1], :]

    @njit(cache=False)
    def nb_middle(data, ids, out):
        for a in range(data.shape[0]):
            for i in range(ids.shape[0]):
                out[a, i, :] = data[a, ids[i], :]

    @njit(cache=False)
    def nb_batched(data, idx, out):
        for b in range(idx.shape[0]):
            for i in range(idx.shape[1]):
                out[b, i, :] = data[b, idx[b, i], :]


def filled(kernel, *args):
    """Runs a numba kernel that fills its last argument; returns it. Like
    every peer, it gets a new output array unless the case is about `out=`."""
    kernel(*args)
    return args[-1]


def timeit(fn, repeat, min_batch_seconds):
    fn()  # warm-up (and compile)
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-7)
    number = max(1, int(min_batch_seconds / once))
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number)
    return statistics.median(samples)


class Case:
    def __init__(self, name, ours, peers, result_bytes, index_bytes):
        self.name, self.ours, self.peers = name, ours, peers
        self.result_bytes, self.index_bytes = result_bytes, index_bytes


def cases(quick):
    rng = np.random.default_rng(0)
    s = 4 if quick else 1  # --quick: smaller tables and batches
    out = []

    def embedding(rows, width, n, dtype, label, modes=("check",), out_too=False):
        data = rng.standard_normal((rows // s, width)).astype(dtype)
        ids = rng.integers(0, rows // s, n // s)
        res = np.empty((n // s, width), dtype)
        ref = data[ids]
        td, ti = (torch.from_numpy(data), torch.from_numpy(ids)) if torch else (None, None)
        tres = torch.from_numpy(res) if torch else None
        for mode in modes:
            np_mode = {"wrap": "wrap", "clamp": "clip"}.get(mode, "raise")
            peers = {"numpy": lambda m=np_mode: np.take(data, ids, axis=0, mode=m)}
            if torch:
                peers["torch"] = lambda: torch.index_select(td, 0, ti)
            if numba and dtype != np.float16:
                peers["numba"] = lambda: filled(nb_rows, data, ids, np.empty_like(res))
            out.append(Case(f"{label} {mode}",
                            lambda m=mode: g.gather(data, ids, mode=m), peers,
                            ref.nbytes, ids.nbytes))
        if out_too:
            peers = {"numpy": lambda: np.take(data, ids, axis=0, out=res)}
            if torch:
                peers["torch"] = lambda: torch.index_select(td, 0, ti, out=tres)
            if numba:
                peers["numba"] = lambda: filled(nb_rows, data, ids, res)
            out.append(Case(f"{label} out=",
                            lambda: g.gather(data, ids, out=res), peers,
                            ref.nbytes, ids.nbytes))

    embedding(50000, 1024, 16384, np.float32, "embedding 50000x1024 f32, 16384 ids",
              modes=("check", "fill", "clamp", "wrap", "unchecked"), out_too=True)
    embedding(32000, 4096, 2048, np.float16, "LLM embedding 32000x4096 f16, 2048 ids")

    # recsys: a million short rows, uniform and Zipf-skewed ids.
    def recsys():  # its own scope: the lambdas bind its names
        table = rng.standard_normal((1_000_000 // s, 64)).astype(np.float32)
        for label, ids in [
                ("uniform", rng.integers(0, table.shape[0], 65536 // s)),
                ("Zipf", (rng.zipf(1.2, 65536 // s) - 1) % table.shape[0])]:
            res = np.empty((ids.size, 64), np.float32)
            peers = {"numpy": lambda ids=ids: np.take(table, ids, axis=0)}
            if torch:
                tt, ti = torch.from_numpy(table), torch.from_numpy(ids)
                peers["torch"] = lambda tt=tt, ti=ti: torch.index_select(tt, 0, ti)
            if numba:
                peers["numba"] = lambda ids=ids, res=res: filled(nb_rows, table, ids, np.empty_like(res))
            out.append(Case(f"recsys 1Mx64 f32, 65536 ids {label}",
                            lambda ids=ids: g.gather(table, ids), peers,
                            res.nbytes, ids.nbytes))
    recsys()

    # Middle axis.
    def middle_axis():  # its own scope: the lambdas bind its names
        data = rng.standard_normal((64, 4096 // s, 64)).astype(np.float32)
        ids = rng.integers(0, data.shape[1], 1024)
        res = np.empty((64, 1024, 64), np.float32)
        peers = {"numpy": lambda: np.take(data, ids, axis=1)}
        if torch:
            td, ti = torch.from_numpy(data), torch.from_numpy(ids)
            peers["torch"] = lambda: torch.index_select(td, 1, ti)
        if numba:
            peers["numba"] = lambda: filled(nb_middle, data, ids, np.empty_like(res))
        out.append(Case("middle axis 64x4096x64 f32, 1024 ids",
                        lambda: g.gather(data, ids, axis=1), peers, res.nbytes,
                        ids.nbytes))

    middle_axis()

    # Batched gather, batch_dims 1.
    def batched():  # its own scope: the lambdas bind its names
        data = rng.standard_normal((8, 2048, 256 // s)).astype(np.float32)
        idx = rng.integers(0, 2048, (8, 512))
        res = np.empty((8, 512, data.shape[2]), np.float32)
        peers = {"numpy": lambda: np.take_along_axis(data, idx[:, :, None], axis=1)}
        if torch:
            td, ti = torch.from_numpy(data), torch.from_numpy(idx)
            peers["torch"] = lambda: torch.gather(
                td, 1, ti[:, :, None].expand(-1, -1, td.shape[2]))
        if numba:
            peers["numba"] = lambda: filled(nb_batched, data, idx, np.empty_like(res))
        out.append(Case("batched 8x2048x256 f32, batch_dims 1",
                        lambda: g.gather(data, idx, axis=1, batch_dims=1), peers,
                        res.nbytes, idx.nbytes))

    batched()

    # gather_elements along the last axis, every mode, int64 and int32 ids.
    def along_last_axis():  # its own scope: the lambdas bind its names
        data = rng.standard_normal((4096 // s, 1024)).astype(np.float32)
        for itype, modes in [(np.int64, ("check", "fill", "clamp", "wrap", "unchecked")),
                             (np.int32, ("check",))]:
            idx = rng.integers(0, 1024, data.shape).astype(itype)
            res = np.empty(data.shape, np.float32)
            for mode in modes:
                peers = {"numpy": lambda idx=idx: np.take_along_axis(data, idx, 1)}
                if torch:
                    td, ti = torch.from_numpy(data), torch.from_numpy(idx)
                    # torch.gather takes int64 ids only: int32 ones are converted.
                    peers["torch"] = lambda td=td, ti=ti: torch.gather(td, 1, ti.long())
                if numba:
                    peers["numba"] = lambda idx=idx, res=res: filled(nb_along_last, data, idx, np.empty_like(res))
                out.append(Case(
                    f"gather_elements 4096x1024 f32, {np.dtype(itype).name} ids {mode}",
                    lambda idx=idx, m=mode: g.gather_elements(data, idx, axis=1, mode=m),
                    peers, res.nbytes, idx.nbytes))

    along_last_axis()

    # top-k style: few ids per row of a vocabulary-wide table.
    def top_k():  # its own scope: the lambdas bind its names
        data = rng.standard_normal((64, 128256 // s)).astype(np.float32)
        idx = rng.integers(0, data.shape[1], (64, 50))
        res = np.empty((64, 50), np.float32)
        peers = {"numpy": lambda: np.take_along_axis(data, idx, 1)}
        if torch:
            td, ti = torch.from_numpy(data), torch.from_numpy(idx)
            peers["torch"] = lambda: torch.gather(td, 1, ti)
        if numba:
            peers["numba"] = lambda: filled(nb_along_last, data, idx, np.empty_like(res))
        out.append(Case("top-k gather_elements 64x128256 f32, 64x50 ids",
                        lambda: g.gather_elements(data, idx, axis=1), peers,
                        res.nbytes, idx.nbytes))

    top_k()

    # gather_nd: pairs into a 3-D table, 128-byte slices.
    def gather_nd_pairs():  # its own scope: the lambdas bind its names
        data = rng.standard_normal((512, 512, 32)).astype(np.float32)
        idx = rng.integers(0, 512, (65536 // s, 2))
        res = np.empty((idx.shape[0], 32), np.float32)
        peers = {"numpy": lambda: data[idx[:, 0], idx[:, 1]]}
        if torch:
            td, ti = torch.from_numpy(data), torch.from_numpy(idx)
            peers["torch"] = lambda: td[ti[:, 0], ti[:, 1]]
        if numba:
            peers["numba"] = lambda: filled(nb_nd2, data, idx, np.empty_like(res))
        out.append(Case("gather_nd 512x512x32 f32, 65536x2 ids",
                        lambda: g.gather_nd(data, idx), peers, res.nbytes,
                        idx.nbytes))

    gather_nd_pairs()

    # Tiny calls: the per-call overhead.
    def tiny_calls():  # its own scope: the lambdas bind its names
        data = np.arange(10, dtype=np.float32)
        ids = np.array([1, 7])
        peers = {"numpy": lambda: np.take(data, ids)}
        if torch:
            td, ti = torch.from_numpy(data), torch.from_numpy(ids)
            peers["torch"] = lambda: torch.index_select(td, 0, ti)
        out.append(Case("tiny gather (10 f32, 2 ids)", lambda: g.gather(data, ids),
                        peers, 8, ids.nbytes))

    tiny_calls()
    return out


def as_numpy(value):
    if torch is not None and isinstance(value, torch.Tensor):
        return value.numpy()
    return value


FIRST_CALL = """
import time, numpy as np
t0 = time.perf_counter()
import gather_mlir as g
t1 = time.perf_counter()
g.gather(np.zeros((3, 4, 5), np.int16), np.array([[1, 0]]), axis=1, mode="wrap")
t2 = time.perf_counter()
print(t2 - t1, g.compile_count())
"""


# A new kernel in a process that has already compiled one (the MLIR
# context, the target and the JIT are set up): the kernel's own compile.
NEW_KERNELS = {
    "row gather f32, 2-D data, 1-D ids":
        "g.gather(np.zeros((30, 40), np.float32), np.array([1, 0]))",
    "gather_elements f32 axis 1":
        "g.gather_elements(np.zeros((30, 40), np.float32), "
        "np.zeros((30, 4), np.int64), axis=1)",
    "gather_nd f32, pairs":
        "g.gather_nd(np.zeros((30, 40, 5), np.float32), "
        "np.zeros((7, 2), np.int64))",
    "gather int16 wrap, 3-D data, 2-D ids":
        "g.gather(np.zeros((3, 4, 5), np.int16), np.array([[1, 0]]), "
        "axis=1, mode='wrap')",
    "embedding bag f32 sum":
        "g.embedding_bag(np.zeros(10, np.int64), "
        "np.zeros((100, 16), np.float32), np.array([0, 5]))",
}

NEW_KERNEL = """
import time, numpy as np
import gather_mlir as g
g.gather(np.zeros((2, 2), np.int8), np.array([0]))
t0 = time.perf_counter()
{call}
print(time.perf_counter() - t0)
"""


NEW_KERNEL_ROUNDS = 3


def run_program(program, cache, **env):
    """The standard output of `program` in a new interpreter whose kernel
    cache directory is `cache` (and with `env` set)."""
    env = dict(os.environ, GATHER_MLIR_CACHE_DIR=cache, **env)
    return subprocess.run([sys.executable, "-c", program], env=env,
                          check=True, capture_output=True, text=True).stdout


def new_kernels():
    """Seconds of the first call of each common kernel in a process that
    has compiled another (median of NEW_KERNEL_ROUNDS processes, each with
    an empty kernel cache directory, one thread)."""
    times = {name: [] for name in NEW_KERNELS}
    for _ in range(NEW_KERNEL_ROUNDS):
        for name, call in NEW_KERNELS.items():
            with tempfile.TemporaryDirectory() as cache:
                times[name].append(float(run_program(
                    NEW_KERNEL.format(call=call), cache, OMP_NUM_THREADS="1")))
    return {name: statistics.median(t) for name, t in times.items()}


def first_call():
    """Seconds of the first call of a new kernel in a new process: cold
    (empty kernel cache directory) and warm (the same directory again)."""
    with tempfile.TemporaryDirectory() as cache:
        runs = []
        for _ in range(2):
            seconds, compiles = run_program(FIRST_CALL, cache).split()
            runs.append((float(seconds), int(compiles)))
        return runs


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    facts = {
        "CPU": model,
        "LLVM host CPU": g._native.host_cpu(),
        "cores": os.cpu_count(),
        "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "torch": torch.__version__ if torch else "absent",
        "torch threads": torch.get_num_threads() if torch else "-",
        "numba": numba.__version__ if numba else "absent",
        "gather_mlir": g.__version__,
        "gather_mlir threads (OMP_NUM_THREADS)": os.environ.get(
            "OMP_NUM_THREADS", "all cores"),
        "KMP_BLOCKTIME": os.environ.get("KMP_BLOCKTIME",
                                        "unset (gather_mlir's default)"),
    }
    return facts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller sizes and fewer repeats (a smoke run)")
    parser.add_argument("--cases", default="",
                        help="only cases whose name contains this")
    parser.add_argument("--out", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results"))
    args = parser.parse_args()
    repeat, batch = (5, 0.01) if args.quick else (15, 0.05)

    facts = machine()
    rows = []
    header = (f"{'case':<55} {'gather_mlir':>12} {'GB/s':>6} "
              f"{'numpy':>10} {'torch':>10} {'numba':>10} {'vs best':>8} "
              f"{'of copy':>8}")
    print(header)
    for case in cases(args.quick):
        if args.cases not in case.name:
            continue
        expected = np.asarray(case.ours())
        for name, peer in case.peers.items():
            got = as_numpy(peer())
            if not np.array_equal(np.asarray(got).reshape(expected.shape),
                                  expected):
                raise SystemExit(f"{case.name}: {name} disagrees")
        ours = timeit(case.ours, repeat, batch)
        peer_times = {name: timeit(fn, repeat, batch)
                      for name, fn in case.peers.items()}
        copy_src = np.ones(max(1, case.result_bytes), np.uint8)
        copy_dst = np.empty_like(copy_src)
        copy = timeit(lambda: np.copyto(copy_dst, copy_src), repeat, batch)
        best = min(peer_times.values())
        moved = 2 * case.result_bytes + case.index_bytes
        row = {"case": case.name, "ours": ours, "gbs": moved / ours / 1e9,
               "peers": peer_times, "ratio": best / ours,
               "copy": copy / ours}
        rows.append(row)
        cell = lambda n: (f"{peer_times[n] * 1e6:8.1f}us" if n in peer_times
                          else f"{'-':>10}")
        others = "".join(f"  {n} {t * 1e6:.1f}us" for n, t in peer_times.items()
                         if n not in ("numpy", "torch", "numba"))
        print(f"{case.name:<55} {ours * 1e6:10.1f}us {row['gbs']:6.1f} "
              f"{cell('numpy')} {cell('torch')} {cell('numba')} "
              f"{row['ratio']:7.2f}x {row['copy']:8.2f}{others}", flush=True)

    first = kernels = None
    if not args.cases or "first" in args.cases:
        first, kernels = first_call(), new_kernels()
        (cold, cold_n), (warm, warm_n) = first
        print(f"first call of a new kernel: cold {cold * 1e3:.1f} ms "
              f"({cold_n} compiled), warm {warm * 1e3:.1f} ms "
              f"({warm_n} compiled)")
        for name, seconds in kernels.items():
            print(f"  a new {name} in a running process: "
                  f"{seconds * 1e3:.1f} ms")
    write_results(args.out, facts, rows, first, kernels, args)


def write_results(directory, facts, rows, first, kernels, args):
    os.makedirs(directory, exist_ok=True)
    stem = (f"bench-{facts['LLVM host CPU']}"
            + ("-partial" if args.quick or args.cases else ""))
    md = [f"# gather_mlir benchmark, {datetime.date.today().isoformat()}", "",
          "`PYTHONPATH=build/python_packages /usr/bin/python3 bench/bench.py"
          + (" --quick" if args.quick else "") + "`", ""]
    md += [f"- {k}: {v}" for k, v in facts.items()]
    md += ["", "Times are medians; ratio = best peer / gather_mlir (above 1: "
           "gather_mlir is faster); of copy = np.copyto of the result's bytes "
           "/ gather_mlir (1.0: as fast as a copy).", "",
           "| case | gather_mlir | GB/s | numpy | torch | numba | ratio to best peer | of copy |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        cell = lambda n: (f"{r['peers'][n] * 1e6:.1f} us" if n in r["peers"]
                          else "-")
        others = "".join(f"; {n} {t * 1e6:.1f} us" for n, t in r["peers"].items()
                         if n not in ("numpy", "torch", "numba"))
        md.append(f"| {r['case']} | {r['ours'] * 1e6:.1f} us | {r['gbs']:.1f} | "
                  f"{cell('numpy')} | {cell('torch')} | {cell('numba')} | "
                  f"{r['ratio']:.2f}x | {r['copy']:.2f} |" + others)
    if first:
        (cold, cold_n), (warm, warm_n) = first
        md += ["", f"First call of a new kernel in a new process: cold "
               f"{cold * 1e3:.1f} ms ({cold_n} compiled), warm (kernel on "
               f"disk) {warm * 1e3:.1f} ms ({warm_n} compiled).", "",
               "First call of a new kernel in a process that has compiled "
               "another (its own compile; median of "
               f"{NEW_KERNEL_ROUNDS} processes, one thread):", "",
               "| kernel | first call |", "|---|---|"]
        md += [f"| {name} | {seconds * 1e3:.1f} ms |"
               for name, seconds in kernels.items()]
    with open(os.path.join(directory, stem + ".md"), "w") as f:
        f.write("\n".join(md) + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no chart")
        return
    if not rows:
        return
    fig, ax = plt.subplots(figsize=(10, 0.32 * len(rows) + 1.5))
    names = [r["case"] for r in rows][::-1]
    ratios = [r["ratio"] for r in rows][::-1]
    ax.barh(names, ratios,
            color=["tab:green" if x >= 1.5 else "tab:orange" if x >= 1 else
                   "tab:red" for x in ratios])
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.axvline(1.5, color="gray", linestyle="--", linewidth=0.8)
    ax.set_xlabel("best peer time / gather_mlir time (higher is better)")
    ax.set_title(f"gather_mlir vs numpy, torch, numba ({facts['CPU']}, "
                 f"{facts['cores']} cores)")
    ax.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(directory, stem + ".png"), dpi=110)
    print(f"wrote {os.path.join(directory, stem)}.md and .png")


if __name__ == "__main__":
    main()
