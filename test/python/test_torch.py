"""torch tensors in, torch tensors out, checked against torch's own gathers
(torch.gather, torch.index_select, fancy indexing): every dtype including
bfloat16, strided views, `out=` tensors, and the errors."""

import subprocess
import sys

import numpy as np
import pytest

import gather_mlir as g

torch = pytest.importorskip("torch")

DTYPES = [torch.bool, torch.int8, torch.uint8, torch.int16, torch.int32,
          torch.int64, torch.float16, torch.bfloat16, torch.float32,
          torch.float64, torch.complex64, torch.complex128]


def _data(shape, dtype, seed=0):
    """Random values of `dtype` (bfloat16 ones whose bits all differ)."""
    gen = torch.Generator().manual_seed(seed)
    values = torch.randint(-100, 100, shape, generator=gen)
    if dtype.is_complex:
        return (values + 1j * values.flip(-1)).to(dtype)
    return values.to(dtype) if dtype != torch.bool else values > 0


def _assert_same(result, expected):
    """Same dtype, shape and bits (bfloat16 compared bit for bit)."""
    assert isinstance(result, torch.Tensor)
    assert result.dtype == expected.dtype and result.shape == expected.shape
    assert torch.equal(result, expected)


def _views(base):
    """Strided views of a 3-D tensor: a step, a transpose, a narrowed
    permutation, a broadcast (stride 0), and the tensor itself."""
    return [base, base[:, ::2], base.transpose(0, 2),
            base.permute(1, 2, 0)[1:, :, 1:], base[:1].expand(3, -1, -1)]


# --- Against torch -----------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_gather_matches_index_select(dtype):
    for data in _views(_data((3, 6, 5), dtype)):
        for axis in range(3):
            s = data.shape[axis]
            idx = torch.tensor([s - 1, 0, -1, 1 % s])
            expected = data.index_select(axis, idx % s)
            _assert_same(g.gather(data, idx, axis=axis), expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_gather_elements_matches_torch_gather(dtype):
    for data in _views(_data((3, 6, 5), dtype, seed=1)):
        for axis in range(3):
            gen = torch.Generator().manual_seed(axis)
            shape = [max(1, n - 1) for n in data.shape]
            idx = torch.randint(0, data.shape[axis], shape, generator=gen)
            _assert_same(g.gather_elements(data, idx, axis=axis),
                         torch.gather(data, axis, idx))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_gather_nd_matches_fancy_indexing(dtype):
    for data in _views(_data((3, 6, 5), dtype, seed=2)):
        for k in (1, 2, 3):
            gen = torch.Generator().manual_seed(k)
            idx = torch.stack([torch.randint(0, n, (4, 2), generator=gen)
                               for n in data.shape[:k]], dim=-1)
            _assert_same(g.gather_nd(data, idx), data[tuple(idx.unbind(-1))])


def test_batch_dims_match_per_batch_index_select():
    data = _data((4, 7, 3), torch.bfloat16, seed=3).transpose(1, 2)  # 4x3x7
    idx = torch.randint(-7, 7, (4, 5), generator=torch.Generator())
    expected = torch.stack([d.index_select(1, i % 7)
                            for d, i in zip(data, idx)])
    _assert_same(g.gather(data, idx, axis=2, batch_dims=1), expected)
    idx_nd = torch.randint(0, 3, (4, 2, 1))
    _assert_same(g.gather_nd(data, idx_nd, batch_dims=1),
                 torch.stack([d[i[:, 0]] for d, i in zip(data, idx_nd)]))


def test_modes_and_strided_indices_on_tensors():
    data = torch.arange(10, dtype=torch.bfloat16) * 1.5
    idx = torch.tensor([[3, 12], [-11, -1]]).t()  # a strided view
    _assert_same(g.gather(data, idx, mode="wrap"), data[idx % 10])
    _assert_same(g.gather(data, idx, mode="clamp"),
                 data[torch.where(idx < 0, idx + 10, idx).clamp(0, 9)])
    filled = g.gather(data, idx, mode="fill")
    _assert_same(filled, torch.tensor([[4.5, 0.0], [0.0, 13.5]],
                                      dtype=torch.bfloat16))
    with pytest.raises(IndexError, match="index -11 is out of range"):
        g.gather(data, idx)


def test_scalars_and_empty_tensors():
    data = torch.arange(12.0).reshape(3, 4)
    _assert_same(g.gather(data, torch.tensor(-1)), data[-1])
    _assert_same(g.gather(data, torch.tensor(2), axis=1), data[:, 2])
    empty = g.gather(torch.empty(0, 3, dtype=torch.bfloat16).t(),
                     torch.tensor([1]))
    assert empty.shape == (1, 0) and empty.dtype == torch.bfloat16


def test_numpy_data_with_tensor_indices_gives_numpy():
    result = g.gather(np.arange(5), torch.tensor([4, 0]))
    assert isinstance(result, np.ndarray)
    np.testing.assert_array_equal(result, [4, 0])


def test_lazy_conjugate_and_negative_views_are_resolved():
    z = torch.tensor([1 + 2j, 3 - 4j, -5j])
    _assert_same(g.gather(z.conj(), torch.tensor([2, 0])),
                 z.conj()[[2, 0]].resolve_conj())
    _assert_same(g.gather(z.conj().imag, torch.tensor([1])),
                 torch.tensor([4.0]))


def test_data_is_read_in_place_and_the_result_is_its_own():
    data = torch.arange(6, dtype=torch.int32)
    result = g.gather(data, torch.tensor([1, 2]))
    result[0] = 100
    assert data[1] == 1
    # In place: an out that aliases data sees the data as it was.
    g.gather(data, torch.tensor([5, 4, 3, 2, 1, 0]), out=data)
    _assert_same(data, torch.arange(5, -1, -1, dtype=torch.int32))


# --- out ---------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32, torch.bool],
                         ids=str)
