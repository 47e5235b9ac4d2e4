"""Kernels kept on disk (GATHER_MLIR_CACHE_DIR): a new process links what
an earlier one compiled, entries that are not valid are rebuilt, never
loaded, and a cache that cannot be written is no error. Every case runs new
interpreters, each with a cache directory of its own."""

import json
import os
import subprocess
import sys
import textwrap

import pytest

# A gather, a 2 MiB gather in wrap mode and a gather_nd; prints the results'
# sums and the cache's counts as JSON.
WORKLOAD = """
    import json
    import numpy as np
    import gather_mlir as g
    from gather_mlir import _native
    small = g.gather(np.arange(10.0), np.array([1, -2]))
    big = g.gather(np.arange(3000 * 512, dtype=np.float32).reshape(3000, 512),
                   np.arange(-3000, 3000, 3), mode="wrap")
    nd = g.gather_nd(np.arange(12).reshape(3, 4), np.array([[2, 3], [0, 1]]))
    try:
        g.gather(np.arange(10.0), np.array([10]))
        error = None
    except IndexError as e:
        error = str(e)
    stats = _native.kernel_cache_stats()
    stats["compile_count"] = g.compile_count()
    stats["sums"] = [float(small.sum()), float(big.sum()), int(nd.sum())]
    stats["error"] = error
    print(json.dumps(stats))
"""
KERNELS = 3  # The workload's distinct kernels.


def run(env_changes, code=WORKLOAD):
    """Runs `code` in a new interpreter with the environment changed (a None
    value unsets a variable); returns its last line of output as JSON."""
    env = dict(os.environ)
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def entries(directory):
    return sorted(name for name in os.listdir(directory)
                  if name.endswith(".kernel"))


def check_results(stats, reference):
    assert stats["sums"] == reference["sums"]
    assert stats["error"] == reference["error"]
    assert "index 10 is out of range [-10, 9]" in stats["error"]


def test_a_new_process_links_kernels_compiled_before(tmp_path):
    cache = str(tmp_path / "cache")
    first = run({"GATHER_MLIR_CACHE_DIR": cache})
    assert first["compiled"] == first["stored"] == KERNELS
    assert first["loaded"] == first["rejected"] == 0
    assert first["directory"] == cache
    assert len(entries(cache)) == KERNELS
    assert first["mlir_context"]
    second = run({"GATHER_MLIR_CACHE_DIR": cache})
    assert second["compile_count"] == second["compiled"] == 0
    assert second["loaded"] == KERNELS and second["stored"] == 0
    # Kernels on disk are found by their keys: no MLIR context is made.
    assert not second["mlir_context"]
    check_results(second, first)
    # Nothing is left behind but the entries.
    assert sorted(os.listdir(cache)) == entries(cache)


BAGS = """
    import json
    import numpy as np
    import gather_mlir as g
    from gather_mlir import _native
    table = np.arange(40, dtype=np.float32).reshape(10, 4)
    # Row-wise 8-bit rows: values 0..3 + row, scale 2, bias 0.5.
    q = np.concatenate(
        [np.arange(4, dtype=np.uint8) + np.arange(5, dtype=np.uint8)[:, None],
         np.tile(np.array([2.0, 0.5], np.float32).view(np.uint8), (5, 1))],
        axis=1)
    sums = [g.embedding_bag([1, 2, -1], table, [0, 1], mode="sum").tolist(),
            g.embedding_bag([[1, 2]], table, mode="max").tolist(),
            g.embedding_bag_rowwise_quantized([0, 4], q, [0]).tolist()]
    try:
        g.embedding_bag([1, 10], table, [0])
        error = None
    except IndexError as e:
        error = str(e)
    stats = _native.kernel_cache_stats()
    stats["sums"] = sums
    stats["error"] = error
    print(json.dumps(stats))
"""


def test_a_new_process_links_embedding_bag_kernels_compiled_before(tmp_path):
    """Embedding bags' kernels (four: sum, max, row-wise sum, mean) are kept
    on disk as the gathers' are: a new process links them, builds no MLIR
    context, and gets the same sums and the same error."""
    cache = str(tmp_path / "cache")
    first = run({"GATHER_MLIR_CACHE_DIR": cache}, BAGS)
    assert first["compiled"] == first["stored"] == 4
    assert first["mlir_context"]
    second = run({"GATHER_MLIR_CACHE_DIR": cache}, BAGS)
    assert second["compiled"] == 0 and second["loaded"] == 4
    assert not second["mlir_context"]
    assert second["sums"] == first["sums"] == [
        [[4.0, 5.0, 6.0, 7.0], [44.0, 46.0, 48.0, 50.0]],  # rows 1; 2 + 9
        [[8.0, 9.0, 10.0, 11.0]],
        [[0.5 + 2 * 0 + 0.5 + 2 * 4, 0.5 + 2 * 1 + 0.5 + 2 * 5,
          0.5 + 2 * 2 + 0.5 + 2 * 6, 0.5 + 2 * 3 + 0.5 + 2 * 7]]]
    assert second["error"] == first["error"] == (
        "gather.embedding_bag: index 10 is out of range [-10, 9] for data "
        "dimension 0 of size 10, at input[1]")


