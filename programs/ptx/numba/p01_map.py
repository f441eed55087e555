# GPU-Puzzles 1 (Map): out[i] = a[i] + 10, one thread per position.
from numba import cuda, float64, int64

def map_add10(out, a):
    local_i = cuda.threadIdx.x
    out[local_i] = a[local_i] + 10

# as the puzzle calls it: out = np.zeros(SIZE) (float64), a = np.arange(SIZE) (int64), both C-contiguous
SIGS = [("map_add10", map_add10, (float64[::1], int64[::1])),
        # the same with non-contiguous ('A' layout) float32 arrays, as an explicit float32[:] signature gives
        ("map_add10_f32_A", map_add10, "void(float32[:], float32[:])")]
