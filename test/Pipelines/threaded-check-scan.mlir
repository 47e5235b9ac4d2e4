// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" > %t.mlir
// RUN: not %mlir_run_omp -e bad_in_branch %t.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %mlir_run_omp -e good_in_branch %t.mlir 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0 validate-rows=true" | FileCheck %s

// check mode's scan of the indices on threads (parallel-min-bytes=0 puts
// every size there): edge cases of its slabs, each a gather-fuzz finding.

/// A gather-fuzz finding: check mode's scan of the indices on threads
/// (parallel-min-bytes=0 puts any size on threads) made, for the report, a
/// subview of the first slab with a bad index even when a static dim of the
/// indices is 0, which the subview verifier rejects (offset 0 of a dim of
/// size 0). With no index at all there is nothing to scan, on threads or
/// not, and no slab to view.
// CHECK-LABEL: llvm.func @no_index_row
// CHECK-NOT: omp.parallel
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @no_index_rows
// CHECK-LABEL: llvm.func @elements_no_index_row
func.func @no_index_row(%d: tensor<0x4294967296xi2>) -> tensor<1x0x4294967296xi2> {
  %i = arith.constant dense<9> : tensor<1x0xi32>
  %r = gather.gather %d[%i] : (tensor<0x4294967296xi2>, tensor<1x0xi32>) -> tensor<1x0x4294967296xi2>
  return %r : tensor<1x0x4294967296xi2>
}
func.func @no_index_rows(%d: tensor<*xf32>, %i: tensor<0x0xi32>) -> tensor<?x?x?xf32> {
  %r = gather.gather %d[%i] : (tensor<*xf32>, tensor<0x0xi32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
func.func @elements_no_index_row(%d: tensor<3x?xf32>, %i: tensor<2x0xi64>) -> tensor<2x0xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<3x?xf32>, tensor<2x0xi64>) -> tensor<2x0xf32>
  return %r : tensor<2x0xf32>
}

/// check mode's threaded scan gives each slab of indices a flag in an alloca
/// scope. With one slab the threaded loop folds away and its body lands in
/// what holds the gather: an scf.if, or a case of the unranked dispatch's
/// scf.index_switch. Lowering the scope splits the block around it, which
/// made those regions invalid (a finding of gather-fuzz); the scope now sits
/// in a region of its own.
// CHECK-LABEL: llvm.func @in_branch
// CHECK-LABEL: llvm.func @unranked
func.func @in_branch(%c: i1, %d: tensor<?x?xf32>, %i: tensor<1x4xi64>, %e: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %r = scf.if %c -> (tensor<1x4xf32>) {
    %g = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<1x4xi64>) -> tensor<1x4xf32>
    scf.yield %g : tensor<1x4xf32>
  } else {
    scf.yield %e : tensor<1x4xf32>
  }
  return %r : tensor<1x4xf32>
}

func.func @unranked(%d: tensor<*xf32>, %i: tensor<1x1xi32>) -> tensor<?x?x?xf32> {
  %r = gather.gather %d[%i] : (tensor<*xf32>, tensor<1x1xi32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @run(%k: tensor<1x4xi64>) {
  %t = arith.constant true
  %d = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %dd = tensor.cast %d : tensor<2x3xf32> to tensor<?x?xf32>
  %e = arith.constant dense<-1.0> : tensor<1x4xf32>
  %r = call @in_branch(%t, %dd, %k, %e) : (i1, tensor<?x?xf32>, tensor<1x4xi64>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %u = tensor.cast %r : tensor<1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// BAD: error: gather.gather_elements: index 5 is out of range [-3, 2] for data dimension 1 of size 3
// BAD-NOT: Memref
func.func @bad_in_branch() {
  %k = arith.constant dense<[[0, 2, 5, 1]]> : tensor<1x4xi64>
  call @run(%k) : (tensor<1x4xi64>) -> ()
  return
}

// GOOD: [0,   2,   2,   1]
func.func @good_in_branch() {
  %k = arith.constant dense<[[0, 2, -1, 1]]> : tensor<1x4xi64>
  call @run(%k) : (tensor<1x4xi64>) -> ()
  return
}
