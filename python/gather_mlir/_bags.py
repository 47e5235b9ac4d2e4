"""``gather_mlir.embedding_bag`` and ``embedding_bag_rowwise_quantized``:
``gather.embedding_bag`` from Python.

``embedding_bag`` is a drop-in for ``torch.nn.functional.embedding_bag`` (its
arguments in its order; the out-of-range mode is ``oob_mode``);
``embedding_bag_rowwise_quantized`` takes the same arguments for tables in
FBGEMM's row-wise quantized layout (the op's ``rowwise_bits``). Each
combination of dtypes, row width, layout and attributes is one kernel: a
module holding one ``gather.embedding_bag`` with dynamic shapes but the
table's width, lowered by
``gather-to-llvm`` (``parallel=true`` for large bags) and JIT-compiled once
by ``gather_mlir.compiler.JitModule``, which checks the operands against the
function's types and turns the run-time hooks into ``IndexError`` (an id out
of range in ``check`` mode) and ``ValueError`` (offsets that break torch's
rules).
"""

import numpy as np

from . import _is_tensor, _mode, _native
from ._jit import (INT64_MAX, KernelCache, array, deliver, destination,
                   embedding_bag_kernel, on_threads, signed_ids)

#: numpy dtypes of tables and per-sample weights.
_FLOATS = {np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)}
_REDUCTIONS = ("sum", "mean", "max")


def _compile(table, width, ids, has_offsets, has_weights, reduction,
             padding_idx, include_last_offset, oob_mode, parallel,
             rowwise_bits):
    """One gather.embedding_bag kernel; ``table`` and ``ids`` are dtypes
    (int8 bytes with ``rowwise_bits``), ``width`` the table's columns (a
    kernel a width, as FBGEMM's are: the row stride a constant)."""
    weights = np.dtype(np.float32) if rowwise_bits else table
    return embedding_bag_kernel(
        "bag", parallel, table=table, row_width=width, ids=ids,
        ids_rank=1 if has_offsets else 2, bag_length=None,
        offsets=has_offsets,
        per_sample_weights=weights if has_weights else None, scales=None,
        zero_points=False, reduction=reduction, padding_idx=padding_idx,
        include_last_offset=include_last_offset, mode=oob_mode,
        rowwise_bits=rowwise_bits, block_bits=None, block_size=None)


_kernel = KernelCache(_compile)


