//===- gather-jit.cpp - A host that JIT-compiles and calls gathers --------===//
//
// What a C++ host does with GatherMLIR's runtime library: asks the host's
// policy for the kernel of a call (KernelPolicy.h), gets it from the kernel
// cache (in memory, on disk under $GATHER_MLIR_CACHE_DIR or
// ~/.cache/gather_mlir, else compiled for this CPU), and calls it on memref
// descriptors, recording the error a call reports instead of exiting.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "gather/Runtime/KernelCache.h"
#include "gather/Runtime/KernelCall.h"
#include "gather/Runtime/KernelPolicy.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::runtime;

/// gather(table, ids, axis=0) in `mode` into `result` (2x3): the call's
/// kernel, then the call. Returns the error the kernel reported.
static KernelErrorRecord gatherRows(const float (&table)[4][3],
                                    const int64_t (&ids)[2], GatherMode mode,
                                    float (&result)[2][3]) {
  int64_t tableShape[] = {4, 3}, idsShape[] = {2};
  ShapeView tableView(tableShape), idsView(idsShape);
  auto emitError = [](const llvm::Twine &message) {
    llvm::errs() << message << "\n";
    return failure();
  };
  FailureOr<GatherShape> shape = inferGatherShape(
      tableView, idsView, /*axis=*/0, /*batchDims=*/0, mode, emitError);
  if (failed(shape))
    std::exit(1);
  SmallVector<int64_t> resultShape = shape->getStaticShape(tableView, idsView);

  GatherCall call(tableView, idsView);
  call.op = OpKind::Gather;
  call.mode = mode;
  call.dataElementBytes = sizeof(float);
  call.indexElementBytes = sizeof(int64_t);
  call.shape = &*shape;
  call.resultShape = resultShape;
  GatherKernelChoice choice = chooseGatherKernel(call);
  llvm::Expected<KernelFn> kernel = KernelCache::get().lookup(choice.key);
  if (!kernel) {
    llvm::errs() << llvm::toString(kernel.takeError()) << "\n";
    std::exit(1);
  }

  // Kernels move data as integers of its width.
  auto *tableBits =
      reinterpret_cast<int32_t *>(const_cast<float *>(&table[0][0]));
  auto *resultBits = reinterpret_cast<int32_t *>(&result[0][0]);
  auto *idsData = const_cast<int64_t *>(ids);
  StridedMemRefType<int32_t, 2> tableRef{
      tableBits, tableBits, 0, {4, 3}, {3, 1}};
  StridedMemRefType<int64_t, 1> idsRef{idsData, idsData, 0, {2}, {1}};
  StridedMemRefType<int32_t, 2> resultRef{
      resultBits, resultBits, 0, {2, 3}, {3, 1}};
  KernelCall record(/*threaded=*/false,
                    /*openMP=*/choice.key.flags & KernelKey::Parallel);
  (*kernel)(&tableRef, &idsRef, &resultRef);
  return record.take();
}

int main() {
  const float table[4][3] = {
      {0, 1, 2}, {10, 11, 12}, {20, 21, 22}, {30, 31, 32}};
  float result[2][3] = {};

  const int64_t ids[2] = {3, -1};
  gatherRows(table, ids, GatherMode::clamp, result);
  llvm::outs() << "clamp:";
  for (auto &row : result)
    for (float v : row)
      llvm::outs() << " " << llvm::format("%g", v);
  llvm::outs() << "\n";

  const int64_t badIds[2] = {1, 7};
  KernelErrorRecord error =
      gatherRows(table, badIds, GatherMode::check, result);
  llvm::outs() << "check: " << error.message() << "\n";

  KernelCache &cache = KernelCache::get();
  llvm::outs() << "kernels: " << cache.compiled << " compiled, " << cache.loaded
               << " loaded\n";
  return 0;
}
