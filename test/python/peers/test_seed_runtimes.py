"""Conformance against the seeds' own implementations: ONNX Runtime
(Gather-13, GatherElements-13, GatherND-13), OpenVINO (Gather-8,
GatherElements-6, GatherND-8), TensorFlow (tf.gather with batch_dims,
tf.gather_nd), PyTorch 2 (torch.gather, index_select, take_along_dim) and JAX
(jnp.take and its modes), on cases hypothesis generates within what each
defines. Where a peer's behaviour differs from docs/Semantics.md, a test
names the difference and checks it.

These run in the test script's virtual environment, where every peer is
installed (python/requirements-test.txt) and a skipped test fails; the lit
run with Debian's interpreter leaves this directory out."""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gather_mlir as g

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
dims = st.lists(st.integers(1, 4), min_size=1, max_size=3)


def values(draw, shape, dtype=np.float32):
    n = int(np.prod(shape))
    return np.arange(n, dtype=dtype).reshape(shape) + draw(st.integers(0, 9))


def in_range(draw, shape, size):
    """Index values in [-size, size): what every peer defines."""
    n = int(np.prod(shape))
    flat = draw(st.lists(st.integers(-size, size - 1), min_size=n, max_size=n))
    return np.array(flat, np.int64).reshape(shape)


@st.composite
def gather_case(draw):
    data_shape = draw(dims)
    r = len(data_shape)
    axis = draw(st.integers(0, r - 1))
    batch_dims = draw(st.integers(0, axis))
    extra = draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))
    if batch_dims and not extra:
        extra = [draw(st.integers(1, 3))]
    indices_shape = data_shape[:batch_dims] + extra
    data = values(draw, data_shape)
    indices = in_range(draw, indices_shape, data_shape[axis])
    return data, indices, axis, batch_dims


@st.composite
def elements_case(draw):
    data_shape = draw(dims)
    axis = draw(st.integers(0, len(data_shape) - 1))
    # ONNX GatherElements: the indices' shape equals data's off the axis.
    indices_shape = list(data_shape)
    indices_shape[axis] = draw(st.integers(1, 4))
    return (values(draw, data_shape),
            in_range(draw, indices_shape, data_shape[axis]), axis)


@st.composite
def nd_case(draw):
    data_shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    r = len(data_shape)
    batch_dims = draw(st.integers(0, r - 1))
    k = draw(st.integers(1, r - batch_dims))
    middle = draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))
    indices_shape = data_shape[:batch_dims] + middle + [k]
    n = int(np.prod(indices_shape[:-1]))
    comps = [in_range(draw, [n], data_shape[batch_dims + c]) for c in range(k)]
    indices = np.stack(comps, axis=-1).reshape(indices_shape)
    return values(draw, data_shape), indices, batch_dims


# --- ONNX Runtime --------------------------------------------------------------

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper  # noqa: E402


def run_onnx(op, data, indices, opset, **attrs):
    node = helper.make_node(op, ["data", "indices"], ["out"], **attrs)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("data", TensorProto.FLOAT, data.shape),
         helper.make_tensor_value_info("indices", TensorProto.INT64,
                                       indices.shape)],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    return session.run(None, {"data": data, "indices": indices})[0]


@SETTINGS
@given(gather_case())
def test_gather_matches_onnxruntime_gather_13(case):
    data, indices, axis, _ = case
    np.testing.assert_array_equal(g.gather(data, indices, axis=axis),
                                  run_onnx("Gather", data, indices, 13,
                                           axis=axis))


@SETTINGS
@given(elements_case())
def test_gather_elements_matches_onnxruntime_gather_elements_13(case):
    data, indices, axis = case
    np.testing.assert_array_equal(
        g.gather_elements(data, indices, axis=axis),
        run_onnx("GatherElements", data, indices, 13, axis=axis))


@SETTINGS
@given(nd_case())
def test_gather_nd_matches_onnxruntime_gather_nd_13(case):
    data, indices, batch_dims = case
    np.testing.assert_array_equal(
        g.gather_nd(data, indices, batch_dims=batch_dims),
        run_onnx("GatherND", data, indices, 13, batch_dims=batch_dims))


