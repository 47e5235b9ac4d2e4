"""gather_mlir.compiler: parse, verify, run pipelines, JIT and call."""

import numpy as np
import pytest

from gather_mlir.compiler import JitModule, Module

ROWS = """
func.func @rows(%d: tensor<?x?xf32>, %i: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = gather.gather %d[%i] : (tensor<?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
"""

FILL = """
func.func @fill(%d: memref<?xi32>, %i: memref<?xi32>, %o: memref<?xi32>) {
  %dt = bufferization.to_tensor %d restrict : memref<?xi32> to tensor<?xi32>
  %it = bufferization.to_tensor %i restrict : memref<?xi32> to tensor<?xi32>
  %r = gather.gather %dt[%it] {mode = #gather<mode fill>} : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?xi32>, memref<?xi32>) -> ()
  return
}
"""


def test_parse_print_round_trip():
    m = Module(ROWS)
    m.verify()
    assert "gather.gather" in str(m)
    assert str(Module(str(m))) == str(m)


def test_parse_errors_are_value_errors_with_diagnostics():
    with pytest.raises(ValueError, match="axis 5 is out of range"):
        Module(ROWS.replace("%0 = gather.gather %d[%i] :",
                            "%0 = gather.gather %d[%i] {axis = 5 : i64} :"))
    with pytest.raises(ValueError, match="expected"):
        Module("func.func @broken(")


def test_run_pipelines():
    m = Module(ROWS).run("canonicalize,cse")
    assert "gather.gather" in str(m)
    m.run("convert-gather-to-loops")
    assert "affine.for" in str(m) and "gather.gather" not in str(m)
    with pytest.raises(ValueError, match="invalid pipeline"):
        Module(ROWS).run("no-such-pass")


def test_jit_call_returning_a_tensor():
    jit = JitModule(Module(ROWS))
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    out = jit.call("rows", data, np.array([3, -4, 1]))
    np.testing.assert_array_equal(out, data[[3, 0, 1]])


def test_jit_adopts_the_allocation_a_function_returns():
    """A result the function allocated becomes the array's memory (no copy),
    freed with the array: results stay right after earlier ones are freed,
    and each call has memory of its own."""
    jit = JitModule(Module(ROWS))
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    first = jit.call("rows", data, np.array([3, 0]))
    assert first.base is not None and first.flags.writeable
    for _ in range(50):
        out = jit.call("rows", data, np.array([1, 2]))
        np.testing.assert_array_equal(out, data[[1, 2]])
        assert not np.shares_memory(out, first)
        del out
    np.testing.assert_array_equal(first, data[[3, 0]])


def test_jit_check_failure_is_an_index_error():
    jit = JitModule(Module(ROWS))
    with pytest.raises(IndexError, match="index 9 is out of range"):
        jit.call("rows", np.zeros((4, 3), np.float32), np.array([9]))


def test_jit_destination_passing():
    jit = JitModule(Module(FILL))
    out = np.full(3, -1, np.int32)
    jit.call("fill", np.array([1, 2, 3, 4, 5], np.int32),
             np.array([3, 10, -20], np.int32), out)
    np.testing.assert_array_equal(out, [4, 0, 0])


def test_jit_argument_errors():
    jit = JitModule(Module(ROWS))
    with pytest.raises(KeyError):
        jit.call("nope")
    with pytest.raises(ValueError, match="takes 2 arrays"):
        jit.call("rows", np.zeros((2, 2), np.float32))
    with pytest.raises(ValueError, match="argument 0 must have rank 2, not 1"):
        jit.call("rows", np.zeros(4, np.float32), np.array([0]))


def test_jit_rejects_non_contiguous_arrays_instead_of_copying():
    jit = JitModule(Module(FILL))
    out = np.zeros(6, np.int32)[::2]  # Writes into a copy would be lost.
    with pytest.raises(ValueError, match="argument 2 must be C-contiguous"):
        jit.call("fill", np.arange(5, dtype=np.int32),
                 np.array([0, 1, 2], np.int32), out)
    result = np.zeros(3, np.int32)
    jit.call("fill", np.arange(1, 6, dtype=np.int32),
             np.array([4, 0, 9], np.int32), result)
    np.testing.assert_array_equal(result, [5, 1, 0])


