// RUN: gather-opt %s --gather-to-llvm > %t.mlir
// RUN: %mlir_run -e main %t.mlir | FileCheck %s
// RUN: not %mlir_run -e check_255 %t.mlir 2>&1 | FileCheck %s --check-prefix=ERROR

/// Unsigned indices widened by arith.extui keep their values when the
/// kernel reads them narrow: 255 as i8 is 255, never -1.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @gather_u8(%d: tensor<10xf32>, %i: tensor<4xi8>, %mode: index) -> tensor<4xf32> {
  %w = arith.extui %i : tensor<4xi8> to tensor<4xi64>
  %c0 = arith.constant 0 : index
  %is_wrap = arith.cmpi eq, %mode, %c0 : index
  %r = scf.if %is_wrap -> tensor<4xf32> {
    %g = gather.gather %d[%w] {mode = #gather<mode wrap>} : (tensor<10xf32>, tensor<4xi64>) -> tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  } else {
    %g = gather.gather %d[%w] {mode = #gather<mode clamp>} : (tensor<10xf32>, tensor<4xi64>) -> tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @gather_u8_check(%d: tensor<10xf32>, %i: tensor<4xi8>) -> tensor<4xf32> {
  %w = arith.extui %i : tensor<4xi8> to tensor<4xi64>
  %g = gather.gather %d[%w] : (tensor<10xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

func.func @main() {
  %d = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<10xf32>
  // 255 (-1 as a signed i8), 200, 9 and 0.
  %i = arith.constant dense<[-1, -56, 9, 0]> : tensor<4xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // wrap: 255 mod 10, 200 mod 10 (a signed read would give 9 and 4).
  // CHECK: [5,  0,  9,  0]
  %wrap = call @gather_u8(%d, %i, %c0) : (tensor<10xf32>, tensor<4xi8>, index) -> tensor<4xf32>
  %u0 = tensor.cast %wrap : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  // clamp: both past the end (a signed read would give 9 and 0).
  // CHECK: [9,  9,  9,  0]
  %clamp = call @gather_u8(%d, %i, %c1) : (tensor<10xf32>, tensor<4xi8>, index) -> tensor<4xf32>
  %u1 = tensor.cast %clamp : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  return
}

// ERROR: index 255 is out of range [-10, 9] for data dimension 0 of size 10
func.func @check_255() {
  %d = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<10xf32>
  %i = arith.constant dense<[0, -1, 1, 2]> : tensor<4xi8>
  %g = call @gather_u8_check(%d, %i) : (tensor<10xf32>, tensor<4xi8>) -> tensor<4xf32>
  %u = tensor.cast %g : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
