# GPU-Puzzles 6 (Blocks): fewer threads per block than elements.
from numba import cuda, float32, int64

def map_blocks(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < size:
        out[i] = a[i] + 10

SIGS = [("map_blocks", map_blocks, (float32[::1], float32[::1], int64))]
