// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o /dev/null
// RUN: %run_main %t.mlir | FileCheck %s

/// gather-to-llvm lowers every verifier-valid mix of gathers and upstream
/// ops: functions that return an argument, a constant or a view (the clones
/// the deallocation pipeline inserts), and gathers carried by scf.for.

func.func private @printMemrefF32(tensor<*xf32> {bufferization.access = "read"})

func.func @ret_arg(%a: tensor<3xf32>) -> tensor<3xf32> {
  return %a : tensor<3xf32>
}

func.func @ret_const() -> tensor<2xf32> {
  %c = arith.constant dense<[7.0, 8.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

func.func @ret_view(%d: tensor<4x3xf32>) -> tensor<2x3xf32> {
  %s = tensor.extract_slice %d[1, 0] [2, 3] [1, 1] : tensor<4x3xf32> to tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

/// Rotates the vector n times: each iteration gathers from the last.
func.func @rotate(%d: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i = arith.constant dense<[1, 2, 3, 0]> : tensor<4xi64>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %d) -> tensor<4xf32> {
    %g = gather.gather %acc[%i] : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK: [1,  2,  3]
// CHECK: [7,  8]
// CHECK: {{\[\[}}3,   4,   5],
// CHECK-NEXT: [6,   7,   8]]
// CHECK: [2,  3,  0,  1]
func.func @main() {
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r0 = call @ret_arg(%a) : (tensor<3xf32>) -> tensor<3xf32>
  %u0 = tensor.cast %r0 : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %r1 = call @ret_const() : () -> tensor<2xf32>
  %u1 = tensor.cast %r1 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %d = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>
  %r2 = call @ret_view(%d) : (tensor<4x3xf32>) -> tensor<2x3xf32>
  %u2 = tensor.cast %r2 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %v = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %c2 = arith.constant 2 : index
  %r3 = call @rotate(%v, %c2) : (tensor<4xf32>, index) -> tensor<4xf32>
  %u3 = tensor.cast %r3 : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  return
}
