// IEEE arithmetic with directed rounding, and copysign: CUDA's __fadd_rz .. __frcp_ru and __dadd_rz .. __fma_ru
// (PTX add/sub/mul/div/fma/sqrt/rcp with .rz, .rm, .rp) and copysignf/copysign, on operands drawn from a hash of
// the thread's index: normal numbers of nearby and distant exponents, subnormals, zeros, infinities, NaNs and the
// largest finite values, so that sums cancel, products overflow and underflow, and quotients are inexact. At most
// one operand of an operation is a NaN: which of two NaNs an operation returns depends on the order ptxas puts
// its operands in, which PTX leaves open (an -O3 build commutes some, a -G build does not).

__device__ unsigned mix(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__device__ float pick32(unsigned h, unsigned m) {
    unsigned sign = h & 0x80000000u, mant = m & 0x7fffffu;
    switch ((h >> 24) & 15) {
    case 0: return __uint_as_float(sign);                          // zero
    case 1: return __uint_as_float(sign | 0x7f800000u);            // infinity
    case 2: return __uint_as_float(sign | 0x7fc00000u | (mant & 0xff)); // NaN
    case 3: return __uint_as_float(sign | mant);                   // subnormal
    case 4: return __uint_as_float(sign | 0x7f000000u | mant);     // near the largest
    case 5: return __uint_as_float(sign | ((1u + (h & 7)) << 23) | mant); // smallest normals
    default: return __uint_as_float(sign | ((120u + ((h >> 8) & 15)) << 23) | mant); // near 1
    }
}

__device__ double pick64(unsigned h, unsigned m0, unsigned m1) {
    unsigned long long sign = (unsigned long long)(h & 0x80000000u) << 32;
    unsigned long long mant = ((unsigned long long)(m0 & 0xfffffu) << 32) | m1;
    unsigned long long e;
    switch ((h >> 24) & 15) {
    case 0: return __longlong_as_double(sign);
    case 1: return __longlong_as_double(sign | 0x7ff0000000000000ull);
    case 2: return __longlong_as_double(sign | 0x7ff8000000000000ull | (mant & 0xff));
    case 3: return __longlong_as_double(sign | mant);
    case 4: e = 0x7fe; break;
    case 5: e = 1 + (h & 7); break;
    default: e = 1016 + ((h >> 8) & 15); break;
    }
    return __longlong_as_double(sign | e << 52 | mant);
}

extern "C" __global__ void rounded_f32(unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = pick32(mix(6 * i + 1), mix(6 * i + 2));
    float b = pick32(mix(6 * i + 3), mix(6 * i + 4));
    float c = pick32(mix(6 * i + 5), mix(6 * i + 6));
    // Half the threads take b a near neighbour of a, so that sums cancel and quotients are near 1.
    if (i & 1) b = __uint_as_float(__float_as_uint(a) ^ (mix(i) & 0x800000ffu));
    if (isnan(a)) b = isnan(b) ? 1.5f : b, c = isnan(c) ? -0.75f : c;
    if (isnan(b)) c = isnan(c) ? 3.0f : c;
    unsigned *o = out + 20 * i;
    o[0] = __float_as_uint(__fadd_rz(a, b));
    o[1] = __float_as_uint(__fadd_rd(a, b));
    o[2] = __float_as_uint(__fadd_ru(a, b));
    o[3] = __float_as_uint(__fsub_rz(a, b));
    o[4] = __float_as_uint(__fmul_rz(a, b));
    o[5] = __float_as_uint(__fmul_rd(a, b));
    o[6] = __float_as_uint(__fmul_ru(a, b));
    o[7] = __float_as_uint(__fdiv_rz(a, b));
    o[8] = __float_as_uint(__fdiv_rd(a, b));
    o[9] = __float_as_uint(__fdiv_ru(a, b));
    o[10] = __float_as_uint(__fmaf_rz(a, b, c));
    o[11] = __float_as_uint(__fmaf_rd(a, b, c));
    o[12] = __float_as_uint(__fmaf_ru(a, b, c));
    o[13] = __float_as_uint(__fsqrt_rz(a));
    o[14] = __float_as_uint(__fsqrt_rd(a));
    o[15] = __float_as_uint(__fsqrt_ru(a));
    o[16] = __float_as_uint(__frcp_rz(a));
    o[17] = __float_as_uint(__frcp_rd(a));
    o[18] = __float_as_uint(__frcp_ru(a));
    o[19] = __float_as_uint(copysignf(b, a));
}

extern "C" __global__ void rounded_f64(unsigned long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double a = pick64(mix(9 * i + 1), mix(9 * i + 2), mix(9 * i + 3));
    double b = pick64(mix(9 * i + 4), mix(9 * i + 5), mix(9 * i + 6));
    double c = pick64(mix(9 * i + 7), mix(9 * i + 8), mix(9 * i + 9));
    if (i & 1) b = __longlong_as_double(__double_as_longlong(a) ^ (mix(i) & 0x80000000000000ffull) ^ ((unsigned long long)(mix(i) & 0x80000000u) << 32));
    if (isnan(a)) b = isnan(b) ? 1.5 : b, c = isnan(c) ? -0.75 : c;
    if (isnan(b)) c = isnan(c) ? 3.0 : c;
    unsigned long long *o = out + 20 * i;
    o[0] = __double_as_longlong(__dadd_rz(a, b));
    o[1] = __double_as_longlong(__dadd_rd(a, b));
    o[2] = __double_as_longlong(__dadd_ru(a, b));
    o[3] = __double_as_longlong(__dsub_rz(a, b));
    o[4] = __double_as_longlong(__dmul_rz(a, b));
    o[5] = __double_as_longlong(__dmul_rd(a, b));
    o[6] = __double_as_longlong(__dmul_ru(a, b));
    o[7] = __double_as_longlong(__ddiv_rz(a, b));
    o[8] = __double_as_longlong(__ddiv_rd(a, b));
    o[9] = __double_as_longlong(__ddiv_ru(a, b));
    o[10] = __double_as_longlong(__fma_rz(a, b, c));
    o[11] = __double_as_longlong(__fma_rd(a, b, c));
    o[12] = __double_as_longlong(__fma_ru(a, b, c));
    o[13] = __double_as_longlong(__dsqrt_rz(a));
    o[14] = __double_as_longlong(__dsqrt_rd(a));
    o[15] = __double_as_longlong(__dsqrt_ru(a));
    o[16] = __double_as_longlong(__drcp_rz(a));
    o[17] = __double_as_longlong(__drcp_rd(a));
    o[18] = __double_as_longlong(__drcp_ru(a));
    o[19] = __double_as_longlong(copysign(b, a));
}
