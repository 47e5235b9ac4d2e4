"""bf16 and f16 tables and data at row widths around every vector size the
lowerings use (the kernels' vectors of 128 to 512 bits, the bags' chunks
of 128 f32 lanes and their power-of-two tails), compiled for this host's
CPU: the last, partial vector of a row is read and written with masks,
which for bf16 some hosts' LLVM instruction selection cannot lower (it
aborted the process), so each width runs, and gives the reference's bits.
Values are small integers, whose sums are exact in f32 and bf16."""

import numpy as np
import pytest

import gather_mlir as g

torch = pytest.importorskip("torch")

WIDTHS = list(range(1, 18)) + [31, 32, 33, 63, 64, 65, 127, 128, 129, 257]
DTYPES = [torch.bfloat16, torch.float16]


def _table(rows, width, dtype, seed):
    gen = torch.Generator().manual_seed(seed)
    return torch.randint(-8, 9, (rows, width), generator=gen).to(dtype)


def _reference_bags(table, ids, offsets, mode):
    """Each bag's rows reduced in f32, rounded once to the table's dtype."""
    wide = table.float().numpy()
    ends = list(offsets[1:]) + [len(ids)]
    rows = []
    for start, end in zip(offsets, ends):
        picked = wide[ids[start:end]]
        if end == start:
            rows.append(np.zeros(wide.shape[1], np.float32))
        elif mode == "sum":
            rows.append(picked.sum(axis=0, dtype=np.float32))
        elif mode == "mean":
            rows.append(picked.sum(axis=0, dtype=np.float32) /
                        np.float32(end - start))
        else:
            rows.append(picked.max(axis=0))
    return torch.from_numpy(np.stack(rows)).to(table.dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_bags_of_every_width(dtype, mode):
    ids = np.array([0, 4, 2, 1, 3, 3, 0, 2], np.int64)
    offsets = np.array([0, 3, 3, 5], np.int64)
    for width in WIDTHS:
        table = _table(5, width, dtype, seed=width)
        result = g.embedding_bag(torch.from_numpy(ids), table,
                                 torch.from_numpy(offsets), mode=mode)
        expected = _reference_bags(table, ids, offsets, mode)
        assert result.dtype == dtype, width
        assert torch.equal(result.view(torch.int16),
                           expected.view(torch.int16)), width


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_gathers_of_every_width(dtype):
    for width in WIDTHS:
        data = _table(6, width, dtype, seed=width)
        rows = torch.tensor([5, 0, -1, 3, 3], dtype=torch.int64)
        assert torch.equal(g.gather(data, rows).view(torch.int16),
                           data[rows].view(torch.int16)), width
        # Along the row: the vectors hold the gathered elements.
        cols = torch.arange(width - 1, -1, -1, dtype=torch.int64)
        assert torch.equal(g.gather(data, cols, axis=1).view(torch.int16),
                           data[:, cols].view(torch.int16)), width
        index = cols.expand(6, width).contiguous()
        assert torch.equal(
            g.gather_elements(data, index, axis=1).view(torch.int16),
            torch.gather(data, 1, index).view(torch.int16)), width
