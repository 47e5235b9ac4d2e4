//===- KernelCall.h - Errors of a kernel call, recorded ---------*- C++ -*-===//
//
// Kernels that cannot run report through the error hooks of
// gather-c/Runtime.h, which the runtime's JITs resolve to the recorders
// below: the error of a call is recorded, never printed, and the host
// decides what to do with it when the call returns (the Python package
// raises IndexError or ValueError).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_KERNELCALL_H
#define GATHER_RUNTIME_KERNELCALL_H

#include <cstdint>
#include <mutex>
#include <string>

namespace mlir::gather::runtime {

/// The first error a kernel call reported: an index out of range or a
/// broken shape rule, with the hooks' arguments.
struct KernelErrorRecord {
  enum Kind { None, Index, Shape } kind = None;
  int64_t op = 0, rule = 0, dim = 0, a = 0, b = 0;

  /// The message the default hooks print (gatherMlirFormatIndexError,
  /// gatherMlirFormatShapeError); empty for None.
  std::string message() const;
};

/// The hooks as the JIT resolves them: they record the first error of the
/// kernel call that runs on the calling thread, or, on a thread that a
/// threaded call's OpenMP team started, of that call (KernelCall).
void recordIndexError(int64_t op, int64_t dim, int64_t index, int64_t size);
void recordShapeError(int64_t op, int64_t rule, int64_t dim, int64_t a,
                      int64_t b);

/// One call of a kernel: a kernel that may run on libomp's threads
/// (`openMP`) starts with libomp's workers kept off the calling thread's CPU
/// (keepOpenMPWorkersOffCaller), and the hooks on the calling thread record
/// into it. A `threaded` call (a kernel that may report on the threads it
/// starts: mayReportOnOpenMPThreads) also takes the errors of threads that
/// are no call's own, which cannot tell whose they are: threaded calls run
/// one at a time (each uses every core; a host with a global lock, such as
/// Python's, creates them without it, which a waiting call would otherwise
/// hold), so they are this call's. A process forked while one ran starts
/// with the registry unlocked.
class KernelCall {
public:
  KernelCall(bool threaded, bool openMP);
  ~KernelCall();
  KernelCall(const KernelCall &) = delete;
  KernelCall &operator=(const KernelCall &) = delete;

  /// The error the kernel reported (kind None when it reported none).
  KernelErrorRecord take();

private:
  KernelErrorRecord record;
  std::unique_lock<std::mutex> oneAtATime;
};

} // namespace mlir::gather::runtime

#endif // GATHER_RUNTIME_KERNELCALL_H
