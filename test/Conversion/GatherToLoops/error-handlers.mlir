// RUN: gather-opt %s --gather-define-error-handlers --split-input-file -verify-diagnostics | FileCheck %s

/// An external hook gets a weak, public definition that prints the message
/// with dprintf on fd 2 and exits 1. Only its first caller reports (threads
/// of a threaded loop may fail at once: two in exit() deadlock); a later one
/// waits in pause() for the exit. Both hooks share the flag.
// CHECK: llvm.mlir.global private constant @gather_mlir_index_error_format("error: %s: index %ld is out of range [%ld, %ld] for data dimension %ld of size %ld\0A\00")
// CHECK: llvm.mlir.global internal @gather_mlir_error_reported(0 : i32)
// CHECK-LABEL: llvm.func weak @gather_mlir_index_error(
// CHECK: %[[FLAG:.*]] = llvm.mlir.addressof @gather_mlir_error_reported
// CHECK: %[[OLD:.*]] = llvm.atomicrmw xchg %[[FLAG]], %{{.*}} seq_cst
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[OLD]], %{{.*}}
// CHECK: llvm.cond_br %[[FIRST]], ^[[REPORT:.*]], ^[[WAIT:[a-z0-9]*]]
// CHECK: ^[[REPORT]]:
// CHECK: ^[[WAIT]]:
// CHECK-NEXT: llvm.call @pause()
// CHECK-NEXT: llvm.br ^[[WAIT]]
// CHECK: llvm.call @dprintf(
// CHECK: llvm.call @exit(
// CHECK: llvm.unreachable
// CHECK-LABEL: llvm.func weak @gather_mlir_shape_error(
// CHECK: llvm.mlir.addressof @gather_mlir_error_reported
// CHECK-COUNT-5: llvm.call @dprintf(
llvm.func @gather_mlir_index_error(i64, i64, i64, i64)
llvm.func @gather_mlir_shape_error(i64, i64, i64, i64, i64)

// -----

/// A host's own definition is left alone.
// CHECK-LABEL: llvm.func @gather_mlir_index_error(
// CHECK-NEXT: llvm.return
// CHECK-NOT: dprintf
llvm.func @gather_mlir_index_error(%a: i64, %b: i64, %c: i64, %d: i64) {
  llvm.return
}

// -----

// expected-error @below {{cannot define the error hook 'gather_mlir_index_error': expected type '!llvm.func<void (i64, i64, i64, i64)>'}}
llvm.func @gather_mlir_index_error(i32)

// -----

/// A `pause` of another type leaves no way to wait: the hook is not defined.
// expected-error @below {{redefinition of function 'pause' of different type '!llvm.func<i32 ()>' is prohibited}}
llvm.func @pause(i64)
// expected-error @below {{cannot define the error hook 'gather_mlir_index_error'}}
llvm.func @gather_mlir_index_error(i64, i64, i64, i64)
