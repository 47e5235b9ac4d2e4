"""Gradients through gather_mlir's functions for torch tensors that require
grad: each gather's backward is its scatter with ``reduction="add"``, and an
embedding bag's is a gather of the output's gradient by bag followed by a
scatter into the table, all run by the package's own kernels.

The functions are torch custom ops (``torch.ops.gather_mlir.*``, with fake
implementations and autograd registrations) where torch has
``torch.library.custom_op`` (2.4 and later), so a model under
``torch.compile`` calls them without a graph break; on older torch they are
``torch.autograd.Function``s with the same forward and backward.
torch is imported by the caller, never by this package: everything here is
built on the first call that needs it.
"""

import functools
import threading
from typing import NamedTuple, Optional

from . import _native, _torch

_lock = threading.Lock()
_registered = None


def _public():
    import gather_mlir
    return gather_mlir


# --- What each op computes, forward and backward ----------------------------
# Written once, on torch tensors; the registrations below wrap them.


def _grad_mode(mode):
    """The scatter mode that sends a gather's gradient where its read came
    from: ``check`` passed (every index is valid), so ``fill`` (no scan);
    ``unchecked`` reads as clamp in this package."""
    return {"check": "fill", "unchecked": "clamp"}.get(mode, mode)


_SCATTER_OF = {"gather": "scatter", "gather_elements": "scatter_elements",
               "gather_nd": "scatter_nd"}


def _attributes(op, axis, batch_dims):
    """The keyword attributes of function ``op``."""
    if op in ("gather", "scatter"):
        return {"axis": axis, "batch_dims": batch_dims}
    if op in ("gather_elements", "scatter_elements"):
        return {"axis": axis}
    return {"batch_dims": batch_dims}


def _gather_forward(data, indices, op, axis, batch_dims, mode):
    return getattr(_public(), op)(data.detach(), indices.detach(), mode=mode,
                                  **_attributes(op, axis, batch_dims))


def _scatter_forward(data, indices, updates, op, axis, batch_dims, mode,
                     reduction):
    return getattr(_public(), op)(data.detach(), indices.detach(),
                                  updates.detach(), mode=mode,
                                  reduction=reduction,
                                  **_attributes(op, axis, batch_dims))


def _scatter_into(data, indices, updates, op, axis, batch_dims, mode,
                  reduction):
    """The scatter written into ``data`` itself (out=data)."""
    target = data.detach()
    getattr(_public(), op)(target, indices.detach(), updates.detach(),
                           mode=mode, reduction=reduction, out=target,
                           **_attributes(op, axis, batch_dims))


def _gather_shape(op, data, indices, axis, batch_dims):
    """The gather's result shape, by the dialect's rules."""
    return _native.result_shape(op, list(data.shape), list(indices.shape),
                                axis, batch_dims, "fill")


def _scatter_add_into_zeros(ops, shape, indices, updates, op, axis,
                            batch_dims, mode):
    """zeros of ``shape`` with ``updates`` added where ``indices`` say (an
    add scatter). Written in place into the new zeros, unless a gradient of
    this gradient is being recorded (create_graph), which needs the
    differentiable, out-of-place scatter."""
    torch = _torch()
    zeros = updates.new_zeros(shape)
    updates = updates.contiguous()
    if torch.is_grad_enabled():
        return ops.scatter(zeros, indices, updates, op, axis, batch_dims, mode,
                           "add")
    ops.scatter_(zeros, indices, updates, op, axis, batch_dims, mode, "add")
    return zeros


def _gather_backward(ops, data_shape, indices, grad, op, axis, batch_dims,
                     mode):
    return _scatter_add_into_zeros(ops, data_shape, indices, grad,
                                   _SCATTER_OF[op], axis, batch_dims,
                                   _grad_mode(mode))


def _scatter_backward(ops, indices, grad, op, axis, batch_dims, mode,
                      reduction):
    """The gradients of an ``add`` scatter: ``grad`` for ``data``, its
    gather for ``updates``."""
    if reduction != "add":
        raise RuntimeError(f"gather_mlir.{op}: only reduction='add' is "
                           f"differentiable, not {reduction!r}")
    gather = {v: k for k, v in _SCATTER_OF.items()}[op]
    return grad, ops.gather(grad.contiguous(), indices, gather, axis,
                            batch_dims, _grad_mode(mode))


