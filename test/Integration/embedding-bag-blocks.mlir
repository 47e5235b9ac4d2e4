// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true" | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: not %mlir_run -e bad_id %t.mlir 2>&1 | FileCheck %s --check-prefix=ID
// RUN: not %mlir_run -e short_scales %t.mlir 2>&1 | FileCheck %s --check-prefix=SCALES
// RUN: not %mlir_run -e short_zero_points %t.mlir 2>&1 | FileCheck %s --check-prefix=ZP
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm > %t.linalg.mlir
// RUN: not --crash %unbuffered_mlir_run -e short_scales %t.linalg.mlir 2>&1 | FileCheck %s --check-prefix=LINALG-SCALES
/// The lowering: bytes read as a vector, 2-bit slots split and interleaved
/// twice, the block's scale and zero point read once a chunk.
// RUN: gather-opt %s --convert-embedding-bag-to-scf | FileCheck %s --check-prefix=IR

// gather.embedding_bag with scales: block-quantized tables (ONNX Runtime's
// GatherBlockQuantized layout), their bytes written out by hand (i8 holds
// 200 as -56, 0x88 as -120). Expected values worked by hand from
// docs/Semantics.md: value = (q - zero_point) * scale, zero point
// 2^(bits - 1) without zero_points.
//
// 8-bit, blocks of 16, rows of 16 values, f32 scales:
//   row 0: q = k,       scale 0.5  -> (k - 128) / 2
//   row 1: q = 200,     scale 2    -> 144
//   row 2: q = 255 - k, scale 0.25 -> (127 - k) / 4
// 4-bit, blocks of 16, rows of 32 values (16 bytes, low nibble first), f16
// scales, zero points (one byte a row: block 0 low nibble, block 1 high):
//   row 0: q = k mod 16, scales [1, 0.5], zero points [0, 8]
//   row 1: q = 8,        scales [2, 4],   zero points [8, 0]
// 2-bit, one block of 16: bytes 0b11100100 (slots 0, 1, 2, 3), scale 1.5.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @table8() -> (tensor<3x16xi8>, tensor<3x1xf32>) {
  %t = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
                             [-56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56, -56],
                             [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12, -13, -14, -15, -16]]> : tensor<3x16xi8>
  %s = arith.constant dense<[[0.5], [2.0], [0.25]]> : tensor<3x1xf32>
  return %t, %s : tensor<3x16xi8>, tensor<3x1xf32>
}

