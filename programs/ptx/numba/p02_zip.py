# GPU-Puzzles 2 (Zip): out[i] = a[i] + b[i].
from numba import cuda, float32

def zip_add(out, a, b):
    local_i = cuda.threadIdx.x
    out[local_i] = a[local_i] + b[local_i]

SIGS = [("zip_add", zip_add, (float32[::1], float32[::1], float32[::1]))]
