"""``gather_mlir.scatter``, ``scatter_elements`` and ``scatter_nd``: the
gathers' adjoints (``gather.scatter``, ``gather.scatter_elements``,
``gather.scatter_nd``) from Python.

Each combination of op, dtypes, ranks, attributes, mode and reduction is one
kernel: a function that takes ``dest``, the indices and the updates as
buffers of dynamic shape and scatters into ``dest`` in place, lowered by
``gather-to-llvm`` for this host and JIT-compiled once per process. The
kernel validates every index and shape before it writes anything, so a
``check`` failure (``IndexError``) leaves every array as it was.
"""

import threading

import numpy as np

from . import (_attribute, _autograd, _carrier, _is_tensor, _native,
               _tensor_array, _torch)
from .compiler import JitModule, Module

#: How an update combines with its element, as the dialect names them.
REDUCTIONS = ("none", "add", "mul", "max", "min")

# The op, and the attributes it takes, of each function.
_OPS = {"scatter": ("gather.scatter", ("axis", "batch_dims")),
        "scatter_elements": ("gather.scatter_elements", ("axis",)),
        "scatter_nd": ("gather.scatter_nd", ("batch_dims",))}
# The gather each scatter is the adjoint of (its shape rules).
_GATHER = {"scatter": "gather", "scatter_elements": "gather_elements",
           "scatter_nd": "gather_nd"}

_ELEMENT = {"b": {1: "i1"}, "i": {1: "i8", 2: "i16", 4: "i32", 8: "i64"},
            "u": {1: "i8", 2: "i16", 4: "i32", 8: "i64"},
            "f": {2: "f16", 4: "f32", 8: "f64"},
            "c": {8: "complex<f32>", 16: "complex<f64>"}}

_kernels = {}
_lock = threading.Lock()
# _plan's, by the call's shapes and attributes; at most _MAX_PLANS.
_plans = {}
_MAX_PLANS = 4096
_RESULT_MEMORY_MIN_BYTES = _native.result_memory_stats()["min_bytes"]


def _element_type(function, dtype):
    """The MLIR element type of a numpy data dtype (TypeError if none)."""
    element = _ELEMENT.get(dtype.kind, {}).get(dtype.itemsize)
    if element is None:
        raise TypeError(f"{function}: unsupported data dtype {dtype}")
    return element


def _shaped_type(kind, dims, element):
    """``kind<?x...xelement>``: a dim is dynamic where ``dims`` has None."""
    return (kind + "<" + "".join("?x" if d is None else f"{d}x" for d in dims)
            + element + ">")


def _kernel(function, dest, indices, updates, attributes, mode, reduction,
            copies=False):
    """The compiled kernel for these operands and attributes: function
    ``k(dest, indices, updates)`` scatters into ``dest`` in place; with
    ``copies``, ``k(dest, data, indices, updates)`` first copies ``data``
    into ``dest`` (on threads when it is large: the pipeline's linalg
    copies)."""
    element = _element_type(function, dest.dtype)
    index = _ELEMENT["i"][indices.dtype.itemsize]
    # Dims are dynamic but gather_nd's tuple length and, as for the
    # gathers' kernels, a short last dim of a large scatter.
    large = updates.nbytes >= _native.STATIC_MIN_RESULT_BYTES

    def dims(array):
        result = [None] * array.ndim
        if large and array.ndim and \
                0 < array.shape[-1] <= _native.STATIC_DIM_MAX_LENGTH:
            result[-1] = array.shape[-1]
        return result
    dest_dims, index_dims, update_dims = dims(dest), dims(indices), \
        dims(updates)
    if function == "scatter_nd":
        index_dims[-1] = indices.shape[-1]
    key = (function, element, index, tuple(dest_dims), tuple(index_dims),
           tuple(update_dims), attributes, mode, reduction, copies)
    with _lock:
        kernel = _kernels.get(key)
    if kernel is not None:
        return kernel
    op, names = _OPS[function]
    attrs = [f"{n} = {v} : i64" for n, v in zip(names, attributes)]
    attrs += [f"mode = #gather<mode {mode}>",
              f"reduction = #gather<combine {reduction}>"]
    types = [(dest_dims, element), (index_dims, index),
             (update_dims, element)]
    memrefs = [_shaped_type("memref", *t) for t in types]
    tensors = [_shaped_type("tensor", *t) for t in types]
    attrs, operand_types = ", ".join(attrs), ", ".join(tensors)
    if copies:
        source = f"%sm: {memrefs[0]} {{llvm.noalias}}, "
        dest_value = f"""%e = bufferization.to_tensor %dm restrict writable : {memrefs[0]} to {tensors[0]}
  %s = bufferization.to_tensor %sm restrict : {memrefs[0]} to {tensors[0]}
  %d = linalg.copy ins(%s : {tensors[0]}) outs(%e : {tensors[0]}) -> {tensors[0]}"""
    else:
        source = ""
        dest_value = f"%d = bufferization.to_tensor %dm restrict writable : {memrefs[0]} to {tensors[0]}"
    text = f"""
func.func @k(%dm: {memrefs[0]} {{llvm.noalias}}, {source}%im: {memrefs[1]} {{llvm.noalias}}, %um: {memrefs[2]} {{llvm.noalias}}) {{
  {dest_value}
  %i = bufferization.to_tensor %im restrict : {memrefs[1]} to {tensors[1]}
  %u = bufferization.to_tensor %um restrict : {memrefs[2]} to {tensors[2]}
  %r = {op} %d[%i], %u {{{attrs}}} : ({operand_types}) -> {tensors[0]}
  bufferization.materialize_in_destination %r in restrict writable %dm : ({tensors[0]}, {memrefs[0]}) -> ()
  return
}}
"""
    kernel = JitModule.for_host(Module(text), parallel=True)
    with _lock:
        return _kernels.setdefault(key, kernel)


