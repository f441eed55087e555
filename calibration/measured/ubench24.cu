// Issue 22: after a loop with a YIELD splits a warp into groups that run apart (ubench23.cu), does a shuffle that
// names lanes of both groups bring only those lanes together, or the groups whole? One warp: lanes 0-15 loop once
// and lanes 16-31 twice over a global atomic, in a kernel with a (never executed) 64-bit division. After the
// loop, mode 0: no shuffle; mode 1: lanes 0 and 16 exchange a value with __shfl_sync(0x00010001, ...); mode 2:
// every lane with __shfl_sync(0xffffffff, ...). Then a tail of 16 dependent loads through an L1-resident table.
// Each lane records clock64 before the loop (t0), after it (t1), after the shuffle point (t2) and after the tail
// (t3), less the warp's earliest t0; printed as each group's range and lanes 0 and 16.
// Build: nvcc -O3 -arch=sm_90 -o ubench24 ubench24.cu ; run: ./ubench24
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
template <int MODE>
__global__ void k(int *g, const int *iters, const int *table, unsigned long long *q, unsigned long long den,
                  long long *t, int *out) {
  int i = threadIdx.x;
  int v = g[i + 32];
  int c = iters[i];
  __syncwarp();
  long long t0 = clk();
#pragma unroll 1
  while (c != 0) {
    atomicMin(&g[i], v);
    c--;
  }
  long long t1 = clk();
  if (MODE == 1) {
    if ((i & 15) == 0) v += __shfl_sync(0x00010001u, v, i ^ 16);
  } else if (MODE == 2) {
    v += __shfl_sync(0xffffffffu, v, i ^ 16);
  }
  long long t2 = clk();
  int p = (v + i) & 255;
#pragma unroll
  for (int j = 0; j < 16; j++) p = table[p];
  v += p;
  long long t3 = clk();
  out[i] = v;
  if (den == 0x123456789ull) q[i] = q[i] / (den - (unsigned long long)v);
  t[i * 4 + 0] = t0; t[i * 4 + 1] = t1; t[i * 4 + 2] = t2; t[i * 4 + 3] = t3;
}
int main() {
  int *g, *it, *tab, *out; unsigned long long *q; long long *t;
  CHECK(cudaMalloc(&g, 64 * 4)); CHECK(cudaMalloc(&it, 32 * 4)); CHECK(cudaMalloc(&tab, 256 * 4));
  CHECK(cudaMalloc(&out, 32 * 4)); CHECK(cudaMalloc(&q, 32 * 8)); CHECK(cudaMalloc(&t, 32 * 4 * 8));
  std::vector<int> gh(64), ih(32), th(256);
  for (int i = 0; i < 64; i++) gh[i] = 1000 - i;
  for (int l = 0; l < 32; l++) ih[l] = l < 16 ? 1 : 2;
  for (int i = 0; i < 256; i++) th[i] = (i * 97 + 13) & 255;
  CHECK(cudaMemcpy(it, ih.data(), 32 * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(tab, th.data(), 256 * 4, cudaMemcpyHostToDevice));
  const char *mname[3] = {"no shuffle", "lanes 0 and 16 shuffle (mask 0x00010001)", "every lane shuffles (full mask)"};
  void (*kern[3])(int *, const int *, const int *, unsigned long long *, unsigned long long, long long *, int *) = {
      k<0>, k<1>, k<2>};
  for (int m = 0; m < 3; m++) {
    std::vector<long long> tt(128);
    for (int rep = 0; rep < 3; rep++) {
      CHECK(cudaMemcpy(g, gh.data(), 64 * 4, cudaMemcpyHostToDevice));
      kern[m]<<<1, 32>>>(g, it, tab, q, 7, t, out);
      CHECK(cudaDeviceSynchronize());
    }
    CHECK(cudaMemcpy(tt.data(), t, 128 * 8, cudaMemcpyDeviceToHost));
    long long base = tt[0];
    for (int l = 0; l < 32; l++) if (tt[l * 4] < base) base = tt[l * 4];
    printf("%s\n", mname[m]);
    for (int gr = 0; gr < 2; gr++) {
      long long lo[4], hi[4];
      for (int s = 0; s < 4; s++) { lo[s] = 1LL << 60; hi[s] = 0; }
      for (int l = gr * 16; l < gr * 16 + 16; l++)
        for (int s = 0; s < 4; s++) {
          long long x = tt[l * 4 + s] - base;
          if (x < lo[s]) lo[s] = x;
          if (x > hi[s]) hi[s] = x;
        }
      printf("  lanes %2d-%2d: t1 %lld..%lld  t2 %lld..%lld  t3 %lld..%lld\n", gr * 16, gr * 16 + 15, lo[1], hi[1],
             lo[2], hi[2], lo[3], hi[3]);
    }
    for (int l : {0, 1, 16, 17})
      printf("  lane %2d: t1 %lld t2 %lld t3 %lld\n", l, tt[l * 4 + 1] - base, tt[l * 4 + 2] - base, tt[l * 4 + 3] - base);
  }
  return 0;
}
