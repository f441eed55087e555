# Further Numba idioms: print() in a kernel, bool and float64 scalars, tuple arguments,
# float32 math (math.* on float32 stays float32), cuda.fma, threadfence, compare_and_swap,
# small integer arrays, a 2-D shared tile transpose, and cuda.const.array_like.
import math
import numpy as np
from numba import cuda, float32, float64, int32, int16, uint8, boolean, int64, types

COEFFS = np.array([0.5, 0.25, 0.125, 0.0625], dtype=np.float32)

def hello(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        print("thread", i, "value", a[i])

def flags_scalars(out, a, negate, scale, shift):
    i = cuda.grid(1)
    if i < a.shape[0]:
        x = a[i] * scale + shift[0] - shift[1]
        out[i] = -x if negate else x

def f32_math(out, a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        x = a[i]
        y = math.exp(x) + math.sqrt(abs(x)) + math.sin(x) + math.tanh(x) + math.pow(x, float32(2.0))
        out[i] = cuda.fma(x, y, float32(1.0)) / (float32(1.0) + abs(x))

def cas_lock(counter, lock):
    if cuda.threadIdx.x == 0:
        while cuda.atomic.compare_and_swap(lock, 0, 1) != 0:
            pass
        counter[0] += 1
        cuda.threadfence()
        cuda.atomic.exch(lock, 0, 0)

def small_ints(out, a, b):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = int16(a[i]) * int16(3) + int16(b[i])

TILE = 32
TILE1 = 33

def transpose_shared(out, a):
    tile = cuda.shared.array((TILE, TILE1), float32)
    x = cuda.blockIdx.x * TILE + cuda.threadIdx.x
    y = cuda.blockIdx.y * TILE + cuda.threadIdx.y
    if y < a.shape[0] and x < a.shape[1]:
        tile[cuda.threadIdx.y, cuda.threadIdx.x] = a[y, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + cuda.threadIdx.x
    y = cuda.blockIdx.x * TILE + cuda.threadIdx.y
    if y < out.shape[0] and x < out.shape[1]:
        out[y, x] = tile[cuda.threadIdx.x, cuda.threadIdx.y]

def const_table(out, a):
    c = cuda.const.array_like(COEFFS)
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] * c[i & 3]

SIGS = [
    ("hello", hello, (int32[::1],)),
    ("flags_scalars", flags_scalars, (float64[::1], float64[::1], boolean, float64, types.UniTuple(float64, 2))),
    ("f32_math", f32_math, (float32[::1], float32[::1])),
    ("cas_lock", cas_lock, (int32[::1], int32[::1])),
    ("small_ints", small_ints, (int16[::1], uint8[::1], int16[::1])),
    ("transpose_shared", transpose_shared, (float32[:, ::1], float32[:, ::1])),
    ("const_table", const_table, (float32[::1], float32[::1])),
]
