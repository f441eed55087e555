// Warp butterfly (xor) all-reduce: every lane ends with the warp's max and sum.
__device__ __forceinline__ float warp_allmax(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}
__device__ __forceinline__ float warp_allsum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}
extern "C" __global__ void warp_butterfly(float *out_max, float *out_sum, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    float m = warp_allmax(i < n ? v : -INFINITY);
    float s = warp_allsum(v);
    if (i < n) {
        out_max[i] = m;
        out_sum[i] = s;
    }
}
