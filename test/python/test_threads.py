"""Kernels on threads: the Python package sets libomp's KMP_BLOCKTIME to
100us (workers spin that long after a kernel's loop ends, then sleep) unless
the environment sets it, and refuses an OMP_NUM_THREADS that would make libomp abort the process
(a malformed one, or a team larger than the system lets it start).
Its workers are bound to CPUs other than the calling thread's, unless the
environment asks libomp for a placement. Each case runs a new interpreter,
since libomp reads the variables once."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

# The first threaded kernel of the process, after a small serial call: a
# gather with a 16 MiB result (the package's own kernels) or embedding bags
# over 2**19 values (a JitModule), both on threads with OMP_NUM_THREADS=2
# (from 1 MiB, 2**18 f32 values). Reports the variable before and after
# it, the block time of the libomp the process loaded and the CPU time its
# workers spin for after the kernel.
WORKLOAD = """
    import ctypes
    import json
    import sys
    import time
    import numpy as np
    import gather_mlir as g
    libc = ctypes.CDLL(None)
    libc.getenv.restype = ctypes.c_char_p
    def blocktime_variable():
        value = libc.getenv(b"KMP_BLOCKTIME")
        return value.decode() if value is not None else None
    small = g.gather(np.arange(10.0), np.array([1, -2]))
    before = blocktime_variable()
    if sys.argv[1] == "gather":
        data = np.arange(4096 * 1024, dtype=np.float32).reshape(4096, 1024)
        ids = np.arange(4095, -1, -1)
        threaded = lambda: g.gather(data, ids)
        expected = data[ids]
    else:
        data = np.arange(1000 * 128, dtype=np.float32).reshape(1000, 128)
        ids = np.arange(4096) * 7 % 1000
        threaded = lambda: g.embedding_bag(ids, data, np.arange(0, 4096, 4),
                                           mode="sum")
        expected = data[ids].reshape(1024, 4, 128).sum(axis=1)
    big = threaded()
    after = blocktime_variable()
    # The process's CPU time while its main thread sleeps 100 ms after a
    # second call: the workers' spinning after the kernel (after the first,
    # libomp's start-up can take tens of ms more).
    threaded()
    cpu = time.process_time()
    time.sleep(0.1)
    idle_cpu_ms = (time.process_time() - cpu) * 1e3
    with open("/proc/self/maps") as maps:
        libomp = next(line.split()[-1] for line in maps
                      if line.rstrip().endswith("/libomp.so")
                      or "/libomp.so." in line)
    omp = ctypes.CDLL(libomp)
    print(json.dumps({"before": before, "after": after,
                      "libomp_blocktime": omp.kmp_get_blocktime(),
                      "idle_cpu_ms": idle_cpu_ms,
                      "right": bool(np.array_equal(big, expected))
                               and small.tolist() == [1.0, 8.0]}))
"""

THREADED_KERNELS = ("gather", "embedding_bag")


def run(script, env_changes, *args):
    """The JSON that `script` prints last, run by a new interpreter with
    `args` and the environment changed by `env_changes` (None: unset)."""
    env = dict(os.environ)
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script),
                           *args],
                          capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("kernel", THREADED_KERNELS)
def test_workers_spin_briefly_by_default(kernel):
    stats = run(WORKLOAD, {"KMP_BLOCKTIME": None, "OMP_NUM_THREADS": "2"},
                kernel)
    assert stats["right"]
    # Set only when a kernel needs libomp, and then read by it (libomp
    # reports the value in the unit it was given; its default is 200 ms).
    assert stats["before"] is None
    assert stats["after"] == "100us"
    assert stats["libomp_blocktime"] == 100
    # libomp reports the value in the unit it was given, so 100 us and
    # 100 ms look alike above; the spinning tells them apart. With
    # KMP_BLOCKTIME=100ms the sleep took 99-107 ms of CPU time here; by
    # default 0.1-16 ms (not all of it the workers').
    assert stats["idle_cpu_ms"] < 50


@pytest.mark.parametrize("kernel", THREADED_KERNELS)
def test_the_environments_block_time_wins(kernel):
    stats = run(WORKLOAD, {"KMP_BLOCKTIME": "7", "OMP_NUM_THREADS": "2"},
                kernel)
    assert stats["right"]
    assert stats["before"] == stats["after"] == "7"
    assert stats["libomp_blocktime"] == 7


# A row gather module and the pipeline that runs it on threads, for the
# scripts below that build a JitModule using OpenMP.
THREADED_MODULE = """
    source = (
        "func.func @k(%d: tensor<?x?xf32>, %i: tensor<?xi64>)"
        "    -> tensor<?x?xf32> {"
        "  %r = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi64>)"
        "      -> tensor<?x?xf32>"
        "  return %r : tensor<?x?xf32>"
        "}")
    pipeline = "gather-to-llvm{parallel=true parallel-min-bytes=0}"
