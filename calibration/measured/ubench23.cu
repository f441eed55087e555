// Issue 22: after a loop with a YIELD (ubench22.cu), do the lanes that left it early run the code after the loop
// apart from the others, and if so one group after the other or interleaved? One warp: lanes 0-15 loop once and
// lanes 16-31 twice over a global atomic (each lane its own word); then a tail, unrolled (no loop of its own):
// 32 dependent integer multiply-adds on a loaded value (alu), 16 dependent loads through an L1-resident table
// (load), or 8 dependent atomicAdds with their results used (atomic). The call variant differs only by a 64-bit
// division behind a condition that is false at run time. Each lane records clock64 before the loop (t0), after
// it (t1) and after the tail (t2), less the warp's earliest t0; printed per lane, then each group's range.
// Build: nvcc -O3 -arch=sm_90 -o ubench23 ubench23.cu ; run: ./ubench23
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
template <bool CALL, int TAIL>
__global__ void k(int *g, int *h, const int *iters, const int *table, unsigned long long *q, unsigned long long den,
                  long long *t, int *out) {
  int i = threadIdx.x;
  int v = g[i + 32];
  int c = iters[i];
  int m = table[i];
  __syncwarp();
  long long t0 = clk();
#pragma unroll 1
  while (c != 0) {
    atomicMin(&g[i], v);
    c--;
  }
  long long t1 = clk();
  if (TAIL == 0) {
#pragma unroll
    for (int j = 0; j < 32; j++) v = v * m + (v >> 7);
  } else if (TAIL == 1) {
    int p = (v + i) & 255;
#pragma unroll
    for (int j = 0; j < 16; j++) p = table[p];
    v += p;
  } else {
#pragma unroll
    for (int j = 0; j < 8; j++) v = atomicAdd(&h[i], v) & 0xffff;
  }
  long long t2 = clk();
  out[i] = v;
  if (CALL && den == 0x123456789ull) q[i] = q[i] / (den - (unsigned long long)v);
  t[i * 3 + 0] = t0; t[i * 3 + 1] = t1; t[i * 3 + 2] = t2;
}
int main() {
  int *g, *h, *it, *tab, *out; unsigned long long *q; long long *t;
  CHECK(cudaMalloc(&g, 64 * 4)); CHECK(cudaMalloc(&h, 32 * 4)); CHECK(cudaMalloc(&it, 32 * 4));
  CHECK(cudaMalloc(&tab, 256 * 4)); CHECK(cudaMalloc(&out, 32 * 4)); CHECK(cudaMalloc(&q, 32 * 8));
  CHECK(cudaMalloc(&t, 32 * 3 * 8));
  std::vector<int> gh(64), ih(32), th(256);
  for (int i = 0; i < 64; i++) gh[i] = 1000 - i;
  for (int l = 0; l < 32; l++) ih[l] = l < 16 ? 1 : 2;
  for (int i = 0; i < 256; i++) th[i] = (i * 97 + 13) & 255;
  CHECK(cudaMemcpy(it, ih.data(), 32 * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(tab, th.data(), 256 * 4, cudaMemcpyHostToDevice));
  const char *tname[3] = {"alu", "load", "atomic"};
  void (*kern[2][3])(int *, int *, const int *, const int *, unsigned long long *, unsigned long long, long long *,
                     int *) = {{k<false, 0>, k<false, 1>, k<false, 2>}, {k<true, 0>, k<true, 1>, k<true, 2>}};
  for (int tl = 0; tl < 3; tl++)
    for (int cl = 0; cl < 2; cl++) {
      std::vector<long long> tt(96);
      for (int rep = 0; rep < 3; rep++) {
        CHECK(cudaMemcpy(g, gh.data(), 64 * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemset(h, 0, 32 * 4));
        kern[cl][tl]<<<1, 32>>>(g, h, it, tab, q, 7, t, out);
        CHECK(cudaDeviceSynchronize());
      }
      CHECK(cudaMemcpy(tt.data(), t, 96 * 8, cudaMemcpyDeviceToHost));
      long long base = tt[0];
      for (int l = 0; l < 32; l++) if (tt[l * 3] < base) base = tt[l * 3];
      printf("tail %s, %s\n", tname[tl], cl ? "call" : "no call");
      for (int gr = 0; gr < 2; gr++) {
        long long lo[3] = {1LL << 60, 1LL << 60, 1LL << 60}, hi[3] = {0, 0, 0};
        for (int l = gr * 16; l < gr * 16 + 16; l++)
          for (int s = 0; s < 3; s++) {
            long long x = tt[l * 3 + s] - base;
            if (x < lo[s]) lo[s] = x;
            if (x > hi[s]) hi[s] = x;
          }
        printf("  lanes %2d-%2d: t0 %lld..%lld  t1 %lld..%lld  t2 %lld..%lld\n", gr * 16, gr * 16 + 15, lo[0], hi[0],
               lo[1], hi[1], lo[2], hi[2]);
      }
    }
  return 0;
}