# --- OpenVINO ------------------------------------------------------------------

ov = pytest.importorskip("openvino")
import openvino.opset8 as ops8  # noqa: E402
from openvino import opset6 as ops6  # noqa: E402

_core = ov.Core()


def run_openvino(build, data, indices):
    p_data = ops8.parameter(data.shape, np.float32)
    p_indices = ops8.parameter(indices.shape, np.int64)
    model = ov.Model([build(p_data, p_indices)], [p_data, p_indices])
    compiled = _core.compile_model(model, "CPU")
    return compiled([data, indices])[0]


@SETTINGS
@given(gather_case())
def test_gather_matches_openvino_gather_8(case):
    """batch_dims 0 here: OpenVINO 2026.4.1's CPU plugin crashes the process
    (SIGSEGV) on some batch_dims cases, e.g. data 1x1 or 1x2, indices 1x1,
    axis 1, batch_dims 1. Its batch_dims examples are below."""
    data, indices, axis, _ = case
    expected = run_openvino(
        lambda d, i: ops8.gather(d, i, np.int64(axis), 0), data, indices)
    np.testing.assert_array_equal(g.gather(data, indices, axis=axis),
                                  expected)


@pytest.mark.parametrize("data_shape, indices, axis, batch_dims", [
    # Gather-8's specification examples 2, 3 and 5 (batch_dims 1 and 2,
    # negative indices).
    ((2, 5), [[0, 0, 4], [4, 0, 0]], 1, 1),
    ((2, 5), [[-5, 0, -1], [4, -5, 0]], 1, 1),
    ((2, 1, 5, 4), [[[2, 1, 0]], [[4, 3, 2]]], 2, 2),
    ((2, 3, 4), [[1, 0], [2, 2]], 1, 1),
])
def test_gather_batch_dims_match_openvino_gather_8(data_shape, indices, axis,
                                                   batch_dims):
    data = np.arange(np.prod(data_shape), dtype=np.float32).reshape(data_shape)
    indices = np.array(indices, np.int64)
    expected = run_openvino(
        lambda d, i: ops8.gather(d, i, np.int64(axis), batch_dims), data,
        indices)
    np.testing.assert_array_equal(
        g.gather(data, indices, axis=axis, batch_dims=batch_dims), expected)


def test_openvino_gather_8_out_of_range_is_fill():
    """Gather-8 gives zeros for indices out of range (its example 7): our
    `fill`; `check` reports them instead."""
    data = np.array([1, 2, 3, 4, 5], np.float32)
    indices = np.array([3, 10, -20, -1], np.int64)
    expected = run_openvino(lambda d, i: ops8.gather(d, i, np.int64(0)),
                            data, indices)
    np.testing.assert_array_equal(g.gather(data, indices, mode="fill"),
                                  expected)
    with pytest.raises(IndexError, match="index 10 is out of range"):
        g.gather(data, indices)


@SETTINGS
@given(elements_case())
def test_gather_elements_matches_openvino_gather_elements_6(case):
    data, indices, axis = case
    expected = run_openvino(lambda d, i: ops6.gather_elements(d, i, axis),
                            data, indices % np.array(data.shape)[axis])
    np.testing.assert_array_equal(
        g.gather_elements(data, indices % data.shape[axis], axis=axis),
        expected)


@SETTINGS
@given(nd_case())
def test_gather_nd_matches_openvino_gather_nd_8(case):
    data, indices, batch_dims = case
    expected = run_openvino(
        lambda d, i: ops8.gather_nd(d, i, batch_dims), data, indices)
    result = g.gather_nd(data, indices, batch_dims=batch_dims)
    # GatherND-8 keeps the batch dims apart; ONNX and we keep them too.
    np.testing.assert_array_equal(result, expected.reshape(result.shape))


# --- TensorFlow ----------------------------------------------------------------

tf = pytest.importorskip("tensorflow")


