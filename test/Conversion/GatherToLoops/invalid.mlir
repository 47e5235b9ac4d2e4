// RUN: gather-opt %s --convert-gather-to-loops --split-input-file -verify-diagnostics

/// Loop nests need ranks: unranked operands are gather-dispatch-unranked's.
func.func @unranked_data(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  // expected-error @below {{has unranked operands: convert-gather-to-loops needs ranked operands (run gather-dispatch-unranked first)}}
  %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
