"""warpsim.run and its results: programs by name, text and path, PTX with NumPy arrays, traces and pictures,
errors as Python exceptions, determinism, and agreement with the command line (`WARPSIM_SIM`: the `sim` binary
of the same build, set by cli/tests/python.rs)."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import warpsim

ROOT = Path(__file__).resolve().parents[2]
SIM = os.environ.get("WARPSIM_SIM")

SCALE = """
.buffer in f32[16]
.buffer out f32[16]
.param factor = 3
.reg %i, %x, %f
    mov.u32 %i, %tid.x
    ld.global.f32 %x, in[%i]
    cvt.f32.s32 %f, factor
    mul.f32 %x, %x, %f
    st.global.f32 out[%i], %x
"""


def test_a_shipped_program_by_name_at_each_warp_size():
    for w in (4, 8, 32):
        r = warpsim.run("butterfly_max", warp_size=w)
        np.testing.assert_array_equal(r.outputs["out"], np.full(w, 1000, np.float32))
        assert r.outputs["out"].dtype == np.float32
        assert r.stats["warp_count"] == 1


@pytest.mark.skipif(SIM is None, reason="WARPSIM_SIM (the sim binary) is not set")
@pytest.mark.parametrize("name,w", [("butterfly_max", 8), ("block_reduce", 32), ("histogram_bin", 16)])
def test_the_same_values_and_cycles_as_the_command_line(name, w):
    r = warpsim.run(name, warp_size=w)
    doc = json.loads(subprocess.run([SIM, "run", name, "--warp", str(w), "--format", "json"], check=True,
                                    capture_output=True, text=True).stdout)
    assert r.cycles == doc["cycles"]
    assert r.stats == doc["stats"]
    for buffer, values in doc["buffers"].items():
        np.testing.assert_array_equal(r.buffers[buffer], np.array(values, dtype=r.buffers[buffer].dtype))


def test_source_text_with_numpy_inputs_and_params():
    x = np.linspace(-4, 4, 16, dtype=np.float32)
    r = warpsim.run(SCALE, block=16, inputs={"in": x}, outputs={"out": (np.float32, 16)}, params={"factor": 5})
    np.testing.assert_array_equal(r.outputs["out"], x * 5)
    assert list(r.outputs) == ["out"]
    # The input buffer is there too, unchanged.
    np.testing.assert_array_equal(r.buffers["in"], x)
    # A shape given for an output reshapes it.
    r = warpsim.run(SCALE, block=16, inputs={"in": x}, outputs={"out": (np.float32, (4, 4))})
    assert r["out"].shape == (4, 4)
    np.testing.assert_array_equal(r["out"].ravel(), x * 3)


def test_a_path_to_a_warpsim_program(tmp_path):
    p = tmp_path / "scale.s"
    p.write_text(SCALE)
    x = np.arange(16, dtype=np.float32)
    np.testing.assert_array_equal(warpsim.run(p, block=16, inputs={"in": x})["out"], x * 3)
    np.testing.assert_array_equal(warpsim.run(str(p), block=16, inputs={"in": x})["out"], x * 3)
    # Another extension: an existing file is read as warpsim assembly.
    q = tmp_path / "scale.asm"
    q.write_text(SCALE)
    np.testing.assert_array_equal(warpsim.run(str(q), block=16, inputs={"in": x})["out"], x * 3)


def test_a_program_from_text_is_loaded_once_and_a_file_each_time(tmp_path):
    # The same text with the same bindings gives the program loaded the first time; other bindings load it again.
    ptx = (ROOT / "programs/ptx/cuda/p03_guard.O3.ptx").read_text()
    bound = dict(inputs={"0": np.zeros(24, np.float32)}, outputs={"1": (np.float32, 24)}, params={"2": 20})
    first = warpsim.load(ptx, **bound)
    assert warpsim.load(ptx, **bound)._native is first._native
    assert warpsim.load(ptx, **{**bound, "outputs": {"1": (np.float32, 32)}})._native is not first._native
    # A file is read at every load: a changed file gives the changed program.
    q = tmp_path / "scale.s"
    q.write_text(SCALE)
    x = np.arange(16, dtype=np.float32)
    np.testing.assert_array_equal(warpsim.run(str(q), block=16, inputs={"in": x})["out"], x * 3)
    q.write_text(SCALE.replace("factor = 3", "factor = 5"))
    np.testing.assert_array_equal(warpsim.run(str(q), block=16, inputs={"in": x})["out"], x * 5)


def test_a_program_launched_again_gets_its_own_contents_shape_and_parameters():
    # A loaded program keeps its last launch's kernel for a launch that differs only in its arrays' contents; any
    # other difference (a parameter, even 0.0 against -0.0, the shape, the machine) makes a new one.
    prog = warpsim.load(SCALE)
    runs = []
    for k in range(1, 4):
        x = np.arange(16, dtype=np.float32) * k - 7
        runs.append(warpsim.run(prog, block=16, inputs={"in": x}))
        np.testing.assert_array_equal(runs[-1]["out"], x * 3)
    np.testing.assert_array_equal(runs[0]["in"], np.arange(16, dtype=np.float32) - 7)
    x = np.arange(16, dtype=np.float32) + 1
    np.testing.assert_array_equal(warpsim.run(prog, block=16, inputs={"in": x}, params={"factor": -2})["out"], x * -2)
    np.testing.assert_array_equal(warpsim.run(prog, block=16, inputs={"in": x})["out"], x * 3)
    # Half the block: the other half of `out` keeps its zeros.
    half = warpsim.run(prog, block=8, inputs={"in": x})["out"]
    np.testing.assert_array_equal(half, np.concatenate([x[:8] * 3, np.zeros(8, np.float32)]))
    scaled = """
