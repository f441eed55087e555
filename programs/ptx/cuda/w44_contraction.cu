// Products and sums that nvcc leaves as separate PTX `mul`, `add` and `sub` (no rounding modifier), which ptxas
// fuses into one FFMA or DFMA at -O3 and not in a debug build: a 2x2 determinant, complex products, a product used
// twice, a product across a branch, f64 forms, and the rotary embedding written with plain operators (as in
// crosscheck/README.md, `mul-sub-contraction`, before warpsim modelled the contraction). The operands are hashed floats with
// full 24-bit mantissas, so that a fused and an unfused result differ in the last bits.

__device__ unsigned mix(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// A float in [-1, 1) with a full mantissa: 2 + h/2^23 in [2, 4), minus 3 (exact).
__device__ float hf(unsigned h) { return __uint_as_float(0x40000000u | (h >> 9)) - 3.0f; }

extern "C" __global__ void products(float *out, double *outd, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = hf(mix(4 * i + 1)), b = hf(mix(4 * i + 2)), c = hf(mix(4 * i + 3)), d = hf(mix(4 * i + 4));
    out[10 * i] = a * b - c * d;
    out[10 * i + 1] = a * d + b * c;
    out[10 * i + 2] = c - a * b;
    float p = a * c;
    out[10 * i + 3] = p;
    out[10 * i + 4] = p + d;
    out[10 * i + 5] = (a * d - b * c) * (c * a - d * b);
    out[10 * i + 6] = a * a + b * b - c * c;
    float q = b * d;
    if (a > 0.0f) out[10 * i + 7] = q;
    out[10 * i + 8] = q - a;
    out[10 * i + 9] = a * 1.5f - d * 0.75f;
    double x = a, y = b, z = c, w = d;
    outd[2 * i] = x * y - z * w;
    outd[2 * i + 1] = x * w + z * y - y * y;
}

// q: rows of d floats (d even), rotated in place; row r is position r.
extern "C" __global__ void rope_plain(float *q, int rows, int d) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int half = d / 2;
    if (i >= rows * half) return;
    int row = i / half, pair = i % half;
    float inv_freq = __powf(10000.0f, -2.0f * (float)pair / (float)d);
    float s, c;
    __sincosf((float)row * inv_freq, &s, &c);
    float x0 = q[row * d + 2 * pair], x1 = q[row * d + 2 * pair + 1];
    q[row * d + 2 * pair] = x0 * c - x1 * s;
    q[row * d + 2 * pair + 1] = x0 * s + x1 * c;
}
