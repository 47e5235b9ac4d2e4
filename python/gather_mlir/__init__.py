"""GatherMLIR from Python: ONNX Gather, GatherElements and GatherND on numpy
arrays, compiled by the gather dialect's own pipeline and JIT.

    >>> import numpy as np, gather_mlir
    >>> gather_mlir.gather(np.array([1, 2, 3, 4, 5]), [3, 10, -20], mode="fill")
    array([4, 0, 0])

Every function takes any array-like ``data`` (bool, int8..int64,
uint8..uint64, float16, float32, float64, complex64, complex128) and integer
``indices`` (any integer dtype, read as their values: an unsigned 255 is 255,
never -1; negative values count from the end). The result has ``data``'s dtype. ``mode`` says what an index
outside ``[-s, s)`` does along a dimension of size ``s``:

==========  ==============================================================
check       ``IndexError`` naming the value and the valid range (default)
fill        that element (or slice) of the result is zero
clamp       the index is clamped to ``[0, s - 1]``
wrap        Python modulo, ``i % s``
unchecked   the caller promises valid indices; no check (the result of a
            broken promise is undefined: the package reads it as clamp)
==========  ==============================================================

Errors: ``IndexError`` for an index out of range in ``check`` mode (or any
index along an empty dimension, except in ``fill`` mode); ``ValueError`` for
bad ``axis``/``batch_dims``/shapes/``mode``; ``TypeError`` for unsupported
dtypes or an ``out`` of the wrong dtype. Nothing is ever read out of bounds.

torch tensors work too (torch is never imported by the package itself):
CPU tensors are read in place through ``Tensor.numpy()``, strided views
included, and torch ``data`` gives a torch result (``torch.from_numpy`` of
the result, no copy). ``torch.bfloat16``, which numpy lacks, moves as its
16-bit pattern: a gather only moves bits. ``out`` may be a tensor. A tensor
on another device is a ``TypeError`` (nothing is copied to the CPU behind
your back). ``data`` that requires grad gives a result with a ``grad_fn``
(``out=`` then is a ``ValueError``: it takes no part in autograd).

Kernels are compiled once per (op, element width, index type, ranks,
attributes, mode) and cached; shapes are dynamic, so new shapes reuse them
(but large results of short rows, up to 256 bytes, get a kernel for their
row length).
Compiled kernels are also kept on disk under ``$GATHER_MLIR_CACHE_DIR``
(default ``~/.cache/gather_mlir``; the empty string turns it off), so a new
process links them instead of compiling again; an entry that does not match
its key, length and checksum is ignored and rebuilt.
Calls release the GIL while the kernel runs and are safe from many threads.
``gather_mlir.compiler`` has the lower-level API (parse, run pipelines, JIT).

``scatter``, ``scatter_elements`` and ``scatter_nd`` are the gathers'
adjoints, and torch tensors that require grad get gradients through every
gather and ``embedding_bag``, computed by them (torch custom ops
``torch.ops.gather_mlir.*`` where torch has them, so ``torch.compile`` sees
no graph break).
"""

import operator
import sys

import numpy as np

from . import _native
from ._version import __version__

__all__ = ["gather", "gather_elements", "gather_nd", "embedding_bag",
           "embedding_bag_rowwise_quantized", "gather_block_quantized",
           "scatter", "scatter_elements", "scatter_nd", "compile_count",
           "kernel_choice"]

#: The out-of-range modes, as the dialect names them (its GatherMode enum).
MODES = _native.MODES


def compile_count():
    """How many kernels this process has compiled: the misses of the
    kernel cache. Calls with the same op, element width, index type, ranks,
    attributes and mode reuse a kernel (shapes are not part of the key, but
    for the lengths of short rows, short last dims and short gathered axes
    of results of 16 KiB or more)."""
    return _native.compile_count()


