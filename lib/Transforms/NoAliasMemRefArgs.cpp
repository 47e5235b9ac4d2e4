//===- NoAliasMemRefArgs.cpp - llvm.noalias on memrefs' data pointers -----===//
//
// gather-noalias-memref-args: `llvm.noalias` of a memref argument, which
// convert-func-to-llvm drops, carried to the aligned pointer of its
// descriptor and to the accesses through it (alias scopes). Run once before
// the conversion (to record where the pointers land) and once after it (to
// mark them).
//
//===----------------------------------------------------------------------===//

#include "gather/Transforms/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/SmallBitVector.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERNOALIASMEMREFARGS
#include "gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

namespace {

constexpr StringLiteral kRecord = "gather.noalias_pointers";
constexpr StringLiteral kLength = "arguments";
constexpr StringLiteral kPointers = "pointers";

/// Records, for `func`, the positions of the aligned pointers of its
/// `llvm.noalias` ranked memref arguments in the signature upstream's
/// conversion gives it (descriptors expanded, as without a bare-pointer
/// calling convention), and that signature's length.
void record(func::FuncOp func, const LLVMTypeConverter &converter) {
  StringRef noalias = LLVM::LLVMDialect::getNoAliasAttrName();
  FunctionType type = func.getFunctionType();
  TypeConverter::SignatureConversion conversion(type.getNumInputs());
  if (!converter.convertFunctionSignature(type, /*isVariadic=*/false,
                                          /*useBarePtrCallConv=*/false,
                                          conversion))
    return;
  SmallVector<int32_t> pointers;
  for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i) {
    auto mapping = conversion.getInputMapping(i);
    // A ranked descriptor: allocated, aligned, offset, sizes, strides.
    if (isa<MemRefType>(type.getInput(i)) && func.getArgAttr(i, noalias) &&
        mapping && mapping->size >= 3)
      pointers.push_back(mapping->inputNo + 1);
  }
  if (pointers.empty())
    return;
  Builder b(func.getContext());
  func->setAttr(
      kRecord,
      b.getDictionaryAttr(
          {b.getNamedAttr(kLength, b.getI32IntegerAttr(
                                       conversion.getConvertedTypes().size())),
           b.getNamedAttr(kPointers, b.getDenseI32ArrayAttr(pointers))}));
}

/// Tags each access of `func` through the pointers of `marked` (or through
/// getelementptrs of them) with the pointer's alias scope, and as not
/// aliasing the others' scopes. Unlike the arguments' attribute, the tags
/// stay on the accesses when a parallel region is outlined into a function
/// of its own. An access through any other pointer keeps no tag (it may
/// alias anything).
void tagAccesses(LLVM::LLVMFuncOp func, ArrayRef<BlockArgument> marked) {
  MLIRContext *ctx = func.getContext();
  auto domain = LLVM::AliasScopeDomainAttr::get(
      ctx, StringAttr::get(ctx, "noalias memrefs of " + func.getName()));
  SmallVector<Attribute> scopes;
  DenseMap<Value, unsigned> base;
  SmallVector<Value> worklist;
  for (auto [i, argument] : llvm::enumerate(marked)) {
    scopes.push_back(LLVM::AliasScopeAttr::get(domain));
    base[argument] = i;
    worklist.push_back(argument);
  }
  while (!worklist.empty()) {
    Value pointer = worklist.pop_back_val();
    unsigned i = base.lookup(pointer);
    for (Operation *user : pointer.getUsers())
      if (auto gep = dyn_cast<LLVM::GEPOp>(user))
        if (gep.getBase() == pointer && base.try_emplace(gep, i).second)
          worklist.push_back(gep);
  }
  func.walk([&](LLVM::AliasAnalysisOpInterface access) {
    if (access.getAliasScopesOrNull() || access.getNoAliasScopesOrNull())
      return;
    llvm::SmallBitVector own(scopes.size());
    for (Value pointer : access.getAccessedOperands()) {
      auto it = base.find(pointer);
      if (it == base.end())
        return;
      own.set(it->second);
    }
    SmallVector<Attribute> in, out;
    for (unsigned i = 0; i < scopes.size(); ++i)
      (own.test(i) ? in : out).push_back(scopes[i]);
    if (in.empty())
      return;
    access.setAliasScopes(ArrayAttr::get(ctx, in));
    if (!out.empty())
      access.setNoAliasScopes(ArrayAttr::get(ctx, out));
  });
}

/// Marks the recorded pointers of `func`, which has the recorded length
/// (the wrapper, one argument a memref, is shorter), tags the accesses
/// through them, and drops the record.
void apply(LLVM::LLVMFuncOp func, DictionaryAttr record) {
  auto length = record.getAs<IntegerAttr>(kLength);
  auto pointers = record.getAs<DenseI32ArrayAttr>(kPointers);
  func->removeAttr(kRecord);
  if (!length || !pointers || func.isExternal() ||
      length.getInt() != func.getFunctionType().getNumParams())
    return;
  UnitAttr unit = UnitAttr::get(func.getContext());
  SmallVector<BlockArgument> marked;
  for (int32_t i : pointers.asArrayRef())
    if (isa<LLVM::LLVMPointerType>(func.getArgumentTypes()[i])) {
      func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), unit);
      marked.push_back(func.getArgument(i));
    }
  if (marked.empty())
    return;
  tagAccesses(func, marked);
  // Proven apart, a loop that copies a row would become a call of memcpy,
  // which is not the loop the kernel chose (kernel-cost-model.md, "Alias
  // information").
  SmallVector<Attribute> passthrough;
  if (ArrayAttr existing = func.getPassthroughAttr())
    llvm::append_range(passthrough, existing);
  for (StringRef name : {"no-builtin-memcpy", "no-builtin-memmove"})
    passthrough.push_back(StringAttr::get(func.getContext(), name));
  func.setPassthroughAttr(ArrayAttr::get(func.getContext(), passthrough));
}

struct GatherNoAliasMemRefArgsPass
    : gather::impl::GatherNoAliasMemRefArgsBase<GatherNoAliasMemRefArgsPass> {
  void runOnOperation() override {
    LLVMTypeConverter converter(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        record(func, converter);
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>())
      if (auto record = func->getAttrOfType<DictionaryAttr>(kRecord))
        apply(func, record);
  }
};

} // namespace
