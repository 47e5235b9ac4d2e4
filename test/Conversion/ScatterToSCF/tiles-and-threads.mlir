// RUN: gather-opt %s --convert-scatter-to-scf="parallel=true" --canonicalize --cse | FileCheck %s

// The rows before the axis: threads own ranges of them (dest's dim 0),
// walked in tiles; in a tile each index is read once for all its rows.
// CHECK-LABEL: func.func @rows
// CHECK: scf.forall
// CHECK: tensor.extract_slice %{{.*}}[%[[LO:.*]], 0, 0]
// CHECK: %[[TILES:.*]] = arith.ceildivui
// CHECK: scf.for %{{.*}} = %c0 to %[[TILES]]
// CHECK: %[[POS:.*]] = scf.for %[[P:.*]] = %c0 to %dim
// CHECK: tensor.extract %arg1[%[[P]]]
// CHECK: scf.for %{{.*}} = %[[TILE_LO:.*]] to %[[TILE_HI:.*]] step
// CHECK: scf.for
// CHECK: tensor.insert
// CHECK: tensor.parallel_insert_slice
func.func @rows(%d: tensor<?x?x?xf32>, %i: tensor<?xi64>, %u: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = gather.scatter %d[%i], %u {axis = 1 : i64, mode = #gather<mode clamp>, reduction = #gather<combine add>} : (tensor<?x?x?xf32>, tensor<?xi64>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// Along axis 0, threads own ranges of the columns (dest's dim 1).
// CHECK-LABEL: func.func @columns
// CHECK: scf.forall
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}]
// CHECK: tensor.parallel_insert_slice %{{.*}}[0, %{{.*}}]
func.func @columns(%d: tensor<?x?xf32>, %i: tensor<?xi64>, %u: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = gather.scatter %d[%i], %u {axis = 0 : i64, mode = #gather<mode clamp>, reduction = #gather<combine add>} : (tensor<?x?xf32>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A 1-D dest has no dim a loop walks: one thread, no forall.
// CHECK-LABEL: func.func @flat
// CHECK-NOT: scf.forall
// CHECK: return
func.func @flat(%d: tensor<?xf32>, %i: tensor<?xi64>, %u: tensor<?xf32>) -> tensor<?xf32> {
  %r = gather.scatter_elements %d[%i], %u {axis = 0 : i64, mode = #gather<mode clamp>, reduction = #gather<combine add>} : (tensor<?xf32>, tensor<?xi64>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
