"""``gather_mlir.gather_block_quantized``: ONNX Runtime's GatherBlockQuantized
as a composition of gather ops.

The rows of the packed table, of its scales and of its zero points are
gathered with the same ids (``gather.gather``, the mode applied to each), and
one ``linalg.generic`` over ``[ids, packed bytes, values per byte]`` reads
each byte, its block's scale and zero-point byte through affine maps
(``b floordiv bytes-per-block``), unpacks the value (2, 4 or 8 bits, low
bits first), subtracts the zero point and multiplies by the scale; the
result is that tensor collapsed to ``[ids, values]``. Only the gathered packed rows are written between the two
(1/4 to 1/16 of the result for 8 to 2 bits). The generic runs in tiles of 64
ids, an ``scf.forall`` that ``gather-to-llvm{parallel=true}`` puts on
threads for results of 2^18 values or more. Each combination of dtypes,
bits, block size, zero points, mode and threading is one kernel, compiled
once by ``compiler.JitModule``.
"""

import numpy as np

from . import _native
from . import _is_tensor, _mode
from ._jit import ID_TYPES, KernelCache, array, deliver, signed_ids

_SCALES = {np.dtype(np.float16): "f16", np.dtype(np.float32): "f32"}

_KERNEL = """
#values = affine_map<(i, b, s) -> (i, b, s)>
#bytes = affine_map<(i, b, s) -> (i, b)>
#scales = affine_map<(i, b, s) -> (i, b floordiv {bytes_per_block})>
#zero_points = affine_map<(i, b, s) -> (i, b floordiv {bytes_per_zp_byte})>
func.func @gbq(%d: tensor<?x?xi8>, %i: tensor<?x{ids}>, %s: tensor<?x?x{scale}>{zp_arg}) -> tensor<?x?x{scale}> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = gather.gather %d[%i] {{mode = #gather<mode {mode}>}} : (tensor<?x?xi8>, tensor<?x{ids}>) -> tensor<?x?xi8>
  %scales = gather.gather %s[%i] {{mode = #gather<mode {mode}>}} : (tensor<?x?x{scale}>, tensor<?x{ids}>) -> tensor<?x?x{scale}>
{zp_gather}  %n = tensor.dim %rows, %c0 : tensor<?x?xi8>
  %packed = tensor.dim %rows, %c1 : tensor<?x?xi8>
  %blocks = tensor.dim %scales, %c1 : tensor<?x?x{scale}>
  %e = tensor.empty(%n, %packed) : tensor<?x?x{per}x{scale}>
  // Tiles of {tile} ids (threads with parallel=true).
  %r = scf.forall (%t) = (0) to (%n) step ({tile}) shared_outs(%acc = %e) -> (tensor<?x?x{per}x{scale}>) {{
  %size = affine.min affine_map<(t)[n] -> ({tile}, n - t)>(%t)[%n]
  %rows_t = tensor.extract_slice %rows[%t, 0] [%size, %packed] [1, 1] : tensor<?x?xi8> to tensor<?x?xi8>
  %scales_t = tensor.extract_slice %scales[%t, 0] [%size, %blocks] [1, 1] : tensor<?x?x{scale}> to tensor<?x?x{scale}>
{zp_tile}  %o_t = tensor.extract_slice %acc[%t, 0, 0] [%size, %packed, {per}] [1, 1, 1] : tensor<?x?x{per}x{scale}> to tensor<?x?x{per}x{scale}>
  %g = linalg.generic {{indexing_maps = [#bytes, #scales{zp_map}, #values], iterator_types = ["parallel", "parallel", "parallel"]}}
      ins(%rows_t, %scales_t{zp_in} : tensor<?x?xi8>, tensor<?x?x{scale}>{zp_type}) outs(%o_t : tensor<?x?x{per}x{scale}>) {{
  ^bb0(%byte: i8, %sc: {scale}{zp_block_arg}, %o: {scale}):
    %slot = linalg.index 2 : index
    %q = func.call @unpack(%byte, %slot) : (i8, index) -> i32
{zp_value}    %diff = arith.subi %q, %z : i32
    %f = arith.sitofp %diff : i32 to f32
{scale_f32}    %v = arith.mulf %f, {s32} : f32
{result}    linalg.yield {out} : {scale}
  }} -> tensor<?x?x{per}x{scale}>
  scf.forall.in_parallel {{
    tensor.parallel_insert_slice %g into %acc[%t, 0, 0] [%size, %packed, {per}] [1, 1, 1] : tensor<?x?x{per}x{scale}> into tensor<?x?x{per}x{scale}>
  }}
  }}
  %flat = tensor.collapse_shape %r [[0], [1, 2]] : tensor<?x?x{per}x{scale}> into tensor<?x?x{scale}>
  return %flat : tensor<?x?x{scale}>
}}

// Value `slot` of a byte of {bits}-bit values, low bits first, unsigned.
func.func private @unpack(%byte: i8, %slot: index) -> i32 attributes {{llvm.linkage = #llvm.linkage<internal>}} {{
  %bits = arith.constant {bits} : i8
  %mask = arith.constant {mask} : i8
  %slot8 = arith.index_cast %slot : index to i8
  %shift = arith.muli %slot8, %bits : i8
  %shifted = arith.shrui %byte, %shift : i8
  %q = arith.andi %shifted, %mask : i8
  %w = arith.extui %q : i8 to i32
  return %w : i32
}}
"""


