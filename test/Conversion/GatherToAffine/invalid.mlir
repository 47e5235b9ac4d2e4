// RUN: gather-opt %s --convert-gather-to-affine --split-input-file -verify-diagnostics

/// A loop nest needs known ranks: the op is left alone and the pass fails
/// with a diagnostic, never a crash.
func.func @unranked_data(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{failed to legalize operation 'gather.gather'}}
  %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
