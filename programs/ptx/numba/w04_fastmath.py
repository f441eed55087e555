# Numba kernels compiled with fastmath=True: f32 arithmetic with `.ftz` (subnormals flushed to zero), the
# special-function unit's approximations for exp, sqrt and division, and a warp reduction whose products and sums
# flush too. Inputs include subnormals (launches.txt), so that flushing changes results.
import math
from numba import cuda, float32


def fast_elementwise(out, a, b):
    i = cuda.grid(1)
    if i < a.shape[0]:
        x = a[i]
        y = b[i]
        out[i] = math.exp(x) * y + math.sqrt(abs(x)) / (float32(1.0) + y * y) - max(x, y) + min(x * y, y)


def fast_warp_dot(out, a, b):
    i = cuda.grid(1)
    s = float32(0.0)
    if i < a.shape[0]:
        s = a[i] * b[i]
    for o in (16, 8, 4, 2, 1):
        s += cuda.shfl_xor_sync(0xFFFFFFFF, s, o)
    if cuda.laneid == 0:
        out[i // 32] = s


SIGS = [
    ("fast_elementwise", fast_elementwise, (float32[::1], float32[::1], float32[::1]), {"fastmath": True}),
    ("fast_warp_dot", fast_warp_dot, (float32[::1], float32[::1], float32[::1]), {"fastmath": True}),
]
