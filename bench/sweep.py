"""gather_mlir against its peers on a seeded sweep of workloads no one tuned
for: the distribution of the ratios, not a list of rows.

    build/venv/bin/python bench/sweep.py [--seed N] [--count K]
        [--threads 1,2] [--peers numpy,torch,jax,onnxruntime,numba]
        [--out DIR]

A seed draws --count workloads across the ops (gather along any axis,
gather_elements, gather_nd, add scatters, embedding bags), ranks 1-4,
element types (f32, f16, f64, i8, i32), index types (i32, i64, u32),
index distributions (uniform, Zipf, sorted, repeated, some out of range
under clamp, wrap or fill), modes, with and without out=, and sizes from a
few KiB to several times the last-level cache. The peers: numpy, torch,
JAX, ONNX Runtime (Gather, GatherElements, GatherND) and numba (a loop
nest), and torch.compile when --peers names it (a compile of seconds for
each workload). Every contestant does the mode's work: in check mode, JAX
(which never raises) tests the indices and the call raises on a bad one,
as the others' do. For each thread count, in a fresh process pinned to
that many CPUs, every peer's result is compared with gather_mlir's, then
the contestants are timed in shuffled rounds (the median of each one's
round times), each sample after peers.py's pause, so that the workers of
the contestant before it are asleep. A peer that has no form of a
workload (JAX and float16, numpy and the modes it lacks) sits it out.

Printed and written to DIR/sweep-<host>-seed<N>.md (DIR: bench/results),
every workload's times to DIR/sweep-<host>-seed<N>.jsonl:
per thread count, the geometric mean of the ratio best peer / gather_mlir,
its 5th percentile, the share of workloads below 0.9 and 1.0, and the ten
worst with their shapes. Tune on one seed, report on another: the report
seed measures what generalizes. Nothing is asserted.
"""

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers import (PAUSE, configure_threads,  # noqa: E402
                   host_description, import_jax, source_revision)

ROOT = Path(__file__).resolve().parents[1]
PEERS = ["numpy", "torch", "jax", "onnxruntime", "numba"]
MODES = ["check", "clamp", "wrap", "fill", "unchecked"]
ROUNDS = 7
SAMPLE_SECONDS = 0.02


