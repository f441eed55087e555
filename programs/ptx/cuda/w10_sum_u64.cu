// 64-bit sum: grid-stride loop over 32-bit values, warp reduce in 64 bits,
// atomicAdd on unsigned long long.
extern "C" __global__ void sum_u64(unsigned long long *total, const unsigned int *in, long long n)
{
    unsigned long long acc = 0;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (long long)blockDim.x * gridDim.x)
        acc += in[i];
    for (int off = 16; off > 0; off >>= 1)
        acc += __shfl_down_sync(0xffffffffu, acc, off);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, acc);
}
