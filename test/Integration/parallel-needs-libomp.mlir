// RUN: gather-opt %s --gather-to-llvm="parallel=true" > %t.mlir
// RUN: %run_main_omp %t.mlir | FileCheck %s
// RUN: not %run_main %t.mlir 2>&1 | FileCheck %s --check-prefix=NO-OMP
// RUN: grep -q omp.parallel %t.mlir

/// Code lowered with parallel=true calls libomp wherever a loop may run on
/// threads: a gather of dynamic shape does, however few rows it gathers at
/// run time, so mlir-runner needs libomp.so besides its two libraries
/// (README, docs/Pipeline.md and docs/SDK.md say so).

// NO-OMP: Symbols not found: [ {{.*}}__kmpc_
// CHECK: [4,   5],
// CHECK-NEXT: [0,   1],
// CHECK-NEXT: [2,   3]]

func.func @rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %d = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]> : tensor<3x2xf32>
  %i = arith.constant dense<[2, 0, -2]> : tensor<3xi64>
  %dd = tensor.cast %d : tensor<3x2xf32> to tensor<?x?xf32>
  %id = tensor.cast %i : tensor<3xi64> to tensor<?xi64>
  %r = call @rows(%dd, %id) : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)
