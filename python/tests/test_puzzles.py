"""GPU-Puzzles-style kernels written with Numba, run in warpsim and checked against NumPy: the puzzles' shapes
(maps, zips, guards, 2-D, broadcast, blocks, shared memory, pooling, dot product, prefix sum, axis sum, matmul),
then warp-level versions that Numba's own simulator cannot run (shuffles, votes, activemask, syncwarp)."""

import numpy as np
import pytest

numba = pytest.importorskip("numba")
from numba import float32, int32  # noqa: E402

from warpsim.numba import cuda, launch  # noqa: E402

TPB = 8

rng = np.random.default_rng(20261127)


def floats(*shape):
    return rng.integers(-50, 50, size=shape).astype(np.float32)


# --- 1. map -------------------------------------------------------------------------------------------------
@cuda.jit
def map_add_ten(out, a):
    local_i = cuda.threadIdx.x
    out[local_i] = a[local_i] + 10


def test_map():
    a = floats(4)
    out = np.zeros(4, np.float32)
    map_add_ten[1, 4](out, a)
    np.testing.assert_array_equal(out, a + 10)


# --- 2. zip -------------------------------------------------------------------------------------------------
@cuda.jit
def zip_add(out, a, b):
    i = cuda.threadIdx.x
    out[i] = a[i] + b[i]


def test_zip():
    a, b = floats(4), floats(4)
    out = np.zeros(4, np.float32)
    zip_add[1, 4](out, a, b)
    np.testing.assert_array_equal(out, a + b)


# --- 3. guard -----------------------------------------------------------------------------------------------
@cuda.jit
def guarded_map(out, a, size):
    i = cuda.threadIdx.x
    if i < size:
        out[i] = a[i] + 10


def test_guard():
    a = floats(4)
    out = np.full(4, -1, np.float32)
    guarded_map[1, 8](out, a, 4)
    np.testing.assert_array_equal(out, a + 10)


def test_guard_without_the_guard_faults_at_its_python_line():
    import warpsim

    @cuda.jit
    def unguarded(out, a, size):
        i = cuda.threadIdx.x
        out[i] = a[i] + 10  # the faulting line

    with pytest.raises(warpsim.Fault) as e:
        unguarded[1, 8](np.zeros(4, np.float32), floats(4), 4)
    f = e.value
    assert f.source_file == __file__
    assert "the faulting line" in open(__file__).read().splitlines()[f.source_line - 1]
    assert (f.warp, f.lane) == (0, 4)
    assert "out-of-bounds load from `a`: element 4, but `a` has 4 elements" in str(f)
    assert isinstance(f, RuntimeError)


# --- 4. 2-D map ---------------------------------------------------------------------------------------------
@cuda.jit
def map_2d(out, a, size):
    i = cuda.threadIdx.x
    j = cuda.threadIdx.y
    if i < size and j < size:
        out[i, j] = a[i, j] + 10


def test_map_2d():
    a = floats(3, 3)
    out = np.zeros((3, 3), np.float32)
    map_2d[1, (4, 4)](out, a, 3)
    np.testing.assert_array_equal(out, a + 10)


# --- 5. broadcast -------------------------------------------------------------------------------------------
@cuda.jit
def broadcast(out, a, b, size):
    i = cuda.threadIdx.x
    j = cuda.threadIdx.y
    if i < size and j < size:
        out[i, j] = a[i, 0] + b[0, j]


def test_broadcast():
    a, b = floats(2, 1), floats(1, 2)
    out = np.zeros((2, 2), np.float32)
    broadcast[1, (3, 3)](out, a, b, 2)
    np.testing.assert_array_equal(out, a + b)


