// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true" | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm | %run_main | FileCheck %s
/// Failures: named by the hooks; on the linalg path a cf.assert (its message
/// on stdout before the abort, hence stdbuf). Nothing after them is printed.
// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: not %mlir_run -e bad_id %t.mlir 2>&1 | FileCheck %s --check-prefix=ID
// RUN: not %mlir_run -e offsets_decrease %t.mlir 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not %mlir_run -e offsets_first %t.mlir 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: not %mlir_run -e offsets_past_end %t.mlir 2>&1 | FileCheck %s --check-prefix=END
// RUN: not %mlir_run -e clamp_empty_table %t.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not %mlir_run -e weights_shape %t.mlir 2>&1 | FileCheck %s --check-prefix=WEIGHTS
// RUN: not %mlir_run -e last_offset_missing %t.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not %mlir_run -e result_bags %t.mlir 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not %mlir_run -e bad_id_no_values %t.mlir 2>&1 | FileCheck %s --check-prefix=NOVALUES
// RUN: not %mlir_run -e bad_id_static_no_values %t.mlir 2>&1 | FileCheck %s --check-prefix=NOVALUES
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm > %t.linalg.mlir
// RUN: not --crash %unbuffered_mlir_run -e bad_id %t.linalg.mlir 2>&1 | FileCheck %s --check-prefix=LINALG-ID
// RUN: not --crash %unbuffered_mlir_run -e offsets_decrease %t.linalg.mlir 2>&1 | FileCheck %s --check-prefix=LINALG-OFFSETS

// gather.embedding_bag on a 5x3 table whose rows are easy to tell apart,
// every reduction, mode and layout; expected values worked by hand from
// docs/Semantics.md (torch's embedding_bag rules). Operands arrive as
// function arguments so that nothing folds.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x3xf32>) {
  %u = tensor.cast %t : tensor<?x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @table() -> tensor<5x3xf32> {
  %t = arith.constant dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0], [100.0, 200.0, 300.0], [-1.0, -2.0, -3.0], [5.0, 5.0, 5.0]]> : tensor<5x3xf32>
  return %t : tensor<5x3xf32>
}

