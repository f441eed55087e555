# GPU-Puzzles 13 (Axis sum): each blockIdx.y sums one row of a 2-D array.
import numba
from numba import cuda, float32, int64

TPB = 8

def axis_sum(out, a, size):
    cache = cuda.shared.array(TPB, numba.float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    batch = cuda.blockIdx.y
    if i < size:
        cache[local_i] = a[batch, i]
    else:
        cache[local_i] = 0
    cuda.syncthreads()
    stride = TPB // 2
    while stride > 0:
        if local_i < stride:
            cache[local_i] += cache[local_i + stride]
        cuda.syncthreads()
        stride //= 2
    if local_i == 0:
        out[batch, cuda.blockIdx.x] = cache[0]

SIGS = [("axis_sum", axis_sum, (float32[:, ::1], float32[:, ::1], int64))]