# --- 6. blocks ----------------------------------------------------------------------------------------------
@cuda.jit
def blocks_map(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < size:
        out[i] = a[i] + 10


def test_blocks():
    a = floats(9)
    out = np.zeros(9, np.float32)
    blocks_map[3, 4](out, a, 9)
    np.testing.assert_array_equal(out, a + 10)


# --- 7. 2-D blocks ------------------------------------------------------------------------------------------
@cuda.jit
def blocks_2d(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    j = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    if i < size and j < size:
        out[i, j] = a[i, j] + 10


def test_blocks_2d():
    a = floats(5, 5)
    out = np.zeros((5, 5), np.float32)
    blocks_2d[(2, 2), (3, 3)](out, a, 5)
    np.testing.assert_array_equal(out, a + 10)


# --- 8. shared memory ---------------------------------------------------------------------------------------
@cuda.jit
def shared_map(out, a, size):
    shared = cuda.shared.array(TPB, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < size:
        shared[local_i] = a[i]
    cuda.syncthreads()
    if i < size:
        out[i] = shared[local_i] + 10


def test_shared():
    a = floats(10)
    out = np.zeros(10, np.float32)
    shared_map[2, TPB](out, a, 10)
    np.testing.assert_array_equal(out, a + 10)


# --- 9. pooling ---------------------------------------------------------------------------------------------
@cuda.jit
def pooling(out, a, size):
    shared = cuda.shared.array(TPB, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < size:
        shared[local_i] = a[i]
    cuda.syncthreads()
    if i < size:
        acc = shared[local_i]
        if local_i >= 1:
            acc += shared[local_i - 1]
        if local_i >= 2:
            acc += shared[local_i - 2]
        out[i] = acc


def test_pooling():
    a = floats(TPB)
    out = np.zeros(TPB, np.float32)
    pooling[1, TPB](out, a, TPB)
    want = np.array([a[max(0, k - 2) : k + 1].sum() for k in range(TPB)], np.float32)
    np.testing.assert_array_equal(out, want)


# --- 10. dot product ----------------------------------------------------------------------------------------
@cuda.jit
def dot(out, a, b, size):
    shared = cuda.shared.array(TPB, float32)
    local_i = cuda.threadIdx.x
    shared[local_i] = a[local_i] * b[local_i] if local_i < size else 0.0
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if local_i < step:
            shared[local_i] += shared[local_i + step]
        cuda.syncthreads()
        step //= 2
    if local_i == 0:
        out[0] = shared[0]


def test_dot_product():
    a, b = floats(TPB), floats(TPB)
    out = np.zeros(1, np.float32)
    dot[1, TPB](out, a, b, TPB)
    # Integers in float32: every order of summation gives the exact result.
    assert out[0] == np.dot(a.astype(np.float64), b.astype(np.float64))


# --- 11. prefix sum -----------------------------------------------------------------------------------------
@cuda.jit
def prefix_sum(out, a, size):
    cache = cuda.shared.array(TPB, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    cache[local_i] = a[i] if i < size else 0.0
    cuda.syncthreads()
    offset = 1
    while offset < TPB:
        v = cache[local_i - offset] if local_i >= offset else 0.0
        cuda.syncthreads()
        cache[local_i] += v
        cuda.syncthreads()
        offset *= 2
    if local_i == TPB - 1:
        out[cuda.blockIdx.x] = cache[local_i]


def test_prefix_sum_block_totals():
    a = floats(15)
    out = np.zeros(2, np.float32)
    prefix_sum[2, TPB](out, a, 15)
    np.testing.assert_array_equal(out, [a[:8].sum(), a[8:].sum()])


# --- 12. axis sum -------------------------------------------------------------------------------------------
@cuda.jit
def axis_sum(out, a, size):
    cache = cuda.shared.array(TPB, float32)
    local_i = cuda.threadIdx.x
    batch = cuda.blockIdx.y
    cache[local_i] = a[batch, local_i] if local_i < size else 0.0
    cuda.syncthreads()
    step = 1
    while step < TPB:
        if local_i % (2 * step) == 0:
            cache[local_i] += cache[local_i + step]
        cuda.syncthreads()
        step *= 2
    if local_i == 0:
        out[batch, 0] = cache[0]


def test_axis_sum():
    a = floats(4, 6)
    out = np.zeros((4, 1), np.float32)
    axis_sum[(1, 4), TPB](out, a, 6)
    np.testing.assert_array_equal(out, a.sum(axis=1, keepdims=True))


# --- 13. matmul ---------------------------------------------------------------------------------------------
@cuda.jit
def matmul(out, a, b, size):
    a_shared = cuda.shared.array((4, 4), float32)
    b_shared = cuda.shared.array((4, 4), float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    j = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    local_i = cuda.threadIdx.x
    local_j = cuda.threadIdx.y
    acc = 0.0
    for tile in range(0, size, 4):
        a_shared[local_i, local_j] = a[i, tile + local_j] if i < size and tile + local_j < size else 0.0
        b_shared[local_i, local_j] = b[tile + local_i, j] if j < size and tile + local_i < size else 0.0
        cuda.syncthreads()
        for k in range(4):
            acc += a_shared[local_i, k] * b_shared[k, j - cuda.blockIdx.y * cuda.blockDim.y]
        cuda.syncthreads()
    if i < size and j < size:
        out[i, j] = acc


def test_matmul():
    a, b = floats(6, 6) / 8, floats(6, 6) / 8
    out = np.zeros((6, 6), np.float32)
    matmul[(2, 2), (4, 4)](out, a, b, 6)
    np.testing.assert_array_equal(out, (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32))


# --- Warp-level versions: Numba's simulator has none of these ------------------------------------------------
@cuda.jit
def warp_sum(out, a):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    v = a[i]
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
        offset //= 2
    if cuda.threadIdx.x % 32 == 0:
        out[i // 32] = v


def test_warp_sum_with_shfl_down():
    a = floats(128)
    out = np.zeros(4, np.float32)
    r = warp_sum[2, 64](out, a)
    np.testing.assert_array_equal(out, a.reshape(4, 32).sum(axis=1))
    assert r.stats["shuffles"] == 4 * 5


@cuda.jit
def butterfly_max(out, a):
    i = cuda.threadIdx.x
    v = a[i]
    mask = 16
    while mask > 0:
        v = max(v, cuda.shfl_xor_sync(0xFFFFFFFF, v, mask))
        mask //= 2
    out[i] = v


def test_butterfly_max_with_shfl_xor():
    a = floats(32)
    out = np.zeros(32, np.float32)
    butterfly_max[1, 32](out, a)
    np.testing.assert_array_equal(out, np.full(32, a.max()))


@cuda.jit
def warp_scan(out, a):
    i = cuda.threadIdx.x
    lane = i % 32
    v = a[i]
    offset = 1
    while offset < 32:
        n = cuda.shfl_up_sync(0xFFFFFFFF, v, offset)
        if lane >= offset:
            v += n
        offset *= 2
    out[i] = v


def test_warp_prefix_sum_with_shfl_up():
    a = floats(64)
    out = np.zeros(64, np.float32)
    warp_scan[1, 64](out, a)
    want = np.concatenate([np.cumsum(a[:32]), np.cumsum(a[32:])]).astype(np.float32)
    np.testing.assert_array_equal(out, want)


@cuda.jit
def broadcast_lane(out, a, src):
    i = cuda.threadIdx.x
    out[i] = cuda.shfl_sync(0xFFFFFFFF, a[i], src)


def test_shfl_sync_broadcasts_one_lane():
    a = floats(32)
    out = np.zeros(32, np.float32)
    broadcast_lane[1, 32](out, a, 5)
    np.testing.assert_array_equal(out, np.full(32, a[5]))


@cuda.jit
def votes(out, a):
    i = cuda.threadIdx.x
    p = a[i] > 0
    ballot = cuda.ballot_sync(0xFFFFFFFF, p)
    out[i, 0] = ballot
    out[i, 1] = cuda.any_sync(0xFFFFFFFF, p)
    out[i, 2] = cuda.all_sync(0xFFFFFFFF, p)
    out[i, 3] = cuda.popc(ballot)


def test_votes():
    a = floats(32)
    a[3] = 7  # at least one positive
    out = np.zeros((32, 4), np.int32)
    votes[1, 32](out, a)
    ballot = sum(1 << k for k in range(32) if a[k] > 0)
    want = [np.array(ballot, np.uint32).view(np.int32), 1, int(bool((a > 0).all())), bin(ballot).count("1")]
    np.testing.assert_array_equal(out, np.tile(np.array(want, np.int32), (32, 1)))


@cuda.jit
def active_lanes(out, size):
    i = cuda.threadIdx.x
    if i < size:
        out[i] = cuda.activemask()
        cuda.syncwarp(cuda.activemask())


def test_activemask_inside_a_branch():
    out = np.zeros(32, np.uint32)
    active_lanes[1, 32](out, 20)
    np.testing.assert_array_equal(out, [(1 << 20) - 1] * 20 + [0] * 12)


@cuda.jit
def shared_then_syncwarp(out, a):
    buf = cuda.shared.array(32, int32)
    i = cuda.threadIdx.x
    buf[i] = a[i]
    cuda.syncwarp()
    out[i] = buf[31 - i]


def test_syncwarp_orders_shared_memory():
    a = np.arange(32, dtype=np.int32) * 3
    out = np.zeros(32, np.int32)
    shared_then_syncwarp[1, 32](out, a)
    np.testing.assert_array_equal(out, a[::-1])


@cuda.jit
def atomic_histogram(out, a):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    cuda.atomic.add(out, a[i], 1)


def test_atomics():
    a = rng.integers(0, 8, size=256).astype(np.int32)
    out = np.zeros(8, np.int32)
    atomic_histogram[4, 64](out, a)
    np.testing.assert_array_equal(out, np.bincount(a, minlength=8))


def test_a_compiled_kernel_runs_at_its_warp_size_only():
    # nvcc and Numba compile for 32-lane warps (a shuffle's clamp, `% 32`): another warp size is refused.
    import warpsim

    with pytest.raises(warpsim.LaunchError, match="runs with warp sizes 32 to 32, not 8"):
        launch(butterfly_max, 1, 32, np.zeros(32, np.float32), floats(32), warp_size=8)


@pytest.mark.filterwarnings("ignore:Could not find source")
def test_a_kernel_whose_source_is_unknown_binds_its_arguments_by_position():
    # Code given to exec has no file to read its parameters' names from.
    ns = {"cuda": cuda}
    exec("def double(out, a):\n    i = cuda.threadIdx.x\n    out[i] = a[i] * 2\n", ns)
    a = floats(32)
    out = np.zeros(32, np.float32)
    r = cuda.jit(ns["double"])[1, 32](out, a)
    np.testing.assert_array_equal(out, a * 2)
    assert sorted(r.buffers) == ["0", "1"]


@cuda.jit
def scale(out, a, k):
    i = cuda.threadIdx.x
    out[i] = a[i] * k


def test_one_kernel_is_compiled_for_each_kind_of_argument():
    # The compiled PTX is kept by the arguments' kinds: another dtype, a float for an int, an int past int64 (Numba
    # types it uint64), or a non-contiguous view each launch their own compilation, with their own results.
    a32 = floats(8)
    out32 = np.zeros(8, np.float32)
    scale[1, 8](out32, a32, 3)
    np.testing.assert_array_equal(out32, a32 * 3)
    a64 = np.arange(8, dtype=np.int64) - 4
    out64 = np.zeros(8, np.int64)
    scale[1, 8](out64, a64, 3)
    np.testing.assert_array_equal(out64, a64 * 3)
    scale[1, 8](out32, a32, 0.5)
    np.testing.assert_array_equal(out32, a32 * np.float32(0.5))
    big = np.zeros(8, np.uint64)
    scale[1, 8](big, np.ones(8, np.uint64), 2**63 + 5)
    np.testing.assert_array_equal(big, np.full(8, 2**63 + 5, np.uint64))
    strided = np.arange(16, dtype=np.float32)[::2]
    scale[1, 8](out32, strided, 2)
    np.testing.assert_array_equal(out32, strided * 2)


@cuda.jit
def say(out, a):
    i = cuda.threadIdx.x
    if i % 4 == 1:
        print("lane", i, "has", a[i])
    out[i] = i


def test_print_in_a_kernel_prints_as_cuda_does(capsys):
    # Numba's print is CUDA's printf: each printing lane's line, in lane order, written when the launch ends.
    a = np.arange(8, dtype=np.int32) * 10
    out = np.zeros(8, np.int32)
    r = say[1, 8](out, a)
    want = "lane 1 has 10\nlane 5 has 50\n"
    assert capsys.readouterr().out == want
    assert r.stdout == want
    assert [(p["lane"], p["text"]) for p in r.printed] == [(1, "lane 1 has 10\n"), (5, "lane 5 has 50\n")]
    assert r.printed[0]["cycle"] <= r.printed[1]["cycle"]
    np.testing.assert_array_equal(out, np.arange(8))


# --- fastmath -----------------------------------------------------------------------------------------------
@cuda.jit(fastmath=True)
def product_fast(out, a, b):
    i = cuda.threadIdx.x
    out[i] = a[i] * b[i]


@cuda.jit
def product(out, a, b):
    i = cuda.threadIdx.x
    out[i] = a[i] * b[i]


def test_fastmath_flushes_subnormal_results_as_the_gpu_does():
    # 1e-20 * 1e-20 is a subnormal f32: kept by IEEE arithmetic, flushed to zero by fastmath's mul.ftz.f32.
    a = np.full(4, 1e-20, np.float32)
    b = np.array([1e-20, -1e-20, 2.0, 0.5], np.float32)
    fast, exact = np.zeros(4, np.float32), np.zeros(4, np.float32)
    product_fast[1, 4](fast, a, b)
    product[1, 4](exact, a, b)
    np.testing.assert_array_equal(exact, a * b)
    assert exact[0] != 0 and exact[1] != 0
    want = (a * b).view(np.uint32).copy()
    want[:2] = [0x00000000, 0x80000000]  # +0 and -0: the subnormal products flushed, their signs kept
    np.testing.assert_array_equal(fast.view(np.uint32), want)
    assert "mul.ftz.f32" in product_fast.ptx(fast, a, b)


# --- 8- and 16-bit arrays ------------------------------------------------------------------------------------
@cuda.jit
def grey(out, rgb, bright):
    i = cuda.grid(1)
    if i < out.shape[0]:
        v = (rgb[i, 0] * 77 + rgb[i, 1] * 150 + rgb[i, 2] * 29) >> 8
        out[i] = v
        bright[i] = v > 100


@cuda.jit
def halve(out, a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] // 2 - 3


@cuda.jit
def widen(out, h):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = float32(h[i]) * float32(2.5)


def test_uint8_bool_and_int16_arrays_run_as_numpy_computes_them():
    # An image of uint8 pixels (3 channels and a pad, as a uchar4 row) to grey uint8 and a bool mask; int16 halves:
    # each thread's bytes stored next to other warps' and blocks' in one 32-bit word.
    rgb = ((np.arange(100 * 4, dtype=np.uint32) * 2654435761) >> 24).astype(np.uint8).reshape(100, 4)
    out, bright = np.zeros(100, np.uint8), np.zeros(100, np.bool_)
    grey[4, 25](out, rgb, bright)
    c = rgb.astype(np.int64)
    want = ((c[:, 0] * 77 + c[:, 1] * 150 + c[:, 2] * 29) >> 8).astype(np.uint8)
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(bright, want > 100)
    a = (np.arange(64, dtype=np.int32) * 1237 - 40000).astype(np.int16)
    h = np.zeros(64, np.int16)
    halve[2, 32](h, a)
    np.testing.assert_array_equal(h, (a.astype(np.int64) // 2 - 3).astype(np.int16))
    with pytest.raises(ValueError, match="must be a multiple of 4"):
        halve[1, 32](np.zeros(30, np.uint8), np.zeros(30, np.uint8))


def test_float16_arrays_convert_exactly():
    # float16 data (every finite class: subnormals, the largest, negatives) read as f32 (cvt.f32.f16) and scaled.
    h = np.array([0.0, -0.0, 1.0, 65504.0, 6e-8, -2.5, 0.1, 1e-5], np.float16)
    out = np.zeros(8, np.float32)
    widen[1, 8](out, h)
    np.testing.assert_array_equal(out, h.astype(np.float32) * np.float32(2.5))
