"""What the functions whose rules and calls are native (embedding bags,
``gather_block_quantized``) do in Python: view torch tensors as numpy arrays
before the native call, and return the result as the caller asked."""

from . import _is_tensor, _tensor_array, _tensor_result, _torch


def any_tensor(*values):
    """Whether one of ``values`` is a torch tensor (torch is never
    imported: none can be unless the caller did)."""
    torch = _torch()
    if torch is None:
        return False
    tensor = torch.Tensor
    for value in values:
        if isinstance(value, tensor):
            return True
    return False


def view(function, name, value, index=False, bfloat16=True):
    """``value``, a CPU tensor viewed as a numpy array (not copied; errors
    name argument ``name`` of ``function``; an ``index`` argument must be an
    integer tensor, and a bfloat16 one moves as int16 only where
    ``bfloat16``), or itself."""
    if value is None or not _is_tensor(value):
        return value
    return _tensor_array(function, name, value, index, bfloat16)


def returned(result, out, like):
    """What the function returns after the native call wrote ``result``
    (into ``out``'s memory when given): ``out`` as the caller gave it, else
    ``result``, as a torch tensor of ``like``'s dtype if ``like`` is a
    tensor (the table, the scales)."""
    if out is not None:
        return out
    return _tensor_result(like.dtype)(result) if _is_tensor(like) else result
