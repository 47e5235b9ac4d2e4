# -*- Python -*-
# lit configuration of the GatherMLIR test suite.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GATHER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".cpp", ".test"]
config.excludes = ["lib", "tools", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gather_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%gather_lib_dir", config.gather_lib_dir))
config.substitutions.append(("%gather_tools_dir", config.gather_tools_dir))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%make_program", config.make_program))
config.substitutions.append(("%llvm_prefix", os.path.dirname(config.llvm_lib_dir)))
config.substitutions.append(("%gather_obj_root", config.gather_obj_root))
config.substitutions.append(("%llvm_lib_dir", config.llvm_lib_dir))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang")))
config.substitutions.append(("%mlir_include_dir", config.mlir_include_dir))
config.substitutions.append(("%gather_src_root",
                             os.path.dirname(config.test_source_root)))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.gather_tools_dir, config.llvm_tools_dir]
tools = [
    "gather-opt",
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
mlir_run = (os.path.join(config.llvm_tools_dir, "mlir-runner")
            + " -entry-point-result=void -shared-libs=" + runner_libs)
config.substitutions.append(("%run_main_omp", mlir_run + "," + os.path.join(
    config.llvm_lib_dir, "libomp.so") + " -e main"))
config.substitutions.append(("%run_main", mlir_run + " -e main"))
config.substitutions.append(("%mlir_run", mlir_run))
