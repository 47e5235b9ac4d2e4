//===- KernelCache.cpp - The gather functions' kernels, by key --*- C++ -*-===//
//
// See KernelCache.h.
//
//===----------------------------------------------------------------------===//

#include "KernelCache.h"

#include "Compiler.h"
#include "KernelStore.h"
#include "OpenMPRuntime.h"

#include "gather/Dialect/Gather/Utils/ErrorHooks.h"
#include "gather/Conversion/GatherToAffine/GatherLoads.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Pipelines/Pipelines.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Config/llvm-config.h"

#include <pybind11/pybind11.h>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::python;

OwningOpRef<ModuleOp> KernelKey::build(MLIRContext &ctx) const {
  OpBuilder b(&ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  Type element = b.getIntegerType(dataBytes * 8);
  Type indexElement = b.getIntegerType(indexBytes * 8);
  SmallVector<int64_t> dataShape(dataRank, ShapedType::kDynamic);
  SmallVector<int64_t> indexShape(indexRank, ShapedType::kDynamic);
  if (op == OpKind::ND)
    indexShape.back() = tupleSize;
  if (rowLength)
    dataShape.back() = rowLength;
  auto noError = [](const Twine &) { return failure(); };
  GatherMode gatherMode = static_cast<GatherMode>(mode);
  ShapeView dataView(dataShape), indexView(indexShape);
  FailureOr<GatherShape> shape =
      op == OpKind::Gather
          ? inferGatherShape(dataView, indexView, axis, batchDims,
                             gatherMode, noError)
      : op == OpKind::Elements
          ? inferGatherElementsShape(dataView, indexView, axis, gatherMode,
                                     noError)
          : inferGatherNDShape(dataView, indexView, batchDims, gatherMode,
                               noError);
  if (failed(shape))
    throw py::value_error("no kernel for this key's ranks and attributes");
  SmallVector<int64_t> resultShape =
      shape->getStaticShape(dataView, indexView);
  auto memrefOf = [&](ArrayRef<int64_t> sizes, Type type, bool strided) {
    MemRefLayoutAttrInterface layout;
    if (strided && !sizes.empty())
      layout = StridedLayoutAttr::get(
          &ctx, ShapedType::kDynamic,
          SmallVector<int64_t>(sizes.size(), ShapedType::kDynamic));
    return MemRefType::get(sizes, type, layout);
  };
  MemRefType dm = memrefOf(dataShape, element, flags & StridedData);
  MemRefType im = memrefOf(indexShape, indexElement, flags & StridedIndices);
  MemRefType om = memrefOf(resultShape, element, false);
  b.setInsertionPointToEnd(module->getBody());
  auto fn = func::FuncOp::create(b, loc, "kernel",
                                 b.getFunctionType({dm, im, om}, {}));
  fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
              b.getUnitAttr());
  Block *body = fn.addEntryBlock();
  b.setInsertionPointToStart(body);
  auto tensorOf = [&](Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    return bufferization::ToTensorOp::create(
        b, loc, RankedTensorType::get(type.getShape(), type.getElementType()),
        memref, /*restrict=*/true);
  };
  Value data = tensorOf(body->getArgument(0));
  Value indices = tensorOf(body->getArgument(1));
  Value result;
  switch (op) {
  case OpKind::Gather:
    result = GatherOp::create(b, loc, data, indices, axis, batchDims,
                              gatherMode);
    break;
  case OpKind::Elements:
    result = GatherElementsOp::create(b, loc, data, indices, axis,
                                      gatherMode);
    break;
  case OpKind::ND:
    result = GatherNDOp::create(b, loc, data, indices, batchDims,
                                gatherMode);
    break;
  }
  auto sink = bufferization::MaterializeInDestinationOp::create(
      b, loc, TypeRange{}, result, body->getArgument(2));
  sink.setRestrict(true);
  sink.setWritable(true);
  func::ReturnOp::create(b, loc);
  return module;
}

namespace {
/// Flags of a kept kernel (KernelStore keeps them with the object).
enum StoredKernelFlags : uint32_t { kNeedsOpenMP = 1, kReportsOnThreads = 2 };

/// The symbol a kernel object is called through.
constexpr StringLiteral kKernelEntry = "_mlir_ciface_kernel";
} // namespace

std::optional<std::string> KernelCache::beforeObtain(bool parallel) {
  // The environment is read while the GIL keeps os.environ from changing
  // it. A threaded kernel needs libomp, which aborts on a malformed
  // OMP_NUM_THREADS: refused before anything is read or compiled.
  if (parallel)
    if (llvm::Error error = loadOpenMP())
      throw py::value_error(llvm::toString(std::move(error)));
  return getKernelStoreDir();
}

KernelFn KernelCache::miss(const KernelKey &key) {
  std::optional<std::string> dir =
      beforeObtain(key.flags & KernelKey::Parallel);
  // Other threads' calls go on while this one compiles or reads.
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(mu);
  if (KernelFn kernel = table.find(key))
    return kernel;
  auto kernel = reinterpret_cast<KernelFn>(
      obtain(dir, storeKeyOf(key.describe()), [&] { return compile(key); })
          .first);
  table.insert(key, kernel);
  return kernel;
}

