// Issue 22: what ptxas's YIELD costs a diverged warp. ptxas 13.5 puts a YIELD in a loop whose body has an atomic
// (or a volatile load) when the kernel also calls a subroutine after it (a 64-bit division, an IEEE f32/f64
// division or square root), or when the loop leaves on the atomic's result: docs/timing.md. Here one warp runs a loop of `iters[lane]` global atomics (each lane its own
// word), with its result unused (a RED) or
// used, then a tail of 48 dependent integer multiply-adds, then __syncwarp() and the same tail again. The call
// variant differs only by a 64-bit division guarded by a condition that is false at run time (it never runs).
// Each lane records clock64 after the loop (t1), after the first tail (t2) and after the second (t3), less the
// warp's start. Patterns of iterations: uniform 2; lane % 4; lanes 0-6 one and the rest three; lane (0..31).
// The loop is kept rolled (#pragma unroll 1), as in random program 414.
// Build: nvcc -O3 -arch=sm_90 -o ubench22 ubench22.cu ; run: ./ubench22
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
__device__ __forceinline__ int tail(int v) {
#pragma unroll
  for (int j = 0; j < 48; j++) v = v * 3 + j;
  return v;
}
template <bool CALL, bool SHARED, bool RET>
__global__ void k(int *g, const int *iters, unsigned long long *q, unsigned long long den, long long *t, int *out) {
  __shared__ int s[32];
  int i = threadIdx.x;
  if (SHARED) s[i] = g[i];
  __syncwarp();
  int v = g[i + 32];
  int c = iters[i];
  long long t0 = clk();
#pragma unroll 1
  while (c != 0) {
    int r = SHARED ? atomicMin(&s[i], v) : atomicMin(&g[i], v);
    if (RET) v += r & 1;
    c--;
  }
  long long t1 = clk();
  v = tail(v);
  long long t2 = clk();
  __syncwarp();
  v = tail(v);
  long long t3 = clk();
  out[i] = v;
  if (CALL && den == 0x123456789ull) q[i] = q[i] / (den - (unsigned long long)v);
  t[i * 4 + 0] = t0; t[i * 4 + 1] = t1; t[i * 4 + 2] = t2; t[i * 4 + 3] = t3;
}
int main() {
  int *g, *it, *out; unsigned long long *q; long long *t;
  CHECK(cudaMalloc(&g, 64 * 4)); CHECK(cudaMalloc(&it, 32 * 4)); CHECK(cudaMalloc(&out, 32 * 4));
  CHECK(cudaMalloc(&q, 32 * 8)); CHECK(cudaMalloc(&t, 32 * 4 * 8));
  std::vector<int> gh(64); for (int i = 0; i < 64; i++) gh[i] = 1000 - i;
  const char *pname[4] = {"uniform 2", "lane % 4", "lanes 0-6 one, rest three", "lane"};
  const char *kname[6] = {"global, result unused, no call", "global, result unused, call",
                          "global, result used, no call", "global, result used, call",
                          "shared, result used, no call", "shared, result used, call"};
  void (*kern[6])(int *, const int *, unsigned long long *, unsigned long long, long long *, int *) = {
      k<false, false, false>, k<true, false, false>, k<false, false, true>, k<true, false, true>,
      k<false, true, true>, k<true, true, true>};
  for (int p = 0; p < 4; p++) {
    std::vector<int> ih(32);
    for (int l = 0; l < 32; l++) ih[l] = p == 0 ? 2 : p == 1 ? l % 4 : p == 2 ? (l < 7 ? 1 : 3) : l;
    CHECK(cudaMemcpy(it, ih.data(), 32 * 4, cudaMemcpyHostToDevice));
    for (int kk = 0; kk < 6; kk++) {
      std::vector<long long> th(128);
      for (int rep = 0; rep < 3; rep++) {
        CHECK(cudaMemcpy(g, gh.data(), 64 * 4, cudaMemcpyHostToDevice));
        kern[kk]<<<1, 32>>>(g, it, q, 7, t, out);
        CHECK(cudaDeviceSynchronize());
      }
      CHECK(cudaMemcpy(th.data(), t, 128 * 8, cudaMemcpyDeviceToHost));
      long long base = th[0];
      for (int l = 0; l < 32; l++) if (th[l * 4] < base) base = th[l * 4];
      printf("%s | %s\n  lane: t0 t1 t2 t3\n", pname[p], kname[kk]);
      for (int l = 0; l < 32; l++)
        printf("  %2d(%2d): %5lld %5lld %5lld %5lld\n", l, ih[l], th[l * 4] - base, th[l * 4 + 1] - base,
               th[l * 4 + 2] - base, th[l * 4 + 3] - base);
    }
  }
  return 0;
}
