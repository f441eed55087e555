// 16-bit floats as ML kernels use them: a half AXPY whose multiply and add ptxas fuses, a half2 dot product reduced
// with warp shuffles and accumulated in float (a sum a warp), a bf16 round trip and a bf16 scaled sum, half comparisons and
// min/max/abs/neg, and a half2 bias-and-ReLU.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void haxpy_arrays(__half *y, const __half *x, const __half *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a[i] * x[i] + y[i];
}

extern "C" __global__ void half2_dot(float *out, const __half2 *a, const __half2 *b, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 p = i < n2 ? __hmul2(a[i], b[i]) : __float2half2_rn(0.0f);
  float s = __low2float(p) + __high2float(p);
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffff, s, off);
  if ((threadIdx.x & 31) == 0) out[i >> 5] = s;
}

extern "C" __global__ void bf16_round_trip(float *out, __nv_bfloat16 *z, const float *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16 h = __float2bfloat16(f[i]);
    z[i] = __hmul(h, __float2bfloat16(0.75f)) + h;
    out[i] = __bfloat162float(z[i]) - f[i];
  }
}

extern "C" __global__ void half_compare(__half *mx, __half *mn, int *gt, __half *mag, const __half *a, const __half *b,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half x = a[i], y = b[i];
    mx[i] = __hmax(x, y);
    mn[i] = __hmin(x, y);
    gt[i] = (__hgt(x, y) ? 1 : 0) | (__hle(x, y) ? 2 : 0) | (__heq(x, y) ? 4 : 0);
    mag[i] = __hneg(__habs(__hsub(x, y)));
  }
}

extern "C" __global__ void bias_relu2(__half2 *out, const __half2 *in, const __half2 *bias, int cols2, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) out[i] = __hmax2(__hadd2(in[i], bias[i % cols2]), __float2half2_rn(0.0f));
}
