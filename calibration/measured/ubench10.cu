// Microbenchmark for issue 22 (fifth round): what a line's first load costs in the state `sim crosscheck` runs
// kernels in: L2 flushed (a memset of twice its size), then the buffer copied from the host, then the launch.
// One thread chases through 32 distinct lines of the buffer (4 KiB: every line; 64 KiB and 512 KiB: every 16th
// and 128th line), each load timed on its own (the shared store waits for the value, the clock is read after it),
// then the same 32 lines again; with and without the flush. Cycles per step, the first step being the SM's first
// load of the launch.
// Build: nvcc -O3 -arch=sm_90 -o ubench10 ubench10.cu ; run: ./ubench10
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define STEPS 64
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }

__global__ void k_steps(const unsigned *g, long long *cyc, unsigned *out) {
  __shared__ unsigned s[STEPS];
  unsigned p = 0;
  long long t[STEPS + 1];
  t[0] = clk();
#pragma unroll
  for (int i = 0; i < STEPS; i++) {
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(p) : "l"(g + p) : "memory");
    asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[i])), "r"(p) : "memory");
    t[i + 1] = clk();
  }
  for (int i = 0; i < STEPS; i++) cyc[i] = t[i + 1] - t[i];
  out[0] = s[STEPS - 1] + p;
}

int main() {
  int l2; CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  unsigned char *flush; CHECK(cudaMalloc(&flush, 2 * (size_t)l2));
  unsigned *dout; long long *dcyc;
  CHECK(cudaMalloc(&dout, 64 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcyc, STEPS * sizeof(long long)));
  const size_t sizes[] = {4096, 65536, 524288};
  for (int f = 1; f >= 0; f--)
    for (size_t bytes : sizes) {
      const size_t words = bytes / 4, stride = words / 32;  // 32 lines, evenly spread
      std::vector<unsigned> h(words, 0);
      for (int i = 0; i < 32; i++) h[i * stride] = ((i + 1) % 32) * stride;  // line i -> line i + 1, then back to 0
      double first = 0, second = 0, n = 0;
      for (int rep = 0; rep < 4; rep++) {
        unsigned *dg; CHECK(cudaMalloc(&dg, bytes));
        if (f) CHECK(cudaMemset(flush, rep, 2 * (size_t)l2));
        CHECK(cudaMemcpy(dg, h.data(), bytes, cudaMemcpyHostToDevice));
        k_steps<<<1, 1>>>(dg, dcyc, dout);
        CHECK(cudaDeviceSynchronize());
        long long c[STEPS]; CHECK(cudaMemcpy(c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
        printf("%s, %zu-byte buffer, copy %d: first pass", f ? "flushed" : "no flush", bytes, rep);
        for (int i = 0; i < 32; i++) printf(" %lld", c[i]);
        printf(" | second pass");
        for (int i = 32; i < STEPS; i++) printf(" %lld", c[i]);
        printf("\n");
        for (int i = 1; i < 32; i++) first += c[i];
        for (int i = 32; i < STEPS; i++) second += c[i];
        n += 1;
        CHECK(cudaFree(dg));
      }
      printf("%s, %zu-byte buffer: mean first touch (steps 1-31) %.1f, second pass %.1f cycles\n", f ? "flushed" : "no flush", bytes, first / (31 * n), second / (32 * n));
    }
  return 0;
}
