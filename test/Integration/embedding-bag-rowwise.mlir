// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true" | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: not %mlir_run -e bad_id %t.mlir 2>&1 | FileCheck %s --check-prefix=ID
// RUN: not %mlir_run -e short_rows %t.mlir 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm > %t.linalg.mlir
// RUN: not --crash %unbuffered_mlir_run -e short_rows %t.linalg.mlir 2>&1 | FileCheck %s --check-prefix=LINALG-SHORT
/// The lowering: bytes read as vectors, nibbles split and interleaved, the
/// scale and bias bitcast from the row's last bytes, one fma per chunk.
// RUN: gather-opt %s --convert-embedding-bag-to-scf | FileCheck %s --check-prefix=IR

// gather.embedding_bag with rowwise_bits: tables in FBGEMM's row-wise
// quantized layout, their bytes written out by hand. Expected values worked
// by hand from docs/Semantics.md (value = q * scale + bias).
//
// 8-bit table, 3 rows of 3 values, then an f32 scale and an f32 bias
// (little-endian bytes; i8 holds 255 as -1, 200 as -56):
//   row 0: q [1, 2, 3],      scale 2.0, bias 1.0  -> [3, 5, 7]
//   row 1: q [10, 0, 255],   scale 0.5, bias 0.0  -> [5, 0, 127.5]
//   row 2: q [200, 100, 50], scale 1.0, bias -1.0 -> [199, 99, 49]
// 4-bit table, 2 rows of 4 values (low nibble first), then an f16 scale and
// an f16 bias:
//   row 0: q [1, 2, 3, 15], scale 2.0, bias 1.0  -> [3, 5, 7, 31]
//   row 1: q [0, 8, 4, 1],  scale 0.5, bias -1.0 -> [-1, 3, 1, -0.5]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @table8() -> tensor<3x11xi8> {
  %t = arith.constant dense<[[1, 2, 3, 0, 0, 0, 64, 0, 0, -128, 63],
                             [10, 0, -1, 0, 0, 0, 63, 0, 0, 0, 0],
                             [-56, 100, 50, 0, 0, -128, 63, 0, 0, -128, -65]]> : tensor<3x11xi8>
  return %t : tensor<3x11xi8>
}

func.func @table4() -> tensor<2x6xi8> {
  %t = arith.constant dense<[[33, -13, 0, 64, 0, 60],
                             [-128, 20, 0, 56, 0, -68]]> : tensor<2x6xi8>
  return %t : tensor<2x6xi8>
}

