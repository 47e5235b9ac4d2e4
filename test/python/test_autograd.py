"""Gradients through gather_mlir's functions: torch tensors that require
grad, against torch's own gradients of the equivalent torch formulation
(the modes resolved by reference.py, which shares no code with the
package), torch.autograd.gradcheck in float64, and torch.compile."""

import numpy as np
import pytest

import gather_mlir as g
import reference as ref

torch = pytest.importorskip("torch")

MODES = ("check", "fill", "clamp", "wrap", "unchecked")


def resolved(indices, size, mode):
    """Each index's position by the mode (reference.py), and whether it
    reads one (fill)."""
    flat = [ref.resolve(i, size, "clamp" if mode == "unchecked" else mode)
            for i in np.asarray(indices).reshape(-1)]
    pos = torch.tensor([0 if p is None else p for p in flat]).reshape(
        np.shape(indices))
    valid = torch.tensor([p is not None for p in flat]).reshape(
        np.shape(indices))
    return pos, valid


def index_values(rng, shape, size, mode):
    if mode in ("check", "unchecked"):
        return torch.from_numpy(rng.integers(-size, size, shape))
    return torch.from_numpy(rng.integers(-3 * size, 3 * size, shape))


def grads(fn, *inputs):
    for t in inputs:
        t.grad = None
    fn().pow(2).sum().backward()
    return [t.grad.clone() for t in inputs]


@pytest.mark.parametrize("mode", MODES)
def test_gather_grad_is_torchs(mode):
    rng = np.random.default_rng(1)
    data = torch.from_numpy(rng.standard_normal((4, 6, 3))).requires_grad_()
    idx = index_values(rng, (2, 5), 6, mode)
    pos, valid = resolved(idx, 6, mode)

    def torch_gather():
        picked = data.index_select(1, pos.reshape(-1)).reshape(4, 2, 5, 3)
        return torch.where(valid[None, :, :, None], picked, 0)

    mine = grads(lambda: g.gather(data, idx, axis=1, mode=mode), data)
    expected = grads(torch_gather, data)
    torch.testing.assert_close(mine[0], expected[0])
    assert g.gather(data, idx, axis=1, mode=mode).grad_fn is not None


@pytest.mark.parametrize("mode", MODES)
def test_gather_elements_grad_is_torchs(mode):
    rng = np.random.default_rng(2)
    data = torch.from_numpy(rng.standard_normal((5, 4))).requires_grad_()
    idx = index_values(rng, (7, 3), 5, mode)
    pos, valid = resolved(idx, 5, mode)

    def torch_gather():
        return torch.where(valid, torch.gather(data, 0, pos), 0)

    mine = grads(lambda: g.gather_elements(data, idx, mode=mode), data)
    torch.testing.assert_close(mine[0], grads(torch_gather, data)[0])


@pytest.mark.parametrize("mode", MODES)
def test_gather_nd_grad_is_torchs(mode):
    rng = np.random.default_rng(3)
    data = torch.from_numpy(rng.standard_normal((4, 5, 2))).requires_grad_()
    idx = torch.stack([index_values(rng, (6,), 4, mode),
                       index_values(rng, (6,), 5, mode)], -1)
    p0, v0 = resolved(idx[:, 0], 4, mode)
    p1, v1 = resolved(idx[:, 1], 5, mode)

    def torch_gather():
        return torch.where((v0 & v1)[:, None], data[p0, p1], 0)

    mine = grads(lambda: g.gather_nd(data, idx, mode=mode), data)
    torch.testing.assert_close(mine[0], grads(torch_gather, data)[0])


@pytest.mark.parametrize("mode", MODES)
def test_gradcheck(mode):
    rng = np.random.default_rng(4)
    data = torch.from_numpy(rng.standard_normal((3, 4))).requires_grad_()
    idx = index_values(rng, (5,), 4, mode)
    el = index_values(rng, (2, 4), 3, mode)
    nd = torch.stack([index_values(rng, (3,), 3, mode),
                      index_values(rng, (3,), 4, mode)], -1)
    assert torch.autograd.gradcheck(
        lambda d: g.gather(d, idx, axis=1, mode=mode), (data,))
    assert torch.autograd.gradcheck(
        lambda d: g.gather_elements(d, el, mode=mode), (data,))
    assert torch.autograd.gradcheck(
        lambda d: g.gather_nd(d, nd, mode=mode), (data,))


