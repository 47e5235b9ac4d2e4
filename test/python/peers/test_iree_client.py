"""IREE as a client of convert-gather-to-linalg: gather ops lowered by the
package's compiler (gather_mlir.compiler.Module.run) to upstream ops only,
compiled by iree-compile for its CPU backend and run by IREE's runtime,
against test/python/reference.py (and torch's embedding_bag for bags,
which IREE does not compile yet: a strict xfail that fails once it does).

IREE strips cf.assert from its dispatches, so `check` mode reports nothing
under IREE; the lowering keeps its reads in bounds, which the last test
shows (an out-of-range index reads a clamped row instead of faulting)."""
import numpy as np
import pytest

from gather_mlir.compiler import Module

import reference

ireec = pytest.importorskip("iree.compiler")
ireert = pytest.importorskip("iree.runtime")
torch = pytest.importorskip("torch")

_ELEMENT = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16",
            np.dtype(np.int32): "i32", np.dtype(np.int64): "i64"}


def _type(a):
    return "tensor<" + "".join(f"{d}x" for d in a.shape) + \
        _ELEMENT[a.dtype] + ">"


def _run_under_iree(op_text, args, result):
    """`op_text` (one op on %a0, %a1, ... defining %r) in a function, lowered
    by convert-gather-to-linalg, compiled and run by IREE."""
    params = ", ".join(f"%a{k}: {_type(a)}" for k, a in enumerate(args))
    source = (f"func.func @main({params}) -> {result} {{\n  {op_text}\n"
              f"  return %r : {result}\n}}\n")
    lowered = str(Module(source).run("convert-gather-to-linalg"))
    assert "= gather." not in lowered, lowered
    vmfb = ireec.compile_str(lowered, target_backends=["llvm-cpu"],
                             extra_args=["--iree-llvmcpu-target-cpu=host"])
    config = ireert.Config("local-task")
    context = ireert.SystemContext(config=config)
    context.add_vm_module(ireert.VmModule.copy_buffer(context.instance, vmfb))
    return np.asarray(context.modules.module["main"](*args).to_host())


def _gather_like(op, data, indices, mode, attrs, expected):
    attr_text = ", ".join([f"{k} = {v} : i64" for k, v in attrs.items()] +
                          [f"mode = #gather<mode {mode}>"])
    text = (f"%r = gather.{op} %a0[%a1] {{{attr_text}}} : "
            f"({_type(data)}, {_type(indices)}) -> {_type(expected)}")
    return _run_under_iree(text, [data, indices], _type(expected))


_MODES = ["check", "fill", "clamp", "wrap", "unchecked"]


def _ids(rng, low, high, shape, mode, dtype):
    """In [-s, s) for the modes that take only those, wider for the rest."""
    if mode in ("check", "unchecked"):
        return rng.integers(low, high, shape).astype(dtype)
    return rng.integers(3 * low, 3 * high, shape).astype(dtype)


@pytest.mark.parametrize("mode", _MODES)
def test_gather(mode):
    rng = np.random.default_rng(_MODES.index(mode))
    data = rng.standard_normal((6, 9, 4)).astype(np.float32)
    for axis, batch_dims, shape, dtype in ((0, 0, (5,), np.int64),
                                           (1, 0, (2, 3), np.int32),
                                           (-1, 1, (6, 7), np.int64)):
        s = data.shape[axis]
        indices = _ids(rng, -s, s, shape, mode, dtype)
        expected = reference.gather(data, indices, axis, batch_dims, mode)
        result = _gather_like("gather", data, indices, mode,
                              {"axis": axis, "batch_dims": batch_dims},
                              expected)
        np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("mode", _MODES)
def test_gather_elements(mode):
    rng = np.random.default_rng(10 + _MODES.index(mode))
    data = rng.standard_normal((5, 8)).astype(np.float16)
    for axis in (0, -1):
        s = data.shape[axis]
        indices = _ids(rng, -s, s, (3, 6), mode, np.int64)
        expected = reference.gather_elements(data, indices, axis, mode)
        result = _gather_like("gather_elements", data, indices, mode,
                              {"axis": axis}, expected)
        np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("mode", _MODES)
def test_gather_nd(mode):
    rng = np.random.default_rng(20 + _MODES.index(mode))
    data = rng.integers(-100, 100, (3, 4, 5, 2)).astype(np.int32)
    for batch_dims, shape in ((0, (7, 2)), (1, (3, 2, 2))):
        s = min(data.shape[batch_dims:batch_dims + 2])
        indices = _ids(rng, -s, s, shape, mode, np.int64)
        expected = reference.gather_nd(data, indices, batch_dims, mode)
        result = _gather_like("gather_nd", data, indices, mode,
                              {"batch_dims": batch_dims}, expected)
        np.testing.assert_array_equal(result, expected)


@pytest.mark.xfail(
    strict=True, raises=ireec.CompilerToolError,
    reason="the linalg path lowers bags to scf loops on tensors, which IREE "
    "3.13 forms no dispatch from: iree-compile crashes in the stream "
    "dialect's CloneToConsumers")
@pytest.mark.parametrize("reduction", ["sum", "mean", "max"])
def test_embedding_bag(reduction):
    rng = np.random.default_rng(30)
    table = rng.standard_normal((40, 16)).astype(np.float32)
    lengths = rng.integers(1, 6, 9)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    ids = rng.integers(0, 40, int(lengths.sum())).astype(np.int64)
    expected = torch.nn.functional.embedding_bag(
        torch.from_numpy(ids), torch.from_numpy(table),
        torch.from_numpy(offsets), mode=reduction).numpy()
    result_type = _type(expected)
    text = (f"%r = gather.embedding_bag %a0[%a1] offsets(%a2) "
            f"{{reduction = #gather<reduction {reduction}>}} : "
            f"({_type(table)}, {_type(ids)}, {_type(offsets)}) -> "
            f"{result_type}")
    result = _run_under_iree(text, [table, ids, offsets], result_type)
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-6)


def test_check_mode_reads_in_bounds_when_asserts_are_stripped():
    data = np.arange(32, dtype=np.float32).reshape(8, 4)
    indices = np.array([1, 1 << 40, -(1 << 40), 2], dtype=np.int64)
    expected = reference.gather(data, indices, 0, 0, "clamp")
    result = _gather_like("gather", data, indices, "check", {"axis": 0},
                          expected)
    np.testing.assert_array_equal(result, expected)
