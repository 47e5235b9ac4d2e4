"""An independent reference of docs/Semantics.md in plain Python loops, for the
differential tests. It shares no code with gather_mlir."""

import numpy as np

FAILING_MODES = ("check", "clamp", "wrap")


def resolve(i, s, mode):
    """The position index value i selects along size s, None for a zero
    (fill); raises IndexError where the mode makes it an error."""
    i = int(i)
    if s == 0:
        if mode in FAILING_MODES:
            raise IndexError(f"index {i} along an empty dimension")
        return None
    if mode == "wrap":
        return i % s
    n = i + s if -s <= i < 0 else i
    if mode == "clamp":
        return min(max(n, 0), s - 1)
    if 0 <= n < s:
        return n
    if mode == "fill":
        return None
    raise IndexError(f"index {i} is out of range [{-s}, {s - 1}]")


def _validate(values_and_sizes, mode):
    """Every index is checked, used or not (check mode; clamp/wrap only
    fail along empty dimensions)."""
    if mode in FAILING_MODES:
        for value, size in values_and_sizes:
            resolve(value, size, mode)


def gather(data, indices, axis=0, batch_dims=0, mode="check"):
    data, indices = np.asarray(data), np.asarray(indices)
    r, q = data.ndim, indices.ndim
    a = axis + r if axis < 0 else axis
    b = batch_dims + q if batch_dims < 0 else batch_dims
    s = data.shape[a]
    _validate(((v, s) for v in indices.flat), mode)
    shape = data.shape[:a] + indices.shape[b:] + data.shape[a + 1:]
    out = np.zeros(shape, data.dtype)
    for o in np.ndindex(*shape):
        k = resolve(indices[o[:b] + o[a:a + q - b]], s, mode)
        if k is not None:
            out[o] = data[o[:a] + (k,) + o[a + q - b:]]
    return out


def gather_elements(data, indices, axis=0, mode="check"):
    data, indices = np.asarray(data), np.asarray(indices)
    a = axis + data.ndim if axis < 0 else axis
    s = data.shape[a]
    _validate(((v, s) for v in indices.flat), mode)
    out = np.zeros(indices.shape, data.dtype)
    for o in np.ndindex(*indices.shape):
        k = resolve(indices[o], s, mode)
        if k is not None:
            out[o] = data[o[:a] + (k,) + o[a + 1:]]
    return out


def gather_nd(data, indices, batch_dims=0, mode="check"):
    data, indices = np.asarray(data), np.asarray(indices)
    b, k = batch_dims, indices.shape[-1]
    sizes = data.shape[b:b + k]
    _validate(((v, sizes[c]) for t in indices.reshape(-1, k)
               for c, v in enumerate(t)), mode)
    shape = indices.shape[:-1] + data.shape[b + k:]
    out = np.zeros(shape, data.dtype)
    for o in np.ndindex(*shape):
        t = indices[o[:indices.ndim - 1]]
        picked = [resolve(t[c], sizes[c], mode) for c in range(k)]
        if None not in picked:
            out[o] = data[o[:b] + tuple(picked) + o[indices.ndim - 1:]]
    return out


# --- The scatters: every update combined, in row-major order of updates, into
# the element its gather reads. ----------------------------------------------

def _combine(old, new, reduction, dtype):
    """One step of the sequential loop, in the accumulator's dtype."""
    if reduction == "none":
        return new
    if dtype.kind == "b":
        return {"add": old or new, "mul": old and new, "max": old or new,
                "min": old and new}[reduction]
    if dtype.kind in "iu":
        bits = dtype.itemsize * 8
        value = {"add": int(old) + int(new), "mul": int(old) * int(new),
                 "max": max(int(old), int(new)),
                 "min": min(int(old), int(new))}[reduction]
        value %= 1 << bits
        if dtype.kind == "i" and value >= 1 << (bits - 1):
            value -= 1 << bits
        return value
    old, new = dtype.type(old), dtype.type(new)
    if reduction in ("max", "min") and (np.isnan(old) or np.isnan(new)):
        return dtype.type(np.nan)
    with np.errstate(all="ignore"):
        return {"add": lambda: old + new, "mul": lambda: old * new,
                "max": lambda: max(old, new),
                "min": lambda: min(old, new)}[reduction]()


def _scatter(data, updates, targets, reduction):
    """data combined with updates[o] at targets(o) (None: dropped);
    float16 add/mul accumulate in float32 and round once."""
    data, updates = np.asarray(data), np.asarray(updates)
    dtype = data.dtype
    acc = dtype
    if dtype == np.float16 and reduction in ("add", "mul"):
        acc = np.dtype(np.float32)
    out = data.astype(acc) if acc != dtype else data.copy()
    for o in np.ndindex(*updates.shape):
        t = targets(o)
        if t is not None:
            out[t] = _combine(out[t], updates[o], reduction, acc)
    return out.astype(dtype) if acc != dtype else out


def scatter(data, indices, updates, axis=0, batch_dims=0, mode="check",
            reduction="none"):
    data, indices = np.asarray(data), np.asarray(indices)
    r, q = data.ndim, indices.ndim
    a = axis + r if axis < 0 else axis
    b = batch_dims + q if batch_dims < 0 else batch_dims
    s = data.shape[a]
    _validate(((v, s) for v in indices.flat), mode)

    def targets(o):
        k = resolve(indices[o[:b] + o[a:a + q - b]], s, mode)
        return None if k is None else o[:a] + (k,) + o[a + q - b:]
    return _scatter(data, updates, targets, reduction)


def scatter_elements(data, indices, updates, axis=0, mode="check",
                     reduction="none"):
    data, indices = np.asarray(data), np.asarray(indices)
    a = axis + data.ndim if axis < 0 else axis
    s = data.shape[a]
    _validate(((v, s) for v in indices.flat), mode)

    def targets(o):
        k = resolve(indices[o], s, mode)
        return None if k is None else o[:a] + (k,) + o[a + 1:]
    return _scatter(data, updates, targets, reduction)


def scatter_nd(data, indices, updates, batch_dims=0, mode="check",
               reduction="none"):
    data, indices = np.asarray(data), np.asarray(indices)
    b, k = batch_dims, indices.shape[-1]
    sizes = data.shape[b:b + k]
    _validate(((v, sizes[c]) for t in indices.reshape(-1, k)
               for c, v in enumerate(t)), mode)

    def targets(o):
        t = indices[o[:indices.ndim - 1]]
        picked = [resolve(t[c], sizes[c], mode) for c in range(k)]
        if None in picked:
            return None
        return o[:b] + tuple(picked) + o[indices.ndim - 1:]
    return _scatter(data, updates, targets, reduction)
