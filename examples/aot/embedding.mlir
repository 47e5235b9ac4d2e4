// An embedding lookup compiled ahead of time: see main.cpp and README.md.
func.func @embedding_lookup(%table: tensor<?x?xf32>, %ids: tensor<?xi64>) -> tensor<?x?xf32> {
  %rows = gather.gather %table[%ids] : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %rows : tensor<?x?xf32>
}
