//===- OpenMPRuntime.h - How the package drives libomp ----------*- C++ -*-===//
//
// Threaded kernels run on LLVM's libomp, loaded into the process when the
// first one is linked. Its environment is set before that (thread counts
// checked, how long workers spin), and where its workers run after.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PYTHON_OPENMPRUNTIME_H
#define GATHER_PYTHON_OPENMPRUNTIME_H

#include "llvm/Support/Error.h"

namespace mlir::gather::python {

/// libomp's environment as the package wants it, before anything that
/// loads libomp: KernelCache::miss for a threaded kernel (before it is read
/// from disk or compiled), a JitModule whose module uses OpenMP (embedding
/// bags among them). Sets KMP_BLOCKTIME to 100us unless it is set
/// (workers spin that long when a loop ends, then sleep), and fails, naming
/// the variable and its value, when OMP_NUM_THREADS is set but is not a
/// list of thread counts (such as `2` or `2,1`), or asks for a team of more
/// threads than the system lets this process start (libomp aborts the whole
/// process on an empty value, a word or a negative number when it starts,
/// and when a thread fails to start).
llvm::Error prepareOpenMPEnvironment();

/// Where libomp's workers run, once, after `library` (libomp) is loaded:
/// each is bound to one CPU the process may use, other than the one the
/// calling thread runs on (in turn, when there are more workers than such
/// CPUs), and asks for a 100 us time slice, so that, woken on a CPU another
/// thread holds, it preempts that thread; the calling thread stays unbound
/// and keeps its slice. Unbound, a 2-vCPU VM woke a
/// worker on its caller's CPU when the other one had idled or was busy, and
/// the kernel ran on one core (docs/Design.md, the cost model). Nothing is
/// bound when the environment asks libomp for a placement of its own
/// (OMP_PROC_BIND, OMP_PLACES, KMP_AFFINITY, GOMP_CPU_AFFINITY:
/// `OMP_PROC_BIND=false` leaves every thread unbound), when there is no
/// other CPU, or when the system refuses; nothing fails.
void placeOpenMPWorkers(llvm::StringRef library);

/// Before a kernel call: when the calling thread runs on another CPU than
/// when the workers were bound, they are bound around it again (a few
/// microseconds); else, and when none are bound, it only reads the CPU.
void keepOpenMPWorkersOffCaller();

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_OPENMPRUNTIME_H
