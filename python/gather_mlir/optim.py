"""Optimizer steps fused with an embedding table's backward.

A batch of embedding bags touches a few rows of a large table. These steps
update only those rows, from the gradient of each id the batch read (what
``embedding_bag(..., sparse=True)`` gives as an uncoalesced sparse tensor),
and never build a dense gradient of the table:

    sgd_step(weight, rows, grads, lr)
    rowwise_adagrad_step(weight, state, rows, grads, lr, eps=1e-10)

``rows`` holds a table row for each gradient row of ``grads``, duplicates
allowed; both steps first sum the gradient rows of each table row (the
transposed bag: an ``embedding_bag`` of ``grads`` over the ids sorted by
row, in their order), then write through the ``add`` scatter, in place.
Row-wise Adagrad is FBGEMM's ``EXACT_ROWWISE_ADAGRAD``: for each touched row
r with summed gradient g, ``state[r] += mean(g * g)`` and
``weight[r] -= lr * g / (sqrt(state[r]) + eps)``. numpy arrays and CPU torch
tensors work; a row out of ``[-num, num)`` is an ``IndexError`` and nothing
is written.

``EmbeddingBag`` (torch) is ``torch.nn.EmbeddingBag`` whose backward runs
one of these steps on its table instead of producing a gradient for it::

    bag = gather_mlir.optim.EmbeddingBag(num, dim, mode="sum",
                                         optimizer="rowwise_adagrad", lr=0.05)
    bag(ids, offsets).sum().backward()   # the touched rows are updated
"""

import numpy as np

from . import _is_tensor, _torch, embedding_bag, gather, scatter

__all__ = ["sgd_step", "rowwise_adagrad_step", "EmbeddingBag"]

OPTIMIZERS = ("sgd", "rowwise_adagrad")


def _segments(rows):
    """A stable order of ``rows`` by value, the distinct rows (ascending)
    and where each one's segment starts in that order: the CSC view of the
    ids, in torch or numpy as ``rows`` is."""
    torch = _torch() if _is_tensor(rows) else None
    if torch is not None:
        order = torch.sort(rows, stable=True).indices
        touched, counts = torch.unique_consecutive(rows[order],
                                                   return_counts=True)
        return order, touched, torch.cumsum(counts, 0) - counts
    order = np.argsort(rows, kind="stable")
    touched, starts = np.unique(rows[order], return_index=True)
    return order, touched, starts


def _coalesced(weight, rows, grads):
    """The touched rows (normalized, each once, ascending) and the sum of
    their gradient rows, in the order the rows appear in ``rows``."""
    num = weight.shape[0]
    torch = _torch() if _is_tensor(weight) else None
    if torch is not None:
        rows = torch.as_tensor(rows).reshape(-1).to(torch.int64)
        numbers = torch.arange(num)
    else:
        rows = np.asarray(rows).reshape(-1).astype(np.int64, copy=False)
        numbers = np.arange(num)
    if len(rows) != grads.shape[0]:
        raise ValueError(f"rows has {len(rows)} entries, but grads has "
                         f"{grads.shape[0]} rows")
    # The dialect's index rule (negative rows count from the end) and its
    # check: an IndexError names the first bad row.
    order, touched, starts = _segments(gather(numbers, rows))
    return touched, embedding_bag(order, grads, starts, mode="sum")


def _check(weight, grads):
    if weight.ndim != 2:
        raise ValueError(f"weight must be 2-D [num, dim], not of shape "
                         f"{tuple(weight.shape)}")
    if grads.ndim != 2 or grads.shape[1] != weight.shape[1]:
        raise ValueError(f"grads must be 2-D [n, {weight.shape[1]}], not of "
                         f"shape {tuple(grads.shape)}")
    if grads.dtype != weight.dtype:
        raise TypeError(f"grads must have weight's dtype {weight.dtype}, "
                        f"not {grads.dtype}")


def _sgd(weight, touched, summed, lr):
    scatter(weight, touched, summed * (-lr), reduction="add", out=weight)


def _as(array, dtype):
    """``array`` converted to ``dtype``, a torch tensor or a numpy array."""
    return array.to(dtype) if _is_tensor(array) else array.astype(dtype)


def _rowwise_adagrad(weight, state, touched, summed, lr, eps):
    squares = (summed * summed).mean(1)
    scatter(state, touched, _as(squares, state.dtype), reduction="add",
            out=state)
    multiplier = lr / (gather(state, touched) ** 0.5 + eps)
    update = summed * _as(-multiplier, summed.dtype)[:, None]
    scatter(weight, touched, update, reduction="add", out=weight)


def sgd_step(weight, rows, grads, lr):
    """``weight[r] -= lr * (sum of the grads of row r)`` for each row in
    ``rows``, in place; returns ``weight``."""
    _check(weight, grads)
    _sgd(weight, *_coalesced(weight, rows, grads), lr)
    return weight


