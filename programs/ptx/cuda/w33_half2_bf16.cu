// Packed half2 arithmetic and bfloat16 conversions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void half2_bf16(__half2 *y, const __half2 *x, __nv_bfloat16 *z, const float *f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 a = x[i];
    __half2 b = y[i];
    __half2 r = __hfma2(a, b, __float2half2_rn(1.0f));
    r = __hmul2(r, __hadd2(a, b));
    y[i] = __hmax2(r, __float2half2_rn(0.0f));
    __nv_bfloat16 h = __float2bfloat16(f[i]);
    z[i] = __hadd(h, __float2bfloat16(__low2float(r)));
}