# --- Embedding bags ----------------------------------------------------------


def _bag_layout(torch, input, offsets, include_last_offset, bags):
    """Each id position's bag (``bags`` where it falls in none) and the ids
    as a 1-D tensor."""
    if input.dim() == 2:
        n = input.shape[1]
        bag = torch.arange(input.shape[0], device=input.device)
        return bag.repeat_interleave(n), input.reshape(-1)
    positions = torch.arange(input.shape[0], device=input.device)
    starts = offsets[:-1] if include_last_offset else offsets
    end = offsets[-1] if include_last_offset else input.shape[0]
    bag = torch.bucketize(positions, starts.to(positions.dtype),
                          right=True) - 1
    # Positions past the last bag's end (include_last_offset) are in none.
    return torch.where(positions < end, bag, bags), input


class _BagTerms(NamedTuple):
    """What an embedding bag's gradients read, per id position."""
    bag: object       # its bag (``bags`` where it is in none)
    in_bag: object    # whether it is in a bag
    safe_bag: object  # its bag, 0 where it is in none
    rows: object      # the table row it reads, by the mode
    valid: object     # whether the forward read that row (fill)
    counted: object   # whether it counts in its bag (padding_idx)
    keep: object      # counted and valid: whether its row gets a gradient
    factor: object    # its factor in its bag's output (mean, weights)


def _compiling(torch):
    """Whether torch.compile is tracing: no data-dependent branches then,
    and no tensors kept from outside the trace."""
    return getattr(getattr(torch, "compiler", None), "is_compiling",
                   lambda: False)()


@functools.lru_cache(maxsize=4)
def _row_numbers(torch, num, device):
    """arange(num) as int64 on ``device``: the table rows that the mode's
    gather reads ids into, kept for the next step of the same table (one
    read-only tensor per table size)."""
    return torch.arange(num, dtype=torch.int64, device=device)


def _bag_terms(ops, input, weight, offsets, per_sample_weights, bags, dtype,
               mode, include_last_offset, padding_idx, oob_mode):
    torch = _torch()
    num = weight.shape[0]
    bag, ids = _bag_layout(torch, input, offsets, include_last_offset, bags)
    ids = ids.to(torch.int64)
    # The row each id reads, by the mode (the dialect's index rules: a
    # gather of row numbers), and whether it reads one (fill).
    read_mode = "clamp" if oob_mode in ("check", "unchecked") else oob_mode
    row_numbers = (torch.arange(num, dtype=torch.int64, device=ids.device)
                   if _compiling(torch) else
                   _row_numbers(torch, num, ids.device))
    if num == 0:
        rows = torch.zeros_like(ids)
        valid = torch.zeros_like(ids, dtype=torch.bool)
    else:
        rows = ops.gather(row_numbers, ids, "gather", 0, 0, read_mode)
        valid = torch.ones_like(ids, dtype=torch.bool)
        if oob_mode == "fill":
            valid = ops.gather(torch.ones_like(row_numbers), ids, "gather",
                               0, 0, "fill") != 0
    in_bag = bag < bags
    counted = in_bag
    if padding_idx is not None:
        pad = padding_idx + num if padding_idx < 0 else padding_idx
        counted = counted & (rows != pad)
    factor = torch.where(counted, 1.0, 0.0).to(dtype)
    safe_bag = torch.where(in_bag, bag, 0)
    if mode == "mean":
        count = torch.zeros(bags, dtype=dtype, device=ids.device)
        count = count.index_add(0, safe_bag, factor)
        factor = factor / count.clamp(min=1)[safe_bag]
    if per_sample_weights is not None:
        factor = factor * per_sample_weights.reshape(-1).to(dtype)
    return _BagTerms(bag, in_bag, safe_bag, rows, valid, counted,
                     counted & valid, factor)


