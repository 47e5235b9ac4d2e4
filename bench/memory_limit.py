"""The memory limit of a result's bytes: memory_limit.c (a copy with
non-temporal stores on OpenMP threads) compiled for this host with clang
and loaded with ctypes."""

import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "memory_limit.c")


def _library():
    """The compiled copy, kept in the temporary directory by the source's
    hash; None (and why, on stderr) when no clang builds it."""
    with open(_SOURCE, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    path = os.path.join(tempfile.gettempdir(),
                        f"gather_mlir_memory_limit_{digest}.so")
    if not os.path.exists(path):
        cc = os.environ.get("CC") or shutil.which("clang-22") or \
            shutil.which("clang")
        if not cc:
            print("memory_limit: no clang, no non-temporal copy",
                  file=sys.stderr)
            return None
        partial = f"{path}.{os.getpid()}"
        done = subprocess.run(
            [cc, "-O2", "-march=native", "-fopenmp", "-shared", "-fPIC",
             _SOURCE, "-o", partial], capture_output=True, text=True)
        if done.returncode:
            print(f"memory_limit: {cc} failed, no non-temporal copy:\n"
                  f"{done.stderr}", file=sys.stderr)
            return None
        os.replace(partial, path)
    library = ctypes.CDLL(path)
    library.nt_copy.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                ctypes.c_size_t, ctypes.c_int]
    library.nt_copy.restype = None
    return library


def nt_copy(dst, src, threads):
    """A function that copies numpy array `src` into `dst` (as many bytes,
    both contiguous) with non-temporal stores on `threads` threads, or None
    when it cannot be built."""
    library = _library()
    if library is None:
        return None
    assert dst.nbytes == src.nbytes and dst.flags.c_contiguous and \
        src.flags.c_contiguous
    args = (dst.ctypes.data, src.ctypes.data, dst.nbytes, threads)
    return lambda: library.nt_copy(*args)
