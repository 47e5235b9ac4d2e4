// RUN: gather-opt %s --gather-to-llvm='parallel=true gather-loads=element' | FileCheck %s

// A kernel's `llvm.noalias` memrefs (those of the Python package's
// kernels): their data pointers are marked, and the loads and stores in the
// parallel regions, which LLVM outlines into functions of their own, keep
// their scopes (here rows read one element an iteration: scalar loads).

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias},
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: llvm.load %{{.+}} {alias_scopes = [#[[DATA:.+]]], noalias_scopes = [{{.+}}]} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.+}}, %{{.+}} {alias_scopes = [#[[OUT:.+]]], noalias_scopes = [{{.*}}#[[DATA]]{{.*}}]} : f32, !llvm.ptr
// CHECK-NOT: gather.noalias_pointers
func.func @k(%d: memref<?x?xf32> {llvm.noalias},
             %i: memref<?x?xi64> {llvm.noalias},
             %o: memref<?x?xf32> {llvm.noalias})
    attributes {llvm.emit_c_interface} {
  %td = bufferization.to_tensor %d restrict : memref<?x?xf32> to tensor<?x?xf32>
  %ti = bufferization.to_tensor %i restrict : memref<?x?xi64> to tensor<?x?xi64>
  %r = gather.gather_elements %td[%ti] {axis = 0 : i64}
      : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %o
      : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
