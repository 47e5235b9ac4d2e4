// A gather fused as the consumer of a tiled producer of its ids (argmax,
// then the rows it selects): transform.gather.fuse_consumer_into_loop into
// upstream's scf.forall and scf.for (partial last tile: 6 rows by 4), then
// gather-to-llvm and stock mlir-runner; every schedule gives the values of
// the untiled module.
// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/consumer-fusion-schedules.mlir --transform-interpreter=entry-point=fuse_into_forall > %t.forall.mlir
// RUN: FileCheck %s --check-prefix=FORALL < %t.forall.mlir
// RUN: gather-opt %t.forall.mlir --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %t.forall.mlir --gather-to-llvm=parallel=true | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/consumer-fusion-schedules.mlir --transform-interpreter=entry-point=fuse_into_for > %t.for.mlir
// RUN: FileCheck %s --check-prefix=FOR < %t.for.mlir
// RUN: gather-opt %t.for.mlir --gather-to-llvm | %run_main | FileCheck %s
/// The same schedule in stock mlir-opt with GatherPlugin.so.
// RUN: %plugin_mlir_opt %s --load-pass-plugin=%gather_lib_dir/GatherPlugin.so --transform-preload-library=transform-library-paths=%S/Inputs/consumer-fusion-schedules.mlir --transform-interpreter=entry-point=fuse_into_forall | %plugin_mlir_opt --load-pass-plugin=%gather_lib_dir/GatherPlugin.so --pass-pipeline="builtin.module(gather-to-llvm)" | %run_main | FileCheck %s

// The argmax and the gather in one loop: the gather reads the loop's tile.
// FORALL: scf.forall {{.*}} shared_outs({{.*}}) -> (tensor<6xf32>, tensor<6xi64>, tensor<6x3xf32>)
// FORALL: %[[IDS:.*]]:2 = linalg.generic
// FORALL: gather.gather %{{.*}}[%[[IDS]]#1] {mode = #gather<mode wrap>} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
// FORALL: scf.forall.in_parallel
// FORALL-NOT: gather.gather
// FOR: scf.for {{.*}} -> (tensor<6xf32>, tensor<6xi64>, tensor<6x3xf32>)
// FOR: %[[IDS:.*]]:2 = linalg.generic
// FOR: gather.gather %{{.*}}[%[[IDS]]#1] {mode = #gather<mode wrap>} : (tensor<5x3xf32>, tensor<?xi64>) -> tensor<?x3xf32>
// FOR: tensor.insert_slice
// FOR: scf.yield
// FOR-NOT: gather.gather

func.func private @printMemrefF32(tensor<*xf32>)

/// The rows of `table` at each row's argmax of `scores` (wrap mode).
func.func @argmax_rows(%s: tensor<6x10xf32>, %table: tensor<5x3xf32>) -> tensor<6x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %z = arith.constant 0 : i64
  %e0 = tensor.empty() : tensor<6xf32>
  %e1 = tensor.empty() : tensor<6xi64>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<6xf32>) -> tensor<6xf32>
  %m1 = linalg.fill ins(%z : i64) outs(%e1 : tensor<6xi64>) -> tensor<6xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<6x10xf32>) outs(%m0, %m1 : tensor<6xf32>, tensor<6xi64>) {
  ^bb0(%x: f32, %best: f32, %idx: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %x, %best : f32
    %nb = arith.select %gt, %x, %best : f32
    %ni = arith.select %gt, %ji, %idx : i64
    linalg.yield %nb, %ni : f32, i64
  } -> (tensor<6xf32>, tensor<6xi64>)
  %g = gather.gather %table[%r#1] {mode = #gather<mode wrap>} : (tensor<5x3xf32>, tensor<6xi64>) -> tensor<6x3xf32>
  return %g : tensor<6x3xf32>
}

/// scores[i, j] = (7i + 3j) mod 10: row i's maximum, 9, is at j = 3 + i.
/// table[a, b] = 10a + b.
func.func @main() {
  %scores = tensor.generate {
  ^bb0(%i: index, %j: index):
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c10 = arith.constant 10 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c3 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c10 : index
    %w = arith.index_cast %m : index to i64
    %f = arith.sitofp %w : i64 to f32
    tensor.yield %f : f32
  } : tensor<6x10xf32>
  %table = tensor.generate {
  ^bb0(%a: index, %b: index):
    %c10 = arith.constant 10 : index
    %x = arith.muli %a, %c10 : index
    %v = arith.addi %x, %b : index
    %w = arith.index_cast %v : index to i64
    %f = arith.sitofp %w : i64 to f32
    tensor.yield %f : f32
  } : tensor<5x3xf32>
  %r = call @argmax_rows(%scores, %table) : (tensor<6x10xf32>, tensor<5x3xf32>) -> tensor<6x3xf32>
  %u = tensor.cast %r : tensor<6x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// Ids 3..8, wrapped into 5 rows: 3, 4, 0, 1, 2, 3.
// CHECK: [30,   31,   32],
// CHECK-NEXT: [40,   41,   42],
// CHECK-NEXT: [0,   1,   2],
// CHECK-NEXT: [10,   11,   12],
// CHECK-NEXT: [20,   21,   22],
// CHECK-NEXT: [30,   31,   32]]
