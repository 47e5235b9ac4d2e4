"""IREE as a client of convert-gather-to-linalg: gather ops lowered by the
package's compiler (gather_mlir.compiler.Module.run) to upstream ops only,
compiled by iree-compile for its CPU backend and run by IREE's runtime,
against test/python/reference.py (and torch's embedding_bag for bags,
which the linalg path lowers to one linalg.generic over the result).

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
            np.dtype(np.int8): "i8",
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


def _bag_text(args, operands, attrs, result_type):
    """gather.embedding_bag on %a0.. (the arrays `args`: the table, the ids,
    then the operands named in `operands`: "offsets", "per_sample_weights",
    "scales")."""
    named = " ".join(f"{name}(%a{k + 2})" for k, name in enumerate(operands))
    types = ", ".join(_type(a) for a in args)
    return (f"%r = gather.embedding_bag %a0[%a1] {named} {{{attrs}}} : "
            f"({types}) -> {result_type}")


# Bags with torch's options: name -> (reduction, per-sample weights,
# padding_idx, include_last_offset, fixed-length bags, table dtype).
_BAG_OPTIONS = {
    "per_sample_weights": ("sum", True, None, False, False, np.float32),
    "padding_idx": ("mean", False, 3, False, False, np.float32),
    "include_last_offset": ("sum", False, None, True, False, np.float32),
    "fixed_length_max": ("max", False, None, False, True, np.float32),
    "f16_table_mean": ("mean", False, None, False, False, np.float16),
}


@pytest.mark.parametrize("case", sorted(_BAG_OPTIONS))
def test_embedding_bag_options(case):
    reduction, weighted, padding, last, fixed, dtype = _BAG_OPTIONS[case]
    rng = np.random.default_rng(31)
    table = rng.standard_normal((40, 12)).astype(dtype)
    if fixed:
        ids = rng.integers(0, 40, (6, 4)).astype(np.int64)
        offsets = None
    else:
        lengths = rng.integers(0, 6, 9)
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        if not last:
            offsets = offsets[:-1]
        ids = rng.integers(0, 40, int(lengths.sum())).astype(np.int64)
        ids[::4] = 3  # rows of padding_idx
    weights = rng.standard_normal(ids.shape).astype(dtype) if weighted \
        else None
    expected = torch.nn.functional.embedding_bag(
        torch.from_numpy(ids),
        torch.from_numpy(table.astype(np.float32)),
        None if fixed else torch.from_numpy(offsets), mode=reduction,
        per_sample_weights=None if weights is None else
        torch.from_numpy(weights.astype(np.float32)),
        include_last_offset=last, padding_idx=padding).numpy().astype(dtype)
    args = [table, ids] + ([] if fixed else [offsets]) + \
        ([] if weights is None else [weights])
    names = ([] if fixed else ["offsets"]) + \
        ([] if weights is None else ["per_sample_weights"])
    attrs = [f"reduction = #gather<reduction {reduction}>"]
    if padding is not None:
        attrs.append(f"padding_idx = {padding} : i64")
    if last:
        attrs.append("include_last_offset")
    text = _bag_text(args, names, ", ".join(attrs), _type(expected))
    result = _run_under_iree(text, args, _type(expected))
    tolerance = 2e-3 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(result, expected, rtol=tolerance,
                               atol=tolerance)


@pytest.mark.parametrize("bits", [8, 4])
def test_rowwise_quantized_bag(bits):
    Q = torch.ops.quantized
    rng = np.random.default_rng(32)
    floats = torch.from_numpy(rng.standard_normal((40, 16)).astype(np.float32))
    packed = (Q.embedding_bag_byte_prepack(floats) if bits == 8 else
              Q.embedding_bag_4bit_prepack(floats)).numpy()
    lengths = rng.integers(0, 6, 9)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    ids = rng.integers(0, 40, int(lengths.sum())).astype(np.int64)
    op = Q.embedding_bag_byte_rowwise_offsets if bits == 8 else \
        Q.embedding_bag_4bit_rowwise_offsets
    expected = op(torch.from_numpy(packed), torch.from_numpy(ids),
                  torch.from_numpy(offsets), False, 0, False, None, None,
                  False).numpy()
    table = packed.view(np.int8)
    args = [table, ids, offsets]
    text = _bag_text(args, ["offsets"], "reduction = #gather<reduction sum>, "
                     f"rowwise_bits = {bits} : i64", _type(expected))
    result = _run_under_iree(text, args, _type(expected))
    np.testing.assert_allclose(result, expected, rtol=1e-4, atol=1e-4)


def test_block_quantized_gather():
    # ONNX Runtime's GatherBlockQuantized layout: 4-bit values, low nibble
    # first, blocks of 32 with one f32 scale, zero point 8.
    rng = np.random.default_rng(33)
    packed = rng.integers(0, 256, (40, 64)).astype(np.uint8)
    scales = rng.uniform(0.5, 2.0, (40, 4)).astype(np.float32)
    ids = rng.integers(0, 40, (7, 1)).astype(np.int64)
    q = np.stack([packed & 15, packed >> 4], axis=-1).reshape(40, 128)
    rows = (q.astype(np.float32) - 8) * np.repeat(scales, 32, axis=1)
    expected = rows[ids[:, 0]]
    args = [packed.view(np.int8), ids, scales]
    text = _bag_text(args, ["scales"], "reduction = #gather<reduction sum>, "
                     "block_bits = 4 : i64, block_size = 32 : i64",
                     _type(expected))
    result = _run_under_iree(text, args, _type(expected))
    np.testing.assert_allclose(result, expected, rtol=1e-6)


def test_check_mode_reads_in_bounds_when_asserts_are_stripped():
    data = np.arange(32, dtype=np.float32).reshape(8, 4)
    indices = np.array([1, 1 << 40, -(1 << 40), 2], dtype=np.int64)
    expected = reference.gather(data, indices, 0, 0, "clamp")
    result = _gather_like("gather", data, indices, "check", {"axis": 0},
                          expected)
    np.testing.assert_array_equal(result, expected)
