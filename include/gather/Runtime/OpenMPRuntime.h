//===- OpenMPRuntime.h - How kernels drive libomp -------------*- C++ -*-===//
//
// Threaded kernels run on LLVM's libomp, loaded into the process by
// loadOpenMP before the first one is linked: its environment set before
// (thread counts checked, how long workers spin), where its workers run
// after.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNTIME_OPENMPRUNTIME_H
#define GATHER_RUNTIME_OPENMPRUNTIME_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace mlir::gather::runtime {

/// The libomp that threaded kernels link against (LLVM's, of the LLVM the
/// runtime was built with).
llvm::StringRef getOpenMPLibrary();

/// The thread counts an OMP_NUM_THREADS value lists (`2`, `2,1`), or none
/// when an item is not a count (empty, a word, a negative number), which
/// makes libomp abort the process when it starts.
std::optional<llvm::SmallVector<unsigned>>
parseOpenMPThreadCounts(llvm::StringRef value);

/// The team of a (not nested) OpenMP parallel loop as the environment sets
/// it: OMP_NUM_THREADS's first count, capped by OMP_THREAD_LIMIT when that
/// is a positive count; none when OMP_NUM_THREADS is unset, malformed or 0.
std::optional<unsigned> getOpenMPTeamSize();
/// The same from OMP_NUM_THREADS's counts, parsed already.
std::optional<unsigned> getOpenMPTeamSize(llvm::ArrayRef<unsigned> counts);

/// libomp in the process, as the kernels want it, before anything links
/// code that calls it: the kernel linker for a threaded kernel (KernelCache,
/// before a kernel is read from disk or compiled), a JitModule whose module
/// uses OpenMP (embedding bags among them). The first call that succeeds
/// prepares libomp's environment, loads it and places its workers; later
/// calls do nothing. It reads and sets the environment: a host with a lock
/// over the environment (Python's GIL) holds it.
///
/// The environment: KMP_BLOCKTIME is set to 100us unless it is set (workers
/// spin that long when a loop ends, then sleep); an error, naming the
/// variable and its value, when OMP_NUM_THREADS is set but is not a list of
/// thread counts (such as `2` or `2,1`), or asks for a team of more threads
/// than the system lets this process start (libomp aborts the whole process
/// on an empty value, a word or a negative number when it starts, and when
/// a thread fails to start). libomp is then not loaded, and a call after
/// the variable is corrected loads it.
///
/// The workers: each is bound to one CPU the process may use, other than
/// the one the calling thread runs on (in turn, when there are more workers
/// than such CPUs), and asks for a 100 us time slice, so that, woken on a
/// CPU another thread holds, it preempts that thread; the calling thread
/// stays unbound and keeps its slice. Unbound, a 2-vCPU VM woke a worker on
/// its caller's CPU when the other one had idled or was busy, and the
/// kernel ran on one core (docs/decisions/kernel-cost-model.md). Nothing is
/// bound when the environment asks libomp for a placement of its own
/// (OMP_PROC_BIND, OMP_PLACES, KMP_AFFINITY, GOMP_CPU_AFFINITY:
/// `OMP_PROC_BIND=false` leaves every thread unbound), when there is no
/// other CPU, or when the system refuses; that never fails.
llvm::Error loadOpenMP();

/// Before a call of a kernel that may run on libomp's threads: when the
/// calling thread runs on another CPU than when the workers were bound,
/// they are bound around it again (a few microseconds); else, and when none
/// are bound, it only reads the CPU. In a child forked after the workers
/// were bound, the first such call places libomp's new workers as
/// loadOpenMP placed the parent's.
void keepOpenMPWorkersOffCaller();

} // namespace mlir::gather::runtime

#endif // GATHER_RUNTIME_OPENMPRUNTIME_H