"""

# A threaded gather (package and JitModule) under a malformed
# OMP_NUM_THREADS: each raises ValueError naming it (the package before it
# reads or compiles a kernel), serial kernels still run, and a corrected
# variable lets the same call run on threads.
BAD_THREADS = """
    import json, os
    import numpy as np
    import gather_mlir as g
    from gather_mlir import _native
    from gather_mlir.compiler import JitModule, Module
    data = np.arange(4096 * 1024, dtype=np.float32).reshape(4096, 1024)
    ids = np.arange(4095, -1, -1)
    errors = []
    small = g.gather(data[:4], np.array([3, 0]))
    before = _native.kernel_cache_stats()
    try:
        g.gather(data, ids)
    except ValueError as e:
        errors.append(str(e))
    after = _native.kernel_cache_stats()
    untouched = all(before[k] == after[k]
                    for k in ("compiled", "loaded", "rejected"))
""" + THREADED_MODULE + """
    try:
        JitModule(Module(source), pipeline=pipeline)
    except ValueError as e:
        errors.append(str(e))
    os.environ["OMP_NUM_THREADS"] = "2"
    big = g.gather(data, ids)
    print(json.dumps({"errors": errors, "untouched": untouched,
                      "right": bool(np.array_equal(big, data[ids])
                                    and np.array_equal(small, data[[3, 0]]))}))
"""


def test_a_malformed_thread_count_is_an_error_not_an_abort():
    for value in ("", "two", "-1", "2,x"):
        stats = run(BAD_THREADS, {"OMP_NUM_THREADS": value})
        assert stats["right"]
        # Refused before a kernel was read from disk or compiled.
        assert stats["untouched"]
        # With one CPU the package runs no kernel on threads, so its gather
        # never reads the variable; the JitModule's threaded pipeline does.
        threaded = 2 if len(os.sched_getaffinity(0)) >= 2 else 1
        assert len(stats["errors"]) == threaded, stats["errors"]
        for error in stats["errors"]:
            assert (f"OMP_NUM_THREADS='{value}' is not a list of thread "
                    "counts") in error


# A team of more threads than Linux lets the process start (5,000,000: more
# thread IDs than any kernel.pid_max, at most 2**22, allows) is refused by a
# JitModule that uses OpenMP, naming the count and the limit; the package's
# own gathers stay serial (their threshold is 512 KiB a thread) and run.
# OMP_THREAD_LIMIT caps the team (libomp warns and uses the cap), and so does
# a corrected OMP_NUM_THREADS: then the same module runs on threads.
TOO_MANY_THREADS = """
    import json, os, sys
    import numpy as np
    import gather_mlir as g
    from gather_mlir.compiler import JitModule, Module
