// RUN: gather-opt %s --gather-to-llvm | FileCheck %s
// RUN: gather-opt %s --gather-to-llvm="parallel=true parallel-min-bytes=1" | FileCheck %s

/// bf16 kernels that round f32 to bf16 (a bag's mean, a scatter's sum, a
/// fused bf16 add): no `llvm.fptrunc` is left, which LLVM would lower to a
/// `__truncsfbf2` call on hosts without AVX-512 BF16, and which libgcc before
/// GCC 13 does not define.
// CHECK-LABEL: llvm.func @bag
// CHECK-NOT: llvm.fptrunc
// CHECK-NOT: llvm.call @__trunc
// CHECK-LABEL: llvm.func @scatter
// CHECK-NOT: llvm.fptrunc
// CHECK-LABEL: llvm.func @fused
// CHECK-NOT: llvm.fptrunc
func.func @bag(%t: tensor<?x?xbf16>, %i: tensor<?xi64>, %o: tensor<?xi64>) -> tensor<?x?xbf16> {
  %r = gather.embedding_bag %t[%i] offsets(%o) {reduction = #gather<reduction mean>} : (tensor<?x?xbf16>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x?xbf16>
  return %r : tensor<?x?xbf16>
}
func.func @scatter(%d: tensor<?x?xbf16>, %i: tensor<?xi64>, %u: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %r = gather.scatter %d[%i], %u {axis = 0 : i64, batch_dims = 0 : i64, mode = #gather<mode check>, reduction = #gather<combine add>} : (tensor<?x?xbf16>, tensor<?xi64>, tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %r : tensor<?x?xbf16>
}
func.func @fused(%t: tensor<?x?xbf16>, %i: tensor<?xi64>) -> tensor<?x?xbf16> {
  %g = gather.gather %t[%i] : (tensor<?x?xbf16>, tensor<?xi64>) -> tensor<?x?xbf16>
  %s = arith.addf %g, %g : tensor<?x?xbf16>
  return %s : tensor<?x?xbf16>
}
