//===- KernelCache.cpp - Compiled kernels, in memory and on disk ----------===//
//
// See KernelCache.h.
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/KernelCache.h"
#include "gather/Runtime/KernelCall.h"
#include "gather/Runtime/KernelCompiler.h"
#include "gather/Runtime/KernelPolicy.h"
#include "gather/Runtime/KernelStore.h"
#include "gather/Runtime/OpenMPRuntime.h"

#include "gather/Dialect/Gather/Utils/ErrorHooks.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;
using namespace mlir::gather;
using namespace mlir::gather::runtime;

namespace {
/// Flags of a kept kernel (KernelStore keeps them with the object).
enum StoredKernelFlags : uint32_t { kNeedsOpenMP = 1, kReportsOnThreads = 2 };

/// The symbol a kernel object is called through.
constexpr StringLiteral kKernelEntry = "_mlir_ciface_kernel";
} // namespace

KernelCache &KernelCache::get() {
  static KernelCache *cache = new KernelCache(); // Lives until exit.
  return *cache;
}

llvm::Expected<KernelCache::Environment> KernelCache::prepare(bool parallel) {
  // A threaded kernel needs libomp, which aborts on a malformed
  // OMP_NUM_THREADS: refused before anything is read or compiled.
  if (parallel)
    if (llvm::Error error = loadOpenMP())
      return std::move(error);
  return Environment{getKernelStoreDir()};
}

llvm::Expected<KernelFn> KernelCache::lookup(const KernelKey &key) {
  if (KernelFn kernel = find(key))
    return kernel;
  llvm::Expected<Environment> environment =
      prepare(key.flags & KernelKey::Parallel);
  if (!environment)
    return environment.takeError();
  return obtain(key, *environment);
}

llvm::Expected<KernelFn> KernelCache::obtain(const KernelKey &key,
                                             const Environment &environment) {
  std::lock_guard<std::mutex> lock(mu);
  if (KernelFn kernel = table.find(key))
    return kernel;
  auto linked = obtainLinked(
      environment, key.describe(), [&]() -> llvm::Expected<Compiled> {
        KernelCompiler &compiler = KernelCompiler::get();
        std::lock_guard<std::mutex> lock(compiler.mutex());
        OwningOpRef<ModuleOp> module = key.build(compiler.context());
        if (!module)
          return llvm::createStringError(
              "no kernel for this key's ranks and attributes");
        return compileModule(*module, getKernelLoweringOptions(key));
      });
  if (!linked)
    return linked.takeError();
  auto kernel = reinterpret_cast<KernelFn>(linked->first);
  table.insert(key, kernel);
  return kernel;
}

llvm::Expected<KernelCache::Entry> KernelCache::load(
    const std::string &description, bool parallel,
    llvm::function_ref<OwningOpRef<ModuleOp>(MLIRContext &)> build,
    const Environment &environment) {
  std::lock_guard<std::mutex> lock(mu);
  auto linked =
      obtainLinked(environment, description, [&]() -> llvm::Expected<Compiled> {
        KernelCompiler &compiler = KernelCompiler::get();
        std::lock_guard<std::mutex> lock(compiler.mutex());
        OwningOpRef<ModuleOp> module = build(compiler.context());
        if (!module)
          return llvm::createStringError("cannot build the kernel's module");
        return compileModule(*module, getKernelLoweringOptions(parallel));
      });
  if (!linked)
    return linked.takeError();
  auto [function, flags] = *linked;
  return Entry{function, (flags & kReportsOnThreads) != 0,
               (flags & kNeedsOpenMP) != 0};
}

llvm::Expected<std::pair<void *, uint32_t>> KernelCache::obtainLinked(
    const Environment &environment, const std::string &description,
    llvm::function_ref<llvm::Expected<Compiled>()> compile) {
  llvm::Expected<KernelLinker &> linker = getLinker();
  if (!linker)
    return linker.takeError();
  std::string storeKey = getStoreKey(description);
  // What a profiler calls the kernel's code.
  std::string name = "gather_mlir " + description;
  const std::optional<std::string> &dir = environment.storeDir;
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
      llvm::Expected<void *> linked = linker->link(
          std::move(entry.object), flags & kNeedsOpenMP, kKernelEntry, name);
      if (linked) {
        ++loaded;
        return std::make_pair(*linked, flags);
      }
      llvm::consumeError(linked.takeError());
      ++rejected;
      break;
    }
  }
  llvm::Expected<Compiled> compiled = compile();
  if (!compiled)
    return compiled.takeError();
  ++this->compiled;
  if (dir &&
      writeStoredKernel(*dir, storeKey, compiled->flags, compiled->object))
    ++stored;
  llvm::Expected<void *> linked = linker->link(
      llvm::MemoryBuffer::getMemBufferCopy(
          StringRef(compiled->object.data(), compiled->object.size()),
          "gather_mlir_kernel"),
      compiled->flags & kNeedsOpenMP, kKernelEntry, name);
  if (!linked)
    return llvm::createStringError("cannot link the compiled kernel: " +
                                   llvm::toString(linked.takeError()));
  return std::make_pair(*linked, compiled->flags);
}

std::string KernelCache::getStoreKey(const std::string &description) {
  const HostTarget &host = HostTarget::get();
  return "gather_mlir kernel\nversion " GATHER_MLIR_VERSION "\n" +
         getBuildIdentity() + "\nllvm " LLVM_VERSION_STRING "\ntriple " +
         host.triple + "\ncpu " + host.cpu + "\nfeatures " + host.features +
         "\ngather-loads " +
         std::to_string(static_cast<int>(getHostGatherLoads())) + "\nkernel " +
         description + "\n";
}

llvm::Expected<KernelCache::Compiled>
KernelCache::compileModule(ModuleOp module,
                           const GatherToLLVMOptions &options) {
  KernelCompiler &compiler = KernelCompiler::get();
  PassManager pm(&compiler.context(), ModuleOp::getOperationName());
  buildGatherToLLVMPipeline(pm, options);
  if (llvm::Error error = compiler.run(pm, module))
    return std::move(error);
  uint32_t flags = (usesOpenMP(module) ? kNeedsOpenMP : 0) |
                   (mayReportOnOpenMPThreads(module) ? kReportsOnThreads : 0);
  takeOverErrorHooks(module);
  DiagnosticCollector diags(compiler.context());
  llvm::Expected<SmallVector<char, 0>> object = compileToObject(module);
  if (!object)
    return llvm::createStringError(
        "cannot compile the kernel: " + llvm::toString(object.takeError()) +
        "\n" + diags.take(""));
  return Compiled{std::move(*object), flags};
}

llvm::Expected<KernelLinker &> KernelCache::getLinker() {
  if (!linker) {
    std::pair<StringRef, void *> hooks[] = {
        {kIndexErrorHook, reinterpret_cast<void *>(&recordIndexError)},
        {kShapeErrorHook, reinterpret_cast<void *>(&recordShapeError)}};
    auto created = KernelLinker::create(hooks);
    if (!created)
      return llvm::createStringError("cannot create the kernel JIT: " +
                                     llvm::toString(created.takeError()));
    linker = std::move(*created);
  }
  return *linker;
}
