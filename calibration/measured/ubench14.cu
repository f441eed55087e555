// Microbenchmark for issue 22 (ninth round): does a global store or atomic to a line in L1 make the next load of
// that line miss? One thread: a load of word 0 (fills L1), then (mode 0) nothing, (1) a store to word 1 of the same
// line, (2) atomicAdd on word 1, (3) a store to another line, (4) a store to word 0 itself; then the timed load of
// word 0 (its value used at once). Cycles of the timed load, 5 repetitions on fresh lines.
// Build: nvcc -O3 -arch=sm_90 -o ubench14 ubench14.cu ; run: ./ubench14
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }

__global__ void k_after(unsigned *g, long long *cyc, unsigned *out, unsigned mode, unsigned line) {
  __shared__ unsigned s[4];
  unsigned *p = g + line * 32;
  unsigned v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[0])), "r"(v) : "memory");
  if (mode == 1) asm volatile("st.global.u32 [%0], %1;" :: "l"(p + 1), "r"(v) : "memory");
  if (mode == 2) atomicAdd(p + 1, v);
  if (mode == 3) asm volatile("st.global.u32 [%0], %1;" :: "l"(p + 4096), "r"(v) : "memory");
  if (mode == 4) asm volatile("st.global.u32 [%0], %1;" :: "l"(p), "r"(v + 1) : "memory");
  // let the store or atomic leave (its own latency is not what is measured)
  long long w = clk(); while (clk() - w < 2000) {}
  long long t0 = clk();
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[1])), "r"(v) : "memory");
  long long t1 = clk();
  cyc[0] = t1 - t0;
  out[0] = s[0] + s[1];
}

int main() {
  unsigned *dg, *dout; long long *dcyc, c;
  CHECK(cudaMalloc(&dg, 64 * 4096 * sizeof(unsigned)));
  CHECK(cudaMemset(dg, 0, 64 * 4096 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, 64 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  const char *modes[] = {"nothing between", "a store to another word of the line", "an atomicAdd on another word of the line", "a store to another line", "a store to the word itself"};
  for (unsigned m = 0; m < 5; m++) {
    printf("load after a load of its line and %s:", modes[m]);
    for (unsigned rep = 0; rep < 5; rep++) {
      k_after<<<1, 1>>>(dg, dcyc, dout, m, m * 5 + rep);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
      printf(" %lld", c);
    }
    printf("\n");
  }
  return 0;
}