def kernel_choice(op, data, indices, axis=0, batch_dims=0, mode="check",
                  out=None):
    """The kernel a call ``op(data, indices, ...)`` of numpy arrays gets on
    this host, without running it (``op``: ``"gather"``,
    ``"gather_elements"`` or ``"gather_nd"``). A dict: ``key``, what tells
    its kernel apart (ranks, widths, mode, flags for threads, streaming
    stores, row validation and how rows read data, the lengths of short
    rows, short last dims and short gathered axes); ``module``, its MLIR
    before lowering (a function ``@kernel`` of three memrefs: data, indices
    and the result); ``pipeline``, the ``gather-to-llvm`` options it is
    compiled with, which ``gather-opt`` takes as they are;
    ``buffered``, whether a check-mode call into ``out`` computes into a
    result of its own first; ``loads``, how result rows read data, gathered
    along the last axis or by ``gather_elements`` along an axis before it
    (``gather-loads``: ``"vector"``, ``"scalar"`` or ``"element"``; None
    for kernels without such rows);
    ``column_blocks``, whether ``gather_elements`` along an axis before the
    last walks column blocks (``"column blocks"`` or ``"rows"``; None: as
    the lowering's size threshold says, or no such gather); ``chosen_by``,
    ``"measurement"`` (on this host, by an earlier call or process),
    ``"cost model"``, or ``"cost model, until a call measures"``;
    ``candidates``, what a later call measures (loads, ``"column
    blocks"`` and ``"rows"``, or both, as ``"scalar, rows"``); and ``seconds``, each
    candidate's measured time. ``GATHER_MLIR_TUNE=0`` turns measuring off.

    >>> gather_mlir.kernel_choice("gather", np.zeros(8), [1])["pipeline"][:15]
    'gather-to-llvm{'
    """
    return _native.kernel_choice(op, _data(data), _indices(op, indices),
                                 _attribute("axis", axis),
                                 _attribute("batch_dims", batch_dims), mode,
                                 out)


def _attribute(name, value):
    """An int64 attribute: TypeError if not an integer, ValueError if huge."""
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not "
                        f"{type(value).__name__}") from None
    if not -2**63 <= value < 2**63:
        raise ValueError(f"{name} {value} is out of the int64 range")
    return value


def _general(op, data, indices, axis, batch_dims, mode, out):
    """The path of everything the native fast path leaves (torch tensors,
    array-likes, byte-swapped indices, odd layouts, attributes that are not
    plain ints, bad arguments): converts, checks, then the native op. Torch
    tensors, once viewed as arrays, try the fast path again."""
    if _is_tensor(data) and _autograd.recorded(data):
        return _autograd.gather(op, data, indices, axis, batch_dims, mode,
                                out)
    data, indices, out, wrap = _from_torch(op, data, indices, out)
    if _torch() is not None:
        result = _TRY[op](data, indices, axis, batch_dims, mode, out)
        if result is not None:
            return wrap(result)
    axis = _attribute("axis", axis)
    batch_dims = _attribute("batch_dims", batch_dims)
    data = _data(data)
    indices = _indices(op, indices)
    return wrap(_run(op, data, indices, axis, batch_dims, mode, out))


def _contiguous(array):
    """An array the kernels can read in place: any view whose strides are
    whole elements (C-contiguous ones take the vectorized kernels); other
    layouts are copied, keeping 0-d arrays 0-d."""
    itemsize = array.dtype.itemsize
    if array.flags.c_contiguous or all(s % itemsize == 0
                                       for s in array.strides):
        return array
    return array.copy(order="C")


def _data(data):
    """An array of ``data`` the kernels can read (the native layer checks
    its dtype). Byte order does not matter to a gather: it moves whole
    elements."""
    return _contiguous(np.asarray(data))


def _indices(op, indices):
    """Native, contiguous integer indices; unsigned ones keep their values
    (the kernels widen them; the native layer converts uint64 ones)."""
    array = np.asarray(indices)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{op}: indices must have an integer dtype, not "
                        f"{array.dtype}")
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    return _contiguous(array)


