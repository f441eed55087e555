// Grid-wide sum: warp reduction with __shfl_down_sync, lane 0 atomically adds to *out.
extern "C" __global__ void shfl_down_sum(float *out, const float *in, int n)
{
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffff, sum, offset);
    if ((threadIdx.x & (warpSize - 1)) == 0)
        atomicAdd(out, sum);
}
