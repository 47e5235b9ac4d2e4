"""The lower-level API of gather_mlir, for compiler users.

    >>> from gather_mlir.compiler import Module, JitModule
    >>> m = Module(open("kernel.mlir").read())   # parse + verify (ValueError)
    >>> print(m.run("canonicalize"))             # any pass pipeline, in place
    >>> jit = JitModule(m)                       # gather-to-llvm, then JIT
    >>> result = jit.call("f", a, b)             # numpy arrays in and out

``Module.run(pipeline)`` takes the passes alone (``"canonicalize,cse"``, a
registered pipeline such as ``"gather-to-llvm"``) or gather-opt's
``--pass-pipeline`` form anchored on the module
(``"builtin.module(canonicalize,cse)"``); ``JitModule``'s ``pipeline`` too.

Modules share one MLIRContext with every upstream dialect and the gather
dialect registered. Parse, verification and pipeline errors are
``ValueError``s carrying mlir-opt's diagnostics with their locations
(``<source>:3:8: error: ...``).

``JitModule(module, pipeline="gather-to-llvm", opt_level=3)`` lowers a copy
of the module with ``pipeline``, gives public functions a C interface and
compiles them with MLIR's ExecutionEngine (``opt_level`` 0..3, else
``ValueError``). With ``pipeline=""`` the module may already be in the LLVM
dialect if ``Module.run`` lowered it (its functions keep the types they had
before); one lowered elsewhere raises ``ValueError`` naming the function, as
the LLVM dialect has no element types. Every function is compiled at
construction: unresolved symbols are a ``ValueError`` naming them. Modules
lowered with ``parallel=true`` get libomp.

``call(name, *arrays)`` checks each argument against the function type
before running anything: the count, rank, every static dim and static
memref stride (``ValueError``) and the dtype, byte order included
(``TypeError``); dynamic dims take any size. Arrays must be C-contiguous
(``ValueError``; a copy would lose the function's writes); other array-likes
are converted. It returns None or one new array: a returned memref that the
function allocated becomes the array's memory (no copy; freed with the
array), any other (an argument's buffer, a view of one, a global) is copied. A ``check`` failure inside raises ``IndexError``;
shapes that break a gather rule at run time raise ``ValueError``.
"""

from ._native import JitModule, Module

__all__ = ["Module", "JitModule"]
