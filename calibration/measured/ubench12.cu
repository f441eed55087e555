// Microbenchmark for issue 22 (seventh round): ubench11.cu's loops, now with lanes leaving from inside the inner
// loop (`if (lane & 8) goto done;`, as the emitted CUDA writes a random program's `@%q exit`). mode 0: every lane
// 3 x 3 iterations; 1: odd lanes 3 x 3, even lanes 3 x 1; 2: lane k (k % 4) x 3; `leave` 0: no lane leaves, 1: the
// lanes with bit 3 set leave at their first inner iteration. Cycles of lane 0 (which never leaves).
// Build: nvcc -O3 -arch=sm_90 -o ubench12 ubench12.cu ; run: ./ubench12
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
#define MADS4 "mad.lo.u32 %0, %0, 3, %1;\n\tmad.lo.u32 %0, %0, 5, %1;\n\tmad.lo.u32 %0, %0, 7, %1;\n\tmad.lo.u32 %0, %0, 9, %1;\n\t"

template <bool DIV>
__global__ void k_loops(unsigned long long *out, long long *cyc, unsigned mode, unsigned leave, unsigned y) {
  unsigned lane = threadIdx.x & 31;
  unsigned outer = mode == 2 ? lane % 4 : 3;
  unsigned inner = mode == 1 && !(lane & 1) ? 1 : 3;
  unsigned long long w = 0; unsigned x = lane;
  long long t0 = clk();
  for (unsigned c0 = outer; c0 != 0; c0--) {
    for (unsigned c1 = inner; c1 != 0; c1--) {
      if (DIV) { unsigned long long r; asm("div.s64 %0, %1, %2;" : "=l"(r) : "l"(0x8000000000000000ull ^ w), "l"(15ull)); w = r & 1; }
      else asm volatile(MADS4 MADS4 MADS4 MADS4 : "+r"(x) : "r"(y));
      if (leave && (lane & 8)) goto done;
    }
  }
  out[threadIdx.x] = w + x;
done:
  long long t1 = clk();
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  unsigned long long *dq; long long *dcyc, c;
  CHECK(cudaMalloc(&dq, 1024 * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  const char *modes[] = {"every lane 3 x 3", "odd lanes 3 x 3, even 3 x 1", "lane k (k % 4) x 3"};
  for (int rep = 0; rep < 2; rep++)
    for (int div = 1; div >= 0; div--)
      for (unsigned leave = 0; leave < 2; leave++)
        for (unsigned m = 0; m < 3; m++) {
          if (div) k_loops<true><<<1, 32>>>(dq, dcyc, m, leave, 1); else k_loops<false><<<1, 32>>>(dq, dcyc, m, leave, 1);
          CHECK(cudaDeviceSynchronize());
          CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
          printf("%s body, %s, %s: %lld cycles\n", div ? "div.s64" : "16 IMAD", modes[m], leave ? "lanes with bit 3 leave" : "no lane leaves", c);
        }
  return 0;
}
