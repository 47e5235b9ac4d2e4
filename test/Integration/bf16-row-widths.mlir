// bf16 tables and data whose rows end in a partial vector (33 and 65
// values: the bags' tail chunk of 64 and 128 lanes, the kernels' last
// vector), lowered by gather-to-llvm and run on this host's CPU: the masked
// reads and writes of that last part move i16 lanes, which every host's
// instruction selection lowers (bf16 ones aborted LLVM on hosts with AVX-512
// BF16).
// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %t, %c0 : tensor<?x?xbf16>
  %m = tensor.dim %t, %c1 : tensor<?x?xbf16>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %f = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<?x?xbf16>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %w = arith.extf %a : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<?x?xf32>
  %u = tensor.cast %f : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

/// Row r of the table holds r + 1 in every column.
func.func @table(%width: index) -> tensor<3x?xbf16> {
  %e = tensor.empty(%width) : tensor<3x?xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<3x?xbf16>) {
  ^bb0(%o: bf16):
    %i = linalg.index 0 : index
    %c1 = arith.constant 1 : index
    %r = arith.addi %i, %c1 : index
    %r64 = arith.index_cast %r : index to i64
    %f = arith.sitofp %r64 : i64 to bf16
    linalg.yield %f : bf16
  } -> tensor<3x?xbf16>
  return %t : tensor<3x?xbf16>
}

func.func @sum33(%t: tensor<3x33xbf16>, %i: tensor<4xi64>, %o: tensor<2xi64>) -> tensor<2x33xbf16> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>} : (tensor<3x33xbf16>, tensor<4xi64>, tensor<2xi64>) -> tensor<2x33xbf16>
  return %r : tensor<2x33xbf16>
}
func.func @max65(%t: tensor<3x65xbf16>, %i: tensor<4xi64>, %o: tensor<2xi64>) -> tensor<2x65xbf16> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction max>} : (tensor<3x65xbf16>, tensor<4xi64>, tensor<2xi64>) -> tensor<2x65xbf16>
  return %r : tensor<2x65xbf16>
}
func.func @mean_dynamic(%t: tensor<3x?xbf16>, %i: tensor<4xi64>, %o: tensor<2xi64>) -> tensor<2x?xbf16> {
  %r = gather.embedding_bag %t[%i] offsets(%o) : (tensor<3x?xbf16>, tensor<4xi64>, tensor<2xi64>) -> tensor<2x?xbf16>
  return %r : tensor<2x?xbf16>
}
func.func @rows33(%t: tensor<3x33xbf16>, %i: tensor<2xi64>) -> tensor<2x33xbf16> {
  %r = gather.gather %t[%i] : (tensor<3x33xbf16>, tensor<2xi64>) -> tensor<2x33xbf16>
  return %r : tensor<2x33xbf16>
}

func.func @main() {
  %c33 = arith.constant 33 : index
  %c65 = arith.constant 65 : index
  %ids = arith.constant dense<[0, 2, 1, 2]> : tensor<4xi64>
  %offsets = arith.constant dense<[0, 2]> : tensor<2xi64>
  %t33d = call @table(%c33) : (index) -> tensor<3x?xbf16>
  %t33 = tensor.cast %t33d : tensor<3x?xbf16> to tensor<3x33xbf16>
  %t65d = call @table(%c65) : (index) -> tensor<3x?xbf16>
  %t65 = tensor.cast %t65d : tensor<3x?xbf16> to tensor<3x65xbf16>

  // Bags {0, 2} and {1, 2}: 1 + 3 and 2 + 3 in each of the 33 columns.
  // CHECK: sizes = [2, 33]
  // CHECK-NEXT: {{\[}}[4{{(, +4){32}\]}},
  // CHECK-NEXT: [5{{(, +5){32}\]}}]
  %s = call @sum33(%t33, %ids, %offsets) : (tensor<3x33xbf16>, tensor<4xi64>, tensor<2xi64>) -> tensor<2x33xbf16>
  %sd = tensor.cast %s : tensor<2x33xbf16> to tensor<?x?xbf16>
  call @print(%sd) : (tensor<?x?xbf16>) -> ()

  // CHECK: sizes = [2, 65]
  // CHECK-NEXT: {{\[}}[3{{(, +3){64}\]}},
  // CHECK-NEXT: [3{{(, +3){64}\]}}]
  %m = call @max65(%t65, %ids, %offsets) : (tensor<3x65xbf16>, tensor<4xi64>, tensor<2xi64>) -> tensor<2x65xbf16>
  %md = tensor.cast %m : tensor<2x65xbf16> to tensor<?x?xbf16>
  call @print(%md) : (tensor<?x?xbf16>) -> ()

  // A dynamic row of 65: the tail after no whole chunk, masked.
  // CHECK: sizes = [2, 65]
  // CHECK-NEXT: {{\[}}[2{{(, +2){64}\]}},
  // CHECK-NEXT: [2.5{{(, +2.5){64}\]}}]
  %a = call @mean_dynamic(%t65d, %ids, %offsets) : (tensor<3x?xbf16>, tensor<4xi64>, tensor<2xi64>) -> tensor<2x?xbf16>
  %ad = tensor.cast %a : tensor<2x?xbf16> to tensor<?x?xbf16>
  call @print(%ad) : (tensor<?x?xbf16>) -> ()

  // CHECK: sizes = [2, 33]
  // CHECK-NEXT: {{\[}}[3{{(, +3){32}\]}},
  // CHECK-NEXT: [1{{(, +1){32}\]}}]
  %rows = arith.constant dense<[2, 0]> : tensor<2xi64>
  %g = call @rows33(%t33, %rows) : (tensor<3x33xbf16>, tensor<2xi64>) -> tensor<2x33xbf16>
  %gd = tensor.cast %g : tensor<2x33xbf16> to tensor<?x?xbf16>
  call @print(%gd) : (tensor<?x?xbf16>) -> ()
  return
}
