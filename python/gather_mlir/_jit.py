"""What the functions built on ``compiler.JitModule`` share: a per-process
cache of their kernels, array views of tensors, and how a result is
returned (into ``out``, as a torch tensor, or as the array itself)."""

import threading

import numpy as np

from . import _is_tensor, _native, _tensor_array, _torch


#: The signed id dtypes kernels read as they are, as MLIR element types.
ID_TYPES = {np.dtype(np.int8): "i8", np.dtype(np.int16): "i16",
            np.dtype(np.int32): "i32", np.dtype(np.int64): "i64"}
INT64_MAX = 2**63 - 1


class KernelCache:
    """Kernels built by ``compile(*key)`` once per key, thread-safely."""

    def __init__(self, compile):
        self._compile = compile
        self._kernels = {}
        self._lock = threading.Lock()

    def __call__(self, key):
        with self._lock:
            jit = self._kernels.get(key)
            if jit is None:
                jit = self._kernels[key] = self._compile(*key)
            return jit


def array(function, name, value):
    """A numpy array of argument ``name`` (a CPU tensor is viewed, not
    copied)."""
    if _is_tensor(value):
        return _tensor_array(function, name, value)
    return np.asarray(value)


def destination(function, shape, dtype, out, operands):
    """The array a kernel writes its result (``shape``, ``dtype``) into:
    ``out`` itself (as an array) when it can take the result in place -
    C-contiguous, writable, sharing no memory with ``operands`` - else a new
    array, from the reused result memory for large results. TypeError or
    ValueError when ``out`` cannot take the result at all."""
    if out is None:
        return _native.empty(shape, dtype)
    target = array(function, "out", out)
    if not isinstance(out, np.ndarray) and not _is_tensor(out):
        raise TypeError(f"{function}: out must be a numpy array or a torch "
                        f"tensor, not {type(out).__name__}")
    if target.dtype != dtype:
        raise TypeError(f"{function}: out has dtype {target.dtype}, the "
                        f"result {dtype}")
    if target.shape != tuple(shape):
        raise ValueError(f"{function}: out has shape {target.shape}, the "
                         f"result {tuple(shape)}")
    if (target.flags.c_contiguous and target.flags.writeable and
            not any(np.may_share_memory(target, a) for a in operands)):
        return target
    return _native.empty(shape, dtype)


def deliver(result, out, as_tensor):
    """``out``, holding ``result`` (copied unless the kernel wrote it there:
    see ``destination``); without ``out``, ``result`` as a torch tensor if
    ``as_tensor``, else itself."""
    if out is None:
        return _torch().from_numpy(result) if as_tensor else result
    target = out if isinstance(out, np.ndarray) else _tensor_array(
        "", "out", out)
    if not np.may_share_memory(target, result):
        target[...] = result
    return out


def signed_ids(array, num, mode, function, name, op):
    """Signed ids with the values of ``array`` (argument ``name`` of
    ``function``, read along data dimension 0 of a table of ``num`` rows by
    ``op``): unsigned ones above INT64_MAX become what ``mode`` makes of
    them (check: IndexError; wrap: the true modulo; the others: a value past
    the end, which fill reads as zeros and clamp as the last row)."""
    if array.dtype.kind not in "iu":
        raise TypeError(f"{function}: {name} must have an integer dtype, "
                        f"not {array.dtype}")
    if array.dtype.kind == "i":
        return np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("="))
    if array.dtype.itemsize < 8:
        return np.ascontiguousarray(array, dtype=np.int64)
    big = array > INT64_MAX
    if not big.any():
        return np.ascontiguousarray(array, dtype=np.int64)
    if mode == "check":
        value = int(array[big].flat[0]) if array.ndim else int(array)
        if num == 0:
            raise IndexError(f"{op}: index {value} selects along data "
                             "dimension 0, which is empty (size 0)")
        raise IndexError(f"{op}: index {value} is out of range [{-num}, "
                         f"{num - 1}] for data dimension 0 of size {num}")
    replaced = array.astype(object)
    if mode == "wrap" and num > 0:
        replaced[big] = replaced[big] % num
    else:
        replaced[big] = INT64_MAX
    return np.ascontiguousarray(replaced.astype(np.int64))


def embedding_bag_kernel(name, table, ids, operands, attrs, result, parallel):
    """A JIT-compiled module whose function ``name`` is one
    ``gather.embedding_bag`` written into its last argument, a buffer of
    the result's type: the types of the table and ids, ``operands`` the
    ``(clause, type)`` pairs after them (``offsets``,
    ``per_sample_weights``, ``scales``, ``zero_points``, in that order),
    ``attrs`` its attributes as text, lowered by ``gather-to-llvm``
    (``parallel=true`` when ``parallel``)."""
    args = [f"%t: {table}", f"%i: {ids}"]
    types = [table, ids]
    clauses = ""
    for k, (clause, type) in enumerate(operands):
        args.append(f"%a{k}: {type}")
        types.append(type)
        clauses += f" {clause}(%a{k})"
    buffer = "memref" + result[len("tensor"):]
    args.append(f"%out: {buffer}")
    text = (f"func.func @{name}({', '.join(args)}) {{\n"
            f"  %r = gather.embedding_bag %t[%i]{clauses} "
            f"{{{', '.join(attrs)}}} : ({', '.join(types)}) -> {result}\n"
            f"  bufferization.materialize_in_destination %r in restrict "
            f"writable %out : ({result}, {buffer}) -> ()\n"
            f"  return\n}}\n")
    pipeline = "gather-to-llvm{parallel=true}" if parallel else "gather-to-llvm"
    return _native.JitModule(_native.Module(text), pipeline)
