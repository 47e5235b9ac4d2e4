// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: not %mlir_run -e elements_too_long %t.mlir 2>&1 | FileCheck %s --check-prefix=ELEMENTS
// RUN: not %mlir_run -e elements_too_long_fill %t.mlir 2>&1 | FileCheck %s --check-prefix=ELEMENTS
// RUN: not %mlir_run -e gather_batch %t.mlir 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not %mlir_run -e gather_batch_wrap %t.mlir 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not %mlir_run -e gather_nd_batch %t.mlir 2>&1 | FileCheck %s --check-prefix=ND
// RUN: not %mlir_run -e gather_nd_batch_clamp %t.mlir 2>&1 | FileCheck %s --check-prefix=ND
// RUN: not %mlir_run -e shape_before_index %t.mlir 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: not %mlir_run -e static_result %t.mlir 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: %mlir_run -e shapes_that_hold %t.mlir | FileCheck %s --check-prefix=OK
// RUN: gather-opt %s --convert-gather-to-loops | FileCheck %s --check-prefix=IR

/// Shape rules the verifier skips for dynamic dims are checked at run time,
/// before anything is read, in every mode but unchecked: the error names the
/// op, the dims and their sizes; no data is printed.

// IR-LABEL: func.func @elements
// IR: memref.dim
// IR: arith.cmpi sle
// IR: call @gather_mlir_shape_error
// IR-LABEL: func.func @unchecked_elements
// IR-NOT: gather_mlir_shape_error
// IR: return

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%r: tensor<?x?xf32>) {
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @elements(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @elements_fill(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode fill>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @unchecked_elements(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode unchecked>} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @data2x2() -> tensor<?x?xf32> {
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %c = tensor.cast %d : tensor<2x2xf32> to tensor<?x?xf32>
  return %c : tensor<?x?xf32>
}

// ELEMENTS: error: gather.gather_elements: indices dimension 0 has size 4, larger than data dimension 0 of size 2
// ELEMENTS-NOT: Memref
func.func @elements_too_long() {
  %d = call @data2x2() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[0], [1], [0], [1]]> : tensor<4x1xi32>
  %i = tensor.cast %c : tensor<4x1xi32> to tensor<?x?xi32>
  %r = call @elements(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

func.func @elements_too_long_fill() {
  %d = call @data2x2() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[0], [1], [0], [1]]> : tensor<4x1xi32>
  %i = tensor.cast %c : tensor<4x1xi32> to tensor<?x?xi32>
  %r = call @elements_fill(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

func.func @gather(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @gather_wrap(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode wrap>} : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// GATHER: error: gather.gather: batch dimension 0 has size 2 in data but 3 in indices
// GATHER-NOT: Memref
func.func @gather_batch() {
  %d = call @data2x2() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[0], [1], [0]]> : tensor<3x1xi64>
  %i = tensor.cast %c : tensor<3x1xi64> to tensor<?x?xi64>
  %r = call @gather(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

func.func @gather_batch_wrap() {
  %d = call @data2x2() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[0], [1], [0]]> : tensor<3x1xi64>
  %i = tensor.cast %c : tensor<3x1xi64> to tensor<?x?xi64>
  %r = call @gather_wrap(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

func.func @gather_nd(%d: tensor<?x?xf32>, %i: tensor<?x1xi64>) -> tensor<?xf32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64} : (tensor<?x?xf32>, tensor<?x1xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @gather_nd_clamp(%d: tensor<?x?xf32>, %i: tensor<?x1xi64>) -> tensor<?xf32> {
  %r = gather.gather_nd %d[%i] {batch_dims = 1 : i64, mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?x1xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @print1(%r: tensor<?xf32>) {
  %u = tensor.cast %r : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// ND: error: gather.gather_nd: batch dimension 0 has size 2 in data but 1 in indices
// ND-NOT: Memref
func.func @gather_nd_batch() {
  %d = call @data2x2() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[1]]> : tensor<1x1xi64>
  %i = tensor.cast %c : tensor<1x1xi64> to tensor<?x1xi64>
  %r = call @gather_nd(%d, %i) : (tensor<?x?xf32>, tensor<?x1xi64>) -> tensor<?xf32>
  call @print1(%r) : (tensor<?xf32>) -> ()
  return
}

func.func @gather_nd_batch_clamp() {
  %d = call @data2x2() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[1]]> : tensor<1x1xi64>
  %i = tensor.cast %c : tensor<1x1xi64> to tensor<?x1xi64>
  %r = call @gather_nd_clamp(%d, %i) : (tensor<?x?xf32>, tensor<?x1xi64>) -> tensor<?xf32>
  call @print1(%r) : (tensor<?xf32>) -> ()
  return
}

/// A bad shape is reported, not the bad index that follows from it.
// FIRST: error: gather.gather: batch dimension 0 has size 2 in data but 3 in indices
// FIRST-NOT: index
func.func @shape_before_index() {
  %d = call @data2x2() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[0], [1], [9]]> : tensor<3x1xi64>
  %i = tensor.cast %c : tensor<3x1xi64> to tensor<?x?xi64>
  %r = call @gather(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

func.func @gather_static_result(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<3x?xf32> {
  %r = gather.gather %d[%i] {mode = #gather<mode fill>} : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<3x?xf32>
  return %r : tensor<3x?xf32>
}

/// A static result dim that the operands contradict at run time.
// RESULT: error: gather.gather: result dimension 0 has size 3, but the operands give 2
// RESULT-NOT: Memref
func.func @static_result() {
  %d = call @data2x2() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[1, 0]> : tensor<2xi64>
  %i = tensor.cast %c : tensor<2xi64> to tensor<?xi64>
  %r = call @gather_static_result(%d, %i) : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<3x?xf32>
  %u = tensor.cast %r : tensor<3x?xf32> to tensor<?x?xf32>
  call @print(%u) : (tensor<?x?xf32>) -> ()
  return
}

/// Shorter indices off the axis (torch's rule) and equal batch dims run.
// OK: sizes = [1, 2]
// OK-NEXT: {{\[\[}}2, 1]]
// OK: sizes = [2, 1]
// OK-NEXT: {{\[\[}}2],
// OK-NEXT: [4]]
func.func @shapes_that_hold() {
  %d = call @data2x2() : () -> tensor<?x?xf32>
  %c = arith.constant dense<[[1, 0]]> : tensor<1x2xi32>
  %i = tensor.cast %c : tensor<1x2xi32> to tensor<?x?xi32>
  %r = call @elements(%d, %i) : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  %b = arith.constant dense<[[1], [1]]> : tensor<2x1xi64>
  %bi = tensor.cast %b : tensor<2x1xi64> to tensor<?x?xi64>
  %g = call @gather(%d, %bi) : (tensor<?x?xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  call @print(%g) : (tensor<?x?xf32>) -> ()
  return
}
