// RUN: gather-opt %s --convert-gather-to-loops | FileCheck %s --check-prefix=AUTO
// RUN: gather-opt %s --convert-gather-to-loops="target-cpu=sapphirerapids" | FileCheck %s --check-prefix=AUTO
// RUN: gather-opt %s --convert-gather-to-loops="gather-loads=vector" | FileCheck %s --check-prefix=VECTOR

/// Vector gathers of elements narrower than 4 bytes have no x86
/// instruction (LLVM splits them into a load and a branch a lane): `auto`
/// reads rows of 1- and 2-byte elements with one scalar load a lane, rows
/// of wider ones with vector gathers. An explicit `gather-loads` holds for
/// every width.
// AUTO-LABEL: func.func @bytes
// AUTO-NOT: vector.gather
// AUTO: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x6xi8>
// VECTOR-LABEL: func.func @bytes
// VECTOR: vector.gather {{.*}} : memref<?x6xi8>
func.func @bytes(%d: tensor<?x6xi8>, %i: tensor<?x6xi64>) -> tensor<?x6xi8> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x6xi8>, tensor<?x6xi64>) -> tensor<?x6xi8>
  return %r : tensor<?x6xi8>
}

// AUTO-LABEL: func.func @halves
// AUTO-NOT: vector.gather
// AUTO: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf16>
// VECTOR-LABEL: func.func @halves
// VECTOR: vector.gather {{.*}} : memref<?x?xf16>
func.func @halves(%d: tensor<?x?xf16>, %i: tensor<?x?xi32>) -> tensor<?x?xf16> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<?x?xf16>, tensor<?x?xi32>) -> tensor<?x?xf16>
  return %r : tensor<?x?xf16>
}

// AUTO-LABEL: func.func @floats
// AUTO: vector.gather {{.*}} : memref<?x?xf32>
// VECTOR-LABEL: func.func @floats
// VECTOR: vector.gather {{.*}} : memref<?x?xf32>
func.func @floats(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
