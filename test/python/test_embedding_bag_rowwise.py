"""gather_mlir.embedding_bag_rowwise_quantized against torch's own quantized
kernels (torch.ops.quantized.embedding_bag_byte_rowwise_offsets and
embedding_bag_4bit_rowwise_offsets, on tables from their prepack ops):
sums, per-sample weights, include_last_offset, empty bags, int32 and int64
ids, rows shorter than, equal to and longer than the kernels' chunks. Those
ops take a mode but sum whatever it says (torch 1.13 and 2.13), so mean and
max are compared with F.embedding_bag on torch's own unpacked table; the
out-of-range modes and negative ids (which torch lacks) with a loop over
that table written from docs/Semantics.md; then the errors."""
import numpy as np
import pytest

import gather_mlir as g

torch = pytest.importorskip("torch")
Q = torch.ops.quantized
F = g.embedding_bag_rowwise_quantized
_MODES = {"sum": 0, "mean": 1, "max": 2}


def _prepack(rng, num, dim, bits):
    """A float table and torch's prepacked form of it."""
    table = torch.from_numpy(rng.standard_normal((num, dim)).astype(np.float32))
    pack = Q.embedding_bag_byte_prepack if bits == 8 else \
        Q.embedding_bag_4bit_prepack
    return pack(table).numpy()


def _bags(rng, num, bags=9, max_len=6):
    lengths = rng.integers(0, max_len + 1, bags)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    ids = rng.integers(0, num, int(lengths.sum())).astype(np.int64)
    return ids, offsets


def _unpack(packed, bits):
    """torch's float rows of a prepacked table."""
    unpack = Q.embedding_bag_byte_unpack if bits == 8 else \
        Q.embedding_bag_4bit_unpack
    return unpack(torch.from_numpy(packed))


def _torch(packed, ids, offsets, mode, bits, weights=None,
           include_last=False):
    """torch's quantized bag (a sum), or for mean and max torch's bag of
    the unpacked table."""
    ids, offsets = (torch.from_numpy(ids.astype(np.int64)),
                    torch.from_numpy(offsets.astype(np.int64)))
    if mode != "sum":
        assert weights is None
        return torch.nn.functional.embedding_bag(
            ids, _unpack(packed, bits), offsets, mode=mode,
            include_last_offset=include_last).numpy()
    op = Q.embedding_bag_byte_rowwise_offsets if bits == 8 else \
        Q.embedding_bag_4bit_rowwise_offsets
    return op(torch.from_numpy(packed), ids, offsets, False, _MODES[mode],
              False, None if weights is None else torch.from_numpy(weights),
              None, include_last).numpy()


def _reference(packed, ids, offsets, mode, bits, oob_mode):
    """Bags reduced by a loop over the dequantized rows, ids resolved by
    oob_mode (fill: a row of zeros that counts)."""
    rows = _unpack(packed, bits).numpy()
    num, dim = rows.shape
    ends = list(offsets[1:]) + [len(ids)]
    result = np.zeros((len(offsets), dim), np.float32)
    for b, (start, end) in enumerate(zip(offsets, ends)):
        picked = []
        for i in ids[start:end]:
            i = int(i)
            if oob_mode == "clamp":
                i = min(max(i + num if i < 0 else i, 0), num - 1)
            elif oob_mode == "wrap":
                i %= num
            elif i < 0:
                i += num
            picked.append(rows[i] if 0 <= i < num else np.zeros(dim))
        if not picked:
            continue
        stack = np.array(picked, np.float32)
        result[b] = {"sum": stack.sum, "mean": stack.mean,
                     "max": stack.max}[mode](axis=0)
    return result


def _close(result, expected):
    assert result.dtype == np.float32 and result.shape == expected.shape
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("bits,dims", [(8, (7, 64, 128, 200)),
                                       (4, (8, 64, 130, 256))])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("id_dtype", [np.int32, np.int64])
def test_matches_torch(bits, dims, mode, id_dtype):
    rng = np.random.default_rng(bits * 100 + _MODES[mode] * 10 +
                                np.dtype(id_dtype).itemsize)
    for dim in dims:
        packed = _prepack(rng, 40, dim, bits)
        ids, offsets = _bags(rng, 40)
        expected = _torch(packed, ids, offsets, mode, bits)
        result = F(ids.astype(id_dtype), packed, offsets, mode=mode,
                   bits=bits)
        assert result.shape == (len(offsets), dim)
        _close(result, expected)


