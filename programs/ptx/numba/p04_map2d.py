# GPU-Puzzles 4 (Map 2D): 2-D arrays, 2-D block bigger than the data.
from numba import cuda, float32, int64

def map_2d(out, a, size):
    local_i = cuda.threadIdx.x
    local_j = cuda.threadIdx.y
    if local_i < size and local_j < size:
        out[local_i, local_j] = a[local_i, local_j] + 10

# a Python int argument is typed int64 by Numba's dispatcher
SIGS = [("map_2d", map_2d, (float32[:, ::1], float32[:, ::1], int64))]
