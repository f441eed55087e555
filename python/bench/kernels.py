"""The benchmark's Numba kernels (GPU-Puzzles' shapes at 256 threads a block). `cuda` is warpsim's (WARPSIM_BENCH=1)
or Numba's, which is its simulator under NUMBA_ENABLE_CUDASIM=1: the kernels' text is the same for both."""

import os

from numba import float32

if os.environ.get("WARPSIM_BENCH") == "1":
    from warpsim.numba import cuda
else:
    from numba import cuda

TPB = 256


@cuda.jit
def dot(out, a, b, size):
    shared = cuda.shared.array(TPB, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    shared[local_i] = a[i] * b[i] if i < size else 0.0
    cuda.syncthreads()
    step = TPB // 2
    while step > 0:
        if local_i < step:
            shared[local_i] += shared[local_i + step]
        cuda.syncthreads()
        step //= 2
    if local_i == 0:
        out[cuda.blockIdx.x] = shared[0]


@cuda.jit
def pooling(out, a, size):
    shared = cuda.shared.array(TPB, float32)
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    local_i = cuda.threadIdx.x
    if i < size:
        shared[local_i] = a[i]
    cuda.syncthreads()
    if i < size:
        acc = shared[local_i]
        if local_i >= 1:
            acc += shared[local_i - 1]
        if local_i >= 2:
            acc += shared[local_i - 2]
        out[i] = acc


@cuda.jit
def blocks_map(out, a, size):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < size:
        out[i] = a[i] + 10
