//===- KernelKey.h - What tells gather kernels apart ------------*- C++ -*-===//
//
// A gather kernel is a gather op in a destination-passing function
// `@kernel(data, indices, result)` over memrefs; what its MLIR depends on
// (op, widths, ranks, attributes, layouts, threads; no shape but a short
// row's length) is its KernelKey, by which KernelCache finds it in memory
// and on disk.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_KERNELKEY_H
#define GATHER_RUNTIME_KERNELKEY_H

#include "gather/Dialect/Gather/IR/GatherShapes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace mlir::gather::runtime {

/// Which gather op a kernel runs.
enum class OpKind : uint8_t { Gather, Elements, ND };

/// The op's name without the dialect: `gather`, `gather_elements`,
/// `gather_nd`.
inline const char *opName(OpKind k) {
  switch (k) {
  case OpKind::Gather:
    return "gather";
  case OpKind::Elements:
    return "gather_elements";
  case OpKind::ND:
    return "gather_nd";
  }
  return "gather";
}

/// The op that opName names (`gather` for any other name).
inline OpKind opKindNamed(llvm::StringRef name) {
  return name == "gather_elements" ? OpKind::Elements
         : name == "gather_nd"     ? OpKind::ND
                                   : OpKind::Gather;
}

/// The shape rules of op `k` (inferGatherShape & co.; `batchDims` is
/// ignored by gather_elements, `axis` by gather_nd).
FailureOr<GatherShape> inferShapeOf(OpKind k, ShapeView data, ShapeView indices,
                                    int64_t axis, int64_t batchDims,
                                    GatherMode mode, ShapeErrorFn emitError);

/// A gather kernel: the C interface of `@kernel`, which takes pointers to
/// the memref descriptors of data, indices and the result
/// (StridedMemRefType in mlir/ExecutionEngine/CRunnerUtils.h; data moves as
/// integers of its width).
using KernelFn = void (*)(void *, void *, void *);

/// What tells kernels apart: everything their MLIR depends on (normalized
/// attributes, element widths, ranks, mode, layouts, threads, row
/// validation), and no shape but the length of short data rows. Plain
/// bytes, compared and hashed as two words.
struct KernelKey {
  enum Flags : uint8_t {
    /// The kernel writes a result array of its own (not the caller's out),
    /// so check mode may check each row of indices as it gathers it: an
    /// IndexError then discards a partly written result, which no one sees.
    ValidateRows = 1,
    StridedData = 2,
    StridedIndices = 4,
    /// The kernel is lowered with parallel=true: results of at least the
    /// lowering's parallel-min-bytes may run on OpenMP threads.
    Parallel = 8,
    /// The kernel may write rows with non-temporal stores (the lowering's
    /// choice for results of at least its streaming-min-bytes); without
    /// it, never (streaming-min-bytes=-1): no streaming copies to compile.
    Streaming = 16,
    /// The indices are unsigned integers narrower than 64 bits: the kernel
    /// widens them with arith.extui, which it reads them through.
    UnsignedIndices = 32,
  };

  OpKind op;
  uint8_t mode, dataBytes, indexBytes, dataRank, indexRank, axis, batchDims;
  /// gather_nd's index tuple length; 0 for the other ops.
  uint8_t tupleSize;
  uint8_t flags;
  /// The length of data's last dim: the result's short rows
  /// (runtime::kStaticRowMaxBytes), or a short last dim
  /// (runtime::kStaticDimMaxLength); 0: any length.
  uint16_t rowLength;
  /// The length of a short last dim of the indices
  /// (runtime::kStaticDimMaxLength; never gather_nd's tuples, which are
  /// static anyway); 0: any length.
  uint8_t indexRowLength;
  /// The size of a short gathered axis of data before its last
  /// (runtime::kStaticDimMaxLength; gather and gather_elements); 0: any.
  uint8_t axisLength;
  /// How rows gathered along the last axis read data: a GatherLoads value
  /// (never an Auto; 0 for kernels that gather no such rows from
  /// C-contiguous operands, which take the lowering's host value). The
  /// host's cost model sets it, or a measurement (KernelTuner.h).
  uint8_t loads;
  /// How gather_elements along an axis before the last walks its result
  /// (ColumnBlocks; Threshold for other kernels).
  uint8_t columnBlocks;
  enum ColumnBlocks : uint8_t {
    /// Column blocks from the lowering's column-block-min-bytes of data on,
    /// tested when the kernel runs.
    Threshold,
    /// Column blocks whatever the size (column-block-min-bytes=0).
    Always,
    /// Rows (column-block-min-bytes=-1).
    Never,
  };

  KernelKey() { std::memset(this, 0, sizeof(*this)); }
  bool operator==(const KernelKey &other) const {
    return std::memcmp(this, &other, sizeof(*this)) == 0;
  }
  uint64_t hash() const {
    uint64_t w[2];
    std::memcpy(w, this, sizeof(w));
    uint64_t h =
        (w[0] ^ (w[1] * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
  }

  /// Every field, as text: what a kernel on disk is found by (with the
  /// build and the host; KernelCache::getStoreKey).
  std::string describe() const {
    return std::string(opName(op)) + " mode " + std::to_string(mode) +
           " data " + std::to_string(dataBytes) + "B rank " +
           std::to_string(dataRank) + " indices " + std::to_string(indexBytes) +
           "B rank " + std::to_string(indexRank) + " axis " +
           std::to_string(axis) + " batch_dims " + std::to_string(batchDims) +
           " tuple " + std::to_string(tupleSize) + " flags " +
           std::to_string(flags) + " row " + std::to_string(rowLength) +
           " index row " + std::to_string(indexRowLength) + " axis length " +
           std::to_string(axisLength) + " loads " + std::to_string(loads) +
           " column blocks " + std::to_string(columnBlocks);
  }

  /// The kernel as a module: a function of three memrefs (data and indices
  /// of the key's ranks, in their layouts, of dynamic sizes but rowLength,
  /// indexRowLength, axisLength and the unit prefixes;
  /// the result), which reads the first two as tensors (indices widened to
  /// i64 if UnsignedIndices), gathers, and
  /// materializes the result in the third (convert-gather-to-loops
  /// computes it there). Data moves as integers of its width: a gather only
  /// moves bits. The result's rank and static sizes come from the op's
  /// shape rules. Null when those rules reject the key's ranks and
  /// attributes.
  OwningOpRef<ModuleOp> build(MLIRContext &ctx) const;
};
static_assert(sizeof(KernelKey) == 16, "a key is two words");

} // namespace mlir::gather::runtime

#endif // GATHER_RUNTIME_KERNELKEY_H
