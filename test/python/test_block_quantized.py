"""gather_mlir.gather_block_quantized against a numpy reference written from
docs/Semantics.md (unpack low bits first, subtract the block's zero point,
times the block's scale): 2-, 4- and 8-bit values, float32 and float16
scales, with and without zero points, rows whose last block is partial,
index arrays of any rank, every mode, and the errors. ONNX Runtime's own
kernel is compared in test/python/peers."""
import numpy as np
import pytest

import gather_mlir as g


def _unpack(packed, bits):
    """The values of each row, low bits first."""
    per = 8 // bits
    shifts = np.arange(per, dtype=np.uint8) * bits
    values = (packed[..., None] >> shifts) & ((1 << bits) - 1)
    return values.reshape(packed.shape[0], -1).astype(np.int64)


def _reference(data, indices, scales, zero_points, bits, block, mode):
    num = data.shape[0]
    q = _unpack(data, bits)
    width = q.shape[1]
    blocks = np.arange(width) // block
    z = (_unpack(zero_points, bits)[:, blocks] if zero_points is not None
         else np.full((num, width), 2 ** (bits - 1)))
    values = ((q - z) * scales.astype(np.float32)[:, blocks]).astype(
        scales.dtype)
    out = np.zeros(indices.shape + (width,), scales.dtype)
    for pos, i in np.ndenumerate(indices):
        i = int(i)
        n = i + num if -num <= i < 0 else i
        if 0 <= n < num:
            out[pos] = values[n]
        elif mode == "clamp":
            out[pos] = values[min(max(n, 0), num - 1)]
        elif mode == "wrap":
            out[pos] = values[i % num]
        # fill: zeros
    return out


