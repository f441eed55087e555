// Microbenchmark for issue 22 (sixth round): loops whose trip count differs between the lanes of a warp, with a
// body that calls the 64-bit division subroutine (inline `div.s64`, as the emitted CUDA writes it) or a body of 16
// dependent IMADs. A random program's nested loops with lane-dependent counts took three times as long on the
// GPU as the same loops with a uniform count (crosscheck cut r5618_c033 against v_uni, docs/timing.md).
// mode 0: every lane 3 x 3 iterations; 1: odd lanes 3 x 3, even lanes none; 2: odd lanes 3 x 3, even lanes 3 x 1;
// 3: lane k runs (k % 4) x 3 iterations. Cycles per launch (one warp).
// Build: nvcc -O3 -arch=sm_90 -o ubench11 ubench11.cu ; run: ./ubench11
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
#define MADS4 "mad.lo.u32 %0, %0, 3, %1;\n\tmad.lo.u32 %0, %0, 5, %1;\n\tmad.lo.u32 %0, %0, 7, %1;\n\tmad.lo.u32 %0, %0, 9, %1;\n\t"

template <bool DIV>
__global__ void k_loops(unsigned long long *out, long long *cyc, unsigned mode, unsigned y) {
  unsigned lane = threadIdx.x & 31;
  unsigned outer = mode == 0 ? 3 : mode == 1 ? ((lane & 1) ? 3 : 0) : mode == 2 ? 3 : lane % 4;
  unsigned inner_odd = 3, inner_even = mode == 2 ? 1 : 3;
  unsigned long long w = 0; unsigned x = lane;
  long long t0 = clk();
  for (unsigned c0 = outer; c0 != 0; c0--) {
    unsigned c1 = (lane & 1) ? inner_odd : inner_even;
    for (; c1 != 0; c1--) {
      if (DIV) { unsigned long long r; asm("div.s64 %0, %1, %2;" : "=l"(r) : "l"(0x8000000000000000ull ^ w), "l"(15ull)); w = r & 1; }
      else asm volatile(MADS4 MADS4 MADS4 MADS4 : "+r"(x) : "r"(y));
    }
  }
  long long t1 = clk();
  out[threadIdx.x] = w + x;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  unsigned long long *dq; long long *dcyc, c;
  CHECK(cudaMalloc(&dq, 1024 * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  const char *modes[] = {"every lane 3 x 3", "odd lanes 3 x 3, even none", "odd lanes 3 x 3, even 3 x 1", "lane k (k % 4) x 3"};
  for (int rep = 0; rep < 2; rep++)
    for (int div = 1; div >= 0; div--)
      for (unsigned m = 0; m < 4; m++) {
        if (div) k_loops<true><<<1, 32>>>(dq, dcyc, m, 1); else k_loops<false><<<1, 32>>>(dq, dcyc, m, 1);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
        printf("%s body, %s: %lld cycles\n", div ? "div.s64" : "16 IMAD", modes[m], c);
      }
  return 0;
}