""" + THREADED_MODULE + """
    data = np.arange(4096 * 1024, dtype=np.float32).reshape(4096, 1024)
    ids = np.arange(4095, -1, -1)
    right = bool(np.array_equal(g.gather(data, ids), data[ids]))
    errors = []
    try:
        JitModule(Module(source), pipeline=pipeline)
    except ValueError as e:
        errors.append(str(e))
    if sys.argv[1] == "fix":
        os.environ["OMP_NUM_THREADS"] = "2"
    jit = JitModule(Module(source), pipeline=pipeline)
    right = right and bool(np.array_equal(jit.call("k", data, ids), data[ids]))
    print(json.dumps({"errors": errors, "right": right}))
"""


def test_more_threads_than_the_system_can_start_is_an_error_not_an_abort():
    stats = run(TOO_MANY_THREADS,
                {"OMP_NUM_THREADS": "5000000", "OMP_THREAD_LIMIT": None},
                "fix")
    assert stats["right"]
    assert len(stats["errors"]) == 1, stats["errors"]
    assert stats["errors"][0].startswith(
        "OMP_NUM_THREADS='5000000' asks for a team of 5000000 threads, but "
        "this process can start at most ")
    # The limit that binds depends on the machine; one of them is named.
    assert any(limit in stats["errors"][0] for limit in (
        "kernel.pid_max is ", "kernel.threads-max is ",
        "the cgroup's pids.max is ", "RLIMIT_NPROC is ",
        "vm.max_map_count is ")), stats["errors"][0]
    capped = run(TOO_MANY_THREADS,
                 {"OMP_NUM_THREADS": "5000000", "OMP_THREAD_LIMIT": "2"},
                 "keep")
    assert capped == {"errors": [], "right": True}


# A team of 16 against a limit of 8 tasks that only one reason sets: the
# user's RLIMIT_NPROC (a user other than root: root is not bound by it) or
# the pids.max of the process's cgroup. The package's threaded gather and a
# JitModule that uses OpenMP each raise ValueError naming that reason.
TEAM_OF_16 = """
    import json, os, resource, sys
    import numpy as np
    import gather_mlir as g
    from gather_mlir.compiler import JitModule, Module
    if sys.argv[1:] == ["rlimit"]:
        # Imported first: the interpreter may live where user nobody
        # cannot reach (a virtual environment under /root).
        if os.geteuid() == 0:  # root is not bound by RLIMIT_NPROC
            os.setgid(65534)
            os.setuid(65534)
        resource.setrlimit(resource.RLIMIT_NPROC, (8, 8))
""" + THREADED_MODULE + """
    data = np.arange(4096 * 1024, dtype=np.float32).reshape(4096, 1024)
    errors = []
    for call in (lambda: g.gather(data, np.arange(4096)),
                 lambda: JitModule(Module(source), pipeline=pipeline)):
        try:
            call()
        except ValueError as e:
            errors.append(str(e))
    print(json.dumps({"errors": errors}))
"""


def run_limited(env_changes, preexec=None, *args):
    """TEAM_OF_16's JSON, run with `args` by a new interpreter that calls
    `preexec` (as subprocess's preexec_fn) before it starts."""
    # numpy's BLAS starts no threads of its own under the limit.
    env = dict(os.environ, OMP_NUM_THREADS="16", OPENBLAS_NUM_THREADS="1",
               **env_changes)
    env.pop("OMP_THREAD_LIMIT", None)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(TEAM_OF_16),
                           *args],
                          capture_output=True, text=True, env=env,
                          timeout=600, preexec_fn=preexec)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_rlimit_nproc_bounds_the_team(tmp_path):
    """As user nobody when run by root, with RLIMIT_NPROC at 8."""
    os.chmod(tmp_path, 0o777)  # the kernel cache of the user the test runs
    stats = run_limited({"GATHER_MLIR_CACHE_DIR": str(tmp_path),
                         "HOME": str(tmp_path)}, None, "rlimit")
    assert len(stats["errors"]) == 2, stats
    for error in stats["errors"]:
        assert error.startswith(
            "OMP_NUM_THREADS='16' asks for a team of 16 threads, but this "
            "process can start at most 8") and "RLIMIT_NPROC is 8" in error, \
            error