def workloads(np, seed, count):
    """The seed's workloads: (name, op, arrays, attributes)."""
    rng = np.random.default_rng(seed)
    dtypes = [np.float32, np.float32, np.float16, np.float64, np.int8,
              np.int32]
    index_types = [np.int64, np.int64, np.int32, np.uint32]
    out = []
    while len(out) < count:
        op = rng.choice(["gather", "gather", "gather_elements", "gather_nd",
                         "scatter", "scatter_elements", "embedding_bag"])
        # The data's bytes, log-uniform from 16 KiB to 256 MiB.
        total = int(2 ** rng.uniform(14, 28))
        dtype = np.dtype(dtypes[rng.integers(len(dtypes))])
        if op == "embedding_bag":
            dtype = np.dtype([np.float32, np.float16, np.float64][
                rng.integers(3)])
        if op.startswith("scatter") and dtype == np.int8:
            dtype = np.dtype(np.float32)
        rank = int(rng.integers(1, 5)) if op != "embedding_bag" else 2
        op = str(op)
        if op == "gather_nd":
            rank = max(rank, 2)
        elements = max(1, total // dtype.itemsize)
        # Ops with an index per element: at most 16M of them.
        if op in ("gather_elements", "scatter_elements"):
            elements = min(elements, 1 << 24)
        # Sizes: a random split of the elements over the dims.
        weights = rng.dirichlet(np.ones(rank))
        shape = [max(1, int(round(elements ** w))) for w in weights]
        if op == "embedding_bag":
            # DLRM's and LLMs' widths: 4-1024, some not a power of two.
            dim = int(2 ** rng.integers(2, 11)) + int(rng.integers(0, 2)) * \
                int(rng.integers(1, 8))
            shape = [max(1, elements // dim), dim]
        axis = int(rng.integers(rank))
        index_type = np.dtype(index_types[rng.integers(len(index_types))])
        distribution = str(rng.choice(["uniform", "zipf", "sorted",
                                       "repeated", "out of range"]))
        mode = "check"
        if distribution == "out of range":
            mode = str(rng.choice(["clamp", "wrap", "fill"]))
        elif rng.random() < 0.3:
            mode = str(rng.choice(["clamp", "wrap", "unchecked"]))
        if index_type == np.uint32 and mode == "wrap":
            mode = "clamp"

        def ids(size, n):
            if distribution == "zipf":
                v = (rng.zipf(1.2, n) - 1) % size
            elif distribution == "repeated":
                v = rng.integers(0, min(size, 8), n)
            else:
                v = rng.integers(0, size, n)
            if distribution == "sorted":
                v = np.sort(v)
            if distribution == "out of range":
                bad = rng.random(n) < 0.05
                v = np.where(bad, v + size * int(rng.integers(1, 3)), v)
                if index_type != np.uint32:
                    v = np.where(bad & (rng.random(n) < 0.5), -v - 1, v)
            return v.astype(index_type)

        if dtype.kind == "f":
            data = rng.standard_normal(shape).astype(dtype)
        else:
            data = rng.integers(-100, 100, shape).astype(dtype)
        attrs = {"mode": mode}
        name_shape = "x".join(map(str, shape))
        # Results of at most 32M elements.
        per_index = max(1, int(np.prod(shape)) // shape[axis])
        most = max(1, min(1 << 20, (1 << 25) // per_index))
        if op == "gather":
            n = max(1, int(rng.integers(1, max(2, shape[axis] * 2))))
            indices = ids(shape[axis], min(n, most))
            attrs["axis"] = axis
            name = f"gather {name_shape} {dtype.name} axis {axis}, " \
                   f"{indices.size} {index_type.name} ids"
        elif op == "gather_elements":
            indices = ids(shape[axis], int(np.prod(shape)))
            indices = indices.reshape(shape)
            attrs["axis"] = axis
            name = f"gather_elements {name_shape} {dtype.name} axis {axis}, " \
                   f"{index_type.name} ids"
        elif op == "gather_nd":
            k = int(rng.integers(1, min(rank, 2) + 1))
            slice_size = max(1, int(np.prod(shape[k:])))
            n = int(rng.integers(1, max(2, min(1 << 16,
                                                (1 << 25) // slice_size))))
            indices = np.stack([ids(shape[d], n) for d in range(k)], axis=1)
            name = f"gather_nd {name_shape} {dtype.name}, {n}x{k} " \
                   f"{index_type.name} ids"
        elif op == "scatter":
            n = max(1, int(rng.integers(1, max(2, shape[axis] * 2))))
            indices = ids(shape[axis], min(n, most))
            slice_shape = shape[:axis] + [indices.size] + shape[axis + 1:]
            attrs["axis"] = axis
            attrs["updates"] = rng.standard_normal(slice_shape).astype(dtype)
            name = f"scatter add {name_shape} {dtype.name} axis {axis}, " \
                   f"{indices.size} {index_type.name} ids"
        elif op == "scatter_elements":
            indices = ids(shape[axis], int(np.prod(shape))).reshape(shape)
            attrs["axis"] = axis
            attrs["updates"] = rng.standard_normal(shape).astype(dtype)
            name = f"scatter_elements add {name_shape} {dtype.name} axis " \
                   f"{axis}, {index_type.name} ids"
        else:
            bags = int(rng.integers(1, 4096))
            lengths = rng.integers(1, 100, bags)
            indices = ids(shape[0], int(lengths.sum()))
            attrs["offsets"] = np.concatenate(
                [[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
            attrs["reduction"] = str(rng.choice(["sum", "mean", "max"]))
            name = f"embedding_bag {attrs['reduction']} {name_shape} " \
                   f"{dtype.name}, {bags} bags of 1-99 {index_type.name} ids"
        if mode in ("fill", "unchecked", "wrap") and op == "embedding_bag":
            attrs["mode"] = mode = "clamp"
        if mode == "unchecked" and distribution == "out of range":
            continue
        if op != "embedding_bag" and not op.startswith("scatter") and \
                rng.random() < 0.3:
            attrs["out"] = True
            name += ", out="
        if mode != "check":
            name += f", {mode}"
        out.append((name + f" ({distribution})", op, data, indices, attrs))
    return out


def contestants(np, op, data, indices, attrs, wanted, threads):
    """gather_mlir's call and each peer's, as zero-argument functions."""
    import gather_mlir as g
    mode = attrs["mode"]
    axis = attrs.get("axis", 0)
    if op in ("gather", "gather_elements", "gather_nd"):
        kwargs = {"mode": mode}
        if op != "gather_nd":
            kwargs["axis"] = axis
        fn = getattr(g, op)
        if attrs.get("out"):
            result = fn(data, indices, **kwargs)
            buffer = np.empty_like(result)
            ours = lambda: fn(data, indices, out=buffer, **kwargs)  # noqa
        else:
            ours = lambda: fn(data, indices, **kwargs)  # noqa
    elif op.startswith("scatter"):
        updates = attrs["updates"]
        ours = lambda: getattr(g, op)(data, indices, updates, axis=axis,  # noqa
                                      mode=mode, reduction="add")
    else:
        ours = lambda: g.embedding_bag(  # noqa
            indices, data, attrs["offsets"], mode=attrs["reduction"],
            oob_mode=mode)
    peers = {}
    # The indices each peer reads: the mode applied first where it lacks it
    # (part of its time: a peer does that work too).
    if op == "gather_nd":
        size = [data.shape[d] for d in range(indices.shape[1])]
    elif op == "embedding_bag":
        size = data.shape[0]
    else:
        size = data.shape[axis]

    def prepared(xp_indices, xp):
        if op == "gather_nd":
            cols = [normalized_xp(xp, xp_indices[:, d], size[d], mode)
                    for d in range(indices.shape[1])]
            return [c[0] for c in cols], [c[1] for c in cols]
        i, valid = normalized_xp(xp, xp_indices, size, mode)
        return i, valid

    if "numpy" in wanted:
        peers["numpy"] = numpy_peer(np, op, data, indices, attrs, prepared)
    if "torch" in wanted:
        import torch
        torch.set_num_threads(threads)
        peers["torch"] = torch_peer(np, torch, op, data, indices, attrs,
                                    prepared)
    def all_in_range(xp_indices, xp):
        """check mode's test: every index in [-size, size)."""
        if op != "gather_nd":
            return in_range(xp, xp_indices, size).all()
        return xp.stack([in_range(xp, xp_indices[:, d], size[d]).all()
                         for d in range(indices.shape[1])]).all()

    if "torch.compile" in wanted and "torch" in peers:
        peers["torch.compile"] = torch_peer(np, torch, op, data, indices,
                                            attrs, prepared, compiled=True)
    if "jax" in wanted and data.dtype != np.float16:
        peers["jax"] = jax_peer(np, op, data, indices, attrs, prepared,
                                all_in_range)
    if "onnxruntime" in wanted:
        peers["onnxruntime"] = ort_peer(np, op, data, indices, attrs, size,
                                        threads)
    if "numba" in wanted:
        peers["numba"] = numba_peer(np, op, data, indices, attrs, threads)
    return ours, {k: v for k, v in peers.items() if v is not None}


def normalized_xp(xp, i, size, mode):
    """The indices as `mode` reads them along a dim of `size` (int64), and
    which are in range (fill), in numpy, torch or jax.numpy (`xp`)."""
    i = i.astype(xp.int64) if hasattr(i, "astype") else i.to(xp.int64)
    if mode == "wrap":
        return i % size, None
    valid = None
    if mode == "fill":
        valid = (i >= -size) & (i < size)
    i = xp.where(i < 0, i + size, i)
    return xp.clip(i, 0, size - 1), valid


def in_range(xp, i, size):
    """Which indices `i` name a position along a dim of `size`, negative
    ones counted from the end."""
    ok = i < size
    return ok if i.dtype.kind == "u" else ok & (i >= -size)


def masked(xp, result, valid, axis):
    """fill's zeros where `valid` is false, along `axis` of the result."""
    if valid is None:
        return result
    shape = [1] * result.ndim
    if valid.ndim == result.ndim:
        return xp.where(valid, result, 0)
    shape[axis:axis + valid.ndim] = list(valid.shape)
    return xp.where(valid.reshape(shape), result, 0)


def gathered_nd(xp, d, cols, valids):
    """gather_nd by advanced indexing on columns `cols`, zero where a
    column is out of range (fill: `valids`)."""
    result = d[tuple(cols)]
    if valids[0] is None:
        return result
    ok = valids[0]
    for v in valids[1:]:
        ok = ok & v
    return masked(xp, result, ok, 0)


def numpy_peer(np, op, data, indices, attrs, prepared):
    axis = attrs.get("axis", 0)
    if op == "gather":
        def fn():
            i, valid = prepared(indices, np)
            return masked(np, np.take(data, i, axis=axis), valid, axis)
    elif op == "gather_elements":
        def fn():
            i, valid = prepared(indices, np)
            return masked(np, np.take_along_axis(data, i, axis), valid, axis)
    elif op == "gather_nd":
        def fn():
            return gathered_nd(np, data, *prepared(indices, np))
    elif op == "scatter":
        updates = attrs["updates"]

        def fn():
            i, valid = prepared(indices, np)
            u = updates if valid is None else masked(np, updates, valid, axis)
            result = data.copy()
            np.add.at(result, (slice(None),) * axis + (i,), u)
            return result
    elif op == "scatter_elements":
        updates = attrs["updates"]

        def fn():
            i, valid = prepared(indices, np)
            u = updates if valid is None else np.where(valid, updates, 0)
            grid = list(np.indices(indices.shape, sparse=True))
            grid[axis] = i
            result = data.copy()
            np.add.at(result, tuple(grid), u)
            return result
    else:
        return None
    return fn


def torch_peer(np, torch, op, data, indices, attrs, prepared,
               compiled=False):
    """torch's form of the workload; with `compiled`, the same under
    torch.compile (dynamic=False: one graph for this shape)."""
    if compiled:
        eager = torch_peer(np, torch, op, data, indices, attrs, prepared)
        return None if eager is None else torch.compile(eager, dynamic=False)
    axis = attrs.get("axis", 0)
    if data.dtype == np.float16 and op.startswith("scatter"):
        return None
    td = torch.from_numpy(data)
    ti = torch.from_numpy(indices.astype(np.int64)
                          if indices.dtype == np.uint32 else indices)
    if op == "gather":
        def fn():
            i, valid = prepared(ti, torch)
            result = torch.index_select(td, axis, i.reshape(-1)).reshape(
                data.shape[:axis] + indices.shape + data.shape[axis + 1:])
            return masked(torch, result, valid, axis)
    elif op == "gather_elements":
        def fn():
            i, valid = prepared(ti, torch)
            return masked(torch, torch.gather(td, axis, i), valid, axis)
    elif op == "gather_nd":
        def fn():
            return gathered_nd(torch, td, *prepared(ti, torch))
    elif op == "scatter":
        tu = torch.from_numpy(attrs["updates"])

        def fn():
            i, valid = prepared(ti, torch)
            u = tu if valid is None else masked(torch, tu, valid, axis)
            return torch.index_add(td, axis, i.reshape(-1), u)
    elif op == "scatter_elements":
        tu = torch.from_numpy(attrs["updates"])

        def fn():
            i, valid = prepared(ti, torch)
            u = tu if valid is None else torch.where(valid, tu, 0)
            return torch.scatter_add(td, axis, i, u)
    else:
        offsets = torch.from_numpy(attrs["offsets"])

        def fn():
            i, _ = prepared(ti, torch)
            return torch.nn.functional.embedding_bag(
                i, td, offsets, mode=attrs["reduction"])
    return fn


def ort_peer(np, op, data, indices, attrs, size, threads):
    """ONNX Runtime's Gather, GatherElements or GatherND, the mode's work
    in the graph before it (check: ONNX Runtime's own error on a bad index;
    fill: the positions in range, and zeros where a position is not). None
    for the scatters and bags, and for gather_nd outside check and
    unchecked (its columns have sizes of their own)."""
    import onnxruntime as ort
    from onnx import TensorProto, helper
    from peers import ort_options
    mode = attrs["mode"]
    if op not in ("gather", "gather_elements", "gather_nd") or (
            op == "gather_nd" and mode not in ("check", "unchecked")):
        return None
    axis = attrs.get("axis", 0)
    element = helper.np_dtype_to_tensor_dtype(data.dtype)
    nodes, constants, ids = [], [], "i"

    def constant(name, value):
        constants.append(helper.make_tensor(name, TensorProto.INT64, [],
                                            [value]))

    def node(kind, inputs, output, **kwargs):
        nodes.append(helper.make_node(kind, inputs, [output], **kwargs))

    if mode in ("clamp", "fill", "wrap"):
        constant("n", size)
    if mode in ("clamp", "fill"):
        constant("zero", 0)
        constant("last", size - 1)
    if mode == "wrap":
        node("Mod", ["i", "n"], "j")
        ids = "j"
    elif mode in ("clamp", "fill"):
        node("Less", ["i", "zero"], "negative")
        node("Add", ["i", "n"], "shifted")
        node("Where", ["negative", "shifted", "i"], "normal")
        node("Clip", ["normal", "zero", "last"], "j")
        ids = "j"
    gather = {"gather": "Gather", "gather_elements": "GatherElements",
              "gather_nd": "GatherND"}[op]
    node(gather, ["d", ids], "gathered",
         **({} if op == "gather_nd" else {"axis": axis}))
    result = "gathered"
    if mode == "fill":
        node("GreaterOrEqual", ["normal", "zero"], "above")
        node("Less", ["normal", "n"], "below")
        node("And", ["above", "below"], "valid")
        if op == "gather":
            shape = [1] * axis + list(indices.shape) + \
                [1] * (data.ndim - axis - 1)
            constants.append(helper.make_tensor(
                "mask_shape", TensorProto.INT64, [len(shape)], shape))
            node("Reshape", ["valid", "mask_shape"], "mask")
        else:
            node("Identity", ["valid"], "mask")
        nodes.append(helper.make_node("CastLike", ["zero", "gathered"],
                                      ["zeros"]))
        node("Where", ["mask", "gathered", "zeros"], "o")
        result = "o"
    graph = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info("d", element, data.shape),
         helper.make_tensor_value_info("i", TensorProto.INT64,
                                       indices.shape)],
        [helper.make_tensor_value_info(result, element, None)],
        initializer=constants)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 15)])
    model.ir_version = 8
    session = ort.InferenceSession(model.SerializeToString(),
                                   ort_options(ort, threads),
                                   providers=["CPUExecutionProvider"])
    feeds = {"d": data, "i": indices.astype(np.int64)}
    return lambda: session.run(None, feeds)[0]


def numba_peer(np, op, data, indices, attrs, threads):
    """A numba loop nest over data viewed as (outer, axis, inner), the
    mode's work inline (check raises IndexError), the outer loop a `prange`
    on more than one thread. None for float16 (numba has no float16
    scalars), gather_nd, the scatters and bags, and gather_elements whose
    indices are shorter than data off the axis."""
    import numba
    axis = attrs.get("axis", 0)
    if data.dtype == np.float16 or op not in ("gather", "gather_elements"):
        return None
    if op == "gather_elements" and any(
            indices.shape[d] != data.shape[d] for d in range(data.ndim)
            if d != axis):
        return None
    mode = MODES.index(attrs["mode"])
    check, clamp, wrap, fill = (MODES.index(m)
                                for m in ("check", "clamp", "wrap", "fill"))
    outer = int(np.prod(data.shape[:axis], dtype=np.int64))
    inner = int(np.prod(data.shape[axis + 1:], dtype=np.int64))
    d3 = data.reshape(outer, data.shape[axis], inner)
    jit = numba.njit(parallel=threads > 1, boundscheck=False)

    @numba.njit(inline="always")
    def position(i, n):
        """The mode's position for index i, or -1 (fill: a zero)."""
        if mode == wrap:
            return i % n
        if i < 0:
            i += n
        if mode == clamp:
            return min(max(i, 0), n - 1)
        if i < 0 or i >= n:
            if mode == check:
                raise IndexError("index out of range")
            return -1
        return i

    if op == "gather":
        ids = indices.reshape(-1)
        shape = data.shape[:axis] + indices.shape + data.shape[axis + 1:]

        @jit
        def take(d, ids, o):
            for a in numba.prange(d.shape[0]):
                for k in range(ids.shape[0]):
                    i = position(ids[k], d.shape[1])
                    for w in range(d.shape[2]):
                        o[a, k, w] = d[a, i, w] if i >= 0 else 0

        def call():
            o = np.empty((outer, ids.size, inner), data.dtype)
            take(d3, ids, o)
            return o.reshape(shape)
        return call
    i3 = indices.reshape(outer, indices.shape[axis], inner)

    @jit
    def elements(d, ids, o):
        for a in numba.prange(ids.shape[0]):
            for k in range(ids.shape[1]):
                for w in range(ids.shape[2]):
                    i = position(ids[a, k, w], d.shape[1])
                    o[a, k, w] = d[a, i, w] if i >= 0 else 0

    def call():
        o = np.empty(i3.shape, data.dtype)
        elements(d3, i3, o)
        return o.reshape(indices.shape)
    return call


def jax_peer(np, op, data, indices, attrs, prepared, all_in_range):
    jax, jnp = import_jax()
    axis = attrs.get("axis", 0)
    jd, ji = jnp.asarray(data), jnp.asarray(indices)
    if op == "gather":
        def body(d, i):
            i, valid = prepared(i, jnp)
            # JAX at its best: the indices are in range by now, and read
            # without take's own clamp.
            return masked(jnp, d.at[(slice(None),) * axis + (i,)].get(
                mode="promise_in_bounds"), valid, axis)
    elif op == "gather_elements":
        def body(d, i):
            i, valid = prepared(i, jnp)
            return masked(jnp, jnp.take_along_axis(
                d, i, axis, mode="promise_in_bounds"), valid, axis)
    elif op == "gather_nd":
        def body(d, i):
            return gathered_nd(jnp, d, *prepared(i, jnp))
    elif op == "scatter":
        ju = jnp.asarray(attrs["updates"])

        def body(d, i):
            i, valid = prepared(i, jnp)
            u = ju if valid is None else masked(jnp, ju, valid, axis)
            return d.at[(slice(None),) * axis + (i,)].add(u)
    elif op == "scatter_elements":
        ju = jnp.asarray(attrs["updates"])

        def body(d, i):
            i, valid = prepared(i, jnp)
            u = ju if valid is None else jnp.where(valid, ju, 0)
            grid = list(jnp.indices(indices.shape, sparse=True))
            grid[axis] = i
            return d.at[tuple(grid)].add(u)
    else:
        return None
    if attrs["mode"] != "check":
        jitted = jax.jit(body)
        return lambda: jitted(jd, ji).block_until_ready()
    # check mode: JAX tests the indices as the others do, and the call
    # raises on a bad one.
    jitted = jax.jit(lambda d, i: (body(d, i), all_in_range(i, jnp)))

    def checked():
        result, ok = jitted(jd, ji)
        if not bool(ok):
            raise IndexError("index out of range")
        return result.block_until_ready()
    return checked


def measure(args):
    """One process, one thread count: every workload, every contestant."""
    configure_threads(args.threads)
    import numpy as np
    from gather_mlir import _native
    wanted = args.peers.split(",")
    for name, op, data, indices, attrs in workloads(np, args.seed,
                                                    args.count):
        try:
            ours, peers = contestants(np, op, data, indices, attrs, wanted,
                                      args.threads)
            expected = np.asarray(ours())
        except (ValueError, TypeError, IndexError) as error:
            print(json.dumps({"case": name, "skipped": str(error)}),
                  flush=True)
            continue
        times = {"gather_mlir": ours}
        disagreed = []
        exact = op.startswith("gather")
        for peer, fn in peers.items():
            try:
                result = np.asarray(fn())
            except Exception as error:  # a peer without this form
                print(f"{name}: {peer} cannot: {error}", file=sys.stderr)
                continue
            same = (np.array_equal(result, expected) if exact else
                    np.allclose(result.astype(np.float64),
                                expected.astype(np.float64),
                                rtol=2e-2, atol=2e-2))
            if not same:
                # Reported, not timed: a float16 np.add.at rounds each
                # add, where gather_mlir's scatter adds in float32.
                print(f"{name}: {peer} disagrees", file=sys.stderr)
                disagreed.append(peer)
                continue
            times[peer] = fn
        samples = {c: [] for c in times}
        number = {}
        for c, fn in times.items():
            # gather_mlir's first calls of a class compile the candidates
            # of its measured choices, one a call, then measure them.
            for _ in range(_native.MEASURED_BY_CALL):
                fn()
            t0 = time.perf_counter()
            fn()
            once = max(time.perf_counter() - t0, 1e-7)
            number[c] = max(1, int(SAMPLE_SECONDS / once))
        order = list(times)
        for _ in range(ROUNDS):
            random.shuffle(order)
            for c in order:
                time.sleep(PAUSE)
                t0 = time.perf_counter()
                for _ in range(number[c]):
                    times[c]()
                samples[c].append((time.perf_counter() - t0) / number[c])
        print(json.dumps({"case": name, "disagreed": disagreed, "times": {
            c: statistics.median(s) for c, s in samples.items()}}),
            flush=True)


def report(rows, threads):
    ratios = []
    for row in rows:
        times = row.get("times", {})
        peers = [t for c, t in times.items() if c != "gather_mlir"]
        if peers:
            ratios.append((min(peers) / times["gather_mlir"], row["case"]))
    if not ratios:
        return [f"### {threads} thread(s): no workload had a peer", ""]
    values = sorted(r for r, _ in ratios)
    geo = math.exp(statistics.fmean(math.log(r) for r in values))
    p5 = values[max(0, int(len(values) * 0.05) - 1)]
    lines = [f"### {threads} thread(s), {len(values)} workloads with a peer",
             "",
             f"geometric mean {geo:.2f}x the best peer; 5th percentile "
             f"{p5:.2f}x; below 0.9: {sum(v < 0.9 for v in values)}; below "
             f"1.0: {sum(v < 1.0 for v in values)}", "",
             "| worst ten | best peer / gather_mlir |", "|---|---|"]
    for ratio, name in sorted(ratios)[:10]:
        lines.append(f"| {name} | {ratio:.2f} |")
    return lines + [""]


def host_cpu():
    """LLVM's name of the host CPU, the results' file name."""
    from gather_mlir import _native
    return _native.host_cpu()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--threads", default=None)
    parser.add_argument("--peers", default=",".join(PEERS))
    parser.add_argument("--out", default=str(ROOT / "bench" / "results"))
    parser.add_argument("--measure", action="store_true",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        args.threads = int(args.threads)
        return measure(args)
    counts = ([int(t) for t in args.threads.split(",")] if args.threads
              else sorted({1, len(os.sched_getaffinity(0))}))
    import gather_mlir
    lines = [f"# gather_mlir on sweep seed {args.seed}", "",
             f"`bench/sweep.py --seed {args.seed} --count {args.count} "
             f"--peers {args.peers}`", "",
             f"CPU: {host_description()}, {len(os.sched_getaffinity(0))} "
             f"cores; the script {source_revision()}; the package from "
             f"{Path(gather_mlir.__file__).parent}.", "",
             "Ratio: the best peer's time / gather_mlir's, at the same "
             "threads (above 1: gather_mlir is faster).", ""]
    raw = []
    for threads in counts:
        done = subprocess.run(
            [sys.executable, __file__, "--measure", "--threads",
             str(threads), "--seed", str(args.seed), "--count",
             str(args.count), "--peers", args.peers],
            check=True, stdout=subprocess.PIPE, text=True)
        rows = [json.loads(line) for line in done.stdout.splitlines()
                if line.startswith("{")]
        raw += [dict(row, threads=threads) for row in rows]
        lines += report(rows, threads)
    text = "\n".join(lines)
    print(text)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    name = f"sweep-{host_cpu()}-seed{args.seed}"
    (out / f"{name}.md").write_text(text + "\n")
    # Every workload's times, for other summaries (a peer left out, say).
    (out / f"{name}.jsonl").write_text(
        "".join(json.dumps(row) + "\n" for row in raw))


if __name__ == "__main__":
    main()
