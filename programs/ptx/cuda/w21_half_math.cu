// Half-precision AXPY and a fp16 -> fp32 accumulation (16-bit registers).
#include <cuda_fp16.h>
extern "C" __global__ void haxpy(__half *y, const __half *x, __half a, float *sum32, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half r = __hfma(a, x[i], y[i]);
        y[i] = r;
        atomicAdd(sum32, __half2float(r));
    }
}
