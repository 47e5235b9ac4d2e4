//===- Compiler.cpp - The package's MLIR context and kernel errors --------===//

#include "Compiler.h"

using namespace mlir::gather::python;

void mlir::gather::python::raiseKernelError(const KernelErrorRecord &e,
                                            const char *opName,
                                            const std::string &position) {
  if (e.kind == KernelErrorRecord::None)
    return;
  std::string text = e.message();
  // The messages start with the op's name.
  llvm::StringRef kernelOp = gatherMlirOpName(e.op);
  if (opName && llvm::StringRef(text).starts_with(kernelOp))
    text = opName + text.substr(kernelOp.size());
  if (!position.empty())
    text += ", at " + position;
  if (e.kind == KernelErrorRecord::Index)
    throw py::index_error(text);
  throw py::value_error(text);
}

KernelFn mlir::gather::python::lookupKernel(const KernelKey &key) {
  KernelCache &cache = KernelCache::get();
  if (KernelFn kernel = cache.find(key))
    return kernel;
  // The environment is read while the GIL keeps os.environ from changing
  // it; other threads' calls go on while this one reads or compiles.
  llvm::Expected<KernelCache::Environment> environment =
      KernelCache::prepare(key.flags & KernelKey::Parallel);
  if (!environment)
    throw py::value_error(llvm::toString(environment.takeError()));
  llvm::Expected<KernelFn> kernel = [&] {
    py::gil_scoped_release release;
    return cache.obtain(key, *environment);
  }();
  if (!kernel)
    throw py::value_error(llvm::toString(kernel.takeError()));
  return *kernel;
}

KernelCache::Entry mlir::gather::python::loadKernel(
    const std::string &description, bool parallel,
    llvm::function_ref<OwningOpRef<ModuleOp>(MLIRContext &)> build) {
  llvm::Expected<KernelCache::Environment> environment =
      KernelCache::prepare(parallel);
  if (!environment)
    throw py::value_error(llvm::toString(environment.takeError()));
  // The runtime is built without exceptions: one that `build` throws is
  // caught here and raised once the runtime has returned.
  std::exception_ptr thrown;
  auto guardedBuild = [&](MLIRContext &context) -> OwningOpRef<ModuleOp> {
    try {
      return build(context);
    } catch (...) {
      thrown = std::current_exception();
      return nullptr;
    }
  };
  llvm::Expected<KernelCache::Entry> entry = [&] {
    py::gil_scoped_release release;
    return KernelCache::get().load(description, parallel, guardedBuild,
                                   *environment);
  }();
  if (thrown) {
    llvm::consumeError(entry.takeError());
    std::rethrow_exception(thrown);
  }
  if (!entry)
    throw py::value_error(llvm::toString(entry.takeError()));
  return *entry;
}
