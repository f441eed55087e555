// GPU-Puzzles 12 (Prefix sum / block sum): tree reduction in shared memory,
// out[blockIdx.x] = sum of the block's TPB elements.
#define TPB 8
extern "C" __global__ void block_sum_tree(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int local_i = threadIdx.x;
    cache[local_i] = (i < size) ? a[i] : 0.0f;
    __syncthreads();
    for (int stride = 1; stride < TPB; stride *= 2) {
        if (local_i % (2 * stride) == 0)
            cache[local_i] += cache[local_i + stride];
        __syncthreads();
    }
    if (local_i == 0)
        out[blockIdx.x] = cache[0];
}
