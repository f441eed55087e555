// Double-precision sin and cos as nvcc compiles them: a polynomial after a Cody-Waite reduction for moderate
// arguments, and for large ones (|x| beyond about 2^31) the Payne-Hanek reduction, a multi-word product with the
// bits of 2/pi that PTX writes as a carry chain (mad.lo.cc, madc.hi.cc, addc). The arguments: thread i takes
// +-(1 + frac) * 2^e for an exponent e from -30 to 1000 drawn from a hash of i, and zeros, infinities and NaNs.

__device__ unsigned mix(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

extern "C" __global__ void sin_cos_f64(double *s, double *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned h = mix(2 * i + 1), m = mix(2 * i + 2);
    unsigned long long sign = (unsigned long long)(h & 1) << 63;
    unsigned long long mant = ((unsigned long long)(h & 0xfffff000u) << 20) | m;
    long long e = (long long)((h >> 1) & 1023) - 30;
    double x = __longlong_as_double(sign | (unsigned long long)(1023 + e) << 52 | (mant & 0xfffffffffffffull));
    if ((h & 0x7e0) == 0x7e0) x = (h & 0x800) ? __longlong_as_double(0x7ff0000000000000ull | sign) : 0.0 * (double)(h & 1);
    if ((h & 0x7e0) == 0x7c0) x = __longlong_as_double(0x7ff8000000000000ull);
    s[i] = sin(x);
    c[i] = cos(x);
}
