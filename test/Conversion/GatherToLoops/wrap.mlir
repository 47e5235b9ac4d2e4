// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=vector" | FileCheck %s

/// wrap: indices in [-s, s) only need the normalization; the remainder runs
/// only for a vector (or scalar) with an index outside: a division by a
/// constant size (LLVM multiplies), a quotient from doubles for a size known
/// at run time and indices below 2^52 in magnitude, else a division. A size
/// known at run time that is a power of two takes the indices' low bits.

// CHECK-LABEL: func.func @wrap_vector_row
// CHECK: %[[N:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xi64>
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[N]], %{{.*}} : vector<8xi64>
// CHECK: %[[ALL:.*]] = vector.reduction <and>, %[[IN]] : vector<8xi1> into i1
// CHECK: scf.if %[[ALL]] -> (vector<8xi64>) {
// CHECK-NEXT: scf.yield %[[N]]
// CHECK: } else {
// CHECK-NOT: arith.sitofp
// CHECK: arith.remsi %{{.*}} : vector<8xi64>
// CHECK: vector.gather
func.func @wrap_vector_row(%d: tensor<4x64xf32>, %i: tensor<4x64xi64>) -> tensor<4x64xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<4x64xf32>, tensor<4x64xi64>) -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// CHECK-LABEL: func.func @wrap_scalar
// CHECK: %[[N:.*]] = arith.select %{{.*}} : i64
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[N]], %{{.*}} : i64
// CHECK: scf.if %[[IN]] -> (i64) {
// CHECK: arith.remsi %{{.*}} : i64
func.func @wrap_scalar(%d: tensor<5x3xi8>, %i: tensor<2xi64>) -> tensor<2x3xi8> {
  %r = gather.gather %d[%i] {mode = #gather<mode wrap>} : (tensor<5x3xi8>, tensor<2xi64>) -> tensor<2x3xi8>
  return %r : tensor<2x3xi8>
}

// CHECK-LABEL: func.func @wrap_dynamic_size
// CHECK: %[[S:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[IDS:.*]] = vector.load
// CHECK: %[[N:.*]] = arith.select %{{.*}} : vector<8xi1>, vector<8xi64>
// CHECK: %[[POS:.*]] = arith.maxsi %[[S]], %[[ONE:.*]] : i64
// CHECK: %[[MASK:.*]] = arith.subi %[[POS]], %[[ONE]] : i64
// CHECK: %[[BITS:.*]] = arith.andi %[[S]], %[[MASK]] : i64
// CHECK: %[[POW2:.*]] = arith.cmpi eq, %[[BITS]], %{{.*}} : i64
// CHECK: scf.if %[[POW2]] -> (vector<8xi64>) {
// CHECK-NEXT: %[[MASKS:.*]] = vector.broadcast %[[MASK]] : i64 to vector<8xi64>
// CHECK-NEXT: %[[LOW:.*]] = arith.andi %[[IDS]], %[[MASKS]] : vector<8xi64>
// CHECK-NEXT: scf.yield %[[LOW]]
// CHECK: } else {
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[N]], %{{.*}} : vector<8xi64>
// CHECK: %[[ALL:.*]] = vector.reduction <and>, %[[IN]] : vector<8xi1> into i1
// CHECK: scf.if %[[ALL]] -> (vector<8xi64>) {
// CHECK-NEXT: scf.yield %[[N]]
// CHECK: } else {
// CHECK: %[[SMALL:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : vector<8xi64>
// CHECK: %[[ALLSMALL:.*]] = vector.reduction <and>, %[[SMALL]]
// CHECK: scf.if %[[ALLSMALL]] -> (vector<8xi64>) {
// CHECK: %[[D:.*]] = arith.sitofp %{{.*}} : vector<8xi64> to vector<8xf64>
// CHECK: %[[R:.*]] = arith.divf %{{.*}}, %[[D]] : vector<8xf64>
// CHECK: %[[X:.*]] = arith.sitofp %{{.*}} : vector<8xi64> to vector<8xf64>
// CHECK: %[[Q:.*]] = arith.mulf %[[X]], %[[R]] : vector<8xf64>
// CHECK: arith.fptosi %[[Q]] : vector<8xf64> to vector<8xi64>
// CHECK: } else {
// CHECK: arith.remsi %{{.*}} : vector<8xi64>
// CHECK: vector.gather
func.func @wrap_dynamic_size(%d: tensor<4x?xf32>, %i: tensor<4x64xi64>) -> tensor<4x64xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<4x?xf32>, tensor<4x64xi64>) -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
