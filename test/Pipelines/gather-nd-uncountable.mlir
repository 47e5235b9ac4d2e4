// RUN: not gather-opt %s --convert-gather-to-loops 2>&1 | FileCheck %s
// RUN: not gather-opt %s --convert-gather-to-loops="parallel=true" 2>&1 | FileCheck %s
// RUN: not gather-opt %s --gather-to-llvm 2>&1 | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg -o /dev/null
// RUN: gather-opt %s --canonicalize -o /dev/null

// gather_nd indices whose static sizes count past int64 (2^62 tuples of 2;
// a gather-fuzz finding of the CI's fuzz smoke run): the check of the
// indices walks each row of tuples as one collapsed dim, which
// memref.collapse_shape cannot type, and convert-gather-to-loops produced
// IR that did not verify. The affine lowering now says why; the linalg
// path, which collapses nothing, lowers it.
// CHECK: error: convert-gather-to-loops: gather_nd indices whose static sizes count past int64
func.func @gather_nd_from_ids_tile(%d: tensor<5x6x7xf32>, %i: tensor<4611686018427387904x2xi32>) -> tensor<4611686018427387904x7xf32> {
  %r = gather.gather_nd %d[%i] : (tensor<5x6x7xf32>, tensor<4611686018427387904x2xi32>) -> tensor<4611686018427387904x7xf32>
  return %r : tensor<4611686018427387904x7xf32>
}
