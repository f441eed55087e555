// Is the "first load of a launch" extra a constant-bank miss? (issue 22)
// k_cold: as ubench4's k_cold (the pointer parameter is first read after the start clock).
// k_pre: the same, but the pointer is read (and used) before the start clock.
// k_const: the time of a cold read of a __constant__ word (another constant bank), then of a warm one.
#include <cstdio>
#include <cuda_runtime.h>
#define STEPS 3
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
__constant__ unsigned cbuf[1024];
__global__ void k_cold(const unsigned *g, long long *cyc, unsigned *out) {
  __shared__ unsigned s[STEPS];
  unsigned p = 0; long long t[STEPS + 1];
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
__global__ void k_pre(const unsigned *g, long long *cyc, unsigned *out) {
  __shared__ unsigned s[STEPS + 1];
  unsigned p = 0; long long t[STEPS + 1];
  // The pointer in a register, stored before the clock: its constant-bank read is done by then.
  asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[STEPS])), "r"((unsigned)(size_t)g) : "memory");
  t[0] = clk();
#pragma unroll
  for (int i = 0; i < STEPS; i++) {
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(p) : "l"(g + p) : "memory");
    asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[i])), "r"(p) : "memory");
    t[i + 1] = clk();
  }
  for (int i = 0; i < STEPS; i++) cyc[i] = t[i + 1] - t[i];
  out[0] = s[STEPS - 1] + p + s[STEPS];
}
__global__ void k_const(unsigned k, long long *cyc, unsigned *out) {
  __shared__ unsigned s[2];
  long long t0 = clk();
  unsigned a = cbuf[k];
  asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[0])), "r"(a) : "memory");
  long long t1 = clk();
  unsigned b = cbuf[k + a + 1];
  asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[1])), "r"(b) : "memory");
  long long t2 = clk();
  cyc[0] = t1 - t0; cyc[1] = t2 - t1; out[0] = s[0] + s[1];
}
int main() {
  unsigned host[1024] = {0};
  for (int i = 0; i < 1024; i++) host[i] = 0;
  host[0] = 32; host[32] = 64; host[64] = 96;
  unsigned *dg, *dout; long long *dcyc;
  cudaMalloc(&dout, 64); cudaMalloc(&dcyc, 64);
  cudaMemcpyToSymbol(cbuf, host, sizeof host);
  for (int kind = 0; kind < 2; kind++) {
    for (int rep = 0; rep < 6; rep++) {
      cudaMalloc(&dg, 4096);
      cudaMemcpy(dg, host, 4096, cudaMemcpyHostToDevice);
      if (kind == 0) k_cold<<<1, 1>>>(dg, dcyc, dout); else k_pre<<<1, 1>>>(dg, dcyc, dout);
      cudaDeviceSynchronize();
      long long c[STEPS]; cudaMemcpy(c, dcyc, sizeof c, cudaMemcpyDeviceToHost);
      printf("%s fresh copy %d: steps %lld %lld %lld\n", kind == 0 ? "k_cold (pointer read after the clock) " : "k_pre  (pointer read before the clock)", rep, c[0], c[1], c[2]);
    }
  }
  for (int rep = 0; rep < 6; rep++) {
    k_const<<<1, 1>>>(rep * 64, dcyc, dout); cudaDeviceSynchronize();
    long long c[2]; cudaMemcpy(c, dcyc, sizeof c, cudaMemcpyDeviceToHost);
    printf("k_const launch %d: cold constant read %lld, next word of the bank %lld\n", rep, c[0], c[1]);
  }
  return 0;
}
