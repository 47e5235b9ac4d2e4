"""What the functions built on ``compiler.JitModule`` share: a per-process
cache of their kernels, array views of tensors, and how a result is
returned (into ``out``, as a torch tensor, or as the array itself)."""

import threading

import numpy as np

from . import _is_tensor, _native, _tensor_array, _torch



#: Whether a call that reduces or produces ``values`` f32 values runs on
#: threads (the rule the native embedding bags use).
on_threads = _native.reduces_on_threads

#: ``signed_ids(array, num, mode, function, name, op)``: signed ids with the
#: values of ``array`` (the rule the native embedding bags use).
signed_ids = _native.signed_ids


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


def destination(function, shape, dtype, out, operands):
    """The array a kernel writes its result (``shape``, ``dtype``) into:
    ``out`` itself (a tensor as a view of its memory), or a new array (from
    the reused result memory for large results) when there is no ``out`` or
    it shares memory with ``operands``, copied into ``out`` by ``deliver``.
    ``_native.result_array`` checks ``out`` as for every function: TypeError
    or ValueError naming ``function`` when it is not an array or tensor, has
    the wrong dtype or shape, is not C-contiguous or is read-only."""
    if _is_tensor(out):
        out = _tensor_array(function, "out", out)
    return _native.result_array(function, shape, dtype, out, operands)


def deliver(function, result, out, as_tensor):
    """``out``, holding ``result`` (copied unless the kernel wrote it there:
    see ``destination``); without ``out``, ``result`` as a torch tensor if
    ``as_tensor``, else itself."""
    if out is None:
        return _torch().from_numpy(result) if as_tensor else result
    target = array(function, "out", out)
    if not np.may_share_memory(target, result):
        target[...] = result
    return out


def embedding_bag_kernel(name, parallel, **attributes):
    """A JIT-compiled module whose function ``name`` is one
    ``gather.embedding_bag`` written into its last argument, the result's
    buffer (``_native.embedding_bag_module`` builds it from ``attributes``:
    dtypes of the operands, the op's attributes), lowered by
    ``gather-to-llvm`` for this host (threads when ``parallel``)."""
    module = _native.embedding_bag_module(name=name, **attributes)
    return _native.JitModule.for_host(module, parallel=parallel)