def damage_and_rerun(tmp_path, damage):
    """Fills a cache, damages every entry with `damage(path)`, and checks
    that the next process rejects them all, rebuilds and rewrites them,
    and the one after that loads them."""
    cache = str(tmp_path / "cache")
    reference = run({"GATHER_MLIR_CACHE_DIR": cache})
    for name in entries(cache):
        damage(os.path.join(cache, name))
    rebuilt = run({"GATHER_MLIR_CACHE_DIR": cache})
    assert rebuilt["rejected"] == KERNELS
    assert rebuilt["compiled"] == rebuilt["stored"] == KERNELS
    assert rebuilt["loaded"] == 0
    check_results(rebuilt, reference)
    again = run({"GATHER_MLIR_CACHE_DIR": cache})
    assert again["loaded"] == KERNELS and again["compiled"] == 0
    check_results(again, reference)


def test_truncated_entries_are_rebuilt(tmp_path):
    def truncate(path):
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.truncate(size // 2)
    damage_and_rerun(tmp_path, truncate)


def test_corrupt_entries_are_rebuilt(tmp_path):
    def flip_a_byte_of_the_object(path):
        with open(path, "r+b") as f:
            f.seek(-100, os.SEEK_END)
            byte = f.read(1)
            f.seek(-100, os.SEEK_END)
            f.write(bytes([byte[0] ^ 0x40]))
    damage_and_rerun(tmp_path, flip_a_byte_of_the_object)


def test_garbage_and_header_only_entries_are_rebuilt(tmp_path):
    def garbage(path):
        with open(path, "wb") as f:
            f.write(b"\x7fELF" + os.urandom(2000))
    damage_and_rerun(tmp_path, garbage)

    def header_only(path):
        with open(path, "r+b") as f:
            f.truncate(40)
    damage_and_rerun(tmp_path / "again", header_only)


def test_foreign_entries_are_rebuilt(tmp_path):
    # Whole, valid entries, each under another key's name: the key in the
    # header does not match.
    cache = tmp_path / "cache"
    reference = run({"GATHER_MLIR_CACHE_DIR": str(cache)})
    names = entries(cache)
    contents = [(cache / name).read_bytes() for name in names]
    for i, name in enumerate(names):
        (cache / name).write_bytes(contents[(i + 1) % len(names)])
    rebuilt = run({"GATHER_MLIR_CACHE_DIR": str(cache)})
    assert rebuilt["rejected"] == rebuilt["compiled"] == KERNELS
    assert rebuilt["loaded"] == 0
    check_results(rebuilt, reference)
    again = run({"GATHER_MLIR_CACHE_DIR": str(cache)})
    assert again["loaded"] == KERNELS and again["compiled"] == 0


def test_an_empty_cache_dir_turns_the_cache_off(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    for _ in range(2):
        stats = run({"GATHER_MLIR_CACHE_DIR": "", "HOME": str(home)})
        assert stats["directory"] is None
        assert stats["compiled"] == KERNELS
        assert stats["stored"] == stats["loaded"] == 0
    assert not list(home.rglob("*"))


def test_the_default_dir_is_under_home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {"GATHER_MLIR_CACHE_DIR": None, "HOME": str(home)}
    first = run(env)
    cache = home / ".cache" / "gather_mlir"
    assert first["directory"] == str(cache)
    assert len(entries(cache)) == KERNELS
    assert run(env)["loaded"] == KERNELS


def test_an_unwritable_cache_dir_is_not_an_error(tmp_path):
    # A path under a regular file can be neither created nor written, even
    # by root.
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    cache = str(blocker / "cache")
    reference = run({"GATHER_MLIR_CACHE_DIR": str(tmp_path / "ok")})
    for _ in range(2):
        stats = run({"GATHER_MLIR_CACHE_DIR": cache})
        assert stats["compiled"] == KERNELS
        assert stats["stored"] == stats["loaded"] == stats["rejected"] == 0
        check_results(stats, reference)


def test_concurrent_processes_writing_the_same_entries(tmp_path):
    cache = tmp_path / "cache"
    start = tmp_path / "start"
    # Each process waits for the same moment, then compiles and writes the
    # same entries as the others.
    code = textwrap.dedent(f"""
        import os, time
        while not os.path.exists({str(start)!r}):
            time.sleep(0.005)
    """) + textwrap.dedent(WORKLOAD)
    env = dict(os.environ, GATHER_MLIR_CACHE_DIR=str(cache))
    procs = [subprocess.Popen([sys.executable, "-c", code],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(4)]
    start.write_text("go")
    results = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err[-3000:]
        results.append(json.loads(out.strip().splitlines()[-1]))
    for r in results:
        check_results(r, results[0])
        assert r["compiled"] + r["loaded"] == KERNELS
    # Whole entries only, no temporary files, and all of them load.
    assert sorted(os.listdir(cache)) == entries(cache)
    assert len(entries(cache)) == KERNELS
    after = run({"GATHER_MLIR_CACHE_DIR": str(cache)})
    assert after["loaded"] == KERNELS and after["rejected"] == 0
    check_results(after, results[0])