def test_out_tensor_is_filled_and_returned(dtype):
    data = _data((4, 5), dtype, seed=4)[:, ::2]
    out = torch.empty(2, 3, dtype=dtype)
    assert g.gather(data, torch.tensor([3, 0]), out=out) is out
    _assert_same(out, data[[3, 0]])
    elements = torch.empty(4, 2, dtype=dtype)
    idx = torch.tensor([[2, 0]] * 4)
    assert g.gather_elements(data, idx, axis=1, out=elements) is elements
    _assert_same(elements, torch.gather(data, 1, idx))


def test_out_may_mix_numpy_and_torch():
    data = torch.arange(6.0)
    out = np.empty(2, np.float32)
    assert g.gather(data, [1, 2], out=out) is out
    np.testing.assert_array_equal(out, [1, 2])
    out = torch.empty(2, dtype=torch.int64)
    assert g.gather(np.arange(6), [5, 4], out=out) is out
    assert out.tolist() == [5, 4]


@pytest.mark.parametrize("data,out,error,message", [
    (torch.ones(4), torch.empty(2, dtype=torch.float64), TypeError,
     "out has dtype torch.float64, data has torch.float32"),
    (torch.ones(4, dtype=torch.int16), torch.empty(2, dtype=torch.bfloat16),
     TypeError, "out has dtype torch.bfloat16, data has torch.int16"),
    (torch.ones(4, dtype=torch.bfloat16), torch.empty(2, dtype=torch.int16),
     TypeError, "out has dtype torch.int16, data has torch.bfloat16"),
    (torch.ones(4, dtype=torch.bfloat16), np.empty(2, np.int16), TypeError,
     "must be a torch.bfloat16 tensor"),
    (np.ones(4, np.int16), torch.empty(2, dtype=torch.bfloat16), TypeError,
     "which numpy data cannot have"),
    (np.ones(4, np.float32), torch.empty(2, dtype=torch.float64), TypeError,
     "out has dtype float64"),
    (torch.ones(4), torch.empty(3), ValueError,
     r"out has shape \(3,\), the result has \(2,\)"),
    (torch.ones(4, 2), torch.empty(2, 2).t(), ValueError, "C-contiguous"),
    (torch.ones(4), torch.empty(2, requires_grad=True), ValueError,
     r"out requires grad.*out\.detach\(\)"),
    (torch.ones(4), [0, 0], TypeError, "numpy array or a torch tensor"),
])
def test_out_errors(data, out, error, message):
    with pytest.raises(error, match=message):
        g.gather(data, [1, 2], out=out)


# --- Errors ------------------------------------------------------------------


