//===- OpenMPRuntime.cpp - How the package drives libomp ------------------===//

#include "OpenMPRuntime.h"

#include "gather/Conversion/GatherToAffine/ParallelThreshold.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <atomic>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

using namespace llvm;
using namespace mlir::gather::python;

namespace {
/// The most threads this process could start, and the system limit that
/// says so.
struct ThreadBudget {
  uint64_t threads = std::numeric_limits<uint64_t>::max();
  std::string reason;
};

/// The text of a /proc or /sys file (whose size reads as 0: streamed), or
/// none when it cannot be read.
std::optional<std::string> readSystemFile(const Twine &path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> file =
      MemoryBuffer::getFileAsStream(path);
  if (!file)
    return std::nullopt;
  return (*file)->getBuffer().str();
}

/// A number that a /proc or /sys file holds, if it can be read.
std::optional<uint64_t> readProcNumber(const Twine &path) {
  std::optional<std::string> text = readSystemFile(path);
  uint64_t number;
  if (!text || StringRef(*text).trim().getAsInteger(10, number))
    return std::nullopt;
  return number;
}

/// The threads that exist on the system (/proc/loadavg's fourth field,
/// running/total), if it says.
std::optional<uint64_t> readSystemThreads() {
  std::optional<std::string> text = readSystemFile("/proc/loadavg");
  if (!text)
    return std::nullopt;
  SmallVector<StringRef> fields;
  StringRef(*text).split(fields, ' ');
  uint64_t total;
  if (fields.size() < 4 ||
      fields[3].split('/').second.getAsInteger(10, total))
    return std::nullopt;
  return total;
}

/// The directory of this process's cgroup that holds its pids.max, if
/// known: the pids controller's (cgroup v1), else the unified one's (v2).
std::optional<std::string> readOwnPidsCgroup() {
  std::optional<std::string> text = readSystemFile("/proc/self/cgroup");
  if (!text)
    return std::nullopt;
  SmallVector<StringRef> lines;
  StringRef(*text).split(lines, '\n');
  std::optional<std::string> unified;
  for (StringRef line : lines) {
    auto [id, rest] = line.split(':');
    auto [controllers, path] = rest.split(':');
    SmallVector<StringRef> names;
    controllers.split(names, ',');
    if (llvm::is_contained(names, "pids"))
      return ("/sys/fs/cgroup/pids" + path.trim()).str();
    if (id == "0" && controllers.empty())
      unified = ("/sys/fs/cgroup" + path.trim()).str();
  }
  return unified;
}

/// Linux's limits on new threads (where it says; elsewhere none): each takes
/// a thread ID, of which kernel.pid_max less the 300 it reserves less those
/// in use are left, counts against kernel.threads-max, the cgroup's
/// pids.max and, unless the process runs as root (which it does not bind),
/// the user's RLIMIT_NPROC (whose tasks in other processes are not counted:
/// an upper bound), and its stack and guard page take two of the process's
/// memory maps (vm.max_map_count less the maps in use). A team beyond them
/// makes libomp abort when pthread_create fails (2-vCPU VM: 32600 threads
/// against kernel.pid_max 32768).
ThreadBudget getThreadBudget() {
  ThreadBudget budget;
  auto bound = [&](std::optional<uint64_t> limit, uint64_t used,
                   uint64_t perThread, std::string reason) {
    if (!limit)
      return;
    uint64_t threads = used < *limit ? (*limit - used) / perThread : 0;
    if (threads < budget.threads)
      budget = {threads, std::move(reason)};
  };
  uint64_t systemThreads = readSystemThreads().value_or(0);
  std::string existing = std::to_string(systemThreads) + " threads exist";
  std::optional<uint64_t> pidMax = readProcNumber("/proc/sys/kernel/pid_max");
  bound(pidMax, systemThreads + 300, 1,
        "kernel.pid_max is " + std::to_string(pidMax.value_or(0)) +
            ", 300 IDs are reserved, " + existing);
  std::optional<uint64_t> threadsMax =
      readProcNumber("/proc/sys/kernel/threads-max");
  bound(threadsMax, systemThreads, 1,
        "kernel.threads-max is " + std::to_string(threadsMax.value_or(0)) +
            ", " + existing);
  if (std::optional<std::string> cgroup = readOwnPidsCgroup()) {
    std::optional<uint64_t> pidsMax = readProcNumber(*cgroup + "/pids.max");
    uint64_t pids = readProcNumber(*cgroup + "/pids.current").value_or(0);
    bound(pidsMax, pids, 1,
          "the cgroup's pids.max is " + std::to_string(pidsMax.value_or(0)) +
              ", " + std::to_string(pids) + " tasks are in it");
  }
  struct rlimit processes;
  if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &processes) == 0 &&
      processes.rlim_cur != RLIM_INFINITY)
    bound(processes.rlim_cur, 0, 1,
          "RLIMIT_NPROC is " + std::to_string(processes.rlim_cur));
  std::optional<uint64_t> maps = readProcNumber("/proc/sys/vm/max_map_count");
  if (std::optional<std::string> inUse = readSystemFile("/proc/self/maps")) {
    uint64_t used = StringRef(*inUse).count('\n');
    bound(maps, used, 2,
          "vm.max_map_count is " + std::to_string(maps.value_or(0)) + ", " +
              std::to_string(used) +
              " maps are in use, and every thread takes two");
  }
  return budget;
}
} // namespace

Error mlir::gather::python::prepareOpenMPEnvironment() {
  // Worker threads spin for 100 us after a kernel's parallel loop ends,
  // then sleep, instead of spinning for libomp's default 200 ms, which
  // holds a core that other work (torch's own threads, another process)
  // may want. Sleeping at once (0) made every call wake its workers, about
  // 50 us on a 2-vCPU VM: a 4 MiB threaded gather took 160 us where 100 us
  // of spinning lets calls in a row find them awake (44 us; serial: 90).
  // docs/Design.md, the cost model. A user's KMP_BLOCKTIME wins; so does a
  // libomp that was loaded and initialized before the package's.
  setenv("KMP_BLOCKTIME", "100us", /*overwrite=*/0);
  const char *value = std::getenv("OMP_NUM_THREADS");
  if (!value)
    return Error::success();
  std::optional<SmallVector<unsigned>> counts = parseOpenMPThreadCounts(value);
  if (!counts)
    return createStringError(
        "OMP_NUM_THREADS='" + std::string(value) +
        "' is not a list of thread counts (such as 2 or 2,1): libomp, which "
        "runs threaded kernels, would abort the process; set it to a number "
        "of threads or unset it");
  // Checked until a team fits: libomp reads the variables once, when it
  // starts, and its workers would then count against the limits.
  static std::atomic<bool> teamFits{false};
  if (teamFits)
    return Error::success();
  // The team starts all its threads but the one that forks it.
  uint64_t team = getOpenMPTeamSize(*counts).value_or(1);
  ThreadBudget budget = getThreadBudget();
  if (team - 1 <= budget.threads) {
    teamFits = true;
    return Error::success();
  }
  return createStringError(
      "OMP_NUM_THREADS='" + std::string(value) + "' asks for a team of " +
      std::to_string(team) + " threads, but this process can start at most " +
      std::to_string(budget.threads) + " more (" + budget.reason +
      "): libomp, which runs threaded kernels, would abort the process when "
      "a thread fails to start; set fewer threads or unset it");
}

