// GPU-Puzzles 13 (Axis sum): each blockIdx.y is one row; sum the row.
#define TPB 8
extern "C" __global__ void axis_sum(float *out, const float *a, int size)
{
    __shared__ float cache[TPB];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int local_i = threadIdx.x;
    int batch = blockIdx.y;
    cache[local_i] = (i < size) ? a[batch * size + i] : 0.0f;
    __syncthreads();
    for (int stride = TPB / 2; stride > 0; stride >>= 1) {
        if (local_i < stride)
            cache[local_i] += cache[local_i + stride];
        __syncthreads();
    }
    if (local_i == 0)
        out[batch * gridDim.x + blockIdx.x] = cache[0];
}
