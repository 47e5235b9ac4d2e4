// RUN: gather-opt %s --gather-noalias-memref-args --finalize-memref-to-llvm \
// RUN:   --convert-arith-to-llvm --convert-func-to-llvm \
// RUN:   --reconcile-unrealized-casts --canonicalize \
// RUN:   --gather-noalias-memref-args | FileCheck %s
// RUN: gather-opt %s --gather-noalias-memref-args \
// RUN:   | FileCheck %s --check-prefix=RECORD

// The aligned pointer of each `llvm.noalias` memref is marked, and the
// accesses through it carry its scope; %c, not marked, gets neither, nor
// does the C wrapper, whose memrefs are one pointer each. The function's
// copy loops stay loops.

// CHECK-DAG: #[[DOMAIN:.+]] = #llvm.alias_scope_domain<{{.*}}description = "noalias memrefs of copy">
// CHECK-DAG: #[[A:.+]] = #llvm.alias_scope<id = {{.*}}, domain = #[[DOMAIN]]>
// CHECK-DAG: #[[B:.+]] = #llvm.alias_scope<id = {{.*}}, domain = #[[DOMAIN]]>

// RECORD-LABEL: func.func @copy
// RECORD-SAME: gather.noalias_pointers = {arguments = 18 : i32, pointers = array<i32: 1, 6>}

// CHECK-LABEL: llvm.func @copy(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %[[AP:[a-z0-9]+]]: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %[[BP:[a-z0-9]+]]: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %[[CP:[a-z0-9]+]]: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64,
// CHECK-SAME: %{{[a-z0-9]+}}: i64)
// CHECK-SAME: passthrough = ["no-builtin-memcpy", "no-builtin-memmove"]
// CHECK-NOT: gather.noalias_pointers
// CHECK: %[[AG:.+]] = llvm.getelementptr {{.*}}%[[AP]][
// CHECK: llvm.load %[[AG]] {alias_scopes = [#[[A]]], noalias_scopes = [#[[B]]]}
// CHECK: %[[BG:.+]] = llvm.getelementptr {{.*}}%[[BP]][
// CHECK: llvm.store %{{.+}}, %[[BG]] {alias_scopes = [#[[B]]], noalias_scopes = [#[[A]]]}
// CHECK: %[[CG:.+]] = llvm.getelementptr {{.*}}%[[CP]][
// CHECK: llvm.store %{{.+}}, %[[CG]] : f32, !llvm.ptr
// CHECK-LABEL: llvm.func @_mlir_ciface_copy(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64)
// CHECK-NOT: alias_scopes
// CHECK: llvm.return
func.func @copy(%a: memref<?xf32> {llvm.noalias},
                %b: memref<?x?xf32> {llvm.noalias}, %c: memref<?xf32>,
                %i: index) attributes {llvm.emit_c_interface} {
  %v = memref.load %a[%i] : memref<?xf32>
  memref.store %v, %b[%i, %i] : memref<?x?xf32>
  memref.store %v, %c[%i] : memref<?xf32>
  return
}

// A function without marked memrefs is left as it was.
// RECORD-LABEL: func.func @plain
// RECORD-NOT: gather.noalias_pointers
// CHECK-LABEL: llvm.func @plain(
// CHECK-NOT: passthrough
// CHECK-NOT: llvm.noalias
// CHECK-NOT: alias_scopes
// CHECK: llvm.return
func.func @plain(%a: memref<?xf32>, %b: memref<?xf32>, %i: index) {
  %v = memref.load %a[%i] : memref<?xf32>
  memref.store %v, %b[%i] : memref<?xf32>
  return
}

// An unranked memref has no aligned pointer among the function's
// arguments (its descriptor is behind one): nothing is recorded.
// RECORD-LABEL: func.func @unranked
// RECORD-NOT: gather.noalias_pointers
// CHECK-LABEL: llvm.func @unranked(
// CHECK-NOT: llvm.noalias
// CHECK: llvm.return
func.func @unranked(%a: memref<*xf32> {llvm.noalias}) {
  return
}