#: Ids a tile of the dequantizing loop takes (one thread's work at a time).
_TILE = 64
#: Results of at least this many values are dequantized on threads.
_PARALLEL_MIN_VALUES = 1 << 18


def _compile(ids, scale, bits, block, has_zero_points, mode, parallel):
    per = 8 // bits
    mask = {2: 3, 4: 15, 8: -1}[bits]
    bytes_per_block = block // per
    zp_arg = zp_gather = zp_map = zp_in = zp_type = zp_block_arg = ""
    zp_tile = ""
    if has_zero_points:
        zp_arg = ", %zt: tensor<?x?xi8>"
        zp_gather = (f"  %zps = gather.gather %zt[%i] {{mode = #gather<mode "
                     f"{mode}>}} : (tensor<?x?xi8>, tensor<?x{ids}>) -> "
                     "tensor<?x?xi8>\n")
        zp_map, zp_in, zp_type = (", #zero_points", ", %zps_t",
                                   ", tensor<?x?xi8>")
        zp_tile = ("  %zp_bytes = tensor.dim %zps, %c1 : tensor<?x?xi8>\n"
                   "  %zps_t = tensor.extract_slice %zps[%t, 0] [%size, "
                   "%zp_bytes] [1, 1] : tensor<?x?xi8> to tensor<?x?xi8>\n")
        zp_block_arg = ", %zbyte: i8"
        # The block's zero point is slot (block mod per) of its byte.
        zp_value = (f"    %b = linalg.index 1 : index\n"
                    f"    %bpb = arith.constant {bytes_per_block} : index\n"
                    f"    %cper = arith.constant {per} : index\n"
                    f"    %blk = arith.divui %b, %bpb : index\n"
                    f"    %zslot = arith.remui %blk, %cper : index\n"
                    f"    %z = func.call @unpack(%zbyte, %zslot) : "
                    f"(i8, index) -> i32\n")
    else:
        zp_value = f"    %z = arith.constant {2 ** (bits - 1)} : i32\n"
    if scale == "f32":
        scale_f32, s32, result, out = "", "%sc", "", "%v"
    else:
        scale_f32 = f"    %s32 = arith.extf %sc : {scale} to f32\n"
        s32 = "%s32"
        result = f"    %out = arith.truncf %v : f32 to {scale}\n"
        out = "%out"
    text = _KERNEL.format(ids=ids, scale=scale, per=per, bits=bits, mask=mask,
                          mode=mode, bytes_per_block=bytes_per_block,
                          bytes_per_zp_byte=bytes_per_block * per,
                          zp_arg=zp_arg, zp_gather=zp_gather, zp_map=zp_map,
                          zp_in=zp_in, zp_type=zp_type, zp_tile=zp_tile,
                          tile=_TILE,
                          zp_block_arg=zp_block_arg, zp_value=zp_value,
                          scale_f32=scale_f32, s32=s32, result=result,
                          out=out)
    pipeline = "gather-to-llvm{parallel=true}" if parallel else "gather-to-llvm"
    return _native.JitModule(_native.Module(text), pipeline)


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
    # Nothing is read out of bounds when an unchecked promise is broken: the
    # rows are picked as clamp picks them (as every function of the
    # package does).
    if mode == "unchecked":
        mode = "clamp"
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
                     "indices", "gather.gather")
    ids = np.ascontiguousarray(ids.reshape(-1))
    key = (ID_TYPES[ids.dtype], _SCALES[scale_array.dtype], bits,
           block_size, bool(operands_zp), mode,
           ids.size * width >= _PARALLEL_MIN_VALUES)
    result = _kernel(key).call(
        "gbq", np.ascontiguousarray(table).view(np.int8), ids,
        np.ascontiguousarray(scale_array,
                             dtype=scale_array.dtype.newbyteorder("=")),
        *operands_zp)
    result = result.reshape(shape + (width,))
    return deliver("gather_block_quantized", result, out, torch_scales)
