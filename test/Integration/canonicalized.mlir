// RUN: gather-opt %s --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --canonicalize --gather-to-llvm | %run_main | FileCheck %s
// RUN: gather-opt %s --canonicalize | FileCheck %s --check-prefix=FOLDED

// The folded and canonicalized forms compute what the original gathers do
// (the pipeline lowers the gathers before its own canonicalization).

// FOLDED-LABEL: func.func @slices
// FOLDED-NOT: gather.
// FOLDED: tensor.extract_slice
// FOLDED: tensor.extract_slice
// FOLDED: tensor.extract_slice
// FOLDED: tensor.expand_shape
// FOLDED-NOT: gather.
// FOLDED: return
// FOLDED-LABEL: func.func @main
// FOLDED-NOT: gather.
// FOLDED: return

func.func private @printMemrefI32(tensor<*xi32>)

func.func @compose(%d: tensor<6x2xi32>, %i1: tensor<4xi32>, %i2: tensor<3xi64>) -> tensor<3x2xi32> {
  %0 = gather.gather %d[%i1] {mode = #gather<mode wrap>} : (tensor<6x2xi32>, tensor<4xi32>) -> tensor<4x2xi32>
  %1 = gather.gather %0[%i2] : (tensor<4x2xi32>, tensor<3xi64>) -> tensor<3x2xi32>
  return %1 : tensor<3x2xi32>
}

func.func @relax(%d: tensor<8xi32>, %x: tensor<4xi32>) -> tensor<4xi32> {
  %c7 = arith.constant dense<7> : tensor<4xi32>
  %i = arith.andi %x, %c7 : tensor<4xi32>
  %0 = gather.gather %d[%i] : (tensor<8xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

func.func @slices(%m: tensor<2x5xi32>) -> (tensor<2x3xi32>, tensor<5xi32>, tensor<2x2x2xi32>) {
  %run = arith.constant dense<[2, 3, -1]> : tensor<3xi32>
  %s = gather.gather %m[%run] {axis = 1 : i64} : (tensor<2x5xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %last = arith.constant dense<-1> : tensor<i64>
  %row = gather.gather %m[%last] : (tensor<2x5xi32>, tensor<i64>) -> tensor<5xi32>
  %block = arith.constant dense<[[1, 2], [3, -1]]> : tensor<2x2xi64>
  %sq = gather.gather %m[%block] {axis = 1 : i64} : (tensor<2x5xi32>, tensor<2x2xi64>) -> tensor<2x2x2xi32>
  return %s, %row, %sq : tensor<2x3xi32>, tensor<5xi32>, tensor<2x2x2xi32>
}

func.func @main() {
  %v = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>

  // CHECK: [4,  0,  0]
  %oob = arith.constant dense<[3, 10, -20]> : tensor<3xi64>
  %f = gather.gather %v[%oob] {mode = #gather<mode fill>} : (tensor<5xi32>, tensor<3xi64>) -> tensor<3xi32>
  %uf = tensor.cast %f : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%uf) : (tensor<*xi32>) -> ()

  // CHECK: [1,  2,  3,  4,  5]
  %iota = arith.constant dense<[0, 1, 2, -2, 4]> : tensor<5xi32>
  %id = gather.gather %v[%iota] : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %uid = tensor.cast %id : tensor<5xi32> to tensor<*xi32>
  call @printMemrefI32(%uid) : (tensor<*xi32>) -> ()

  // CHECK: {{\[}}[12,   13,   14],
  // CHECK-NEXT: [22,   23,   24]]
  %m = arith.constant dense<[[10, 11, 12, 13, 14], [20, 21, 22, 23, 24]]> : tensor<2x5xi32>
  %s, %row, %sq = call @slices(%m) : (tensor<2x5xi32>) -> (tensor<2x3xi32>, tensor<5xi32>, tensor<2x2x2xi32>)
  %us = tensor.cast %s : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%us) : (tensor<*xi32>) -> ()

  // CHECK: [20,  21,  22,  23,  24]
  // CHECK: {{\[}}{{\[}}[11,    12],
  // CHECK-NEXT: [13,    14]],
  // CHECK-NEXT: {{\[}}[21,    22],
  // CHECK-NEXT: [23,    24]]]
  %ur = tensor.cast %row : tensor<5xi32> to tensor<*xi32>
  call @printMemrefI32(%ur) : (tensor<*xi32>) -> ()
  %usq = tensor.cast %sq : tensor<2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%usq) : (tensor<*xi32>) -> ()

  // wrap(7) = 1, wrap(-1) = 5; then rows [3, 0, 1] of those.
  // CHECK: {{\[}}[4,   5],
  // CHECK-NEXT: [2,   3],
  // CHECK-NEXT: [10,   11]]
  %d = arith.constant dense<[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11]]> : tensor<6x2xi32>
  %i1 = arith.constant dense<[7, 0, -1, 2]> : tensor<4xi32>
  %i2 = arith.constant dense<[3, 0, -2]> : tensor<3xi64>
  %c = call @compose(%d, %i1, %i2) : (tensor<6x2xi32>, tensor<4xi32>, tensor<3xi64>) -> tensor<3x2xi32>
  %uc = tensor.cast %c : tensor<3x2xi32> to tensor<*xi32>
  call @printMemrefI32(%uc) : (tensor<*xi32>) -> ()

  // CHECK: [17,  10,  15,  12]
  %t = arith.constant dense<[10, 11, 12, 13, 14, 15, 16, 17]> : tensor<8xi32>
  %x = arith.constant dense<[15, 8, -3, 2]> : tensor<4xi32>
  %r = call @relax(%t, %x) : (tensor<8xi32>, tensor<4xi32>) -> tensor<4xi32>
  %ux = tensor.cast %r : tensor<4xi32> to tensor<*xi32>
  call @printMemrefI32(%ux) : (tensor<*xi32>) -> ()
  return
}
