"""``gather_mlir.gather_block_quantized``: ONNX Runtime's GatherBlockQuantized
as a ``gather.embedding_bag`` of a block-quantized table.

Each id is a bag of one (fixed-length bags ``[n, 1]``, ``sum``): the op's
block-quantized table (``scales``, optional ``zero_points``, ``block_bits``,
``block_size``) is dequantized in registers as each row is read, 128 values
(or a block) at a time, the id's mode applied once, so no packed or
dequantized row is written in between. Results of as many f32 bytes as
the package's gathers need run on threads (``gather-to-llvm{parallel=true}``:
1 MiB on two cores). Each combination of row
bytes, dtypes, bits, block size, zero points, mode and threading is one
kernel, compiled
once by ``compiler.JitModule``.
"""

import numpy as np

from . import _is_tensor, _mode
from ._jit import (KernelCache, array, deliver, destination,
                   embedding_bag_kernel, on_threads, signed_ids)

_SCALES = {np.dtype(np.float16), np.dtype(np.float32)}


def _compile(row_bytes, ids, scale, bits, block, has_zero_points, mode,
             parallel):
    """One kernel: bags of one id ([n, 1] ids of dtype ``ids``) summed from a
    block-quantized table of rows of ``row_bytes`` with scales of dtype
    ``scale``."""
    return embedding_bag_kernel(
        "gbq", parallel, table=np.dtype(np.int8), row_width=row_bytes,
        ids=ids, ids_rank=2,
        bag_length=1, offsets=False, per_sample_weights=None, scales=scale,
        zero_points=has_zero_points, reduction="sum", padding_idx=None,
        include_last_offset=False, mode=mode, rowwise_bits=None,
        block_bits=bits, block_size=block)


_kernel = KernelCache(_compile)


def _array(name, value):
    return array("gather_block_quantized", name, value)


def gather_block_quantized(data, indices, scales, zero_points=None, *,
                           gather_axis=0, quantize_axis=1, block_size=128,
                           bits=4, mode="check", out=None):
    """Gather rows of a block-quantized table and dequantize them (ONNX
    Runtime's ``com.microsoft`` GatherBlockQuantized, its attributes by
    name).

    ``data`` is uint8 ``[N, K * bits / 8]``: ``bits``-bit values (2, 4 or 8)
    along the last axis, low bits first. ``scales`` (float32 or float16)
    holds one scale per ``block_size`` values (a power of two >= 16) of each
    row, ``[N, ceil(K / block_size)]``; ``zero_points`` (uint8, optional) is
    packed like the data along those blocks (default ``2^(bits-1)``). The
    result is ``indices.shape + [K]`` of the scales' dtype, each value
    ``(q - zero_point) * scale``; ``mode`` is what an index outside
    ``[-N, N)`` does, as in ``gather``. Only ``gather_axis=0`` and the last
    axis as ``quantize_axis`` are supported.
    """
    mode = _mode(mode)
    if gather_axis != 0:
        raise ValueError("gather_block_quantized: gather_axis must be 0, not "
                         f"{gather_axis!r}")
    if bits not in (2, 4, 8) or isinstance(bits, bool):
        raise ValueError(f"gather_block_quantized: bits must be 2, 4 or 8, "
                         f"not {bits!r}")
    if (isinstance(block_size, bool) or not isinstance(block_size, int) or
            block_size < 16 or block_size & (block_size - 1)):
        raise ValueError("gather_block_quantized: block_size must be a power "
                         f"of two >= 16, not {block_size!r}")
    torch_scales = _is_tensor(scales)
    table = _array("data", data)
    if table.dtype != np.uint8:
        raise TypeError("gather_block_quantized: data must be uint8 (packed "
                        f"values), not {table.dtype}")
    if table.ndim != 2:
        raise ValueError("gather_block_quantized: data must be 2-D, not of "
                         f"shape {table.shape}")
    if quantize_axis not in (1, -1):
        raise ValueError("gather_block_quantized: quantize_axis must be the "
                         f"last axis (1 or -1), not {quantize_axis!r}")
    num, packed = table.shape
    width = packed * (8 // bits)
    blocks = -(-width // block_size)
    scale_array = _array("scales", scales)
    if scale_array.dtype not in _SCALES:
        raise TypeError("gather_block_quantized: scales must be float32 or "
                        f"float16, not {scale_array.dtype}")
    if scale_array.shape != (num, blocks):
        raise ValueError("gather_block_quantized: scales must have shape "
                         f"{(num, blocks)} (a scale per block of "
                         f"{block_size} values), not {scale_array.shape}")
    operands_zp = []
    if zero_points is not None:
        zp = _array("zero_points", zero_points)
        if zp.dtype != np.uint8:
            raise TypeError("gather_block_quantized: zero_points must be "
                            f"uint8, not {zp.dtype}")
        zp_shape = (num, -(-blocks // (8 // bits)))
        if zp.shape != zp_shape:
            raise ValueError("gather_block_quantized: zero_points must have "
                             f"shape {zp_shape}, not {zp.shape}")
        operands_zp = [np.ascontiguousarray(zp).view(np.int8)]
    index_array = _array("indices", indices)
    shape = index_array.shape
    ids = signed_ids(index_array, num, mode, "gather_block_quantized",
                     "indices", "gather.embedding_bag")
    # Bags of one id each.
    ids = np.ascontiguousarray(ids.reshape(-1, 1))
    scale_dtype = scale_array.dtype.newbyteorder("=")
    key = (table.shape[1], ids.dtype, scale_dtype, bits, block_size,
           bool(operands_zp), mode, on_threads(ids.size * width))
    operands = [np.ascontiguousarray(table).view(np.int8), ids,
                np.ascontiguousarray(scale_array, dtype=scale_dtype)
                ] + operands_zp
    result = destination("gather_block_quantized", shape + (width,),
                         scale_dtype, out, operands)
    # The kernel writes [ids, width]: a view of the C-contiguous result.
    _kernel(key).call("gbq", *operands, result.reshape(ids.shape[0], width))
    return deliver("gather_block_quantized", result, out, torch_scales)
