// Microbenchmarks for issue 22: what a short kernel pays that the calibrated latencies do not cover.
//   A. instruction fetch: straight-line code (a dependent IMAD chain, fully unrolled) run twice in one launch
//      (pass 0 finds the instruction caches cold, pass 1 warm), in two launches of the same kernel;
//   B. the first global loads of a kernel: a pointer chase by one thread through a buffer freshly copied from
//      the host (same sector, same line, next line, +4 KiB, +64 KiB, +2 MiB, +32 MiB, back), each load timed.
// Build: nvcc -O3 -arch=sm_90 -o ubench4 ubench4.cu ; run: ./ubench4
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

// A: K dependent IMADs, straight line, twice (pass 0 cold, pass 1 warm). cyc[pass] = clock64 delta.
template <int K>
__global__ void k_line(unsigned *out, long long *cyc, unsigned y, unsigned z) {
  unsigned x = threadIdx.x;
#pragma unroll 1
  for (int pass = 0; pass < 2; pass++) {
    long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < K; k++) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(y), "r"(z));
    asm volatile("" ::: "memory");
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[pass] = t1 - t0;
    z += x & 1;  // keep the chain alive across passes
  }
  out[threadIdx.x] = x;
}

// A': four independent chains interleaved: issue-bound rather than latency-bound (K instructions in all).
template <int K>
__global__ void k_line4(unsigned *out, long long *cyc, unsigned y, unsigned z) {
  unsigned a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3;
#pragma unroll 1
  for (int pass = 0; pass < 2; pass++) {
    long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < K / 4; k++) {
      asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(a) : "r"(y), "r"(z));
      asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(b) : "r"(y), "r"(z));
      asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(c) : "r"(y), "r"(z));
      asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(d) : "r"(y), "r"(z));
    }
    asm volatile("" ::: "memory");
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[pass] = t1 - t0;
    z += (a ^ b ^ c ^ d) & 1;
  }
  out[threadIdx.x] = a ^ b ^ c ^ d;
}

// B: the chase. g[i] holds the next index; every load's latency is timed: the volatile shared store waits for
// the loaded value, and the clock is read after it (inline PTX, so that neither compiler merges or moves them).
#define STEPS 10
__device__ __forceinline__ long long clk() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory");
  return t;
}
__global__ void k_cold(const unsigned *g, long long *cyc, unsigned *out) {
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

// The time a kernel's first warp takes to its first instruction after clock64: the empty kernel.
__global__ void k_clock_pair(long long *cyc) {
  long long t0 = clock64();
  long long t1 = clock64();
  cyc[0] = t1 - t0;
}

template <int K, bool FOUR>
int line(unsigned *dout, long long *dcyc) {
  for (int launch = 0; launch < 2; launch++) {
    if (FOUR) k_line4<K><<<1, 32>>>(dout, dcyc, 3, 5); else k_line<K><<<1, 32>>>(dout, dcyc, 3, 5);
    CHECK(cudaDeviceSynchronize());
    long long c[2];
    CHECK(cudaMemcpy(c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
    printf("%s K=%5d launch %d: pass0 (cold) %7lld  pass1 (warm) %7lld  extra %6lld  per instr cold %.2f warm %.2f\n",
           FOUR ? "line4" : "line1", K, launch, c[0], c[1], c[0] - c[1], (double)c[0] / K, (double)c[1] / K);
  }
  return 0;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int clk = 0;
  cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
  printf("device %s, sm_%d%d, clock %d kHz\n", prop.name, prop.major, prop.minor, clk);
  unsigned *dout; long long *dcyc;
  CHECK(cudaMalloc(&dout, 4096 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcyc, 64 * sizeof(long long)));
  k_clock_pair<<<1, 32>>>(dcyc); CHECK(cudaDeviceSynchronize());
  { long long c; CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost)); printf("clock64 pair %lld\n", c); }
  line<32, false>(dout, dcyc); line<128, false>(dout, dcyc); line<512, false>(dout, dcyc);
  line<2048, false>(dout, dcyc); line<8192, false>(dout, dcyc);
  line<32, true>(dout, dcyc); line<128, true>(dout, dcyc); line<512, true>(dout, dcyc);
  line<2048, true>(dout, dcyc); line<8192, true>(dout, dcyc);

  // B: a buffer copied from the host just before the launch (as `sim crosscheck` does), then the chase; a
  // 64 MiB buffer (mostly not in L2 after the copy) and a 4 KiB one (as small as the shipped programs' buffers).
  const unsigned big[STEPS] = {0, 8, 32, 1024, 16384, 524288, 8388608, 8388616, 0, 32};
  const unsigned small[STEPS] = {0, 8, 32, 64, 96, 128, 512, 520, 0, 32};
  for (int which = 0; which < 2; which++) {
    const size_t words = which == 0 ? (16u << 20) : 1024;
    const unsigned *chain = which == 0 ? big : small;
    std::vector<unsigned> h(words, 0);
    for (int i = 0; i + 1 < STEPS; i++) h[chain[i]] = chain[i + 1];
    for (int rep = 0; rep < 5; rep++) {
      unsigned *dg;
      CHECK(cudaMalloc(&dg, words * sizeof(unsigned)));
      CHECK(cudaMemcpy(dg, h.data(), words * sizeof(unsigned), cudaMemcpyHostToDevice));
      for (int launch = 0; launch < 2; launch++) {
        k_cold<<<1, 1>>>(dg, dcyc, dout);
        CHECK(cudaDeviceSynchronize());
        long long c[STEPS];
        CHECK(cudaMemcpy(c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
        printf("chase %s buffer, fresh copy %d, launch %d:", which == 0 ? "64 MiB" : "4 KiB", rep, launch);
        for (int i = 0; i < STEPS; i++) printf(" %lld", c[i]);
        printf("\n");
      }
      CHECK(cudaFree(dg));
    }
    printf("words:"); for (int i = 0; i < STEPS; i++) printf(" %u", chain[i]); printf("\n");
  }
  return 0;
}