KernelCache::Entry KernelCache::load(
    const std::string &description, bool parallel,
    llvm::function_ref<OwningOpRef<ModuleOp>(MLIRContext &)> build) {
  std::optional<std::string> dir = beforeObtain(parallel);
  py::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(mu);
  auto [function, flags] = obtain(dir, storeKeyOf(description), [&] {
    Compiler &compiler = Compiler::get();
    std::lock_guard<std::mutex> lock(compiler.mutex());
    OwningOpRef<ModuleOp> module = build(compiler.context());
    GatherToLLVMOptions options =
        HostTarget::get().loweringOptions(parallel);
    // As a parallel gather key: every loop that may run on threads does,
    // whatever OMP_NUM_THREADS says (the description does not name it).
    if (parallel)
      options.parallelMinBytes = 0;
    return compileModule(*module, options);
  });
  return {function, (flags & kReportsOnThreads) != 0,
          (flags & kNeedsOpenMP) != 0};
}

std::pair<void *, uint32_t> KernelCache::obtain(
    const std::optional<std::string> &dir, const std::string &storeKey,
    llvm::function_ref<std::pair<SmallVector<char, 0>, uint32_t>()> compile) {
  // No MLIR until a kernel must be compiled: a kernel on disk is found by
  // its key alone (a warm first call builds no context).
  if (dir) {
    StoredKernel entry;
    switch (readStoredKernel(*dir, storeKey, entry)) {
    case StoreReadResult::Missing:
      break;
    case StoreReadResult::Rejected:
      ++rejected;
      break;
    case StoreReadResult::Found:
      uint32_t flags = entry.flags;
      llvm::Expected<void *> linked = getLinker().link(
          std::move(entry.object), flags & kNeedsOpenMP, kKernelEntry);
      if (linked) {
        ++loaded;
        return {*linked, flags};
      }
      llvm::consumeError(linked.takeError());
      ++rejected;
      break;
    }
  }
  auto [object, flags] = compile();
  ++compiled;
  if (dir && writeStoredKernel(*dir, storeKey, flags, object))
    ++stored;
  llvm::Expected<void *> linked = getLinker().link(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(object.data(), object.size()), "gather_mlir_kernel"),
      flags & kNeedsOpenMP, kKernelEntry);
  if (!linked)
    throw py::value_error("cannot link the compiled kernel: " +
                          llvm::toString(linked.takeError()));
  return {*linked, flags};
}

std::string KernelCache::storeKeyOf(const std::string &description) {
  const HostTarget &host = HostTarget::get();
  return "gather_mlir kernel\nversion " GATHER_MLIR_VERSION "\n" +
         getBuildIdentity() + "\nllvm " LLVM_VERSION_STRING "\ntriple " +
         host.triple + "\ncpu " + host.cpu + "\nfeatures " + host.features +
         "\ngather-loads " +
         std::to_string(static_cast<int>(getHostGatherLoads())) +
         "\nkernel " + description + "\n";
}

std::pair<SmallVector<char, 0>, uint32_t>
KernelCache::compile(const KernelKey &key) {
  Compiler &compiler = Compiler::get();
  std::lock_guard<std::mutex> lock(compiler.mutex());
  OwningOpRef<ModuleOp> owned = key.build(compiler.context());
  // gather-to-llvm for this host, threads and row validation as the key
  // says.
  GatherToLLVMOptions options = HostTarget::get().loweringOptions(
      (key.flags & KernelKey::Parallel) != 0);
  options.validateRows = (key.flags & KernelKey::ValidateRows) != 0;
  // A parallel key is only chosen for results of at least the lowering's
  // parallel-min-bytes, so its kernel is all threaded loops: without the
  // serial nest beside them a new parallel kernel compiles faster
  // (docs/decisions/compile-time.md).
  if (options.parallel)
    options.parallelMinBytes = 0;
  if (!(key.flags & KernelKey::Streaming))
    options.streamingMinBytes = -1;
  if (key.flags & KernelKey::ElementLoads)
    options.gatherLoads = GatherLoads::Element;
  return compileModule(*owned, options);
}

std::pair<SmallVector<char, 0>, uint32_t>
KernelCache::compileModule(ModuleOp module,
                           const GatherToLLVMOptions &options) {
  Compiler &compiler = Compiler::get();
  PassManager pm(&compiler.context(), ModuleOp::getOperationName());
  buildGatherToLLVMPipeline(pm, options);
  compiler.run(pm, module);
  uint32_t flags = (usesOpenMP(module) ? kNeedsOpenMP : 0) |
                   (mayReportOnOpenMPThreads(module) ? kReportsOnThreads : 0);
  takeOverErrorHooks(module);
  DiagnosticCollector diags(compiler.context());
  llvm::Expected<SmallVector<char, 0>> object = compileToObject(module);
  if (!object)
    throw py::value_error("cannot compile the kernel: " +
                          llvm::toString(object.takeError()) + "\n" +
                          diags.take(""));
  return {std::move(*object), flags};
}

KernelLinker &KernelCache::getLinker() {
  if (!linker) {
    std::pair<StringRef, void *> hooks[] = {
        {kIndexErrorHook, reinterpret_cast<void *>(&recordIndexError)},
        {kShapeErrorHook, reinterpret_cast<void *>(&recordShapeError)}};
    auto created = KernelLinker::create(hooks);
    if (!created)
      throw py::value_error("cannot create the kernel JIT: " +
                            llvm::toString(created.takeError()));
    linker = std::move(*created);
  }
  return *linker;
}
