"""Errors name what torch's do: a bag's id out of range names input and the
id's position in it (torch: "Index 1 of input"), and a bad mode names the
function, as every other message of the package does."""

import re

import numpy as np
import pytest

import gather_mlir as g

TABLE = np.zeros((5, 3), np.float32)
RANGE = "is out of range [-5, 4] for data dimension 0 of size 5"


@pytest.mark.parametrize("ids,offsets,message", [
    ([0, 7, 9], [0, 1], f"index 7 {RANGE}, at input[1]"),
    ([0, 1, 2, -6], [0, 2], f"index -6 {RANGE}, at input[3]"),
    ([[0, 1], [2, 9]], None, f"index 9 {RANGE}, at input[1, 1]"),
    (np.array([3, 8, 8], np.uint8), [0], f"index 8 {RANGE}, at input[1]"),
    (np.array([1, 2**63 + 5], np.uint64), [0],
     f"index {2**63 + 5} {RANGE}, at input[1]"),
])
def test_a_bad_id_names_its_position_in_input(ids, offsets, message):
    with pytest.raises(IndexError,
                       match=re.escape(f"gather.embedding_bag: {message}")):
        g.embedding_bag(ids, TABLE, offsets, mode="sum")


def test_a_bad_id_of_an_empty_table_names_its_position():
    with pytest.raises(IndexError, match=re.escape(
            "which is empty (size 0), at input[0]")):
        g.embedding_bag([1], np.zeros((0, 3), np.float32), [0],
                        oob_mode="wrap")


def test_a_quantized_bag_names_the_position_too():
    q = np.zeros((2, 12), np.uint8)
    with pytest.raises(IndexError, match=re.escape(", at input[2]")):
        g.embedding_bag_rowwise_quantized([0, 1, 5], q, [0])


@pytest.mark.parametrize("function,call", [
    ("gather", lambda m: g.gather([1, 2], [0], mode=m)),
    ("gather_elements", lambda m: g.gather_elements([1, 2], [0], mode=m)),
    ("gather_nd", lambda m: g.gather_nd([1, 2], [[0]], mode=m)),
])
def test_a_bad_mode_names_the_function(function, call):
    with pytest.raises(ValueError, match=re.escape(
            f"{function}: mode must be one of check, fill, clamp, wrap, "
            "unchecked, not 'nearest'")):
        call("nearest")
