// RUN: gather-opt %s --gather-to-llvm --mlir-print-ir-after=gather-flatten-linalg -o /dev/null 2>&1 | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=1" --mlir-print-ir-after=gather-flatten-linalg -o /dev/null 2>&1 | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm --mlir-print-ir-after=gather-copy-to-memmove -o /dev/null 2>&1 | FileCheck %s --check-prefix=SERIAL
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=1" --mlir-print-ir-after=gather-copy-to-memmove -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREADS

/// A scatter into a new array (the Python package's form) whose rows are
/// too short for its tiles to copy dest: dest's whole copy, after
/// bufferization, is one flat copy of ?x?x2 elements, serial or threaded.
// CHECK-LABEL: IR Dump After GatherFlattenLinalg
// CHECK: func.func @k
// CHECK-DAG: %[[S:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2]] : memref<?x?x2xf32> into memref<?xf32>
// CHECK-DAG: %[[D:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2]] : memref<?x?x2xf32> into memref<?xf32>
// CHECK: linalg.copy ins(%[[S]] : memref<?xf32>) outs(%[[D]] : memref<?xf32>)

/// On one thread that copy is one memmove; on threads, a copy of a size
/// known at run time is a parallel loop when large, a memmove when not.
// SERIAL-LABEL: IR Dump After GatherCopyToMemmove
// SERIAL: func.func @k
// SERIAL-NOT: linalg.copy
// SERIAL: "llvm.intr.memmove"
// THREADS-LABEL: IR Dump After GatherCopyToMemmove
// THREADS: func.func @k
// THREADS: scf.if
// THREADS: scf.parallel
// THREADS: } else {
// THREADS: "llvm.intr.memmove"
func.func @k(%dm: memref<?x?x2xf32> {llvm.noalias}, %sm: memref<?x?x2xf32> {llvm.noalias}, %im: memref<?xi64> {llvm.noalias}, %um: memref<?x?x2xf32> {llvm.noalias}) {
  %e = bufferization.to_tensor %dm restrict writable : memref<?x?x2xf32> to tensor<?x?x2xf32>
  %s = bufferization.to_tensor %sm restrict : memref<?x?x2xf32> to tensor<?x?x2xf32>
  %d = linalg.copy ins(%s : tensor<?x?x2xf32>) outs(%e : tensor<?x?x2xf32>) -> tensor<?x?x2xf32>
  %i = bufferization.to_tensor %im restrict : memref<?xi64> to tensor<?xi64>
  %u = bufferization.to_tensor %um restrict : memref<?x?x2xf32> to tensor<?x?x2xf32>
  %r = gather.scatter %d[%i], %u {axis = 1 : i64, batch_dims = 0 : i64, mode = #gather<mode check>, reduction = #gather<combine add>} : (tensor<?x?x2xf32>, tensor<?xi64>, tensor<?x?x2xf32>) -> tensor<?x?x2xf32>
  bufferization.materialize_in_destination %r in restrict writable %dm : (tensor<?x?x2xf32>, memref<?x?x2xf32>) -> ()
  return
}
