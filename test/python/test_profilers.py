"""Kernels that the runtime JIT-compiles are visible to profilers and
debuggers: with GATHER_MLIR_PERF=1 their functions are appended to perf's
map of JIT code, /tmp/perf-<pid>.map, named after the kernel, whether the
kernel was compiled or read from disk; every kernel object is registered
with GDB's JIT interface. Every case runs a new interpreter."""


from test_kernel_cache import run as run_code

# One gather; prints the lines of this process's perf map (None: no map)
# and whether GDB's JIT interface lists any object.
CODE = """
    import ctypes
    import json
    import os
    import numpy as np
    import gather_mlir as g
    from gather_mlir import _native
    g.gather(np.arange(10.0), np.array([1, -2]))
    path = "/tmp/perf-%d.map" % os.getpid()
    lines = None
    if os.path.exists(path):
        with open(path) as f:
            lines = f.read().splitlines()
        os.remove(path)

    # gdb's struct jit_descriptor, in the libLLVM the package loaded.
    class Descriptor(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32),
                    ("action_flag", ctypes.c_uint32),
                    ("relevant_entry", ctypes.c_void_p),
                    ("first_entry", ctypes.c_void_p)]
    with open("/proc/self/maps") as f:
        llvm = next(line.split()[-1] for line in f if "/libLLVM" in line)
    descriptor = Descriptor.in_dll(ctypes.CDLL(llvm), "__jit_debug_descriptor")
    stats = _native.kernel_cache_stats()
    print(json.dumps({"map": lines, "gdb": bool(descriptor.first_entry),
                      "compiled": stats["compiled"],
                      "loaded": stats["loaded"]}))
"""


def run(env_changes):
    """CODE in a new interpreter, without GATHER_MLIR_PERF unless given."""
    return run_code({"GATHER_MLIR_PERF": None, **env_changes}, CODE)


def check_map(lines):
    assert lines, "no perf map"
    named = [line for line in lines
             if line.split(" ", 2)[2].startswith(
                 "_mlir_ciface_kernel [gather_mlir gather mode ")]
    assert len(named) == 1, lines
    start, size, _ = named[0].split(" ", 2)
    assert int(start, 16) > 0 and int(size, 16) > 0


def test_the_perf_map_names_compiled_and_stored_kernels(tmp_path):
    env = {"GATHER_MLIR_PERF": "1", "GATHER_MLIR_CACHE_DIR": str(tmp_path)}
    cold = run(env)
    assert cold["compiled"] == 1
    check_map(cold["map"])
    warm = run(env)
    assert (warm["compiled"], warm["loaded"]) == (0, 1)
    check_map(warm["map"])


def test_no_perf_map_without_the_variable(tmp_path):
    assert run({"GATHER_MLIR_CACHE_DIR": str(tmp_path)})["map"] is None


def test_kernels_are_registered_with_gdb(tmp_path):
    assert run({"GATHER_MLIR_CACHE_DIR": str(tmp_path)})["gdb"]
