"""The package as a citizen of its ecosystem: its version and the
docstrings of everything public."""

import inspect
import os
import re

import gather_mlir
from gather_mlir import compiler

SOURCE_ROOT = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir)


def _public_callables():
    """(qualified name, object) of every public function, class, method
    and constructor of gather_mlir and gather_mlir.compiler."""
    for module in (gather_mlir, compiler):
        for name in module.__all__:
            value = getattr(module, name)
            yield f"{module.__name__}.{name}", value
            if not inspect.isclass(value):
                continue
            for attr, member in vars(value).items():
                if attr == "__init__" or not attr.startswith("_"):
                    yield f"{module.__name__}.{name}.{attr}", member


def _prose(doc):
    """A docstring without the signature lines pybind11 puts first."""
    lines = (doc or "").strip().splitlines()
    return "\n".join(line for line in lines
                     if not re.match(r"^\w+\(.*\) -> .*$", line)).strip()


def test_version_is_the_cmake_project_version():
    with open(os.path.join(SOURCE_ROOT, "CMakeLists.txt")) as f:
        project = re.search(r"^project\(gather-mlir VERSION (\S+)", f.read(),
                            re.MULTILINE)
    assert project, "the top-level project() has no VERSION"
    assert gather_mlir.__version__ == project.group(1)
    assert re.fullmatch(r"\d+\.\d+\.\d+", gather_mlir.__version__)


def test_every_public_callable_has_a_docstring():
    names = [name for name, _ in _public_callables()]
    for expected in ("gather_mlir.compile_count",
                     "gather_mlir.compiler.Module.run",
                     "gather_mlir.compiler.Module.verify",
                     "gather_mlir.compiler.Module.__init__",
                     "gather_mlir.compiler.JitModule.call",
                     "gather_mlir.compiler.JitModule.__init__"):
        assert expected in names
    undocumented = [name for name, value in _public_callables()
                    if len(_prose(value.__doc__)) < 20]
    assert not undocumented


def test_the_modules_have_docstrings():
    for module in (gather_mlir, compiler, gather_mlir._native):
        assert _prose(module.__doc__)
