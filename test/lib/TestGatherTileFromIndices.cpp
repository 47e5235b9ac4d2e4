//===- TestGatherTileFromIndices.cpp - Test operand-tile fusion -----------===//
//
// For each gather op with a `test.indices_tile = {offsets = [...], sizes =
// [...]}` attribute: asks its TilingInterface for the iteration-domain tile
// that this tile of its indices computes (a remark) and builds that tiled
// gather in front of it, as a consumer fusion with a tiled producer of the
// ids would. Upstream's consumer fusion drives only destination-style ops,
// so this is how lit reaches the two operand-tile methods.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestGatherTileFromIndicesPass
    : PassWrapper<TestGatherTileFromIndicesPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestGatherTileFromIndicesPass)

  StringRef getArgument() const final {
    return "test-gather-tile-from-indices";
  }
  StringRef getDescription() const final {
    return "Tile gather ops from a tile of their indices (operand-tile "
           "fusion)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<affine::AffineDialect, tensor::TensorDialect>();
  }

  void runOnOperation() override {
    getOperation()->walk([&](TilingInterface op) {
      auto tile = op->getAttrOfType<DictionaryAttr>("test.indices_tile");
      if (!tile)
        return;
      auto offsets = tile.getAs<DenseI64ArrayAttr>("offsets");
      auto sizes = tile.getAs<DenseI64ArrayAttr>("sizes");
      if (!offsets || !sizes)
        return;
      OpBuilder b(op);
      auto toOfr = [&](ArrayRef<int64_t> values) {
        return llvm::map_to_vector(values, [&](int64_t v) -> OpFoldResult {
          return b.getIndexAttr(v);
        });
      };
      SmallVector<SmallVector<OpFoldResult>> allOffsets{toOfr(offsets)};
      SmallVector<SmallVector<OpFoldResult>> allSizes{toOfr(sizes)};
      SmallVector<OpFoldResult> domainOffsets, domainSizes;
      if (failed(op.getIterationDomainTileFromOperandTiles(
              b, {1}, allOffsets, allSizes, domainOffsets, domainSizes))) {
        op->emitRemark("no tile of the iteration domain reads exactly this "
                       "tile of the indices");
        return;
      }
      // Constants as numbers, values as "?".
      auto print = [](InFlightDiagnostic &d, ArrayRef<OpFoldResult> values) {
        llvm::interleaveComma(values, d, [&](OpFoldResult v) {
          if (std::optional<int64_t> c = getConstantIntValue(v))
            d << *c;
          else
            d << "?";
        });
      };
      InFlightDiagnostic remark = op->emitRemark("iteration domain tile: [");
      print(remark, domainOffsets);
      remark << "] sizes [";
      print(remark, domainSizes);
      remark << "]";
      remark.report();
      if (failed(op.getTiledImplementationFromOperandTiles(b, {1}, allOffsets,
                                                           allSizes)))
        op->emitError("tiling from the indices failed");
    });
  }
};
} // namespace

namespace mlir::gather {
void registerTestTileFromIndicesPass() {
  PassRegistration<TestGatherTileFromIndicesPass>();
}
} // namespace mlir::gather
