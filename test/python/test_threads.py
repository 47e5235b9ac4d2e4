"""Kernels on threads: the Python package sets libomp's KMP_BLOCKTIME to 0
(workers sleep as soon as a kernel's loop ends) unless the environment sets
it. Each case runs a new interpreter, since libomp reads the variable once."""

import json
import os
import subprocess
import sys
import textwrap

# A gather with a 16 MiB result (threads: the package's parallel-min-bytes
# is 8 MiB) after a small one; reports the variable before and after the
# large one, and the block time of the libomp the process loaded.
WORKLOAD = """
    import ctypes
    import json
    import numpy as np
    import gather_mlir as g
    libc = ctypes.CDLL(None)
    libc.getenv.restype = ctypes.c_char_p
    def blocktime_variable():
        value = libc.getenv(b"KMP_BLOCKTIME")
        return value.decode() if value is not None else None
    small = g.gather(np.arange(10.0), np.array([1, -2]))
    before = blocktime_variable()
    data = np.arange(4096 * 1024, dtype=np.float32).reshape(4096, 1024)
    ids = np.arange(4095, -1, -1)
    big = g.gather(data, ids)
    after = blocktime_variable()
    with open("/proc/self/maps") as maps:
        libomp = next(line.split()[-1] for line in maps
                      if line.rstrip().endswith("/libomp.so")
                      or "/libomp.so." in line)
    omp = ctypes.CDLL(libomp)
    print(json.dumps({"before": before, "after": after,
                      "libomp_blocktime": omp.kmp_get_blocktime(),
                      "right": bool(np.array_equal(big, data[ids]))
                               and small.tolist() == [1.0, 8.0]}))
"""


def run(env_changes):
    env = dict(os.environ)
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(WORKLOAD)],
                          capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_workers_sleep_at_once_by_default():
    stats = run({"KMP_BLOCKTIME": None, "OMP_NUM_THREADS": "2"})
    assert stats["right"]
    # Set only when a kernel needs libomp, and then read by it.
    assert stats["before"] is None
    assert stats["after"] == "0"
    assert stats["libomp_blocktime"] == 0


def test_the_environments_block_time_wins():
    stats = run({"KMP_BLOCKTIME": "7", "OMP_NUM_THREADS": "2"})
    assert stats["right"]
    assert stats["before"] == stats["after"] == "7"
    assert stats["libomp_blocktime"] == 7
