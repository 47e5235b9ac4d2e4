# Type stubs of gather_mlir.compiler: the native Module and JitModule.
from ._native import JitModule as JitModule, Module as Module

__all__: list[str]