.buffer in f32[4]
.buffer out f32[4]
.param s = 1.0
.reg %i, %x
    mov.u32 %i, %tid.x
    ld.global.f32 %x, in[%i]
    mul.f32 %x, %x, s
    st.global.f32 out[%i], %x
"""
    signs = [np.signbit(warpsim.run(scaled, block=4, inputs={"in": np.zeros(4, np.float32)}, params={"s": s})["out"])
             for s in (0.0, -0.0, 0.0)]
    assert [list(v) for v in signs] == [[False] * 4, [True] * 4, [False] * 4]
    # A wrong length is refused on a relaunch as on the first launch, naming the buffer's declaration.
    with pytest.raises(warpsim.LaunchError, match=r"the array has 15 elements, but buffer `in` is f32\[16\]"):
        warpsim.run(prog, block=16, inputs={"in": np.zeros(15, np.float32)})


def test_ptx_text_binds_arrays_and_scalars_by_name():
    # The argument names come from the CUDA source its line information names, given as text.
    ptx = (ROOT / "programs/ptx/cuda/p03_guard.O3.ptx").read_text()
    cu = {"p03_guard.cu": (ROOT / "programs/ptx/cuda/p03_guard.cu").read_text()}
    a = np.arange(24, dtype=np.float32) * 2
    r = warpsim.run(ptx, block=32, inputs={"a": a}, outputs={"out": (np.float32, 24)}, params={"size": 20},
                    sources=cu)
    want = np.zeros(24, np.float32)
    want[:20] = a[:20] + 10
    np.testing.assert_array_equal(r.outputs["out"], want)
    assert r.program.is_ptx


def test_ptx_file_with_a_2d_launch():
    path = ROOT / "programs/ptx/cuda/p07_blocks2d.O3.ptx"
    a = (np.arange(400) % 13 - 6).astype(np.float32)
    r = warpsim.run(path, grid=(3, 3), block=(8, 8), inputs={"a": a}, outputs={"out": (np.float32, 400)},
                    params={"size": 20})
    np.testing.assert_array_equal(r["out"], a + 10)


def test_ptx_arguments_by_position():
    ptx = (ROOT / "programs/ptx/cuda/p02_zip.O3.ptx").read_text()
    a, b = np.arange(32, dtype=np.float32), np.full(32, 0.5, np.float32)
    r = warpsim.run(ptx, block=32, inputs={"1": a, "2": b}, outputs={"0": (np.float32, 32)})
    np.testing.assert_array_equal(r["0"], a + b)


def nvcc():
    found = os.environ.get("NVCC") or shutil.which("nvcc")
    return found if found and os.path.isfile(found) else None


@pytest.mark.skipif(nvcc() is None, reason="no nvcc (pip install nvidia-cuda-nvcc, set NVCC)")
def test_a_cuda_file_through_nvcc(tmp_path):
    src = tmp_path / "twice.cu"
    src.write_text(
        'extern "C" __global__ void twice(float *out, const float *a, int n) {\n'
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) out[i] = 2.0f * a[i];\n"
        "}\n"
    )
    a = np.arange(40, dtype=np.float32)
    r = warpsim.run(src, grid=2, block=32, inputs={"a": a}, outputs={"out": (np.float32, 40)}, params={"n": 40})
    np.testing.assert_array_equal(r["out"], 2 * a)


def test_trace_and_pictures():
    r = warpsim.run("butterfly_max", warp_size=8, trace=True)
    events = r.trace
    assert events[0]["event"] == "block_launch"
    shuffles = [e for e in events if e.get("event") == "issue" and "shfl" in e.get("instruction", "")]
    assert len(shuffles) == 3
    assert r.svg().lstrip().startswith("<svg")
    assert "<html" in r.html()
    page = r._repr_html_()
    assert "<svg" in page and "<iframe" in page and "cycles" in page
    assert r.picture._repr_svg_() == r.svg()
    assert "shfl.sync.bfly" in r.text()


def test_an_untraced_run_has_no_pictures():
    r = warpsim.run("butterfly_max", warp_size=8)
    assert r.trace is None
    with pytest.raises(ValueError, match="trace=True"):
        r.svg()
    assert "<svg" not in r._repr_html_()


def test_the_same_results_on_any_number_of_threads():
    one = warpsim.run("block_reduce", threads=1, params={"n": 4096})
    two = warpsim.run("block_reduce", threads=2, params={"n": 4096})
    assert one.cycles == two.cycles
    assert one.stats == two.stats
    for k in one.buffers:
        np.testing.assert_array_equal(one.buffers[k], two.buffers[k])


def test_a_configuration_dict():
    config = warpsim.default_config()
    slow = json.loads(json.dumps(config))
    slow["timing"]["units"]["shuffle"]["latency"] *= 10
    fast = warpsim.run("butterfly_max", warp_size=8, config=config)
    slower = warpsim.run("butterfly_max", warp_size=8, config=slow)
    assert slower.cycles > fast.cycles
    np.testing.assert_array_equal(slower["out"], fast["out"])


def test_an_assembly_error_names_the_line_and_column():
    with pytest.raises(warpsim.AssembleError) as e:
        warpsim.run(".buffer out f32[4]\n.reg %r\n    mov.u32 %r, 1\n    st.global.f32 out[%q], %r\n")
    text = str(e.value)
    assert "unknown register `%q`" in text
    assert "<source>:4:23" in text
    assert "help:" in text
    assert isinstance(e.value, ValueError)


def test_a_ptx_syntax_error():
    ptx = (ROOT / "programs/ptx/cuda/p01_map.O3.ptx").read_text().replace("ld.param.u64", "ld.parm.u64", 1)
    with pytest.raises(warpsim.AssembleError, match=r"<ptx>:\d+:\d+"):
        warpsim.run(ptx, block=32, outputs={"0": (np.float32, 32)}, inputs={"1": np.zeros(32, np.float32)})


def test_an_unbound_ptx_argument_says_how_to_bind_it():
    path = ROOT / "programs/ptx/cuda/p03_guard.O3.ptx"
    with pytest.raises(warpsim.AssembleError, match=r"params=\{'size': VALUE\}"):
        warpsim.run(path, block=32, inputs={"a": np.zeros(24, np.float32)}, outputs={"out": (np.float32, 24)})


def test_wrong_dtype_and_size_are_value_errors():
    with pytest.raises(ValueError, match="dtype float64, but buffer `in` holds f32"):
        warpsim.run(SCALE, block=16, inputs={"in": np.zeros(16)})
    with pytest.raises(ValueError, match="16"):
        warpsim.run(SCALE, block=16, inputs={"in": np.zeros(15, np.float32)})
    with pytest.raises(ValueError, match="has 16"):
        warpsim.run(SCALE, block=16, outputs={"out": (np.float32, 12)})
    with pytest.raises(ValueError, match="no buffer `nope`"):
        warpsim.run(SCALE, block=16, inputs={"nope": np.zeros(16, np.float32)})
    with pytest.raises(ValueError, match="not one warpsim simulates"):
        warpsim.run((ROOT / "programs/ptx/cuda/p01_map.O3.ptx"), block=32,
                    inputs={"a": np.zeros(32, np.complex64)}, outputs={"out": (np.float32, 32)})
    with pytest.raises(ValueError, match="grid"):
        warpsim.run("butterfly_max", grid=0)


def test_an_unknown_program_suggests_the_closest():
    with pytest.raises(ValueError, match="did you mean `butterfly_max`"):
        warpsim.run("butterfly_mux")
    with pytest.raises(FileNotFoundError):
        warpsim.run("no/such/file.ptx")


def test_a_fault_names_block_warp_lane_pc_and_line():
    src = SCALE.replace("st.global.f32 out[%i], %x", "add.u32 %i, %i, 9\n    st.global.f32 out[%i], %x")
    with pytest.raises(warpsim.Fault) as e:
        warpsim.run(src, block=16, warp_size=8)
    f = e.value
    assert (f.block, f.warp, f.lane) == ("0", 1, 0)
    assert f.instruction == "st.global.f32 out[%i], %x"
    assert f.line == 11 and f.file == "<source>"
    assert f.pc == 5
    assert "out-of-bounds store to `out`: element 17" in str(f)
    assert isinstance(f, RuntimeError)


def test_a_bad_configuration():
    with pytest.raises(warpsim.ConfigError, match="invalid configuration"):
        warpsim.run("butterfly_max", config={"warp_size": "eight"})
    with pytest.raises(warpsim.ConfigError, match="warp size"):
        warpsim.run("butterfly_max", warp_size=12)


def test_the_race_check_finds_a_missing_barrier():
    racy = """