def rowwise_adagrad_step(weight, state, rows, grads, lr, eps=1e-10):
    """Row-wise Adagrad on the rows in ``rows``, in place: ``state`` holds a
    sum of mean squared gradients per table row (shape ``[num]``, usually
    float32, zeros at first). Returns ``weight``."""
    _check(weight, grads)
    if tuple(state.shape) != (weight.shape[0],):
        raise ValueError(f"state must have shape ({weight.shape[0]},), not "
                         f"{tuple(state.shape)}")
    _rowwise_adagrad(weight, state, *_coalesced(weight, rows, grads), lr,
                     eps)
    return weight


def _transposed_bag(rows, bag, factor, grad):
    """The touched rows (each once, ascending) and their gradients, from
    the bag's output gradient ``grad``: row r's is the sum, over the ids
    that read it, of factor * grad[bag], in the ids' order. That is a bag
    of ``grad``'s rows (FBGEMM's CSR to CSC), one kernel call, which reads
    ``grad`` by bag and never builds a gradient row per id."""
    order, touched, starts = _segments(rows)
    summed = embedding_bag(bag[order], grad.contiguous(), starts, mode="sum",
                           per_sample_weights=factor[order].contiguous())
    return touched, summed


def _embedding_bag_class():
    torch = _torch()
    if torch is None:
        raise ImportError("gather_mlir.optim.EmbeddingBag needs torch")
    from . import _autograd

    class _FusedBag(torch.autograd.Function):
        @staticmethod
        def forward(ctx, weight, input, offsets, per_sample_weights, module):
            output = _autograd._bag_forward(
                input, weight, offsets, module.mode, per_sample_weights,
                module.include_last_offset, module.padding_idx,
                module.oob_mode)
            ctx.module = module
            ctx.save_for_backward(weight, input, offsets, per_sample_weights,
                                  output)
            return output

        @staticmethod
        def backward(ctx, grad):
            weight, input, offsets, weights, output = ctx.saved_tensors
            module, ops = ctx.module, _autograd.ops()
            terms = _autograd._bag_terms(
                ops, input, weight.detach(), offsets, weights, grad.shape[0],
                grad.dtype, module.mode, module.include_last_offset,
                module.padding_idx, module.oob_mode)
            samples = None
            if ctx.needs_input_grad[3]:
                samples = _autograd._samples_gradient(
                    ops, weight.detach(), weights, terms,
                    grad.index_select(0, terms.safe_bag))
            module.step_from_bags(
                *_autograd._kept(terms, terms.rows, terms.safe_bag,
                                 terms.factor), grad)
            return None, None, None, samples, None

    class EmbeddingBag(torch.nn.Module):
        """``torch.nn.EmbeddingBag`` (``mode`` sum or mean) whose backward
        updates the rows a batch touched by ``optimizer`` (``"sgd"`` or
        ``"rowwise_adagrad"``) instead of giving the table a gradient.
        ``oob_mode`` is gather_mlir's index mode."""

        def __init__(self, num_embeddings, embedding_dim, mode="mean",
                     optimizer="sgd", lr=0.01, eps=1e-10, padding_idx=None,
                     include_last_offset=False, oob_mode="check",
                     _weight=None, dtype=None):
            super().__init__()
            if mode not in ("sum", "mean"):
                raise ValueError(f"mode must be sum or mean (a max bag's "
                                 f"gradient is not sparse), not {mode!r}")
            if optimizer not in OPTIMIZERS:
                raise ValueError(f"optimizer must be one of "
                                 f"{', '.join(OPTIMIZERS)}, not {optimizer!r}")
            if _weight is None:
                _weight = torch.empty(num_embeddings, embedding_dim,
                                      dtype=dtype)
                torch.nn.init.normal_(_weight)
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError(f"_weight must have shape ({num_embeddings}, "
                                 f"{embedding_dim}), not "
                                 f"{tuple(_weight.shape)}")
            self.weight = torch.nn.Parameter(_weight)
            self.register_buffer("state", torch.zeros(
                num_embeddings, dtype=torch.float32))
            self.mode, self.optimizer = mode, optimizer
            self.lr, self.eps = lr, eps
            self.padding_idx = padding_idx
            self.include_last_offset = include_last_offset
            self.oob_mode = oob_mode

        def step_from_bags(self, rows, bag, factor, grad):
            """The optimizer's step from the bags' output gradient ``grad``:
            each id reads table row ``rows[i]`` into bag ``bag[i]`` with
            ``factor[i]``."""
            with torch.no_grad():
                if self.optimizer == "sgd":
                    # -lr in each id's factor: the bag sums the step itself.
                    touched, step = _transposed_bag(rows, bag,
                                                    factor * -self.lr, grad)
                    scatter(self.weight.data, touched, step, reduction="add",
                            out=self.weight.data)
                else:
                    touched, summed = _transposed_bag(rows, bag, factor, grad)
                    _rowwise_adagrad(self.weight.data, self.state, touched,
                                     summed, self.lr, self.eps)

        def forward(self, input, offsets=None, per_sample_weights=None):
            return _FusedBag.apply(self.weight, input, offsets,
                                   per_sample_weights, self)

    return EmbeddingBag


def __getattr__(name):
    # torch is imported only by a caller that asks for the torch module.
    if name == "EmbeddingBag":
        cls = _embedding_bag_class()
        globals()[name] = cls
        return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
