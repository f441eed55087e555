// Integer and bit operations people write: division/modulo by runtime values,
// min/max/abs, popcount, clz, brev, byte extract/insert, rotate, mulhi, 64-bit shifts.
extern "C" __global__ void int_math(unsigned *out, const unsigned *in, int n, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i];
    int s = (int)x;
    unsigned r = 0;
    r += x / (unsigned)d + x % (unsigned)d;
    r += s / d + s % d;
    r += __popc(x) + __clz(x) + __brev(x) + __ffs(x);
    r += (x >> 8) & 0xff;                  // bfe-like
    r ^= (x & ~0xff00u) | ((r & 0xff) << 8);  // bfi-like
    r += __byte_perm(x, r, 0x3210 ^ 0x0123);
    r += __umulhi(x, 0x9E3779B9u) + __funnelshift_l(x, x, 7);
    r += (unsigned)min(s, 7) + (unsigned)max(s, -7) + (unsigned)abs(s);
    unsigned long long w = (unsigned long long)x * r;
    r += (unsigned)(w >> 33) + (unsigned)__popcll(w);
    r += (unsigned short)x * (unsigned short)(x >> 16);
    out[i] = r;
}
