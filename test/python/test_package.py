"""The package as a citizen of its ecosystem: its version, the docstrings
of everything public, and type stubs that agree with the runtime."""

import ast
import inspect
import os
import re

import pytest

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


# --- Type stubs --------------------------------------------------------------

PACKAGE_DIR = os.path.dirname(gather_mlir.__file__)


def _stub(name):
    """The parsed stub `name` of the built package (CMake copies them)."""
    with open(os.path.join(PACKAGE_DIR, name)) as f:
        return ast.parse(f.read(), name)


def _stub_names(tree):
    """Top-level names a stub declares (functions, classes, annotated
    variables, imports re-exported with `as`)."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname == a.name)
    return names


def _parameters(function):
    """Parameter names of a stub's FunctionDef, in order."""
    a = function.args
    names = [p.arg for p in a.posonlyargs + a.args]
    names += ["*" + a.vararg.arg] if a.vararg else []
    names += [p.arg for p in a.kwonlyargs]
    return names + (["**" + a.kwarg.arg] if a.kwarg else [])


def _runtime_parameters(value):
    """Parameter names of a runtime callable: inspect.signature for Python
    functions, the signature line pybind11 writes for native ones."""
    try:
        signature = inspect.signature(value)
    except ValueError:
        line = value.__doc__.strip().splitlines()[0]
        return _parameters(ast.parse(f"def {line}: ...").body[0])
    prefix = {inspect.Parameter.VAR_POSITIONAL: "*",
              inspect.Parameter.VAR_KEYWORD: "**"}
    return [prefix.get(p.kind, "") + p.name
            for p in signature.parameters.values()]


def _functions(tree):
    """(path, FunctionDef) of every function and method in a stub."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield [node.name], node
        elif isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, ast.FunctionDef):
                    yield [node.name, member.name], member


@pytest.mark.parametrize("module,stub", [
    (gather_mlir, "__init__.pyi"), (compiler, "compiler.pyi"),
    (gather_mlir._native, "_native.pyi")])
def test_stubs_match_the_runtime(module, stub):
    tree = _stub(stub)
    declared = _stub_names(tree)
    assert set(getattr(module, "__all__", [])) <= declared
    for name in declared:  # Nothing the runtime lacks but stub helpers.
        if not name.startswith("_") or name.startswith("__"):
            assert hasattr(module, name), name
    for path, function in _functions(tree):
        value = module
        for part in path:
            value = getattr(value, part)
        assert _parameters(function) == _runtime_parameters(value), path


def test_every_native_callable_is_in_its_stub():
    tree = _stub("_native.pyi")
    declared = _stub_names(tree)
    declared |= {".".join(path) for path, _ in _functions(tree)}
    for name, value in vars(gather_mlir._native).items():
        if name.startswith("_"):
            continue
        assert name in declared
        if inspect.isclass(value):
            for attr in vars(value):
                if attr == "__init__" or not attr.startswith("_"):
                    assert f"{name}.{attr}" in declared


def test_the_package_is_marked_typed():
    assert os.path.getsize(os.path.join(PACKAGE_DIR, "py.typed")) == 0
