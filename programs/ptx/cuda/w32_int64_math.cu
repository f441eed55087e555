// 64-bit and mixed-width integer math: long long mul/div/mod, mul24, sad, 64-bit bit ops, hashing.
extern "C" __global__ void int64_math(long long *out, const long long *a, const unsigned long long *b, const unsigned char *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i];
    unsigned long long y = b[i] | 1ull;
    long long r = x * 6364136223846793005LL + (long long)(y / 7ull) - x % 13 + (x >> (i & 63)) + (long long)(y << (i & 31));
    r += __mul64hi(x, 0x9E3779B97F4A7C15LL) + (long long)__umul64hi(y, y) + __clzll(x) + __popcll(y) + (long long)__brevll(y);
    r += __mul24(i, 3) + __umul24(i, 5u) + __sad(i, 7, 3u) + llabs(x) + llmin(x, 5) + (long long)ullmax(y, 9ull);
    r += (unsigned char)(c[i] + 200) + (signed char)c[i] + (short)(x & 0xffff);
    r ^= (r >> 33);
    r *= (long long)0xff51afd7ed558ccdULL;
    out[i] = r;
}
