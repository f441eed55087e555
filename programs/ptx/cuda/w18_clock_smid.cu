// Timing and placement: clock64(), %smid, %laneid, %warpid via inline asm, __threadfence.
__device__ __forceinline__ unsigned smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned laneid() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned warpid() { unsigned r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }
extern "C" __global__ void clock_probe(long long *cycles, unsigned *where, float *data, int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    long long start = clock64();
    float x = data[t];
    for (int k = 0; k < iters; ++k)
        x = x * 0.999f + 1.0f;
    data[t] = x;
    __threadfence();
    long long stop = clock64();
    cycles[t] = stop - start;
    where[3 * t] = smid();
    where[3 * t + 1] = warpid();
    where[3 * t + 2] = laneid() | (clock() & 0) ;
}
