// RUN: gather-opt %s --convert-scatter-to-scf="parallel=true" --canonicalize --cse | FileCheck %s

// The rows before the axis: threads own ranges of them (dest's dim 0).
// Rows too long for eight in a tile of 32 KiB of updates and dest rows go
// four at a time, each index read once for the four, then the rows left
// over one at a time; shorter rows go in tiles, each index read once a tile.
// CHECK-LABEL: func.func @rows
// CHECK: scf.forall
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0, 0]
// CHECK: %[[ROW_LO:.*]] = arith.minui
// CHECK: %[[ROW_HI:.*]] = arith.minui
// CHECK: %[[TILE_ROWS:.*]] = arith.divui %c16384
// CHECK: %[[FEW:.*]] = arith.cmpi ult, %[[TILE_ROWS]], %c8
// CHECK: scf.if %[[FEW]]
// CHECK: %[[GROUPS:.*]] = arith.divui %{{.*}}, %c4
// CHECK: %[[GROUPED:.*]] = arith.muli %[[GROUPS]], %c4
// CHECK: %[[REST:.*]] = arith.addi %[[ROW_LO]], %[[GROUPED]]
// CHECK: scf.for %[[G:.*]] = %c0 to %[[GROUPS]]
// CHECK: %[[G4:.*]] = arith.muli %[[G]], %c4
// CHECK: %[[FOUR_LO:.*]] = arith.addi %[[ROW_LO]], %[[G4]]
// CHECK: %[[FOUR_HI:.*]] = arith.addi %[[FOUR_LO]], %c4
// CHECK: scf.for %[[P:.*]] = %c0 to %dim
// CHECK: tensor.extract %arg1[%[[P]]]
// CHECK: scf.for %{{.*}} = %[[FOUR_LO]] to %[[FOUR_HI]] step
// CHECK: tensor.insert
// CHECK: scf.for %[[R:.*]] = %[[REST]] to %[[ROW_HI]] step
// CHECK: scf.for %[[P2:.*]] = %c0 to %dim
// CHECK: tensor.extract %arg1[%[[P2]]]
// CHECK: tensor.insert
// CHECK: } else {
// CHECK: %[[TILES:.*]] = arith.ceildivui
// CHECK: scf.for %{{.*}} = %c0 to %[[TILES]]
// CHECK: %[[POS:.*]] = scf.for %[[P3:.*]] = %c0 to %dim
// CHECK: tensor.extract %arg1[%[[P3]]]
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
