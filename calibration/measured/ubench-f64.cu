// Microbenchmarks for warpsim's FP64 timing classes (`fp64`, `fp64_div`) and 64-bit integer arithmetic: one warp,
// dependent chains (latency) and 8 independent chains (the pipe's issue interval), timed with clock64().
// Build and run: nvcc -O3 -arch=sm_90 ubench-f64.cu -o ubench-f64 && ./ubench-f64
#include <cstdio>
#include <cuda_runtime.h>
#define N_ITER 4096
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

__global__ void k_dfma(double *out, long long *cyc, double d) {
  double v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) v = __fma_rn(v, d, d);
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_dadd(double *out, long long *cyc, double d) {
  double v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) v = __dadd_rn(v, d);
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_dfma8(double *out, long long *cyc, double d) {
  double v0 = threadIdx.x, v1 = v0 + 1, v2 = v0 + 2, v3 = v0 + 3, v4 = v0 + 4, v5 = v0 + 5, v6 = v0 + 6, v7 = v0 + 7;
  long long t0 = clock64();
  #pragma unroll 4
  for (int i = 0; i < N_ITER; i++) {
    v0 = __fma_rn(v0, d, d); v1 = __fma_rn(v1, d, d); v2 = __fma_rn(v2, d, d); v3 = __fma_rn(v3, d, d);
    v4 = __fma_rn(v4, d, d); v5 = __fma_rn(v5, d, d); v6 = __fma_rn(v6, d, d); v7 = __fma_rn(v7, d, d);
  }
  long long t1 = clock64();
  out[threadIdx.x] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_ddiv(double *out, long long *cyc, double d) {
  double v = threadIdx.x + 1; long long t0 = clock64();
  #pragma unroll 4
  for (int i = 0; i < N_ITER / 16; i++) v = __ddiv_rn(d, v) + 1.0;
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_dsqrt(double *out, long long *cyc, double d) {
  double v = threadIdx.x + 2; long long t0 = clock64();
  #pragma unroll 4
  for (int i = 0; i < N_ITER / 16; i++) v = __dsqrt_rn(v) + d;
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_iadd64(unsigned long long *out, long long *cyc, unsigned long long d) {
  unsigned long long v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) { v = v + d; asm volatile("" : "+l"(v)); }
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  double *dout; unsigned long long *uout; long long *cyc, h;
  CHECK(cudaMalloc(&dout, 32 * sizeof(double))); CHECK(cudaMalloc(&uout, 32 * 8)); CHECK(cudaMalloc(&cyc, 8));
  cudaDeviceProp p; CHECK(cudaGetDeviceProperties(&p, 0));
  printf("%s (sm_%d%d)\n", p.name, p.major, p.minor);
  for (int rep = 0; rep < 2; rep++) {
    k_dfma<<<1, 32>>>(dout, cyc, 1.0000001); CHECK(cudaDeviceSynchronize()); CHECK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost));
    printf("dfma dependent chain: %.2f cycles\n", (double)h / N_ITER);
    k_dadd<<<1, 32>>>(dout, cyc, 1.0000001); CHECK(cudaDeviceSynchronize()); CHECK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost));
    printf("dadd dependent chain: %.2f cycles\n", (double)h / N_ITER);
    k_dfma8<<<1, 32>>>(dout, cyc, 1.0000001); CHECK(cudaDeviceSynchronize()); CHECK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost));
    printf("dfma 8 independent chains, 1 warp: %.2f cycles per dfma\n", (double)h / (8.0 * N_ITER));
    k_ddiv<<<1, 32>>>(dout, cyc, 3.0); CHECK(cudaDeviceSynchronize()); CHECK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost));
    printf("ddiv.rn + dadd dependent chain: %.2f cycles\n", (double)h / (N_ITER / 16));
    k_dsqrt<<<1, 32>>>(dout, cyc, 1.5); CHECK(cudaDeviceSynchronize()); CHECK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost));
    printf("dsqrt.rn + dadd dependent chain: %.2f cycles\n", (double)h / (N_ITER / 16));
    k_iadd64<<<1, 32>>>(uout, cyc, 3); CHECK(cudaDeviceSynchronize()); CHECK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost));
    printf("add.u64 dependent chain: %.2f cycles\n", (double)h / N_ITER);
  }
  return 0;
}
