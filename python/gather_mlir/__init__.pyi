# Type stubs of gather_mlir (PEP 561; the package ships py.typed).
# torch is optional at run time: a checker without torch sees Tensor as Any.
from typing import Literal, TypeVar, overload

import numpy as np
import torch
from numpy.typing import ArrayLike

__version__: str
__all__: list[str]

_Mode = Literal["check", "fill", "clamp", "wrap", "unchecked"]
MODES: tuple[str, ...]

_Indices = ArrayLike | torch.Tensor
_Out = TypeVar("_Out", np.ndarray, torch.Tensor)

def compile_count() -> int: ...
def kernel_choice(op: Literal["gather", "gather_elements", "gather_nd"],
                  data: ArrayLike, indices: ArrayLike, axis: int = ...,
                  batch_dims: int = ..., mode: _Mode = ...,
                  out: np.ndarray | None = ...) -> dict[str, object]: ...

# The result is `out` if given, else a tensor for tensor data, else an array.
@overload
def gather(data: torch.Tensor, indices: _Indices, axis: int = ...,
           batch_dims: int = ..., mode: _Mode = ...,
           out: None = ...) -> torch.Tensor: ...
@overload
def gather(data: ArrayLike, indices: _Indices, axis: int = ...,
           batch_dims: int = ..., mode: _Mode = ...,
           out: None = ...) -> np.ndarray: ...
@overload
def gather(data: ArrayLike | torch.Tensor, indices: _Indices, axis: int,
           batch_dims: int, mode: _Mode, out: _Out) -> _Out: ...
@overload
def gather(data: ArrayLike | torch.Tensor, indices: _Indices, axis: int = ...,
           batch_dims: int = ..., mode: _Mode = ..., *,
           out: _Out) -> _Out: ...

@overload
def gather_elements(data: torch.Tensor, indices: _Indices, axis: int = ...,
                    mode: _Mode = ..., out: None = ...) -> torch.Tensor: ...
@overload
def gather_elements(data: ArrayLike, indices: _Indices, axis: int = ...,
                    mode: _Mode = ..., out: None = ...) -> np.ndarray: ...
@overload
def gather_elements(data: ArrayLike | torch.Tensor, indices: _Indices,
                    axis: int, mode: _Mode, out: _Out) -> _Out: ...
@overload
def gather_elements(data: ArrayLike | torch.Tensor, indices: _Indices,
                    axis: int = ..., mode: _Mode = ..., *,
                    out: _Out) -> _Out: ...

@overload
def gather_nd(data: torch.Tensor, indices: _Indices, batch_dims: int = ...,
              mode: _Mode = ..., out: None = ...) -> torch.Tensor: ...
@overload
def gather_nd(data: ArrayLike, indices: _Indices, batch_dims: int = ...,
              mode: _Mode = ..., out: None = ...) -> np.ndarray: ...
@overload
def gather_nd(data: ArrayLike | torch.Tensor, indices: _Indices,
              batch_dims: int, mode: _Mode, out: _Out) -> _Out: ...
@overload
def gather_nd(data: ArrayLike | torch.Tensor, indices: _Indices,
              batch_dims: int = ..., mode: _Mode = ..., *,
              out: _Out) -> _Out: ...

_Reduction = Literal["sum", "mean", "max"]

@overload
def embedding_bag(input: _Indices, weight: torch.Tensor,
                  offsets: _Indices | None = ...,
                  max_norm: float | None = ..., norm_type: float = ...,
                  scale_grad_by_freq: bool = ..., mode: _Reduction = ...,
                  sparse: bool = ...,
                  per_sample_weights: ArrayLike | torch.Tensor | None = ...,
                  include_last_offset: bool = ...,
                  padding_idx: int | None = ..., *, oob_mode: _Mode = ...,
                  out: None = ...) -> torch.Tensor: ...