def _kept(terms, *values):
    """``values`` (per id position) at the positions whose rows get a
    gradient: as they are when all do (no copies), which a trace cannot
    ask (a data-dependent branch)."""
    torch = _torch()
    if not _compiling(torch) and bool(terms.keep.all()):
        return values
    return tuple(v[terms.keep] for v in values)


def _read_rows(ops, weight, terms):
    """The row each id position read in the forward (zeros where it read
    none: fill)."""
    torch = _torch()
    num, dim = weight.shape
    read = ops.gather(weight, terms.rows, "gather", 0, 0, "clamp") \
        if num else weight.new_zeros((terms.rows.shape[0], dim))
    return torch.where(terms.valid[:, None], read, 0)


def _samples_gradient(ops, weight, per_sample_weights, terms, grad_rows):
    """per_sample_weights' gradient: each counted id's row read by the
    forward, dotted with its bag's output gradient."""
    torch = _torch()
    read = _read_rows(ops, weight, terms)
    samples = torch.where(terms.counted, (read * grad_rows).sum(-1), 0)
    return samples.reshape(per_sample_weights.shape).to(
        per_sample_weights.dtype)


def _bag_backward(ops, input, weight, offsets, per_sample_weights, output,
                  grad, mode, include_last_offset, padding_idx, oob_mode,
                  scale_grad_by_freq, sparse, needs_weight, needs_samples):
    """The gradients of an embedding bag for its table and its
    per_sample_weights."""
    torch = _torch()
    num, dim = weight.shape
    bags = grad.shape[0]
    terms = _bag_terms(ops, input, weight, offsets, per_sample_weights, bags,
                       grad.dtype, mode, include_last_offset, padding_idx,
                       oob_mode)
    rows, valid, counted, keep = (terms.rows, terms.valid, terms.counted,
                                  terms.keep)
    bag, in_bag, safe_bag = terms.bag, terms.in_bag, terms.safe_bag
    factor = terms.factor
    # Each id's bag row of the output gradient (the dialect's gather, faster
    # than index_select on rows).
    grad_rows = ops.gather(grad.contiguous(), safe_bag, "gather", 0, 0,
                           "unchecked") if bags else grad.new_zeros(
        (rows.shape[0], dim))
    samples = None
    if per_sample_weights is not None and needs_samples:
        samples = _samples_gradient(ops, weight, per_sample_weights, terms,
                                    grad_rows)
    if not needs_weight:
        return None, samples
    # Rows the forward did not read (fill) get nothing: an out-of-range row
    # for the fill-mode scatter.
    targets = torch.where(valid, rows, num)
    if mode == "max":
        # Each output element came from the first id of its bag whose row
        # holds the maximum (torch's choice; a fill id's zeros take part):
        # its position, by a min-scatter of the positions that match.
        read = _read_rows(ops, weight, terms)
        n = rows.shape[0]
        matches = ((read == output.index_select(0, safe_bag))
                   & counted[:, None])
        positions = torch.arange(n, dtype=torch.int64, device=rows.device)
        candidates = torch.where(matches, positions[:, None], n)
        first = ops.scatter(
            torch.full((bags, dim), n, dtype=torch.int64, device=rows.device),
            torch.where(in_bag, bag, bags), candidates.contiguous(),
            "scatter", 0, 0, "fill", "min")
        source = torch.cat([targets, targets.new_full((1,), num)])[first]
        return _scatter_add_into_zeros(ops, (num, dim), source, grad,
                                       "scatter_elements", 0, 0,
                                       "fill"), samples
    if scale_grad_by_freq and num:
        freq = torch.zeros(num, dtype=grad.dtype, device=grad.device)
        freq = freq.index_add(0, rows[keep], torch.ones_like(
            rows[keep], dtype=grad.dtype))
        factor = factor / freq.clamp(min=1)[rows]
    # A sum bag without weights scales by one: the ids its rows do not
    # count (padding) get no gradient through `keep` alone.
    ones = mode == "sum" and per_sample_weights is None and not (
        scale_grad_by_freq and num)
    updates = grad_rows if ones else grad_rows * factor[:, None]
    if sparse:
        rows, updates = _kept(terms, rows, updates)
        return torch.sparse_coo_tensor(rows[None], updates,
                                       (num, dim)), samples
    targets = torch.where(keep, rows, num)
    return _scatter_add_into_zeros(ops, (num, dim), targets, updates,
                                   "scatter", 0, 0, "fill"), samples