def _signed(array):
    """The array the kernel reads: unsigned integers as the signed type of
    their width (the same bits), contiguous and in native byte order."""
    if array.dtype.kind == "u":
        array = array.view(array.dtype.str.replace("u", "i"))
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    # (np.ascontiguousarray would make a 0-d array 1-d.)
    return array if array.flags.c_contiguous else array.copy(order="C")


def _index_array(function, indices, sizes, mode):
    """Integer indices as the kernel reads them: values, never bit patterns.
    uint64 values past int64 are out of range for any dimension; ``wrap``
    takes their modulo along ``sizes`` (each dim they may select along)
    first, the other modes see them as INT64_MAX."""
    array = np.asarray(indices)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{function}: indices must have an integer dtype, "
                        f"not {array.dtype}")
    view = _native.signed_view(array) if array.dtype.kind == "u" else None
    if view is not None:
        array = view
    elif array.dtype.kind == "u" and array.dtype.itemsize == 8:
        big = array > np.iinfo(np.int64).max
        if big.any():
            array = array.copy()
            if mode == "wrap" and len(set(sizes)) == 1 and sizes[0] > 0:
                array[big] %= np.uint64(sizes[0])
            else:
                array[big] = np.iinfo(np.int64).max
        array = array.astype(np.int64)
    elif array.dtype.kind == "u":
        array = array.astype(np.int64)
    return _signed(array)


def _order_preserving(array):
    """Unsigned integers mapped, bit pattern to bit pattern, so that signed
    comparison orders them as unsigned ones (the top bit flipped): what
    ``max`` and ``min`` compare. Its own inverse."""
    size = array.dtype.itemsize
    top = np.array([1 << (8 * size - 1)], f"u{size}").view(array.dtype)
    return array ^ top[0]


class _Plan:
    """What a call of one key runs: updates' shape (``expected``), the
    shapes the kernel sees with their attributes (``merged``; None: the
    operands' own), and its kernels once they ran (``kernels``, by whether
    they copy data first)."""
    __slots__ = ("expected", "merged", "kernels")

    def __init__(self, expected, merged):
        self.expected = expected
        self.merged = merged
        self.kernels = {False: None, True: None}


def _plan(function, data, indices, attributes, axis, batch_dims, mode,
          reduction):
    """What a call of these shapes, dtypes and attributes runs (a _Plan),
    kept by them. The kernel sees dims the op reads alike merged into one
    (the gathers' rule, GatherShape::collapseDims): fewer kernels, longer
    loops. ValueError when the shape rules reject the operands."""
    key = (function, data.dtype, data.shape, indices.dtype, indices.shape,
           attributes, mode, reduction)
    plan = _plans.get(key)
    if plan is None:
        # updates has the gather's result shape (the dialect's rules; an
        # index along an empty dim is the kernel's IndexError, as for the
        # gathers).
        expected = tuple(_native.result_shape(
            _GATHER[function], data.shape, indices.shape, axis, batch_dims,
            "fill"))
        merged = None
        if data.size and indices.size:
            merged = _native.merged_shapes(_GATHER[function], data.shape,
                                           indices.shape, axis, batch_dims)
        if merged is not None:
            merged = (*merged[:3], _attributes_of(function, *merged[3:]))
        if len(_plans) >= _MAX_PLANS:  # Calls of ever new shapes.
            _plans.clear()
        plan = _plans[key] = _Plan(expected, merged)
    return plan


