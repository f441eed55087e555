// Vectorized copy-scale with float4 loads/stores and a scalar tail.
extern "C" __global__ void scale_vec4(float *out, const float *__restrict__ in, float alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n4 = n / 4;
    if (i < n4) {
        float4 v = reinterpret_cast<const float4 *>(in)[i];
        v.x *= alpha; v.y *= alpha; v.z *= alpha; v.w *= alpha;
        reinterpret_cast<float4 *>(out)[i] = v;
    }
    if (i == 0)
        for (int k = n4 * 4; k < n; ++k)
            out[k] = alpha * in[k];
}