# --- torch tensors -----------------------------------------------------------
# torch is looked up in sys.modules, never imported: a tensor cannot exist
# unless its caller imported torch, and numpy callers pay nothing.


def _torch():
    return sys.modules.get("torch")


def _is_tensor(value):
    torch = _torch()
    return torch is not None and isinstance(value, torch.Tensor)


def _carrier(dtype):
    """The numpy-representable torch dtype of the same width that a torch
    dtype without a numpy twin moves as (None if it has a twin or none)."""
    torch = _torch()
    return torch.int16 if dtype is torch.bfloat16 else None


def _tensor_array(op, name, tensor, index=False, bfloat16=True):
    """A numpy view of a CPU tensor's elements (its strides, no copy);
    bfloat16 is viewed as int16 where ``bfloat16`` allows it, and is a
    TypeError for an ``index`` argument or where it does not. A tensor with
    a lazy conjugate or negative bit is resolved first (a copy: its storage
    does not hold its values)."""
    # The common case first, at a call's cost: numpy() refuses every tensor
    # the rules below are for (other devices and layouts, grad, lazy bits,
    # dtypes numpy lacks). bfloat16 is tried as its int16 view at once: its
    # numpy() raises on every call, and the exception cost more than the
    # rest of a small call (not where grad is required: the int16 view
    # would drop it, where the rules below refuse it).
    try:
        if (bfloat16 and not index and tensor.dtype is _torch().bfloat16
                and not tensor.requires_grad):
            return tensor.view(_torch().int16).numpy()
        return tensor.numpy()
    except (TypeError, RuntimeError):
        pass
    torch = _torch()
    if tensor.device.type != "cpu":
        raise TypeError(f"{op}: {name} is a torch tensor on {tensor.device}; "
                        f"gather_mlir runs on the CPU: pass {name}.cpu()")
    if tensor.layout != torch.strided:
        raise TypeError(f"{op}: {name} is a {tensor.layout} torch tensor; "
                        "only dense (torch.strided) tensors are supported")
    if tensor.requires_grad:
        # Autograd took the calls it records (_autograd); under
        # torch.no_grad() there is no graph to record.
        if torch.is_grad_enabled():
            raise ValueError(f"{op}: {name} requires grad, and autograd "
                             f"records no gradient for it here: pass "
                             f"{name}.detach()")
        tensor = tensor.detach()
    tensor = tensor.resolve_conj().resolve_neg()
    carrier = _carrier(tensor.dtype)
    if carrier is not None:
        if index:
            raise TypeError(f"{op}: {name} must have an integer dtype, not "
                            f"{tensor.dtype}")
        if not bfloat16:
            raise TypeError(f"{op}: unsupported {name} dtype {tensor.dtype}")
        tensor = tensor.view(carrier)
    try:
        return tensor.numpy()
    except TypeError:
        raise TypeError(f"{op}: unsupported {name} dtype "
                        f"{tensor.dtype}") from None


def _same(result):
    return result


def _check_out(op, data, out):
    """The dtype rules numpy cannot check once bfloat16 moves as int16."""
    data_is_tensor, out_is_tensor = _is_tensor(data), _is_tensor(out)
    if data_is_tensor and out_is_tensor and out.dtype != data.dtype:
        raise TypeError(f"{op}: out has dtype {out.dtype}, data has "
                        f"{data.dtype}")
    if data_is_tensor and not out_is_tensor and _carrier(data.dtype):
        raise TypeError(f"{op}: out for {data.dtype} data must be a "
                        f"{data.dtype} tensor, not a numpy array")
    if out_is_tensor and not data_is_tensor and _carrier(out.dtype):
        raise TypeError(f"{op}: out has dtype {out.dtype}, which numpy data "
                        "cannot have")


