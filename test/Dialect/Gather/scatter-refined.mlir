// RUN: not gather-opt %s --canonicalize 2>&1 | FileCheck %s

// A scatter whose run-time rule must fail (clamp into a dest that is empty
// when it runs) becomes a verifier error once canonicalization folds the
// cast into it, as upstream's linalg ops do: the error is reported when the
// module is compiled instead of when it runs, with the rule's message.
// CHECK: error: 'gather.scatter' op data dimension 0 has size 0, so none of the 1 indices is valid in mode 'clamp' (use 'fill')
func.func @empty_dest(%i: tensor<1xi64>, %u: tensor<1x2xf32>) -> tensor<?x2xf32> {
  %e = tensor.empty() : tensor<0x2xf32>
  %d = tensor.cast %e : tensor<0x2xf32> to tensor<?x2xf32>
  %r = gather.scatter %d[%i], %u {mode = #gather<mode clamp>} : (tensor<?x2xf32>, tensor<1xi64>, tensor<1x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
