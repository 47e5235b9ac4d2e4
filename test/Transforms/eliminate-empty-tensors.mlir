// RUN: gather-opt %s --gather-eliminate-empty-tensors -split-input-file | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm -split-input-file | FileCheck %s --check-prefix=LOWERED

/// Both branches of the scf.if write the destination: the tensor.empty is
/// the destination's contents (upstream's eliminate-empty-tensors replaces
/// one of its two uses).
// CHECK-LABEL: func.func @branches
// CHECK-SAME: (%{{.*}}: i1, %{{.*}}: index, %[[OUT:.*]]: memref<?xf32>)
// CHECK-NOT: tensor.empty
// CHECK: %[[DEST:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[DEST]] : tensor<?xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[DEST]] : tensor<?xf32>)
// LOWERED-LABEL: llvm.func @branches
// LOWERED-NOT: {{@malloc|memcpy}}
// LOWERED-LABEL: llvm.func @static_destination
func.func @branches(%c: i1, %n: index, %out: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.if %c -> (tensor<?xf32>) {
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %f : tensor<?xf32>
  } else {
    %g = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %g : tensor<?xf32>
  }
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}

// -----

/// A destination of static shape: its contents are cast to the empty's type.
// CHECK-LABEL: func.func @static_destination
// CHECK: %[[DEST:.*]] = bufferization.to_tensor %{{.*}} restrict writable : memref<4xf32> to tensor<4xf32>
// CHECK: %[[CAST:.*]] = tensor.cast %[[DEST]] : tensor<4xf32> to tensor<?xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[CAST]] : tensor<?xf32>)
func.func @static_destination(%c: i1, %n: index, %out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.if %c -> (tensor<?xf32>) {
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %f : tensor<?xf32>
  } else {
    scf.yield %e : tensor<?xf32>
  }
  %s = tensor.cast %r : tensor<?xf32> to tensor<4xf32>
  bufferization.materialize_in_destination %s in restrict writable %out : (tensor<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

/// The empty tensor is also read elsewhere: it stays.
// CHECK-LABEL: func.func @other_use
// CHECK: tensor.empty
func.func @other_use(%n: index, %out: memref<?xf32>) -> tensor<?xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  bufferization.materialize_in_destination %f in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return %e : tensor<?xf32>
}

// -----

/// A path from a value other than a tensor.empty (an argument): no change.
// CHECK-LABEL: func.func @argument_path
// CHECK: tensor.empty
func.func @argument_path(%c: i1, %t: tensor<?xf32>, %n: index, %out: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.if %c -> (tensor<?xf32>) {
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %f : tensor<?xf32>
  } else {
    scf.yield %t : tensor<?xf32>
  }
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?xf32>, memref<?xf32>) -> ()
  return
}

// -----

/// An embedding bag (zeros when a run-time rule fails, the bags otherwise)
/// written into its destination on every path: no buffer, no copy.
// LOWERED-LABEL: llvm.func @bag_into_destination
// LOWERED-NOT: {{@malloc|memcpy}}
func.func @bag_into_destination(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %out: memref<?x?xf32>) {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}
