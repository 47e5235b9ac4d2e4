"""``gather_mlir.embedding_bag`` and ``embedding_bag_rowwise_quantized``:
``gather.embedding_bag`` from Python.

``embedding_bag`` is a drop-in for ``torch.nn.functional.embedding_bag`` (its
arguments in its positional order, so that ``nn.EmbeddingBag`` can call it;
the out-of-range mode is the keyword ``oob_mode``);
``embedding_bag_rowwise_quantized`` takes the same arguments for tables in
FBGEMM's row-wise quantized layout (the op's ``rowwise_bits``). The
arguments' rules, the kernels and the call are native
(``_native.embedding_bag``, python/src/EmbeddingBags.cpp): each combination
of dtypes, row width and attributes is one kernel, a module holding one
``gather.embedding_bag`` with dynamic shapes but the table's width, lowered
by ``gather-to-llvm`` for this host (``parallel=true`` for large bags),
compiled and kept on disk as the gathers' kernels are; its run-time hooks
become ``IndexError`` (an id out of
range in ``check`` mode) and ``ValueError`` (offsets that break torch's
rules). ``max_norm``'s renormalization is done here, before the native
call, and undone if that call raises.
"""

import math
import numbers

import numpy as np

from . import _autograd, _carrier, _is_tensor, _native, _torch
from ._tensors import any_tensor, returned, view


def _bag(function, input, weight, offsets, mode, per_sample_weights,
         include_last_offset, padding_idx, oob_mode, out, rowwise_bits=None,
         scale_grad_by_freq=False, sparse=False):
    """``function``'s call: ``_native.embedding_bag`` checks the arguments
    (arrays or array-likes), picks the kernel and calls it; torch tensors
    are viewed as arrays first, and a torch ``weight`` gives a torch
    result. A table or per_sample_weights that requires grad (with grad
    mode on) goes through autograd (_autograd.py), where
    ``scale_grad_by_freq`` and ``sparse`` shape the table's gradient."""
    if rowwise_bits is None and _is_tensor(weight) and _autograd.recorded(
            weight, per_sample_weights):
        return _autograd.embedding_bag(
            input, weight, offsets, mode, per_sample_weights,
            include_last_offset, padding_idx, oob_mode, out,
            scale_grad_by_freq, sparse)
    if not any_tensor(input, weight, offsets, per_sample_weights, out):
        return _native.embedding_bag(
            function, input, weight, offsets, mode, per_sample_weights,
            include_last_offset, padding_idx, oob_mode, out, rowwise_bits)
    # A bfloat16 table (a float table, not a quantized one's bytes) moves as
    # its int16 view, which the native call is told of; per_sample_weights
    # and out must then be bfloat16 too (and only then: an int16 view is no
    # bfloat16). Ids and offsets must be integers.
    values = rowwise_bits is None
    dtype = getattr(weight, "dtype", None)
    bfloat16 = values and _carrier(dtype) is not None
    for name, value in (("per_sample_weights", per_sample_weights),
                        ("out", out)):
        other = getattr(value, "dtype", None)
        if (values and value is not None
                and (_carrier(other) is not None) != bfloat16):
            raise TypeError(f"{function}: {name} must have weight's dtype "
                            f"{dtype}, not {other}")
    result = _native.embedding_bag(
        function, view(function, "input", input, index=True),
        view(function, "weight", weight, bfloat16=values),
        view(function, "offsets", offsets, index=True), mode,
        view(function, "per_sample_weights", per_sample_weights,
             bfloat16=values),
        include_last_offset, padding_idx, oob_mode,
        view(function, "out", out, bfloat16=values), rowwise_bits, bfloat16)
    return returned(result, out, weight)


def _renormalizable(table):
    """Whether max_norm can renormalize ``table`` (a numpy array or a
    tensor): a 2-D float table on the CPU. Any other is the native call's
    error, raised before anything is changed."""
    if table.ndim != 2:
        return False
    if not _is_tensor(table):
        return table.dtype.kind == "f" and table.dtype.itemsize in (2, 4, 8)
    torch = _torch()
    return table.device.type == "cpu" and table.dtype in (
        torch.float16, torch.float32, torch.float64, torch.bfloat16)


