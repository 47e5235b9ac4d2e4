// Ids that fall in no bag (no offset at all, or after the last offset's
// end with include_last_offset) are neither read nor checked, as in torch,
// through gather-to-llvm and through convert-gather-to-linalg alike: in
// check mode, for a table of empty rows, and with clamp on an empty table.
// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm | %run_main | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @sum(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>} : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @sum_last(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, include_last_offset} : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @max_clamp(%t: tensor<?x?xf32>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction max>, mode = #gather<mode clamp>} : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %tc = arith.constant dense<[[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]> : tensor<2x3xf32>
  %t = tensor.cast %tc : tensor<2x3xf32> to tensor<?x?xf32>
  %ic = arith.constant dense<[1, 9]> : tensor<2xi64>
  %i = tensor.cast %ic : tensor<2xi64> to tensor<?xi64>
  %none = tensor.empty() : tensor<0xi64>
  %o0 = tensor.cast %none : tensor<0xi64> to tensor<?xi64>

  /// No offset: no bag, and id 9 is in none.
  // CHECK: rank = 2 offset = 0 sizes = [0, 3]
  %r0 = call @sum(%t, %i, %o0) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r0) : (tensor<?x?xf32>) -> ()

  /// Rows of no value: the ids are scanned for the check, only those in
  /// bags.
  // CHECK: rank = 2 offset = 0 sizes = [0, 0]
  %ec = tensor.empty() : tensor<2x0xf32>
  %e = tensor.cast %ec : tensor<2x0xf32> to tensor<?x?xf32>
  %r1 = call @sum(%e, %i, %o0) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r1) : (tensor<?x?xf32>) -> ()

  /// clamp on an empty table is an error only for an id in a bag.
  // CHECK: rank = 2 offset = 0 sizes = [0, 3]
  %zc = tensor.empty() : tensor<0x3xf32>
  %z = tensor.cast %zc : tensor<0x3xf32> to tensor<?x?xf32>
  %r2 = call @max_clamp(%z, %i, %o0) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r2) : (tensor<?x?xf32>) -> ()

  /// include_last_offset: the bag is id 1, id 9 after its end is in none.
  // CHECK: rank = 2 offset = 0 sizes = [1, 3]
  // CHECK-NEXT: {{\[}}[10,   20,   30]]
  %lc = arith.constant dense<[0, 1]> : tensor<2xi64>
  %l = tensor.cast %lc : tensor<2xi64> to tensor<?xi64>
  %r3 = call @sum_last(%t, %i, %l) : (tensor<?x?xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r3) : (tensor<?x?xf32>) -> ()
  return
}
