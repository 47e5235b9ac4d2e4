"""Kernel choices measured on the host (KernelTuner.h): how rows gathered
along the last axis read data, and, for gather_elements along an axis
before the last, how its rows read data and whether they walk column
blocks. A class of calls compiles its
candidates one a call, then a call measures them on its operands and keeps
the fastest, in memory and on disk; GATHER_MLIR_TUNE=0 leaves every choice
to the cost model. Each case runs new interpreters with a cache directory
of their own."""

import textwrap

import pytest

from test_kernel_cache import run

# gather_elements along the last axis into a 256 KiB result, called CALLS
# times; prints each call's compile count, whether its result was right,
# and kernel_choice after it.
WORKLOAD = """
    import json, sys
    import numpy as np
    import gather_mlir as g
    from gather_mlir import _native
    rng = np.random.default_rng(7)
    data = rng.random((64, 8192), dtype=np.float32)
    ids = rng.integers(-8192, 8192, (64, 1024))
    expected = np.take_along_axis(data, ids % 8192, axis=1)
    calls = []
    for call in range(CALLS):
        before = g.compile_count()
        right = bool((g.gather_elements(data, ids, axis=1) == expected).all())
        choice = g.kernel_choice("gather_elements", data, ids, axis=1)
        calls.append(dict(compiled=g.compile_count() - before, right=right,
                          choice=choice))
    stats = _native.kernel_cache_stats()
    print(json.dumps(dict(calls=calls, stats=stats)))
"""


def workload(calls):
    return WORKLOAD.replace("CALLS", str(calls))


LOADS = ["auto", "vector", "scalar", "element"]
BLOCKS = [None, "column blocks", "rows"]


def check_record(choice):
    """The measured choice is the fastest candidate, or the cost model's
    (the first) when none beats it by 5%; the kernel compiled is it."""
    seconds = choice["seconds"]
    assert choice["chosen_by"] == "measurement"
    assert all(s > 0 for s in seconds.values())
    model = next(iter(seconds))
    fastest = min(seconds, key=seconds.get)
    chosen = ", ".join(field for field in (choice["loads"],
                                           choice["column_blocks"]) if field)
    if chosen != model:
        assert chosen == fastest
        assert seconds[fastest] < 0.95 * seconds[model]
    else:
        assert fastest == model or seconds[fastest] >= 0.95 * seconds[model]
    if choice["loads"]:
        assert f"gather-loads={choice['loads']}" in choice["pipeline"]
    if choice["column_blocks"]:
        # Always: from 0 bytes on; never: -1.
        blocks = "0" if choice["column_blocks"] == "column blocks" else "-1"
        assert f"column-block-min-bytes={blocks} " in choice["pipeline"]
    assert choice["key"].endswith(
        f" loads {LOADS.index(choice['loads'] or 'auto')} column blocks "
        f"{BLOCKS.index(choice['column_blocks'])}")


def test_a_class_measures_after_compiling_its_candidates(tmp_path):
    out = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path), "GATHER_MLIR_TUNE":
               None}, workload(5))
    calls = out["calls"]
    assert all(call["right"] for call in calls)
    first = calls[0]["choice"]
    candidates = first["candidates"]
    assert first["chosen_by"] == "cost model, until a call measures"
    assert len(candidates) >= 2 and len(set(candidates)) == len(candidates)
    assert set(candidates) <= {"vector", "scalar", "element"}
    # The data axis is 32 KiB: one element an iteration is a candidate.
    assert "element" in candidates
    assert first["loads"] == candidates[0] and first["seconds"] == {}
    # One kernel a call until every candidate is compiled; then the call
    # that measures compiles none, and the choice holds.
    n = len(candidates)
    assert [call["compiled"] for call in calls[:n]] == [1] * n
    # The benchmarks warm a class up by MEASURED_BY_CALL calls: enough for
    # its candidates' compiles and the measuring call.
    from gather_mlir import _native
    assert n + 1 <= _native.MEASURED_BY_CALL
    assert calls[n]["compiled"] == 0
    for call in calls[:n]:
        assert call["choice"]["chosen_by"] != "measurement"
    for call in calls[n:]:
        check_record(call["choice"])
        assert list(call["choice"]["seconds"]) == candidates
        assert call["choice"]["candidates"] == []
        assert call["choice"]["seconds"] == calls[n]["choice"]["seconds"]
    assert out["stats"]["measured"] == 1
    assert out["stats"]["choices_loaded"] == 0
    # A later process finds the choice on disk, and its kernel: nothing is
    # measured or compiled again.
    later = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path)}, workload(2))
    assert all(call["right"] for call in later["calls"])
    assert [call["compiled"] for call in later["calls"]] == [0, 0]
    assert later["calls"][0]["choice"]["seconds"] == \
        calls[n]["choice"]["seconds"]
    check_record(later["calls"][0]["choice"])
    assert later["stats"]["choices_loaded"] == 1
    assert later["stats"]["measured"] == 0