func.func @sum8(%t: tensor<?x?xi8>, %i: tensor<?xi64>, %o: tensor<?xi64>, %s: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = gather.embedding_bag %t[%i] offsets(%o) scales(%s) {reduction = #gather<reduction sum>, block_bits = 8 : i64, block_size = 16 : i64} : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @rows4(%t: tensor<2x16xi8>, %i: tensor<?x1xi32>, %s: tensor<2x2xf16>, %z: tensor<2x1xi8>) -> tensor<?x32xf16> {
  %r = gather.embedding_bag %t[%i] scales(%s) zero_points(%z) {reduction = #gather<reduction sum>, mode = #gather<mode wrap>, block_bits = 4 : i64, block_size = 16 : i64} : (tensor<2x16xi8>, tensor<?x1xi32>, tensor<2x2xf16>, tensor<2x1xi8>) -> tensor<?x32xf16>
  return %r : tensor<?x32xf16>
}
func.func @max2(%t: tensor<1x4xi8>, %i: tensor<?x?xi64>, %s: tensor<1x1xf32>) -> tensor<?x16xf32> {
  %r = gather.embedding_bag %t[%i] scales(%s) {reduction = #gather<reduction max>, mode = #gather<mode fill>, block_bits = 2 : i64, block_size = 16 : i64} : (tensor<1x4xi8>, tensor<?x?xi64>, tensor<1x1xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

func.func @rows8(%t: tensor<3x16xi8>, %i: tensor<?x1xi64>, %s: tensor<3x1xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>) {
  %c = gather.embedding_bag %t[%i] scales(%s) {reduction = #gather<reduction sum>, mode = #gather<mode clamp>, block_bits = 8 : i64, block_size = 16 : i64} : (tensor<3x16xi8>, tensor<?x1xi64>, tensor<3x1xf32>) -> tensor<?x16xf32>
  %u = gather.embedding_bag %t[%i] scales(%s) {reduction = #gather<reduction sum>, mode = #gather<mode unchecked>, block_bits = 8 : i64, block_size = 16 : i64} : (tensor<3x16xi8>, tensor<?x1xi64>, tensor<3x1xf32>) -> tensor<?x16xf32>
  return %c, %u : tensor<?x16xf32>, tensor<?x16xf32>
}

func.func @main() {
  %t8s, %s8s = call @table8() : () -> (tensor<3x16xi8>, tensor<3x1xf32>)
  %t8 = tensor.cast %t8s : tensor<3x16xi8> to tensor<?x?xi8>
  %s8 = tensor.cast %s8s : tensor<3x1xf32> to tensor<?x?xf32>

  // Bags {0, 1} and {2, -1 = 2}.
  // CHECK: {{\[}}[80,   80.5,   81,   81.5,   82,   82.5,   83,   83.5,   84,   84.5,   85,   85.5,   86,   86.5,   87,   87.5],
  // CHECK-NEXT: [63.5,   63,   62.5,   62,   61.5,   61,   60.5,   60,   59.5,   59,   58.5,   58,   57.5,   57,   56.5,   56]]
  %ic = arith.constant dense<[0, 1, 2, -1]> : tensor<4xi64>
  %i = tensor.cast %ic : tensor<4xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0, 2]> : tensor<2xi64>
  %o = tensor.cast %oc : tensor<2xi64> to tensor<?xi64>
  %r0 = call @sum8(%t8, %i, %o, %s8) : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  call @print(%r0) : (tensor<?x?xf32>) -> ()

  // Bags of one id (a gather of dequantized rows): 0, then 3 = 1 (wrap).
  // CHECK: {{\[}}[0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   -4,   -3.5,   -3,   -2.5,   -2,   -1.5,   -1,   -0.5,   0,   0.5,   1,   1.5,   2,   2.5,   3,   3.5],
  // CHECK-NEXT: [0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   32,   32,   32,   32,   32,   32,   32,   32,   32,   32,   32,   32,   32,   32,   32,   32]]
  %t4 = arith.constant dense<[[16, 50, 84, 118, -104, -70, -36, -2, 16, 50, 84, 118, -104, -70, -36, -2],
                              [-120, -120, -120, -120, -120, -120, -120, -120, -120, -120, -120, -120, -120, -120, -120, -120]]> : tensor<2x16xi8>
  %s4 = arith.constant dense<[[1.0, 0.5], [2.0, 4.0]]> : tensor<2x2xf16>
  %z4 = arith.constant dense<[[-128], [8]]> : tensor<2x1xi8>
  %i4c = arith.constant dense<[[0], [3]]> : tensor<2x1xi32>
  %i4 = tensor.cast %i4c : tensor<2x1xi32> to tensor<?x1xi32>
  %r1h = call @rows4(%t4, %i4, %s4, %z4) : (tensor<2x16xi8>, tensor<?x1xi32>, tensor<2x2xf16>, tensor<2x1xi8>) -> tensor<?x32xf16>
  %r1e = arith.extf %r1h : tensor<?x32xf16> to tensor<?x32xf32>
  %r1 = tensor.cast %r1e : tensor<?x32xf32> to tensor<?x?xf32>
  call @print(%r1) : (tensor<?x?xf32>) -> ()

  // 2 bits, max with a fill id (a row of zeros): max(row 0, 0).
  // CHECK: {{\[}}[0,   0,   0,   1.5,   0,   0,   0,   1.5,   0,   0,   0,   1.5,   0,   0,   0,   1.5]]
  %t2 = arith.constant dense<[[-28, -28, -28, -28]]> : tensor<1x4xi8>
  %s2 = arith.constant dense<[[1.5]]> : tensor<1x1xf32>
  %i2c = arith.constant dense<[[0, 7]]> : tensor<1x2xi64>
  %i2 = tensor.cast %i2c : tensor<1x2xi64> to tensor<?x?xi64>
  %r2s = call @max2(%t2, %i2, %s2) : (tensor<1x4xi8>, tensor<?x?xi64>, tensor<1x1xf32>) -> tensor<?x16xf32>
  %r2 = tensor.cast %r2s : tensor<?x16xf32> to tensor<?x?xf32>
  call @print(%r2) : (tensor<?x?xf32>) -> ()

  // clamp (5 is row 2, -9 is row 0), then unchecked with ids as promised
  // (rows 2 and 0 again): the same rows.
  // CHECK: {{\[}}[31.75,   31.5,   31.25,   31,   30.75,   30.5,   30.25,   30,   29.75,   29.5,   29.25,   29,   28.75,   28.5,   28.25,   28],
  // CHECK-NEXT: [-64,   -63.5,   -63,   -62.5,   -62,   -61.5,   -61,   -60.5,   -60,   -59.5,   -59,   -58.5,   -58,   -57.5,   -57,   -56.5]]
  // CHECK: {{\[}}[31.75,   31.5,   31.25,   31,   30.75,   30.5,   30.25,   30,   29.75,   29.5,   29.25,   29,   28.75,   28.5,   28.25,   28],
  // CHECK-NEXT: [-64,   -63.5,   -63,   -62.5,   -62,   -61.5,   -61,   -60.5,   -60,   -59.5,   -59,   -58.5,   -58,   -57.5,   -57,   -56.5]]
  %cc = arith.constant dense<[[5], [-9]]> : tensor<2x1xi64>
  %c = tensor.cast %cc : tensor<2x1xi64> to tensor<?x1xi64>
  %r3c, %unused = call @rows8(%t8s, %c, %s8s) : (tensor<3x16xi8>, tensor<?x1xi64>, tensor<3x1xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>)
  %r3 = tensor.cast %r3c : tensor<?x16xf32> to tensor<?x?xf32>
  call @print(%r3) : (tensor<?x?xf32>) -> ()
  %vc = arith.constant dense<[[2], [0]]> : tensor<2x1xi64>
  %v = tensor.cast %vc : tensor<2x1xi64> to tensor<?x1xi64>
  %unused2, %r4u = call @rows8(%t8s, %v, %s8s) : (tensor<3x16xi8>, tensor<?x1xi64>, tensor<3x1xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>)
  %r4 = tensor.cast %r4u : tensor<?x16xf32> to tensor<?x?xf32>
  call @print(%r4) : (tensor<?x?xf32>) -> ()
  return
}

// ID: error: gather.embedding_bag: index 3 is out of range [-3, 2] for data dimension 0 of size 3
// ID-NOT: Memref
func.func @bad_id() {
  %t8s, %s8s = call @table8() : () -> (tensor<3x16xi8>, tensor<3x1xf32>)
  %t8 = tensor.cast %t8s : tensor<3x16xi8> to tensor<?x?xi8>
  %s8 = tensor.cast %s8s : tensor<3x1xf32> to tensor<?x?xf32>
  %ic = arith.constant dense<[0, 3]> : tensor<2xi64>
  %i = tensor.cast %ic : tensor<2xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0]> : tensor<1xi64>
  %o = tensor.cast %oc : tensor<1xi64> to tensor<?xi64>
  %r = call @sum8(%t8, %i, %o, %s8) : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// Scales of two rows for a table of three.
// SCALES: error: gather.embedding_bag: scales dimension 0 has size 2, but the table needs 3
// SCALES-NOT: Memref
// LINALG-SCALES: gather.embedding_bag: scales must have a row per row and a column per block
// LINALG-SCALES-NOT: Memref
func.func @short_scales() {
  %t8s, %s8s = call @table8() : () -> (tensor<3x16xi8>, tensor<3x1xf32>)
  %t8 = tensor.cast %t8s : tensor<3x16xi8> to tensor<?x?xi8>
  %two = tensor.extract_slice %s8s[0, 0] [2, 1] [1, 1] : tensor<3x1xf32> to tensor<2x1xf32>
  %s8 = tensor.cast %two : tensor<2x1xf32> to tensor<?x?xf32>
  %ic = arith.constant dense<[0, 1]> : tensor<2xi64>
  %i = tensor.cast %ic : tensor<2xi64> to tensor<?xi64>
  %oc = arith.constant dense<[0]> : tensor<1xi64>
  %o = tensor.cast %oc : tensor<1xi64> to tensor<?xi64>
  %r = call @sum8(%t8, %i, %o, %s8) : (tensor<?x?xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?x?xf32>) -> tensor<?x?xf32>
  call @print(%r) : (tensor<?x?xf32>) -> ()
  return
}

// ZP: error: gather.embedding_bag: zero_points dimension 1 has size 0, but the table needs 1
// ZP-NOT: Memref
func.func @short_zero_points() {
  %t = arith.constant dense<1> : tensor<2x16xi8>
  %s = arith.constant dense<1.0> : tensor<2x2xf32>
  %z0 = arith.constant dense<> : tensor<2x0xi8>
  %z = tensor.cast %z0 : tensor<2x0xi8> to tensor<?x?xi8>
  %ic = arith.constant dense<[[0], [1]]> : tensor<2x1xi64>
  %r = gather.embedding_bag %t[%ic] scales(%s) zero_points(%z) {block_bits = 4 : i64, block_size = 16 : i64} : (tensor<2x16xi8>, tensor<2x1xi64>, tensor<2x2xf32>, tensor<?x?xi8>) -> tensor<2x32xf32>
  %d = tensor.cast %r : tensor<2x32xf32> to tensor<?x?xf32>
  call @print(%d) : (tensor<?x?xf32>) -> ()
  return
}

// IR-LABEL: func.func @max2
// IR: vector.transfer_read %{{.*}} : tensor<1x4xi8>, vector<4xi8>
// IR: vector.interleave %{{.*}}, %{{.*}} : vector<4xi8> -> vector<8xi8>
// IR: vector.interleave %{{.*}}, %{{.*}} : vector<4xi8> -> vector<8xi8>
// IR: vector.interleave %{{.*}}, %{{.*}} : vector<8xi8> -> vector<16xi8>
// IR: arith.uitofp %{{.*}} : vector<16xi8> to vector<16xf32>
// IR: tensor.extract %{{.*}} : tensor<1x1xf32>
// IR: arith.subf
// IR: arith.mulf
// IR: arith.maximumf
