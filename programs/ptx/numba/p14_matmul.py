# GPU-Puzzles 14 (Matmul): tiled square matmul with 2-D shared tiles.
import numba
from numba import cuda, float32, float64, int64

TPB = 16

def matmul_tiled(out, a, b, size):
    a_shared = cuda.shared.array((TPB, TPB), numba.float32)
    b_shared = cuda.shared.array((TPB, TPB), numba.float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    j = cuda.blockIdx.y * cuda.blockDim.y + cuda.threadIdx.y
    local_i = cuda.threadIdx.x
    local_j = cuda.threadIdx.y
    acc = 0.0
    for t in range(0, size, TPB):
        if i < size and t + local_j < size:
            a_shared[local_i, local_j] = a[i, t + local_j]
        else:
            a_shared[local_i, local_j] = 0
        if j < size and t + local_i < size:
            b_shared[local_i, local_j] = b[t + local_i, j]
        else:
            b_shared[local_i, local_j] = 0
        cuda.syncthreads()
        for k in range(TPB):
            acc += a_shared[local_i, k] * b_shared[k, local_j]
        cuda.syncthreads()
    if i < size and j < size:
        out[i, j] = acc

SIGS = [("matmul_tiled", matmul_tiled, (float32[:, ::1], float32[:, ::1], float32[:, ::1], int64)),
        # the puzzle's own arrays: out float64 zeros, inputs int64 arange
        ("matmul_tiled_f64_i64", matmul_tiled, (float64[:, ::1], int64[:, ::1], int64[:, ::1], int64))]