def test_tuning_off_leaves_the_choice_to_the_cost_model(tmp_path):
    out = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path),
               "GATHER_MLIR_TUNE": "0"}, workload(4))
    assert all(call["right"] for call in out["calls"])
    assert [call["compiled"] for call in out["calls"]] == [1, 0, 0, 0]
    for call in out["calls"]:
        choice = call["choice"]
        assert choice["chosen_by"] == "cost model"
        assert choice["candidates"] == [] and choice["seconds"] == {}
        assert choice["loads"] in ("vector", "scalar", "element")
    assert out["stats"]["measured"] == 0
    # A record measured before is not used either.
    measured = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path),
                    "GATHER_MLIR_TUNE": None}, workload(5))
    assert measured["stats"]["measured"] == 1
    off = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path),
               "GATHER_MLIR_TUNE": "off"}, workload(1))
    assert off["calls"][0]["choice"]["chosen_by"] == "cost model"
    assert off["stats"]["choices_loaded"] == 0


def test_small_results_and_other_kernels_are_not_measured(tmp_path):
    out = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path), "GATHER_MLIR_TUNE":
               None}, textwrap.dedent("""
        import json
        import numpy as np
        import gather_mlir as g
        data = np.ones((64, 8192), np.float32)
        rows = np.zeros((64, 1023), np.int64)  # 4 bytes short of 256 KiB
        axis0 = np.zeros((32, 8192), np.int64)
        long_axis0 = np.ones((4096, 64), np.float32)  # 4096 positions
        choices = [g.kernel_choice("gather_elements", data, rows, axis=1),
                   g.kernel_choice("gather_elements", data, axis0[:7],
                                   axis=0),
                   g.kernel_choice("gather_elements", long_axis0,
                                   np.zeros((4096, 64), np.int64)),
                   g.kernel_choice("gather", data, np.zeros(64, np.int64)),
                   g.kernel_choice("gather_elements", data, axis0, axis=0)]
        print(json.dumps(choices))
    """))
    small, small_axis0, long_axis0, gather, axis0 = out
    # Under 256 KiB: the cost model's loads, the lowering's threshold for
    # column blocks.
    for choice in (small, small_axis0):
        assert choice["chosen_by"] == "cost model"
        assert choice["candidates"] == []
        assert choice["loads"] in ("vector", "scalar")
        assert choice["column_blocks"] is None
    assert "column-block-min-bytes=8388608 " in small_axis0["pipeline"]
    # Not gather_elements, nor rows along the last axis: nothing measured.
    assert gather["chosen_by"] == "cost model" and gather["candidates"] == []
    assert gather["loads"] is None and gather["column_blocks"] is None
    assert gather["key"].endswith(" loads 0 column blocks 0")
    model = small_axis0["loads"]
    other = ({"vector", "scalar"} - {model}).pop()
    # Along more than 2048 positions there are no column blocks: the two
    # vector forms of loads, then one element an iteration.
    assert long_axis0["candidates"] == [model, other, "element"]
    assert long_axis0["loads"] == model
    assert long_axis0["column_blocks"] is None
    # 1 MiB along 64 positions (2 MiB of data): the cost model's rows, the
    # other loads, then the cost model's loads in column blocks.
    assert axis0["candidates"] == [f"{model}, rows", f"{other}, rows",
                                   f"{model}, column blocks"]
    assert axis0["column_blocks"] == "rows" and axis0["loads"] == model
    assert axis0["key"].endswith(
        f" loads {LOADS.index(model)} column blocks 2")
    assert "column-block-min-bytes=-1 " in axis0["pipeline"]


def test_an_error_while_measuring_records_nothing(tmp_path):
    """The call that would measure raises the IndexError of its bad index,
    chooses nothing and leaves `out` untouched; the next call measures.
    Into a result of the call's own (rows checked as they are gathered) and
    into `out` (every index checked first): two classes."""
    out = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path), "GATHER_MLIR_TUNE":
               None}, textwrap.dedent("""
        import json
        import numpy as np
        import gather_mlir as g
        from gather_mlir import _native
        data = np.arange(64 * 8192, dtype=np.float32).reshape(64, 8192)
        ids = np.tile(np.arange(1024), (64, 1))
        bad = ids.copy()
        bad[63, 1023] = 8192
        expected = np.take_along_axis(data, ids, axis=1)
        cases = []
        for into in (None, np.full((64, 1024), -1.0, np.float32)):
            choice = lambda: g.kernel_choice("gather_elements", data, ids,
                                             axis=1, out=into)
            for _ in choice()["candidates"]:
                g.gather_elements(data, ids, axis=1, out=into)
            if into is not None:
                into[...] = -1
            try:
                g.gather_elements(data, bad, axis=1, out=into)
                error = None
            except IndexError as e:
                error = str(e)
            untouched = into is None or bool((into == -1).all())
            after_error = choice()["chosen_by"]
            right = bool((g.gather_elements(data, ids, axis=1, out=into) ==
                          expected).all())
            cases.append(dict(error=error, untouched=untouched,
                              after_error=after_error,
                              after=choice()["chosen_by"], right=right,
                              measured=_native.kernel_cache_stats()[
                                  "measured"]))
        print(json.dumps(cases))
    """))
    for measured, case in enumerate(out, start=1):
        assert case["error"] is not None and "8192" in case["error"]
        assert case["untouched"]
        assert case["after_error"] == "cost model, until a call measures"
        assert case["right"]
        assert case["after"] == "measurement"
        assert case["measured"] == measured


