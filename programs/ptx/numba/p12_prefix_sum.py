# GPU-Puzzles 12 (Prefix sum / block sum): tree reduction in shared memory.
import numba
from numba import cuda, float32, int64

TPB = 8

def block_sum_tree(out, a, size):
    cache = cuda.shared.array(TPB, numba.float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < size:
        cache[local_i] = a[i]
    else:
        cache[local_i] = 0
    cuda.syncthreads()
    stride = 1
    while stride < TPB:
        if local_i % (2 * stride) == 0:
            cache[local_i] += cache[local_i + stride]
        cuda.syncthreads()
        stride *= 2
    if local_i == 0:
        out[cuda.blockIdx.x] = cache[0]

SIGS = [("block_sum_tree", block_sum_tree, (float32[::1], float32[::1], int64))]
