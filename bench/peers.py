"""gather_mlir against the seeds' runtimes and the array libraries, at equal
threads and at each one's best.

    build/venv/bin/python bench/peers.py [--quick] [--cases SUBSTRING|...]
        [--peers numpy,torch,...] [--out DIR]

(build/venv is the test script's environment: numpy 2, torch 2.13, JAX,
ONNX Runtime, OpenVINO; numba and FBGEMM's fbgemm-gpu-cpu, the training
step's peer, if installed: python/requirements-bench.txt.) The script runs itself once per
thread count, 1 and every core, in a fresh process each (JAX and OpenMP read
their thread counts at start-up), pinned to that many CPUs, and every
contestant in that process gets that many threads: gather_mlir through
OMP_NUM_THREADS, torch through
torch.set_num_threads, JAX through XLA's intra-op flags, ONNX Runtime and
OpenVINO through their session options, IREE through its task topology,
numba's loops through `prange` on that many (NUMBA_NUM_THREADS); numpy
uses one. IREE (iree-base-compiler and -runtime,
if installed) runs the package's own upstream-only lowering: the gather op
through convert-gather-to-linalg, compiled by iree-compile for its CPU.
In each process, every contestant's result is compared with gather_mlir's
before anything is timed, then the contestants are timed in interleaved,
shuffled rounds (the median of each one's round times). Printed: one table
per thread count (ratio = best peer / gather_mlir at those threads, above 1
gather_mlir is faster; copy = np.copyto of the result's bytes / gather_mlir;
nt copy = their copy with non-temporal stores at the same threads, the
memory limit (bench/memory_limit.c, compiled with clang) / gather_mlir;
each time followed by the cores its contestant kept busy) and one at each
contestant's best thread count. Written:
DIR/peers-<host>.md and a chart of the ratios, DIR/peers-<host>.png (DIR:
bench/results; <host>: LLVM's name of the host CPU, so a run replaces the
last one on its kind of host; a run of some cases or peers, or --quick,
adds "-partial"). Nothing is asserted.
"""

import argparse
import datetime
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import time

import memory_limit

#: Seconds before each sample with nothing timed: other runtimes' pool
#: workers spin for some milliseconds after a call and would hold the cores
#: the next contestant needs, while a longer pause costs torch its second
#: core (docs/Benchmarks.md, "How peers.py measures").
PAUSE = 0.02
#: The memory limits a gather is held against, not peers: np.copyto of the
#: result's bytes, and their copy with non-temporal stores at the same
#: threads (bench/memory_limit.c).
BASELINES = ["copy", "nt copy"]
PEERS = ["numpy", "torch", "torch.compile", "jax", "onnxruntime", "openvino",
         "iree", "numba", "fbgemm"]