def _from_torch(op, data, indices, out):
    """``data``, ``indices`` and ``out`` with CPU torch tensors replaced by
    numpy views of them, and what turns the native result into the value
    to return: ``out`` itself if given, else a tensor if ``data`` is one."""
    if _torch() is None:
        return data, indices, out, _same
    if out is not None:
        _check_out(op, data, out)
    if _is_tensor(indices):
        indices = _tensor_array(op, "indices", indices, index=True)
    dtype = data.dtype if _is_tensor(data) else None
    if dtype is not None:
        data = _tensor_array(op, "data", data)
    if out is not None:
        given = out
        if _is_tensor(out):
            out = _tensor_array(op, "out", out)
        return data, indices, out, lambda result: given
    if dtype is None:
        return data, indices, out, _same
    return data, indices, out, _tensor_result(dtype)


def _tensor_result(dtype):
    """What makes a native result a torch tensor of ``dtype`` (no copy):
    ``torch.from_numpy``, viewed back as ``dtype`` when it moved as its
    carrier (bfloat16 as int16)."""
    from_numpy = _torch().from_numpy
    if _carrier(dtype) is None:
        return from_numpy
    return lambda result: from_numpy(result).view(dtype)


_KERNELS = {"gather": _native.gather,
            "gather_elements": _native.gather_elements,
            "gather_nd": _native.gather_nd}

# The per-call fast path: numpy arrays the kernels read as they are, plain
# int attributes and a valid mode go straight to one native call, which
# returns None for anything else (torch tensors, array-likes, unsigned or
# byte-swapped indices, ...): the general path below then converts and
# checks, with the same results and errors.
_try_gather = _native.try_gather
_try_gather_elements = _native.try_gather_elements
_try_gather_nd = _native.try_gather_nd
_TRY = {"gather": _try_gather, "gather_elements": _try_gather_elements,
        "gather_nd": _try_gather_nd}


def _run(op, data, indices, axis, batch_dims, mode, out):
    """The native op; it checks the mode, the operands and ``out`` (dtype,
    shape, layout, writeability) itself and handles an ``out`` that overlaps
    them."""
    return _KERNELS[op](data, indices, axis, batch_dims, mode, out)


_SHARED_DOC = """
    Parameters
    ----------
    data : array_like or torch.Tensor
        bool, int8..int64, uint8..uint64, float16/32/64 or complex64/128
        (and torch.bfloat16 for tensors). CPU tensors are read in place.
    indices : array_like of integers or torch.Tensor
        Their values (an unsigned 255 is 255, never -1); negative values
        count from the end.
{attributes}    mode : {{"check", "fill", "clamp", "wrap", "unchecked"}}
        What an index outside ``[-s, s)`` does (see the package docstring).
    out : numpy.ndarray or torch.Tensor, optional
        C-contiguous array or CPU tensor of the result's shape and
        ``data``'s dtype to write into; it is returned.

    Returns
    -------
    numpy.ndarray or torch.Tensor
        The gathered values, with ``data``'s dtype: ``out`` if given, else
        a torch tensor if ``data`` is one, else a numpy array.

    Raises
    ------
    IndexError
        An index out of range in ``check`` mode, or any index along an
        empty dimension (except in ``fill`` mode).
    ValueError
        Bad {names}, shapes that do not fit, an unknown ``mode``, or
        ``out`` given for ``data`` that requires grad.
    TypeError
        Unsupported dtypes, an ``out`` of the wrong dtype, or a torch tensor
        that is not on the CPU or not dense.
"""

_ATTRIBUTE_DOC = {
    "axis": "    axis : int\n        The dimension of ``data`` to gather "
            "along, in ``[-r, r-1]``.\n",
    "batch_dims": "    batch_dims : int\n        Leading dimensions shared "
                  "by ``data`` and ``indices``.\n",
}


def _documented(*attributes):
    """Appends the sections every op shares to the op's own docstring."""
    def decorate(fn):
        fn.__doc__ += _SHARED_DOC.format(
            attributes="".join(_ATTRIBUTE_DOC[a] for a in attributes),
            names="/".join(f"``{a}``" for a in attributes))
        return fn
    return decorate


