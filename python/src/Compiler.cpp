//===- Compiler.cpp - The package's MLIR context and kernel errors --------===//

#include "Compiler.h"

#include <mutex>
#include <pthread.h>
#include <utility>

using namespace mlir::gather::python;

namespace {
/// The threaded call in flight and the locks of the records.
struct CallRegistry {
  /// The lock of every record (the hooks are the error path, rarely taken).
  std::mutex records;
  KernelErrorRecord *threadedCall = nullptr;
  /// Held by the threaded call in flight.
  std::mutex threadedCalls;
};
/// A child forked while another thread was in a threaded call would
/// inherit its locks held: it gets a registry of its own (the calls in
/// flight are the parent's).
CallRegistry *registry = [] {
  pthread_atfork(nullptr, nullptr, [] { registry = new CallRegistry; });
  return new CallRegistry;
}();
/// The call that runs on this thread, if any.
thread_local KernelErrorRecord *currentCall = nullptr;

void recordError(const KernelErrorRecord &error) {
  std::lock_guard<std::mutex> lock(registry->records);
  KernelErrorRecord *call = currentCall ? currentCall : registry->threadedCall;
  if (call && call->kind == KernelErrorRecord::None)
    *call = error;
}
} // namespace

extern "C" void recordIndexError(int64_t op, int64_t dim, int64_t index,
                                 int64_t size) {
  recordError({KernelErrorRecord::Index, op, 0, dim, index, size});
}

extern "C" void recordShapeError(int64_t op, int64_t rule, int64_t dim,
                                 int64_t a, int64_t b) {
  recordError({KernelErrorRecord::Shape, op, rule, dim, a, b});
}

KernelCall::KernelCall(bool threaded, bool openMP) {
  if (openMP)
    keepOpenMPWorkersOffCaller();
  currentCall = &record;
  if (threaded) {
    oneAtATime = std::unique_lock<std::mutex>(registry->threadedCalls);
    std::lock_guard<std::mutex> lock(registry->records);
    registry->threadedCall = &record;
  }
}

KernelCall::~KernelCall() {
  currentCall = nullptr;
  if (oneAtATime) {
    std::lock_guard<std::mutex> lock(registry->records);
    registry->threadedCall = nullptr;
  }
}

KernelErrorRecord KernelCall::take() {
  if (!oneAtATime)
    return std::exchange(record, {}); // Only this thread writes it.
  std::lock_guard<std::mutex> lock(registry->records);
  return std::exchange(record, {});
}

void mlir::gather::python::raiseKernelError(const KernelErrorRecord &e,
                                             const char *opName,
                                             const std::string &position) {
  char message[256];
  switch (e.kind) {
  case KernelErrorRecord::None:
    return;
  case KernelErrorRecord::Index:
    gatherMlirFormatIndexError(message, sizeof(message), e.op, e.dim, e.a,
                               e.b);
    break;
  case KernelErrorRecord::Shape:
    gatherMlirFormatShapeError(message, sizeof(message), e.op, e.rule, e.dim,
                               e.a, e.b);
    break;
  }
  std::string text = message;
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
