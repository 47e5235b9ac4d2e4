"""ONNX's own backend node test cases for Gather, GatherElements, GatherND
and their adjoints Scatter, ScatterElements and ScatterND (every reduction),
collected from the onnx package and run through gather_mlir."""

import builtins
import warnings

import numpy as np
import pytest

import gather_mlir as g

# Debian's onnx 1.12 still uses the aliases numpy 1.24 removed.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for _alias in ("bool", "int", "float", "complex", "object", "str"):
        if not hasattr(np, _alias):
            setattr(np, _alias, getattr(builtins, _alias))
onnx_node = pytest.importorskip("onnx.backend.test.case.node")

OPS = {"Gather", "GatherElements", "GatherND"}
SCATTERS = {"Scatter", "ScatterElements", "ScatterND"}
# collect_testcases gathers cases as its modules import, once; an empty op
# type keeps them all.
ALL_CASES = onnx_node.collect_testcases("")
CASES = [c for c in ALL_CASES if c.model.graph.node[0].op_type in OPS]
SCATTER_CASES = [c for c in ALL_CASES
                 if c.model.graph.node[0].op_type in SCATTERS]


def run_node(node, inputs):
    attrs = {a.name: a.i for a in node.attribute}
    data, indices = inputs
    if node.op_type == "Gather":
        return g.gather(data, indices, axis=attrs.get("axis", 0))
    if node.op_type == "GatherElements":
        return g.gather_elements(data, indices, axis=attrs.get("axis", 0))
    return g.gather_nd(data, indices, batch_dims=attrs.get("batch_dims", 0))


def run_scatter(node, inputs):
    attrs = {a.name: (a.s.decode() if a.s else a.i) for a in node.attribute}
    data, indices, updates = inputs
    reduction = attrs.get("reduction", "none")
    if node.op_type == "ScatterND":
        return g.scatter_nd(data, indices, updates, reduction=reduction)
    return g.scatter_elements(data, indices, updates,
                              axis=attrs.get("axis", 0), reduction=reduction)


def test_every_scatter_has_cases():
    assert {c.model.graph.node[0].op_type for c in SCATTER_CASES} >= {
        "ScatterElements", "ScatterND"}
    assert len(SCATTER_CASES) >= 8


@pytest.mark.parametrize("case", SCATTER_CASES,
                         ids=[c.name for c in SCATTER_CASES])
def test_onnx_scatter_case(case):
    node = case.model.graph.node[0]
    for inputs, outputs in case.data_sets:
        result = run_scatter(node, inputs)
        assert result.dtype == outputs[0].dtype
        np.testing.assert_array_equal(result, outputs[0])


def test_every_op_has_cases():
    assert {c.model.graph.node[0].op_type for c in CASES} == OPS
    assert len(CASES) >= 10


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_onnx_node_case(case):
    node = case.model.graph.node[0]
    for inputs, outputs in case.data_sets:
        result = run_node(node, inputs)
        assert result.dtype == outputs[0].dtype
        np.testing.assert_array_equal(result, outputs[0])
