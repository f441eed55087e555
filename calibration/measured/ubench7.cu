// Microbenchmarks for issue 22 (second round), after ubench6.cu found a global atomic's latency at 497 cycles on
// one address and 295 on another, and the cross-check's largest gaps on random programs in 64-bit division and
// in f32 atomic min/max (which the GPU has no instruction for: the emitted CUDA runs a compare-and-swap loop).
//   A. one thread chasing pointers through 4096 lines of a buffer in L2 (a permutation, one word a line): by
//      atomicAdd(p, 0) and by ld.global.cg (L2, bypassing L1); each step's cycles kept, so the distribution over
//      L2 slices shows;
//   B. 64-bit (and 32-bit) integer division and remainder through the PTX instructions the emitter uses, a
//      dependent chain, with a large and a small dividend, a small and a large divisor;
//   C. the emitter's f32 atomic-min compare-and-swap loop, one call per iteration: 1 lane, 32 lanes on distinct
//      words, 32 lanes on one word (values unchanged, lowering by lane order, lowering against lane order).
// Build: nvcc -O3 -arch=sm_90 -o ubench7 ubench7.cu ; run: ./ubench7 ; SASS: cuobjdump -sass ubench7
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define LINES 4096
#define STEPS 512

__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }

__global__ void k_chase(unsigned *g, unsigned *steps, long long *cyc, unsigned atomic) {
  unsigned p = 0;
  long long t0 = clk(), last = t0;
  for (int i = 0; i < STEPS; i++) {
    if (atomic) p = atomicAdd(&g[p], 0u); else p = __ldcg(&g[p]);
    long long t = clk();
    steps[i] = (unsigned)(t - last);
    last = t;
  }
  cyc[0] = last - t0;
  steps[STEPS] = p;
}

template <int OP>
__global__ void k_div(unsigned long long *out, long long *cyc, unsigned long long a, unsigned long long d) {
  unsigned long long q = 0;
  long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < 256; i++) {
    unsigned long long x = a ^ (q & 1), r;
    if (OP == 0) asm("div.s64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(d));
    if (OP == 1) asm("div.u64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(d));
    if (OP == 2) asm("rem.s64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(d));
    if (OP == 3) asm("rem.u64 %0, %1, %2;" : "=l"(r) : "l"(x), "l"(d));
    if (OP == 4) { unsigned r32; asm("div.s32 %0, %1, %2;" : "=r"(r32) : "r"((unsigned)x), "r"((unsigned)d)); r = r32; }
    if (OP == 5) { unsigned r32; asm("rem.u32 %0, %1, %2;" : "=r"(r32) : "r"((unsigned)x), "r"((unsigned)d)); r = r32; }
    q = r;
  }
  long long t1 = clk();
  out[threadIdx.x] = q;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

__device__ __forceinline__ unsigned min_f32(unsigned a, unsigned b) { unsigned d; asm("min.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ unsigned atomic_min_f32(unsigned *p, unsigned v) {
  unsigned old = *p, seen;
  do { seen = old; old = atomicCAS(p, seen, min_f32(seen, v)); } while (old != seen);
  return old;
}

// shape 0: 1 lane; 1: 32 lanes, distinct words; 2: one word, values unchanged (above the word's);
// 3: one word, lane k's value lower for higher k; 4: one word, lower for lower k.
__global__ void k_fmin(unsigned *g, unsigned *out, long long *cyc, unsigned shape) {
  unsigned lane = threadIdx.x, a = shape == 1 ? lane : 0, acc = 0;
  long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < 64; i++) {
    float base = 1.0e6f - 64.0f * i;
    float v = shape == 2 ? 2.0e6f : shape == 3 ? base - lane : shape == 4 ? base - (31 - lane) : base;
    acc += atomic_min_f32(&g[a], __float_as_uint(v));
  }
  long long t1 = clk();
  out[lane] = acc;
  if (lane == 0) cyc[0] = t1 - t0;
}

int main() {
  unsigned *dg, *dsteps, *dout; unsigned long long *dq; long long *dcyc;
  CHECK(cudaMalloc(&dg, LINES * 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dsteps, (STEPS + 1) * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, 1024 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dq, 1024 * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  static unsigned h[LINES * 32];
  for (int i = 0; i < LINES; i++) h[i * 32] = ((i * 1237 + 611) % LINES) * 32;
  static unsigned hs[STEPS + 1];
  long long c;
  for (int rep = 0; rep < 2; rep++) {
    for (unsigned atomic = 0; atomic < 2; atomic++) {
      CHECK(cudaMemcpy(dg, h, sizeof h, cudaMemcpyHostToDevice));
      k_chase<<<1, 1>>>(dg, dsteps, dcyc, atomic);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(hs, dsteps, sizeof hs, cudaMemcpyDeviceToHost));
      unsigned lo = ~0u, hi = 0, hist[8] = {0};
      for (int i = 1; i < STEPS; i++) { lo = hs[i] < lo ? hs[i] : lo; hi = hs[i] > hi ? hs[i] : hi; hist[hs[i] / 100 < 7 ? hs[i] / 100 : 7]++; }
      printf("%s chase over %d lines: %.2f cycles per step (first %u, min %u, max %u); steps by hundreds of cycles:",
             atomic ? "atomicAdd(p, 0)" : "ld.global.cg", LINES, (double)c / STEPS, hs[0], lo, hi);
      for (int k = 0; k < 8; k++) printf(" %u", hist[k]);
      printf("\n");
    }
    struct { unsigned long long a, d; const char *what; } cases[] = {
      {0x7fffffffffff1234ull, 7, "large dividend, divisor 7"},
      {1234567ull, 7, "dividend under 2^32, divisor 7"},
      {0x7fffffffffff1234ull, 0x123456789ull, "large dividend, divisor over 2^32"}};
    const char *ops[] = {"div.s64", "div.u64", "rem.s64", "rem.u64", "div.s32", "rem.u32"};
    for (auto &k : cases) {
      for (int op = 0; op < 6; op++) {
        if (op == 0) k_div<0><<<1, 1>>>(dq, dcyc, k.a, k.d);
        if (op == 1) k_div<1><<<1, 1>>>(dq, dcyc, k.a, k.d);
        if (op == 2) k_div<2><<<1, 1>>>(dq, dcyc, k.a, k.d);
        if (op == 3) k_div<3><<<1, 1>>>(dq, dcyc, k.a, k.d);
        if (op == 4) k_div<4><<<1, 1>>>(dq, dcyc, k.a, k.d);
        if (op == 5) k_div<5><<<1, 1>>>(dq, dcyc, k.a, k.d);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
        printf("%s, %s: %.2f cycles per operation (dependent)\n", ops[op], k.what, (double)c / 256);
      }
    }
    const char *shapes[] = {"1 lane", "32 lanes, distinct words", "32 lanes, one word, values unchanged",
                            "32 lanes, one word, lane k lowest for the highest k", "32 lanes, one word, lowest for the lowest k"};
    for (unsigned s = 0; s < 5; s++) {
      static unsigned init[32];
      for (int i = 0; i < 32; i++) { float f = 1.5e6f; init[i] = *(unsigned *)&f; }
      CHECK(cudaMemcpy(dg, init, sizeof init, cudaMemcpyHostToDevice));
      k_fmin<<<1, s == 0 ? 1 : 32>>>(dg, dout, dcyc, s);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
      printf("f32 atomic min (CAS loop), %s: %.2f cycles per call\n", shapes[s], (double)c / 64);
    }
  }
  return 0;
}