def test_the_cgroups_pids_max_bounds_the_team():
    base = "/sys/fs/cgroup/pids"  # the pids controller of cgroup v1
    group = os.path.join(base, f"gather_mlir_test_{os.getpid()}")
    try:
        os.mkdir(group)
    except OSError as e:
        pytest.skip(f"no cgroup of our own under {base}: {e}")
    try:
        with open(os.path.join(group, "pids.max"), "w") as f:
            f.write("8")

        def join():
            with open(os.path.join(group, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))

        stats = run_limited({}, join)
    finally:
        os.rmdir(group)
    assert len(stats["errors"]) == 2, stats
    for error in stats["errors"]:
        assert error.startswith(
            "OMP_NUM_THREADS='16' asks for a team of 16 threads, but this "
            "process can start at most ") and \
            "the cgroup's pids.max is 8, " in error, error


# The result size from which the package's kernels run on threads: 512 KiB
# a thread OpenMP starts (OMP_NUM_THREADS's first count, else the CPUs), and
# never with one thread. A result of exactly that size shares the threaded
# kernel of a 16 MiB result; one row less gets a serial kernel of its own.
# Embedding bags follow the rule with their values as f32 bytes: 2**19 of
# them run on threads (libomp is loaded) unless there is one thread.
THRESHOLD = """
    import json
    import numpy as np
    import gather_mlir as g
    from gather_mlir import _native
    threshold = _native.host_parallel_min_bytes()
    data = np.arange(4096 * 256, dtype=np.float32).reshape(4096, 256)
    def compiles(rows):
        before = _native.kernel_cache_stats()["compiled"]
        ids = np.arange(rows) * 7 % 4096
        right = bool(np.array_equal(g.gather(data, ids), data[ids]))
        return _native.kernel_cache_stats()["compiled"] - before, right
    big = compiles(16384)
    at, below = ((None, True), (None, True))
    if threshold < 16 << 20:
        at = compiles(threshold // 1024)
        below = compiles(threshold // 1024 - 1)
    table = np.arange(1000 * 128, dtype=np.float32).reshape(1000, 128)
    bag_ids = np.arange(4096) * 7 % 1000
    bags = g.embedding_bag(bag_ids, table, np.arange(0, 4096, 4), mode="sum")
    right = bool(np.array_equal(
        bags, table[bag_ids].reshape(1024, 4, 128).sum(axis=1)))
    with open("/proc/self/maps") as maps:
        libomp = any("/libomp.so" in line for line in maps)
    print(json.dumps({"threshold": threshold, "big": big, "at": at,
                      "below": below, "bags": [libomp, right]}))
"""


@pytest.mark.parametrize("threads,threshold", [
    ("2", 1 << 20), ("4", 2 << 20), ("3,2", 3 << 19), ("1", 2**63 - 1)])
def test_threads_from_512_kib_a_thread(threads, threshold):
    stats = run(THRESHOLD,
                {"OMP_NUM_THREADS": threads, "GATHER_MLIR_CACHE_DIR": ""})
    assert stats["threshold"] == threshold
    assert stats["big"] == [1, True]
    if threshold < 16 << 20:
        assert stats["at"] == [0, True]  # the 16 MiB result's kernel
        assert stats["below"] == [1, True]  # a serial one
    assert stats["bags"] == [threads != "1", True]


def test_the_thread_limit_caps_the_team_the_threshold_counts():
    # libomp starts min(OMP_NUM_THREADS, OMP_THREAD_LIMIT) threads: two here,
    # so results run on threads from 1 MiB, not the 2 MiB of four.
    stats = run(THRESHOLD, {"OMP_NUM_THREADS": "4", "OMP_THREAD_LIMIT": "2",
                            "GATHER_MLIR_CACHE_DIR": ""})
    assert stats["threshold"] == 1 << 20
    assert stats["big"] == [1, True]
    assert stats["bags"] == [True, True]


