// RUN: gather-opt %s --gather-to-llvm | FileCheck %s --check-prefix=MLIR
// RUN: gather-opt %s --gather-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// RUN: gather-opt %s --gather-to-llvm="c-interface=false" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=NOCIFACE
// RUN: gather-opt %s --gather-to-llvm="parallel=true" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=OMP
// RUN: gather-opt %s --gather-to-llvm="default-error-handlers=false" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=NOHANDLERS

// gather-to-llvm leaves only the LLVM dialect, which mlir-translate turns
// into LLVM IR with the C interface of each public function.

// MLIR-NOT: {{ }}gather.
// MLIR-NOT: func.func
// MLIR-NOT: memref.
// MLIR-NOT: affine.
// MLIR-NOT: vector.
// MLIR: llvm.func @rows(

/// The error hook is defined weakly in the module (print, exit 1), so the
/// code needs no library of ours; a host's strong definition wins.
// LLVM: define weak void @gather_mlir_index_error(i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, i64 %{{.*}})
// LLVM: call i32 (i32, ptr, ...) @dprintf(i32 2,
// LLVM: call void @exit(i32 1)
// LLVM: define { ptr, ptr, i64, [2 x i64], [2 x i64] } @rows(
// LLVM: call void @gather_mlir_index_error(
// LLVM: load <8 x float>
// LLVM: store <8 x float>
// LLVM: define void @_mlir_ciface_rows(ptr {{.*}}, ptr {{.*}}, ptr {{.*}})

// NOCIFACE-NOT: _mlir_ciface_

/// default-error-handlers=false leaves the hook to the host.
// NOHANDLERS: declare void @gather_mlir_index_error(i64, i64, i64, i64)
// NOHANDLERS-NOT: @dprintf

/// parallel=true forks the gather loop onto OpenMP threads.
// OMP: call void {{.*}}@__kmpc_fork_call
func.func @rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
