// The unsharded module of run.sh: an embedding lookup and a sum embedding
// bag on one table. run.sh substitutes the sizes (@ROWS@, @DIM@, ...).
func.func @lookup(%table: tensor<@ROWS@x@DIM@xf32>, %ids: tensor<@LOOKUPS@xi64>) -> tensor<@LOOKUPS@x@DIM@xf32> {
  %r = gather.gather %table[%ids] {axis = 0 : i64} : (tensor<@ROWS@x@DIM@xf32>, tensor<@LOOKUPS@xi64>) -> tensor<@LOOKUPS@x@DIM@xf32>
  return %r : tensor<@LOOKUPS@x@DIM@xf32>
}

func.func @bag(%table: tensor<@ROWS@x@DIM@xf32>, %ids: tensor<@BAG_IDS@xi64>, %offsets: tensor<@BAGS@xi64>) -> tensor<@BAGS@x@DIM@xf32> {
  %r = gather.embedding_bag %table[%ids] offsets(%offsets) {reduction = #gather<reduction sum>} : (tensor<@ROWS@x@DIM@xf32>, tensor<@BAG_IDS@xi64>, tensor<@BAGS@xi64>) -> tensor<@BAGS@x@DIM@xf32>
  return %r : tensor<@BAGS@x@DIM@xf32>
}