@overload
def embedding_bag(input: _Indices, weight: ArrayLike,
                  offsets: _Indices | None = ...,
                  max_norm: float | None = ..., norm_type: float = ...,
                  scale_grad_by_freq: bool = ..., mode: _Reduction = ...,
                  sparse: bool = ...,
                  per_sample_weights: ArrayLike | torch.Tensor | None = ...,
                  include_last_offset: bool = ...,
                  padding_idx: int | None = ..., *, oob_mode: _Mode = ...,
                  out: None = ...) -> np.ndarray: ...
@overload
def embedding_bag(input: _Indices, weight: ArrayLike | torch.Tensor,
                  offsets: _Indices | None = ...,
                  max_norm: float | None = ..., norm_type: float = ...,
                  scale_grad_by_freq: bool = ..., mode: _Reduction = ...,
                  sparse: bool = ...,
                  per_sample_weights: ArrayLike | torch.Tensor | None = ...,
                  include_last_offset: bool = ...,
                  padding_idx: int | None = ..., *, oob_mode: _Mode = ...,
                  out: _Out) -> _Out: ...

@overload
def embedding_bag_rowwise_quantized(
    input: _Indices, weight: torch.Tensor, offsets: _Indices | None = ...,
    mode: _Reduction = ...,
    per_sample_weights: ArrayLike | torch.Tensor | None = ...,
    include_last_offset: bool = ..., *, bits: Literal[8, 4] = ...,
    oob_mode: _Mode = ..., out: None = ...) -> torch.Tensor: ...
@overload
def embedding_bag_rowwise_quantized(
    input: _Indices, weight: ArrayLike, offsets: _Indices | None = ...,
    mode: _Reduction = ...,
    per_sample_weights: ArrayLike | torch.Tensor | None = ...,
    include_last_offset: bool = ..., *, bits: Literal[8, 4] = ...,
    oob_mode: _Mode = ..., out: None = ...) -> np.ndarray: ...
@overload
def embedding_bag_rowwise_quantized(
    input: _Indices, weight: ArrayLike | torch.Tensor,
    offsets: _Indices | None = ..., mode: _Reduction = ...,
    per_sample_weights: ArrayLike | torch.Tensor | None = ...,
    include_last_offset: bool = ..., *, bits: Literal[8, 4] = ...,
    oob_mode: _Mode = ..., out: _Out) -> _Out: ...

def gather_block_quantized(data: ArrayLike | torch.Tensor, indices: _Indices,
                           scales: ArrayLike | torch.Tensor,
                           zero_points: ArrayLike | torch.Tensor | None = ...,
                           *, gather_axis: int = ..., quantize_axis: int = ...,
                           block_size: int = ..., bits: int = ...,
                           mode: _Mode = ...,
                           out: _Out | None = ...) -> np.ndarray | torch.Tensor: ...

_Combine = Literal["none", "add", "mul", "max", "min"]
REDUCTIONS: tuple[str, ...]

# The scatters: a new array (data is not modified), or `out` if given.
def scatter(data: ArrayLike | torch.Tensor, indices: _Indices,
            updates: ArrayLike | torch.Tensor, axis: int = ...,
            batch_dims: int = ..., mode: _Mode = ...,
            reduction: _Combine = ...,
            out: _Out | None = ...) -> np.ndarray | torch.Tensor: ...
def scatter_elements(data: ArrayLike | torch.Tensor, indices: _Indices,
                     updates: ArrayLike | torch.Tensor, axis: int = ...,
                     mode: _Mode = ..., reduction: _Combine = ...,
                     out: _Out | None = ...) -> np.ndarray | torch.Tensor: ...
def scatter_nd(data: ArrayLike | torch.Tensor, indices: _Indices,
               updates: ArrayLike | torch.Tensor, batch_dims: int = ...,
               mode: _Mode = ..., reduction: _Combine = ...,
               out: _Out | None = ...) -> np.ndarray | torch.Tensor: ...