def _case(rng, bits, block, width, num=9, scale_dtype=np.float32):
    data = rng.integers(0, 256, (num, width * bits // 8), dtype=np.uint8)
    blocks = -(-width // block)
    scales = (rng.random((num, blocks)) + 0.5).astype(scale_dtype)
    zero_points = rng.integers(0, 256, (num, -(-blocks // (8 // bits))),
                               dtype=np.uint8)
    return data, scales, zero_points


@pytest.mark.parametrize("bits", [2, 4, 8])
@pytest.mark.parametrize("scale_dtype", [np.float32, np.float16])
@pytest.mark.parametrize("with_zero_points", [True, False])
def test_matches_reference(bits, scale_dtype, with_zero_points):
    rng = np.random.default_rng(bits * 10 + with_zero_points)
    # Whole blocks, and a last block of 64 of 128 values.
    for width, block in ((256, 64), (192, 128), (64, 16)):
        data, scales, zp = _case(rng, bits, block, width,
                                 scale_dtype=scale_dtype)
        zp = zp if with_zero_points else None
        indices = rng.integers(-9, 9, (3, 4))
        result = g.gather_block_quantized(data, indices, scales, zp,
                                          block_size=block, bits=bits)
        expected = _reference(data, indices, scales, zp, bits, block, "check")
        assert result.dtype == expected.dtype
        assert result.shape == expected.shape
        tol = 1e-3 if scale_dtype == np.float16 else 1e-6
        np.testing.assert_allclose(result.astype(np.float32),
                                   expected.astype(np.float32),
                                   rtol=tol, atol=tol)


def test_tables_of_several_widths():
    """A kernel a row width: tables that differ only in their width, one
    after another and the first again, each give the reference."""
    rng = np.random.default_rng(11)
    cases = [_case(rng, 4, 32, width) for width in (64, 96, 32)]
    for data, scales, zp in cases + cases[:1]:
        indices = rng.integers(-9, 9, 5)
        np.testing.assert_allclose(
            g.gather_block_quantized(data, indices, scales, zp,
                                     block_size=32),
            _reference(data, indices, scales, zp, 4, 32, "check"),
            rtol=1e-6)


@pytest.mark.parametrize("bits", [4, 8])
def test_tiles_on_threads(bits):
    # Enough values for the threaded kernel; 150 ids are two whole tiles of
    # 64 and a partial one.
    rng = np.random.default_rng(bits)
    data, scales, zp = _case(rng, bits, 128, 2048, num=40)
    indices = rng.integers(-40, 40, 150)
    result = g.gather_block_quantized(data, indices, scales, zp,
                                      block_size=128, bits=bits)
    np.testing.assert_allclose(
        result, _reference(data, indices, scales, zp, bits, 128, "check"),
        rtol=1e-6)


@pytest.mark.parametrize("mode", ["fill", "clamp", "wrap"])
def test_modes(mode):
    rng = np.random.default_rng(7)
    data, scales, zp = _case(rng, 4, 32, 128)
    indices = np.array([0, 9, -10, 30, -1, 4])
    result = g.gather_block_quantized(data, indices, scales, zp,
                                      block_size=32, mode=mode)
    np.testing.assert_allclose(
        result, _reference(data, indices, scales, zp, 4, 32, mode),
        rtol=1e-6)


def _dequantized(data, scales, zero_points, bits, block):
    """Every value of data of any rank >= 2, dequantized along the last
    axis: [..., K] of the scales' dtype."""
    per = 8 // bits
    shifts = np.arange(per, dtype=np.uint8) * bits
    q = ((data[..., None] >> shifts) & ((1 << bits) - 1)).reshape(
        data.shape[:-1] + (-1,)).astype(np.int64)
    blocks = np.arange(q.shape[-1]) // block
    if zero_points is None:
        z = np.full(q.shape, 2 ** (bits - 1))
    else:
        z = ((zero_points[..., None] >> shifts) & ((1 << bits) - 1)).reshape(
            zero_points.shape[:-1] + (-1,))[..., blocks]
    return ((q - z) * scales.astype(np.float32)[..., blocks]).astype(
        scales.dtype)


def _take(values, rows, mode):
    num = values.shape[0]
    out = values[np.clip(rows, 0, num - 1)]
    if mode == "fill":
        out[(rows < 0) | (rows >= num)] = 0
    return out


@pytest.mark.parametrize("shape", [(6, 3, 16), (5, 2, 3, 24), (4, 1, 8)])
@pytest.mark.parametrize("mode", ["check", "fill", "clamp", "wrap"])
def test_data_of_rank_3_and_more(shape, mode):
    """ONNX Runtime's data of any rank: gathered along axis 0, quantized
    along the last, every dim between kept in the result."""
    rng = np.random.default_rng(len(shape) * 10 + len(mode))
    bits, block = 4, 16
    num = shape[0]
    data = rng.integers(0, 256, shape, dtype=np.uint8)
    width = shape[-1] * 8 // bits
    blocks = -(-width // block)
    scales = (rng.random(shape[:-1] + (blocks,)) + 0.5).astype(np.float32)
    zp = rng.integers(0, 256, shape[:-1] + (-(-blocks // (8 // bits)),),
                      dtype=np.uint8)
    indices = (np.array([[0, num - 1, -1], [2, -num, 1]]) if mode == "check"
               else np.array([[0, num + 2, -1], [-num - 3, 2, 1]]))
    values = _dequantized(data, scales, zp, bits, block)
    # The row each index picks (out of [0, num) only in fill mode).
    rows = {"check": np.where(indices < 0, indices + num, indices),
            "fill": np.where(indices < 0, indices + num, indices),
            "clamp": np.clip(np.where(indices < 0, indices + num, indices),
                             0, num - 1),
            "wrap": indices % num}[mode]
    expected = _take(values, rows, mode)
    result = g.gather_block_quantized(data, indices, scales, zp,
                                      block_size=block, bits=bits,
                                      quantize_axis=len(shape) - 1,
                                      mode=mode)
    assert result.shape == indices.shape + shape[1:-1] + (width,)
    np.testing.assert_allclose(result, expected, rtol=1e-6)
    # Without zero points, and the axes counted from the end.
    np.testing.assert_allclose(
        g.gather_block_quantized(data, indices, scales, block_size=block,
                                 bits=bits, gather_axis=-len(shape),
                                 quantize_axis=-1, mode=mode),
        _take(_dequantized(data, scales, None, bits, block), rows, mode),
        rtol=1e-6)


def test_data_of_rank_3_errors():
    rng = np.random.default_rng(12)
    data = rng.integers(0, 256, (4, 3, 8), dtype=np.uint8)
    scales = np.ones((4, 3, 1), np.float32)

    def gather(data, indices, scales, zero_points=None, **kwargs):
        kwargs = {"block_size": 16, "quantize_axis": -1, **kwargs}
        return g.gather_block_quantized(data, indices, scales, zero_points,
                                        **kwargs)

    with pytest.raises(IndexError, match=r"^gather_block_quantized: index 4 "
                       r"is out of range \[-4, 3\] for data dimension 0"):
        gather(data, [1, 4, 9], scales)
    with pytest.raises(IndexError, match="which is empty"):
        gather(data[:0], [0], scales[:0], mode="clamp")
    with pytest.raises(ValueError, match=r"scales must have shape "
                       r"\(4, 3, 1\)"):
        gather(data, [0], scales[:, :2])
    with pytest.raises(ValueError, match=r"zero_points must have shape "
                       r"\(4, 3, 1\)"):
        gather(data, [0], scales, np.zeros((4, 1), np.uint8))
    with pytest.raises(ValueError, match=r"gather_axis must be 0 \(or -3\)"):
        gather(data, [0], scales, gather_axis=-2)
    with pytest.raises(ValueError, match=r"quantize_axis must be the last "
                       r"axis \(2 or -1\)"):
        gather(data, [0], scales, quantize_axis=1)
    with pytest.raises(ValueError, match="data must have at least 2"):
        gather(data[0, 0], [0], scales[0, 0])
    # An empty dim between: an empty result, its index still checked.
    assert gather(data[:, :0], [1], scales[:, :0]).shape == (1, 0, 16)
    with pytest.raises(IndexError, match="index 5"):
        gather(data[:, :0], [5], scales[:, :0])


def test_scalar_index_and_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(8)
    data, scales, zp = _case(rng, 8, 16, 32)
    expected = _reference(data, np.array(2), scales, zp, 8, 16, "check")
    np.testing.assert_allclose(
        g.gather_block_quantized(data, 2, scales, zp, block_size=16, bits=8),
        expected, rtol=1e-6)
    result = g.gather_block_quantized(torch.from_numpy(data), torch.tensor([2]),
                                      torch.from_numpy(scales),
                                      torch.from_numpy(zp), block_size=16,
                                      bits=8)
    assert isinstance(result, torch.Tensor)
    np.testing.assert_allclose(result.numpy()[0], expected, rtol=1e-6)


def test_errors():
    rng = np.random.default_rng(9)
    data, scales, zp = _case(rng, 4, 16, 32)
    # The message names the function called, not the op its kernel is.
    with pytest.raises(IndexError, match=r"^gather_block_quantized: index 9 "
                       r"is out of range \[-9, 8\]"):
        g.gather_block_quantized(data, [9], scales, block_size=16)
    with pytest.raises(IndexError, match="^gather_block_quantized: index "
                       "18446744073709551615 is out of range"):
        g.gather_block_quantized(data, np.array([2**64 - 1], np.uint64),
                                 scales, block_size=16)
    with pytest.raises(ValueError, match="bits must be 8, 4 or 2"):
        g.gather_block_quantized(data, [0], scales, block_size=16, bits=3)
    # bits is an integer: a float is named (it used to reach a shape error).
    with pytest.raises(ValueError, match=r"bits must be 8, 4 or 2, not 4\.0"):
        g.gather_block_quantized(data, [0], scales, block_size=16, bits=4.0)
    with pytest.raises(ValueError, match="block_size must be a power of two"):
        g.gather_block_quantized(data, [0], scales, block_size=24)
    with pytest.raises(ValueError, match="gather_axis must be 0"):
        g.gather_block_quantized(data, [0], scales, block_size=16,
                                 gather_axis=1)
    # Axes are integers, as block_size and bits are.
    for axis in (0.0, -2.0, False):
        with pytest.raises(ValueError, match="gather_axis must be 0"):
            g.gather_block_quantized(data, [0], scales, block_size=16,
                                     gather_axis=axis)
    with pytest.raises(ValueError, match="quantize_axis must be the last"):
        g.gather_block_quantized(data, [0], scales, block_size=16,
                                 quantize_axis=1.0)
    # numpy integers are integers; gather_axis -2 is axis 0 of 2-D data, as
    # ONNX Runtime normalizes it.
    expected = g.gather_block_quantized(data, [3, 0], scales, zp,
                                        block_size=16)
    np.testing.assert_array_equal(
        g.gather_block_quantized(data, [3, 0], scales, zp,
                                 block_size=np.int64(16), bits=np.int8(4),
                                 gather_axis=-2, quantize_axis=np.int64(-1)),
        expected)
    np.testing.assert_array_equal(
        expected, _reference(data, np.array([3, 0]), scales, zp, 4, 16,
                             "check"))
    # Big-endian scales hold the same values.
    np.testing.assert_array_equal(
        g.gather_block_quantized(data, [3, 0], scales.astype(">f4"), zp,
                                 block_size=16),
        expected)
    with pytest.raises(ValueError, match="quantize_axis must be the last"):
        g.gather_block_quantized(data, [0], scales, block_size=16,
                                 quantize_axis=0)
    with pytest.raises(TypeError, match="data must be uint8"):
        g.gather_block_quantized(data.astype(np.int8), [0], scales,
                                 block_size=16)
    with pytest.raises(ValueError, match=r"scales must have shape \(9, 2\)"):
        g.gather_block_quantized(data, [0], scales[:, :1], block_size=16)
    with pytest.raises(TypeError, match="scales must be float32 or float16"):
        g.gather_block_quantized(data, [0], scales.astype(np.float64),
                                 block_size=16)
    with pytest.raises(ValueError, match=r"zero_points must have shape "
                       r"\(9, 1\)"):
        g.gather_block_quantized(data, [0], scales, zp[:, :0], block_size=16)
    with pytest.raises(TypeError, match="indices must have an integer dtype"):
        g.gather_block_quantized(data, [0.5], scales, block_size=16)
    with pytest.raises(ValueError, match="mode must be one of"):
        g.gather_block_quantized(data, [0], scales, block_size=16,
                                 mode="nearest")


def test_out():
    rng = np.random.default_rng(10)
    data, scales, zp = _case(rng, 4, 16, 32)
    out = np.empty((2, 32), np.float32)
    assert g.gather_block_quantized(data, [1, 2], scales, zp, block_size=16,
                                    out=out) is out
    np.testing.assert_allclose(
        out, _reference(data, np.array([1, 2]), scales, zp, 4, 16, "check"),
        rtol=1e-6)
    with pytest.raises(TypeError, match="out has dtype float64"):
        g.gather_block_quantized(data, [1], scales, block_size=16,
                                 out=np.empty((1, 32)))
    with pytest.raises(ValueError, match=r"out has shape \(2, 32\)"):
        g.gather_block_quantized(data, [1], scales, block_size=16,
                                 out=np.empty((2, 32), np.float32))