def _number(name, value):
    """``value`` (argument ``name`` of embedding_bag) as a float; TypeError
    for anything but a real number."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    hint = (" (in torch's order, mode is the seventh argument: pass "
            "mode=... by name)" if isinstance(value, str) else "")
    raise TypeError(f"embedding_bag: {name} must be a real number, not "
                    f"{value!r}{hint}")


def _selected_rows(input, num, oob_mode):
    """The distinct rows of a table of ``num`` rows that the ids of
    ``input`` select under ``oob_mode`` (all of them: torch renormalizes
    every id it is given), as int64; None where the ids are not integers,
    which the native call reports. Ids that select no row (out of range in
    ``check``, ``fill`` or ``unchecked`` mode) are left out."""
    if _is_tensor(input):
        try:
            input = input.numpy()
        except (TypeError, RuntimeError):
            return None
    ids = np.asarray(input).reshape(-1)
    if ids.dtype.kind not in "iu":
        return None
    if ids.dtype.kind == "u" and ids.dtype.itemsize == 8:
        # Values past INT64_MAX are past the end of any table.
        if oob_mode == "wrap" and num:
            ids = ids % np.uint64(num)
        ids = np.minimum(ids, np.uint64(np.iinfo(np.int64).max))
    ids = ids.astype(np.int64)
    normalized = np.where(ids < 0, ids + num, ids)
    if num and oob_mode == "clamp":
        rows = np.clip(normalized, 0, num - 1)
    elif num and oob_mode == "wrap":
        rows = np.mod(ids, num)
    else:
        rows = normalized[(normalized >= 0) & (normalized < num)]
    return np.unique(rows)


def _renormalize(weight, rows, max_norm, norm_type):
    """Scales the ``rows`` of ``weight`` whose ``norm_type``-norm exceeds
    ``max_norm`` to that norm, in place, as ``torch.embedding_renorm_``
    does (by ``max_norm / (norm + 1e-7)``); returns what undoes it."""
    if _is_tensor(weight):
        torch = _torch()
        table = weight.detach()
        index = torch.from_numpy(rows)
        saved = table[index].clone()
        with torch.no_grad():
            torch.embedding_renorm_(table, index, max_norm, norm_type)

        def undo_tensor():
            with torch.no_grad():
                table[index] = saved
        return undo_tensor
    block = weight[rows]
    magnitudes = np.abs(block.astype(np.float64))
    if norm_type == math.inf:
        norms = magnitudes.max(axis=1, initial=0.0)
    elif norm_type == -math.inf:
        norms = magnitudes.min(axis=1, initial=math.inf)
    elif norm_type == 0:
        norms = np.count_nonzero(magnitudes, axis=1).astype(np.float64)
    else:
        norms = (magnitudes ** norm_type).sum(axis=1) ** (1.0 / norm_type)
    over = norms > max_norm
    if over.any():
        # torch multiplies a row by the scale in its compute type: float32
        # for float16 and float32 tables, float64 for float64 ones.
        compute = np.float64 if weight.dtype == np.float64 else np.float32
        scale = (max_norm / (norms[over] + 1e-7)).astype(compute)
        weight[rows[over]] = (block[over].astype(compute)
                              * scale[:, None]).astype(weight.dtype)

    def undo_array():
        weight[rows] = block
    return undo_array


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2.0,
                  scale_grad_by_freq=False, mode="mean", sparse=False,
                  per_sample_weights=None, include_last_offset=False,
                  padding_idx=None, *, oob_mode="check", out=None):
    """Sum, mean or max of bags of rows of ``weight``
    (``torch.nn.functional.embedding_bag``, whose arguments it takes in
    their positional order).

    Parameters
    ----------
    input : array_like of integers or torch.Tensor
        The ids: 1-D with ``offsets``, or 2-D ``[bags, n]`` (fixed-length
        bags) without. Negative ids count from the end of the table.
    weight : array_like or torch.Tensor
        The table ``[num, dim]``: float16, float32 or float64, or a
        ``torch.bfloat16`` tensor (float16 and bfloat16 accumulate in
        float32).
    offsets : array_like of integers or torch.Tensor, optional
        Where each bag starts in ``input``: ``offsets[0] == 0``,
        non-decreasing, none past the end of ``input``.
    max_norm : float, optional
        Before the bags are reduced, every row that an id of ``input``
        selects (as in torch, ``padding_idx``'s and those after the last
        bag included) whose ``norm_type``-norm exceeds ``max_norm`` is
        scaled in place in ``weight`` to that norm, as
        ``torch.embedding_renorm_`` does. ``weight`` is left as it was
        when the call raises.
    norm_type : float
        The p of ``max_norm``'s p-norm (``math.inf`` too).
    scale_grad_by_freq : bool
        Only for a gradient, as in torch: the result does not depend on it.
    mode : {"sum", "mean", "max"}
        The reduction (torch's name); an empty bag is zeros.
    sparse : bool
        Only for a gradient, as in torch: the result does not depend on it.
    per_sample_weights : array_like or torch.Tensor, optional
        A weight per id (the shape of ``input``, ``weight``'s dtype), with
        ``mode="sum"`` only.
    include_last_offset : bool
        ``offsets`` has one entry more, the end of the last bag.
    padding_idx : int, optional
        Ids whose row is this one (negative counts from the end) are skipped
        and not counted by ``mean``.
    oob_mode : {"check", "fill", "clamp", "wrap", "unchecked"}
        What an id outside ``[-num, num)`` does: ``IndexError``, a row of
        zeros (it still counts in ``mean``), the nearest row, Python modulo,
        or nothing checked.
    out : numpy.ndarray or torch.Tensor, optional
        ``[bags, dim]`` of ``weight``'s dtype to write the result into.

    Returns
    -------
    numpy.ndarray or torch.Tensor
        ``[bags, dim]``, ``weight``'s dtype: ``out`` if given, else a torch
        tensor if ``weight`` is one, else a numpy array.

    >>> gather_mlir.embedding_bag([0, 2, 1, 1], np.eye(3, dtype=np.float32),
    ...                           offsets=[0, 2], mode="sum")
    array([[1., 0., 1.],
           [0., 2., 0.]], dtype=float32)
    """
    if max_norm is None:
        return _bag("embedding_bag", input, weight, offsets, mode,
                    per_sample_weights, include_last_offset, padding_idx,
                    oob_mode, out, scale_grad_by_freq=scale_grad_by_freq,
                    sparse=sparse)
    max_norm = _number("max_norm", max_norm)
    norm_type = _number("norm_type", norm_type)
    table = weight
    if not _is_tensor(weight):
        table = np.asarray(weight)
        # An array-like becomes a new array: its renormalized rows are read
        # and nobody else sees them.
        if table is weight and not table.flags.writeable:
            raise ValueError("embedding_bag: max_norm renormalizes weight "
                             "in place, and weight is read-only")
    undo = None
    if _renormalizable(table):
        rows = _selected_rows(input, table.shape[0], oob_mode)
        if rows is not None and rows.size:
            undo = _renormalize(table, rows, max_norm, norm_type)
    try:
        return _bag("embedding_bag", input, table, offsets, mode,
                    per_sample_weights, include_last_offset, padding_idx,
                    oob_mode, out, scale_grad_by_freq=scale_grad_by_freq,
                    sparse=sparse)
    except BaseException:
        if undo is not None:
            undo()
        raise


def embedding_bag_rowwise_quantized(input, weight, offsets=None, mode="sum",
                                    per_sample_weights=None,
                                    include_last_offset=False, *, bits=8,
                                    oob_mode="check", out=None):
    """Sum, mean or max of bags of rows of a row-wise quantized table,
    dequantized as they are read (``torch.ops.quantized``'s
    ``embedding_bag_byte_rowwise_offsets`` for ``bits=8``,
    ``embedding_bag_4bit_rowwise_offsets`` for ``bits=4``).

    ``weight`` is uint8 ``[num, bytes]`` in FBGEMM's fused layout (what
    ``torch.ops.quantized.embedding_bag_byte_prepack`` and
    ``embedding_bag_4bit_prepack`` produce): each row holds its values (8
    bits, or 4 bits two a byte, low nibble first), then its scale and bias
    (float32 each for 8 bits, float16 each for 4 bits); a value is
    ``q * scale + bias``. The result is float32 ``[bags, bytes - 8]`` (8
    bits) or ``[bags, 2 * (bytes - 4)]`` (4 bits); ``per_sample_weights``
    is float32. The other arguments are ``embedding_bag``'s; a row shorter
    than its scale and bias is a ``ValueError``.

    >>> q = np.array([[1, 2, 0, 0, 0, 64, 0, 0, 0, 0]], np.uint8)  # scale 2
    >>> gather_mlir.embedding_bag_rowwise_quantized([0, 0], q, [0])
    array([[4., 8.]], dtype=float32)
    """
    # An integer 8 or 4 (numpy's too), not a float or bool that equals one.
    if (isinstance(bits, bool) or not hasattr(bits, "__index__")
            or bits not in (8, 4)):
        raise ValueError("embedding_bag_rowwise_quantized: bits must be 8 or "
                         f"4, not {bits!r}")
    return _bag("embedding_bag_rowwise_quantized", input, weight, offsets,
                mode, per_sample_weights, include_last_offset, None,
                oob_mode, out, rowwise_bits=int(bits))
