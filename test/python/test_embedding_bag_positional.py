"""embedding_bag takes torch.nn.functional.embedding_bag's arguments in its
positional order, so that torch's own callers (nn.EmbeddingBag.forward) can
call it; max_norm renormalizes the rows read as torch.embedding_renorm_ does.
Before, nn.EmbeddingBag's call was "takes from 2 to 7 positional arguments
but 11 were given"."""

import inspect
import math

import numpy as np
import pytest

import gather_mlir as g

TORCH_ORDER = ["input", "weight", "offsets", "max_norm", "norm_type",
               "scale_grad_by_freq", "mode", "sparse", "per_sample_weights",
               "include_last_offset", "padding_idx"]


def test_signature_is_torchs_then_keywords():
    params = inspect.signature(g.embedding_bag).parameters
    positional = [n for n, p in params.items()
                  if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert positional == TORCH_ORDER
    assert [n for n, p in params.items() if p.kind is p.KEYWORD_ONLY] == [
        "oob_mode", "out"]
    defaults = {n: p.default for n, p in params.items()}
    assert defaults["max_norm"] is None and defaults["norm_type"] == 2.0
    assert defaults["mode"] == "mean" and defaults["sparse"] is False


def test_signature_matches_the_installed_torch():
    torch = pytest.importorskip("torch")
    theirs = list(inspect.signature(
        torch.nn.functional.embedding_bag).parameters)
    assert theirs == TORCH_ORDER


def test_positional_call_like_torchs():
    ids, table = [0, 2, 1, 1], np.eye(3, dtype=np.float32)
    got = g.embedding_bag(ids, table, [0, 2], None, 2.0, False, "sum", False,
                          None, False, None)
    np.testing.assert_array_equal(got, [[1, 0, 1], [0, 2, 0]])


def test_mode_in_the_old_fourth_place_is_a_clear_error():
    with pytest.raises(TypeError, match="max_norm must be a real number, "
                       "not 'sum' .*mode is the seventh argument"):
        g.embedding_bag([0], np.eye(2, dtype=np.float32), [0], "sum")


@pytest.mark.parametrize("flags", [(True, False), (False, True)])
def test_gradient_only_flags_leave_the_result(flags):
    scale_grad_by_freq, sparse = flags
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(
        g.embedding_bag([1, 3, 3], table, [0, 1], mode="sum",
                        scale_grad_by_freq=scale_grad_by_freq, sparse=sparse),
        table[[1]].tolist() + [(2 * table[3]).tolist()])


def _torch_module(torch, **kwargs):
    torch.manual_seed(0)
    bag = torch.nn.EmbeddingBag(10, 4, **kwargs)
    with torch.no_grad():
        bag.weight.mul_(3)  # Norms above 1, so that max_norm=1 scales rows.
    bag.weight.requires_grad_(False)
    return bag


@pytest.mark.parametrize("kwargs", [
    dict(mode="sum"), dict(mode="mean"), dict(mode="max"),
    dict(mode="sum", padding_idx=2), dict(mode="mean", include_last_offset=True),
    dict(mode="sum", max_norm=1.0), dict(mode="mean", max_norm=1.5, norm_type=1.0),
    dict(mode="max", max_norm=2.0, norm_type=math.inf),
    dict(mode="sum", max_norm=1.0, padding_idx=0, include_last_offset=True),
    dict(mode="sum", scale_grad_by_freq=True, sparse=True)])
def test_nn_embedding_bag_calls_it_positionally(monkeypatch, kwargs):
    """nn.EmbeddingBag's forward with F.embedding_bag replaced by ours gives
    torch's result, and leaves its table as torch's leaves it."""
    torch = pytest.importorskip("torch")
    theirs, ours = _torch_module(torch, **kwargs), _torch_module(torch, **kwargs)
    ids = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9, 0, 7])
    # With include_last_offset, the last offset is the end of the ids: torch
    # 1.13 mis-handles ids after it (its mean bags count them, and with
    # per_sample_weights it corrupts the heap).
    offsets = torch.tensor([0, 3, 3, 10 if kwargs.get("include_last_offset")
                            else 6])
    weights = (torch.rand(10) if kwargs["mode"] == "sum" else None)
    with torch.no_grad():
        expected = theirs(ids, offsets, per_sample_weights=weights)
    monkeypatch.setattr(torch.nn.functional, "embedding_bag", g.embedding_bag)
    with torch.no_grad():
        got = ours(ids, offsets, per_sample_weights=weights)
    assert isinstance(got, torch.Tensor)
    torch.testing.assert_close(got, expected)
    # The same renormalization: torch's own op on the same rows.
    assert torch.equal(ours.weight, theirs.weight)


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.0, math.inf])
def test_max_norm_on_arrays_equals_torch(dtype, norm_type):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    table = (rng.standard_normal((8, 5)) * 2).astype(dtype)
    ids = np.array([7, 1, -1, 3, 3, 0])
    offsets = np.array([0, 2, 4])
    expected_table = torch.from_numpy(table.copy())
    expected = torch.nn.functional.embedding_bag(
        torch.from_numpy(ids % 8), expected_table, torch.from_numpy(offsets),
        max_norm=1.25, norm_type=norm_type, mode="sum")
    got = g.embedding_bag(ids, table, offsets, 1.25, norm_type, mode="sum")
    tolerance = 2e-3 if dtype == "float16" else 1e-6
    np.testing.assert_allclose(table, expected_table.numpy(), rtol=tolerance)
    np.testing.assert_allclose(got, expected.numpy(), rtol=tolerance,
                               atol=tolerance)
    assert (table[[2, 4, 5, 6]] == expected_table.numpy()[[2, 4, 5, 6]]).all()


