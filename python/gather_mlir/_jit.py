"""What the functions built on ``compiler.JitModule`` share: a per-process
cache of their kernels, array views of tensors, and how a result is
returned (into ``out``, as a torch tensor, or as the array itself)."""

import threading

import numpy as np

from . import _is_tensor, _tensor_array, _torch


class KernelCache:
    """Kernels built by ``compile(*key)`` once per key, thread-safely."""

    def __init__(self, compile):
        self._compile = compile
        self._kernels = {}
        self._lock = threading.Lock()

    def __call__(self, key):
        with self._lock:
            jit = self._kernels.get(key)
            if jit is None:
                jit = self._kernels[key] = self._compile(*key)
            return jit


def array(function, name, value):
    """A numpy array of argument ``name`` (a CPU tensor is viewed, not
    copied)."""
    if _is_tensor(value):
        return _tensor_array(function, name, value)
    return np.asarray(value)


def deliver(function, result, out, as_tensor):
    """``result`` written into ``out`` (checked: an array or tensor of the
    result's dtype and shape) and ``out`` returned; else ``result`` as a
    torch tensor if ``as_tensor``, else itself."""
    if out is None:
        return _torch().from_numpy(result) if as_tensor else result
    target = array(function, "out", out)
    if not isinstance(out, np.ndarray) and not _is_tensor(out):
        raise TypeError(f"{function}: out must be a numpy array or a torch "
                        f"tensor, not {type(out).__name__}")
    if target.dtype != result.dtype:
        raise TypeError(f"{function}: out has dtype {target.dtype}, the "
                        f"result {result.dtype}")
    if target.shape != result.shape:
        raise ValueError(f"{function}: out has shape {target.shape}, the "
                         f"result {result.shape}")
    target[...] = result
    return out
