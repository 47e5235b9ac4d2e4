//===- GatherMPIToLLVM.cpp - A partitioned module's MPI calls to LLVM -----===//
//
// Upstream does the work (MPI-to-LLVM patterns, the LLVM type converter);
// this pass picks the MPI ABI that works with LLVM 22's lowering and
// removes what the LLVM tools cannot parse once the module is lowered.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MPIToLLVM/MPIToLLVM.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTGATHERMPITOLLVM
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

constexpr StringLiteral kImplementationKey = "MPI:Implementation";
constexpr StringLiteral kMapAttrName = "dlti.map";

struct ConvertGatherMPIToLLVMPass
    : gather::impl::ConvertGatherMPIToLLVMBase<ConvertGatherMPIToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool hasMPI = module
                      .walk([](Operation *op) {
                        return isa<mpi::MPIDialect>(op->getDialect())
                                   ? WalkResult::interrupt()
                                   : WalkResult::advance();
                      })
                      .wasInterrupted();
    if (!hasMPI)
      return;

    // Name MPICH for the MPI patterns unless the module names an
    // implementation; restore the module's own map afterwards.
    MLIRContext *ctx = &getContext();
    auto original = module->getAttrOfType<MapAttr>(kMapAttrName);
    SmallVector<DataLayoutEntryInterface> entries;
    if (original)
      llvm::append_range(entries, original.getEntries());
    auto named = llvm::find_if(entries, [](DataLayoutEntryInterface entry) {
      auto key = dyn_cast<StringAttr>(entry.getKey());
      return key && key.getValue() == kImplementationKey;
    });
    bool added = named == entries.end();
    if (!added) {
      auto value = dyn_cast<StringAttr>(named->getValue());
      if (!value || value.getValue() != "MPICH") {
        module.emitError("MPI implementation ")
            << named->getValue()
            << " is not supported: LLVM 22 lowers MPI calls correctly for "
               "MPICH's ABI only (its Open MPI lowering truncates "
               "communicators to 32 bits)";
        return signalPassFailure();
      }
    } else {
      entries.push_back(DataLayoutEntryAttr::get(
          StringAttr::get(ctx, kImplementationKey),
          StringAttr::get(ctx, "MPICH")));
      module->setAttr(kMapAttrName, MapAttr::get(ctx, entries));
    }

    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    mpi::populateMPIToLLVMConversionPatterns(converter, patterns);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<mpi::MPIDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // Nothing refers to the grids once the shard ops are lowered.
    for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      grid.erase();
    if (added && original)
      module->setAttr(kMapAttrName, original);
    else if (added)
      module->removeAttr(kMapAttrName);
  }
};

} // namespace
