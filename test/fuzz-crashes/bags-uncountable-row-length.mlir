// signature: gather-fuzz: pass 'expand-strided-metadata' succeeded but produced IR that does not verify
//
// Open, ours (with upstream's unchecked products): fixed-length bags whose
// ids have a static row length no memory holds (9223372036854775807) and a
// dynamic bag count. convert-embedding-bag-to-scf collapses the [bags, n]
// ids into one run of ? ids; once the bag count is known (6 here, after
// tiling the producer of the ids and fusing the bag into its loop), the
// collapsed size folds to 6 * 9223372036854775807, which wraps, and
// expand-strided-metadata makes a memref.reinterpret_cast of size -6: IR
// that does not verify. Untiled, a slice of ids
// tensor<6x9223372036854775807xi64> to tensor<?x9223372036854775807xi64>
// fails the same way in canonicalize. hasCountableShapes counts static
// dims only, so it lets a ? beside such a row pass. Found by gather-fuzz
// (a 5-minute run of 2026-11-29, the first to run transform schedules),
// from a consumer-fusion test with its numbers swapped for INT64_MAX.
func.func @fixed_bags(%t: tensor<5x3xf32>, %x: tensor<6x9223372036854775807xi64>, %w: tensor<6x9223372036854775807xf32>) -> tensor<6x3xf32> {
  %e = tensor.empty() : tensor<6x9223372036854775807xi64>
  %ids = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x9223372036854775807xi64>) outs(%e : tensor<6x9223372036854775807xi64>) {
  ^bb0(%a: i64, %o: i64):
    %c1 = arith.constant 1 : i64
    %b = arith.addi %a, %c1 : i64
    linalg.yield %b : i64
  } -> tensor<6x9223372036854775807xi64>
  %r = gather.embedding_bag %t[%ids] per_sample_weights(%w) {reduction = #gather<reduction sum>} : (tensor<5x3xf32>, tensor<6x9223372036854775807xi64>, tensor<6x9223372036854775807xf32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["gather.embedding_bag"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_forall %p tile_sizes [9223372036854775807, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %l = transform.gather.fuse_consumer_into_loop %g into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