func.func @sum8(%t: tensor<?x?xi8>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, rowwise_bits = 8 : i64} : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @mean8_fixed(%t: tensor<3x11xi8>, %i: tensor<?x?xi32>) -> tensor<?x3xf32> {
  %r = gather.embedding_bag %t[%i] {reduction = #gather<reduction mean>, rowwise_bits = 8 : i64} : (tensor<3x11xi8>, tensor<?x?xi32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @max8_fill(%t: tensor<3x11xi8>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x3xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction max>, mode = #gather<mode fill>, rowwise_bits = 8 : i64} : (tensor<3x11xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @sum4_weighted(%t: tensor<2x6xi8>, %i: tensor<?xi64>, %o: tensor<?xi64>, %w: tensor<?xf32>) -> tensor<?x4xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) per_sample_weights(%w) {reduction = #gather<reduction sum>, rowwise_bits = 4 : i64} : (tensor<2x6xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
func.func @mean4_padding(%t: tensor<?x?xi8>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {padding_idx = 0 : i64, mode = #gather<mode wrap>, rowwise_bits = 4 : i64} : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @sum8_clamp(%t: tensor<3x11xi8>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x3xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, mode = #gather<mode clamp>, rowwise_bits = 8 : i64} : (tensor<3x11xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @sum4_unchecked(%t: tensor<2x6xi8>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x4xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction sum>, mode = #gather<mode unchecked>, rowwise_bits = 4 : i64} : (tensor<2x6xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

func.func @main() {
  %t8s = call @table8() : () -> tensor<3x11xi8>
  %t8 = tensor.cast %t8s : tensor<3x11xi8> to tensor<?x?xi8>
  %t4s = call @table4() : () -> tensor<2x6xi8>
  %t4 = tensor.cast %t4s : tensor<2x6xi8> to tensor<?x?xi8>

  // Bags {0, 1, 2}, {}, {2, -1 = 2}.
  // CHECK: {{\[}}[207,   104,   183.5],
  // CHECK-NEXT: [0,   0,   0],
  // CHECK-NEXT: [398,   198,   98]]
  %ic = arith.constant dense<[0, 1, 2, 2, -1]> : tensor<5xi64>
  %i = tensor.cast %ic : tensor<5xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 3, 3]> : tensor<3xi64>
  %o = tensor.cast %oc : tensor<3xi64> to tensor<?xi64>
  %r0 = call @sum8(%t8, %i, %o) : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r0) : (tensor<?x?xf32>) -> ()

  // Fixed-length bags [0, 1] and [2, 0].
  // CHECK: {{\[}}[4,   2.5,   67.25],
  // CHECK-NEXT: [101,   52,   28]]
  %fc = arith.constant dense<[[0, 1], [2, 0]]> : tensor<2x2xi32>
  %f = tensor.cast %fc : tensor<2x2xi32> to tensor<?x?xi32>
  %r1 = call @mean8_fixed(%t8s, %f) : (tensor<3x11xi8>, tensor<?x?xi32>) -> tensor<?x3xf32>
  %r1d = tensor.cast %r1 : tensor<?x3xf32> to tensor<?x?xf32>
  call @print(%r1d) : (tensor<?x?xf32>) -> ()

  // fill: id 5 is a row of zeros that takes part in max.
  // CHECK: {{\[}}[3,   5,   7],
  // CHECK-NEXT: [5,   0,   127.5]]
  %mc = arith.constant dense<[0, 5, 1]> : tensor<3xi64>
  %m = tensor.cast %mc : tensor<3xi64> to tensor<?xi64>
  %moc = arith.constant dense<[0, 2]> : tensor<2xi64>
  %mo = tensor.cast %moc : tensor<2xi64> to tensor<?xi64>
  %r2 = call @max8_fill(%t8s, %m, %mo) : (tensor<3x11xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  %r2d = tensor.cast %r2 : tensor<?x3xf32> to tensor<?x?xf32>
  call @print(%r2d) : (tensor<?x?xf32>) -> ()

  // 4 bits, 2 * row 0 - row 1, then row 1 times 4.
  // CHECK: {{\[}}[7,   7,   13,   62.5],
  // CHECK-NEXT: [-4,   12,   4,   -2]]
  %qc = arith.constant dense<[0, 1, 1]> : tensor<3xi64>
  %q = tensor.cast %qc : tensor<3xi64> to tensor<?xi64>
  %qoc = arith.constant dense<[0, 2]> : tensor<2xi64>
  %qo = tensor.cast %qoc : tensor<2xi64> to tensor<?xi64>
  %wc = arith.constant dense<[2.0, -1.0, 4.0]> : tensor<3xf32>
  %w = tensor.cast %wc : tensor<3xf32> to tensor<?xf32>
  %r3 = call @sum4_weighted(%t4s, %q, %qo, %w) : (tensor<2x6xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x4xf32>
  %r3d = tensor.cast %r3 : tensor<?x4xf32> to tensor<?x?xf32>
  call @print(%r3d) : (tensor<?x?xf32>) -> ()

  // 4 bits, a dynamic table, wrap: ids 3 and -2 are rows 1 and 0; row 0 is
  // padding (skipped, not counted): bag {1, 3 = 1, 0} is row 1.
  // CHECK: {{\[}}[-1,   3,   1,   -0.5],
  // CHECK-NEXT: [0,   0,   0,   0]]
  %pc = arith.constant dense<[1, 3, 0, -2]> : tensor<4xi64>
  %p = tensor.cast %pc : tensor<4xi64> to tensor<?xi64>
  %poc = arith.constant dense<[0, 3]> : tensor<2xi64>
  %po = tensor.cast %poc : tensor<2xi64> to tensor<?xi64>
  %r4 = call @mean4_padding(%t4, %p, %po) : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r4) : (tensor<?x?xf32>) -> ()

  // clamp: 5 is row 2, -9 (-6 after normalizing) is row 0.
  // CHECK: {{\[}}[202,   104,   56]]
  %cc = arith.constant dense<[5, -9]> : tensor<2xi64>
  %c = tensor.cast %cc : tensor<2xi64> to tensor<?xi64>
  %one = arith.constant dense<[0]> : tensor<1xi64>
  %o1 = tensor.cast %one : tensor<1xi64> to tensor<?xi64>
  %r5 = call @sum8_clamp(%t8s, %c, %o1) : (tensor<3x11xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x3xf32>
  %r5d = tensor.cast %r5 : tensor<?x3xf32> to tensor<?x?xf32>
  call @print(%r5d) : (tensor<?x?xf32>) -> ()

  // unchecked, ids as promised: rows 1 and 0 of the 4-bit table.
  // CHECK: {{\[}}[2,   8,   8,   30.5]]
  %uc = arith.constant dense<[1, 0]> : tensor<2xi64>
  %u = tensor.cast %uc : tensor<2xi64> to tensor<?xi64>
  %r6 = call @sum4_unchecked(%t4s, %u, %o1) : (tensor<2x6xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x4xf32>
  %r6d = tensor.cast %r6 : tensor<?x4xf32> to tensor<?x?xf32>
  call @print(%r6d) : (tensor<?x?xf32>) -> ()
  return
}

// ID: error: gather.embedding_bag: index 3 is out of range [-3, 2] for data dimension 0 of size 3
// ID-NOT: Memref
func.func @bad_id() {
  %t8s = call @table8() : () -> tensor<3x11xi8>
  %t8 = tensor.cast %t8s : tensor<3x11xi8> to tensor<?x?xi8>
  %ic = arith.constant dense<[0, 3]> : tensor<2xi64>
  %i = tensor.cast %ic : tensor<2xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0]> : tensor<1xi64>
  %o = tensor.cast %oc : tensor<1xi64> to tensor<?xi64>
  %r = call @sum8(%t8, %i, %o) : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// Rows of 5 bytes cannot hold an f32 scale and bias.
// SHORT: error: gather.embedding_bag: rows of 5 bytes are shorter than the 8 bytes of their scale and bias (a row-wise quantized table)
// SHORT-NOT: Memref
// LINALG-SHORT: gather.embedding_bag: rows of a row-wise quantized table must hold their scale and bias
// LINALG-SHORT-NOT: Memref
func.func @short_rows() {
  %s = arith.constant dense<1> : tensor<2x5xi8>
  %t = tensor.cast %s : tensor<2x5xi8> to tensor<?x?xi8>
  %ic = arith.constant dense<[0, 1]> : tensor<2xi64>
  %i = tensor.cast %ic : tensor<2xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0]> : tensor<1xi64>
  %o = tensor.cast %oc : tensor<1xi64> to tensor<?xi64>
  %r = call @sum8(%t, %i, %o) : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// IR-LABEL: func.func @sum4_weighted
// IR: vector.transfer_read %{{.*}} {in_bounds = [true]} : tensor<2x6xi8>, vector<2xi8>
// IR: arith.andi
// IR: arith.shrui
// IR: vector.interleave %{{.*}}, %{{.*}} : vector<2xi8> -> vector<4xi8>
// IR: arith.uitofp %{{.*}} : vector<4xi8> to vector<4xf32>
// IR: vector.transfer_read %{{.*}} : tensor<2x6xi8>, vector<4xi8>
// IR: vector.bitcast %{{.*}} : vector<4xi8> to vector<2xf16>
// IR: vector.fma