# A one-row check-mode gather_elements into its own result on two threads:
# its indices are scanned first and the row runs on threads in pieces (rows
# validated as they are gathered would keep one row serial). Right values,
# the first bad index reported, and libomp loaded by the call.
ONE_ROW = """
    import json
    import numpy as np
    import gather_mlir as g
    def libomp():
        with open("/proc/self/maps") as maps:
            return any("/libomp.so" in line for line in maps)
    before = libomp()
    data = np.arange(1 << 20, dtype=np.float32)
    ids = (np.arange(1 << 20) * 7919) % (1 << 20)
    right = bool(np.array_equal(g.gather_elements(data, ids), data[ids]))
    bad = ids.copy()
    bad[-3], bad[-1] = 1 << 20, -(1 << 21)
    try:
        g.gather_elements(data, bad)
        error = None
    except IndexError as e:
        error = str(e)
    print(json.dumps({"before": before, "after": libomp(), "right": right,
                      "error": error}))
"""


def test_one_checked_row_runs_on_threads():
    stats = run(ONE_ROW, {"OMP_NUM_THREADS": "2"})
    assert stats == {
        "before": False, "after": True, "right": True,
        "error": "gather.gather_elements: index 1048576 is out of range "
                 "[-1048576, 1048575] for data dimension 0 of size 1048576"}, \
        stats


# Each thread of the process and the CPUs it may use (sched_getaffinity
# takes a thread ID), for the scripts below.
PLACEMENT_OF_THREADS = """
    def placement():
        return {int(task): sorted(os.sched_getaffinity(int(task)))
                for task in os.listdir("/proc/self/task")}
"""


# Where libomp's workers run: the CPUs each thread of the process may use
# before and after its first threaded kernel (the package's gather or a
# JitModule), and after the main thread moved onto the worker's CPU and
# called again.
PLACEMENT = """
    import json, os, sys, threading
    os.nice(5)  # Before any thread starts: they inherit it.
    import numpy as np
    import gather_mlir as g
    from gather_mlir.compiler import JitModule, Module
""" + PLACEMENT_OF_THREADS + THREADED_MODULE + """
    data = np.arange(4096 * 1024, dtype=np.float32).reshape(4096, 1024)
    ids = np.arange(4095, -1, -1)
    main = threading.get_native_id()
    allowed = sorted(os.sched_getaffinity(0))
    before = placement()
    if sys.argv[1] == "gather":
        call = lambda: g.gather(data, ids)
    else:  # Its libomp is loaded (and its workers placed) here.
        jit = JitModule(Module(source), pipeline=pipeline)
        call = lambda: jit.call("k", data, ids)
    right = bool(np.array_equal(call(), data[ids]))
    after = placement()
    workers = {t: c for t, c in after.items() if t not in before}
    moved = None
    if len(workers) == 1 and len(next(iter(workers.values()))) == 1:
        worker, (cpu,) = next(iter(workers.items()))
        os.sched_setaffinity(0, {cpu})  # the main thread only
        right = right and bool(np.array_equal(call(), data[ids]))
        moved = {"to": cpu, "worker": placement()[worker]}
    def slice_ns(task):  # The scheduler's slice (kernels with sched debug)
        try:
            with open(f"/proc/self/task/{task}/sched") as sched:
                for line in sched:
                    if line.startswith("se.slice"):
                        return int(float(line.split(":")[1]))
        except OSError:
            pass
        return None
    print(json.dumps({"allowed": allowed, "main": after[main],
                      "workers": list(workers.values()), "moved": moved,
                      "slices": [slice_ns(t) for t in workers],
                      "nices": [os.getpriority(os.PRIO_PROCESS, t)
                                for t in [main, *workers]],
                      "main_slice": slice_ns(main),
                      "kernel": os.uname().release, "right": right}))
"""


