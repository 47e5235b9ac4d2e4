// Fixed-length bags of no id ([bags, 0] ids, the bag count static or
// dynamic), with and without per_sample_weights, through every lowering
// and tiled: each bag is zeros.
// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_for --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_dim_forall --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_num_threads --gather-to-llvm | %run_main | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @table() -> tensor<?x3xf32> {
  %t = arith.constant dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]> : tensor<2x3xf32>
  %d = tensor.cast %t : tensor<2x3xf32> to tensor<?x3xf32>
  return %d : tensor<?x3xf32>
}

func.func @mean_dynamic_bags(%t: tensor<?x3xf32>, %i: tensor<?x0xi64>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] : (tensor<?x3xf32>, tensor<?x0xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @max_static_bags(%t: tensor<?x3xf32>, %i: tensor<2x0xi64>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] {reduction = #gather<reduction max>, mode = #gather<mode clamp>} : (tensor<?x3xf32>, tensor<2x0xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @sum_weighted(%t: tensor<?x3xf32>, %i: tensor<?x0xi64>, %w: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<?x3xf32>, tensor<?x0xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %t = call @table() : () -> tensor<?x3xf32>
  %ic = tensor.empty() : tensor<3x0xi64>
  %i = tensor.cast %ic : tensor<3x0xi64> to tensor<?x0xi64>

  // CHECK: {{\[}}[0,   0,   0],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [0,   0,   0]]
  %r0 = call @mean_dynamic_bags(%t, %i) : (tensor<?x3xf32>, tensor<?x0xi64>) -> tensor<?x?xf32>
  call @print(%r0) : (tensor<?x?xf32>) -> ()

  // CHECK: {{\[}}[0,   0,   0],
  // CHECK-NEXT: [0,   0,   0]]
  %i2 = tensor.empty() : tensor<2x0xi64>
  %r1 = call @max_static_bags(%t, %i2) : (tensor<?x3xf32>, tensor<2x0xi64>) -> tensor<?x?xf32>
  call @print(%r1) : (tensor<?x?xf32>) -> ()

  // CHECK: {{\[}}[0,   0,   0],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [0,   0,   0]]
  %wc = tensor.empty() : tensor<3x0xf32>
  %w = tensor.cast %wc : tensor<3x0xf32> to tensor<?x?xf32>
  %r2 = call @sum_weighted(%t, %i, %w) : (tensor<?x3xf32>, tensor<?x0xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  call @print(%r2) : (tensor<?x?xf32>) -> ()
  return
}