def configure_threads(threads):
    """Before any library is imported: every runtime gets `threads`, and
    the process runs on that many CPUs. The CPUs are what holds a runtime
    to its count: XLA's CPU client ran a gather's two partitions on two
    cores with its intra-op flags at 1 (1.9 cores busy: its pool is sized
    by the CPUs the process may use)."""
    cpus = sorted(os.sched_getaffinity(0))
    if threads < len(cpus):
        os.sched_setaffinity(0, cpus[:threads])
    os.environ["OMP_NUM_THREADS"] = str(threads)
    os.environ["NUMBA_NUM_THREADS"] = str(threads)
    os.environ["XLA_FLAGS"] = (
        "--xla_cpu_multi_thread_eigen=" + ("true" if threads > 1 else "false")
        + f" intra_op_parallelism_threads={threads}")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def ort_options(ort, threads):
    """ONNX Runtime's session options: `threads` for its operators, and its
    pool's workers asleep between runs. With spinning workers (its default)
    a contestant timed while ONNX Runtime's session existed lost a core,
    and ONNX Runtime's own time did not change (docs/Benchmarks.md)."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def import_jax():
    """JAX with 64-bit types: it then reads the same int64 indices as every
    other contestant. By default it converts them to int32 when they are
    staged on its device, before any call is timed, and reads half the
    index bytes in the timed call."""
    import jax
    jax.config.update("jax_enable_x64", True)
    return jax, jax.numpy


def specs(np, quick):
    """The workloads: (name, op, data, indices, attributes)."""
    rng = np.random.default_rng(0)
    s = 4 if quick else 1
    out = []
    table = rng.standard_normal((50000 // s, 1024), dtype=np.float32)
    out.append(("embedding 50000x1024 f32, 16384 ids", "gather", table,
                rng.integers(0, table.shape[0], 16384 // s), {}))
    llm = rng.standard_normal((32000 // s, 4096)).astype(np.float16)
    out.append(("LLM embedding 32000x4096 f16, 2048 ids", "gather", llm,
                rng.integers(0, llm.shape[0], 2048 // s), {}))
    recsys = rng.standard_normal((1_000_000 // s, 64), dtype=np.float32)
    out.append(("recsys 1Mx64 f32, 65536 Zipf ids", "gather", recsys,
                (rng.zipf(1.2, 65536 // s) - 1) % recsys.shape[0], {}))
    middle = rng.standard_normal((64, 4096 // s, 64), dtype=np.float32)
    out.append(("middle axis 64x4096x64 f32, 1024 ids", "gather", middle,
                rng.integers(0, middle.shape[1], 1024), {"axis": 1}))
    column = rng.standard_normal((512, 4096 // s), dtype=np.float32)
    out.append(("column gather 512x4096 f32 axis -1, 1024 ids", "gather",
                column, rng.integers(0, column.shape[1], 1024), {"axis": -1}))
    elems = rng.standard_normal((4096 // s, 1024), dtype=np.float32)
    out.append(("gather_elements 4096x1024 f32 axis -1", "gather_elements",
                elems, rng.integers(0, 1024, elems.shape), {"axis": 1}))
    topk = rng.standard_normal((64, 128256 // s), dtype=np.float32)
    out.append(("top-k gather_elements 64x128256 f32, 64x50 ids",
                "gather_elements", topk,
                rng.integers(0, topk.shape[1], (64, 50)), {"axis": 1}))
    nd = rng.standard_normal((512, 512, 32), dtype=np.float32)
    out.append(("gather_nd 512x512x32 f32, 65536x2 ids", "gather_nd", nd,
                rng.integers(0, 512, (65536 // s, 2)), {}))
    batch = rng.standard_normal((8, 2048, 256 // s), dtype=np.float32)
    out.append(("batched 8x2048x256 f32, batch_dims 1, 8x512 ids", "gather",
                batch, rng.integers(0, 2048, (8, 512)),
                {"axis": 1, "batch_dims": 1}))
    # Elements of a 1M vector by 1M ids out of range: wrapped (ids in
    # [-3M, 3M)) and clamped (in [0, 2M): no negative ones, which numpy's
    # and JAX's "clip" would clamp to 0 where ours count from the end).
    vector = rng.standard_normal((1 << 20) // s, dtype=np.float32)
    n = vector.shape[0]
    out.append(("wrap 1M f32, 1M ids in [-3M, 3M)", "gather", vector,
                rng.integers(-3 * n, 3 * n, n), {"mode": "wrap"}))
    out.append(("clamp 1M f32, 1M ids in [0, 2M)", "gather", vector,
                rng.integers(0, 2 * n, n), {"mode": "clamp"}))
    out.append(("tiny gather (10 f32, 2 ids)", "gather",
                np.arange(10, dtype=np.float32), np.array([1, 7]), {}))
    # float(q[ids]) * scale[ids]: the gathers and their consumer, fused by
    # gather-to-llvm (unfused: the same module with fuse-elementwise=false).
    q = rng.integers(-128, 128, (50000 // s, 1024), dtype=np.int8)
    out.append(("dequantized embedding int8 50000x1024, 16384 ids",
                "dequantize", q, rng.integers(0, q.shape[0], 16384 // s),
                {"scale": rng.random(q.shape[0], dtype=np.float32)}))
    # DLRM-style bags: 2048 bags of 20-80 Zipf ids into a 1M x 128 table.
    bag_table = rng.standard_normal((1_000_000 // s, 128), dtype=np.float32)
    lengths = rng.integers(20, 81, 2048)
    bag_ids = (rng.zipf(1.2, int(lengths.sum())) - 1) % bag_table.shape[0]
    bag_offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    weights = rng.random(bag_ids.shape, dtype=np.float32)
    for mode, psw in (("sum", None), ("mean", None), ("sum", weights)):
        extra = ", per-sample weights" if psw is not None else ""
        out.append((f"DLRM bags 1Mx128 f32, 2048 bags of 20-80 Zipf ids, "
                    f"{mode}{extra}", "embedding_bag", bag_table, bag_ids,
                    {"offsets": bag_offsets, "mode": mode,
                     "per_sample_weights": psw}))
    # The same bags from a table of 32 f32 a row, a common DLRM width, where
    # a row is two vectors and the work of each id counts most.
    narrow = rng.standard_normal((bag_table.shape[0], 32), dtype=np.float32)
    out.append(("DLRM bags 1Mx32 f32, 2048 bags of 20-80 Zipf ids, sum",
                "embedding_bag", narrow, bag_ids,
                {"offsets": bag_offsets, "mode": "sum",
                 "per_sample_weights": None}))
    # The same bags from row-wise quantized tables (FBGEMM's fused layout:
    # the values, then a scale and a bias; f32 for 8 bits, f16 for 4).
    for bits, scale_dtype in ((8, np.float32), (4, np.float16)):
        values = rng.integers(0, 256, (bag_table.shape[0], 128 * bits // 8),
                              dtype=np.uint8)
        trailer = (rng.random((bag_table.shape[0], 2)) * 0.1
                   ).astype(scale_dtype).view(np.uint8)
        out.append((f"DLRM bags 1Mx128 {bits}-bit row-wise, 2048 bags of "
                    f"20-80 Zipf ids, sum", "embedding_bag_rowwise",
                    np.concatenate([values, trailer], axis=1), bag_ids,
                    {"offsets": bag_offsets, "bits": bits}))
    # An LLM's 4-bit block-quantized embedding table (GatherBlockQuantized).
    rows = 128256 // s
    packed = rng.integers(0, 256, (rows, 4096 // 2), dtype=np.uint8)
    out.append(("LLM 4-bit embedding 128256x4096, block 128, 2048 ids -> f32",
                "gather_block_quantized", packed,
                rng.integers(0, rows, 2048),
                {"scales": rng.random((rows, 4096 // 128), dtype=np.float32),
                 "zero_points": rng.integers(0, 256, (rows, 4096 // 128 // 2),
                                             dtype=np.uint8)}))
    # The gathers' adjoints (the backward of training): add scatters,
    # duplicates included, each a new array (data is not modified).
    grads = rng.standard_normal((200_000 // s, 64), dtype=np.float32)
    out.append(("index_add 100000x64 f32, 200000 Zipf ids (scatter add)",
                "scatter", np.zeros((100_000 // s, 64), np.float32),
                (rng.zipf(1.2, grads.shape[0]) - 1) % (100_000 // s),
                {"updates": grads}))
    out.append(("scatter_add_ 4096x1024 f32 axis 1 (scatter_elements add)",
                "scatter_elements", np.zeros((4096 // s, 1024), np.float32),
                rng.integers(0, 1024, (4096 // s, 1024)),
                {"updates": elems, "axis": 1}))
    out.append(("index_put_ accumulate 512x512x32 f32, 65536x2 ids "
                "(scatter_nd add)", "scatter_nd",
                np.zeros((512, 512, 32), np.float32),
                rng.integers(0, 512, (65536 // s, 2)),
                {"updates": rng.standard_normal((65536 // s, 32),
                                                dtype=np.float32)}))
    # The sum bag's backward (the gradient of sum(output * target) with
    # respect to the table), dense (a table-shaped gradient) and sparse
    # (torch's sparse=True: one gradient row per id).
    for sparse in (False, True):
        out.append((f"DLRM bag backward 1Mx128 f32, 2048 bags of 20-80 Zipf "
                    f"ids, sum, {'sparse' if sparse else 'dense'} gradient",
                    "bag_backward", bag_table, bag_ids,
                    {"offsets": bag_offsets, "sparse": sparse,
                     "target": rng.standard_normal((2048, 128),
                                                   dtype=np.float32)}))
    # A DLRM embedding training step: the sum bags above, the backward of a
    # loss, and SGD on the rows the batch touched.
    out.append(("DLRM training step 1Mx128 f32, 2048 bags of 20-80 Zipf "
                "ids: sum, backward, SGD", "train_step", bag_table, bag_ids,
                {"offsets": bag_offsets,
                 "target": rng.standard_normal((2048, 128),
                                               dtype=np.float32)}))
    return out


def import_fbgemm():
    """FBGEMM's table-batched embedding module and the enums it takes, or
    None where fbgemm-gpu-cpu does not install beside this torch."""
    try:
        from fbgemm_gpu.split_embedding_configs import EmbOptimType
        from fbgemm_gpu.split_table_batched_embeddings_ops_common import (
            EmbeddingLocation, PoolingMode)
        from fbgemm_gpu.split_table_batched_embeddings_ops_training import (
            ComputeDevice, SplitTableBatchedEmbeddingBagsCodegen)
    except (ImportError, OSError, RuntimeError):
        return None
    return (SplitTableBatchedEmbeddingBagsCodegen, EmbeddingLocation,
            ComputeDevice, PoolingMode, EmbOptimType)


def training_contestants(np, table, ids, attrs, wanted, threads):
    """One training step of an embedding table, each contestant on its own
    copy: forward (sum bags), the gradient of sum(output * target), and SGD
    on the rows the batch touched. gather_mlir: optim.EmbeddingBag, whose
    backward runs the step; torch: nn.EmbeddingBag(sparse=True) and
    torch.optim.SGD (eager; compiled where torch.compile takes the sparse
    backward); JAX: the step under jit, the table donated; numpy:
    np.add.reduceat and np.add.at. Each returns the first bag's rows after
    the step (what the results are compared on)."""
    import torch
    from gather_mlir import optim
    torch.set_num_threads(threads)
    offsets, target = attrs["offsets"], attrs["target"]
    lr = 0.01
    num, dim = table.shape
    check = ids[offsets[0]:offsets[1]]
    bag_of_id = np.repeat(np.arange(len(offsets)),
                          np.diff(np.append(offsets, len(ids))))
    tids, toffsets, ttarget = (torch.from_numpy(ids), torch.from_numpy(offsets),
                               torch.from_numpy(target))
    ours_bag = optim.EmbeddingBag(num, dim, mode="sum", optimizer="sgd",
                                  lr=lr, _weight=torch.from_numpy(table.copy()))

    def ours():
        (ours_bag(tids, toffsets) * ttarget).sum().backward()
        return ours_bag.weight.data[check]
    peers = {}
    if "torch" in wanted:
        bag = torch.nn.EmbeddingBag(num, dim, mode="sum", sparse=True,
                                    _weight=torch.from_numpy(table.copy()))
        sgd = torch.optim.SGD(bag.parameters(), lr=lr)

        def torch_fn():
            sgd.zero_grad(set_to_none=True)
            (bag(tids, toffsets) * ttarget).sum().backward()
            sgd.step()
            return bag.weight.data[check]
        peers["torch"] = torch_fn
    if "fbgemm" in wanted:
        fbgemm = import_fbgemm()
        if fbgemm is not None:
            tbe, location, device, pooling, optim_type = fbgemm
            # FBGEMM's table-batched embeddings on the CPU: the forward, and
            # a backward that runs exact SGD on the touched rows (its fused
            # training path), one table of these rows.
            emb = tbe([(num, dim, location.HOST, device.CPU)],
                      optimizer=optim_type.EXACT_SGD, learning_rate=lr,
                      pooling_mode=pooling.SUM)
            with torch.no_grad():
                emb.split_embedding_weights()[0].copy_(
                    torch.from_numpy(table))
            fids = tids.to(torch.int64)
            foffsets = torch.from_numpy(
                np.append(offsets, len(ids)).astype(np.int64))

            def fbgemm_fn():
                (emb(fids, foffsets) * ttarget).sum().backward()
                return emb.split_embedding_weights()[0][check]
            peers["fbgemm"] = fbgemm_fn
    if "jax" in wanted:
        jax, jnp = import_jax()
        bags = len(offsets)
        jids, jsegments, jtarget = (jnp.asarray(ids), jnp.asarray(bag_of_id),
                                    jnp.asarray(target))

        def step(t, i, seg, tgt):
            def loss(rows):
                out = jax.ops.segment_sum(rows, seg, num_segments=bags)
                return (out * tgt).sum()
            return t.at[i].add(-lr * jax.grad(loss)(t[i]))
        jstep = jax.jit(step, donate_argnums=0)
        state = [jnp.asarray(table.copy())]

        def jax_fn():
            state[0] = jstep(state[0], jids, jsegments, jtarget)
            return state[0][check].block_until_ready()
        peers["jax"] = jax_fn
    if "numpy" in wanted:
        np_table = table.copy()

        def numpy_fn():
            # The forward, which the loss's gradient (the target) does not
            # read, as the other contestants run it.
            np.add.reduceat(np_table[ids], offsets, axis=0)
            np.add.at(np_table, ids, -lr * target[bag_of_id])
            return np_table[check]
        peers["numpy"] = numpy_fn
    return ours, peers


def bag_backward_contestants(np, table, ids, attrs, wanted, threads):
    """The sum bag's forward and the backward of sum(output * target) with
    respect to the table: gather_mlir.embedding_bag on a table that requires
    grad, torch's embedding_bag (eager), JAX's jitted gradient, and numpy.
    Dense: each returns the table gradient's rows of the first bag's ids;
    sparse: the gradient rows of the first bag's ids (JAX and numpy: the
    gradient with respect to the rows the ids read, which is what a sparse
    gradient holds)."""
    import torch
    import gather_mlir as g
    torch.set_num_threads(threads)
    offsets, target, sparse = attrs["offsets"], attrs["target"], attrs["sparse"]
    first = slice(offsets[0], offsets[1])
    check = ids[first]
    bag_of_id = np.repeat(np.arange(len(offsets)),
                          np.diff(np.append(offsets, len(ids))))
    tids, toffsets, ttarget = (torch.from_numpy(ids), torch.from_numpy(offsets),
                               torch.from_numpy(target))
    weight = torch.from_numpy(table).requires_grad_()

    def grad_of(bag):
        weight.grad = None
        (bag(tids, weight, toffsets, mode="sum", sparse=sparse)
         * ttarget).sum().backward()
        grad = weight.grad
        return grad._values()[first] if sparse else grad[check]
    ours = lambda: grad_of(g.embedding_bag)
    peers = {}
    if "torch" in wanted:
        peers["torch"] = lambda: grad_of(torch.nn.functional.embedding_bag)
    if "jax" in wanted:
        jax, jnp = import_jax()
        bags = len(offsets)
        jt, jids, jsegments, jtarget = (jnp.asarray(table), jnp.asarray(ids),
                                        jnp.asarray(bag_of_id),
                                        jnp.asarray(target))

        def loss(rows, seg, tgt):
            out = jax.ops.segment_sum(rows, seg, num_segments=bags)
            return (out * tgt).sum()
        if sparse:
            fn = jax.jit(lambda t, i, seg, tgt: jax.grad(loss)(t[i], seg, tgt))
            peers["jax"] = lambda: fn(jt, jids, jsegments, jtarget)[
                first].block_until_ready()
        else:
            fn = jax.jit(jax.grad(lambda t, i, seg, tgt: loss(t[i], seg, tgt)))
            peers["jax"] = lambda: fn(jt, jids, jsegments, jtarget)[
                check].block_until_ready()
    if "numpy" in wanted:
        def numpy_fn():
            np.add.reduceat(table[ids], offsets, axis=0)
            rows = target[bag_of_id]
            if sparse:
                return rows[first]
            grad = np.zeros_like(table)
            np.add.at(grad, ids, rows)
            return grad[check]
        peers["numpy"] = numpy_fn
    return ours, peers


def scatter_contestants(np, op, data, indices, attrs, wanted, threads):
    """gather_mlir's add scatters and each peer's fastest out-of-place
    equivalent: numpy's np.add.at on a copy, torch's index_add /
    scatter_add / index_put(accumulate=True) eager and compiled, JAX's
    .at[].add under jit, and a numba loop (sequential: a parallel one would
    race on duplicates)."""
    import gather_mlir as g
    updates, axis = attrs["updates"], attrs.get("axis", 0)
    ours = lambda: getattr(g, op)(data, indices, updates, reduction="add",
                                  **({"axis": axis} if op != "scatter_nd"
                                     else {}))
    peers = {}
    if "numpy" in wanted:
        def numpy_fn():
            result = data.copy()
            if op == "scatter":
                np.add.at(result, indices, updates)
            elif op == "scatter_elements":
                rows = np.arange(data.shape[0])[:, None]
                np.add.at(result, (rows, indices), updates)
            else:
                np.add.at(result, tuple(indices.T), updates)
            return result
        peers["numpy"] = numpy_fn
    if {"torch", "torch.compile"} & set(wanted):
        import torch
        torch.set_num_threads(threads)
        td, ti, tu = (torch.from_numpy(data), torch.from_numpy(indices),
                      torch.from_numpy(updates))
        tt = tuple(ti.T) if op == "scatter_nd" else None

        def torch_fn(d, i, u):
            if op == "scatter":
                return torch.index_add(d, 0, i, u)
            if op == "scatter_elements":
                return torch.scatter_add(d, axis, i, u)
            return d.index_put(tt, u, accumulate=True)
        if "torch" in wanted:
            peers["torch"] = lambda: torch_fn(td, ti, tu)
        if "torch.compile" in wanted:
            compiled = torch.compile(torch_fn, dynamic=False)
            peers["torch.compile"] = lambda: compiled(td, ti, tu)
    if "jax" in wanted:
        jax, jnp = import_jax()
        jd, ji, ju = jnp.asarray(data), jnp.asarray(indices), jnp.asarray(
            updates)
        if op == "scatter":
            fn = jax.jit(lambda d, i, u: d.at[i].add(u))
        elif op == "scatter_elements":
            rows = jnp.arange(data.shape[0])[:, None]
            fn = jax.jit(lambda d, i, u: d.at[rows, i].add(u))
        else:
            fn = jax.jit(lambda d, i, u: d.at[i[:, 0], i[:, 1]].add(u))
        peers["jax"] = lambda: fn(jd, ji, ju).block_until_ready()
    if "numba" in wanted:
        try:
            import numba
        except ImportError:
            numba = None
        if numba is not None and op == "scatter":
            @numba.njit(boundscheck=False)
            def rows_add(d, i, u):
                for j in range(i.shape[0]):
                    d[i[j]] += u[j]
                return d
            peers["numba"] = lambda: rows_add(data.copy(), indices, updates)
    return ours, peers


def block_quantized_contestants(np, data, ids, attrs, wanted, threads):
    """gather_mlir.gather_block_quantized, ONNX Runtime's own
    GatherBlockQuantized and torch's gather-then-dequantize composite."""
    import gather_mlir as g
    scales, zp = attrs["scales"], attrs["zero_points"]
    ours = lambda: g.gather_block_quantized(data, ids, scales, zp,
                                            block_size=128, bits=4)
    peers = {}
    if "onnxruntime" in wanted:
        import onnxruntime as ort
        from onnx import TensorProto, helper
        names = ["data", "indices", "scales", "zp"]
        types = [TensorProto.UINT8, TensorProto.INT64, TensorProto.FLOAT,
                 TensorProto.UINT8]
        arrays = [data, ids, scales, zp]
        node = helper.make_node("GatherBlockQuantized", names, ["out"],
                                domain="com.microsoft", gather_axis=0,
                                quantize_axis=1, block_size=128, bits=4)
        graph = helper.make_graph(
            [node], "gbq",
            [helper.make_tensor_value_info(n, t, a.shape)
             for n, t, a in zip(names, types, arrays)],
            [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
        model = helper.make_model(graph, opset_imports=[
            helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)])
        options = ort_options(ort, threads)
        session = ort.InferenceSession(model.SerializeToString(), options,
                                       providers=["CPUExecutionProvider"])
        feeds = dict(zip(names, arrays))
        peers["onnxruntime"] = lambda: session.run(None, feeds)[0]
    if {"torch", "torch.compile"} & set(wanted):
        import torch
        torch.set_num_threads(threads)
        td, ti, ts, tz = (torch.from_numpy(a) for a in (data, ids, scales, zp))

        def torch_fn(d, i, sc, z):
            rows = d[i]
            q = torch.stack([rows & 15, rows >> 4], -1).reshape(len(i), -1)
            zr = z[i]
            zq = torch.stack([zr & 15, zr >> 4], -1).reshape(len(i), -1)
            return ((q.float() - zq.float().repeat_interleave(128, 1))
                    * sc[i].repeat_interleave(128, 1))
        if "torch" in wanted:
            peers["torch"] = lambda: torch_fn(td, ti, ts, tz)
        if "torch.compile" in wanted:
            compiled = torch.compile(torch_fn, dynamic=False)
            peers["torch.compile"] = lambda: compiled(td, ti, ts, tz)
    return ours, peers


def bag_contestants(np, table, ids, attrs, wanted, threads):
    """gather_mlir.embedding_bag and the peers that have bags: torch's
    F.embedding_bag (FBGEMM's kernels on x86) eager and compiled, and numpy
    (np.add.reduceat over the gathered rows)."""
    import gather_mlir as g
    offsets, mode, psw = attrs["offsets"], attrs["mode"], attrs[
        "per_sample_weights"]
    ours = lambda: g.embedding_bag(ids, table, offsets, mode=mode,
                                   per_sample_weights=psw)
    peers = {}
    if "numpy" in wanted and mode == "sum":
        def numpy_fn():
            rows = table[ids]
            if psw is not None:
                rows = rows * psw[:, None]
            return np.add.reduceat(rows, offsets, axis=0)
        peers["numpy"] = numpy_fn
    if {"torch", "torch.compile"} & set(wanted):
        import torch
        torch.set_num_threads(threads)
        F = torch.nn.functional
        tt, ti, to = (torch.from_numpy(table), torch.from_numpy(ids),
                      torch.from_numpy(offsets))
        tw = None if psw is None else torch.from_numpy(psw)

        def torch_fn(t, i, o, w):
            return F.embedding_bag(i, t, o, mode=mode, per_sample_weights=w)
        if "torch" in wanted:
            peers["torch"] = lambda: torch_fn(tt, ti, to, tw)
        if "torch.compile" in wanted:
            compiled = torch.compile(torch_fn, dynamic=False)
            peers["torch.compile"] = lambda: compiled(tt, ti, to, tw)
    if "iree" in wanted:
        args = [table, ids, offsets] + ([] if psw is None else [psw])
        named = "offsets(%a2)" + ("" if psw is None
                                  else " per_sample_weights(%a3)")
        types = ", ".join("{}" for _ in args)
        fn = iree_call(np, f"%r = gather.embedding_bag %a0[%a1] {named} "
                       f"{{{{reduction = #gather<reduction {mode}>}}}} : "
                       f"({types}) -> {{}}", args, np.asarray(ours()),
                       threads)
        if fn is not None:
            peers["iree"] = fn
    return ours, peers


def rowwise_bag_contestants(np, packed, ids, attrs, wanted, threads):
    """gather_mlir.embedding_bag_rowwise_quantized and torch's own quantized
    bags (quantized::embedding_bag_byte_rowwise_offsets and
    embedding_bag_4bit_rowwise_offsets, FBGEMM's kernels)."""
    import gather_mlir as g
    offsets, bits = attrs["offsets"], attrs["bits"]
    ours = lambda: g.embedding_bag_rowwise_quantized(ids, packed, offsets,
                                                     bits=bits)
    peers = {}
    if "torch" in wanted:
        import torch
        torch.set_num_threads(threads)
        q = torch.ops.quantized
        op = (q.embedding_bag_byte_rowwise_offsets if bits == 8
              else q.embedding_bag_4bit_rowwise_offsets)
        tp, ti, to = (torch.from_numpy(packed), torch.from_numpy(ids),
                      torch.from_numpy(offsets))
        peers["torch"] = lambda: op(tp, ti, to, False, 0, False, None, None,
                                    False)
    return ours, peers


DEQUANTIZE = """
func.func @dequantize(%q: tensor<{rows}x{width}xi8>, %scale: tensor<{rows}xf32>,
                      %ids: tensor<{n}xi64>) -> tensor<{n}x{width}xf32> {{
  %rows = gather.gather %q[%ids] : (tensor<{rows}x{width}xi8>, tensor<{n}xi64>) -> tensor<{n}x{width}xi8>
  %s = gather.gather %scale[%ids] : (tensor<{rows}xf32>, tensor<{n}xi64>) -> tensor<{n}xf32>
  %e = tensor.empty() : tensor<{n}x{width}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}}
      ins(%rows, %s : tensor<{n}x{width}xi8>, tensor<{n}xf32>) outs(%e : tensor<{n}x{width}xf32>) {{
  ^bb0(%x: i8, %sc: f32, %o: f32):
    %f = arith.sitofp %x : i8 to f32
    %y = arith.mulf %f, %sc : f32
    linalg.yield %y : f32
  }} -> tensor<{n}x{width}xf32>
  return %r : tensor<{n}x{width}xf32>
}}
"""


def dequantize_contestants(np, q, ids, scale, wanted, threads):
    """gather_mlir fused (ours) and unfused, and the peers, each returning a
    new array."""
    from gather_mlir.compiler import JitModule, Module
    ir = DEQUANTIZE.format(rows=q.shape[0], width=q.shape[1], n=ids.shape[0])
    options = "parallel=true" if threads > 1 else ""
    fused = JitModule(Module(ir), pipeline=f"gather-to-llvm{{{options}}}")
    unfused = JitModule(Module(ir), pipeline="gather-to-llvm{" + options +
                        " fuse-elementwise=false}")
    ours = lambda: fused.call("dequantize", q, scale, ids)
    peers = {"gather_mlir unfused": lambda: unfused.call("dequantize", q,
                                                          scale, ids)}
    if "numpy" in wanted:
        peers["numpy"] = lambda: q[ids].astype(np.float32) * scale[ids][:, None]
    if {"torch", "torch.compile"} & set(wanted):
        import torch
        torch.set_num_threads(threads)
        tq, ts, ti = (torch.from_numpy(q), torch.from_numpy(scale),
                      torch.from_numpy(ids))

        def torch_fn(q, s, i):
            return q[i].float() * s[i][:, None]
        if "torch" in wanted:
            peers["torch"] = lambda: torch_fn(tq, ts, ti)
        if "torch.compile" in wanted:
            torch_compiled = torch.compile(torch_fn, dynamic=False)
            peers["torch.compile"] = lambda: torch_compiled(tq, ts, ti)
    if "jax" in wanted:
        jax, jnp = import_jax()
        jq, js, ji = jnp.asarray(q), jnp.asarray(scale), jnp.asarray(ids)
        jitted = jax.jit(lambda q, s, i: q[i].astype(jnp.float32) * s[i][:, None])
        peers["jax"] = lambda: jitted(jq, js, ji).block_until_ready()
    return ours, peers


_MLIR_ELEMENT = {"float32": "f32", "float16": "f16", "int32": "i32",
                 "int64": "i64"}


def iree_call(np, op_text, args, result, threads):
    """`op_text` (one op on %a0, %a1, ... defining %r, of type `result`, an
    array like the result) in a function lowered by convert-gather-to-linalg,
    compiled by IREE for this CPU and called on device arrays staged once
    (IREE at its best: no copy of the inputs per call); None without
    IREE."""
    try:
        import iree.compiler as ireec
        import iree.runtime as ireert
    except ImportError:
        return None
    from gather_mlir.compiler import Module

    def type_of(a):
        return ("tensor<" + "".join(f"{d}x" for d in a.shape)
                + _MLIR_ELEMENT[a.dtype.name] + ">")
    params = ", ".join(f"%a{k}: {type_of(a)}" for k, a in enumerate(args))
    text = op_text.format(*(type_of(a) for a in args + [result]))
    source = (f"func.func @main({params}) -> {type_of(result)} {{\n"
              f"  {text}\n  return %r : {type_of(result)}\n}}\n")
    lowered = str(Module(source).run("convert-gather-to-linalg"))
    vmfb = ireec.compile_str(lowered, target_backends=["llvm-cpu"],
                             extra_args=["--iree-llvmcpu-target-cpu=host"])
    ireert.flags.parse_flags(f"--task_topology_max_group_count={threads}")
    config = ireert.Config("local-task")
    context = ireert.SystemContext(config=config)
    context.add_vm_module(ireert.VmModule.copy_buffer(context.instance, vmfb))
    main = context.modules.module["main"]
    staged = [ireert.asdevicearray(config.device, a) for a in args]
    return lambda: main(*staged).to_host()


def iree_function(np, op, data, indices, attrs, threads):
    """The gather op under IREE (iree_call)."""
    import gather_mlir as g
    result = np.asarray(getattr(g, op)(data, indices, **attrs))
    fields = [f"{name} = {attrs[name]} : i64"
              for name in ("axis", "batch_dims") if name in attrs]
    if "mode" in attrs:
        fields.append(f"mode = #gather<mode {attrs['mode']}>")
    attr_text = f" {{{{{', '.join(fields)}}}}}" if fields else ""
    return iree_call(np, f"%r = gather.{op} %a0[%a1]{attr_text} : "
                     "({}, {}) -> {}", [data, indices], result, threads)


def peer_functions(np, op, data, indices, attrs, wanted, threads):
    """The peers that implement the workload, as zero-argument functions.
    A peer without the gather's `mode` or `batch_dims` runs their composite:
    the indices wrapped or clamped first (the clamp workload's ids are not
    negative, so numpy's and JAX's "clip" is ours), a batch_dims=1 gather as
    gather_elements or GatherND over [b, k, 1] ids (data [b, n, w], ids
    [b, k], axis 1: the one batched workload)."""
    axis = attrs.get("axis", 0) % data.ndim
    mode = attrs.get("mode", "check")
    batched = attrs.get("batch_dims", 0) != 0
    assert not batched or (attrs["batch_dims"] == 1 and axis == 1 and
                           data.ndim == 3 and indices.ndim == 2)
    size = data.shape[axis]
    np_mode = {"check": "raise", "wrap": "wrap", "clamp": "clip"}[mode]
    peers = {}
    if "numpy" in wanted:
        if batched:
            peers["numpy"] = lambda: np.take_along_axis(
                data, indices[:, :, None], axis)
        elif op == "gather":
            peers["numpy"] = lambda: np.take(data, indices, axis=axis,
                                             mode=np_mode)
        elif op == "gather_elements":
            peers["numpy"] = lambda: np.take_along_axis(data, indices, axis)
        else:
            peers["numpy"] = lambda: data[tuple(indices.T)]
    torch_fn = None
    if {"torch", "torch.compile"} & set(wanted):
        import torch
        torch.set_num_threads(threads)
        td, ti = torch.from_numpy(data), torch.from_numpy(indices)
        if batched:
            def torch_fn(d, i):
                return torch.gather(d, 1, i[:, :, None].expand(
                    -1, -1, d.shape[2]))
        elif op == "gather":
            def torch_fn(d, i):
                if mode == "wrap":
                    i = torch.remainder(i, size)
                elif mode == "clamp":
                    i = i.clamp(max=size - 1)
                return torch.index_select(d, axis, i)
        elif op == "gather_elements":
            def torch_fn(d, i):
                return torch.gather(d, axis, i)
        else:
            def torch_fn(d, i):
                return d[i[:, 0], i[:, 1]]
        if "torch" in wanted:
            peers["torch"] = lambda: torch_fn(td, ti)
        if "torch.compile" in wanted:
            torch_compiled = torch.compile(torch_fn, dynamic=False)
            peers["torch.compile"] = lambda: torch_compiled(td, ti)
    if "jax" in wanted and data.dtype != np.float16:
        jax, jnp = import_jax()
        jd, ji = jnp.asarray(data), jnp.asarray(indices)
        if batched:
            jitted = jax.jit(
                lambda d, i: jnp.take_along_axis(d, i[:, :, None], axis))
        elif op == "gather" and mode == "clamp" and axis == 0:
            # JAX at its best: the ids capped first and read without take's
            # own clamp, its fastest form (docs/Benchmarks.md).
            jitted = jax.jit(lambda d, i: d.at[jnp.minimum(i, size - 1)].get(
                mode="promise_in_bounds"))
        elif op == "gather":
            jax_mode = {"check": None, "wrap": "wrap", "clamp": "clip"}[mode]
            jitted = jax.jit(
                lambda d, i: jnp.take(d, i, axis=axis, mode=jax_mode))
        elif op == "gather_elements":
            jitted = jax.jit(lambda d, i: jnp.take_along_axis(d, i, axis))
        else:
            jitted = jax.jit(lambda d, i: d[i[:, 0], i[:, 1]])
        peers["jax"] = lambda: jitted(jd, ji).block_until_ready()
    onnx_op = {"gather": "Gather", "gather_elements": "GatherElements",
               "gather_nd": "GatherND"}[op]
    if "onnxruntime" in wanted and data.dtype == np.float32:
        import onnxruntime as ort
        from onnx import TensorProto, helper
        ids = indices.astype(np.int64)
        node_attrs = {} if op == "gather_nd" else {"axis": axis}
        nodes, initializers, gathered = [], [], "i"
        if batched:
            onnx_op, node_attrs, ids = "GatherND", {"batch_dims": 1}, \
                ids[:, :, None]
        elif mode != "check":
            # The wrapped or clamped indices first: Mod takes the divisor's
            # sign (fmod=0), Min caps them.
            initializers.append(helper.make_tensor(
                "n", TensorProto.INT64, [],
                [size if mode == "wrap" else size - 1]))
            nodes.append(helper.make_node(
                "Mod" if mode == "wrap" else "Min", ["i", "n"], ["j"]))
            gathered = "j"
        nodes.append(helper.make_node(onnx_op, ["d", gathered], ["o"],
                                      **node_attrs))
        graph = helper.make_graph(
            nodes, "g",
            [helper.make_tensor_value_info("d", TensorProto.FLOAT, data.shape),
             helper.make_tensor_value_info("i", TensorProto.INT64,
                                           ids.shape)],
            [helper.make_tensor_value_info("o", TensorProto.FLOAT, None)],
            initializer=initializers)
        model = helper.make_model(graph,
                                  opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        options = ort_options(ort, threads)
        session = ort.InferenceSession(model.SerializeToString(), options,
                                       providers=["CPUExecutionProvider"])
        feeds = {"d": data, "i": ids}
        peers["onnxruntime"] = lambda: session.run(None, feeds)[0]
    if "openvino" in wanted and data.dtype == np.float32:
        import openvino as ov
        import openvino.opset8 as ops8
        from openvino import opset6
        pd = ops8.parameter(data.shape, np.float32)
        pi = ops8.parameter(indices.shape, np.int64)
        ids = pi
        if mode == "wrap":
            ids = ops8.floor_mod(pi, np.int64(size))
        elif mode == "clamp":
            ids = ops8.minimum(pi, np.int64(size - 1))
        node = (ops8.gather(pd, ids, np.int64(axis),
                            batch_dims=1 if batched else 0)
                if op == "gather" else
                opset6.gather_elements(pd, pi, axis) if op == "gather_elements"
                else ops8.gather_nd(pd, pi))
        ov_model = ov.Core().compile_model(
            ov.Model([node], [pd, pi]), "CPU",
            {"INFERENCE_NUM_THREADS": threads, "NUM_STREAMS": 1})
        request = ov_model.create_infer_request()
        ids64 = indices.astype(np.int64)
        peers["openvino"] = lambda: request.infer({0: data, 1: ids64})[0]
    if "iree" in wanted:
        fn = iree_function(np, op, data, indices, attrs, threads)
        if fn is not None:
            peers["iree"] = fn
    if "numba" in wanted:
        fn = numba_function(np, op, data, indices, attrs, threads)
        if fn is not None:
            peers["numba"] = fn
    return peers


def numba_function(np, op, data, indices, attrs, threads):
    """The workload as a numba loop nest (None where no loop below fits it,
    or without numba): the outer loop a `prange` compiled with
    `parallel=True` on more than one thread. The loops read the ids as they
    are, with no bounds check (each result is compared with gather_mlir's);
    wrap takes `%` (Python's modulo, as numba's) and clamp `min` (the
    clamp workload's ids are not negative). float16 data is left out:
    numba has no float16 scalars."""
    try:
        import numba
    except ImportError:
        return None
    if data.dtype == np.float16:
        return None
    mode = {"check": 0, "wrap": 1, "clamp": 2}[attrs.get("mode", "check")]
    jit = numba.njit(parallel=threads > 1, cache=False)
    prange = numba.prange

    def calling(loop, shape, *operands, view=None):
        """A call of `loop` on `operands` and a new result of `shape`
        (passed reshaped to `view`, if given), returning that result."""
        def call():
            o = np.empty(shape, data.dtype)
            loop(*operands, o.reshape(view or shape))
            return o
        return call

    @numba.njit(inline="always")
    def fix(i, n):  # `mode` is a constant in the compiled loops
        if mode == 1:
            return i % n
        if mode == 2:
            return min(i, n - 1)
        return i

    if op == "gather" and attrs.get("batch_dims", 0):
        # data [b, n, w], ids [b, k] (peer_functions asserts the form).
        @jit
        def batched(d, ids, o):
            for b in prange(ids.shape[0]):
                for k in range(ids.shape[1]):
                    i = fix(ids[b, k], d.shape[1])
                    for w in range(d.shape[2]):
                        o[b, k, w] = d[b, i, w]
        return calling(batched, indices.shape + data.shape[2:], data,
                       indices)
    if op == "gather":
        # data as [outer, n, inner], ids as a vector: threads over the ids
        # when there is one outer slice, else over the slices.
        axis = attrs.get("axis", 0) % data.ndim
        outer = int(np.prod(data.shape[:axis]))
        inner = int(np.prod(data.shape[axis + 1:]))
        d3 = data.reshape(outer, data.shape[axis], inner)
        ids = indices.reshape(-1)

        @jit
        def take(d, ids, o):
            n = d.shape[1]
            if d.shape[0] == 1:
                for k in prange(ids.shape[0]):
                    i = fix(ids[k], n)
                    for w in range(d.shape[2]):
                        o[0, k, w] = d[0, i, w]
            else:
                for a in prange(d.shape[0]):
                    for k in range(ids.shape[0]):
                        i = fix(ids[k], n)
                        for w in range(d.shape[2]):
                            o[a, k, w] = d[a, i, w]

        shape = data.shape[:axis] + indices.shape + data.shape[axis + 1:]
        return calling(take, shape, d3, ids,
                       view=(outer, ids.shape[0], inner))
    if op == "gather_elements" and attrs.get("axis", 0) % data.ndim == \
            data.ndim - 1 and indices.shape[:-1] == data.shape[:-1]:
        d2 = data.reshape(-1, data.shape[-1])
        i2 = indices.reshape(-1, indices.shape[-1])

        @jit
        def elements(d, ids, o):
            for r in prange(ids.shape[0]):
                for c in range(ids.shape[1]):
                    o[r, c] = d[r, fix(ids[r, c], d.shape[1])]

        return calling(elements, indices.shape, d2, i2, view=i2.shape)
    if op == "gather_nd" and not attrs.get("batch_dims", 0) and \
            data.ndim == 3 and indices.ndim == 2 and indices.shape[1] == 2:
        @jit
        def pairs(d, ids, o):
            for k in prange(ids.shape[0]):
                a = fix(ids[k, 0], d.shape[0])
                b = fix(ids[k, 1], d.shape[1])
                for w in range(d.shape[2]):
                    o[k, w] = d[a, b, w]
        return calling(pairs, indices.shape[:1] + data.shape[2:], data,
                       indices)
    return None


def host_description():
    """What the package compiles its kernels for here: LLVM's name of the
    CPU and the vector width."""
    from gather_mlir import _native
    return (f"LLVM host CPU {_native.host_cpu()}, "
            f"{_native.host_vector_bits()}-bit vectors")


def source_revision():
    """The commit of the source tree the script runs from ("modified" when
    its tracked files differ from it), or "at an unknown commit"."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        rev = subprocess.run(["git", "-C", root, "rev-parse", "--short",
                              "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "diff", "--quiet",
                                "HEAD"]).returncode != 0
    except (OSError, subprocess.CalledProcessError):
        return "at an unknown commit"
    return f"at {rev}" + (", modified" if dirty else "")


def calls_per_sample(fn, seconds=0.02, tries=5):
    """How many calls of `fn` take about `seconds`, from the fastest of
    `tries` calls. A sample times them together: reading the clock after
    every call was a large part of a tiny call's time. From one call, an
    outlier made the samples too short to time (docs/Benchmarks.md)."""
    once = float("inf")
    for _ in range(tries):
        t0 = time.perf_counter()
        fn()
        once = min(once, time.perf_counter() - t0)
    return max(1, int(seconds / max(once, 1e-7)))


def measure(args):
    """One process, one thread count: every case, every contestant."""
    configure_threads(args.threads)
    import numpy as np
    import gather_mlir as g
    from gather_mlir import _native
    wanted = args.peers.split(",")
    rounds = 5 if args.quick else 15
    rows = []
    for name, op, data, indices, attrs in specs(np, args.quick):
        if args.cases and not any(c in name for c in args.cases.split("|")):
            continue
        if op == "dequantize":
            ours, peers = dequantize_contestants(
                np, data, indices, attrs["scale"], wanted, args.threads)
        elif op == "embedding_bag":
            ours, peers = bag_contestants(np, data, indices, attrs, wanted,
                                          args.threads)
        elif op == "embedding_bag_rowwise":
            ours, peers = rowwise_bag_contestants(np, data, indices, attrs,
                                                  wanted, args.threads)
        elif op == "gather_block_quantized":
            ours, peers = block_quantized_contestants(
                np, data, indices, attrs, wanted, args.threads)
        elif op == "train_step":
            ours, peers = training_contestants(np, data, indices, attrs,
                                               wanted, args.threads)
        elif op == "bag_backward":
            ours, peers = bag_backward_contestants(np, data, indices, attrs,
                                                   wanted, args.threads)
        elif op.startswith("scatter"):
            ours, peers = scatter_contestants(np, op, data, indices, attrs,
                                              wanted, args.threads)
        else:
            # One lambda around the call, as every peer has.
            call = functools.partial(getattr(g, op), **attrs)
            ours = lambda: call(data, indices)
            peers = peer_functions(np, op, data, indices, attrs, wanted,
                                   args.threads)
        expected = np.asarray(ours())
        contestants = {"gather_mlir": ours}
        for peer, fn in peers.items():
            result = fn()
            # Reductions add in other orders: equal to rounding.
            inexact = op in ("embedding_bag", "embedding_bag_rowwise",
                             "gather_block_quantized", "train_step",
                             "bag_backward") or (
                op.startswith("scatter") and peer in ("torch",
                                                      "torch.compile", "jax"))
            same = np.allclose if inexact else np.array_equal
            # Sums of many terms in another order (a peer's threads adding
            # in any order) differ in proportion to their largest values.
            scale = max(1.0, float(np.abs(expected).max())) if (
                inexact and expected.size) else 1.0
            if result is not None and not same(
                    np.asarray(result).reshape(expected.shape), expected,
                    **({"rtol": 1e-4, "atol": 1e-4 * scale} if inexact
                       else {})):
                raise SystemExit(f"{name}: {peer} disagrees")
            contestants[peer] = fn
        copy_src = np.ones(expected.nbytes, np.uint8)
        copy_dst = np.empty_like(copy_src)
        contestants["copy"] = lambda: np.copyto(copy_dst, copy_src)
        limit = memory_limit.nt_copy(copy_dst, copy_src, args.threads)
        if limit:
            contestants["nt copy"] = limit
        # Warm-up: gather_mlir's first calls of a class compile, then
        # measure the candidates of its measured choices.
        for fn in contestants.values():
            for _ in range(_native.MEASURED_BY_CALL):
                fn()
        number = {c: calls_per_sample(fn) for c, fn in contestants.items()}
        times = {c: [] for c in contestants}
        cores = {c: [] for c in contestants}
        order = list(contestants)
        for _ in range(rounds):
            random.shuffle(order)
            for c in order:
                fn, n = contestants[c], number[c]
                time.sleep(PAUSE)
                c0, t0 = time.process_time(), time.perf_counter()
                for _ in range(n):
                    fn()
                wall = time.perf_counter() - t0
                times[c].append(wall / n)
                cores[c].append((time.process_time() - c0) / wall)
        rows.append({"case": name,
                     "times": {c: statistics.median(t) for c, t in times.items()},
                     "cores": {c: statistics.median(u) for c, u in cores.items()}})
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    json.dump(rows, sys.stdout)


def best_peer(times):
    """The best peer's time (gather_mlir's own variants are not peers), or
    None when no peer ran."""
    peers = [t for c, t in times.items()
             if c not in BASELINES and not c.startswith("gather_mlir")]
    return min(peers) if peers else None


def table(title, rows, peers):
    """Times, ratios and, where measured (a table of one thread count), the
    cores each contestant kept busy: CPU time / wall time of its samples
    (the process's CPU time, all threads: a runtime's spinning workers
    count too), after the time as `@1.9`."""
    lines = [f"### {title}", "",
             "| case | gather_mlir | " + " | ".join(peers) +
             " | ratio to best peer | copy / gather_mlir |"
             " nt copy / gather_mlir |",
             "|---|---|" + "---|" * len(peers) + "---|---|---|"]

    def cell(r, c):
        if c not in r["times"]:
            return "-"
        text = f"{r['times'][c] * 1e6:.1f}"
        if "cores" in r:
            text += f" @{r['cores'][c]:.1f}"
        return text
    for r in rows:
        t = r["times"]
        best = best_peer(t) or float("nan")
        lines.append(f"| {r['case']} | {cell(r, 'gather_mlir')} | "
                     + " | ".join(cell(r, p) for p in peers)
                     + f" | {best / t['gather_mlir']:.2f}x | "
                     + " | ".join(f"{t[c] / t['gather_mlir']:.2f}"
                                  if c in t else "-" for c in BASELINES)
                     + " |")
    note = "Times in microseconds (medians)"
    if rows and "cores" in rows[0]:
        note += "; after @, the cores the contestant kept busy (median)"
    return "\n".join(lines) + f"\n\n{note}.\n"


def chart(path, title, tables):
    """Grouped bars: per case, best peer / gather_mlir for each table
    (thread counts, and each contestant at its best)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no chart")
        return
    cases = [r["case"] for r in next(iter(tables.values()))][::-1]
    fig, ax = plt.subplots(figsize=(11, 0.45 * len(cases) * len(tables) / 2
                                    + 1.8))
    height = 0.8 / len(tables)
    for k, (label, rows) in enumerate(tables.items()):
        ratios = []
        for r in rows[::-1]:
            best = best_peer(r["times"])
            ratios.append(best / r["times"]["gather_mlir"] if best else 0)
        ax.barh([i + k * height for i in range(len(cases))], ratios,
                height=height, label=label)
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(cases))], cases,
                  fontsize=7)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.axvline(1.5, color="gray", linestyle="--", linewidth=0.8)
    ax.set_xlabel("best peer time / gather_mlir time (higher is better)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def cpu_times():
    """The machine's CPU time counters (/proc/stat's first line), or None."""
    try:
        with open("/proc/stat") as f:
            return [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def steal_share(before, after):
    """The share of CPU time stolen by the hypervisor between two
    cpu_times() (steal is the eighth counter; a time a thread could not run
    because its virtual CPU did not: on a shared VM, threads then run
    slower, and a second thread's work may wait), or None."""
    if not before or not after or len(after) < 8:
        return None
    delta = [a - b for a, b in zip(after, before)]
    total = sum(delta[:8])
    return delta[7] / total if total > 0 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cases", default="")
    parser.add_argument("--peers", default=",".join(PEERS))
    parser.add_argument("--threads", type=int, default=0,
                        help="(internal) measure in this process with N threads")
    parser.add_argument("--out", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "results"))
    args = parser.parse_args()
    if args.threads:
        return measure(args)

    counts = sorted({1, os.cpu_count() or 1})
    runs, stolen = {}, {}
    for n in counts:
        cmd = [sys.executable, __file__, "--threads", str(n), "--cases",
               args.cases, "--peers", args.peers] + (["--quick"] if args.quick else [])
        print(f"== {n} thread(s)", flush=True)
        before = cpu_times()
        done = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True)
        stolen[n] = steal_share(before, cpu_times())
        runs[n] = json.loads(done.stdout)
    peers = args.peers.split(",") + ["gather_mlir unfused"]
    md = [f"# gather_mlir against its peers, {datetime.date.today()}", "",
          f"`{os.path.basename(sys.executable)} bench/peers.py"
          + (" --quick" if args.quick else "") + "`", ""]
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f
                       if l.startswith("model name"))
    except (OSError, StopIteration):
        cpu = "unknown CPU"
    md += [f"CPU: {cpu} ({host_description()}), {os.cpu_count()} cores; "
           f"gather_mlir {source_revision()}.", ""]
    if any(v is not None for v in stolen.values()):
        md += ["CPU time the hypervisor gave other guests (steal) during the "
               "run: " + ", ".join(
                   f"{100 * v:.1f}% at {n} thread(s)"
                   for n, v in stolen.items() if v is not None) + ".", ""]
    tables = {}
    for n in counts:
        md.append(table(f"{n} thread(s) for every contestant", runs[n], peers))
        tables[f"{n} thread(s) each"] = runs[n]
    # Each contestant at its best thread count.
    best_rows = []
    for i, r in enumerate(runs[counts[0]]):
        times = {}
        for c in r["times"]:
            times[c] = min(runs[n][i]["times"].get(c, float("inf"))
                           for n in counts)
        best_rows.append({"case": r["case"], "times": times})
    md.append(table("every contestant at its best thread count", best_rows,
                    peers))
    tables["each at its best thread count"] = best_rows
    os.makedirs(args.out, exist_ok=True)
    from gather_mlir import _native
    partial = args.quick or args.cases or args.peers != ",".join(PEERS)
    stem = f"peers-{_native.host_cpu()}" + ("-partial" if partial else "")
    md.append(f"![ratios]({stem}.png)\n")
    text = "\n".join(md)
    print(text)
    with open(os.path.join(args.out, stem + ".md"), "w") as f:
        f.write(text)
    chart(os.path.join(args.out, stem + ".png"),
          f"gather_mlir vs its peers ({cpu}, {os.cpu_count()} cores; threads "
          f"{', '.join(map(str, counts))})", tables)


if __name__ == "__main__":
    main()