# The _Plan a repeated call runs, by its _signature: once a call of numpy
# operands into a new result has passed every check and needed no
# conversion of its operands (its int attributes are then the kernel's),
# calls of the same signature go straight to its kernel. At most
# _MAX_PLANS.
_repeats = {}


def _signature(function, data, indices, updates, attributes, mode,
               reduction):
    """Everything _run's checks and plan read of a call into a new result,
    as a key; None for operands other than numpy arrays and attributes
    other than ints."""
    if not (type(data) is np.ndarray and type(indices) is np.ndarray
            and type(updates) is np.ndarray and type(mode) is str
            and type(reduction) is str
            and all(type(a) is int for a in attributes)):
        return None
    return (function, attributes, mode, reduction, data.dtype, data.shape,
            data.strides, indices.dtype, indices.shape, indices.strides,
            updates.dtype, updates.shape, updates.strides)


def _new_dest(function, data):
    """A new array of data's shape and dtype: large ones from the package's
    reused result memory, which a loop of calls finds mapped (numpy's own
    would be mapped and faulted in afresh each call)."""
    if data.nbytes < _RESULT_MEMORY_MIN_BYTES:
        return np.empty(data.shape, data.dtype)
    return _native.result_array(function, data.shape, data.dtype, None, [])


def _kernel_mode(mode):
    """The mode a kernel runs: the package runs unchecked as clamp, so that
    nothing is written out of bounds."""
    return "clamp" if mode == "unchecked" else mode


def _arguments(dest, source, indices, updates):
    """The kernel's arguments: dest, then the data it copies into dest
    first (none: dest holds it), indices and updates."""
    return ((dest, indices, updates) if source is None
            else (dest, source, indices, updates))


def _scatter_into(function, view, source, indices, updates, attributes,
                  plan, mode, reduction):
    """Runs ``plan``'s kernel on ``view`` (C-contiguous, as are ``source``,
    ``indices`` and ``updates``) in place, after copying ``source`` (data,
    or None: ``view`` holds it) into it."""
    copies = source is not None
    operands = (view, indices, updates)
    merged = plan.merged
    if merged is not None:
        operands = tuple(a.reshape(shape)
                         for a, shape in zip(operands, merged[:3]))
    merged_source = source.reshape(operands[0].shape) if copies else None
    kernel = plan.kernels[copies]
    if kernel is None:
        kernel = plan.kernels[copies] = _kernel(
            function, *operands, merged[3] if merged else attributes, mode,
            reduction, copies)
    try:
        kernel.call("k", *_arguments(operands[0], merged_source,
                                     *operands[1:]))
    except IndexError:
        if merged is None:
            raise
        # Nothing was written to data: the caller's shapes raise it again,
        # naming the caller's dims.
        _kernel(function, view, indices, updates, attributes, mode,
                reduction, copies).call(
                    "k", *_arguments(view, source, indices, updates))
        raise