@pytest.mark.parametrize("kernel,unset", [("gather", None), ("jit", None),
                                          ("gather", "")])
def test_workers_are_bound_off_the_calling_threads_cpu(kernel, unset):
    # An empty variable is no placement (libomp ignores it).
    stats = run(PLACEMENT, {"OMP_NUM_THREADS": "2", "OMP_PROC_BIND": unset,
                            "OMP_PLACES": unset, "KMP_AFFINITY": unset,
                            "GOMP_CPU_AFFINITY": unset}, kernel)
    assert stats["right"]
    allowed = stats["allowed"]
    # The calling thread is never bound.
    assert stats["main"] == allowed
    if len(allowed) < 2:  # No other CPU: nothing is bound (the worker
        # keeps the one CPU it inherited, where the main thread already is).
        assert stats["workers"] == [allowed]
        assert stats["moved"] in (None, {"to": allowed[0],
                                         "worker": allowed})
        return
    # One worker (a team of two), bound to one CPU the process may use.
    assert len(stats["workers"]) == 1, stats
    (cpu,) = stats["workers"][0]
    assert cpu in allowed
    # The calling thread moved onto it: the next call binds the worker to
    # another CPU.
    assert stats["moved"]["to"] == cpu
    (now,) = stats["moved"]["worker"]
    assert now != cpu and now in allowed
    # Its nice value stays the process's.
    assert stats["nices"] == [5, 5], stats
    # It asks for a 100 us time slice (Linux 6.12 and later have them),
    # the calling thread keeps the default.
    release = tuple(int(p) for p in
                    stats["kernel"].split("-")[0].split(".")[:2])
    (worker_slice,) = stats["slices"]
    if release >= (6, 12) and worker_slice is not None:
        assert worker_slice == 100_000, stats
        assert stats["main_slice"] != 100_000, stats


# A child forked after the parent's workers were bound: libomp starts new
# workers there, which its first threaded call places as the parent's were;
# a serial call before it starts none.
FORKED = """
    import json, os
    import numpy as np
    import gather_mlir as g
    from gather_mlir.compiler import JitModule, Module
""" + PLACEMENT_OF_THREADS + THREADED_MODULE + """
    data = np.arange(4096 * 1024, dtype=np.float32).reshape(4096, 1024)
    ids = np.arange(4095, -1, -1)
    jit = JitModule(Module(source), pipeline=pipeline)
    calls = {"gather": lambda: g.gather(data, ids),
             "jit": lambda: jit.call("k", data, ids)}
    right = bool(np.array_equal(calls["gather"](), data[ids]))
    parent = placement()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        before = placement()
        small = g.gather(data[:4], np.array([3, 0]))
        after_serial = placement()
        got = calls[os.environ["CHILD_CALLS"]]()
        after = placement()
        os.write(write, json.dumps({
            "before": list(before.values()),
            "serial_started": len(after_serial) - len(before),
            "main": after[os.getpid()],
            "workers": [c for t, c in after.items() if t not in before],
            "right": bool(np.array_equal(got, data[ids])
                          and np.array_equal(small, data[[3, 0]])),
        }).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        child = json.loads(pipe.read())
    os.waitpid(pid, 0)
    print(json.dumps({"allowed": sorted(os.sched_getaffinity(0)),
                      "parent_workers": [c for t, c in parent.items()
                                         if t != os.getpid()],
                      "child": child, "right": right}))
"""


