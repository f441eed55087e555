# GPU-Puzzles 3 (Guards): more threads than positions.
from numba import cuda, float32, int32

def map_guard(out, a, size):
    local_i = cuda.threadIdx.x
    if local_i < size:
        out[local_i] = a[local_i] + 10

SIGS = [("map_guard", map_guard, (float32[::1], float32[::1], int32))]
