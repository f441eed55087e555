// nvcc: -use_fast_math
// Kernels built with -use_fast_math, whose f32 arithmetic nvcc writes with `.ftz` (flush subnormals to zero):
// `add.ftz`, `mul.ftz`, `fma.rn.ftz`, `min`/`max.ftz`, `abs`/`neg.ftz`, `setp.*.ftz`, `cvt.ftz`, and the
// approximations for expf, rsqrtf, sqrtf and division. Operands are hashed floats of every class (zeros, subnormals,
// tiny normals near 2^-126, infinities, NaNs), so that flushing changes results: a softmax over rows, a layer norm
// over rows with warp shuffles, and a table of elementwise functions.

__device__ unsigned mix(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// A hashed float: mostly in [-8, 8) with a full mantissa, sometimes a subnormal, a tiny normal, a zero, an infinity
// or a NaN.
__device__ float hashed(unsigned h) {
    switch (h & 15) {
    case 0: return __uint_as_float((h & 0x807fffffu));                      // subnormal or zero
    case 1: return __uint_as_float((h & 0x807fffffu) | 0x00800000u);        // just above 2^-126
    case 2: return __uint_as_float((h & 0x807fffffu) | ((h >> 27) << 23));  // 2^-126 .. 2^-111
    case 3: return (h & 16) ? __uint_as_float(0x7f800000u | (h & 0x80000000u)) : __uint_as_float(0x7fc00000u);
    default: return __uint_as_float(0x40000000u | (h >> 9)) * ((h & 32) ? 2.0f : -2.0f) - ((h & 64) ? 6.0f : -6.0f);
    }
}

// out[r*cols + c] = exp(x - max) / sum over row r (x from in, mostly small values; some tiny or subnormal).
extern "C" __global__ void softmax_fast(float *out, const float *in, int rows, int cols) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float *x = in + r * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; c++) m = fmaxf(m, x[c]);
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += expf(x[c] - m);
    for (int c = 0; c < cols; c++) out[r * cols + c] = expf(x[c] - m) / s;
}

// One warp per row of 32 * k values: mean and variance by shuffles, then (x - mean) * rsqrt(var + eps) * g + b.
extern "C" __global__ void layernorm_fast(float *out, const float *in, int rows, int cols) {
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) return;
    const float *x = in + row * cols;
    float s = 0.0f, ss = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        s += x[c];
        ss += x[c] * x[c];
    }
    for (int o = 16; o > 0; o /= 2) {
        s += __shfl_xor_sync(0xffffffffu, s, o);
        ss += __shfl_xor_sync(0xffffffffu, ss, o);
    }
    float mean = s / cols, var = ss / cols - mean * mean;
    float inv = rsqrtf(fmaxf(var, 0.0f) + 1e-5f);
    for (int c = lane; c < cols; c += 32) {
        float g = 1.0f + 0.01f * (c % 7), b = 0.1f * (c % 5) - 0.2f;
        out[row * cols + c] = (x[c] - mean) * inv * g + b;
    }
}

// Elementwise functions of hashed operands of every class: 16 results a thread.
extern "C" __global__ void elementwise_fast(float *out, double *outd, int *outi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = hashed(mix(3 * i + 1)), y = hashed(mix(3 * i + 2)), z = hashed(mix(3 * i + 3));
    float *o = out + 16 * i;
    o[0] = x + y;
    o[1] = x * y;
    o[2] = x * y + z;
    o[3] = x * y - z * x;
    o[4] = fminf(x, y);
    o[5] = fmaxf(x, z);
    o[6] = fabsf(x) - y;
    o[7] = -x * z;
    o[8] = x > y ? x : z;
    o[9] = floorf(x) + ceilf(y);
    o[10] = __saturatef(x);
    o[11] = 1.0f / (1.0f + expf(-x));
    o[12] = sqrtf(fabsf(y));
    o[13] = x / y;
    o[14] = (x < 0.0f) == (y >= z) ? 1.0f : 0.0f;
    o[15] = truncf(z) * 0.5f;
    outd[2 * i] = (double)x;
    outd[2 * i + 1] = (double)(y * z);
    outi[2 * i] = (int)floorf(x);
    outi[2 * i + 1] = __float2int_ru(y);
}

// f64 to f32 under -use_fast_math (`cvt.rn.ftz.f32.f64`, and __double2float_rd/_ru/_rz's `cvt.rm/.rp/.rz.ftz`): f64s
// within a few units of the thresholds below which ptxas flushes the f32 result, of both signs, and of every class.
extern "C" __global__ void narrow_fast(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned h = mix(7 * i + 1), g = mix(7 * i + 2);
    const unsigned long long bases[4] = {0xfffff0000000ull, 0xffffe0000000ull, 0xffffffffffffull, 0x000000000000ull};
    unsigned long long m = (bases[h & 3] << 4) + (g & 31) - 16;
    if ((h & 12) == 12) m = ((unsigned long long)(h >> 12) << 32) | g;
    unsigned long long e = 895 + ((h >> 4) & 3);
    if ((h & 0x3c0) == 0x3c0) e = 2047;
    if ((h & 0x3c0) == 0x380) e = 1023 + (h >> 28);
    m &= 0xfffffffffffffull;
    double d = __longlong_as_double((unsigned long long)(h >> 31) << 63 | e << 52 | m);
    out[4 * i] = (float)d;
    out[4 * i + 1] = __double2float_rd(d);
    out[4 * i + 2] = __double2float_ru(d);
    out[4 * i + 3] = __double2float_rz(d);
}
