//===- Compiler.cpp - The package's MLIR context and kernel errors --------===//

#include "Compiler.h"

#include <mutex>
#include <utility>

using namespace mlir::gather::python;

namespace {
/// The lock of every record (the hooks are the error path, rarely taken),
/// and the threaded call in flight, if any.
std::mutex recordsMutex;
KernelErrorRecord *threadedCall = nullptr;
/// Held by the threaded call in flight.
std::mutex threadedCallsMutex;
/// The call that runs on this thread, if any.
thread_local KernelErrorRecord *currentCall = nullptr;

void recordError(const KernelErrorRecord &error) {
  std::lock_guard<std::mutex> lock(recordsMutex);
  KernelErrorRecord *call = currentCall ? currentCall : threadedCall;
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

KernelCall::KernelCall(bool threaded) {
  currentCall = &record;
  if (threaded) {
    oneAtATime = std::unique_lock<std::mutex>(threadedCallsMutex);
    std::lock_guard<std::mutex> lock(recordsMutex);
    threadedCall = &record;
  }
}

KernelCall::~KernelCall() {
  currentCall = nullptr;
  if (oneAtATime) {
    std::lock_guard<std::mutex> lock(recordsMutex);
    threadedCall = nullptr;
  }
}

KernelErrorRecord KernelCall::take() {
  if (!oneAtATime)
    return std::exchange(record, {}); // Only this thread writes it.
  std::lock_guard<std::mutex> lock(recordsMutex);
  return std::exchange(record, {});
}

void mlir::gather::python::raiseKernelError(const KernelErrorRecord &e) {
  char message[256];
  switch (e.kind) {
  case KernelErrorRecord::None:
    return;
  case KernelErrorRecord::Index:
    gatherMlirFormatIndexError(message, sizeof(message), e.op, e.dim, e.a,
                               e.b);
    throw py::index_error(message);
  case KernelErrorRecord::Shape:
    gatherMlirFormatShapeError(message, sizeof(message), e.op, e.rule, e.dim,
                               e.a, e.b);
    throw py::value_error(message);
  }
}