def _bag_forward(input, weight, offsets, mode, per_sample_weights,
                 include_last_offset, padding_idx, oob_mode):
    detach = (lambda t: None if t is None else t.detach())
    return _public().embedding_bag(
        input.detach(), weight.detach(), detach(offsets), mode=mode,
        per_sample_weights=detach(per_sample_weights),
        include_last_offset=include_last_offset, padding_idx=padding_idx,
        oob_mode=oob_mode)


def _bag_shape(input, weight, offsets, include_last_offset):
    if input.dim() == 2:
        return (input.shape[0], weight.shape[1])
    bags = offsets.shape[0] - (1 if include_last_offset else 0)
    return (bags, weight.shape[1])


# --- Registration -------------------------------------------------------------


class _Ops:
    """The differentiable ops: ``gather``, ``scatter`` and ``embedding_bag``,
    and ``scatter_``, the scatter into its data in place (for gradients that
    start as zeros; not differentiable), callables taking the op's name and
    attributes positionally."""


def _register_custom_ops(torch):
    from torch import Tensor
    ops = _Ops()
    library = torch.library

    @library.custom_op("gather_mlir::gather", mutates_args=())
    def gather(data: Tensor, indices: Tensor, op: str, axis: int,
               batch_dims: int, mode: str) -> Tensor:
        return _gather_forward(data, indices, op, axis, batch_dims, mode)

    @gather.register_fake
    def _(data, indices, op, axis, batch_dims, mode):
        return data.new_empty(_gather_shape(op, data, indices, axis,
                                            batch_dims))

    def gather_setup(ctx, inputs, output):
        data, indices, op, axis, batch_dims, mode = inputs
        ctx.save_for_backward(indices)
        ctx.attrs = (tuple(data.shape), op, axis, batch_dims, mode)

    def gather_grad(ctx, grad):
        (indices,) = ctx.saved_tensors
        shape, op, axis, batch_dims, mode = ctx.attrs
        return (_gather_backward(ops, shape, indices, grad, op, axis,
                                 batch_dims, mode),
                None, None, None, None, None)

    gather.register_autograd(gather_grad, setup_context=gather_setup)

    @library.custom_op("gather_mlir::scatter", mutates_args=())
    def scatter(data: Tensor, indices: Tensor, updates: Tensor, op: str,
                axis: int, batch_dims: int, mode: str,
                reduction: str) -> Tensor:
        return _scatter_forward(data, indices, updates, op, axis, batch_dims,
                                mode, reduction)

    @scatter.register_fake
    def _(data, indices, updates, op, axis, batch_dims, mode, reduction):
        return torch.empty_like(data)

    def scatter_setup(ctx, inputs, output):
        _, indices, _, op, axis, batch_dims, mode, reduction = inputs
        ctx.save_for_backward(indices)
        ctx.attrs = (op, axis, batch_dims, mode, reduction)

    def scatter_grad(ctx, grad):
        (indices,) = ctx.saved_tensors
        data_grad, updates_grad = _scatter_backward(ops, indices, grad,
                                                    *ctx.attrs)
        return (data_grad, None, updates_grad, None, None, None, None, None)

    scatter.register_autograd(scatter_grad, setup_context=scatter_setup)

    # `index_mode`, not `mode`: torch's functionalization of a mutating op
    # passes a `mode` of its own.
    @library.custom_op("gather_mlir::scatter_", mutates_args=("data",))
    def scatter_(data: Tensor, indices: Tensor, updates: Tensor, op: str,
                 axis: int, batch_dims: int, index_mode: str,
                 reduction: str) -> None:
        _scatter_into(data, indices, updates, op, axis, batch_dims,
                      index_mode, reduction)

    @scatter_.register_fake
    def _(data, indices, updates, op, axis, batch_dims, index_mode,
          reduction):
        return None

    @library.custom_op("gather_mlir::embedding_bag", mutates_args=())
    def embedding_bag(input: Tensor, weight: Tensor, offsets: Optional[Tensor],
                      mode: str, per_sample_weights: Optional[Tensor],
                      include_last_offset: bool, padding_idx: Optional[int],
                      oob_mode: str, scale_grad_by_freq: bool,
                      sparse: bool) -> Tensor:
        return _bag_forward(input, weight, offsets, mode, per_sample_weights,
                            include_last_offset, padding_idx, oob_mode)

    @embedding_bag.register_fake
    def _(input, weight, offsets, mode, per_sample_weights,
          include_last_offset, padding_idx, oob_mode, scale_grad_by_freq,
          sparse):
        return weight.new_empty(_bag_shape(input, weight, offsets,
                                           include_last_offset))

    def bag_setup(ctx, inputs, output):
        (input, weight, offsets, mode, per_sample_weights,
         include_last_offset, padding_idx, oob_mode, scale_grad_by_freq,
         sparse) = inputs
        ctx.save_for_backward(input, weight, offsets, per_sample_weights,
                              output)
        ctx.attrs = (mode, include_last_offset, padding_idx, oob_mode,
                     scale_grad_by_freq, sparse)

    def bag_grad(ctx, grad):
        input, weight, offsets, per_sample_weights, output = ctx.saved_tensors
        (mode, include_last_offset, padding_idx, oob_mode,
         scale_grad_by_freq, sparse) = ctx.attrs
        grad_weight, grad_samples = _bag_backward(
            ops, input, weight, offsets, per_sample_weights, output, grad,
            mode, include_last_offset, padding_idx, oob_mode,
            scale_grad_by_freq, sparse, ctx.needs_input_grad[1],
            ctx.needs_input_grad[4])
        return (None, grad_weight, None, None, grad_samples, None, None, None,
                None, None)

    embedding_bag.register_autograd(bag_grad, setup_context=bag_setup)

    ops.gather = gather
    ops.scatter = scatter
    ops.scatter_ = scatter_
    ops.embedding_bag = embedding_bag
    return ops


