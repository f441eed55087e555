# GPU-Puzzles 10 (Dot product): products in shared, thread 0 sums them.
import numba
from numba import cuda, float32, int64

TPB = 8

def dot_product(out, a, b, size):
    shared = cuda.shared.array(TPB, numba.float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < size:
        shared[local_i] = a[i] * b[i]
    else:
        shared[local_i] = 0
    cuda.syncthreads()
    if local_i == 0:
        total = 0.0
        for k in range(TPB):
            total += shared[k]
        out[0] = total

SIGS = [("dot_product", dot_product, (float32[::1], float32[::1], float32[::1], int64))]
