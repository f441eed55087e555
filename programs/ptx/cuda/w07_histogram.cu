// 256-bin byte histogram: privatized in shared memory with shared atomics,
// then merged into the global histogram with global atomics.
#define NBINS 256
extern "C" __global__ void histogram256(unsigned int *hist, const unsigned char *data, int n)
{
    __shared__ unsigned int local_hist[NBINS];
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        local_hist[b] = 0;
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&local_hist[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x) {
        unsigned c = local_hist[b];
        if (c)
            atomicAdd(&hist[b], c);
    }
}
