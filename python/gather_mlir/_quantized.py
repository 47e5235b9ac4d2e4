"""``gather_mlir.gather_block_quantized``: ONNX Runtime's GatherBlockQuantized
as a ``gather.embedding_bag`` of a block-quantized table.

Each id is a bag of one (fixed-length bags ``[n, 1]``, ``sum``): the op's
block-quantized table (``scales``, optional ``zero_points``, ``block_bits``,
``block_size``) is dequantized in registers as each row is read, 128 values
(or a block) at a time, the id's mode applied once, so no packed or
dequantized row is written in between. Results of as many f32 bytes as
the package's gathers need run on threads (``gather-to-llvm{parallel=true}``:
1 MiB on two cores). The arguments' rules, the kernels and the call are
native (``_native.gather_block_quantized``, python/src/EmbeddingBags.cpp):
each combination of row bytes, dtypes, bits, block size, zero points, mode
and threading is one kernel, compiled and kept on disk as the gathers'
kernels are.
"""

from . import _native
from ._tensors import any_tensor, returned, view


def gather_block_quantized(data, indices, scales, zero_points=None, *,
                           gather_axis=0, quantize_axis=1, block_size=128,
                           bits=4, mode="check", out=None):
    """Gather rows of a block-quantized table and dequantize them (ONNX
    Runtime's ``com.microsoft`` GatherBlockQuantized, its attributes by
    name).

    ``data`` is uint8 ``[N, ..., K * bits / 8]`` (rank r >= 2): ``bits``-bit
    values (2, 4 or 8) along the last axis, low bits first. ``scales``
    (float32 or float16) holds one scale per ``block_size`` values (a power
    of two >= 16) of each row along the last axis,
    ``[N, ..., ceil(K / block_size)]``; ``zero_points`` (uint8, optional)
    is packed like the data along those blocks (default ``2^(bits-1)``).
    The result is ``indices.shape + data.shape[1:-1] + [K]`` of the scales'
    dtype, each value ``(q - zero_point) * scale``; ``mode`` is what an
    index outside ``[-N, N)`` does, as in ``gather``. Only ``gather_axis=0``
    (or -r) and the last axis as ``quantize_axis`` (r - 1 or -1) are
    supported, as in ONNX Runtime for uint8 data.
    """
    function = "gather_block_quantized"
    if not any_tensor(data, indices, scales, zero_points, out):
        return _native.gather_block_quantized(
            data, indices, scales, zero_points, gather_axis, quantize_axis,
            block_size, bits, mode, out)
    # No bfloat16 here: uint8 data and zero points, f32 or f16 scales.
    result = _native.gather_block_quantized(
        view(function, "data", data, bfloat16=False),
        view(function, "indices", indices, index=True),
        view(function, "scales", scales, bfloat16=False),
        view(function, "zero_points", zero_points, bfloat16=False),
        gather_axis, quantize_axis, block_size, bits, mode,
        view(function, "out", out, bfloat16=False))
    return returned(result, out, scales)
