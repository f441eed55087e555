# More Numba idioms: dynamic shared memory, local arrays, math functions, atomics,
# grid-stride loops, a device function, 3-D indexing, and a histogram.
import math
from numba import cuda, float32, float64, int32, uint32, int64, uint8

def dyn_shared_reverse(d, n):
    s = cuda.shared.array(0, int32)          # dynamic shared memory
    t = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    if base + t < n:
        s[t] = d[base + t]
    cuda.syncthreads()
    valid = min(cuda.blockDim.x, n - base)
    if t < valid:
        d[base + t] = s[valid - t - 1]

def local_sort8(out, a, pick):
    t = cuda.grid(1)
    if t >= out.shape[0]:
        return
    v = cuda.local.array(8, int32)
    for k in range(8):
        v[k] = a[t * 8 + k]
    for x in range(1, 8):
        y = v[x]
        b = x - 1
        while b >= 0 and v[b] > y:
            v[b + 1] = v[b]
            b -= 1
        v[b + 1] = y
    out[t] = v[pick[t] & 7]

def softmax_math(out, a):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        out[i] = math.exp(x) / (1.0 + math.sqrt(abs(x))) + math.log(1.0 + x * x) + math.sin(x) + math.floor(x)

@cuda.jit(device=True)
def clamp(x, lo, hi):
    return lo if x < lo else (hi if x > hi else x)

def saxpy_grid_stride(y, x, alpha):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, y.shape[0], stride):
        y[i] = clamp(alpha * x[i] + y[i], float32(-1.0), float32(1.0))

def histogram(hist, data):
    local = cuda.shared.array(256, uint32)
    t = cuda.threadIdx.x
    local[t] = 0                               # launch with 256 threads per block
    cuda.syncthreads()
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < data.shape[0]:
        cuda.atomic.add(local, data[i], 1)
        i += stride
    cuda.syncthreads()
    cuda.atomic.add(hist, t, local[t])

def atomics(out, a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        cuda.atomic.max(out, 0, a[i])
        cuda.atomic.min(out, 1, a[i])
        cuda.atomic.cas(out, 2, 0, i)
        cuda.atomic.exch(out, 3, a[i])
        cuda.atomic.sub(out, 4, 1)
        cuda.atomic.or_(out, 5, a[i])

def map_3d(out, a):
    x, y, z = cuda.grid(3)
    if x < a.shape[0] and y < a.shape[1] and z < a.shape[2]:
        out[x, y, z] = a[x, y, z] * 2 + 1

def int_div_mod(out, a, d):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = a[i] // d + a[i] % d

SIGS = [
    ("dyn_shared_reverse", dyn_shared_reverse, (int32[::1], int64)),
    ("local_sort8", local_sort8, (int32[::1], int32[::1], int32[::1])),
    ("softmax_math", softmax_math, (float32[::1], float32[::1])),
    ("saxpy_grid_stride", saxpy_grid_stride, (float32[::1], float32[::1], float32)),
    ("histogram", histogram, (uint32[::1], uint8[::1])),
    ("atomics", atomics, (int32[::1], int32[::1])),
    ("map_3d", map_3d, (float32[:, :, ::1], float32[:, :, ::1])),
    ("int_div_mod", int_div_mod, (int64[::1], int64[::1], int64)),
]
