//===- EmbeddingBags.h - gather_mlir's embedding bags, natively -*- C++ -*-===//

#ifndef GATHER_PYTHON_EMBEDDINGBAGS_H
#define GATHER_PYTHON_EMBEDDINGBAGS_H

#include <pybind11/pybind11.h>

namespace mlir::gather::python {

/// Adds embedding_bag and gather_block_quantized (the arguments' rules, the
/// kernel, the call behind gather_mlir.embedding_bag,
/// embedding_bag_rowwise_quantized and gather_block_quantized) to `m`.
void bindEmbeddingBags(pybind11::module_ &m);

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_EMBEDDINGBAGS_H
