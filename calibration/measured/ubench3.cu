// Extra microbenchmarks for warpsim's calibration: global-memory levels and more functional units.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#define N_ITER 4096
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

// pointer chase by lane 0 only; `cg` bypasses L1
__global__ void k_chase_cg(const unsigned *g, unsigned *out, long long *cyc, int n) {
  unsigned p = 0;
  for (int i = 0; i < n; i++) p = __ldcg(&g[p]);  // warm
  long long t0 = clock64();
  for (int i = 0; i < n; i++) p = __ldcg(&g[p]);
  long long t1 = clock64();
  out[0] = p; cyc[0] = t1 - t0;
}
__global__ void k_chase_ca(const unsigned *g, unsigned *out, long long *cyc, int n) {
  unsigned p = 0;
  long long t0 = clock64();
  for (int i = 0; i < n; i++) p = g[p];
  long long t1 = clock64();
  out[0] = p; cyc[0] = t1 - t0;
}
__global__ void k_fmul(float *out, long long *cyc, float d) {
  float v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) v = v * d;
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_ffma(float *out, long long *cyc, float d) {
  float v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) v = __fmaf_rn(v, d, d);
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_imad(int *out, long long *cyc, int d) {
  int v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) v = v * d + d;
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_iadd(int *out, long long *cyc, int d) {
  int v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) { v = v + d; asm volatile("" : "+r"(v)); }
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_xor(int *out, long long *cyc, int d) {
  int v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) { v = v ^ d; asm volatile("" : "+r"(v)); }
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_fmax(float *out, long long *cyc, float d) {
  float v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) { v = fmaxf(v, d); d = -d; }
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_cvt(float *out, long long *cyc) {
  float v = threadIdx.x; long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < N_ITER; i++) v = (float)(int)v;
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_fdiv(float *out, long long *cyc, float d) {
  float v = threadIdx.x + 1; long long t0 = clock64();
  for (int i = 0; i < 256; i++) v = __fdiv_rn(v, d);
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_idiv(unsigned *out, long long *cyc, unsigned d) {
  unsigned v = threadIdx.x + 1000000; long long t0 = clock64();
  for (int i = 0; i < 256; i++) v = v / d + 1000000;
  long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_gstore(int *g, long long *cyc) {
  long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < 1024; i++) g[threadIdx.x + 32 * (i & 7)] = i;
  long long t1 = clock64(); if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
__global__ void k_sstore(int *out, long long *cyc) {
  __shared__ int s[256];
  long long t0 = clock64();
  #pragma unroll 16
  for (int i = 0; i < 1024; i++) s[threadIdx.x + 32 * (i & 7)] = i;
  long long t1 = clock64(); __syncthreads(); out[threadIdx.x] = s[threadIdx.x]; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  cudaDeviceProp prop; CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s sm_%d%d SMs %d L2 %d\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize);
  size_t big = (size_t)1 << 30;  // 1 GiB, far beyond L2
  unsigned *g; unsigned *out; long long *cyc; float *fo;
  CHECK(cudaMalloc(&g, big)); CHECK(cudaMalloc(&out, 4096)); CHECK(cudaMalloc(&cyc, 64)); CHECK(cudaMalloc(&fo, 4096));
  size_t words = big / 4;
  unsigned *h = (unsigned *)malloc(big);
  long long hc;
  auto rd = [&]() { cudaDeviceSynchronize(); cudaMemcpy(&hc, cyc, 8, cudaMemcpyDeviceToHost); return hc; };
  // chase 1: 4 MiB footprint (fits L2, not L1), lines 128 B apart, pseudo-random order
  for (int pass = 0; pass < 2; pass++) {
    size_t span = pass == 0 ? (4u << 20) / 4 : words;   // words
    size_t lines = span / 32;
    // a permutation of lines: multiplicative stepping with an odd step
    size_t step = pass == 0 ? 7919 : 1000003;
    size_t cur = 0;
    for (size_t k = 0; k < lines; k++) { size_t nxt = (cur + step) % lines; h[cur * 32] = (unsigned)(nxt * 32); cur = nxt; }
    CHECK(cudaMemcpy(g, h, span * 4, cudaMemcpyHostToDevice));
    int n = 1024;
    k_chase_cg<<<1, 1>>>(g, out, cyc, n); printf("global chase %s, ld.cg (L1 bypass): %.2f cycles/load\n", pass == 0 ? "4 MiB" : "1 GiB", rd() / (double)n);
    k_chase_ca<<<1, 1>>>(g, out, cyc, n); printf("global chase %s, default load, first touch: %.2f cycles/load\n", pass == 0 ? "4 MiB" : "1 GiB", rd() / (double)n);
  }
  for (int rep = 0; rep < 2; rep++) {
    printf("--- rep %d\n", rep);
    k_fmul<<<1, 32>>>(fo, cyc, 1.0001f); printf("fmul dependent chain: %.2f\n", rd() / (double)N_ITER);
    k_ffma<<<1, 32>>>(fo, cyc, 1.0001f); printf("ffma dependent chain: %.2f\n", rd() / (double)N_ITER);
    k_imad<<<1, 32>>>((int *)out, cyc, 3); printf("imad dependent chain: %.2f\n", rd() / (double)N_ITER);
    k_iadd<<<1, 32>>>((int *)out, cyc, 3); printf("iadd dependent chain: %.2f\n", rd() / (double)N_ITER);
    k_xor<<<1, 32>>>((int *)out, cyc, 3); printf("xor dependent chain: %.2f\n", rd() / (double)N_ITER);
    k_fmax<<<1, 32>>>(fo, cyc, 3.0f); printf("fmax dependent chain: %.2f\n", rd() / (double)N_ITER);
    k_cvt<<<1, 32>>>(fo, cyc); printf("f2i+i2f dependent pair: %.2f\n", rd() / (double)N_ITER);
    k_fdiv<<<1, 32>>>(fo, cyc, 1.0001f); printf("fdiv.rn dependent chain: %.2f\n", rd() / 256.0);
    k_idiv<<<1, 32>>>(out, cyc, 7); printf("u32 div dependent chain: %.2f\n", rd() / 256.0);
    k_gstore<<<1, 32>>>((int *)g, cyc); printf("global store, 1 warp, independent: %.2f\n", rd() / 1024.0);
    k_sstore<<<1, 32>>>((int *)out, cyc); printf("shared store, 1 warp, independent: %.2f\n", rd() / 1024.0);
  }
  CHECK(cudaGetLastError());
  return 0;
}