def _register_functions(torch):
    """The same ops as torch.autograd.Functions (torch before 2.4)."""
    ops = _Ops()

    class Gather(torch.autograd.Function):
        @staticmethod
        def forward(ctx, data, indices, op, axis, batch_dims, mode):
            ctx.save_for_backward(indices)
            ctx.attrs = (tuple(data.shape), op, axis, batch_dims, mode)
            return _gather_forward(data, indices, op, axis, batch_dims, mode)

        @staticmethod
        def backward(ctx, grad):
            (indices,) = ctx.saved_tensors
            shape, op, axis, batch_dims, mode = ctx.attrs
            return (_gather_backward(ops, shape, indices, grad, op, axis,
                                     batch_dims, mode),
                    None, None, None, None, None)

    class Scatter(torch.autograd.Function):
        @staticmethod
        def forward(ctx, data, indices, updates, op, axis, batch_dims, mode,
                    reduction):
            ctx.save_for_backward(indices)
            ctx.attrs = (op, axis, batch_dims, mode, reduction)
            return _scatter_forward(data, indices, updates, op, axis,
                                    batch_dims, mode, reduction)

        @staticmethod
        def backward(ctx, grad):
            (indices,) = ctx.saved_tensors
            data_grad, updates_grad = _scatter_backward(ops, indices, grad,
                                                        *ctx.attrs)
            return (data_grad, None, updates_grad, None, None, None, None,
                    None)

    class EmbeddingBag(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input, weight, offsets, mode, per_sample_weights,
                    include_last_offset, padding_idx, oob_mode,
                    scale_grad_by_freq, sparse):
            output = _bag_forward(input, weight, offsets, mode,
                                  per_sample_weights, include_last_offset,
                                  padding_idx, oob_mode)
            ctx.save_for_backward(input, weight, offsets, per_sample_weights,
                                  output)
            ctx.attrs = (mode, include_last_offset, padding_idx, oob_mode,
                         scale_grad_by_freq, sparse)
            return output

        @staticmethod
        def backward(ctx, grad):
            (input, weight, offsets, per_sample_weights,
             output) = ctx.saved_tensors
            (mode, include_last_offset, padding_idx, oob_mode,
             scale_grad_by_freq, sparse) = ctx.attrs
            grad_weight, grad_samples = _bag_backward(
                ops, input, weight, offsets, per_sample_weights, output,
                grad, mode, include_last_offset, padding_idx, oob_mode,
                scale_grad_by_freq, sparse, ctx.needs_input_grad[1],
                ctx.needs_input_grad[4])
            return (None, grad_weight, None, None, grad_samples, None, None,
                    None, None, None)

    ops.gather = Gather.apply
    ops.scatter = Scatter.apply
    ops.scatter_ = _scatter_into
    ops.embedding_bag = EmbeddingBag.apply
    return ops


