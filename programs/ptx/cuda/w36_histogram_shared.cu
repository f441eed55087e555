// 64-bin histogram of 32-bit keys: each block counts into its own bins in shared memory
// with shared atomics (atomicAdd on __shared__), then adds them to the global histogram
// with one global atomic per bin (grid-stride loop over the keys).
#define NBINS 64
extern "C" __global__ void histogram_shared(unsigned int *hist, const unsigned int *keys, int n)
{
    __shared__ unsigned int bins[NBINS];
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[keys[i] % NBINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        if (bins[b] != 0)
            atomicAdd(&hist[b], bins[b]);
}