def test_gather_with_batch_dims_and_scatter_grads():
    rng = np.random.default_rng(5)
    data = torch.from_numpy(rng.standard_normal((2, 5, 3))).requires_grad_()
    idx = torch.from_numpy(rng.integers(-5, 5, (2, 4)))
    assert torch.autograd.gradcheck(
        lambda d: g.gather(d, idx, axis=1, batch_dims=1), (data,))
    # An add scatter is differentiable in dest and updates.
    updates = torch.from_numpy(rng.standard_normal((2, 4, 3))).requires_grad_()
    assert torch.autograd.gradcheck(
        lambda d, u: g.scatter(d, idx, u, axis=1, batch_dims=1,
                               reduction="add"), (data, updates))


def test_gradient_of_a_gradient():
    """With create_graph, a gather's gradient (an add scatter into zeros)
    is itself differentiable: d/dv sum(scatter(v)) counts, per position of
    v, the update it carries into data (one each; fill drops none here)."""
    x = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
    idx = torch.tensor([4, 0, 4, -1])
    v = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    (gx,) = torch.autograd.grad(g.gather(x, idx), x, grad_outputs=v,
                                create_graph=True)
    expected = torch.zeros(5, 3, dtype=torch.float64).index_add(
        0, torch.tensor([4, 0, 4, 4]), v.detach())
    assert torch.equal(gx.detach(), expected)
    assert gx.requires_grad
    (gv,) = torch.autograd.grad((gx * gx).sum(), v)
    # d/dv sum(gx^2) = 2 * gx[row of v]
    assert torch.allclose(gv, 2 * expected[torch.tensor([4, 0, 4, 4])])


def test_no_grad_reads_a_weight_that_requires_grad():
    data = torch.ones(3, 2, requires_grad=True)
    with torch.no_grad():
        result = g.gather(data, torch.tensor([2, 0]))
    assert result.grad_fn is None and result.tolist() == [[1, 1], [1, 1]]


def test_integer_indices_get_no_gradient():
    data = torch.ones(3, requires_grad=True)
    idx = torch.tensor([0, 0, 2])
    g.gather(data, idx).sum().backward()
    assert data.grad.tolist() == [2.0, 0.0, 1.0]
    assert idx.grad is None


# --- Embedding bags ----------------------------------------------------------

BAG_CASES = [
    dict(mode="sum"),
    dict(mode="mean"),
    dict(mode="max"),
    dict(mode="sum", per_sample_weights=True),
    dict(mode="sum", padding_idx=2),
    dict(mode="mean", padding_idx=-1),
    dict(mode="max", padding_idx=0),
    dict(mode="sum", include_last_offset=True),
    dict(mode="mean", include_last_offset=True),
    dict(mode="sum", fixed=True),
    dict(mode="mean", scale_grad_by_freq=True),
    dict(mode="sum", sparse=True),
]


def bag_inputs(case, rng):
    weight = torch.from_numpy(rng.standard_normal((6, 4))).requires_grad_()
    if case.get("fixed"):
        ids = torch.from_numpy(rng.integers(0, 6, (4, 3)))
        offsets = None
    else:
        ids = torch.from_numpy(rng.integers(0, 6, 11))
        # With include_last_offset, the last offset ends the ids: torch
        # reads ids past it into the last bag, which the contract does not.
        offsets = torch.tensor([0, 2, 2, 7] + (
            [11] if case.get("include_last_offset") else []))
    psw = None
    if case.get("per_sample_weights"):
        psw = torch.from_numpy(rng.standard_normal(ids.shape)
                               ).requires_grad_()
    return weight, ids, offsets, psw


@pytest.mark.parametrize("case", BAG_CASES, ids=[
    "-".join(f"{k}={v}" for k, v in c.items()) for c in BAG_CASES])
def test_embedding_bag_grads_are_torchs(case):
    rng = np.random.default_rng(6)
    weight, ids, offsets, psw = bag_inputs(case, rng)
    kwargs = dict(mode=case["mode"], per_sample_weights=psw,
                  include_last_offset=case.get("include_last_offset", False),
                  padding_idx=case.get("padding_idx"),
                  scale_grad_by_freq=case.get("scale_grad_by_freq", False),
                  sparse=case.get("sparse", False))
    leaves = [weight] + ([psw] if psw is not None else [])
    mine = grads(lambda: g.embedding_bag(ids, weight, offsets, **kwargs),
                 *leaves)
    F = torch.nn.functional
    if kwargs["scale_grad_by_freq"]:
        # torch's CPU embedding_bag divides by the wrong id's count
        # (pytorch#190063, fixed after 2.13); F.embedding divides by each
        # id's frequency, as documented: the bags as its rows reduced.
        def reference_bags():
            rows = F.embedding(ids, weight, scale_grad_by_freq=True)
            ends = offsets.tolist()[1:] + [len(ids)]
            return torch.stack([rows[a:b].mean(0) for a, b in
                                zip(offsets.tolist(), ends)])
        expected = grads(reference_bags, *leaves)
    else:
        expected = grads(lambda: F.embedding_bag(ids, weight, offsets,
                                                 **kwargs), *leaves)
    for m, e in zip(mine, expected):
        assert m.layout == e.layout
        torch.testing.assert_close(m.to_dense(), e.to_dense())


