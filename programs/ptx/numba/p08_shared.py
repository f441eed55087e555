# GPU-Puzzles 8 (Shared): stage through a static shared array.
import numba
from numba import cuda, float32, int64

TPB = 4

def shared_add10(out, a, size):
    shared = cuda.shared.array(TPB, numba.float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < size:
        shared[local_i] = a[i]
    cuda.syncthreads()
    if i < size:
        out[i] = shared[local_i] + 10

SIGS = [("shared_add10", shared_add10, (float32[::1], float32[::1], int64))]
