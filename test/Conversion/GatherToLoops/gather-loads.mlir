// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=vector" | FileCheck %s --check-prefix=VECTOR
// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=scalar" | FileCheck %s --check-prefix=SCALAR
// RUN: gather-opt %s --convert-gather-to-loops | FileCheck %s --check-prefix=VECTOR
// RUN: gather-opt %s --convert-gather-to-loops="target-cpu=znver4" | FileCheck %s --check-prefix=SCALAR
// RUN: gather-opt %s --convert-gather-to-loops="target-cpu=sapphirerapids" | FileCheck %s --check-prefix=VECTOR
// RUN: gather-opt %s --gather-to-llvm="target-cpu=znver5" --mlir-print-ir-after=convert-gather-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALAR

/// Rows along the last axis compute subscripts a vector at a time and read
/// data with vector gathers, or with one scalar load per lane where gathers
/// are slow. `auto` (the default) decides from `target-cpu`, never from the
/// machine that compiles: scalar loads on AMD Zen, vector gathers for other
/// CPUs and for a generic target.
// VECTOR-LABEL: func.func @last_axis
// VECTOR: vector.gather
/// Scalar loads read a row's vectors whose indices are all positions in it
/// with each index read as a scalar (scf.while), the rest (scf.for) with
/// subscripts computed as a vector.
// SCALAR-LABEL: func.func @last_axis
// SCALAR-NOT: vector.gather
// SCALAR: affine.for
// SCALAR:   scf.while
// SCALAR:     memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xi32>
// SCALAR:     memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32>
// SCALAR:     vector.insert
// SCALAR:     vector.store
// SCALAR:   scf.for
// SCALAR:     vector.load %{{.*}} : memref<?x?xi32>, vector<8xi32>
// SCALAR:     vector.extract
// SCALAR:     memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32>
// SCALAR:     vector.insert
// SCALAR:     vector.store
func.func @last_axis(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

/// In clamp mode a second loop takes over where the positions stop: it
/// reads every vector without a negative index, each index clamped above
/// with one unsigned min against the last position; a vector with a
/// negative index ends it.
// VECTOR-LABEL: func.func @last_axis_clamp
// VECTOR: vector.gather
// SCALAR-LABEL: func.func @last_axis_clamp
// SCALAR: %[[LAST:.*]] = arith.subi %{{.*}}, %{{.*}} : i64
// SCALAR: %[[POSITIONS:.*]]:2 = scf.while
// SCALAR:   arith.cmpi ult, %{{.*}}, %{{.*}} : vector<8xi64>
// SCALAR:   scf.yield %{{.*}}, %{{.*}} : index, i1
// SCALAR: %[[FIRST:.*]] = scf.if %{{.*}} -> (i1) {
// SCALAR:   %[[NOT_NEGATIVE:.*]] = arith.cmpi sge, %{{.*}}, %{{.*}} : vector<8xi64>
// SCALAR:   vector.reduction <and>, %[[NOT_NEGATIVE]]
// SCALAR: %[[CLAMPED:.*]]:2 = scf.while (%{{.*}} = %[[POSITIONS]]#0, %{{.*}} = %[[FIRST]])
// SCALAR: } do {
// SCALAR:   %[[I:.*]] = memref.load %{{.*}} : memref<?x?xi32>
// SCALAR:   %[[E:.*]] = arith.extsi %[[I]] : i32 to i64
// SCALAR:   %[[SUB:.*]] = arith.minui %[[E]], %[[LAST]] : i64
// SCALAR:   %[[AT:.*]] = arith.index_cast %[[SUB]]
// SCALAR:   memref.load %{{.*}}[%{{.*}}, %[[AT]]] : memref<?x?xf32>
// SCALAR: scf.for %{{.*}} = %[[CLAMPED]]#0 to
func.func @last_axis_clamp(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

/// In wrap mode, along a size that is a power of two (a test of the size
/// alone, which LLVM hoists out of the rows), the second loop takes every
/// index, as its low bits; along another size it takes none.
// VECTOR-LABEL: func.func @last_axis_wrap
// VECTOR: vector.gather
// SCALAR-LABEL: func.func @last_axis_wrap
// SCALAR: arith.maxsi %{{.*}}, %{{.*}} : i64
// SCALAR-NEXT: %[[LOW:.*]] = arith.subi
// SCALAR-NEXT: arith.andi %{{.*}}, %[[LOW]]
// SCALAR-NEXT: arith.constant 0 : i64
// SCALAR-NEXT: %[[POW2:.*]] = arith.cmpi eq
// SCALAR: %[[POSITIONS:.*]]:2 = scf.while
// SCALAR:   scf.yield %{{.*}}, %{{.*}} : index, i1
// SCALAR: %[[FIRST:.*]] = scf.if %{{.*}} -> (i1) {
// SCALAR:   %[[ALL:.*]] = vector.broadcast %[[POW2]] : i1 to vector<8xi1>
// SCALAR:   vector.reduction <and>, %[[ALL]]
// SCALAR: scf.while (%{{.*}} = %[[POSITIONS]]#0, %{{.*}} = %[[FIRST]])
// SCALAR: } do {
// SCALAR:   %[[I:.*]] = memref.load %{{.*}} : memref<?x?xi32>
// SCALAR:   %[[E:.*]] = arith.extsi %[[I]] : i32 to i64
// SCALAR:   %[[SUB:.*]] = arith.andi %[[E]], %[[LOW]] : i64
// SCALAR:   %[[AT:.*]] = arith.index_cast %[[SUB]]
// SCALAR:   memref.load %{{.*}}[%{{.*}}, %[[AT]]] : memref<?x?xf32>
func.func @last_axis_wrap(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