def _run(function, data, indices, updates, attributes, mode, reduction,
         out):
    """The scatter on numpy arrays: ``out`` (or a new array) holding
    ``data`` combined with ``updates``."""
    given = (data, indices, updates, attributes)
    if not isinstance(reduction, str) or reduction not in REDUCTIONS:
        raise ValueError(f"{function}: reduction must be one of "
                         f"{', '.join(REDUCTIONS)}, not {reduction!r}")
    if not isinstance(mode, str) or mode not in _native.MODES:
        raise ValueError(f"{function}: mode must be one of "
                         f"{', '.join(_native.MODES)}, not {mode!r}")
    attributes = tuple(_attribute(n, v) for n, v in
                       zip(_OPS[function][1], attributes))
    data = np.asarray(data)
    updates = np.asarray(updates)
    if updates.dtype != data.dtype:
        raise TypeError(f"{function}: updates must have data's dtype "
                        f"{data.dtype}, not {updates.dtype}")
    _element_type(function, data.dtype)
    if data.dtype.kind == "c" and reduction in ("max", "min"):
        raise ValueError(f"{function}: reduction {reduction} is not defined "
                         f"on complex numbers ({data.dtype})")
    kernel_mode = _kernel_mode(mode)
    axis, batch_dims = _padded(function, attributes)
    sizes = (data.shape if function == "scatter_nd"
             else data.shape[axis:axis + 1] if -data.ndim <= axis < data.ndim
             else ())
    indices = _index_array(function, indices, tuple(sizes) or (0,), mode)
    plan = _plan(function, data, indices, attributes, axis, batch_dims,
                 kernel_mode, reduction)
    expected = plan.expected
    if updates.shape != expected:
        raise ValueError(f"{function}: updates has shape {updates.shape}, "
                         f"but the gather of data {data.shape} by indices "
                         f"{indices.shape} gives {expected}")
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError(f"{function}: out must be a numpy array or a "
                            f"torch tensor, not {type(out).__name__}")
        if out.dtype != data.dtype:
            raise TypeError(f"{function}: out has dtype {out.dtype}, data "
                            f"has {data.dtype}")
        if out.shape != data.shape:
            raise ValueError(f"{function}: out has shape {out.shape}, data "
                             f"has {data.shape}")
        if not out.flags.writeable:
            raise ValueError(f"{function}: out is read-only")
    ordered = data.dtype.kind == "u" and reduction in ("max", "min")
    # The kernel writes in place into `dest`: out itself when it is data's
    # memory and the kernel can take it as it is, or when no error can
    # follow the kernel's first write into it (into_out); else a new array,
    # copied into out (if any) only once the kernel succeeded.
    writable = (out is not None and not ordered and out.flags.c_contiguous
                and out.dtype.isnative)
    in_place = (writable and out.__array_interface__["data"][0]
                == data.__array_interface__["data"][0]
                and out.strides == data.strides)
    # A dest that is data's copy is made by the kernel, on threads when it
    # is large, from data that it can read as it is. Unsigned max and min
    # map dest's values first, so their copy is made here.
    copied_by_kernel = (data.flags.c_contiguous and data.dtype.isnative
                        and not ordered and data.size > 0)
    # In every mode but check no IndexError can follow the kernel's first
    # write (an empty dim to select along leaves no data to copy), so it
    # copies data straight into an out apart from data.
    into_out = (writable and not in_place and kernel_mode != "check"
                and copied_by_kernel and not np.may_share_memory(out, data))
    source = None
    if in_place:
        dest = out
        view = _signed(out)
    elif copied_by_kernel:
        dest = out if into_out else _new_dest(function, data)
        view = _signed(dest)
        source = _signed(data)
    else:
        dest = np.array(data, order="C", copy=True)
        if not dest.dtype.isnative:
            dest = dest.astype(dest.dtype.newbyteorder("="))
        view = _signed(dest)
    # Operands that share out's memory are read from copies.
    if dest is out:
        if np.may_share_memory(updates, out):
            updates = updates.copy()
        if np.may_share_memory(indices, out):
            indices = indices.copy()
    updates = _signed(updates)
    if ordered:
        view[...] = _order_preserving(view)
        updates = _order_preserving(updates)
    _scatter_into(function, view, source, indices, updates, attributes,
                  plan, kernel_mode, reduction)
    if ordered:
        view[...] = _order_preserving(view)
    if out is None:
        if (view is dest and all(a is b for a, b in
                                 zip((source, indices, updates), given))
                and len(_repeats) < _MAX_PLANS):
            key = _signature(function, *given, mode, reduction)
            if key is not None:
                _repeats[key] = plan
        return dest
    if dest is not out:
        np.copyto(out, dest)
    return out


def _padded(function, attributes):
    """(axis, batch_dims) from a function's own attributes."""
    if function == "scatter":
        return attributes
    if function == "scatter_elements":
        return (attributes[0], 0)
    return (0, attributes[0])


def _attributes_of(function, axis, batch_dims):
    """A function's own attributes from (axis, batch_dims): _padded's
    inverse."""
    return {"scatter": (axis, batch_dims), "scatter_elements": (axis,),
            "scatter_nd": (batch_dims,)}[function]


