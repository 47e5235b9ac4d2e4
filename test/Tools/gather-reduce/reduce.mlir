// gather-reduce shrinks a module to what an interestingness script needs:
// here only the gather_nd and the function around it survive. (The reducer
// reports the invalid candidates it tries on stderr.)

// RUN: gather-reduce %s -reduction-tree='traversal-mode=0 test=/bin/sh test-arg=%S/keeps-gather-nd.sh' | FileCheck %s

// CHECK-NOT: @unrelated
// CHECK: func.func @nd
// CHECK-NEXT: gather.gather_nd
// CHECK-NEXT: return
// CHECK-NOT: gather.

func.func @unrelated(%d: tensor<2x2xi32>, %i: tensor<2x2xi64>) -> tensor<2x2xi32> {
  %b = gather.gather_elements %d[%i] {axis = 0 : i64} : (tensor<2x2xi32>, tensor<2x2xi64>) -> tensor<2x2xi32>
  return %b : tensor<2x2xi32>
}

func.func @nd(%d: tensor<2x2xf32>, %i: tensor<2x2xi64>, %x: tensor<5xf32>, %j: tensor<3xi32>) -> tensor<2xf32> {
  %a = gather.gather %x[%j] {mode = #gather<mode fill>} : (tensor<5xf32>, tensor<3xi32>) -> tensor<3xf32>
  %c = gather.gather_nd %d[%i] {batch_dims = 0 : i64} : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2xf32>
  return %c : tensor<2xf32>
}