def test_tensors_requiring_grad_record_a_gradient():
    """Data that requires grad gives a result with a grad_fn (test_autograd
    checks the gradients); out= takes no part in autograd, as in torch."""
    data = torch.ones(3, requires_grad=True)
    result = g.gather(data, torch.tensor([0]))
    assert result.requires_grad and result.grad_fn is not None
    with pytest.raises(ValueError, match="out= does not take part in "
                       "autograd"):
        g.gather(data, torch.tensor([0]), out=torch.empty(1))
    _assert_same(g.gather(data.detach(), torch.tensor([0])), torch.ones(1))
    with torch.no_grad():  # A result of no_grad code does not require grad.
        _assert_same(g.gather(data * 2, torch.tensor([0])),
                     torch.full((1,), 2.0))


def test_tensors_off_the_cpu_are_type_errors():
    # The meta device stands in for CUDA: no copy is made to the CPU.
    meta = torch.empty(3, device="meta")
    with pytest.raises(TypeError, match=r"data is a torch tensor on meta.*"
                                        r"data\.cpu\(\)"):
        g.gather(meta, [0])
    with pytest.raises(TypeError, match="indices is a torch tensor on meta"):
        g.gather(torch.ones(3), torch.empty(1, dtype=torch.int64,
                                            device="meta"))
    if torch.cuda.is_available():
        with pytest.raises(TypeError, match="on cuda"):
            g.gather(torch.ones(3, device="cuda"), [0])


def test_unsupported_tensors_are_type_errors():
    with pytest.raises(TypeError, match="torch.sparse_coo torch tensor"):
        g.gather(torch.ones(3).to_sparse(), [0])
    quantized = torch.quantize_per_tensor(torch.ones(3), 0.1, 0, torch.qint8)
    with pytest.raises(TypeError, match="unsupported data dtype torch.qint8"):
        g.gather(quantized, [0])
    for bad in (torch.tensor([0.0]), torch.tensor([0], dtype=torch.bfloat16),
                torch.tensor([True])):
        with pytest.raises(TypeError, match="indices must have an integer"):
            g.gather(torch.ones(3), bad)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_bfloat16_bags_accumulate_in_float32(mode):
    """A bfloat16 table (and per-sample weights, and out) moves as int16
    through the package and is reduced as bfloat16: float32 sums rounded
    once, as torch's bags of the float32 table rounded to bfloat16."""
    F = torch.nn.functional
    gen = torch.Generator().manual_seed(5)
    weight = torch.randn(1000, 24, generator=gen).bfloat16()
    ids = torch.randint(0, 1000, (400,), generator=gen)
    offsets = torch.tensor([0, 3, 3, 150, 399])
    want = F.embedding_bag(ids, weight.float(), offsets, mode=mode).bfloat16()
    got = g.embedding_bag(ids, weight, offsets, mode=mode)
    assert got.dtype == torch.bfloat16
    # One bfloat16 ulp: float32 sums in another order may round apart.
    np.testing.assert_allclose(got.float().numpy(), want.float().numpy(),
                               rtol=2**-7, atol=1e-6)
    out = torch.empty(5, 24, dtype=torch.bfloat16)
    assert g.embedding_bag(ids, weight, offsets, mode=mode, out=out) is out
    assert torch.equal(out, got)
    if mode == "sum":
        psw = torch.rand(400, generator=gen).bfloat16()
        want = F.embedding_bag(ids, weight.float(), offsets, mode="sum",
                               per_sample_weights=psw.float()).bfloat16()
        got = g.embedding_bag(ids, weight, offsets, mode="sum",
                              per_sample_weights=psw)
        np.testing.assert_allclose(got.float().numpy(),
                                   want.float().numpy(), rtol=2**-7,
                                   atol=1e-6)