@SETTINGS
@given(gather_case())
def test_gather_matches_tf_gather(case):
    data, indices, axis, batch_dims = case
    # tf.gather reads negative indices as errors on CPU: non-negative ones.
    indices = indices % data.shape[axis]
    expected = tf.gather(data, indices, axis=axis, batch_dims=batch_dims)
    np.testing.assert_array_equal(
        g.gather(data, indices, axis=axis, batch_dims=batch_dims),
        expected.numpy())


@SETTINGS
@given(nd_case())
def test_gather_nd_matches_tf_gather_nd(case):
    data, indices, batch_dims = case
    indices = indices % np.array(data.shape[batch_dims:batch_dims +
                                            indices.shape[-1]])
    expected = tf.gather_nd(data, indices, batch_dims=batch_dims)
    np.testing.assert_array_equal(
        g.gather_nd(data, indices, batch_dims=batch_dims), expected.numpy())


def test_tf_gather_rejects_what_check_rejects():
    data = np.arange(5, dtype=np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather(data, np.array([7]))
    with pytest.raises(IndexError, match="index 7 is out of range"):
        g.gather(data, np.array([7]))


# --- PyTorch 2 -----------------------------------------------------------------

torch = pytest.importorskip("torch")


def test_the_peer_is_torch_2():
    assert int(torch.__version__.split(".")[0]) >= 2


@SETTINGS
@given(elements_case())
def test_gather_elements_matches_torch_gather_and_take_along_dim(case):
    data, indices, axis = case
    indices = indices % data.shape[axis]  # torch.gather: no negative indices
    td, ti = torch.from_numpy(data), torch.from_numpy(indices)
    ours = g.gather_elements(td, ti, axis=axis)
    assert isinstance(ours, torch.Tensor)
    torch.testing.assert_close(ours, torch.gather(td, axis, ti))
    torch.testing.assert_close(ours, torch.take_along_dim(td, ti, axis))


@SETTINGS
@given(gather_case())
def test_gather_of_1d_indices_matches_torch_index_select(case):
    data, indices, axis, _ = case
    ids = indices.reshape(-1) % data.shape[axis]
    td = torch.from_numpy(data)
    torch.testing.assert_close(
        g.gather(td, torch.from_numpy(ids), axis=axis),
        torch.index_select(td, axis, torch.from_numpy(ids)))


# --- JAX -----------------------------------------------------------------------

jax = pytest.importorskip("jax")
jnp = jax.numpy


@st.composite
def take_case(draw):
    data_shape = draw(dims)
    axis = draw(st.integers(0, len(data_shape) - 1))
    size = data_shape[axis]
    shape = draw(st.lists(st.integers(1, 3), min_size=0, max_size=2))
    n = int(np.prod(shape))
    flat = draw(st.lists(st.integers(-3 * size, 3 * size), min_size=n,
                         max_size=n))
    return values(draw, data_shape), np.array(flat, np.int64).reshape(shape), axis


@SETTINGS
@given(take_case())
def test_wrap_and_fill_match_jnp_take(case):
    data, indices, axis = case
    for ours, theirs in [("wrap", dict(mode="wrap")),
                         ("fill", dict(mode="fill", fill_value=0))]:
        np.testing.assert_array_equal(
            g.gather(data, indices, axis=axis, mode=ours),
            np.asarray(jnp.take(data, indices, axis=axis, **theirs)))


@SETTINGS
@given(take_case())
def test_clamp_matches_jnp_take_clip_on_normalized_indices(case):
    """jnp.take's clip clamps the raw value (-1 goes to 0); our clamp
    normalizes first (-1 is the last position), as every other mode does.
    On indices with no negative value in range the two agree."""
    data, indices, axis = case
    size = data.shape[axis]
    normalized = np.where((indices < 0) & (indices >= -size), indices + size,
                          indices)
    np.testing.assert_array_equal(
        g.gather(data, normalized, axis=axis, mode="clamp"),
        np.asarray(jnp.take(data, normalized, axis=axis, mode="clip")))


def test_jnp_take_clip_sends_minus_one_to_zero_where_clamp_does_not():
    data = np.arange(5, dtype=np.float32)
    assert float(jnp.take(data, np.array([-1]), mode="clip")[0]) == 0.0
    assert g.gather(data, np.array([-1]), mode="clamp")[0] == 4.0
