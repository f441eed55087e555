// CUDA's fast-math intrinsics on the special-function unit's sine and cosine (sin.approx, cos.approx): a rotary
// position embedding (each pair of a row rotated by pos * 10000^(-2i/d), with __sincosf), and __sinf, __cosf, __tanf
// of arguments from 2^-30 to 2^30 and of every class (zeros, subnormals, infinities, NaNs), drawn from a hash.

__device__ unsigned mix(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// q: rows of d floats (d even), rotated in place; row r is position r. The rotation's products and sums are written
// with the `_rn` intrinsics: PTX's plain `mul.f32` and `sub.f32`, which nvcc left for `x0 * c - x1 * s`, may be
// fused into an FFMA by ptxas at -O3 (as warpsim now models: w44_contraction has the plain form).
extern "C" __global__ void rope(float *q, int rows, int d) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int half = d / 2;
    if (i >= rows * half) return;
    int row = i / half, pair = i % half;
    float inv_freq = __powf(10000.0f, -2.0f * (float)pair / (float)d);
    float s, c;
    __sincosf((float)row * inv_freq, &s, &c);
    float x0 = q[row * d + 2 * pair], x1 = q[row * d + 2 * pair + 1];
    q[row * d + 2 * pair] = __fsub_rn(__fmul_rn(x0, c), __fmul_rn(x1, s));
    q[row * d + 2 * pair + 1] = __fadd_rn(__fmul_rn(x0, s), __fmul_rn(x1, c));
}

extern "C" __global__ void trig(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned h = mix(2 * i + 1);
    unsigned e = 127 + (h >> 24) % 61 - 30;
    float x = __uint_as_float((h & 0x807fffffu) | (e << 23));
    if ((h & 0x7e0) == 0x7e0) x = __uint_as_float((h & 0x80000000u) | (h & 0x800 ? 0x7f800000u : 0u));
    if ((h & 0x7e0) == 0x7c0) x = __uint_as_float(0x7fc00000u);
    if ((h & 0x7e0) == 0x7a0) x = __uint_as_float(h & 0x807fffffu);
    out[3 * i] = __sinf(x);
    out[3 * i + 1] = __cosf(x);
    out[3 * i + 2] = __tanf(x);
}