.buffer out u32[64]
.shared tile u32[64]
.block 64
.reg %i, %j, %v
    mov.u32 %i, %tid.x
    st.shared.u32 tile[%i], %i
    sub.u32 %j, 63, %i
    ld.shared.u32 %v, tile[%j]
    st.global.u32 out[%i], %v
"""
    r = warpsim.run(racy, checks="race")
    assert len(r.findings) >= 1
    assert "race" in r.findings[0]


def test_programs_lists_the_shipped_programs():
    names = warpsim.programs()
    assert "butterfly_max" in names and "block_reduce" in names
    assert all(isinstance(d, str) for d in names.values())


def test_a_kernels_printf_and_failed_assert(capsys):
    # The corpus's hello-world kernel: assert(n > 0), then each thread printf's its element.
    ptx = ROOT / "programs" / "ptx" / "cuda" / "w26_printf_assert.O3.ptx"
    data = np.arange(4, dtype=np.int32) * 3
    r = warpsim.run(ptx, grid=1, block=4, inputs={"data": data}, params={"n": 4})
    lines = [f"Hello from block 0, thread {t}: data[{t}] = {3 * t} ({1.5 * t:.6f})\n" for t in range(4)]
    assert capsys.readouterr().out == "".join(lines)
    assert [p["text"] for p in r.printed] == lines
    with pytest.raises(warpsim.Fault) as e:
        warpsim.run(ptx, grid=1, block=4, inputs={"data": data}, params={"n": 0})
    assert "w26_printf_assert.cu:7: void hello(const int *, int): Assertion `n > 0` failed." in str(e.value)
    assert (e.value.block, e.value.lane, e.value.source_line) == ("0", 0, 7)


def test_the_scheduling_check_finds_code_that_relies_on_lockstep_execution():
    # Lane 0 fills a shared table that the other lanes read on their own path with no bar.warp.sync: lockstep runs
    # the filling path first, independent thread scheduling interleaves the paths and the readers see zeros.
    lockstep_bug = """
