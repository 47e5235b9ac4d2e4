//===- OpenMPRuntime.cpp - How kernels drive libomp -----------------------===//

#include "gather/Runtime/OpenMPRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace llvm;
using namespace mlir::gather;
using namespace mlir::gather::runtime;

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
  if (fields.size() < 4 || fields[3].split('/').second.getAsInteger(10, total))
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

/// libomp's environment as the kernels want it (loadOpenMP).
Error prepareOpenMPEnvironment() {
  // Worker threads spin for 100 us after a kernel's parallel loop ends,
  // then sleep, instead of spinning for libomp's default 200 ms, which
  // holds a core that other work (torch's own threads, another process)
  // may want; sleeping at once (0) makes every call in a row wake its
  // workers (docs/decisions/kernel-cost-model.md, "libomp's block time").
  // A user's KMP_BLOCKTIME wins; so does a
  // libomp that was loaded and initialized before the runtime's.
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

/// libomp's source location (`ident_t`), as a compiler passes it to
/// `__kmpc_fork_call`.
struct OpenMPIdent {
  int32_t reserved1 = 0;
  int32_t flags = 2; // KMP_IDENT_KMPC
  int32_t reserved2 = 0;
  int32_t reserved3 = 0;
  const char *source = ";OpenMPRuntime.cpp;placeOpenMPWorkers;0;0;;";
};
using OpenMPMicrotask = void (*)(int32_t *, int32_t *, ...);
using OpenMPForkCall = void (*)(OpenMPIdent *, int32_t, OpenMPMicrotask, ...);

/// The time slice a bound worker asks the scheduler for: the shortest it
/// grants (100 us).
constexpr uint64_t kWorkerSliceNanoseconds = 100'000;

/// Linux's `struct sched_attr` as sched_setattr takes it (its first
/// version; glibc declares neither).
struct SchedAttr {
  uint32_t size = sizeof(SchedAttr);
  uint32_t policy = SCHED_OTHER;
  uint64_t flags = 0;
  int32_t nice = 0;
  uint32_t priority = 0;
  uint64_t runtime = 0; // SCHED_OTHER: the slice asked for
  uint64_t deadline = 0;
  uint64_t period = 0;
};

/// libomp's workers, once bound: their thread IDs, the CPUs the process
/// may use, and the CPU the calling thread ran on when they were bound. In
/// a child forked after they were bound, none are: libomp starts workers of
/// its own there, to be placed before the child's first threaded call.
struct BoundWorkers {
  std::mutex mutex;
  std::vector<pid_t> threads;
  std::vector<int> cpus;
  std::atomic<int> callerCpu{-1};
  std::atomic<bool> bound{false};
  std::atomic<bool> placeAgain{false};

  /// Binds every worker to a CPU other than `caller`, in turn.
  void bindAround(int caller);
};

/// Never destroyed: calls on other threads may read it at exit. A forked
/// child gets a new one (another thread may have held the mutex).
std::atomic<BoundWorkers *> currentWorkers{new BoundWorkers};
BoundWorkers &boundWorkers() {
  return *currentWorkers.load(std::memory_order_acquire);
}

/// In a child forked after the workers were bound: a new record, whose
/// workers are placed before the child's first threaded call.
void forgetWorkersInChild() {
  if (!boundWorkers().bound.load(std::memory_order_relaxed))
    return;
  auto *fresh = new BoundWorkers;
  fresh->placeAgain.store(true, std::memory_order_relaxed);
  currentWorkers.store(fresh, std::memory_order_release);
}

void BoundWorkers::bindAround(int caller) {
  std::vector<int> others;
  for (int cpu : cpus)
    if (cpu != caller)
      others.push_back(cpu);
  if (others.empty())
    return;
  for (auto [i, thread] : llvm::enumerate(threads)) {
    // Only threads of this process (a thread ID is a process's elsewhere
    // once its thread ended): signal 0 to it within this thread group.
    if (syscall(SYS_tgkill, getpid(), thread, 0) != 0)
      continue;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(others[i % others.size()], &set);
    // Refused (a seccomp filter, a CPU gone offline): it stays as it was.
    (void)sched_setaffinity(thread, sizeof(set), &set);
  }
  callerCpu.store(caller, std::memory_order_relaxed);
}

/// The thread ID of each worker, by libomp's thread number less one, and
/// libomp's omp_get_thread_num.
struct WorkerThreads {
  std::vector<pid_t> threads;
  int (*threadNum)();
};

/// The parallel region's body: each worker says who it is.
void recordWorker(int32_t *, int32_t *, WorkerThreads *workers) {
  int thread = workers->threadNum();
  if (thread > 0 && size_t(thread) <= workers->threads.size())
    workers->threads[thread - 1] = static_cast<pid_t>(gettid());
}

/// Binds libomp's workers (loadOpenMP) once it is loaded, and in a forked
/// child (keepOpenMPWorkersOffCaller).
void placeOpenMPWorkers() {
  for (const char *binding :
       {"OMP_PROC_BIND", "OMP_PLACES", "KMP_AFFINITY", "GOMP_CPU_AFFINITY"})
    // (An empty value is none: libomp ignores it.)
    if (const char *value = std::getenv(binding); value && *value)
      return;
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0 ||
      CPU_COUNT(&allowed) < 2)
    return;
  // The library the kernels were linked against, loaded for good by
  // loadOpenMP (this returns its handle).
  sys::DynamicLibrary openMP =
      sys::DynamicLibrary::getPermanentLibrary(getOpenMPLibrary().data());
  if (!openMP.isValid())
    return;
  auto fork = reinterpret_cast<OpenMPForkCall>(
      openMP.getAddressOfSymbol("__kmpc_fork_call"));
  auto maxThreads = reinterpret_cast<int (*)()>(
      openMP.getAddressOfSymbol("omp_get_max_threads"));
  WorkerThreads workers;
  workers.threadNum = reinterpret_cast<int (*)()>(
      openMP.getAddressOfSymbol("omp_get_thread_num"));
  if (fork && maxThreads && workers.threadNum && maxThreads() > 1) {
    // The default team, as the kernels' parallel regions start it: its
    // threads are the ones they run on.
    workers.threads.assign(maxThreads() - 1, 0);
    static OpenMPIdent ident;
    fork(&ident, 1, reinterpret_cast<OpenMPMicrotask>(recordWorker), &workers);
  }
  llvm::erase(workers.threads, 0);
  if (workers.threads.empty())
    return;
  // A bound worker woken on a CPU where another thread runs (torch's
  // libgomp workers spin there after each op) waited out that thread's
  // time slice (docs/decisions/kernel-cost-model.md, "libomp's workers
  // bound to CPUs"). A short slice of its own (Linux 6.12
  // and later; older kernels ignore it) lets it preempt that thread as it
  // wakes. The request restates the thread's nice value, which it would
  // otherwise reset to 0 (and, unprivileged, fail on a niced process).
  for (pid_t thread : workers.threads) {
    SchedAttr shortSlice;
    shortSlice.runtime = kWorkerSliceNanoseconds;
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, thread);
    if (errno != 0)
      continue;
    shortSlice.nice = nice;
    (void)syscall(SYS_sched_setattr, thread, &shortSlice, 0);
  }
  BoundWorkers &bound = boundWorkers();
  std::lock_guard<std::mutex> lock(bound.mutex);
  bound.threads = std::move(workers.threads);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed))
      bound.cpus.push_back(cpu);
  bound.bindAround(sched_getcpu());
  bound.bound.store(true, std::memory_order_release);
}
} // namespace

