// Dependent chains of reciprocals, divisions and square roots, rounded to nearest and towards zero: `v = op(v) + 1`
// (divisions `1.5 / v`), 256 a warp, one warp, unrolled 4 times as ubench-f64.cu's chains are. Per operation: the
// chain's cycles / 256, the add's latency included. `rcp.rn` is what nvcc makes of `1.0f / x` and `1.0 / x`.
// Build: nvcc -O3 -arch=sm_90 -o ubench34 ubench34.cu ; run: ./ubench34
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define CHAIN(NAME, T, EXPR) \
  __global__ void NAME(T *out, long long *cyc) { \
    T v = threadIdx.x + 2; long long t0 = clock64(); \
    _Pragma("unroll 4") for (int i = 0; i < 256; i++) v = EXPR; \
    long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0; }
CHAIN(k_frcp_rn, float, __frcp_rn(v) + 1.0f)
CHAIN(k_fdiv_rn, float, __fdiv_rn(1.5f, v) + 1.0f)
CHAIN(k_frcp_rz, float, __frcp_rz(v) + 1.0f)
CHAIN(k_fdiv_rz, float, __fdiv_rz(1.5f, v) + 1.0f)
CHAIN(k_fsqrt_rn, float, __fsqrt_rn(v) + 1.0f)
CHAIN(k_fsqrt_rz, float, __fsqrt_rz(v) + 1.0f)
CHAIN(k_drcp_rn, double, __drcp_rn(v) + 1.0)
CHAIN(k_ddiv_rn, double, __ddiv_rn(1.5, v) + 1.0)
CHAIN(k_drcp_rz, double, __drcp_rz(v) + 1.0)
CHAIN(k_ddiv_rz, double, __ddiv_rz(1.5, v) + 1.0)
CHAIN(k_dsqrt_rn, double, __dsqrt_rn(v) + 1.0)
CHAIN(k_dsqrt_rz, double, __dsqrt_rz(v) + 1.0)
int main() {
  float *fo; double *dout; long long *cyc, h;
  CHECK(cudaMalloc(&fo, 32 * 4)); CHECK(cudaMalloc(&dout, 32 * 8)); CHECK(cudaMalloc(&cyc, 8));
#define RUN(K, O, NAME) for (int pass = 0; pass < 2; pass++) { K<<<1, 32>>>(O, cyc); CHECK(cudaDeviceSynchronize()); \
    CHECK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost)); if (pass) printf("%-40s %.2f cycles\n", NAME, h / 256.0); }
  RUN(k_frcp_rn, fo, "rcp.rn.f32 + add chain")
  RUN(k_fdiv_rn, fo, "div.rn.f32 (1.5 / v) + add chain")
  RUN(k_frcp_rz, fo, "rcp.rz.f32 + add chain")
  RUN(k_fdiv_rz, fo, "div.rz.f32 (1.5 / v) + add chain")
  RUN(k_fsqrt_rn, fo, "sqrt.rn.f32 + add chain")
  RUN(k_fsqrt_rz, fo, "sqrt.rz.f32 + add chain")
  RUN(k_drcp_rn, dout, "rcp.rn.f64 + add chain")
  RUN(k_ddiv_rn, dout, "div.rn.f64 (1.5 / v) + add chain")
  RUN(k_drcp_rz, dout, "rcp.rz.f64 + add chain")
  RUN(k_ddiv_rz, dout, "div.rz.f64 (1.5 / v) + add chain")
  RUN(k_dsqrt_rn, dout, "sqrt.rn.f64 + add chain")
  RUN(k_dsqrt_rz, dout, "sqrt.rz.f64 + add chain")
  return 0;
}
