// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s

// Every example of the seed documents, lowered and run.

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @print_i32(%t: tensor<*xi32>) {
  call @printMemrefI32(%t) : (tensor<*xi32>) -> ()
  return
}
func.func @print_f32(%t: tensor<*xf32>) {
  call @printMemrefF32(%t) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  // ONNX Gather, axis = 0.
  // CHECK: [1,   1.2],
  // CHECK-NEXT: [2.3,   3.4]],
  // CHECK-NEXT: {{\[}}[2.3,   3.4],
  // CHECK-NEXT: [4.5,   5.7]]]
  %d0 = arith.constant dense<[[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]]> : tensor<3x2xf32>
  %i0 = arith.constant dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>
  %r0 = gather.gather %d0[%i0] : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32>
  %u0 = tensor.cast %r0 : tensor<2x2x2xf32> to tensor<*xf32>
  call @print_f32(%u0) : (tensor<*xf32>) -> ()

  // ONNX Gather, axis = 1.
  // CHECK: {{\[}}[1,   1.9]],
  // CHECK-NEXT: {{\[}}[2.3,   3.9]],
  // CHECK-NEXT: {{\[}}[4.5,   5.9]]]
  %d1 = arith.constant dense<[[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]]> : tensor<3x3xf32>
  %i1 = arith.constant dense<[[0, 2]]> : tensor<1x2xi64>
  %r1 = gather.gather %d1[%i1] {axis = 1 : i64} : (tensor<3x3xf32>, tensor<1x2xi64>) -> tensor<3x1x2xf32>
  %u1 = tensor.cast %r1 : tensor<3x1x2xf32> to tensor<*xf32>
  call @print_f32(%u1) : (tensor<*xf32>) -> ()

  // OpenVINO Gather-8 example 1.
  // CHECK: [1,  1,  5]
  %v = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %e1 = arith.constant dense<[0, 0, 4]> : tensor<3xi32>
  %r2 = gather.gather %v[%e1] : (tensor<5xi32>, tensor<3xi32>) -> tensor<3xi32>
  %u2 = tensor.cast %r2 : tensor<3xi32> to tensor<*xi32>
  call @print_i32(%u2) : (tensor<*xi32>) -> ()

  // OpenVINO Gather-8 example 2 (batch_dims = 1).
  // CHECK: {{\[}}[1,   1,   5],
  // CHECK-NEXT: [10,   6,   6]]
  %d2 = arith.constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]> : tensor<2x5xi32>
  %i2 = arith.constant dense<[[0, 0, 4], [4, 0, 0]]> : tensor<2x3xi32>
  %r3 = gather.gather %d2[%i2] {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u3 = tensor.cast %r3 : tensor<2x3xi32> to tensor<*xi32>
  call @print_i32(%u3) : (tensor<*xi32>) -> ()

  // OpenVINO Gather-8 example 3 (batch_dims = 2).
  // CHECK: {{\[}}[1,    1,    5],
  // CHECK-NEXT: [10,    6,    6]],
  // CHECK-NEXT: {{\[}}[12,    13,    15],
  // CHECK-NEXT: [20,    19,    18]]]
  %d3 = arith.constant dense<[[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], [[11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]]> : tensor<2x2x5xi32>
  %i3 = arith.constant dense<[[[0, 0, 4], [4, 0, 0]], [[1, 2, 4], [4, 3, 2]]]> : tensor<2x2x3xi32>
  %r4 = gather.gather %d3[%i3] {axis = 2 : i64, batch_dims = 2 : i64} : (tensor<2x2x5xi32>, tensor<2x2x3xi32>) -> tensor<2x2x3xi32>
  %u4 = tensor.cast %r4 : tensor<2x2x3xi32> to tensor<*xi32>
  call @print_i32(%u4) : (tensor<*xi32>) -> ()

  // OpenVINO Gather-8 example 4 (axis 2 > batch_dims 1).
  // CHECK: {{\[}}[5,     6,     7,     8],
  // CHECK-NEXT: [9,     10,     11,     12],
  // CHECK-NEXT: [17,     18,     19,     20]]],
  // CHECK-NEXT: {{\[}}{{\[}}[37,     38,     39,     40],
  // CHECK-NEXT: [33,     34,     35,     36],
  // CHECK-NEXT: [29,     30,     31,     32]]]]
  %d4 = arith.constant dense<[[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19, 20]]],
                              [[[21, 22, 23, 24], [25, 26, 27, 28], [29, 30, 31, 32], [33, 34, 35, 36], [37, 38, 39, 40]]]]> : tensor<2x1x5x4xi32>
  %i4 = arith.constant dense<[[1, 2, 4], [4, 3, 2]]> : tensor<2x3xi32>
  %r5 = gather.gather %d4[%i4] {axis = 2 : i64, batch_dims = 1 : i64} : (tensor<2x1x5x4xi32>, tensor<2x3xi32>) -> tensor<2x1x3x4xi32>
  %u5 = tensor.cast %r5 : tensor<2x1x3x4xi32> to tensor<*xi32>
  call @print_i32(%u5) : (tensor<*xi32>) -> ()

  // OpenVINO Gather-8 example 5 (batch_dims = -1).
  // CHECK: {{\[}}[1,   1,   5],
  // CHECK-NEXT: [10,   6,   6]]
  %r6 = gather.gather %d2[%i2] {axis = 1 : i64, batch_dims = -1 : i64} : (tensor<2x5xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u6 = tensor.cast %r6 : tensor<2x3xi32> to tensor<*xi32>
  call @print_i32(%u6) : (tensor<*xi32>) -> ()

  // OpenVINO Gather-8 example 6 (negative indices).
  // CHECK: [1,  4,  5]
  %e6 = arith.constant dense<[0, -2, -1]> : tensor<3xi32>
  %r7 = gather.gather %v[%e6] : (tensor<5xi32>, tensor<3xi32>) -> tensor<3xi32>
  %u7 = tensor.cast %r7 : tensor<3xi32> to tensor<*xi32>
  call @print_i32(%u7) : (tensor<*xi32>) -> ()

  // OpenVINO Gather-8 example 7 (out of range, zero fill).
  // CHECK: [4,  0,  0]
  %e7 = arith.constant dense<[3, 10, -20]> : tensor<3xi32>
  %r8 = gather.gather %v[%e7] {mode = #gather<mode fill>} : (tensor<5xi32>, tensor<3xi32>) -> tensor<3xi32>
  %u8 = tensor.cast %r8 : tensor<3xi32> to tensor<*xi32>
  call @print_i32(%u8) : (tensor<*xi32>) -> ()

  // GatherElements-6 example 1 (axis = 0).
  // CHECK: {{\[}}[1,   4],
  // CHECK-NEXT: [1,   2]]
  %g = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %gi = arith.constant dense<[[0, 1], [0, 0]]> : tensor<2x2xi32>
  %r9 = gather.gather_elements %g[%gi] : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %u9 = tensor.cast %r9 : tensor<2x2xi32> to tensor<*xi32>
  call @print_i32(%u9) : (tensor<*xi32>) -> ()

  // GatherElements-6 example 2 (axis = 1, longer indices).
  // CHECK: {{\[}}[7,   7,   1],
  // CHECK-NEXT: [3,   4,   3]]
  %g2 = arith.constant dense<[[1, 7], [4, 3]]> : tensor<2x2xi32>
  %gi2 = arith.constant dense<[[1, 1, 0], [1, 0, 1]]> : tensor<2x3xi32>
  %r10 = gather.gather_elements %g2[%gi2] {axis = 1 : i64} : (tensor<2x2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u10 = tensor.cast %r10 : tensor<2x3xi32> to tensor<*xi32>
  call @print_i32(%u10) : (tensor<*xi32>) -> ()

  // GatherElements-6 example 3 (axis = 0, shorter indices).
  // CHECK: {{\[}}[4,   2,   6],
  // CHECK-NEXT: [4,   8,   3]]
  %g3 = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %gi3 = arith.constant dense<[[1, 0, 1], [1, 2, 0]]> : tensor<2x3xi32>
  %r11 = gather.gather_elements %g3[%gi3] : (tensor<3x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %u11 = tensor.cast %r11 : tensor<2x3xi32> to tensor<*xi32>
  call @print_i32(%u11) : (tensor<*xi32>) -> ()

  // torch.gather(input=[[1, 2], [3, 4]], dim=1, index=[[0, 1], [1, 0]]).
  // CHECK: {{\[}}[1,   2],
  // CHECK-NEXT: [4,   3]]
  %ti = arith.constant dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>
  %r12 = gather.gather_elements %g[%ti] {axis = 1 : i64} : (tensor<2x2xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  %u12 = tensor.cast %r12 : tensor<2x2xi32> to tensor<*xi32>
  call @print_i32(%u12) : (tensor<*xi32>) -> ()

  // tf.keras.backend.gather with [0], [1] and [0, 1, 0].
  // CHECK: {{\[}}[1,   2,   3]]
  // CHECK: {{\[}}[4,   5,   6]]
  // CHECK: {{\[}}[1,   2,   3],
  // CHECK-NEXT: [4,   5,   6],
  // CHECK-NEXT: [1,   2,   3]]
  %k = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %k0 = arith.constant dense<[0]> : tensor<1xi32>
  %k1 = arith.constant dense<[1]> : tensor<1xi32>
  %k2 = arith.constant dense<[0, 1, 0]> : tensor<3xi32>
  %r13 = gather.gather %k[%k0] : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<1x3xf32>
  %r14 = gather.gather %k[%k1] : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<1x3xf32>
  %r15 = gather.gather %k[%k2] : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<3x3xf32>
  %u13 = tensor.cast %r13 : tensor<1x3xf32> to tensor<*xf32>
  %u14 = tensor.cast %r14 : tensor<1x3xf32> to tensor<*xf32>
  %u15 = tensor.cast %r15 : tensor<3x3xf32> to tensor<*xf32>
  call @print_f32(%u13) : (tensor<*xf32>) -> ()
  call @print_f32(%u14) : (tensor<*xf32>) -> ()
  call @print_f32(%u15) : (tensor<*xf32>) -> ()
  return
}
