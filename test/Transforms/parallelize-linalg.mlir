// RUN: gather-opt %s --pass-pipeline="builtin.module(func.func(gather-parallelize-linalg{parallel-min-bytes=4096}))" --split-input-file | FileCheck %s

/// A static op writing 4 MiB: its outer loop is an scf.parallel, the inner
/// one stays a serial scf.for.
// CHECK-LABEL: func.func @large
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK-NEXT: scf.for
// CHECK: arith.mulf
// CHECK: memref.store
// CHECK: scf.reduce
// CHECK-NOT: linalg.generic
func.func @large(%a: memref<1024x1024xf32>, %b: memref<1024xf32>, %o: memref<1024x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : memref<1024x1024xf32>, memref<1024xf32>) outs(%o : memref<1024x1024xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  }
  return
}

// -----

/// A static size whose bytes overflow int64 counts as large (the fuzzer's
/// reproducer: the byte count overflowed).
// CHECK-LABEL: func.func @huge
// CHECK: scf.parallel
// CHECK-NOT: linalg.copy
func.func @huge(%a: memref<9223372036854775807x4xf32>, %o: memref<9223372036854775807x4xf32>) {
  linalg.copy ins(%a : memref<9223372036854775807x4xf32>) outs(%o : memref<9223372036854775807x4xf32>)
  return
}

// -----

/// Below the threshold, a reduction outermost, an op inside a loop, a
/// body with effects and an outer loop that does not index the init
/// (whose iterations would write the same elements) stay linalg ops.
// CHECK-LABEL: func.func @serial
// CHECK-NOT: scf.parallel
// CHECK: linalg.copy
// CHECK: linalg.generic
// CHECK: scf.for
// CHECK-NEXT: linalg.copy
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK-NOT: scf.parallel
func.func private @effect(f32) -> f32
func.func @serial(%small: memref<16x16xf32>, %s: memref<16x16xf32>, %a: memref<1024x1024xf32>, %r: memref<1024xf32>, %o: memref<1024x1024xf32>, %n: index) {
  linalg.copy ins(%small : memref<16x16xf32>) outs(%s : memref<16x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>], iterator_types = ["reduction", "parallel"]} ins(%a : memref<1024x1024xf32>) outs(%r : memref<1024xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.addf %x, %acc : f32
    linalg.yield %m : f32
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    linalg.copy ins(%a : memref<1024x1024xf32>) outs(%o : memref<1024x1024xf32>)
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<1024x1024xf32>) outs(%o : memref<1024x1024xf32>) {
  ^bb0(%x: f32, %z: f32):
    %m = func.call @effect(%x) : (f32) -> f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<1024x1024xf32>) outs(%r : memref<1024xf32>) {
  ^bb0(%x: f32, %z: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

/// A size known at run time: the op's bytes against the threshold choose
/// the parallel loops or the op.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%{{.*}}: memref<?x?xf32>, %[[O:.*]]: memref<?x?xf32>)
// CHECK: %[[D0:.*]] = memref.dim %[[O]], %c0
// CHECK: %[[D1:.*]] = memref.dim %[[O]], %c1
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[B0:.*]] = arith.muli %[[C4]], %[[D0]]
// CHECK: %[[BYTES:.*]] = arith.muli %[[B0]], %[[D1]]
// CHECK: %[[MIN:.*]] = arith.constant 4096 : index
// CHECK: %[[LARGE:.*]] = arith.cmpi sge, %[[BYTES]], %[[MIN]]
// CHECK: scf.if %[[LARGE]] {
// CHECK: scf.parallel
// CHECK: } else {
// CHECK-NEXT: linalg.copy
func.func @dynamic(%a: memref<?x?xf32>, %o: memref<?x?xf32>) {
  linalg.copy ins(%a : memref<?x?xf32>) outs(%o : memref<?x?xf32>)
  return
}