def test_jit_arguments_take_the_numpy_dtype_of_their_element_type():
    jit = JitModule(Module(
        "func.func @f(%a: memref<2xf16>, %b: memref<2xcomplex<f32>>, "
        "%c: memref<2xui16>, %d: memref<2xi1>) { return }"))
    jit.call("f", np.zeros(2, np.float16), np.zeros(2, np.complex64),
             np.zeros(2, np.uint16), np.zeros(2, bool))
    with pytest.raises(TypeError, match="argument 1 must have dtype "
                       "complex64, not complex128"):
        jit.call("f", np.zeros(2, np.float16), np.zeros(2, np.complex128),
                 np.zeros(2, np.uint16), np.zeros(2, bool))


def test_jit_element_types_without_a_numpy_dtype_are_type_errors():
    with pytest.raises(TypeError, match="no numpy dtype for element type bf16"):
        JitModule(Module("func.func @f(%a: memref<2xbf16>) { return }"))


def test_diagnostics_carry_line_and_column():
    with pytest.raises(ValueError, match=r"<source>:3:8: error: .*axis 5 is "
                       r"out of range"):
        Module(ROWS.replace("%0 = gather.gather %d[%i] :",
                            "%0 = gather.gather %d[%i] {axis = 5 : i64} :"))
    with pytest.raises(ValueError, match=r"<source>:1:18: error: expected"):
        Module("func.func @broken(")
    foreign_hook = Module("""
llvm.func @gather_mlir_index_error(i32)
""")
    with pytest.raises(ValueError, match=r"<source>:2:1: error: 'llvm.func' op "
                       "cannot define the error hook 'gather_mlir_index_error'"):
        foreign_hook.run("gather-define-error-handlers")


def test_opt_level_is_0_to_3():
    for level in range(4):
        JitModule(Module(FILL), opt_level=level)
    for level in (-1, 4, 100):
        with pytest.raises(ValueError, match="opt_level must be 0..3"):
            JitModule(Module(FILL), opt_level=level)


# --- Safety against bad input ------------------------------------------------


