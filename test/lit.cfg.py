# -*- Python -*-
# lit configuration of the GatherMLIR test suite.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GATHER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".cpp", ".test"]
# fuzz-crashes/ holds gather-fuzz reproducers (scripts/fuzz.sh), not tests.
config.excludes = ["Inputs", "lib", "tools", "fuzz-crashes", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gather_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))

# GATHER_ENABLE_SANITIZERS: our libraries and tools are built with ASan and
# UBSan against the shared ASan runtime. Programs the tests compile are linked
# the same way; uninstrumented hosts that load our libraries (/usr/bin/python3,
# mlir-runner) preload the runtime, and do not report their own leaks.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs when the
# header is compiled with ASan (our code) and unpoisons what it hands out only
# when it is too (Debian's libMLIR.so is not), so an allocation made by both
# halves reads as use-after-poison. See docs/Development.md, "Fuzzing and
# sanitizers".
sanitize_link = ""
host_env = ""
if config.gather_sanitizers:
    config.available_features.add("sanitizers")
    config.available_features.add("asan")
    config.available_features.add("ubsan")
    sanitize_link = (" -fsanitize=address,undefined -shared-libsan -Wl,-rpath,"
                     + os.path.dirname(config.gather_asan_runtime))
    asan_options = "allow_user_poisoning=0"
    if os.environ.get("ASAN_OPTIONS"):
        asan_options += ":" + os.environ["ASAN_OPTIONS"]
    config.environment["ASAN_OPTIONS"] = asan_options
    host_env = ("env LD_PRELOAD=%s ASAN_OPTIONS=%s:detect_leaks=0 "
                % (config.gather_asan_runtime, asan_options))
    config.environment.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    # tools/gather-fuzz is built with the sanitizers.
    config.available_features.add("gather-fuzz")

config.substitutions.append(("%gather_lib_dir", config.gather_lib_dir))
config.substitutions.append(("%gather_tools_dir", config.gather_tools_dir))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%make_program", config.make_program))
config.substitutions.append(("%llvm_prefix", os.path.dirname(config.llvm_lib_dir)))
config.substitutions.append(("%gather_obj_root", config.gather_obj_root))
config.substitutions.append(("%llvm_lib_dir", config.llvm_lib_dir))
config.substitutions.append(("%python", host_env + config.python_executable))
# Before %clang, which is a prefix of it (test/Style).
config.substitutions.append(("%clang_format",
                             os.path.join(config.llvm_tools_dir, "clang-format")))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++") + sanitize_link))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang") + sanitize_link))
config.substitutions.append(("%mlir_include_dir", config.mlir_include_dir))
config.substitutions.append(("%gather_src_root",
                             os.path.dirname(config.test_source_root)))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.gather_tools_dir, config.llvm_tools_dir]
tools = [
    "gather-opt",
    ToolSubst("gather-fuzz", unresolved="ignore"),
    "gather-test-opt",
    "gather-reduce",
    ToolSubst("mlir-opt", unresolved="fatal"),
    ToolSubst("mlir-runner", unresolved="fatal"),
    ToolSubst("mlir-translate", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Running lowered modules needs only the two standard runner libraries
# (printMemref*): lowered code defines its own error hooks.
runner_libs = ",".join([
    os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so"),
    os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so"),
])
mlir_run = (host_env + os.path.join(config.llvm_tools_dir, "mlir-runner")
            + " -entry-point-result=void -shared-libs=" + runner_libs)
# The same with libomp, for code lowered with parallel=true.
mlir_run_omp = mlir_run + "," + os.path.join(config.llvm_lib_dir, "libomp.so")
config.substitutions.append(("%run_main_omp", mlir_run_omp + " -e main"))
config.substitutions.append(("%mlir_run_omp", mlir_run_omp))
config.substitutions.append(("%run_main", mlir_run + " -e main"))
# For code that aborts (cf.assert): stdout unbuffered so nothing is lost;
# stdbuf appends its preload after the sanitizer runtime's.
runner = os.path.join(config.llvm_tools_dir, "mlir-runner")
config.substitutions.append(("%unbuffered_mlir_run",
                             mlir_run.replace(runner, "stdbuf -o0 " + runner)))
# Sharded modules: MPICH's mpirun, and mlir-runner with libmpich (the ABI
# LLVM 22 lowers MPI calls for). %mpi_link links a kernel library to it.
mpich = "/usr/lib/x86_64-linux-gnu/libmpich.so.12"
config.substitutions.append(("%mpirun", "mpirun.mpich"))
config.substitutions.append(("%mpi_link", mpich))
config.substitutions.append(("%mlir_run_mpi", mlir_run.replace(
    runner, "stdbuf -o0 " + runner) + "," + mpich))
# Stock mlir-opt loading our (possibly sanitized) plugin.
config.substitutions.append(("%plugin_mlir_opt", host_env + os.path.join(
    config.llvm_tools_dir, "mlir-opt") + " --load-dialect-plugin="
    + os.path.join(config.gather_lib_dir, "GatherPlugin.so")))
# A memory limit for tests that must finish in bounded memory; sanitizers
# reserve terabytes of address space for their shadow, so none there.
config.substitutions.append(("%limit_memory",
                             "true" if config.gather_sanitizers
                             else "ulimit -v 1000000"))
config.substitutions.append(("%mlir_run_omp", mlir_run_omp))
config.substitutions.append(("%mlir_run", mlir_run))

# Stock upstream mlir-opt, and the upstream-only pipeline that takes the
# output of convert-gather-to-linalg (linalg, tensor, arith, scf, cf,
# complex on tensors) to the LLVM dialect.
mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
config.substitutions.append(("%upstream_to_llvm", mlir_opt + " " + " ".join([
    "--convert-elementwise-to-linalg",
    "--one-shot-bufferize=\"bufferize-function-boundaries"
    " function-boundary-type-conversion=identity-layout-map\"",
    "--scf-forall-to-for", "--convert-linalg-to-loops",
    "--convert-vector-to-llvm", "--convert-scf-to-cf",
    "--expand-strided-metadata", "--lower-affine",
    "--finalize-memref-to-llvm", "--convert-complex-to-llvm",
    "--convert-arith-to-llvm", "--convert-index-to-llvm",
    "--convert-cf-to-llvm", "--convert-func-to-llvm",
    "--reconcile-unrealized-casts",
])))
config.substitutions.append(("%mlir_opt", mlir_opt))
