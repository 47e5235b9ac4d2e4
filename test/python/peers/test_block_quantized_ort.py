"""gather_mlir.gather_block_quantized against ONNX Runtime's own
com.microsoft GatherBlockQuantized on random tables: 4- and 8-bit uint8
data, float32 and float16 scales, with and without zero points, int32 and
int64 indices (negative ones included)."""
import numpy as np
import pytest

import gather_mlir as g

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

_TYPES = {np.dtype(np.uint8): TensorProto.UINT8,
          np.dtype(np.int32): TensorProto.INT32,
          np.dtype(np.int64): TensorProto.INT64,
          np.dtype(np.float32): TensorProto.FLOAT,
          np.dtype(np.float16): TensorProto.FLOAT16}


def _ort(data, indices, scales, zero_points, block_size, bits):
    names = ["data", "indices", "scales"] + (["zp"] if zero_points is not None
                                             else [])
    arrays = [data, indices, scales] + ([zero_points] if zero_points is not None
                                        else [])
    node = helper.make_node("GatherBlockQuantized", names, ["out"],
                            domain="com.microsoft", gather_axis=0,
                            quantize_axis=1, block_size=block_size, bits=bits)
    graph = helper.make_graph(
        [node], "gbq",
        [helper.make_tensor_value_info(n, _TYPES[a.dtype], a.shape)
         for n, a in zip(names, arrays)],
        [helper.make_tensor_value_info("out", _TYPES[scales.dtype], None)])
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)])
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    return session.run(None, dict(zip(names, arrays)))[0]


@pytest.mark.parametrize("bits", [4, 8])
@pytest.mark.parametrize("scale_dtype", [np.float32, np.float16])
@pytest.mark.parametrize("with_zero_points", [True, False])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_matches_onnxruntime(bits, scale_dtype, with_zero_points,
                             index_dtype):
    rng = np.random.default_rng(bits + 3 * with_zero_points)
    for num, width, block in ((7, 256, 128), (12, 512, 64), (5, 64, 32)):
        data = rng.integers(0, 256, (num, width * bits // 8), dtype=np.uint8)
        blocks = width // block
        scales = (rng.random((num, blocks)) + 0.25).astype(scale_dtype)
        zp = (rng.integers(0, 256, (num, -(-blocks // (8 // bits))),
                           dtype=np.uint8) if with_zero_points else None)
        indices = rng.integers(-num, num, 11).astype(index_dtype)
        expected = _ort(data, indices, scales, zp, block, bits)
        result = g.gather_block_quantized(data, indices, scales, zp,
                                          block_size=block, bits=bits)
        assert result.dtype == expected.dtype
        assert result.shape == expected.shape
        tol = 1e-3 if scale_dtype == np.float16 else 1e-6
        np.testing.assert_allclose(result.astype(np.float32),
                                   expected.astype(np.float32),
                                   rtol=tol, atol=tol)
