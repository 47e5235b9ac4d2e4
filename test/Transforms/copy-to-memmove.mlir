// RUN: gather-opt %s --pass-pipeline="builtin.module(func.func(gather-copy-to-memmove))" --split-input-file | FileCheck %s

/// Contiguous rank-1 buffers at any offset: the aligned pointers plus the
/// offsets times 4 bytes, and the size in bytes.
// CHECK-LABEL: func.func @strided_offsets
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[SB:.*]], %[[SO:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %arg0
// CHECK-DAG: %[[SA:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK-DAG: %[[SOB:.*]] = arith.muli %[[SO]], %[[C4]] : index
// CHECK-DAG: %[[SX:.*]] = arith.addi %[[SA]], %[[SOB]] : index
// CHECK-DAG: %[[SI:.*]] = arith.index_cast %[[SX]] : index to i64
// CHECK-DAG: %[[SP:.*]] = llvm.inttoptr %[[SI]] : i64 to !llvm.ptr
// CHECK-DAG: %[[DP:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK-DAG: %[[N:.*]] = memref.dim %arg0, %{{.*}}
// CHECK-DAG: %[[B:.*]] = arith.muli %[[C4]], %[[N]] : index
// CHECK-DAG: %[[BI:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK: "llvm.intr.memmove"(%[[DP]], %[[SP]], %[[BI]]) <{isVolatile = false}>
// CHECK-NOT: linalg.copy
func.func @strided_offsets(%s: memref<?xf32, strided<[1], offset: ?>>, %d: memref<?xf32, strided<[1], offset: 3>>) {
  linalg.copy ins(%s : memref<?xf32, strided<[1], offset: ?>>) outs(%d : memref<?xf32, strided<[1], offset: 3>>)
  return
}

// -----

/// Identity layouts of any rank, in an scf.if (which is not a loop): the
/// product of the dims times 2 bytes.
// CHECK-LABEL: func.func @in_if
// CHECK: scf.if
// CHECK-DAG: arith.constant 2 : index
// CHECK-DAG: memref.dim %arg1, %c0
// CHECK-DAG: memref.dim %arg1, %c1
// CHECK: "llvm.intr.memmove"
// CHECK-NOT: linalg.copy
func.func @in_if(%c: i1, %s: memref<?x7xf16>, %d: memref<?x7xf16>) {
  scf.if %c {
    linalg.copy ins(%s : memref<?x7xf16>) outs(%d : memref<?x7xf16>)
  }
  return
}

// -----

/// Kept: a strided dim, a strided rank-2 layout, i1 (not whole bytes), a
/// copy in a loop, and tensors.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: llvm.intr.memmove
// CHECK-COUNT-5: linalg.copy
// CHECK-NOT: llvm.intr.memmove
func.func @kept(%a: memref<?xf32, strided<[2]>>, %b: memref<?xf32>,
                %c: memref<4x4xf32, strided<[8, 1]>>, %d: memref<4x4xf32>,
                %e: memref<8xi1>, %f: memref<8xi1>, %h: memref<8xf32>,
                %t: tensor<8xf32>, %u: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  linalg.copy ins(%a : memref<?xf32, strided<[2]>>) outs(%b : memref<?xf32>)
  linalg.copy ins(%c : memref<4x4xf32, strided<[8, 1]>>) outs(%d : memref<4x4xf32>)
  linalg.copy ins(%e : memref<8xi1>) outs(%f : memref<8xi1>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    linalg.copy ins(%h : memref<8xf32>) outs(%h : memref<8xf32>)
  }
  %r = linalg.copy ins(%t : tensor<8xf32>) outs(%u : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
