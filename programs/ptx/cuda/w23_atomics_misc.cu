// Other atomics: atomicMax/Min/Exch/CAS (float max via CAS loop), atomicInc, atomicOr/And/Xor,
// atomicSub in shared memory, a __constant__ table and a __device__ global.
__constant__ float coeffs[4] = {0.5f, 0.25f, 0.125f, 0.0625f};
__device__ int g_counter;
__device__ float atomic_max_float(float *addr, float val)
{
    int *a = (int *)addr;
    int old = *a, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val) break;
        old = atomicCAS(a, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}
extern "C" __global__ void atomics_misc(float *fmax, int *imax, unsigned *flags, int *ring, const float *in, int n)
{
    __shared__ int sh_count;
    if (threadIdx.x == 0) sh_count = 1000;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i] * coeffs[i & 3];
        atomic_max_float(fmax, v);
        atomicMax(imax, (int)v);
        atomicMin(imax + 1, (int)v);
        atomicOr(flags, 1u << (i & 31));
        atomicAnd(flags + 1, ~(1u << (i & 31)));
        atomicXor(flags + 2, (unsigned)i);
        unsigned slot = atomicInc(flags + 3, 15u);
        atomicExch(ring + slot, i);
        atomicSub(&sh_count, 1);
        atomicAdd(&g_counter, 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) ring[16 + blockIdx.x] = sh_count;
}
