// Embedding bags whose offsets give no bag (include_last_offset with one
// offset, or none) tiled by upstream's transforms, then lowered by
// gather-to-llvm and run: the tiled module keeps every offsets rule of the
// untiled one, and gives its result (no bag) when they hold.
// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: %run_main %t.mlir | FileCheck %s
// RUN: not %mlir_run -e no_offset %t.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not %mlir_run -e first_offset_not_0 %t.mlir 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_for --gather-to-llvm > %t.for.mlir
// RUN: %run_main %t.for.mlir | FileCheck %s
// RUN: not %mlir_run -e no_offset %t.for.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not %mlir_run -e first_offset_not_0 %t.for.mlir 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_dim_forall --gather-to-llvm > %t.forall.mlir
// RUN: %run_main %t.forall.mlir | FileCheck %s
// RUN: not %mlir_run -e no_offset %t.forall.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not %mlir_run -e first_offset_not_0 %t.forall.mlir 2>&1 | FileCheck %s --check-prefix=FIRST
/// num_threads tiles: every one of the four is empty.
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/bag-tiling-schedules.mlir --transform-interpreter=entry-point=bags_num_threads --gather-to-llvm > %t.threads.mlir
// RUN: %run_main %t.threads.mlir | FileCheck %s
// RUN: not %mlir_run -e no_offset %t.threads.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not %mlir_run -e first_offset_not_0 %t.threads.mlir 2>&1 | FileCheck %s --check-prefix=FIRST

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @bags(%i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?xf32> {
  %tc = arith.constant dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]> : tensor<2x3xf32>
  %t = tensor.cast %tc : tensor<2x3xf32> to tensor<?x3xf32>
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, include_last_offset} : (tensor<?x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @run(%ic: tensor<2xi64>, %oc: tensor<?xi64>) {
  %i = tensor.cast %ic : tensor<2xi64> to tensor<?xi64>
  %r = call @bags(%i, %oc) : (tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// One offset, 0: no bag, and the ids (in no bag, 7 among them) unread.
// CHECK: rank = 2 offset = 0 sizes = [0, 3]
func.func @main() {
  %ic = arith.constant dense<[1, 7]> : tensor<2xi64>
  %oc = arith.constant dense<[0]> : tensor<1xi64>
  %o = tensor.cast %oc : tensor<1xi64> to tensor<?xi64>
  call @run(%ic, %o) : (tensor<2xi64>, tensor<?xi64>) -> ()
  return
}

// COUNT: error: gather.embedding_bag: include_last_offset needs at least one offset, but offsets has 0 entries
// COUNT-NOT: Memref
func.func @no_offset() {
  %ic = arith.constant dense<[1, 0]> : tensor<2xi64>
  %oc = tensor.empty() : tensor<0xi64>
  %o = tensor.cast %oc : tensor<0xi64> to tensor<?xi64>
  call @run(%ic, %o) : (tensor<2xi64>, tensor<?xi64>) -> ()
  return
}

// FIRST: error: gather.embedding_bag: offsets[0] is 1, but the first bag must start at 0
// FIRST-NOT: Memref
func.func @first_offset_not_0() {
  %ic = arith.constant dense<[1, 0]> : tensor<2xi64>
  %oc = arith.constant dense<[1]> : tensor<1xi64>
  %o = tensor.cast %oc : tensor<1xi64> to tensor<?xi64>
  call @run(%ic, %o) : (tensor<2xi64>, tensor<?xi64>) -> ()
  return
}