@pytest.mark.parametrize("oob_mode", ["fill", "clamp", "wrap"])
def test_embedding_bag_modes_grads(oob_mode):
    """Out-of-range ids: clamp and wrap send the gradient to the row they
    read, fill to none (the same as torch on the resolved ids)."""
    rng = np.random.default_rng(7)
    weight = torch.from_numpy(rng.standard_normal((5, 3))).requires_grad_()
    ids = torch.tensor([7, -1, 2, -9, 4, 12])
    offsets = torch.tensor([0, 2, 4])
    pos, valid = resolved(ids, 5, oob_mode)
    for mode in ("sum", "mean", "max"):
        mine = grads(lambda: g.embedding_bag(ids, weight, offsets, mode=mode,
                                             oob_mode=oob_mode), weight)

        def torch_bag():
            rows = torch.where(valid[:, None], weight[pos], 0)
            bags = [rows[0:2], rows[2:4], rows[4:6]]
            reduce = {"sum": lambda r: r.sum(0), "mean": lambda r: r.mean(0),
                      "max": lambda r: r.max(0).values}[mode]
            return torch.stack([reduce(b) for b in bags])

        torch.testing.assert_close(mine[0], grads(torch_bag, weight)[0])


def test_embedding_bag_gradcheck():
    rng = np.random.default_rng(8)
    weight = torch.from_numpy(rng.standard_normal((5, 3))).requires_grad_()
    psw = torch.from_numpy(rng.standard_normal(6)).requires_grad_()
    ids = torch.tensor([0, 3, 3, 1, 4, 2])
    offsets = torch.tensor([0, 1, 4])
    for mode in ("sum", "mean"):
        assert torch.autograd.gradcheck(
            lambda w: g.embedding_bag(ids, w, offsets, mode=mode), (weight,))
    assert torch.autograd.gradcheck(
        lambda w, p: g.embedding_bag(ids, w, offsets, mode="sum",
                                     per_sample_weights=p), (weight, psw))


# --- torch.compile -------------------------------------------------------------


@pytest.mark.skipif(not hasattr(torch.library, "custom_op"),
                    reason="torch.library.custom_op is torch 2.4's")
def test_compiled_model_trains_like_eager():
    """A small model of an embedding bag and a gather, compiled with
    fullgraph=True (no graph break), trained a few SGD steps: the same
    weights and losses as in eager mode."""

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            gen = torch.Generator().manual_seed(0)
            self.table = torch.nn.Parameter(torch.randn(20, 8, generator=gen))
            self.proj = torch.nn.Parameter(torch.randn(8, 8, generator=gen))

        def forward(self, ids, offsets, cols):
            bags = g.embedding_bag(ids, self.table, offsets, mode="sum")
            picked = g.gather(self.proj, cols, axis=1)
            return (bags @ picked).pow(2).mean()

    ids = torch.tensor([1, 5, 5, 19, 0, 7, 3])
    offsets = torch.tensor([0, 3, 5])
    cols = torch.tensor([7, 0, 3, 3])

    def train(model):
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = model(ids, offsets, cols)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, [p.detach().clone() for p in model.parameters()]

    eager = train(Model())
    model = Model()
    model.forward = torch.compile(model.forward, fullgraph=True,
                                  backend="aot_eager")
    compiled = train(model)
    np.testing.assert_allclose(compiled[0], eager[0], rtol=1e-6)
    for c, e in zip(compiled[1], eager[1]):
        torch.testing.assert_close(c, e)


def test_bag_autograd_errors():
    weight = torch.ones(4, 2, requires_grad=True)
    ids, offsets = torch.tensor([0, 1]), torch.tensor([0])
    with pytest.raises(ValueError, match="sparse=True is not supported with "
                       "mode='max'"):
        g.embedding_bag(ids, weight, offsets, mode="max", sparse=True)
    with pytest.raises(ValueError, match="scale_grad_by_freq=True is not "
                       "supported with mode='max'"):
        g.embedding_bag(ids, weight, offsets, mode="max",
                        scale_grad_by_freq=True)
    with pytest.raises(ValueError, match="embedding_bag: out= does not take "
                       "part in autograd"):
        g.embedding_bag(ids, weight, offsets, out=torch.empty(1, 2))
    with pytest.raises(ValueError, match="scatter: out= does not take part"):
        g.scatter(weight, ids, torch.ones(2, 2), reduction="add",
                  out=torch.empty(4, 2))