def test_bfloat16_bags_take_no_other_dtype_beside_them():
    """per_sample_weights and out have weight's dtype: an int16 or float32
    one beside a bfloat16 table (or a bfloat16 one beside float32) is a
    TypeError naming both."""
    ids, offsets = torch.tensor([1, 2]), torch.tensor([0])
    weight = torch.ones(3, 4).bfloat16()
    for name, value in (("per_sample_weights", torch.ones(2)),
                        ("per_sample_weights", torch.ones(2, dtype=torch.int16)),
                        ("out", torch.empty(1, 4))):
        with pytest.raises(TypeError, match=f"embedding_bag: {name} must "
                           "have weight's dtype torch.bfloat16, not "):
            g.embedding_bag(ids, weight, offsets, mode="sum",
                            **{name: value})
    with pytest.raises(TypeError, match="per_sample_weights must have "
                       "weight's dtype torch.float32, not torch.bfloat16"):
        g.embedding_bag(ids, weight.float(), offsets, mode="sum",
                        per_sample_weights=torch.ones(2).bfloat16())


def test_bfloat16_ids_and_other_values_are_type_errors():
    """bfloat16 moves as int16 only for float values: bfloat16 ids, offsets
    and indices are TypeErrors (not int16 bit patterns read as ids), and so
    are the block-quantized gather's bfloat16 operands, named as such."""
    weight = torch.arange(15.0).reshape(5, 3)
    ids = torch.tensor([1.0, 2.0]).bfloat16()
    for mode in ("check", "wrap"):
        with pytest.raises(TypeError, match="embedding_bag: input must have "
                           "an integer dtype, not torch.bfloat16"):
            g.embedding_bag(ids, weight, torch.tensor([0]), mode="sum",
                            oob_mode=mode)
    with pytest.raises(TypeError, match="embedding_bag: offsets must have an "
                       "integer dtype, not torch.bfloat16"):
        g.embedding_bag(torch.tensor([1, 2]), weight,
                        torch.tensor([0.0, 0.0]).bfloat16(), mode="sum")
    packed = torch.zeros(2, 8, dtype=torch.uint8)
    scales = torch.ones(2, 1)
    with pytest.raises(TypeError, match="gather_block_quantized: unsupported "
                       "scales dtype torch.bfloat16"):
        g.gather_block_quantized(packed, torch.tensor([0]), scales.bfloat16(),
                                 block_size=16)
    with pytest.raises(TypeError, match="gather_block_quantized: indices must "
                       "have an integer dtype, not torch.bfloat16"):
        g.gather_block_quantized(packed, ids, scales, block_size=16)
    with pytest.raises(TypeError, match="embedding_bag_rowwise_quantized: "
                       "unsupported weight dtype torch.bfloat16"):
        g.embedding_bag_rowwise_quantized(torch.tensor([0]),
                                          weight.bfloat16(), torch.tensor([0]))


def test_errors_keep_their_types_with_tensors():
    data = torch.ones(2, 5, dtype=torch.bfloat16)
    with pytest.raises(ValueError, match=r"axis 2 is out of range \[-2, 1\]"):
        g.gather(data, torch.tensor([1]), axis=2)
    with pytest.raises(IndexError, match="index 7 is out of range"):
        g.gather_elements(data, torch.tensor([[7]]), axis=1)


def test_the_package_imports_and_runs_without_torch():
    code = ("import sys; sys.modules['torch'] = None\n"  # import torch fails
            "import gather_mlir as g\n"
            "assert g.gather([1, 2, 3], [2]).tolist() == [3]\n")
    subprocess.run([sys.executable, "-c", code], check=True)
    never = "import gather_mlir, sys; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", never], check=True)


def test_bfloat16_tensors_are_viewed_without_an_exception(monkeypatch):
    """A bfloat16 tensor is read as its int16 view at once: numpy() on it
    raises, and an exception raised on every call cost more than the rest
    of a small call."""
    raised = []
    numpy = torch.Tensor.numpy

    def counting(self, *args, **kwargs):
        try:
            return numpy(self, *args, **kwargs)
        except Exception as e:
            raised.append(e)
            raise

    monkeypatch.setattr(torch.Tensor, "numpy", counting)
    data = _data((6, 5), torch.bfloat16)
    rows = torch.tensor([4, 0, -1])
    _assert_same(g.gather(data, rows), data[rows])
    g.embedding_bag(torch.tensor([1, 2]), data, torch.tensor([0]))
    assert raised == []
    # A strided view, and one whose lazy negation numpy() must refuse.
    _assert_same(g.gather(data.t(), torch.tensor([3, 1])),
                 data.t()[torch.tensor([3, 1])])
    negated = torch._neg_view(data)
    _assert_same(g.gather(negated, rows), -data[rows])