.block W
.buffer out u32[W]
.shared box u32[W]
.reg %i, %v
.pred %producer, %more
        setp.eq.u32 %producer, %laneid, 0
        @!%producer bra consume
        mov.u32 %i, 0
fill:
        mad.lo.u32 %v, %i, %i, 1
        st.shared.u32 box[%i], %v
        add.u32 %i, %i, 1
        setp.lt.u32 %more, %i, W
        @%more bra fill
        bra done
consume:
        ld.shared.u32 %v, box[%laneid]
        st.global.u32 out[%laneid], %v
done:
"""
    with pytest.raises(warpsim.SchedulingError) as e:
        warpsim.run(lockstep_bug, warp_size=8, checks="scheduling")
    assert isinstance(e.value, RuntimeError)
    assert (
        "buffer `out` differs between --scheduling lockstep and --scheduling its in 7 elements; the first is "
        "element 1: 2 under lockstep, 0 under its"
    ) in str(e.value)
    # Without the check it runs (lockstep), and a program that does not depend on the scheduling passes it, with
    # the sanitizers too.
    assert list(warpsim.run(lockstep_bug, warp_size=8).outputs["out"]) == [0, 2, 5, 10, 17, 26, 37, 50]
    r = warpsim.run("butterfly_max", warp_size=8, checks="scheduling,race")
    assert r.findings == []
    # A program written for independent thread scheduling (`.scheduling its`) is not compared with lockstep.
    warpsim.run("warp_pipeline", warp_size=8, checks="all")
    with pytest.raises(ValueError) as e:
        warpsim.run("butterfly_max", checks="schedule")
    assert "did you mean `scheduling`? the checks are race, init, shfl, sync, scheduling (or all)" in str(e.value)