def test_max_norm_scales_exactly_torchs_rows():
    table = np.array([[3, 4], [0.3, 0.4], [6, 8]], np.float64)
    got = g.embedding_bag([0, 1], table, [0], max_norm=1.0, mode="sum")
    np.testing.assert_allclose(table[0], [3, 4] / np.float64(5 + 1e-7))
    assert table[1].tolist() == [0.3, 0.4]   # Under max_norm: untouched.
    assert table[2].tolist() == [6, 8]       # Not selected: untouched.
    np.testing.assert_allclose(got, [table[0] + table[1]])


@pytest.mark.parametrize("oob_mode,row", [("clamp", 2), ("wrap", 1),
                                          ("fill", None)])
def test_max_norm_follows_the_index_mode(oob_mode, row):
    table = np.full((3, 2), 10.0, np.float32)
    g.embedding_bag([7], table, [0], max_norm=1.0, oob_mode=oob_mode)
    scaled = [i for i in range(3) if table[i, 0] < 10]
    assert scaled == ([] if row is None else [row])


def test_max_norm_leaves_weight_unchanged_when_the_call_raises():
    table = np.full((3, 2), 10.0, np.float32)
    with pytest.raises(IndexError, match="index 7 is out of range"):
        g.embedding_bag([0, 7], table, [0], max_norm=1.0)
    assert (table == 10).all()
    with pytest.raises(ValueError, match="offsets"):
        g.embedding_bag([0, 1], table, [1], max_norm=1.0)
    assert (table == 10).all()


def test_max_norm_on_a_read_only_table_is_an_error():
    table = np.ones((2, 2), np.float32)
    table.flags.writeable = False
    with pytest.raises(ValueError, match="max_norm renormalizes weight in "
                       "place, and weight is read-only"):
        g.embedding_bag([0], table, [0], max_norm=1.0)


def test_max_norm_on_an_array_like_reads_its_renormalized_copy():
    got = g.embedding_bag([[0]], [[3.0, 4.0]], max_norm=1.0)
    np.testing.assert_allclose(got, [[0.6, 0.8]], rtol=1e-6)


def test_max_norm_on_a_byte_swapped_table():
    table = np.array([[3.0, 4.0]], ">f4")
    got = g.embedding_bag([0], table, [0], max_norm=1.0)
    np.testing.assert_allclose(table, [[0.6, 0.8]], rtol=1e-6)
    np.testing.assert_allclose(got, [[0.6, 0.8]], rtol=1e-6)


def test_nn_embedding_bag_under_no_grad_with_a_weight_that_requires_grad(
        monkeypatch):
    """The issue's case as a torch user has it: the module's weight requires
    grad, and under torch.no_grad() there is no graph to record."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    theirs = torch.nn.EmbeddingBag(10, 4, mode="mean", max_norm=1.0)
    ours = torch.nn.EmbeddingBag(10, 4, mode="mean", max_norm=1.0)
    with torch.no_grad():
        ours.weight.copy_(theirs.weight)
    assert ours.weight.requires_grad
    ids, offsets = torch.tensor([1, 2, 4, 5, 4, 3]), torch.tensor([0, 2])
    with torch.no_grad():
        expected = theirs(ids, offsets)
        monkeypatch.setattr(torch.nn.functional, "embedding_bag",
                            g.embedding_bag)
        got = ours(ids, offsets)
    torch.testing.assert_close(got, expected)
    assert torch.equal(ours.weight, theirs.weight)
