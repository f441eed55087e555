// The special-function unit's approximations (one MUFU each; the forms without .ftz with the instructions ptxas
// puts around it): dependent chains `v = op(v) + c`, 256 a warp, one warp, unrolled 4 times as ubench34.cu's; and
// sin.approx and cos.approx (FMUL.RZ by 1/(2 pi), then the MUFU; added 2026-11-29 with a second run); the MUFU's
// issue interval, eight independent rcp.approx.ftz.f32 + add chains in one warp and in four warps of a block.
// Per operation: the chain's cycles / 256, the add's latency included.
// Build: nvcc -O3 -arch=sm_90 -o ubench35 ubench35.cu ; run: ./ubench35
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define F1(NAME, INS) __device__ __forceinline__ float NAME(float x) { float y; asm volatile(INS " %0, %1;" : "=f"(y) : "f"(x)); return y; }
#define F2(NAME, INS) __device__ __forceinline__ float NAME(float a, float b) { float y; asm volatile(INS " %0, %1, %2;" : "=f"(y) : "f"(a), "f"(b)); return y; }
#define D1(NAME, INS) __device__ __forceinline__ double NAME(double x) { double y; asm volatile(INS " %0, %1;" : "=d"(y) : "d"(x)); return y; }
F1(rcp_ftz, "rcp.approx.ftz.f32") F1(rcp_a, "rcp.approx.f32")
F1(rsq_ftz, "rsqrt.approx.ftz.f32") F1(rsq_a, "rsqrt.approx.f32")
F1(sqrt_ftz, "sqrt.approx.ftz.f32") F1(sqrt_a, "sqrt.approx.f32")
F1(ex2_ftz, "ex2.approx.ftz.f32") F1(ex2_a, "ex2.approx.f32")
F1(lg2_ftz, "lg2.approx.ftz.f32") F1(lg2_a, "lg2.approx.f32")
F2(div_ftz, "div.approx.ftz.f32") F2(div_a, "div.approx.f32") F2(div_full, "div.full.f32") F2(div_full_ftz, "div.full.ftz.f32")
F1(sin_a, "sin.approx.f32") F1(cos_a, "cos.approx.ftz.f32")
D1(rcp64, "rcp.approx.ftz.f64") D1(rsq64, "rsqrt.approx.ftz.f64")
#define CHAIN(NAME, T, EXPR) \
  __global__ void NAME(T *out, long long *cyc) { \
    T v = threadIdx.x + 2; long long t0 = clock64(); \
    _Pragma("unroll 4") for (int i = 0; i < 256; i++) v = EXPR; \
    long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0; }