def _call(function, data, indices, updates, attributes, mode, reduction,
          out):
    """A scatter function's call: torch tensors are viewed as arrays (and
    bfloat16 ones combined in float32, rounded once), and a torch ``data``
    gives a torch result."""
    if out is None:
        key = _signature(function, data, indices, updates, attributes, mode,
                         reduction)
        plan = _repeats.get(key) if key is not None else None
        if plan is not None:
            dest = _new_dest(function, data)
            _scatter_into(function, dest, data, indices, updates, attributes,
                          plan, _kernel_mode(mode), reduction)
            return dest
    if _torch() is None or not any(
            _is_tensor(v) for v in (data, indices, updates, out)):
        return _run(function, data, indices, updates, attributes, mode,
                    reduction, out)
    torch = _torch()
    if _is_tensor(data) and _autograd.recorded(data, updates):
        return _autograd.scatter(function, data, indices, updates,
                                 *_padded(function, attributes), mode,
                                 reduction, out)
    like = data
    bf16 = any(_is_tensor(v) and _carrier(v.dtype) is not None
               for v in (data, updates, out))

    def array(name, value):
        """The package's view of a tensor (its device, layout and grad
        rules); bfloat16 values as float32, which they combine in."""
        if not _is_tensor(value):
            return value
        if _carrier(value.dtype) is not None:
            value = value.detach().float()
        return _tensor_array(function, name, value, index=name == "indices")

    if bf16:
        for name, value in (("data", data), ("updates", updates),
                            ("out", out)):
            if value is not None and (not _is_tensor(value)
                                      or value.dtype != torch.bfloat16):
                raise TypeError(f"{function}: {name} must be a bfloat16 "
                                "tensor like the other operands, not "
                                f"{getattr(value, 'dtype', type(value))}")
        result = _run(function, array("data", data),
                      array("indices", indices), array("updates", updates),
                      attributes, mode, reduction, None)
        result = torch.from_numpy(result).to(torch.bfloat16)
        if out is None:
            return result
        out.copy_(result)
        return out
    out_array = array("out", out)
    result = _run(function, array("data", data), array("indices", indices),
                  array("updates", updates), attributes, mode, reduction,
                  out_array)
    if out is not None:
        return out
    return torch.from_numpy(result) if _is_tensor(like) else result


_DOC = """
    ``updates`` has the shape the matching gather of ``data`` by ``indices``
    gives, and ``data``'s dtype. Every update is combined, in the row-major
    order of ``updates``, into the element its gather would read:
    ``reduction`` ``"none"`` assigns (the last update of an element wins),
    ``"add"``, ``"mul"``, ``"max"`` and ``"min"`` combine; duplicates give
    that sequential loop's result, bit for bit. float16 and bfloat16 combine
    in float32 and round once per element; on bool, add is ``or`` and mul
    ``and``. ``mode`` is the gather's: ``"check"`` raises ``IndexError``
    (and writes nothing), ``"fill"`` drops the update, ``"clamp"`` and
    ``"wrap"`` combine into the element their gather reads (``"unchecked"``
    runs as clamp).

    Returns ``data`` combined with ``updates`` as a new array (``data`` is
    not modified), or, with ``out``, that result written into ``out``, which
    is returned; ``out=data`` updates ``data`` in place. torch tensors give
    torch tensors.

    Raises ``IndexError`` (an index out of range in ``check`` mode),
    ``ValueError`` (bad attributes or shapes, an unknown ``mode`` or
    ``reduction``), ``TypeError`` (``updates`` or ``out`` of another dtype
    than ``data``, unsupported dtypes).
"""


def scatter(data, indices, updates, axis=0, batch_dims=0, mode="check",
            reduction="none", out=None):
    """Combine ``updates`` into the slices of ``data`` along ``axis`` that
    ``indices`` select: the adjoint of ``gather`` (``torch.index_add`` with
    ``reduction="add"``).

    >>> gather_mlir.scatter(np.zeros(5, np.float32), [1, 4, 1],
    ...                     np.array([1, 2, 3], np.float32), reduction="add")
    array([0., 4., 0., 0., 2.], dtype=float32)
    """
    return _call("scatter", data, indices, updates, (axis, batch_dims), mode,
                 reduction, out)


def scatter_elements(data, indices, updates, axis=0, mode="check",
                     reduction="none", out=None):
    """Combine each element of ``updates`` (the shape of ``indices``) into
    the element of ``data`` that ``gather_elements`` reads for it (ONNX
    ScatterElements, ``torch.scatter_reduce``).

    >>> gather_mlir.scatter_elements(np.zeros((1, 3), np.int32), [[2, 2]],
    ...                              np.array([[1, 5]], np.int32), axis=1,
    ...                              reduction="max")
    array([[0, 0, 5]], dtype=int32)
    """
    return _call("scatter_elements", data, indices, updates, (axis,), mode,
                 reduction, out)


def scatter_nd(data, indices, updates, batch_dims=0, mode="check",
               reduction="none", out=None):
    """Combine slices of ``updates`` into the slices of ``data`` that the
    index tuples (the last dimension of ``indices``) select: the adjoint of
    ``gather_nd`` (ONNX ScatterND, ``tf.tensor_scatter_nd_add``).

    >>> gather_mlir.scatter_nd(np.zeros(4, np.float32), [[1], [1], [3]],
    ...                        np.array([1, 2, 4], np.float32),
    ...                        reduction="add")
    array([0., 3., 0., 4.], dtype=float32)
    """
    return _call("scatter_nd", data, indices, updates, (batch_dims,), mode,
                 reduction, out)


for _function in (scatter, scatter_elements, scatter_nd):
    _function.__doc__ += _DOC
