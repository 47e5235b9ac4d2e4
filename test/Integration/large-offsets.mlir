// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s

// Offsets past 2^31 and 2^32 elements: index arithmetic is 64-bit. The
// buffers are allocated but only the touched pages become memory.

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v42 = arith.constant 42 : i8
  %v7 = arith.constant 7 : i8
  %v9 = arith.constant 9 : i8

  // 1-D, 2^31 + 16 elements; gather index 2^31 + 5 and -11 (the same one).
  // CHECK: 42
  // CHECK-NEXT: 42
  %big = tensor.empty() : tensor<2147483664xi8>
  %pos = arith.constant 2147483653 : index
  %b = tensor.insert %v42 into %big[%pos] : tensor<2147483664xi8>
  %i = arith.constant dense<[2147483653, -11]> : tensor<2xi64>
  %r = gather.gather %b[%i] : (tensor<2147483664xi8>, tensor<2xi64>) -> tensor<2xi8>
  %r0 = tensor.extract %r[%c0] : tensor<2xi8>
  %r1 = tensor.extract %r[%c1] : tensor<2xi8>
  vector.print %r0 : i8
  vector.print %r1 : i8

  // 2-D, row 65535 of 65600-byte rows starts past 2^32 bytes.
  // CHECK-NEXT: 7
  // CHECK-NEXT: 9
  %m = tensor.empty() : tensor<65536x65600xi8>
  %row = arith.constant 65535 : index
  %last = arith.constant 65599 : index
  %m1 = tensor.insert %v7 into %m[%row, %c0] : tensor<65536x65600xi8>
  %m2 = tensor.insert %v9 into %m1[%row, %last] : tensor<65536x65600xi8>
  %j = arith.constant dense<[-1]> : tensor<1xi32>
  %g = gather.gather %m2[%j] : (tensor<65536x65600xi8>, tensor<1xi32>) -> tensor<1x65600xi8>
  %g0 = tensor.extract %g[%c0, %c0] : tensor<1x65600xi8>
  %g1 = tensor.extract %g[%c0, %last] : tensor<1x65600xi8>
  vector.print %g0 : i8
  vector.print %g1 : i8
  return
}
