// CUDA's math library where nvcc compiles it to the special-function unit's approximations (ex2.approx, lg2.approx,
// rcp.approx, rsqrt.approx, div.approx, div.full, rcp.approx.ftz.f64 inside the f64 functions). Thread i takes
// x = +-(1 + frac) * 2^e for an exponent e from -40 to 40 drawn from a hash of i (subnormals, zeros, infinities and
// NaNs now and then) and y from another hash, and writes 16 f32 functions of them (math_f32) or 12 f64 ones
// (math_f64).

__device__ unsigned mix(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__device__ float arg32(unsigned h) {
    unsigned e = 127 + (h >> 24) % 81 - 40;
    float x = __uint_as_float((h & 0x807fffffu) | (e << 23));
    if ((h & 0x7e0) == 0x7e0) x = __uint_as_float((h & 0x80000000u) | (h & 0x800 ? 0x7f800000u : 0x00000000u));
    if ((h & 0x7e0) == 0x7c0) x = __uint_as_float(0x7fc00000u);
    if ((h & 0x7e0) == 0x7a0) x = __uint_as_float(h & 0x807fffffu);
    return x;
}

extern "C" __global__ void math_f32(float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = arg32(mix(2 * i + 1)), y = arg32(mix(2 * i + 2));
    float *o = out + 16 * i;
    o[0] = expf(x);
    o[1] = logf(fabsf(x));
    o[2] = powf(fabsf(x), y * 0.25f);
    o[3] = __expf(x);
    o[4] = __logf(x);
    o[5] = __powf(fabsf(x), y);
    o[6] = __fdividef(x, y);
    o[7] = rsqrtf(x);
    o[8] = tanf(x);
    o[9] = atanf(x);
    o[10] = erfcf(x);
    o[11] = tanhf(x);
    o[12] = exp2f(x);
    o[13] = log2f(x);
    o[14] = coshf(x);
    o[15] = x / y;
}

__device__ double arg64(unsigned h, unsigned m) {
    unsigned long long sign = (unsigned long long)(h & 1) << 63;
    long long e = (long long)((h >> 1) % 81) - 40;
    unsigned long long mant = ((unsigned long long)(h & 0xfffff000u) << 20) | m;
    double x = __longlong_as_double(sign | (unsigned long long)(1023 + e) << 52 | (mant & 0xfffffffffffffull));
    if ((h & 0x7e0) == 0x7e0) x = (h & 0x800) ? __longlong_as_double(0x7ff0000000000000ull | sign) : 0.0;
    if ((h & 0x7e0) == 0x7c0) x = __longlong_as_double(0x7ff8000000000000ull);
    return x;
}

extern "C" __global__ void math_f64(double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = arg64(mix(4 * i + 1), mix(4 * i + 2)), y = arg64(mix(4 * i + 3), mix(4 * i + 4));
    double *o = out + 12 * i;
    o[0] = log(fabs(x));
    o[1] = pow(fabs(x), y * 0.125);
    o[2] = tan(x);
    o[3] = atan(x);
    o[4] = erfc(x);
    o[5] = cosh(x);
    o[6] = log1p(x);
    o[7] = asinh(x);
    o[8] = hypot(x, y);
    o[9] = tgamma(x);
    o[10] = log2(x);
    o[11] = acos(x * 0x1p-40);
}