@_documented("axis", "batch_dims")
def gather(data, indices, axis=0, batch_dims=0, mode="check", out=None):
    """Gather slices of ``data`` along ``axis`` (ONNX Gather, OpenVINO
    Gather-8, ``np.take`` with batch dimensions).

    With ``b = batch_dims`` leading dimensions shared by ``data`` and
    ``indices``::

        out[p[:axis], i[b:], p[axis+1:]] = data[p[:axis], indices[p[:b], i[b:]], p[axis+1:]]

    ``axis`` is in ``[-r, r-1]`` and ``batch_dims`` in ``[-q, q]`` (negative
    values count from the back), with ``batch_dims <= axis`` once normalized.
    The result has shape ``data.shape[:axis] + indices.shape[batch_dims:] +
    data.shape[axis+1:]``; scalar indices remove the axis.

    >>> gather_mlir.gather([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]],
    ...                    [[0, 0, 4], [4, 0, 0]], axis=1, batch_dims=1)
    array([[ 1,  1,  5],
           [10,  6,  6]])
    """
    # torch tensors first: the native fast path is opaque to
    # torch.compile, which traces the tensor path to a custom op.
    if type(data) is not np.ndarray and _is_tensor(data):
        return _general("gather", data, indices, axis, batch_dims, mode,
                        out)
    result = _try_gather(data, indices, axis, batch_dims, mode, out)
    if result is not None:
        return result
    return _general("gather", data, indices, axis, batch_dims, mode, out)


@_documented("axis")
def gather_elements(data, indices, axis=0, mode="check", out=None):
    """Gather single elements along ``axis`` (ONNX GatherElements,
    ``torch.gather``, ``np.take_along_axis``)::

        out[p] = data[p with p[axis] replaced by indices[p]]

    ``indices`` has the rank of ``data``; along every other dimension it may
    be no longer than ``data``. The result has the shape of ``indices``.

    >>> gather_mlir.gather_elements([[1, 2], [3, 4]], [[0, 0], [1, 0]], axis=1)
    array([[1, 1],
           [4, 3]])
    """
    # torch tensors first: the native fast path is opaque to
    # torch.compile, which traces the tensor path to a custom op.
    if type(data) is not np.ndarray and _is_tensor(data):
        return _general("gather_elements", data, indices, axis, 0, mode,
                        out)
    result = _try_gather_elements(data, indices, axis, 0, mode, out)
    if result is not None:
        return result
    return _general("gather_elements", data, indices, axis, 0, mode, out)


@_documented("batch_dims")
def gather_nd(data, indices, batch_dims=0, mode="check", out=None):
    """Gather slices of ``data`` by index tuples (ONNX GatherND, TF
    ``gather_nd``): the last dimension of ``indices`` holds tuples of length
    ``k`` into dimensions ``batch_dims .. batch_dims + k - 1`` of ``data``.

    The result has shape ``indices.shape[:-1] + data.shape[batch_dims + k:]``.
    Each component of a tuple is checked against its own dimension.

    >>> gather_mlir.gather_nd([[0, 1], [2, 3]], [[0, 0], [1, 1]])
    array([0, 3])
    """
    # torch tensors first: the native fast path is opaque to
    # torch.compile, which traces the tensor path to a custom op.
    if type(data) is not np.ndarray and _is_tensor(data):
        return _general("gather_nd", data, indices, 0, batch_dims, mode,
                        out)
    result = _try_gather_nd(data, indices, 0, batch_dims, mode, out)
    if result is not None:
        return result
    return _general("gather_nd", data, indices, 0, batch_dims, mode, out)


from ._bags import (embedding_bag,  # noqa: E402 (uses the helpers above)
                    embedding_bag_rowwise_quantized)
from ._quantized import gather_block_quantized  # noqa: E402
from . import _autograd  # noqa: E402
from ._scatter import (REDUCTIONS, scatter,  # noqa: E402
                       scatter_elements, scatter_nd)
