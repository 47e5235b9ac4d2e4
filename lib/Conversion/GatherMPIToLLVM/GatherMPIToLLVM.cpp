//===- GatherMPIToLLVM.cpp - A partitioned module's MPI calls to LLVM -----===//
//
// Upstream does the work (MPI-to-LLVM patterns, the LLVM type converter);
// this pass picks the MPI ABI that works with LLVM 22's lowering, removes
// what the LLVM tools cannot parse once the module is lowered, and frees the
// communicators that convert-shard-to-mpi splits on every collective (LLVM
// 22 never frees them: a kernel called 2048 times exhausts MPICH's
// communicators and aborts):
//  * a split whose color is a constant keeps every process of its parent,
//    so all-reduces (whose result does not depend on the processes' order)
//    use the parent instead, and nothing is split;
//  * any other split whose uses are all in its block is lowered here, with
//    an MPI_Comm_free after its last use.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/Passes.h"
#include "gather/Dialect/Gather/Utils/MPIDatatypes.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MPIToLLVM/MPIToLLVM.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
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

/// All-reduces on a split of constant color use the parent communicator.
static void foldWholeSplits(ModuleOp module) {
  module.walk([](mpi::CommSplitOp split) {
    if (split.getRetval() || !matchPattern(split.getColor(), m_Constant()) ||
        !llvm::all_of(split.getNewcomm().getUsers(), [](Operation *user) {
          return isa<mpi::AllReduceOp>(user);
        }))
      return;
    split.getNewcomm().replaceAllUsesWith(split.getComm());
    split.erase();
  });
}

/// mpi.comm_split for MPICH (whose MPI_Comm is an int, and !mpi.comm an
/// i64 after conversion), freed after its last use. Splits used outside
/// their block are left to upstream's pattern.
struct CommSplitFreed : ConvertOpToLLVMPattern<mpi::CommSplitOp> {
  CommSplitFreed(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(mpi::CommSplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getRetval())
      return rewriter.notifyMatchFailure(op, "its status is used");
    auto function = op->getParentOfType<FunctionOpInterface>();
    if (!function || function.getFunctionBody().empty())
      return rewriter.notifyMatchFailure(op, "not in a function");
    Block *block = op->getBlock();
    Operation *last = nullptr;
    for (Operation *user : op.getNewcomm().getUsers()) {
      user = block->findAncestorOpInBlock(*user);
      if (!user)
        return rewriter.notifyMatchFailure(op, "used outside its block");
      if (!last || last->isBeforeInBlock(user))
        last = user;
    }
    if (last && last->hasTrait<OpTrait::IsTerminator>())
      return rewriter.notifyMatchFailure(op, "passed on by a terminator");
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    FailureOr<LLVM::LLVMFuncOp> splitFn = LLVM::lookupOrCreateFn(
        rewriter, module, "MPI_Comm_split", {i32, i32, i32, ptr}, i32);
    FailureOr<LLVM::LLVMFuncOp> freeFn =
        LLVM::lookupOrCreateFn(rewriter, module, "MPI_Comm_free", {ptr}, i32);
    if (failed(splitFn) || failed(freeFn))
      return rewriter.notifyMatchFailure(op, "MPI functions of another type");
    // The cell lives in the entry block, so a split in a loop does not
    // grow the stack.
    Value cell;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&function.getFunctionBody().front());
      Value one = LLVM::ConstantOp::create(rewriter, loc, i64, 1);
      cell = LLVM::AllocaOp::create(rewriter, loc, ptr, i32, one);
    }
    Value comm = LLVM::TruncOp::create(rewriter, loc, i32, adaptor.getComm());
    LLVM::CallOp::create(
        rewriter, loc, *splitFn,
        ValueRange{comm, adaptor.getColor(), adaptor.getKey(), cell});
    Value newComm = LLVM::ZExtOp::create(
        rewriter, loc, i64, LLVM::LoadOp::create(rewriter, loc, i32, cell));
    if (last) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(last);
      LLVM::CallOp::create(rewriter, loc, *freeFn, ValueRange{cell});
    }
    rewriter.replaceOp(op, newComm);
    return success();
  }
};

/// Erases the grids that nothing refers to: a partition whose splits need
/// no communication leaves them behind, and no LLVM tool reads them.
static void eraseUnusedGrids(ModuleOp module) {
  for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
    if (SymbolTable::symbolKnownUseEmpty(grid, module))
      grid.erase();
}

/// An error for each mpi op with a buffer whose element type LLVM 22's
/// lowering has no MPI datatype for (it would pass an invalid one, and the
/// call would abort at run time).
static LogicalResult checkDatatypes(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (!isa<mpi::MPIDialect>(op->getDialect()))
      return WalkResult::advance();
    for (Value operand : op->getOperands()) {
      auto buffer = dyn_cast<MemRefType>(operand.getType());
      if (buffer && !hasMPIDatatype(buffer.getElementType())) {
        op->emitOpError("has a buffer of element type ")
            << buffer.getElementType()
            << ", for which MPI calls have no datatype (f32, f64 and 8- to "
               "64-bit integers have one)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

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
    if (!hasMPI) {
      eraseUnusedGrids(module);
      return;
    }
    if (failed(checkDatatypes(module)))
      return signalPassFailure();

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
      entries.push_back(
          DataLayoutEntryAttr::get(StringAttr::get(ctx, kImplementationKey),
                                   StringAttr::get(ctx, "MPICH")));
      module->setAttr(kMapAttrName, MapAttr::get(ctx, entries));
    }

    foldWholeSplits(module);
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    mpi::populateMPIToLLVMConversionPatterns(converter, patterns);
    patterns.add<CommSplitFreed>(converter);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<mpi::MPIDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    eraseUnusedGrids(module);
    if (added && original)
      module->setAttr(kMapAttrName, original);
    else if (added)
      module->removeAttr(kMapAttrName);
  }
};

} // namespace