def _bag(function, input, table, offsets, mode, per_sample_weights,
         include_last_offset, padding_idx, oob_mode, out, as_tensor,
         rowwise_bits=None):
    """The arguments of ``function`` checked (``table``: weight as an
    array, its dtype checked by the caller) and its one kernel called."""

    def _array(name, value):
        return array(function, name, value)

    oob_mode = _mode(oob_mode)
    if not isinstance(mode, str) or mode not in _REDUCTIONS:
        raise ValueError(f"{function}: mode must be one of "
                         f"{', '.join(_REDUCTIONS)}, not {mode!r}")
    if table.ndim != 2:
        raise ValueError(f"{function}: weight must be 2-D [num, dim], "
                         f"not of shape {table.shape}")
    num = table.shape[0]
    ids = signed_ids(_array("input", input), num, oob_mode, function,
                     "input", "gather.embedding_bag")
    if offsets is None:
        if ids.ndim != 2:
            raise ValueError(f"{function}: input must be 2-D [bags, n] "
                             "without offsets, not of shape "
                             f"{ids.shape}")
        if include_last_offset:
            raise ValueError(f"{function}: include_last_offset needs "
                             "offsets (1-D input)")
        bag_offsets = None
    else:
        if ids.ndim != 1:
            raise ValueError(f"{function}: input must be 1-D with offsets, "
                             f"not of shape {ids.shape}")
        bag_offsets = _array("offsets", offsets)
        if bag_offsets.dtype.kind not in "iu":
            raise TypeError(f"{function}: offsets must have an integer "
                            f"dtype, not {bag_offsets.dtype}")
        if bag_offsets.ndim != 1:
            raise ValueError(f"{function}: offsets must be 1-D, not of "
                             f"shape {bag_offsets.shape}")
        if bag_offsets.dtype.kind == "u" and bag_offsets.size and \
                int(bag_offsets.max()) > INT64_MAX:
            raise ValueError(f"{function}: offsets must not be past the "
                             f"end of the {ids.size} ids")
        bag_offsets = np.ascontiguousarray(bag_offsets, dtype=np.int64)
        if include_last_offset and bag_offsets.size == 0:
            raise ValueError(f"{function}: include_last_offset needs at "
                             "least one offset")
    value_dtype = np.dtype(np.float32) if rowwise_bits else table.dtype
    weights = None
    if per_sample_weights is not None:
        if mode != "sum":
            raise ValueError(f"{function}: per_sample_weights is only "
                             f"supported with mode='sum', not {mode!r}")
        weights = _array("per_sample_weights", per_sample_weights)
        if weights.dtype != value_dtype:
            whose = "dtype" if rowwise_bits else "weight's dtype"
            raise TypeError(f"{function}: per_sample_weights must have "
                            f"{whose} {value_dtype}, not {weights.dtype}")
        if weights.shape != ids.shape:
            raise ValueError(f"{function}: per_sample_weights must have "
                             f"input's shape {ids.shape}, not "
                             f"{weights.shape}")
        weights = np.ascontiguousarray(weights,
                                       dtype=weights.dtype.newbyteorder("="))
    if padding_idx is not None:
        if isinstance(padding_idx, bool) or not isinstance(
                padding_idx, (int, np.integer)):
            raise TypeError(f"{function}: padding_idx must be an integer, "
                            f"not {type(padding_idx).__name__}")
        padding_idx = int(padding_idx)
        if not -num <= padding_idx < num:
            raise ValueError(f"{function}: padding_idx {padding_idx} is "
                             f"out of range [{-num}, {num - 1}] for a table "
                             f"of {num} rows")
    if rowwise_bits:
        # Bytes, which the kernel reads unsigned. A row too short for its
        # scale and bias is the kernel's error, before it writes anything.
        # (Its kernel keeps the width dynamic, so that the verifier does not
        # reject the static one first.)
        table = np.ascontiguousarray(table).view(np.int8)
        values = _native.rowwise_values(table.shape[1], rowwise_bits)
        width = table.shape[1] if values >= 0 else None
        values = max(0, values)
    else:
        table = np.ascontiguousarray(table,
                                     dtype=table.dtype.newbyteorder("="))
        values = width = table.shape[1]
    parallel = on_threads(ids.size * values)
    key = (table.dtype, width, ids.dtype, bag_offsets is not None,
           weights is not None, mode, padding_idx, bool(include_last_offset),
           oob_mode, parallel, rowwise_bits)
    operands = [table, ids]
    if bag_offsets is not None:
        operands.append(bag_offsets)
    if weights is not None:
        operands.append(weights)
    if bag_offsets is None:
        bags = ids.shape[0]
    else:
        bags = bag_offsets.size - (1 if include_last_offset else 0)
    result = destination(function, (bags, values),
                         value_dtype.newbyteorder("="), out,
                         operands)
    _kernel(key).call("bag", *operands, result)
    return deliver(function, result, out, as_tensor)


def embedding_bag(input, weight, offsets=None, mode="mean",
                  per_sample_weights=None, include_last_offset=False,
                  padding_idx=None, *, oob_mode="check", out=None):
    """Sum, mean or max of bags of rows of ``weight``
    (``torch.nn.functional.embedding_bag``).

    Parameters
    ----------
    input : array_like of integers or torch.Tensor
        The ids: 1-D with ``offsets``, or 2-D ``[bags, n]`` (fixed-length
        bags) without. Negative ids count from the end of the table.
    weight : array_like or torch.Tensor
        The table ``[num, dim]``: float16, float32 or float64 (float16
        accumulates in float32).
    offsets : array_like of integers or torch.Tensor, optional
        Where each bag starts in ``input``: ``offsets[0] == 0``,
        non-decreasing, none past the end of ``input``.
    mode : {"sum", "mean", "max"}
        The reduction (torch's name); an empty bag is zeros.
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
    table = array("embedding_bag", "weight", weight)
    if table.dtype not in _FLOATS:
        raise TypeError(f"embedding_bag: weight must be float16, float32 or "
                        f"float64, not {table.dtype}")
    return _bag("embedding_bag", input, table, offsets, mode,
                per_sample_weights, include_last_offset, padding_idx,
                oob_mode, out, _is_tensor(weight))


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
    if bits not in (8, 4) or isinstance(bits, bool):
        raise ValueError("embedding_bag_rowwise_quantized: bits must be 8 or "
                         f"4, not {bits!r}")
    table = array("embedding_bag_rowwise_quantized", "weight", weight)
    if table.dtype != np.uint8:
        raise TypeError("embedding_bag_rowwise_quantized: weight must be "
                        "uint8 (a prepacked row-wise quantized table), not "
                        f"{table.dtype}")
    return _bag("embedding_bag_rowwise_quantized", input, table, offsets,
                mode, per_sample_weights, include_last_offset, None,
                oob_mode, out, _is_tensor(weight), rowwise_bits=bits)