StringRef mlir::gather::runtime::getOpenMPLibrary() {
  return GATHER_OPENMP_LIBRARY;
}

std::optional<SmallVector<unsigned>>
mlir::gather::runtime::parseOpenMPThreadCounts(StringRef value) {
  SmallVector<StringRef> items;
  value.split(items, ',');
  SmallVector<unsigned> counts;
  for (StringRef item : items)
    if (item.trim().getAsInteger(10, counts.emplace_back()))
      return std::nullopt;
  return counts;
}

std::optional<unsigned> mlir::gather::runtime::getOpenMPTeamSize() {
  const char *value = std::getenv("OMP_NUM_THREADS");
  if (!value)
    return std::nullopt;
  std::optional<SmallVector<unsigned>> counts = parseOpenMPThreadCounts(value);
  if (!counts)
    return std::nullopt;
  return getOpenMPTeamSize(*counts);
}

std::optional<unsigned>
mlir::gather::runtime::getOpenMPTeamSize(ArrayRef<unsigned> counts) {
  if (counts.empty() || counts.front() == 0)
    return std::nullopt;
  unsigned team = counts.front();
  unsigned limit;
  if (const char *threadLimit = std::getenv("OMP_THREAD_LIMIT"))
    if (!StringRef(threadLimit).trim().getAsInteger(10, limit) && limit > 0)
      team = std::min(team, limit);
  return team;
}

Error mlir::gather::runtime::loadOpenMP() {
  // Once loaded, no lock is taken (a child forked while another thread
  // held it could not take it).
  static std::atomic<bool> loaded{false};
  if (loaded.load(std::memory_order_acquire))
    return Error::success();
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (loaded.load(std::memory_order_relaxed))
    return Error::success();
  if (Error error = prepareOpenMPEnvironment())
    return error;
  std::string why;
  if (!sys::DynamicLibrary::getPermanentLibrary(getOpenMPLibrary().data(), &why)
           .isValid())
    return createStringError("cannot load libomp (" + getOpenMPLibrary().str() +
                             "): " + why);
  placeOpenMPWorkers();
  // A forked child has other threads (libomp starts its own again).
  pthread_atfork(nullptr, nullptr, forgetWorkersInChild);
  loaded.store(true, std::memory_order_release);
  return Error::success();
}

void mlir::gather::runtime::keepOpenMPWorkersOffCaller() {
  BoundWorkers &workers = boundWorkers();
  // A forked child's first threaded call starts libomp's workers (the
  // parallel region that records them), which the kernel would start.
  if (workers.placeAgain.load(std::memory_order_acquire) &&
      workers.placeAgain.exchange(false))
    placeOpenMPWorkers();
  if (!workers.bound.load(std::memory_order_acquire))
    return;
  int here = sched_getcpu();
  if (here < 0 || here == workers.callerCpu.load(std::memory_order_relaxed))
    return;
  // Another caller rebinding them: this call runs as they are.
  std::unique_lock<std::mutex> lock(workers.mutex, std::try_to_lock);
  if (lock && workers.bound.load(std::memory_order_relaxed))
    workers.bindAround(here);
}
