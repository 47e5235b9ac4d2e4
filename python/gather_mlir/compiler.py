"""The lower-level API of gather_mlir, for compiler users.

    >>> from gather_mlir.compiler import Module, JitModule
    >>> m = Module(open("kernel.mlir").read())   # parse + verify (ValueError)
    >>> print(m.run("canonicalize"))             # any pass pipeline, in place
    >>> jit = JitModule(m)                       # gather-to-llvm, then JIT
    >>> result = jit.call("f", a, b)             # numpy arrays in and out

Modules share one MLIRContext with every upstream dialect and the gather
dialect registered. ``JitModule`` lowers with ``pipeline`` (default
``gather-to-llvm``; pass ``""`` for a module already in the LLVM dialect),
gives public functions a C interface and compiles them with MLIR's
ExecutionEngine. A function's tensor or memref arguments take numpy arrays of
the matching dtype and rank; it returns None or one new array. A ``check``
failure inside raises ``IndexError``.
"""

from ._native import JitModule, Module

__all__ = ["Module", "JitModule"]
