//===- KernelCall.cpp - Errors of a kernel call, recorded -----------------===//

#include "gather/Runtime/KernelCall.h"
#include "gather/Runtime/OpenMPRuntime.h"

#include "gather-c/Runtime.h"

#include <pthread.h>
#include <utility>

using namespace mlir::gather::runtime;

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

void mlir::gather::runtime::recordIndexError(int64_t op, int64_t dim,
                                             int64_t index, int64_t size) {
  recordError({KernelErrorRecord::Index, op, 0, dim, index, size});
}

void mlir::gather::runtime::recordShapeError(int64_t op, int64_t rule,
                                             int64_t dim, int64_t a,
                                             int64_t b) {
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

std::string KernelErrorRecord::message() const {
  char text[256];
  switch (kind) {
  case None:
    return {};
  case Index:
    gatherMlirFormatIndexError(text, sizeof(text), op, dim, a, b);
    break;
  case Shape:
    gatherMlirFormatShapeError(text, sizeof(text), op, rule, dim, a, b);
    break;
  }
  return text;
}
