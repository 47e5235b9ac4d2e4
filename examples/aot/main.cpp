//===- main.cpp - Call an ahead-of-time compiled gather kernel --*- C++ -*-===//
//
// Links against embedding.mlir compiled by
//   gather-opt --gather-to-llvm | mlir-translate --mlir-to-llvmir | clang -c
// and calls it through its C interface (StridedMemRefType descriptors).
//
// It also defines gather_mlir_index_error itself: a host that must survive a
// failed `check` takes the error as a status instead of the weak default's
// print-and-exit. It links no library of GatherMLIR's (the formatter is
// header-only).
//
//===----------------------------------------------------------------------===//

#include "gather-c/Runtime.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" void
_mlir_ciface_embedding_lookup(StridedMemRefType<float, 2> *result,
                              StridedMemRefType<float, 2> *table,
                              StridedMemRefType<int64_t, 1> *ids);

static std::string lastError;

extern "C" void gather_mlir_index_error(int64_t op, int64_t dataDim,
                                        int64_t index, int64_t dimSize) {
  char message[256];
  gatherMlirFormatIndexError(message, sizeof(message), op, dataDim, index,
                             dimSize);
  lastError = message;
}

/// Runs the kernel; returns false (with lastError set) on a bad index.
static bool lookup(float *tableData, int64_t rows, int64_t cols,
                   int64_t *idsData, int64_t count) {
  StridedMemRefType<float, 2> table{
      tableData, tableData, 0, {rows, cols}, {cols, 1}};
  StridedMemRefType<int64_t, 1> ids{idsData, idsData, 0, {count}, {1}};
  StridedMemRefType<float, 2> result;
  lastError.clear();
  _mlir_ciface_embedding_lookup(&result, &table, &ids);
  bool ok = lastError.empty();
  if (ok) {
    for (int64_t i = 0; i < result.sizes[0]; ++i) {
      std::printf("row %lld:", static_cast<long long>(i));
      for (int64_t j = 0; j < result.sizes[1]; ++j)
        std::printf(" %g", result.data[result.offset + i * result.strides[0] +
                                       j * result.strides[1]]);
      std::printf("\n");
    }
  }
  std::free(result.basePtr);
  return ok;
}

int main() {
  float table[4 * 3] = {0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32};
  int64_t good[3] = {3, -4, 1};
  if (!lookup(table, 4, 3, good, 3))
    return 1;
  int64_t bad[2] = {1, 7};
  if (lookup(table, 4, 3, bad, 2))
    return 1;
  std::printf("error status: %s\n", lastError.c_str());
  return 0;
}
