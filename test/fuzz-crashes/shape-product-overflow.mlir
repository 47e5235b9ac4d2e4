// gather-fuzz finding (UBSan): GatherShapes.cpp staticProduct multiplies static
// dims in int64_t without an overflow check; two dims of 2^32 overflow it while
// the verifier runs (at parse time). Reproduce with a sanitizer build:
//   ASAN_OPTIONS=allow_user_poisoning=0 build-asan/bin/gather-opt THIS_FILE
// Also crashes gather-fuzz (build-fuzz/bin/gather-fuzz THIS_FILE).
// signature: GatherShapes.cpp:55:15: runtime error: signed integer overflow
func.func @f(%d: tensor<2xf32>, %i: tensor<4294967296x4294967296xi64>) {
  %0 = gather.gather %d[%i] : (tensor<2xf32>, tensor<4294967296x4294967296xi64>) -> tensor<4294967296x4294967296xf32>
  return
}