CHAIN(k_rcp_ftz, float, rcp_ftz(v) + 1.0f)
CHAIN(k_rcp, float, rcp_a(v) + 1.0f)
CHAIN(k_rsq_ftz, float, rsq_ftz(v) + 1.0f)
CHAIN(k_rsq, float, rsq_a(v) + 1.0f)
CHAIN(k_sqrt_ftz, float, sqrt_ftz(v) + 1.0f)
CHAIN(k_sqrt, float, sqrt_a(v) + 1.0f)
CHAIN(k_ex2_ftz, float, ex2_ftz(v) + -1.5f)
CHAIN(k_ex2, float, ex2_a(v) + -1.5f)
CHAIN(k_lg2_ftz, float, lg2_ftz(v) + 2.0f)
CHAIN(k_lg2, float, lg2_a(v) + 2.0f)
CHAIN(k_div_ftz, float, div_ftz(1.5f, v) + 1.0f)
CHAIN(k_div, float, div_a(1.5f, v) + 1.0f)
CHAIN(k_div_full, float, div_full(1.5f, v) + 1.0f)
CHAIN(k_div_full_ftz, float, div_full_ftz(1.5f, v) + 1.0f)
CHAIN(k_sin, float, sin_a(v) + 1.0f)
CHAIN(k_cos, float, cos_a(v) + 1.0f)
CHAIN(k_rcp64, double, rcp64(v) + 1.0)
CHAIN(k_rsq64, double, rsq64(v) + 1.0)
// Eight independent chains `v = rcp.approx.ftz(v) + 1` in each warp: 256 steps of each, 2048 MUFUs a warp.
__global__ void k_rcp_tput(float *out, long long *cyc) {
  float v0 = threadIdx.x + 2, v1 = v0 + 1, v2 = v0 + 2, v3 = v0 + 3, v4 = v0 + 4, v5 = v0 + 5, v6 = v0 + 6, v7 = v0 + 7;
  long long t0 = clock64();
#pragma unroll 2
  for (int i = 0; i < 256; i++) {
    v0 = rcp_ftz(v0) + 1.0f; v1 = rcp_ftz(v1) + 1.0f; v2 = rcp_ftz(v2) + 1.0f; v3 = rcp_ftz(v3) + 1.0f;
    v4 = rcp_ftz(v4) + 1.0f; v5 = rcp_ftz(v5) + 1.0f; v6 = rcp_ftz(v6) + 1.0f; v7 = rcp_ftz(v7) + 1.0f;
  }
  long long t1 = clock64();
  out[threadIdx.x] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7;
  if (threadIdx.x % 32 == 0) cyc[threadIdx.x / 32] = t1 - t0;
}
int main() {
  float *fo; double *dout; long long *cyc, h[4];
  CHECK(cudaMalloc(&fo, 128 * 4)); CHECK(cudaMalloc(&dout, 32 * 8)); CHECK(cudaMalloc(&cyc, 32));
#define RUN(K, O, NAME) for (int pass = 0; pass < 2; pass++) { K<<<1, 32>>>(O, cyc); CHECK(cudaDeviceSynchronize()); \
    CHECK(cudaMemcpy(h, cyc, 8, cudaMemcpyDeviceToHost)); if (pass) printf("%-40s %.2f cycles\n", NAME, h[0] / 256.0); }
  RUN(k_rcp_ftz, fo, "rcp.approx.ftz.f32 + add chain")
  RUN(k_rcp, fo, "rcp.approx.f32 + add chain")
  RUN(k_rsq_ftz, fo, "rsqrt.approx.ftz.f32 + add chain")
  RUN(k_rsq, fo, "rsqrt.approx.f32 + add chain")
  RUN(k_sqrt_ftz, fo, "sqrt.approx.ftz.f32 + add chain")
  RUN(k_sqrt, fo, "sqrt.approx.f32 + add chain")
  RUN(k_ex2_ftz, fo, "ex2.approx.ftz.f32 + add chain")
  RUN(k_ex2, fo, "ex2.approx.f32 + add chain")
  RUN(k_lg2_ftz, fo, "lg2.approx.ftz.f32 + add chain")
  RUN(k_lg2, fo, "lg2.approx.f32 + add chain")
  RUN(k_div_ftz, fo, "div.approx.ftz.f32 (1.5 / v) + add chain")
  RUN(k_div, fo, "div.approx.f32 (1.5 / v) + add chain")
  RUN(k_div_full, fo, "div.full.f32 (1.5 / v) + add chain")
  RUN(k_div_full_ftz, fo, "div.full.ftz.f32 (1.5 / v) + add chain")
  RUN(k_sin, fo, "sin.approx.f32 + add chain")
  RUN(k_cos, fo, "cos.approx.ftz.f32 + add chain")
  RUN(k_rcp64, dout, "rcp.approx.ftz.f64 + add chain")
  RUN(k_rsq64, dout, "rsqrt.approx.ftz.f64 + add chain")
  for (int warps = 1; warps <= 4; warps *= 4)
    for (int pass = 0; pass < 2; pass++) {
      k_rcp_tput<<<1, 32 * warps>>>(fo, cyc); CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(h, cyc, 8 * warps, cudaMemcpyDeviceToHost));
      if (pass) for (int w = 0; w < warps; w++)
        printf("8 independent rcp.approx.ftz.f32 + add chains, %d warp(s), warp %d: %.2f cycles a MUFU\n", warps, w, h[w] / 2048.0);
    }
  return 0;
}
