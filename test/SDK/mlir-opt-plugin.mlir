// GatherPlugin.so in stock mlir-opt: the dialect parses and prints, and the
// gather-to-llvm pipeline lowers a module that mlir-runner then runs.

// RUN: %plugin_mlir_opt %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %plugin_mlir_opt %s --load-pass-plugin=%gather_lib_dir/GatherPlugin.so --pass-pipeline="builtin.module(gather-to-llvm)" | %run_main | FileCheck %s

// ROUNDTRIP-LABEL: func.func @main
// ROUNDTRIP: gather.gather %{{.*}}[%{{.*}}] {mode = #gather<mode fill>} : (tensor<5xf32>, tensor<4xi32>) -> tensor<4xf32>
// ROUNDTRIP: gather.gather_elements %{{.*}}[%{{.*}}] {axis = 1 : i64, mode = #gather<mode wrap>}

func.func @main() {
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %i = arith.constant dense<[3, 10, -20, -1]> : tensor<4xi32>
  %r = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<5xf32>, tensor<4xi32>) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  // CHECK: [4,  0,  0,  5]
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()

  %e = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %j = arith.constant dense<[[2, 3], [-1, 7]]> : tensor<2x2xi64>
  %g = gather.gather_elements %e[%j] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %v = tensor.cast %g : tensor<2x2xf32> to tensor<*xf32>
  // CHECK: [3,   1]
  // CHECK-NEXT: [6,   5]
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
