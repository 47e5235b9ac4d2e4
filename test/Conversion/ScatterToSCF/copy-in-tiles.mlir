// RUN: gather-opt %s --convert-scatter-to-scf --canonicalize --cse | FileCheck %s

// A scatter into a copy of its source (the Python package's form): where a
// tile holds a row at least, each tile's dest rows (or each group of four
// long rows', and the rows left over) are copied just before the updates
// combine into them, and the whole copy before the scatter is gone. Else
// (rows longer than a tile, a failed check, dims that differ) dest is
// copied whole first, as without the copy in tiles.
// CHECK-LABEL: func.func @into_copy
// CHECK-SAME: (%[[SRC:[^:]*]]: tensor<?x?x?xf32>, %[[INIT:[^:]*]]: tensor<?x?x?xf32>
// CHECK-NOT: linalg.copy
// CHECK: %[[TILE_ROWS:.*]] = arith.divui %c16384
// CHECK: %[[A_ROW:.*]] = arith.cmpi uge, %[[TILE_ROWS]], %c1
// CHECK: arith.andi %{{.*}}, %[[A_ROW]]
// CHECK: %[[ACC:.*]] = scf.if %[[IN_TILES:.*]] -> (tensor<?x?x?xf32>) {
// CHECK-NEXT: scf.yield %[[INIT]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[WHOLE:.*]] = linalg.copy ins(%[[SRC]] : tensor<?x?x?xf32>) outs(%[[INIT]] :
// CHECK-NEXT: scf.yield %[[WHOLE]]
// CHECK: %[[FEW:.*]] = arith.cmpi ult, %[[TILE_ROWS]], %c8
// CHECK: scf.if %[[FEW]]
// Rows too long for eight in a tile: four at a time, then the rest.
// CHECK: %[[GROUPS:.*]] = arith.divui %{{.*}}, %c4
// CHECK: iter_args(%{{.*}} = %[[ACC]])
// CHECK: scf.for %{{.*}} = %c0 to %[[GROUPS]] step
// CHECK: scf.if %[[IN_TILES]]
// CHECK-NEXT: %[[FOUR:.*]] = tensor.extract_slice %[[SRC]][%{{.*}}, %[[FOUR_LO:.*]], 0] [1, 4, %{{.*}}]
// CHECK-NEXT: %[[FOUR_INTO:.*]] = tensor.extract_slice %{{.*}}[%{{.*}}, %[[FOUR_LO]], 0] [1, 4, %{{.*}}]
// CHECK-NEXT: linalg.copy ins(%[[FOUR]] : {{.*}}) outs(%[[FOUR_INTO]] :
// CHECK-NEXT: tensor.insert_slice
// CHECK: scf.for
// CHECK: tensor.extract %arg2
// CHECK: tensor.insert
// CHECK: scf.if %[[IN_TILES]]
// CHECK: %[[REST:.*]] = tensor.extract_slice %[[SRC]][%{{.*}}, %[[REST_LO:.*]], 0]
// CHECK: linalg.copy ins(%[[REST]]
// CHECK: scf.for %{{.*}} = %[[REST_LO]] to
// CHECK: tensor.insert
// Shorter rows: a tile's rows copied, then its positions.
// CHECK: } else {
// CHECK: %[[TILES:.*]] = arith.ceildivui
// CHECK: scf.for %{{.*}} = %c0 to %[[TILES]]
// CHECK: scf.if %[[IN_TILES]]
// CHECK: %[[TILE:.*]] = tensor.extract_slice %[[SRC]][%{{.*}}, %[[TILE_LO:.*]], 0]
// CHECK: linalg.copy ins(%[[TILE]]
// CHECK: tensor.insert_slice
// CHECK: scf.for
// CHECK: tensor.extract %arg2
// CHECK: scf.for %{{.*}} = %[[TILE_LO]] to
// CHECK: tensor.insert
func.func @into_copy(%s: tensor<?x?x?xf32>, %e: tensor<?x?x?xf32>, %i: tensor<?xi64>, %u: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %d = linalg.copy ins(%s : tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %r = gather.scatter %d[%i], %u {axis = 2 : i64, reduction = #gather<combine add>} : (tensor<?x?x?xf32>, tensor<?xi64>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// Without tiles of dest's own rows (along axis 0; scatter_elements), and
// for f16 sums (which combine in an f32 copy), the copy stays whole.
// CHECK-LABEL: func.func @axis_zero
// CHECK: linalg.copy
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @axis_zero(%s: tensor<?x?xf32>, %e: tensor<?x?xf32>, %i: tensor<?xi64>, %u: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %d = linalg.copy ins(%s : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = gather.scatter %d[%i], %u {axis = 0 : i64, reduction = #gather<combine add>} : (tensor<?x?xf32>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @elements
// CHECK: linalg.copy
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @elements(%s: tensor<?x?xf32>, %e: tensor<?x?xf32>, %i: tensor<?x?xi64>, %u: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %d = linalg.copy ins(%s : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = gather.scatter_elements %d[%i], %u {axis = 1 : i64, reduction = #gather<combine add>} : (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @half_sums
// CHECK: linalg.copy
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @half_sums(%s: tensor<?x?xf16>, %e: tensor<?x?xf16>, %i: tensor<?xi64>, %u: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %d = linalg.copy ins(%s : tensor<?x?xf16>) outs(%e : tensor<?x?xf16>) -> tensor<?x?xf16>
  %r = gather.scatter %d[%i], %u {axis = 1 : i64, reduction = #gather<combine add>} : (tensor<?x?xf16>, tensor<?xi64>, tensor<?x?xf16>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// A copy that something else reads too stays whole.
// CHECK-LABEL: func.func @copy_read_twice
// CHECK: linalg.copy
// CHECK-NOT: linalg.copy
// CHECK: return
func.func @copy_read_twice(%s: tensor<?x?xf32>, %e: tensor<?x?xf32>, %i: tensor<?xi64>, %u: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %d = linalg.copy ins(%s : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = gather.scatter %d[%i], %u {axis = 1 : i64, reduction = #gather<combine add>} : (tensor<?x?xf32>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r, %d : tensor<?x?xf32>, tensor<?x?xf32>
}
