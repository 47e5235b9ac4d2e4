// signature: gather-fuzz: pass 'gather-shard-partition' succeeded but produced IR that does not verify
//
// Open, not minimized: found by a 20-minute scripts/fuzz.sh run of
// 2026-11-29 on the merged code (the first long run with transform
// schedules and sharded modules in the fuzzer). Signature seen: gather-fuzz: pass 'gather-shard-partition' succeeded but produced IR that does not verify
shard.grid @grid(shape = 3)

func.func @bag_mean_rows_split(%table: tensor<8x3xf32>, %ids: tensor<6xi64>, %offsets: tensor<3xi64>) -> tensor<3x3xf32> {
  %s = shard.sharding @grid split_axes = [[3]] : !shard.sharding
  %t = shard.shard %table to %s annotate_for_users : tensor<8x3xf32>
  %r = gather.embedding_bag %t[%ids] offsets(%offsets) {padding_idx = 3 : i64} : (tensor<8x3xf32>, tensor<6xi64>, tensor<3xi64>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