def ops():
    """The differentiable ops, registered with torch on first use."""
    global _registered
    if _registered is None:
        with _lock:
            if _registered is None:
                torch = _torch()
                custom = getattr(torch.library, "custom_op", None)
                _registered = (_register_custom_ops(torch) if custom
                               else _register_functions(torch))
    return _registered


def needs_grad(*values):
    """Whether autograd must record a call on ``values``: grad mode is on
    and a tensor among them requires grad."""
    torch = _torch()
    if torch is None or not torch.is_grad_enabled():
        return False
    return any(isinstance(v, torch.Tensor) and v.requires_grad
               for v in values)


def recorded(*values):
    """Whether a call on ``values`` goes through the registered ops: it
    needs grad, or torch.compile is tracing it (the ops are what it can
    trace; the package's native calls are opaque to it)."""
    torch = _torch()
    if torch is None:
        return False
    compiler = getattr(torch, "compiler", None)
    tracing = compiler is not None and compiler.is_compiling()
    return tracing or needs_grad(*values)


def gather(op, data, indices, axis, batch_dims, mode, out):
    """A gather function's call on ``data`` that requires grad."""
    if out is not None:
        raise ValueError(f"{op}: out= does not take part in autograd (data "
                         "requires grad): leave it out, or call under "
                         "torch.no_grad()")
    torch = _torch()
    if not isinstance(indices, torch.Tensor):
        import numpy as np
        indices = torch.from_numpy(np.asarray(indices))
    return ops().gather(data, indices, op, int(axis), int(batch_dims), mode)


def scatter(op, data, indices, updates, axis, batch_dims, mode, reduction,
            out):
    """A scatter function's call on operands that require grad."""
    torch = _torch()
    if out is not None:
        raise ValueError(f"{op}: out= does not take part in autograd: leave "
                         "it out, or call under torch.no_grad()")
    if not isinstance(indices, torch.Tensor):
        import numpy as np
        indices = torch.from_numpy(np.asarray(indices))
    return ops().scatter(data, indices, updates, op, int(axis),
                         int(batch_dims), mode, reduction)


def embedding_bag(input, weight, offsets, mode, per_sample_weights,
                  include_last_offset, padding_idx, oob_mode, out,
                  scale_grad_by_freq, sparse):
    """An embedding bag's call on a table (or per_sample_weights) that
    requires grad."""
    torch = _torch()
    if out is not None:
        raise ValueError("embedding_bag: out= does not take part in "
                         "autograd (weight requires grad): leave it out, or "
                         "call under torch.no_grad()")
    if sparse and mode == "max":
        raise ValueError("embedding_bag: sparse=True is not supported with "
                         "mode='max' (as in torch)")
    if scale_grad_by_freq and mode == "max":
        raise ValueError("embedding_bag: scale_grad_by_freq=True is not "
                         "supported with mode='max' (as in torch)")
    import numpy as np

    def tensor(value):
        if value is None or isinstance(value, torch.Tensor):
            return value
        return torch.from_numpy(np.asarray(value))

    if not isinstance(weight, torch.Tensor):
        raise TypeError("embedding_bag: per_sample_weights requires grad, "
                        "so weight must be a torch tensor too")
    return ops().embedding_bag(
        tensor(input), weight, tensor(offsets), mode,
        tensor(per_sample_weights), bool(include_last_offset),
        None if padding_idx is None else int(padding_idx), oob_mode,
        bool(scale_grad_by_freq), bool(sparse))
