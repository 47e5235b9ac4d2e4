// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm > %t.mlir
// RUN: %mlir_run -e in_range %t.mlir | FileCheck %s --check-prefix=OK
// RUN: not --crash %unbuffered_mlir_run -e gather_oob %t.mlir 2>&1 | FileCheck %s --check-prefix=GATHER
// RUN: not --crash %unbuffered_mlir_run -e gather_elements_oob %t.mlir 2>&1 | FileCheck %s --check-prefix=ELEMENTS
// RUN: not --crash %unbuffered_mlir_run -e gather_nd_oob %t.mlir 2>&1 | FileCheck %s --check-prefix=ND
// RUN: not --crash %unbuffered_mlir_run -e clamp_empty_dim %t.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not --crash %unbuffered_mlir_run -e batch_dim_mismatch %t.mlir 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not --crash %unbuffered_mlir_run -e elements_rule %t.mlir 2>&1 | FileCheck %s --check-prefix=RULE
// RUN: %mlir_run -e bag_in_range %t.mlir | FileCheck %s --check-prefix=BAG-OK
// RUN: %mlir_run -e bag_past_last_offset %t.mlir | FileCheck %s --check-prefix=BAG-LAST
// RUN: not --crash %unbuffered_mlir_run -e bag_bad_id %t.mlir 2>&1 | FileCheck %s --check-prefix=BAG-ID
// RUN: not --crash %unbuffered_mlir_run -e bag_bad_offsets %t.mlir 2>&1 | FileCheck %s --check-prefix=BAG-OFFSETS

// Through convert-gather-to-linalg and stock mlir-opt, a failed check is a
// cf.assert: its message (printed with puts on stdout, hence stdbuf -o0
// before the abort) names the op and the valid range; the process aborts
// without printing data. Shape rules on dynamic dims are asserted too.

func.func private @printMemrefI32(tensor<*xi32>)

