// Fixed-length embedding bags fused as the consumer of a tiled producer of
// their [bags, n] ids: transform.gather.fuse_consumer_into_loop into
// upstream's scf.forall and scf.for (partial last tile: 6 bags by 4), then
// gather-to-llvm and stock mlir-runner; every schedule gives the values of
// the untiled module.
// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/consumer-fusion-bags-schedules.mlir --transform-interpreter=entry-point=fuse_into_forall > %t.forall.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t.forall.mlir
// RUN: gather-opt %t.forall.mlir --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %t.forall.mlir --gather-to-llvm=parallel=true | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --transform-preload-library=transform-library-paths=%S/Inputs/consumer-fusion-bags-schedules.mlir --transform-interpreter=entry-point=fuse_into_for > %t.for.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t.for.mlir
// RUN: gather-opt %t.for.mlir --gather-to-llvm | %run_main | FileCheck %s

/// The ids and the bags in one loop: the bags read the loop's tile.
// FUSED: scf.for
// FUSED: linalg.generic
// FUSED: gather.embedding_bag {{.*}} : (tensor<5x3xf32>, tensor<{{2|\?}}x2xi64>, tensor<{{2|\?}}x2xf32>) -> tensor<{{2|\?}}x3xf32>
// FUSED-NOT: gather.embedding_bag

func.func private @printMemrefF32(tensor<*xf32>)

/// Bags of the rows x + 1 (wrapped into the table), each row times its
/// weight.
func.func @bags(%x: tensor<6x2xi64>, %t: tensor<5x3xf32>, %w: tensor<6x2xf32>) -> tensor<6x3xf32> {
  %e = tensor.empty() : tensor<6x2xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x2xi64>) outs(%e : tensor<6x2xi64>) {
  ^bb0(%a: i64, %o: i64):
    %c1 = arith.constant 1 : i64
    %b = arith.addi %a, %c1 : i64
    linalg.yield %b : i64
  } -> tensor<6x2xi64>
  %r = gather.embedding_bag %t[%ids] per_sample_weights(%w) {reduction = #gather<reduction sum>, mode = #gather<mode wrap>} : (tensor<5x3xf32>, tensor<6x2xi64>, tensor<6x2xf32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

/// table[a, b] = 10a + b. Ids x + 1: [1, 2], [3, 4], [5 = 0, 1], [2, 2],
/// [1, 5 = 0], [4, 3].
func.func @main() {
  %table = tensor.generate {
  ^bb0(%a: index, %b: index):
    %c10 = arith.constant 10 : index
    %m = arith.muli %a, %c10 : index
    %v = arith.addi %m, %b : index
    %i = arith.index_cast %v : index to i64
    %f = arith.sitofp %i : i64 to f32
    tensor.yield %f : f32
  } : tensor<5x3xf32>
  %x = arith.constant dense<[[0, 1], [2, 3], [4, 0], [1, 1], [0, 4], [3, 2]]> : tensor<6x2xi64>
  %w = arith.constant dense<[[1.0, 2.0], [1.0, 1.0], [0.5, 2.0], [1.0, 1.0], [1.0, 1.0], [1.0, -1.0]]> : tensor<6x2xf32>
  %r = call @bags(%x, %table, %w) : (tensor<6x2xi64>, tensor<5x3xf32>, tensor<6x2xf32>) -> tensor<6x3xf32>
  %u = tensor.cast %r : tensor<6x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// CHECK: [50,   53,   56],
// CHECK-NEXT: [70,   72,   74],
// CHECK-NEXT: [20,   22.5,   25],
// CHECK-NEXT: [40,   42,   44],
// CHECK-NEXT: [10,   12,   14],
// CHECK-NEXT: [10,   10,   10]]