def run_isolated(code, **values):
    """Runs `code` in a fresh interpreter (a crash there fails the test, not
    pytest; nothing loaded by earlier tests, such as libomp, is around) with
    `values` bound to their names, and returns its stdout. The snippet prints
    what it wants checked."""
    import os
    import subprocess
    import sys
    import textwrap
    source = "".join(f"{name} = {value!r}\n" for name, value in
                     values.items()) + textwrap.dedent(code)
    done = subprocess.run([sys.executable, "-c", source],
                          capture_output=True, text=True, env=os.environ,
                          timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    return done.stdout


STATIC = """
func.func @rows(%d: tensor<2x5xi32>, %i: tensor<3xi64>) -> tensor<3x5xi32> {
  %0 = gather.gather %d[%i] : (tensor<2x5xi32>, tensor<3xi64>) -> tensor<3x5xi32>
  return %0 : tensor<3x5xi32>
}
"""


def test_jit_checks_count_rank_static_dims_and_dtype():
    jit = JitModule(Module(STATIC))
    data = np.arange(10, dtype=np.int32).reshape(2, 5)
    idx = np.array([1, 0, 1])
    np.testing.assert_array_equal(jit.call("rows", data, idx), data[idx])
    with pytest.raises(ValueError, match=r"rows\(\) takes 2 arrays, got 1"):
        jit.call("rows", data)
    with pytest.raises(ValueError, match="argument 0 must have rank 2, not 1"):
        jit.call("rows", data.ravel(), idx)
    # Read past its end before: a 1x5 array for tensor<2x5xi32>.
    with pytest.raises(ValueError, match=r"argument 0 must have shape "
                       r"\(2, 5\) \(tensor<2x5xi32>\), not \(1, 5\)"):
        jit.call("rows", data[:1], idx)
    with pytest.raises(ValueError, match=r"argument 1 must have shape \(3,\)"):
        jit.call("rows", data, idx[:2])
    with pytest.raises(TypeError, match="argument 0 must have dtype int32, "
                       "not int64"):
        jit.call("rows", data.astype(np.int64), idx)
    with pytest.raises(TypeError, match="argument 1 must have dtype int64"):
        jit.call("rows", data, idx.astype(">i8"))


def test_jit_dynamic_dims_take_any_size():
    jit = JitModule(Module(ROWS))
    for n in (0, 1, 7):
        data = np.arange(3 * n, dtype=np.float32).reshape(n, 3)
        idx = np.arange(n)[::-1].copy()
        np.testing.assert_array_equal(jit.call("rows", data, idx), data[idx])


def test_jit_checks_static_memref_layouts():
    jit = JitModule(Module(
        "func.func @f(%a: memref<2x2xf32, strided<[4, 1]>>) { return }\n"
        "func.func @g(%a: memref<2xf32, strided<[1], offset: ?>>) { return }"))
    with pytest.raises(ValueError, match=r"argument 0 must have strides "
                       r"\(4, 1\) \(in elements\), not \(2, 1\)"):
        jit.call("f", np.zeros((2, 2), np.float32))
    jit.call("g", np.zeros(2, np.float32))


IDENTITY = """
func.func @same(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}
func.func @view(%a: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 4>> {
  %v = memref.subview %a[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  return %v : memref<4xf32, strided<[1], offset: 4>>
}
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @constant() -> memref<4xf32> {
  %g = memref.get_global @table : memref<4xf32>
  return %g : memref<4xf32>
}
func.func @tail() -> memref<4xf32, strided<[1], offset: 4>> {
  %m = memref.alloc() : memref<8xf32>
  %c = arith.constant 7.0 : f32
  linalg.fill ins(%c : f32) outs(%m : memref<8xf32>)
  %v = memref.subview %m[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  return %v : memref<4xf32, strided<[1], offset: 4>>
}
"""

# Lowers without the buffer deallocation pipeline, so returned memrefs alias
# arguments, globals (allocated pointer 0xdeadbeef) and views of allocations.
BARE_LOWERING = ("convert-linalg-to-loops,convert-scf-to-cf,"
                 "expand-strided-metadata,finalize-memref-to-llvm,"
                 "convert-arith-to-llvm,convert-cf-to-llvm,"
                 "convert-func-to-llvm,reconcile-unrealized-casts")


def test_jit_returned_memrefs_aliasing_arguments_or_globals_are_not_freed():
    out = run_isolated("""
        import numpy as np
        from gather_mlir.compiler import JitModule, Module
        jit = JitModule(Module(ir), pipeline)
        a = np.arange(8, dtype=np.float32)
        for _ in range(3):
            same = jit.call("same", a[:4])
            assert not np.shares_memory(same, a)
            view = jit.call("view", a)
            assert not np.shares_memory(view, a)
            assert jit.call("constant").tolist() == [1, 2, 3, 4]
            assert jit.call("tail").tolist() == [7] * 4
        print(same.tolist(), view.tolist())
        """, ir=IDENTITY, pipeline=BARE_LOWERING)
    assert out.split() == ["[0.0,", "1.0,", "2.0,", "3.0]", "[4.0,", "5.0,",
                           "6.0,", "7.0]"]


def test_jit_tensor_functions_returning_arguments_or_views():
    jit = JitModule(Module("""
        func.func @same(%a: tensor<4xf32>) -> tensor<4xf32> {
          return %a : tensor<4xf32>
        }
        func.func @slice(%a: tensor<8xf32>) -> tensor<4xf32> {
          %s = tensor.extract_slice %a[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
          return %s : tensor<4xf32>
        }"""))
    a = np.arange(8, dtype=np.float32)
    for _ in range(3):
        np.testing.assert_array_equal(jit.call("same", a[:4]), a[:4])
        np.testing.assert_array_equal(jit.call("slice", a), a[2:6])


def test_jit_calls_llvm_dialect_modules_lowered_by_module_run():
    lowered = Module(ROWS).run("gather-to-llvm")
    assert "func.func" not in str(lowered)
    jit = JitModule(lowered, "")
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(jit.call("rows", data, np.array([3, 1])),
                                  data[[3, 1]])
    with pytest.raises(IndexError, match="index 4 is out of range"):
        jit.call("rows", data, np.array([4]))
    # Parsed from text, the element types are gone: an error naming the
    # function at construction, not at call time.
    with pytest.raises(ValueError, match="cannot derive the signature of "
                       "'rows'"):
        JitModule(Module(str(lowered)), "")


def test_jit_unresolved_symbols_are_value_errors_at_construction():
    with pytest.raises(ValueError, match="nowhere_to_be_found"):
        JitModule(Module("""
            func.func private @nowhere_to_be_found(memref<4xf32>)
            func.func @f(%a: memref<4xf32>) {
              call @nowhere_to_be_found(%a) : (memref<4xf32>) -> ()
              return
            }"""))


def test_jit_parallel_lowering_loads_openmp():
    out = run_isolated("""
        import numpy as np
        from gather_mlir.compiler import JitModule, Module
        jit = JitModule(Module(ir), "gather-to-llvm{parallel=true parallel-min-bytes=0}")
        data = np.arange(3000, dtype=np.float32).reshape(1000, 3)
        idx = np.arange(1000)[::-1].copy()
        assert (jit.call("rows", data, idx) == data[idx]).all()
        print("ok")
        """, ir=ROWS)
    assert out.strip() == "ok"


def test_jit_run_time_shape_errors_are_value_errors():
    jit = JitModule(Module("""
        func.func @elements(%d: tensor<?x?xf32>, %i: tensor<?x?xi32>) -> tensor<?x?xf32> {
          %0 = gather.gather_elements %d[%i] {axis = 1 : i64} : (tensor<?x?xf32>, tensor<?x?xi32>) -> tensor<?x?xf32>
          return %0 : tensor<?x?xf32>
        }"""))
    # Along dimension 0 (not the axis) indices may not be longer than data.
    with pytest.raises(ValueError, match=r"^gather\.gather_elements: indices "
                       "dimension 0 has size 4, larger than data dimension 0 "
                       "of size 2$"):
        jit.call("elements", np.zeros((2, 2), np.float32),
                 np.zeros((4, 1), np.int32))


DEQUANTIZE = """
func.func @dequantize(%q: tensor<1000x64xi8>, %scale: tensor<1000xf32>,
                      %ids: tensor<4096xi64>) -> tensor<4096x64xf32> {
  %rows = gather.gather %q[%ids] : (tensor<1000x64xi8>, tensor<4096xi64>) -> tensor<4096x64xi8>
  %s = gather.gather %scale[%ids] : (tensor<1000xf32>, tensor<4096xi64>) -> tensor<4096xf32>
  %e = tensor.empty() : tensor<4096x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%rows, %s : tensor<4096x64xi8>, tensor<4096xf32>) outs(%e : tensor<4096x64xf32>) {
  ^bb0(%x: i8, %sc: f32, %o: f32):
    %f = arith.sitofp %x : i8 to f32
    %y = arith.mulf %f, %sc : f32
    linalg.yield %y : f32
  } -> tensor<4096x64xf32>
  return %r : tensor<4096x64xf32>
}
"""


def test_jit_fused_check_mode_on_threads_reports_the_first_bad_index():
    """A check-mode gather fused into its elementwise consumer runs on
    threads, and a bad index is an IndexError naming the first one in
    row-major order, wherever it lies: one that only the second thread's
    rows hold is reported too (the threads call no hook: a scan of the ids
    before them reports)."""
    out = run_isolated("""
        import os
        os.environ["OMP_NUM_THREADS"] = "2"  # libomp reads it when loaded
        import numpy as np
        from gather_mlir.compiler import JitModule, Module
        pipeline = "gather-to-llvm{parallel=true parallel-min-bytes=0}"
        assert "omp.parallel" in str(Module(ir).run(
            "gather-to-llvm{parallel=true parallel-min-bytes=0 "
            "default-error-handlers=false}"))
        jit = JitModule(Module(ir), pipeline)
        rng = np.random.default_rng(0)
        q = rng.integers(-128, 128, (1000, 64), dtype=np.int8)
        scale = rng.random(1000, dtype=np.float32)
        ids = rng.integers(-1000, 1000, 4096)
        want = q[ids].astype(np.float32) * scale[ids][:, None]
        np.testing.assert_array_equal(jit.call("dequantize", q, scale, ids),
                                      want)
        for bad in ({3000: 1234}, {1000: -1001, 3000: 1234}):
            wrong = ids.copy()
            for at, value in bad.items():
                wrong[at] = value
            try:
                jit.call("dequantize", q, scale, wrong)
                print("no error")
            except IndexError as e:
                print(e)
        """, ir=DEQUANTIZE)
    assert out.splitlines() == [
        "gather.gather: index 1234 is out of range [-1000, 999] for data "
        "dimension 0 of size 1000",
        "gather.gather: index -1001 is out of range [-1000, 999] for data "
        "dimension 0 of size 1000"], out


DEQUANTIZE_DYNAMIC = """
func.func @dequantize(%q: tensor<?x64xi8>, %scale: tensor<?xf32>,
                      %ids: tensor<?xi64>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %rows = gather.gather %q[%ids] : (tensor<?x64xi8>, tensor<?xi64>) -> tensor<?x64xi8>
  %s = gather.gather %scale[%ids] : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
  %n = tensor.dim %ids, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%rows, %s : tensor<?x64xi8>, tensor<?xf32>) outs(%e : tensor<?x64xf32>) {
  ^bb0(%x: i8, %sc: f32, %o: f32):
    %f = arith.sitofp %x : i8 to f32
    %y = arith.mulf %f, %sc : f32
    linalg.yield %y : f32
  } -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}
"""


def test_jit_fused_wrap_and_clamp_on_threads_report_only_an_empty_axis():
    """wrap and clamp gathers along a table whose rows are known at run time,
    fused and on threads: any index is an error along an empty axis (the
    first is named, as the unfused kernels name it) and none along the
    others (the scan before the threads reads one id)."""
    out = run_isolated("""
        import os
        os.environ["OMP_NUM_THREADS"] = "2"
        import numpy as np
        from gather_mlir.compiler import JitModule, Module
        opts = "parallel=true parallel-min-bytes=0"
        for mode in ("wrap", "clamp"):
            src = ir.replace("%ids] :", "%ids] {mode = #gather<mode " + mode +
                             ">} :")
            fused = JitModule(Module(src), "gather-to-llvm{" + opts + "}")
            unfused = JitModule(Module(src), "gather-to-llvm{" + opts +
                                " fuse-elementwise=false}")
            rng = np.random.default_rng(1)
            q = rng.integers(-128, 128, (1000, 64), dtype=np.int8)
            scale = rng.random(1000, dtype=np.float32)
            ids = rng.integers(-5000, 5000, 4096)
            # Negative indices count from the end first.
            rows = (ids % 1000 if mode == "wrap" else
                    np.clip(np.where(ids < 0, ids + 1000, ids), 0, 999))
            want = q[rows].astype(np.float32) * scale[rows][:, None]
            np.testing.assert_array_equal(
                fused.call("dequantize", q, scale, ids), want)
            empty_q, empty_s = q[:0], scale[:0]
            assert fused.call("dequantize", empty_q, empty_s,
                              ids[:0]).shape == (0, 64)
            for jit in (fused, unfused):
                try:
                    jit.call("dequantize", empty_q, empty_s, ids)
                    print("no error")
                except IndexError as e:
                    print(e)
        """, ir=DEQUANTIZE_DYNAMIC)
    lines = out.splitlines()
    assert len(lines) == 4 and lines[0] == lines[1] and lines[2] == lines[3] \
        and "empty" in lines[0], out


def test_jit_single_rows_run_in_pieces_on_threads():
    """A 1-D gather and gather_elements (one row) on two threads, in pieces
    of 4096 elements, with streaming stores from any size: right for lengths
    around the pieces' bounds, results that start off a vector's alignment,
    and every mode (against numpy)."""
    out = run_isolated("""
        import os
        os.environ["OMP_NUM_THREADS"] = "2"
        import numpy as np
        from gather_mlir.compiler import JitModule, Module
        src = ""
        for op in ("gather", "gather_elements"):
            for mode in ("check", "fill", "clamp", "wrap", "unchecked"):
                src += (
                    f"func.func @{op}_{mode}(%d: memref<?xf32>, "
                    "%i: memref<?xi64>, %o: memref<?xf32>) {"
                    "  %dt = bufferization.to_tensor %d restrict : "
                    "memref<?xf32> to tensor<?xf32>"
                    "  %it = bufferization.to_tensor %i restrict : "
                    "memref<?xi64> to tensor<?xi64>"
                    f"  %r = gather.{op} %dt[%it] {{mode = #gather<mode {mode}>}}"
                    " : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>"
                    "  bufferization.materialize_in_destination %r in restrict "
                    "writable %o : (tensor<?xf32>, memref<?xf32>) -> ()"
                    "  return }")
        pipeline = ("gather-to-llvm{parallel=true parallel-min-bytes=0 "
                    "streaming-min-bytes=0}")
        # One threaded loop a function: the pieces (the one-row scans of
        # check mode's indices stay serial).
        assert str(Module(src).run(pipeline)).count("omp.parallel") == 10
        jit = JitModule(Module(src), pipeline)
        rng = np.random.default_rng(0)
        data = rng.standard_normal(5000, dtype=np.float32)
        size = data.size
        wrong = 0
        for n in (1, 4095, 4096, 4097, 3 * 4096 + 5, 40000):
            for mode in ("check", "fill", "clamp", "wrap", "unchecked"):
                inside = mode in ("check", "unchecked")
                ids = rng.integers(-size if inside else -3 * size,
                                   size if inside else 3 * size, n)
                normal = np.where(ids < 0, ids + size, ids)
                want = {"wrap": lambda: data[ids % size],
                        "clamp": lambda: data[np.clip(normal, 0, size - 1)],
                        "fill": lambda: np.where(
                            (normal >= 0) & (normal < size),
                            data[np.clip(normal, 0, size - 1)], 0)}.get(
                                mode, lambda: data[ids])()
                for op in ("gather", "gather_elements"):
                    buffer = np.full(n + 1, np.nan, np.float32)
                    result = buffer[1:]  # 4 bytes past the allocation
                    jit.call(f"{op}_{mode}", data, ids, result)
                    if not np.array_equal(result, want) or \
                            not np.isnan(buffer[0]):
                        wrong += 1
                        print(op, mode, n)
        print("wrong", wrong)
        """)
    assert out.splitlines()[-1] == "wrong 0", out


def test_jit_unfused_elementwise_ops_run_on_threads():
    """With fuse-elementwise=false and parallel=true, the elementwise op is
    an OpenMP loop of its own (gather-parallelize-linalg), chosen at run
    time by its result's size: results below and above parallel-min-bytes
    (16 KiB here) and an empty one are right, and a bad index is still
    reported."""
    out = run_isolated("""
        import os
        os.environ["OMP_NUM_THREADS"] = "2"  # libomp reads it when loaded
        import numpy as np
        from gather_mlir.compiler import JitModule, Module
        pipeline = ("gather-to-llvm{parallel=true parallel-min-bytes=16384 "
                    "fuse-elementwise=false}")
        lowered = str(Module(ir).run(pipeline))
        # The row gather's loop, the scales' gather's (one row of
        # elements, split into pieces for threads) and the elementwise op's.
        print(lowered.count("omp.parallel"))
        jit = JitModule(Module(ir), pipeline)
        rng = np.random.default_rng(0)
        q = rng.integers(-128, 128, (1000, 64), dtype=np.int8)
        scale = rng.random(1000, dtype=np.float32)
        for n in (0, 3, 63, 64, 5000):
            ids = rng.integers(-1000, 1000, n)
            want = q[ids].astype(np.float32) * scale[ids][:, None]
            np.testing.assert_array_equal(
                jit.call("dequantize", q, scale, ids), want)
        try:
            jit.call("dequantize", q, scale, np.full(5000, 1000))
            print("no error")
        except IndexError as e:
            print(e)
        """, ir=DEQUANTIZE_DYNAMIC)
    assert out.splitlines() == [
        "3", "gather.gather: index 1000 is out of range [-1000, 999] for "
        "data dimension 0 of size 1000"], out


TILES = """
func.func @tiles(%d: tensor<1000x16xf32>, %ids: tensor<4096xi64>) -> tensor<4096x16xf32> {
  %e = tensor.empty() : tensor<4096x16xf32>
  %r = scf.forall (%t) in (2) shared_outs(%o = %e) -> (tensor<4096x16xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 2048)>(%t)
    %s = tensor.extract_slice %ids[%off] [2048] [1] : tensor<4096xi64> to tensor<2048xi64>
    %g = gather.gather %d[%s] : (tensor<1000x16xf32>, tensor<2048xi64>) -> tensor<2048x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%off, 0] [2048, 16] [1, 1] : tensor<2048x16xf32> into tensor<4096x16xf32>
    }
  }
  return %r : tensor<4096x16xf32>
}
"""


def test_jit_errors_reported_on_a_kernels_own_threads_are_raised():
    """A module whose own scf.forall runs gathers on OpenMP threads: a bad
    index that only a thread OpenMP started sees (the second tile's) is an
    IndexError, not lost with that thread."""
    out = run_isolated("""
        import os
        os.environ["OMP_NUM_THREADS"] = "2"  # libomp reads it when loaded
        import numpy as np
        from gather_mlir.compiler import JitModule, Module
        jit = JitModule(Module(ir), "gather-to-llvm{parallel=true}")
        d = np.arange(16000, dtype=np.float32).reshape(1000, 16)
        ids = np.arange(4096) % 1000
        np.testing.assert_array_equal(jit.call("tiles", d, ids), d[ids])
        for at in (100, 3000):
            bad = ids.copy()
            bad[at] = 5000 + at
            try:
                jit.call("tiles", d, bad)
                print("no error")
            except IndexError as e:
                print(e)
        """, ir=TILES)
    assert out.splitlines() == [
        f"gather.gather: index {i} is out of range [-1000, 999] for data "
        "dimension 0 of size 1000" for i in (5100, 8000)], out


def test_jit_errors_on_kernel_threads_stay_with_their_call():
    """While one Python thread's calls report bad indices from OpenMP's
    threads, another's good calls (a threaded module, the package's own
    threaded gather) raise nothing and return the right values."""
    out = run_isolated("""
        import os
        os.environ["OMP_NUM_THREADS"] = "2"  # libomp reads it when loaded
        import threading
        import numpy as np
        import gather_mlir
        from gather_mlir.compiler import JitModule, Module
        jit = JitModule(Module(ir), "gather-to-llvm{parallel=true}")
        d = np.arange(16000, dtype=np.float32).reshape(1000, 16)
        ids = np.arange(4096) % 1000
        bad = ids.copy()
        bad[3000] = 8000
        table = np.ones((1000, 256), np.float32)  # 4 MiB results: threads
        errors = {"bad": 0, "good": 0}
        done = {"bad": 0, "good": 0}

        def calls(name, fn, n=200):
            for _ in range(n):
                try:
                    fn()
                except IndexError:
                    errors[name] += 1
                done[name] += 1  # Any other exception ends the count.

        def good():
            assert (jit.call("tiles", d, ids) == d[ids]).all()
            assert (gather_mlir.gather(table, ids) == 1).all()
        threads = [threading.Thread(target=calls, args=("bad", lambda: jit.call("tiles", d, bad))),
                   threading.Thread(target=calls, args=("good", good))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(errors["bad"], errors["good"], done["bad"], done["good"])
        """, ir=TILES)
    assert out.split() == ["200", "0", "200", "200"], out


def test_jit_fork_during_a_threaded_call_leaves_the_child_usable():
    """Processes forked while another thread is inside a threaded call (its
    error registry locked, its tiles being allocated and freed) can make
    threaded calls of their own."""
    import subprocess
    import sys
    import textwrap
    code = textwrap.dedent("""
        import os, threading, time
        os.environ["OMP_NUM_THREADS"] = "2"
        import numpy as np
        from gather_mlir.compiler import JitModule, Module
        jit = JitModule(Module(ir), "gather-to-llvm{parallel=true}")
        d = np.arange(16000, dtype=np.float32).reshape(1000, 16)
        ids = np.arange(4096) % 1000
        stop = False

        def loop():
            while not stop:
                jit.call("tiles", d, ids)
        thread = threading.Thread(target=loop)
        thread.start()
        time.sleep(0.3)
        # Each fork lands at another point of the other thread's call.
        for attempt in range(100):
            time.sleep(0.001 * (attempt % 7))
            pid = os.fork()
            if pid == 0:
                ok = (jit.call("tiles", d, ids) == d[ids]).all()
                os._exit(0 if ok else 1)
            for _ in range(2000):  # 20 s
                finished, status = os.waitpid(pid, os.WNOHANG)
                if finished:
                    print(status)
                    break
                time.sleep(0.01)
            else:
                # Where it waits, for whoever meets this (gdb if installed).
                import shutil, subprocess, sys
                if shutil.which("gdb"):
                    subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex",
                                    "thread apply all bt"], timeout=60,
                                   stdout=sys.stderr, stderr=subprocess.DEVNULL)
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                print("the child hung at fork", attempt)
                break
        stop = True
        thread.join()
        """)
    done = subprocess.run([sys.executable, "-c", f"ir = {TILES!r}\n" + code],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.split() == ["0"] * 100, (
        done.stdout[-2000:], done.stderr[-20000:])


def test_jit_math_on_gathered_values_runs_in_process():
    """math ops after a gather lower to LLVM's intrinsics and libm calls
    (tanh, erf), which the JIT resolves in the process, serially and on
    threads."""
    import math
    ir = """
    func.func @f(%t: tensor<?xf32>, %i: tensor<?xi64>) -> tensor<?xf32> {
      %g = gather.gather %t[%i] : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
      %h = math.tanh %g : tensor<?xf32>
      %e = math.erf %h : tensor<?xf32>
      %x = math.exp %e : tensor<?xf32>
      return %x : tensor<?xf32>
    }"""
    t = np.linspace(-3, 3, 1000, dtype=np.float32)
    ids = np.arange(999, -1, -1)
    want = np.array([math.exp(math.erf(math.tanh(float(t[i])))) for i in ids])
    for pipeline in ("gather-to-llvm",
                     "gather-to-llvm{parallel=true parallel-min-bytes=0}"):
        got = JitModule(Module(ir), pipeline).call("f", t, ids)
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_jit_fused_check_reports_when_another_loop_is_empty():
    """A checked gather along i times a fill gather along j: with no j (an
    empty result) the fused loop, serial or threaded, still reports the bad
    index along i, as the unfused gather does."""
    out = run_isolated("""
        import numpy as np
        from gather_mlir.compiler import JitModule, Module
        a = np.arange(1000, dtype=np.float32)
        for pipeline in ("gather-to-llvm{fuse-elementwise=false}",
                         "gather-to-llvm",
                         "gather-to-llvm{parallel=true parallel-min-bytes=0}"):
            jit = JitModule(Module(ir), pipeline)
            got = jit.call("outer", a, a, np.array([1, 2, 3, 4]),
                           np.array([2, 1000, 3]))
            assert (got == np.outer(a[[1, 2, 3, 4]], [2, 0, 3])).all()
            for ids2 in (np.zeros(0, np.int64), np.array([2, 1000, 3])):
                try:
                    jit.call("outer", a, a, np.array([1, 2, 5000, 3]), ids2)
                    print("no error")
                except IndexError as e:
                    print(e)
        """, ir="""
        func.func @outer(%a: tensor<1000xf32>, %b: tensor<1000xf32>, %ids1: tensor<4xi64>, %ids2: tensor<?xi64>) -> tensor<4x?xf32> {
          %c0 = arith.constant 0 : index
          %g = gather.gather %a[%ids1] : (tensor<1000xf32>, tensor<4xi64>) -> tensor<4xf32>
          %h = gather.gather %b[%ids2] {mode = #gather<mode fill>} : (tensor<1000xf32>, tensor<?xi64>) -> tensor<?xf32>
          %m = tensor.dim %ids2, %c0 : tensor<?xi64>
          %e = tensor.empty(%m) : tensor<4x?xf32>
          %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g, %h : tensor<4xf32>, tensor<?xf32>) outs(%e : tensor<4x?xf32>) {
          ^bb0(%x: f32, %y: f32, %o: f32):
            %p = arith.mulf %x, %y : f32
            linalg.yield %p : f32
          } -> tensor<4x?xf32>
          return %r : tensor<4x?xf32>
        }""")
    assert out.splitlines() == [
        "gather.gather: index 5000 is out of range [-1000, 999] for data "
        "dimension 0 of size 1000"] * 6, out
