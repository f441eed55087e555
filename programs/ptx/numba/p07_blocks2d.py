# GPU-Puzzles 7 (Blocks 2D): 2-D grid of 2-D blocks.
from numba import cuda, float32, int64

def map_blocks_2d(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    j = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    if i < size and j < size:
        out[i, j] = a[i, j] + 10

def map_blocks_2d_grid(out, a, size):
    i, j = cuda.grid(2)
    if i < size and j < size:
        out[i, j] = a[i, j] + 10

SIGS = [("map_blocks_2d", map_blocks_2d, (float32[:, ::1], float32[:, ::1], int64)),
        ("map_blocks_2d_grid", map_blocks_2d_grid, (float32[:, ::1], float32[:, ::1], int64))]