@pytest.mark.parametrize("bits", [8, 4])
def test_per_sample_weights_and_last_offset(bits):
    rng = np.random.default_rng(bits)
    packed = _prepack(rng, 30, 48, bits)
    ids, offsets = _bags(rng, 30)
    weights = rng.standard_normal(ids.shape).astype(np.float32)
    _close(F(ids, packed, offsets, per_sample_weights=weights, bits=bits),
           _torch(packed, ids, offsets, "sum", bits, weights))
    # The last id in no bag (when the last bag has one).
    last = np.append(offsets, max(offsets[-1], len(ids) - 1))
    # (torch 1.13's mean counts the ids past the last offset: they are
    # left out of its input.)
    _close(F(ids, packed, last, mode="mean", include_last_offset=True,
             bits=bits),
           _torch(packed, ids[:last[-1]], last, "mean", bits,
                  include_last=True))


@pytest.mark.parametrize("bits,dim", [(8, 7), (4, 6)])
def test_fixed_length_bags(bits, dim):
    rng = np.random.default_rng(3)
    packed = _prepack(rng, 20, dim, bits)
    ids = rng.integers(0, 20, (5, 4)).astype(np.int64)
    flat_offsets = np.arange(0, 20, 4, dtype=np.int64)
    expected = _torch(packed, ids.reshape(-1), flat_offsets, "sum", bits)
    _close(F(ids, packed, bits=bits), expected)


@pytest.mark.parametrize("bits", [8, 4])
@pytest.mark.parametrize("oob_mode", ["fill", "clamp", "wrap"])
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_out_of_range_modes(bits, oob_mode, mode):
    rng = np.random.default_rng(7)
    packed = _prepack(rng, 12, 33 if bits == 8 else 34, bits)
    ids, offsets = _bags(rng, 12)
    ids = rng.integers(-30, 30, ids.shape).astype(np.int64)
    _close(F(ids, packed, offsets, mode=mode, bits=bits, oob_mode=oob_mode),
           _reference(packed, ids, offsets, mode, bits, oob_mode))


def test_torch_in_torch_out_and_out():
    rng = np.random.default_rng(4)
    packed = _prepack(rng, 10, 16, 8)
    ids, offsets = _bags(rng, 10)
    result = F(torch.from_numpy(ids), torch.from_numpy(packed),
               torch.from_numpy(offsets))
    assert isinstance(result, torch.Tensor)
    _close(result.numpy(), _torch(packed, ids, offsets, "sum", 8))
    out = np.empty((len(offsets), 16), np.float32)
    assert F(ids, packed, offsets, out=out) is out
    _close(out, _torch(packed, ids, offsets, "sum", 8))


def test_errors():
    packed = np.zeros((4, 12), np.uint8)
    ids, offsets = np.array([0, 1]), np.array([0])
    with pytest.raises(IndexError, match="index 4 is out of range"):
        F([0, 4], packed, offsets)
    with pytest.raises(ValueError, match="bits must be 8 or 4, not 2"):
        F(ids, packed, offsets, bits=2)
    # An integer: a float equal to 4 is named, not passed on.
    with pytest.raises(ValueError, match=r"bits must be 8 or 4, not 4\.0"):
        F(ids, packed, offsets, bits=4.0)
    np.testing.assert_array_equal(F(ids, packed, offsets, bits=np.int64(4)),
                                  F(ids, packed, offsets, bits=4))
    with pytest.raises(TypeError, match="weight must be uint8"):
        F(ids, packed.astype(np.float32), offsets)
    with pytest.raises(ValueError, match="weight must be 2-D"):
        F(ids, packed[0], offsets)
    with pytest.raises(TypeError, match="per_sample_weights must have dtype "
                                        "float32, not float64"):
        F(ids, packed, offsets, per_sample_weights=np.ones(2))
    with pytest.raises(ValueError, match="only supported with mode='sum'"):
        F(ids, packed, offsets, mode="max",
          per_sample_weights=np.ones(2, np.float32))
    with pytest.raises(ValueError, match="offsets.0. is 1, but the first bag "
                                         "must start at 0"):
        F(ids, packed, [1])
    with pytest.raises(ValueError, match="^gather.embedding_bag: rows of 5 "
                                         "bytes are shorter than the 8 bytes "
                                         "of their scale and bias"):
        F(ids, np.zeros((4, 5), np.uint8), offsets)
    with pytest.raises(ValueError, match="^gather.embedding_bag: rows of 3 "
                                         "bytes are shorter than the 4 bytes "
                                         "of their scale and bias"):
        F(ids, np.zeros((4, 3), np.uint8), offsets, bits=4)
    with pytest.raises(ValueError, match="out has shape"):
        F(ids, packed, offsets, out=np.empty((1, 5), np.float32))
