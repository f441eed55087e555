# GPU-Puzzles 11 (1D convolution): out[i] = sum_j a[i+j] * b[j] for i+j < a_size.
import numba
from numba import cuda, float32, int64

MAX_CONV = 4
TPB = 8
TPB_MAX_CONV = TPB + MAX_CONV

def conv1d(out, a, b, a_size, b_size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    sa = cuda.shared.array(TPB_MAX_CONV, numba.float32)
    sb = cuda.shared.array(MAX_CONV, numba.float32)
    if i < a_size:
        sa[local_i] = a[i]
    else:
        sa[local_i] = 0
    if local_i < b_size - 1:
        k = i + TPB
        if k < a_size:
            sa[local_i + TPB] = a[k]
        else:
            sa[local_i + TPB] = 0
    if local_i < b_size:
        sb[local_i] = b[local_i]
    cuda.syncthreads()
    if i < a_size:
        acc = 0.0
        for j in range(b_size):
            if i + j < a_size:
                acc += sa[local_i + j] * sb[j]
        out[i] = acc

SIGS = [("conv1d", conv1d, (float32[::1], float32[::1], float32[::1], int64, int64))]
