// RUN: gather-opt %s --one-shot-bufferize --split-input-file -verify-diagnostics

/// A buffer needs a known rank: bufferization fails with a diagnostic, never
/// a crash.
func.func @unranked_result(%d: tensor<*xf32>, %i: tensor<3xi32>) -> tensor<*xf32> {
  // expected-error @+2 {{'gather.gather' op cannot bufferize: the result rank is not known}}
  // expected-error @+1 {{failed to bufferize op}}
  %0 = gather.gather %d[%i] : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
