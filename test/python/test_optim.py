"""gather_mlir.optim: SGD and row-wise Adagrad on the rows a batch touched,
against the dense formulas (numpy's np.add.at, torch's own sparse SGD)."""

import numpy as np
import pytest

import gather_mlir as g
from gather_mlir import optim

torch = pytest.importorskip("torch")


def dense_gradient(num, rows, grads):
    total = np.zeros((num, grads.shape[1]), np.float64)
    np.add.at(total, rows, grads.astype(np.float64))
    return total


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sgd_step_numpy(dtype):
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((50, 8)).astype(dtype)
    rows = rng.integers(-50, 50, 200)
    grads = rng.standard_normal((200, 8)).astype(dtype)
    expected = weight.astype(np.float64) - 0.1 * dense_gradient(
        50, rows % 50, grads)
    untouched = np.setdiff1d(np.arange(50), rows % 50)
    before = weight.copy()
    assert optim.sgd_step(weight, rows, grads, 0.1) is weight
    np.testing.assert_allclose(weight, expected, rtol=1e-5, atol=1e-5)
    # Rows the batch did not touch keep their bits.
    np.testing.assert_array_equal(weight[untouched], before[untouched])


def test_rowwise_adagrad_step_numpy():
    rng = np.random.default_rng(1)
    weight = rng.standard_normal((40, 16))
    state = np.zeros(40)
    expected_w, expected_s = weight.copy(), state.copy()
    for step in range(3):
        rows = rng.integers(0, 40, 64)
        grads = rng.standard_normal((64, 16))
        dense = dense_gradient(40, rows, grads)
        touched = np.unique(rows)
        expected_s[touched] += (dense[touched] ** 2).mean(1)
        expected_w[touched] -= (0.05 / (np.sqrt(expected_s[touched]) + 1e-8)
                                )[:, None] * dense[touched]
        optim.rowwise_adagrad_step(weight, state, rows, grads, 0.05, 1e-8)
        np.testing.assert_allclose(state, expected_s, rtol=1e-12)
        np.testing.assert_allclose(weight, expected_w, rtol=1e-12,
                                   atol=1e-12)


def test_steps_validate_before_writing():
    weight = np.ones((4, 2), np.float32)
    state = np.zeros(4, np.float32)
    grads = np.ones((2, 2), np.float32)
    with pytest.raises(IndexError, match="index 4 is out of range"):
        optim.rowwise_adagrad_step(weight, state, [0, 4], grads, 0.1)
    np.testing.assert_array_equal(weight, 1)
    np.testing.assert_array_equal(state, 0)
    with pytest.raises(ValueError, match="rows has 3 entries"):
        optim.sgd_step(weight, [0, 1, 2], grads, 0.1)
    with pytest.raises(TypeError, match="grads must have weight's dtype"):
        optim.sgd_step(weight, [0, 1], grads.astype(np.float64), 0.1)
    with pytest.raises(ValueError, match=r"weight must be 2-D \[num, dim\]"):
        optim.sgd_step(np.ones(4, np.float32), [0], grads[:1], 0.1)
    with pytest.raises(ValueError, match=r"grads must be 2-D \[n, 2\]"):
        optim.sgd_step(weight, [0, 1], np.ones((2, 3), np.float32), 0.1)
    with pytest.raises(ValueError, match="state must have shape"):
        optim.rowwise_adagrad_step(weight, np.zeros(3), [0, 1], grads, 0.1)
    # No rows: nothing to do.
    optim.sgd_step(weight, np.zeros(0, np.int64),
                   np.zeros((0, 2), np.float32), 0.1)
    np.testing.assert_array_equal(weight, 1)


def bags(rng, num, n=60, count=12):
    ids = torch.from_numpy(rng.integers(0, num, n))
    offsets = torch.from_numpy(np.sort(rng.integers(0, n, count)))
    offsets[0] = 0
    return ids, offsets


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_embedding_bag_sgd_equals_torch(mode):
    rng = np.random.default_rng(2)
    table = torch.from_numpy(rng.standard_normal((30, 4)))
    ours = optim.EmbeddingBag(30, 4, mode=mode, optimizer="sgd", lr=0.2,
                              _weight=table.clone())
    theirs = torch.nn.EmbeddingBag(30, 4, mode=mode, sparse=True,
                                   _weight=table.clone())
    sgd = torch.optim.SGD(theirs.parameters(), lr=0.2)
    for step in range(3):
        ids, offsets = bags(rng, 30)
        target = torch.from_numpy(rng.standard_normal((12, 4)))
        ((ours(ids, offsets) - target) ** 2).sum().backward()
        sgd.zero_grad()
        ((theirs(ids, offsets) - target) ** 2).sum().backward()
        sgd.step()
        assert ours.weight.grad is None
        torch.testing.assert_close(ours.weight.data, theirs.weight.data)


def test_embedding_bag_rowwise_adagrad():
    rng = np.random.default_rng(3)
    table = torch.from_numpy(rng.standard_normal((25, 6)))
    ours = optim.EmbeddingBag(25, 6, mode="sum", optimizer="rowwise_adagrad",
                              lr=0.1, eps=1e-8, _weight=table.clone())
    weight, state = table.numpy().copy(), np.zeros(25)
    psw = torch.from_numpy(rng.standard_normal(60))
    for step in range(3):
        ids, offsets = bags(rng, 25)
        ours(ids, offsets, per_sample_weights=psw).sum().backward()
        # The dense formula on the rows the batch touched.
        w = torch.from_numpy(weight.copy()).requires_grad_()
        dense = torch.nn.functional.embedding_bag(
            ids, w, offsets, mode="sum", per_sample_weights=psw)
        (grad,) = torch.autograd.grad(dense.sum(), w)
        grad = grad.numpy()
        touched = np.unique(ids.numpy())
        state[touched] += (grad[touched] ** 2).mean(1)
        weight[touched] -= (0.1 / (np.sqrt(state[touched]) + 1e-8))[:, None] \
            * grad[touched]
        # The module keeps its state in float32, as FBGEMM does.
        np.testing.assert_allclose(ours.state.numpy(), state, rtol=1e-6)
        np.testing.assert_allclose(ours.weight.data.numpy(), weight,
                                   rtol=1e-6, atol=1e-7)


def test_embedding_bag_per_sample_weights_gradient():
    rng = np.random.default_rng(4)
    ours = optim.EmbeddingBag(10, 3, mode="sum", lr=0.0,
                              _weight=torch.from_numpy(
                                  rng.standard_normal((10, 3))))
    ids, offsets = bags(rng, 10, n=20, count=5)
    psw = torch.from_numpy(rng.standard_normal(20)).requires_grad_()
    ours(ids, offsets, per_sample_weights=psw).sum().backward()
    reference = psw.detach().clone().requires_grad_()
    torch.nn.functional.embedding_bag(
        ids, ours.weight.detach().clone().requires_grad_(), offsets,
        mode="sum", per_sample_weights=reference).sum().backward()
    torch.testing.assert_close(psw.grad, reference.grad)


def test_embedding_bag_arguments():
    with pytest.raises(ValueError, match="mode must be sum or mean"):
        optim.EmbeddingBag(4, 2, mode="max")
    with pytest.raises(ValueError, match="optimizer must be one of"):
        optim.EmbeddingBag(4, 2, optimizer="adam")
    with pytest.raises(ValueError, match=r"_weight must have shape \(4, 2\)"):
        optim.EmbeddingBag(4, 2, _weight=torch.zeros(3, 2))