func.func @sum_weighted(%t: tensor<5x3xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>, %w: tensor<?xf32>) -> tensor<?x3xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @mean_padding(%t: tensor<5x3xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x3xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {padding_idx = -4 : i64} : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @max_fill(%t: tensor<5x3xf32>, %i: tensor<?xi32>, %o: tensor<?xi32>) -> tensor<?x3xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction max>, mode = #gather<mode fill>} : (tensor<5x3xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @sum_clamp_last(%t: tensor<5x3xf32>, %i: tensor<?xindex>, %o: tensor<?xindex>) -> tensor<?x3xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, include_last_offset, mode = #gather<mode clamp>} : (tensor<5x3xf32>, tensor<?xindex>, tensor<?xindex>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @mean_wrap_f16(%t: tensor<5x3xf16>, %i: tensor<?x?xi8>) -> tensor<?x3xf16> {
  %r = gather.embedding_bag %t[%i] {mode = #gather<mode wrap>} : (tensor<5x3xf16>, tensor<?x?xi8>) -> tensor<?x3xf16>
  return %r : tensor<?x3xf16>
}
func.func @sum_unchecked(%t: tensor<5x3xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x3xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, mode = #gather<mode unchecked>} : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
// Every other id: a slice with a stride, whose ids the kernel reads
// through a strided buffer (the scan of whether all are rows included).
func.func @sum_every_other(%t: tensor<5x3xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %i, %c0 : tensor<?xi64>
  %up = arith.addi %n, %c1 : index
  %half = arith.divui %up, %c2 : index
  %s = tensor.extract_slice %i[0] [%half] [2] : tensor<?xi64> to tensor<?xi64>
  %r = gather.embedding_bag %t[%s] offsets(%o) {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @max_check_2d(%t: tensor<?x3xf32>, %i: tensor<2x2xi64>) -> tensor<2x3xf32> {
  %r = gather.embedding_bag %t[%i] {reduction = #gather<reduction max>} : (tensor<?x3xf32>, tensor<2x2xi64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

func.func @main() {
  %t = call @table() : () -> tensor<5x3xf32>
  %ic = arith.constant dense<[0, 1, 2, 4, -1, 3]> : tensor<6xi64>
  %i = tensor.cast %ic : tensor<6xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 3, 3, 5]> : tensor<4xi64>
  %o = tensor.cast %oc : tensor<4xi64> to tensor<?xi64>
  %wc = arith.constant dense<[1.0, 2.0, 0.5, 1.0, 2.0, 3.0]> : tensor<6xf32>
  %w = tensor.cast %wc : tensor<6xf32> to tensor<?xf32>

  // Bags {0, 1, 2}, {}, {4, -1 = 4}, {3}, each row times its weight.
  // CHECK: {{\[}}[71,   142,   213],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [15,   15,   15],
  // CHECK-NEXT: [-3,   -6,   -9]]
  %r0 = call @sum_weighted(%t, %i, %o, %w) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x3xf32>
  call @print(%r0) : (tensor<?x3xf32>) -> ()

  // padding_idx -4 is row 1: skipped, not counted.
  // CHECK: {{\[}}[50.5,   101,   151.5],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [5,   5,   5],
  // CHECK-NEXT: [-1,   -2,   -3]]
  %r1 = call @mean_padding(%t, %i, %o) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  call @print(%r1) : (tensor<?x3xf32>) -> ()

  // fill: ids 7 and -9 are rows of zeros that take part in max; an empty
  // bag is zeros.
  // CHECK: {{\[}}[1,   2,   3],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [100,   200,   300]]
  %fc = arith.constant dense<[0, 7, 3, -9, 2]> : tensor<5xi32>
  %f = tensor.cast %fc : tensor<5xi32> to tensor<?xi32>
  %foc = arith.constant dense<[0, 2, 4, 4]> : tensor<4xi32>
  %fo = tensor.cast %foc : tensor<4xi32> to tensor<?xi32>
  %r2 = call @max_fill(%t, %f, %fo) : (tensor<5x3xf32>, tensor<?xi32>, tensor<?xi32>) -> tensor<?x3xf32>
  call @print(%r2) : (tensor<?x3xf32>) -> ()

  // include_last_offset: offsets [0, 2, 3] are two bags, the id after the
  // last offset is in none; clamp: 9 is row 4, -9 is row 0.
  // CHECK: {{\[}}[6,   7,   8],
  // CHECK-NEXT: [10,   20,   30]]
  %cc = arith.constant dense<[9, -9, 1, 2]> : tensor<4xindex>
  %c = tensor.cast %cc : tensor<4xindex> to tensor<?xindex>
  %coc = arith.constant dense<[0, 2, 3]> : tensor<3xindex>
  %co = tensor.cast %coc : tensor<3xindex> to tensor<?xindex>
  %r3 = call @sum_clamp_last(%t, %c, %co) : (tensor<5x3xf32>, tensor<?xindex>, tensor<?xindex>) -> tensor<?x3xf32>
  call @print(%r3) : (tensor<?x3xf32>) -> ()

  // Fixed-length bags of an f16 table, wrap: 6 is row 1, -6 row 4.
  // CHECK: {{\[}}[7.5,   12.5,   17.5],
  // CHECK-NEXT: [49.5,   99,   148.5]]
  %th = arith.truncf %t : tensor<5x3xf32> to tensor<5x3xf16>
  %hc = arith.constant dense<[[6, -6], [2, 3]]> : tensor<2x2xi8>
  %h = tensor.cast %hc : tensor<2x2xi8> to tensor<?x?xi8>
  %r4h = call @mean_wrap_f16(%th, %h) : (tensor<5x3xf16>, tensor<?x?xi8>) -> tensor<?x3xf16>
  %r4 = arith.extf %r4h : tensor<?x3xf16> to tensor<?x3xf32>
  call @print(%r4) : (tensor<?x3xf32>) -> ()

  // CHECK: {{\[}}[11,   22,   33]]
  %uc = arith.constant dense<[0, 1]> : tensor<2xi64>
  %u = tensor.cast %uc : tensor<2xi64> to tensor<?xi64>
  %uoc = arith.constant dense<[0]> : tensor<1xi64>
  %uo = tensor.cast %uoc : tensor<1xi64> to tensor<?xi64>
  %r5 = call @sum_unchecked(%t, %u, %uo) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  call @print(%r5) : (tensor<?x3xf32>) -> ()

  // CHECK: {{\[}}[10,   20,   30],
  // CHECK-NEXT: [100,   200,   300]]
  %td = tensor.cast %t : tensor<5x3xf32> to tensor<?x3xf32>
  %mc = arith.constant dense<[[1, 3], [2, -5]]> : tensor<2x2xi64>
  %r6 = call @max_check_2d(%td, %mc) : (tensor<?x3xf32>, tensor<2x2xi64>) -> tensor<2x3xf32>
  %r6d = tensor.cast %r6 : tensor<2x3xf32> to tensor<?x3xf32>
  call @print(%r6d) : (tensor<?x3xf32>) -> ()

  // Ids 0, 1, -1 (row 4), 3 and 2, 1, 4, 3 of every other position (the
  // 77s between are in no bag): one id not a row as it is, then none.
  // CHECK: {{\[}}[11,   22,   33],
  // CHECK-NEXT: [4,   3,   2]]
  // CHECK: {{\[}}[110,   220,   330],
  // CHECK-NEXT: [4,   3,   2]]
  %ec = arith.constant dense<[0, 77, 1, 77, -1, 77, 3]> : tensor<7xi64>
  %e = tensor.cast %ec : tensor<7xi64> to tensor<?xi64>
  %eoc = arith.constant dense<[0, 2]> : tensor<2xi64>
  %eo = tensor.cast %eoc : tensor<2xi64> to tensor<?xi64>
  %r7 = call @sum_every_other(%t, %e, %eo) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  call @print(%r7) : (tensor<?x3xf32>) -> ()
  %gc = arith.constant dense<[2, 77, 1, 77, 4, 77, 3]> : tensor<7xi64>
  %g = tensor.cast %gc : tensor<7xi64> to tensor<?xi64>
  %r8 = call @sum_every_other(%t, %g, %eo) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  call @print(%r8) : (tensor<?x3xf32>) -> ()
  return
}

// ID: error: gather.embedding_bag: index 5 is out of range [-5, 4] for data dimension 0 of size 5
// ID-NOT: Memref
// LINALG-ID: gather.embedding_bag: an id is out of range for the table
// LINALG-ID-NOT: Memref
func.func @bad_id() {
  %t = call @table() : () -> tensor<5x3xf32>
  %ic = arith.constant dense<[0, 5, 7]> : tensor<3xi64>
  %i = tensor.cast %ic : tensor<3xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 1]> : tensor<2xi64>
  %o = tensor.cast %oc : tensor<2xi64> to tensor<?xi64>
  %r = call @mean_padding(%t, %i, %o) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  call @print(%r) : (tensor<?x3xf32>) -> ()
  return
}

// ORDER: error: gather.embedding_bag: offsets[2] is 2, less than offsets[1] = 3 (offsets must be non-decreasing)
// ORDER-NOT: Memref
// LINALG-OFFSETS: gather.embedding_bag: offsets must start at 0, be non-decreasing and end within the ids
// LINALG-OFFSETS-NOT: Memref
func.func @offsets_decrease() {
  %t = call @table() : () -> tensor<5x3xf32>
  %ic = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
  %i = tensor.cast %ic : tensor<4xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 3, 2]> : tensor<3xi64>
  %o = tensor.cast %oc : tensor<3xi64> to tensor<?xi64>
  %r = call @mean_padding(%t, %i, %o) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  call @print(%r) : (tensor<?x3xf32>) -> ()
  return
}

// FIRST: error: gather.embedding_bag: offsets[0] is 1, but the first bag must start at 0
// FIRST-NOT: Memref
func.func @offsets_first() {
  %t = call @table() : () -> tensor<5x3xf32>
  %ic = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
  %i = tensor.cast %ic : tensor<4xi64> to tensor<?xi64>
  %oc = arith.constant dense<[1, 3]> : tensor<2xi64>
  %o = tensor.cast %oc : tensor<2xi64> to tensor<?xi64>
  %r = call @mean_padding(%t, %i, %o) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  call @print(%r) : (tensor<?x3xf32>) -> ()
  return
}

// END: error: gather.embedding_bag: offsets[1] is 9, past the end of the 4 ids
// END-NOT: Memref
func.func @offsets_past_end() {
  %t = call @table() : () -> tensor<5x3xf32>
  %ic = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
  %i = tensor.cast %ic : tensor<4xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 9]> : tensor<2xi64>
  %o = tensor.cast %oc : tensor<2xi64> to tensor<?xi64>
  %r = call @mean_padding(%t, %i, %o) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  call @print(%r) : (tensor<?x3xf32>) -> ()
  return
}

// EMPTY: error: gather.embedding_bag: index 9 selects along data dimension 0, which is empty (size 0)
// EMPTY-NOT: Memref
func.func @clamp_empty_table() {
  %e = arith.constant dense<> : tensor<0x3xf32>
  %t = tensor.cast %e : tensor<0x3xf32> to tensor<?x3xf32>
  %ic = arith.constant dense<[9, 1]> : tensor<2xindex>
  %i = tensor.cast %ic : tensor<2xindex> to tensor<?xindex>
  %oc = arith.constant dense<[0, 2]> : tensor<2xindex>
  %o = tensor.cast %oc : tensor<2xindex> to tensor<?xindex>
  %r = gather.embedding_bag %t[%i] offsets(%o) {include_last_offset, mode = #gather<mode clamp>} : (tensor<?x3xf32>, tensor<?xindex>, tensor<?xindex>) -> tensor<?x3xf32>
  call @print(%r) : (tensor<?x3xf32>) -> ()
  return
}

// WEIGHTS: error: gather.embedding_bag: per_sample_weights dimension 0 has size 2, but ids has 6
// WEIGHTS-NOT: Memref
func.func @weights_shape() {
  %t = call @table() : () -> tensor<5x3xf32>
  %ic = arith.constant dense<[0, 1, 2, 4, -1, 3]> : tensor<6xi64>
  %i = tensor.cast %ic : tensor<6xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 3]> : tensor<2xi64>
  %o = tensor.cast %oc : tensor<2xi64> to tensor<?xi64>
  %wc = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %w = tensor.cast %wc : tensor<2xf32> to tensor<?xf32>
  %r = call @sum_weighted(%t, %i, %o, %w) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x3xf32>
  call @print(%r) : (tensor<?x3xf32>) -> ()
  return
}

// COUNT: error: gather.embedding_bag: include_last_offset needs at least one offset, but offsets has 0 entries
// COUNT-NOT: Memref
func.func @last_offset_missing() {
  %t = call @table() : () -> tensor<5x3xf32>
  %ic = arith.constant dense<[0, 1]> : tensor<2xi64>
  %i = tensor.cast %ic : tensor<2xi64> to tensor<?xi64>
  %oc = arith.constant dense<> : tensor<0xi64>
  %o = tensor.cast %oc : tensor<0xi64> to tensor<?xi64>
  %r = gather.embedding_bag %t[%i] offsets(%o) {include_last_offset} : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  call @print(%r) : (tensor<?x3xf32>) -> ()
  return
}

// RESULT: error: gather.embedding_bag: result dimension 0 has size 2, but the operands give 3
// RESULT-NOT: Memref
func.func @result_bags() {
  %t = call @table() : () -> tensor<5x3xf32>
  %ic = arith.constant dense<[0, 1, 2]> : tensor<3xi64>
  %i = tensor.cast %ic : tensor<3xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 1, 2]> : tensor<3xi64>
  %o = tensor.cast %oc : tensor<3xi64> to tensor<?xi64>
  %r = gather.embedding_bag %t[%i] offsets(%o) : (tensor<5x3xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<2x3xf32>
  %d = tensor.cast %r : tensor<2x3xf32> to tensor<?x3xf32>
  call @print(%d) : (tensor<?x3xf32>) -> ()
  return
}

// Rows of no value read no row: the ids are still checked (a dynamic and a
// static empty dim).
// NOVALUES: error: gather.embedding_bag: index 9 is out of range [-2, 1] for data dimension 0 of size 2
// NOVALUES-NOT: Memref
func.func @bad_id_no_values() {
  %e = arith.constant dense<> : tensor<2x0xf32>
  %t = tensor.cast %e : tensor<2x0xf32> to tensor<?x?xf32>
  %ic = arith.constant dense<[0, 1, 9, 12]> : tensor<4xi64>
  %i = tensor.cast %ic : tensor<4xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 2]> : tensor<2xi64>
  %o = tensor.cast %oc : tensor<2xi64> to tensor<?xi64>
  %r = gather.embedding_bag %t[%i] offsets(%o) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func @bad_id_static_no_values() {
  %t = arith.constant dense<> : tensor<2x0xf32>
  %ic = arith.constant dense<[0, 1, 9, 12]> : tensor<4xi64>
  %i = tensor.cast %ic : tensor<4xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 2]> : tensor<2xi64>
  %o = tensor.cast %oc : tensor<2xi64> to tensor<?xi64>
  %r = gather.embedding_bag %t[%i] offsets(%o) : (tensor<2x0xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x0xf32>
  %u = tensor.cast %r : tensor<?x0xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