@pytest.mark.parametrize("calls", ["gather", "jit"])
def test_a_forked_childs_workers_are_bound(calls):
    stats = run(FORKED, {"OMP_NUM_THREADS": "2", "OMP_PROC_BIND": None,
                         "OMP_PLACES": None, "KMP_AFFINITY": None,
                         "GOMP_CPU_AFFINITY": None, "CHILD_CALLS": calls})
    child = stats["child"]
    assert stats["right"] and child["right"]
    allowed = stats["allowed"]
    # The child starts with its one thread; a serial call starts no other.
    assert child["before"] == [allowed]
    assert child["serial_started"] == 0
    assert child["main"] == allowed
    if len(allowed) < 2:
        return
    # The parent's worker is bound (its other threads, such as the JIT's,
    # are not libomp's).
    assert [1] == [len(c) for c in stats["parent_workers"] if len(c) == 1]
    # Its threaded call started one worker, bound to one allowed CPU.
    assert len(child["workers"]) == 1, child
    (cpu,) = child["workers"][0]
    assert cpu in allowed


@pytest.mark.parametrize("binding", ["false", "true"])
def test_the_environments_binding_wins(binding):
    stats = run(PLACEMENT, {"OMP_NUM_THREADS": "2", "OMP_PROC_BIND": binding},
                "gather")
    assert stats["right"]
    allowed = stats["allowed"]
    if binding == "false":
        # Nothing bound: every thread may run on every CPU.
        assert stats["main"] == allowed
        assert stats["workers"] == [allowed]
    else:
        # libomp binds every thread of the team, the calling one too.
        assert len(stats["main"]) == 1
        assert [len(c) for c in stats["workers"]] == [1]


# On one thread, a check-mode gather_elements into `out` whose int64
# indices have twice the result's bytes, 16 MiB or more, computes into a
# result of its own (validated row by row) and copies it into `out`
# (buffersCheckedOut): the IndexError still names the first bad index in
# order and leaves `out` untouched, and the kernel is the one a call
# without `out` takes (no second compile; the disk cache is off). Not along
# another axis, where no kernel checks rows.
ONE_THREAD_OUT = """
    import json
    import numpy as np
    import gather_mlir as g
    rng = np.random.default_rng(3)
    data = rng.random((2048, 1024), dtype=np.float32)
    ids = rng.integers(0, 1024, (2048, 1024))
    ids[5, 7], ids[2000, 9] = 1500, -2000
    out = np.full(data.shape, -1.0, np.float32)
    try:
        g.gather_elements(data, ids, axis=1, out=out)
        error = None
    except IndexError as e:
        error = str(e)
    untouched = bool((out == -1.0).all())
    ids[5, 7], ids[2000, 9] = 3, -2
    returned = g.gather_elements(data, ids, axis=1, out=out) is out
    right = bool(np.array_equal(
        out, np.take_along_axis(data, ids % 1024, axis=1)))
    compiled = g.compile_count()
    g.gather_elements(data, ids, axis=1)
    new_compiles = g.compile_count() - compiled
    # Along axis 0 a kernel of its own result scans the indices too: out
    # is written in place, by a kernel of its own.
    ids0 = rng.integers(0, 2048, (2048, 1024))
    g.gather_elements(data, ids0, axis=0, out=out)
    right0 = bool(np.array_equal(out, np.take_along_axis(data, ids0, 0)))
    compiled = g.compile_count()
    g.gather_elements(data, ids0, axis=0)
    print(json.dumps({"error": error, "untouched": untouched,
                      "returned": returned, "right": right,
                      "new_compiles": new_compiles, "right0": right0,
                      "new_compiles0": g.compile_count() - compiled}))
"""


def test_one_thread_check_into_out_computes_then_copies():
    stats = run(ONE_THREAD_OUT, {"OMP_NUM_THREADS": "1",
                                 "GATHER_MLIR_CACHE_DIR": ""})
    assert stats["error"] is not None and \
        "index 1500 is out of range" in stats["error"], stats["error"]
    assert stats["untouched"]
    assert stats["returned"] and stats["right"]
    assert stats["new_compiles"] == 0
    assert stats["right0"] and stats["new_compiles0"] == 1
