// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=0" | %run_main_omp | FileCheck %s
// RUN: gather-opt %s --convert-gather-to-linalg | %upstream_to_llvm | %run_main | FileCheck %s
/// Bufferized first (the scatters' One-Shot Bufferize model: their loops on
/// the buffers), then lowered by upstream's passes.
// RUN: gather-opt %s --convert-elementwise-to-linalg --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | %upstream_to_llvm | gather-opt --gather-define-error-handlers | %run_main | FileCheck %s

// The scatters in every reduction and mode, with duplicate and out-of-range
// indices, on static and dynamic shapes, through both lowerings. The
// expected values are worked by hand from docs/Semantics.md (and ONNX's
// examples where named).

func.func private @printMemrefI32(tensor<*xi32>)
func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<*xi32>) {
  call @printMemrefI32(%t) : (tensor<*xi32>) -> ()
  return
}

func.func @printf(%t: tensor<*xf32>) {
  call @printMemrefF32(%t) : (tensor<*xf32>) -> ()
  return
}

/// Dynamic shapes: the same scatter, its sizes known only at run time.
func.func @add_dynamic(%d: tensor<?x?xi32>, %i: tensor<?xi64>, %u: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %r = gather.scatter %d[%i], %u {axis = 1 : i64, reduction = #gather<combine add>} : (tensor<?x?xi32>, tensor<?xi64>, tensor<?x?xi32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}

func.func @main() {
  // index_add along axis 1 with a duplicate index.
  // CHECK: {{\[}}[0,   4,   0,   0,   2],
  // CHECK-NEXT: [0,   10,   0,   0,   5]]
  %z = arith.constant dense<0> : tensor<2x5xi32>
  %i = arith.constant dense<[1, 4, 1]> : tensor<3xi64>
  %u = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %a = gather.scatter %z[%i], %u {axis = 1 : i64, reduction = #gather<combine add>} : (tensor<2x5xi32>, tensor<3xi64>, tensor<2x3xi32>) -> tensor<2x5xi32>
  %a0 = tensor.cast %a : tensor<2x5xi32> to tensor<*xi32>
  call @print(%a0) : (tensor<*xi32>) -> ()

  // The same through dynamic shapes.
  // CHECK: {{\[}}[0,   4,   0,   0,   2],
  // CHECK-NEXT: [0,   10,   0,   0,   5]]
  %zd = tensor.cast %z : tensor<2x5xi32> to tensor<?x?xi32>
  %id = tensor.cast %i : tensor<3xi64> to tensor<?xi64>
  %ud = tensor.cast %u : tensor<2x3xi32> to tensor<?x?xi32>
  %ad = call @add_dynamic(%zd, %id, %ud) : (tensor<?x?xi32>, tensor<?xi64>, tensor<?x?xi32>) -> tensor<?x?xi32>
  %ad0 = tensor.cast %ad : tensor<?x?xi32> to tensor<*xi32>
  call @print(%ad0) : (tensor<*xi32>) -> ()

  // none: the last update of an element wins; -1 is the last element.
  // CHECK: [30,  2,  20,  4,  40]
  %v = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %ni = arith.constant dense<[0, 2, 0, -1]> : tensor<4xi32>
  %nu = arith.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %n = gather.scatter %v[%ni], %nu : (tensor<5xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<5xi32>
  %n0 = tensor.cast %n : tensor<5xi32> to tensor<*xi32>
  call @print(%n0) : (tensor<*xi32>) -> ()

  // Out-of-range indices: fill drops them, clamp and wrap combine into the
  // element their gather reads.
  // CHECK: [0,  0,  0,  0,  4]
  // CHECK: [1,  0,  0,  0,  9]
  // CHECK: [2,  0,  3,  1,  4]
  %z5 = arith.constant dense<0> : tensor<5xi32>
  %oi = arith.constant dense<[-7, 5, 12, -1]> : tensor<4xi64>
  %ou = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %f = gather.scatter %z5[%oi], %ou {mode = #gather<mode fill>, reduction = #gather<combine add>} : (tensor<5xi32>, tensor<4xi64>, tensor<4xi32>) -> tensor<5xi32>
  %f0 = tensor.cast %f : tensor<5xi32> to tensor<*xi32>
  call @print(%f0) : (tensor<*xi32>) -> ()
  %c = gather.scatter %z5[%oi], %ou {mode = #gather<mode clamp>, reduction = #gather<combine add>} : (tensor<5xi32>, tensor<4xi64>, tensor<4xi32>) -> tensor<5xi32>
  %c0 = tensor.cast %c : tensor<5xi32> to tensor<*xi32>
  call @print(%c0) : (tensor<*xi32>) -> ()
  %w = gather.scatter %z5[%oi], %ou {mode = #gather<mode wrap>, reduction = #gather<combine add>} : (tensor<5xi32>, tensor<4xi64>, tensor<4xi32>) -> tensor<5xi32>
  %w0 = tensor.cast %w : tensor<5xi32> to tensor<*xi32>
  call @print(%w0) : (tensor<*xi32>) -> ()

  // mul, max and min with a duplicate.
  // CHECK: [30,  2,  -2]
  // CHECK: [5,  2,  2]
  // CHECK: [2,  2,  -1]
  %t = arith.constant dense<2> : tensor<3xi32>
  %ti = arith.constant dense<[0, 0, 2]> : tensor<3xi64>
  %tu = arith.constant dense<[3, 5, -1]> : tensor<3xi32>
  %mul = gather.scatter %t[%ti], %tu {reduction = #gather<combine mul>} : (tensor<3xi32>, tensor<3xi64>, tensor<3xi32>) -> tensor<3xi32>
  %mul0 = tensor.cast %mul : tensor<3xi32> to tensor<*xi32>
  call @print(%mul0) : (tensor<*xi32>) -> ()
  %max = gather.scatter %t[%ti], %tu {reduction = #gather<combine max>} : (tensor<3xi32>, tensor<3xi64>, tensor<3xi32>) -> tensor<3xi32>
  %max0 = tensor.cast %max : tensor<3xi32> to tensor<*xi32>
  call @print(%max0) : (tensor<*xi32>) -> ()
  %min = gather.scatter %t[%ti], %tu {reduction = #gather<combine min>} : (tensor<3xi32>, tensor<3xi64>, tensor<3xi32>) -> tensor<3xi32>
  %min0 = tensor.cast %min : tensor<3xi32> to tensor<*xi32>
  call @print(%min0) : (tensor<*xi32>) -> ()

  // batch_dims = 1: each row of indices selects in its own row of dest.
  // CHECK: {{\[}}[3,   0,   0,   0,   3],
  // CHECK-NEXT: [11,   0,   0,   0,   4]]
  %bi = arith.constant dense<[[0, 0, 4], [4, 0, 0]]> : tensor<2x3xi32>
  %b = gather.scatter %z[%bi], %u {axis = 1 : i64, batch_dims = 1 : i64, reduction = #gather<combine add>} : (tensor<2x5xi32>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x5xi32>
  %b0 = tensor.cast %b : tensor<2x5xi32> to tensor<*xi32>
  call @print(%b0) : (tensor<*xi32>) -> ()

  // ONNX ScatterElements, example 1 (axis 0, none).
  // CHECK: {{\[}}[2,   1.1,   0],
  // CHECK-NEXT: [1,   0,   2.2],
  // CHECK-NEXT: [0,   2.1,   1.2]]
  %ez = arith.constant dense<0.0> : tensor<3x3xf32>
  %ei = arith.constant dense<[[1, 0, 2], [0, 2, 1]]> : tensor<2x3xi64>
  %eu = arith.constant dense<[[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]]> : tensor<2x3xf32>
  %e = gather.scatter_elements %ez[%ei], %eu : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %e0 = tensor.cast %e : tensor<3x3xf32> to tensor<*xf32>
  call @printf(%e0) : (tensor<*xf32>) -> ()

  // ONNX ScatterElements with max and a duplicate (axis 1).
  // CHECK: {{\[}}[1,   2.1,   3,   4,   5]]
  %md = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<1x5xf32>
  %mi = arith.constant dense<[[1, 1]]> : tensor<1x2xi64>
  %mu = arith.constant dense<[[1.1, 2.1]]> : tensor<1x2xf32>
  %m = gather.scatter_elements %md[%mi], %mu {axis = 1 : i64, reduction = #gather<combine max>} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
  %m0 = tensor.cast %m : tensor<1x5xf32> to tensor<*xf32>
  call @printf(%m0) : (tensor<*xf32>) -> ()

  // ONNX ScatterND, example 1 (none), and add with a duplicate tuple.
  // CHECK: [1,  11,  3,  10,  9,  6,  7,  12]
  %nd = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %ndi = arith.constant dense<[[4], [3], [1], [7]]> : tensor<4x1xi64>
  %ndu = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
  %s = gather.scatter_nd %nd[%ndi], %ndu : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>
  %s0 = tensor.cast %s : tensor<8xf32> to tensor<*xf32>
  call @printf(%s0) : (tensor<*xf32>) -> ()
  // CHECK: {{\[}}[0,   5,   0,   0],
  // CHECK-NEXT: [0,   0,   0,   0],
  // CHECK-NEXT: [0,   0,   0,   0],
  // CHECK-NEXT: [0,   0,   0,   2]]
  %z44 = arith.constant dense<0.0> : tensor<4x4xf32>
  %pi = arith.constant dense<[[0, 1], [3, 3], [0, 1]]> : tensor<3x2xi64>
  %pu = arith.constant dense<[1.0, 2.0, 4.0]> : tensor<3xf32>
  %p = gather.scatter_nd %z44[%pi], %pu {reduction = #gather<combine add>} : (tensor<4x4xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<4x4xf32>
  %p0 = tensor.cast %p : tensor<4x4xf32> to tensor<*xf32>
  call @printf(%p0) : (tensor<*xf32>) -> ()

  /// f16 and bf16 sums combine in f32 and round once: four ones added to
  /// 2048 (f16) and to 256 (bf16), where each type's spacing is 2, give
  /// 2052 and 260 (a sum rounded after each add would stay put).
  // CHECK: [2052,  1]
  // CHECK: [260,  1]
  %h = arith.constant dense<[2048.0, 1.0]> : tensor<2xf16>
  %hi = arith.constant dense<[0, 0, 0, 0]> : tensor<4xi64>
  %hu = arith.constant dense<1.0> : tensor<4xf16>
  %hs = gather.scatter %h[%hi], %hu {reduction = #gather<combine add>} : (tensor<2xf16>, tensor<4xi64>, tensor<4xf16>) -> tensor<2xf16>
  %hf = arith.extf %hs : tensor<2xf16> to tensor<2xf32>
  %hf0 = tensor.cast %hf : tensor<2xf32> to tensor<*xf32>
  call @printf(%hf0) : (tensor<*xf32>) -> ()
  %g = arith.constant dense<[256.0, 1.0]> : tensor<2xbf16>
  %gu = arith.constant dense<1.0> : tensor<4xbf16>
  %gs = gather.scatter %g[%hi], %gu {reduction = #gather<combine add>} : (tensor<2xbf16>, tensor<4xi64>, tensor<4xbf16>) -> tensor<2xbf16>
  %gf = arith.extf %gs : tensor<2xbf16> to tensor<2xf32>
  %gf0 = tensor.cast %gf : tensor<2xf32> to tensor<*xf32>
  call @printf(%gf0) : (tensor<*xf32>) -> ()
  return
}
