"""``gather_mlir.embedding_bag`` and ``embedding_bag_rowwise_quantized``:
``gather.embedding_bag`` from Python.

``embedding_bag`` is a drop-in for ``torch.nn.functional.embedding_bag`` (its
arguments in its order; the out-of-range mode is ``oob_mode``);
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
rules).
"""

from . import _carrier, _native
from ._tensors import any_tensor, returned, view


def _bag(function, input, weight, offsets, mode, per_sample_weights,
         include_last_offset, padding_idx, oob_mode, out, rowwise_bits=None):
    """``function``'s call: ``_native.embedding_bag`` checks the arguments
    (arrays or array-likes), picks the kernel and calls it; torch tensors
    are viewed as arrays first, and a torch ``weight`` gives a torch
    result."""
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
        The table ``[num, dim]``: float16, float32 or float64, or a
        ``torch.bfloat16`` tensor (float16 and bfloat16 accumulate in
        float32).
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
    return _bag("embedding_bag", input, weight, offsets, mode,
                per_sample_weights, include_last_offset, padding_idx,
                oob_mode, out)


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
