# GPU-Puzzles 5 (Broadcast): a is (size, 1), b is (1, size); out[i, j] = a[i, 0] + b[0, j].
from numba import cuda, float32, int64

def broadcast_add(out, a, b, size):
    local_i = cuda.threadIdx.x
    local_j = cuda.threadIdx.y
    if local_i < size and local_j < size:
        out[local_i, local_j] = a[local_i, 0] + b[0, local_j]

SIGS = [("broadcast_add", broadcast_add, (float32[:, ::1], float32[:, ::1], float32[:, ::1], int64))]