@pytest.mark.parametrize("rows", [1500, 512])
def test_column_blocks_or_rows_are_measured(tmp_path, rows):
    """gather_elements along axis 0 of rows x 1536 f32: the cost model walks
    column blocks from 8 MiB of data on (1500 rows), rows below (512); a
    class measures both, and the other vector form of loads, and keeps the
    fastest; every call's result is right."""
    out = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path), "GATHER_MLIR_TUNE":
               None}, textwrap.dedent(f"""
        import json
        import numpy as np
        import gather_mlir as g
        rng = np.random.default_rng(3)
        data = rng.random(({rows}, 1536), dtype=np.float32)
        ids = rng.integers(-{rows}, {rows}, (64, 1536))
        expected = np.take_along_axis(data, ids % {rows}, axis=0)
        calls = []
        for _ in range(4):
            right = bool((g.gather_elements(data, ids) == expected).all())
            calls.append(dict(right=right,
                              choice=g.kernel_choice("gather_elements", data,
                                                     ids)))
        print(json.dumps(calls))
    """))
    assert all(call["right"] for call in out)
    first = out[0]["choice"]
    model = "column blocks" if rows == 1500 else "rows"
    loads = first["loads"]
    assert first["candidates"] == [
        f"{loads}, {model}",
        f"{({'vector', 'scalar'} - {loads}).pop()}, {model}",
        f"{loads}, {({'column blocks', 'rows'} - {model}).pop()}"]
    assert first["column_blocks"] == model
    assert out[2]["choice"]["chosen_by"] == "cost model, until a call measures"
    check_record(out[3]["choice"])
    assert list(out[3]["choice"]["seconds"]) == first["candidates"]


def test_threads_measure_a_class_once(tmp_path):
    """Threads that reach a class's measuring call together: one measures,
    the others run the cost model's kernel meanwhile (two measurements at
    once would skew each other's times); every result is right."""
    out = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path), "GATHER_MLIR_TUNE":
               None}, textwrap.dedent("""
        import json, threading
        import numpy as np
        import gather_mlir as g
        from gather_mlir import _native
        rng = np.random.default_rng(11)
        data = rng.random((64, 8192), dtype=np.float32)
        ids = rng.integers(0, 8192, (64, 1024))
        expected = np.take_along_axis(data, ids, axis=1)
        candidates = g.kernel_choice("gather_elements", data, ids,
                                     axis=1)["candidates"]
        for _ in candidates:  # every candidate compiled
            g.gather_elements(data, ids, axis=1)
        start = threading.Barrier(4)
        right = []

        def call():
            start.wait()
            for _ in range(3):
                right.append(bool(
                    (g.gather_elements(data, ids, axis=1) == expected).all()))
        threads = [threading.Thread(target=call) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(json.dumps(dict(
            right=right, measured=_native.kernel_cache_stats()["measured"],
            chosen_by=g.kernel_choice("gather_elements", data, ids,
                                      axis=1)["chosen_by"])))
    """))
    assert out["right"] == [True] * 12
    assert out["measured"] == 1
    assert out["chosen_by"] == "measurement"


@pytest.mark.parametrize("damage", ["garbled", "truncated", "foreign"])
def test_a_damaged_stored_choice_is_measured_again(tmp_path, damage):
    """A stored choice that is not a valid record (its payload garbled or
    cut short, or a variant that is no candidate) is never used: the class
    measures again and its results stay right."""
    first = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path), "GATHER_MLIR_TUNE":
                 None}, workload(5))
    assert first["stats"]["measured"] == 1
    records = [p for p in tmp_path.rglob("*")
               if p.is_file() and b"chosen " in p.read_bytes()]
    assert len(records) == 1
    entry = records[0].read_bytes()
    start = entry.index(b"chosen ")
    if damage == "garbled":
        entry = entry[:start] + b"chosen x" + entry[start + 8:]
    elif damage == "truncated":
        entry = entry[:start + 9]
    else:
        # A well-formed line naming loads no candidate has (200).
        line_end = entry.index(b"\n", start)
        entry = entry[:start] + b"chosen 200 0" + entry[line_end:]
    records[0].write_bytes(entry)
    later = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path), "GATHER_MLIR_TUNE":
                 None}, workload(5))
    assert all(call["right"] for call in later["calls"])
    assert later["stats"]["choices_loaded"] == 0 or damage == "foreign"
    assert later["stats"]["measured"] == 1
    check_record(later["calls"][-1]["choice"])
