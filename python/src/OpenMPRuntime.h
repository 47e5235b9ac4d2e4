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

} // namespace mlir::gather::python

#endif // GATHER_PYTHON_OPENMPRUNTIME_H