func.func @print(%r: tensor<?xi32>) {
  %u = tensor.cast %r : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @gather(%v: tensor<5xi32>, %i: tensor<?xi64>) -> tensor<?xi32> {
  %r = gather.gather %v[%i] : (tensor<5xi32>, tensor<?xi64>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// OK: [2, 5, 1]
func.func @in_range() {
  %v = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %c = arith.constant dense<[1, -1, -5]> : tensor<3xi64>
  %i = tensor.cast %c : tensor<3xi64> to tensor<?xi64>
  %r = call @gather(%v, %i) : (tensor<5xi32>, tensor<?xi64>) -> tensor<?xi32>
  call @print(%r) : (tensor<?xi32>) -> ()
  return
}

// GATHER: gather.gather: index out of range [-5, 4] for data dimension 0 of size 5
// GATHER-NOT: Memref
func.func @gather_oob() {
  %v = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %c = arith.constant dense<[1, 10, -20]> : tensor<3xi64>
  %i = tensor.cast %c : tensor<3xi64> to tensor<?xi64>
  %r = call @gather(%v, %i) : (tensor<5xi32>, tensor<?xi64>) -> tensor<?xi32>
  call @print(%r) : (tensor<?xi32>) -> ()
  return
}

func.func @gather_elements(%d: tensor<2x3xi32>, %i: tensor<?x2xi32>) -> tensor<?x2xi32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<2x3xi32>, tensor<?x2xi32>) -> tensor<?x2xi32>
  return %r : tensor<?x2xi32>
}

// ELEMENTS: gather.gather_elements: index out of range [-3, 2] for data dimension 1 of size 3
// ELEMENTS-NOT: Memref
func.func @gather_elements_oob() {
  %d = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %c = arith.constant dense<[[0, 1], [-4, 2]]> : tensor<2x2xi32>
  %i = tensor.cast %c : tensor<2x2xi32> to tensor<?x2xi32>
  %r = call @gather_elements(%d, %i) : (tensor<2x3xi32>, tensor<?x2xi32>) -> tensor<?x2xi32>
  %u = tensor.cast %r : tensor<?x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @gather_nd(%d: tensor<?x4xi32>, %i: tensor<?x2xi64>) -> tensor<?xi32> {
  %r = gather.gather_nd %d[%i] : (tensor<?x4xi32>, tensor<?x2xi64>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

/// The second component of a tuple is checked against dimension 1.
// ND: gather.gather_nd: index out of range [-4, 3] for data dimension 1 of size 4
// ND-NOT: Memref
func.func @gather_nd_oob() {
  %d = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi32>
  %c = arith.constant dense<[[1, 3], [0, 4]]> : tensor<2x2xi64>
  %dd = tensor.cast %d : tensor<2x4xi32> to tensor<?x4xi32>
  %i = tensor.cast %c : tensor<2x2xi64> to tensor<?x2xi64>
  %r = call @gather_nd(%dd, %i) : (tensor<?x4xi32>, tensor<?x2xi64>) -> tensor<?xi32>
  call @print(%r) : (tensor<?xi32>) -> ()
  return
}

func.func @clamp(%v: tensor<?xi32>, %i: tensor<?xi64>) -> tensor<?xi32> {
  %r = gather.gather %v[%i] {mode = #gather<mode clamp>} : (tensor<?xi32>, tensor<?xi64>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// EMPTY: gather.gather: an index selects along data dimension 0, which is empty (size 0)
// EMPTY-NOT: Memref
func.func @clamp_empty_dim() {
  %v = tensor.empty() : tensor<0xi32>
  %c = arith.constant dense<[0]> : tensor<1xi64>
  %dv = tensor.cast %v : tensor<0xi32> to tensor<?xi32>
  %i = tensor.cast %c : tensor<1xi64> to tensor<?xi64>
  %r = call @clamp(%dv, %i) : (tensor<?xi32>, tensor<?xi64>) -> tensor<?xi32>
  call @print(%r) : (tensor<?xi32>) -> ()
  return
}

func.func @batched(%d: tensor<?x3xi32>, %i: tensor<?x2xi64>) -> tensor<?x2xi32> {
  %r = gather.gather %d[%i] {axis = 1 : i64, batch_dims = 1 : i64, mode = #gather<mode fill>} : (tensor<?x3xi32>, tensor<?x2xi64>) -> tensor<?x2xi32>
  return %r : tensor<?x2xi32>
}

// BATCH: gather.gather: batch dimension 0 has different sizes in data and indices
// BATCH-NOT: Memref
func.func @batch_dim_mismatch() {
  %d = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %c = arith.constant dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>
  %dd = tensor.cast %d : tensor<2x3xi32> to tensor<?x3xi32>
  %i = tensor.cast %c : tensor<3x2xi64> to tensor<?x2xi64>
  %r = call @batched(%dd, %i) : (tensor<?x3xi32>, tensor<?x2xi64>) -> tensor<?x2xi32>
  %u = tensor.cast %r : tensor<?x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @elements_wrap(%d: tensor<?x3xi32>, %i: tensor<?x2xi64>) -> tensor<?x2xi32> {
  %r = gather.gather_elements %d[%i] {axis = 1 : i64, mode = #gather<mode wrap>} : (tensor<?x3xi32>, tensor<?x2xi64>) -> tensor<?x2xi32>
  return %r : tensor<?x2xi32>
}

/// Off the axis, indices may not be larger than data (the torch rule).
// RULE: gather.gather_elements: indices dimension 0 is larger than data dimension 0
// RULE-NOT: Memref
func.func @elements_rule() {
  %d = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %c = arith.constant dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>
  %dd = tensor.cast %d : tensor<2x3xi32> to tensor<?x3xi32>
  %i = tensor.cast %c : tensor<3x2xi64> to tensor<?x2xi64>
  %r = call @elements_wrap(%dd, %i) : (tensor<?x3xi32>, tensor<?x2xi64>) -> tensor<?x2xi32>
  %u = tensor.cast %r : tensor<?x2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// Embedding bags (one linalg.generic over the result on this path): a bad
// id asserts after the bags are computed from clamped rows, bad offsets
// before anything is read.
func.func private @printMemrefF32(tensor<*xf32>)

func.func @bag(%t: tensor<4x2xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x2xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>} : (tensor<4x2xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

func.func @run_bag(%ids: tensor<4xi64>, %offsets: tensor<2xi64>) {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0]]> : tensor<4x2xf32>
  %i = tensor.cast %ids : tensor<4xi64> to tensor<?xi64>
  %o = tensor.cast %offsets : tensor<2xi64> to tensor<?xi64>
  %r = call @bag(%t, %i, %o) : (tensor<4x2xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x2xf32>
  %u = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// Bags [0, -1] and [2, 1]: rows 0 and 3, rows 2 and 1.
// BAG-OK: [1001, 2002]
// BAG-OK-NEXT: [110, 220]
func.func @bag_in_range() {
  %ids = arith.constant dense<[0, -1, 2, 1]> : tensor<4xi64>
  %offsets = arith.constant dense<[0, 2]> : tensor<2xi64>
  call @run_bag(%ids, %offsets) : (tensor<4xi64>, tensor<2xi64>) -> ()
  return
}

// With include_last_offset, ids past the last offset are in no bag: one
// out of range there is no error. Bags [0, 3] and [2].
// BAG-LAST: [1001, 2002]
// BAG-LAST-NEXT: [100, 200]
func.func @bag_past_last_offset() {
  %t = arith.constant dense<[[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0]]> : tensor<4x2xf32>
  %ids = arith.constant dense<[0, 3, 2, 9]> : tensor<4xi64>
  %offsets = arith.constant dense<[0, 2, 3]> : tensor<3xi64>
  %i = tensor.cast %ids : tensor<4xi64> to tensor<?xi64>
  %o = tensor.cast %offsets : tensor<3xi64> to tensor<?xi64>
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, include_last_offset} : (tensor<4x2xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x2xf32>
  %u = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// BAG-ID: gather.embedding_bag: an id is out of range for the table
// BAG-ID-NOT: Memref
func.func @bag_bad_id() {
  %ids = arith.constant dense<[0, 1, 4, 1]> : tensor<4xi64>
  %offsets = arith.constant dense<[0, 2]> : tensor<2xi64>
  call @run_bag(%ids, %offsets) : (tensor<4xi64>, tensor<2xi64>) -> ()
  return
}

// BAG-OFFSETS: gather.embedding_bag: offsets must start at 0
// BAG-OFFSETS-NOT: Memref
func.func @bag_bad_offsets() {
  %ids = arith.constant dense<[0, 1, 2, 1]> : tensor<4xi64>
  %offsets = arith.constant dense<[0, 5]> : tensor<2xi64>
  call @run_bag(%ids, %offsets) : (tensor<4xi64>, tensor<2xi64>) -> ()
  return
}
