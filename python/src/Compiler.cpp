//===- Compiler.cpp - The package's MLIR context and kernel errors --------===//

#include "Compiler.h"

#include <mutex>
#include <utility>
#include <vector>

using namespace mlir::gather::python;

namespace {
/// The calls listed for the threads they start (KernelCall), and the lock
/// of every record: the hooks are the error path, rarely taken.
std::mutex callsMutex;
std::vector<KernelErrorRecord *> threadedCalls;
/// The call that runs on this thread, if any.
thread_local KernelErrorRecord *currentCall = nullptr;

void recordError(const KernelErrorRecord &error) {
  std::lock_guard<std::mutex> lock(callsMutex);
  if (currentCall) {
    if (currentCall->kind == KernelErrorRecord::None)
      *currentCall = error;
    return;
  }
  for (KernelErrorRecord *call : threadedCalls)
    if (call->kind == KernelErrorRecord::None)
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

KernelCall::KernelCall(bool threaded) : threaded(threaded) {
  currentCall = &record;
  if (threaded) {
    std::lock_guard<std::mutex> lock(callsMutex);
    threadedCalls.push_back(&record);
  }
}

KernelCall::~KernelCall() {
  currentCall = nullptr;
  if (threaded) {
    std::lock_guard<std::mutex> lock(callsMutex);
    llvm::erase(threadedCalls, &record);
  }
}

void KernelCall::raiseIfAny() {
  KernelErrorRecord e;
  if (threaded) {
    std::lock_guard<std::mutex> lock(callsMutex);
    e = std::exchange(record, {});
  } else {
    e = std::exchange(record, {}); // Only this thread writes it.
  }
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
