// RUN: gather-opt %s --gather-dispatch-unranked="max-rank=9" -verify-diagnostics

/// The dispatch has a bounded number of cases.
// expected-error @below {{max-rank must be in [0, 8], got 9}}
module {
  func.func @unranked_data(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
    %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
    return %0 : tensor<*xf32>
  }
}
