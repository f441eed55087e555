// Microbenchmarks for issue 22: global atomics, after calibration/analysis/fit_random.py put about +250 cycles
// on each global atomic of the random programs (the calibration rows measured only their throughput).
//   A. latency: each lane's next atomic's address depends on its previous atomic's result (the dependence is
//      through `mask`, 0 at run time), ITERS times; cycles per atomic, for add/exch/cas/min (32-bit) and add
//      (64-bit), with 1 lane, 32 lanes on one word, 32 lanes on consecutive words, 32 lanes 32 words apart;
//   B. the issuing warp's cost of `red` (an atomic whose result is unused): ITERS independent reds, then the
//      clock, for one word and consecutive words;
//   C. a red followed by a dependent load of the same word (the load must see the red).
// Build: nvcc -O3 -arch=sm_90 -o ubench6 ubench6.cu ; run: ./ubench6 ; SASS: cuobjdump -sass ubench6
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define ITERS 256

__global__ void k_lat(unsigned *g, unsigned long long *g64, unsigned *out, long long *cyc, unsigned op, unsigned spread, unsigned mask) {
  unsigned a = (threadIdx.x * spread) & 1023;
  unsigned v = 0;
  v = atomicAdd(&g[a + (v & mask)], 0u);  // first touch, outside the timed region
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < ITERS; i++) {
    unsigned *p = &g[a + (v & mask)];
    switch (op) {
      case 0: v = atomicAdd(p, 1u); break;
      case 1: v = atomicExch(p, v + 1); break;
      case 2: v = atomicCAS(p, v, v + 1); break;
      case 3: v = atomicMin(p, v); break;
      default: v = (unsigned)atomicAdd(&g64[a + (v & mask)], 1ull); break;
    }
  }
  long long t1 = clock64();
  out[threadIdx.x] = v;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

__global__ void k_red(unsigned *g, unsigned *out, long long *cyc, unsigned spread, unsigned then_load, unsigned mask) {
  unsigned a = (threadIdx.x * spread) & 1023;
  unsigned v = g[a];  // first touch
  long long t0 = clock64();
  if (then_load) {
#pragma unroll 1
    for (int i = 0; i < ITERS; i++) {
      atomicAdd(&g[a + (v & mask)], 1u);
      v = *(volatile unsigned *)&g[a + (v & mask)];
    }
  } else {
#pragma unroll 1
    for (int i = 0; i < ITERS; i++) atomicAdd(&g[a + (v & mask)], 1u);
  }
  long long t1 = clock64();
  out[threadIdx.x] = v;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  unsigned *dout, *dg; unsigned long long *dg64; long long *dcyc;
  CHECK(cudaMalloc(&dout, 1024 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  CHECK(cudaMalloc(&dg, 2048 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dg64, 2048 * sizeof(unsigned long long)));
  CHECK(cudaMemset(dg, 0, 2048 * sizeof(unsigned)));
  CHECK(cudaMemset(dg64, 0, 2048 * sizeof(unsigned long long)));
  const char *ops[] = {"atomicAdd u32", "atomicExch u32", "atomicCAS u32", "atomicMin u32", "atomicAdd u64"};
  struct { unsigned threads, spread; const char *what; } shapes[] = {
    {1, 0, "1 lane"}, {32, 0, "32 lanes, one word"}, {32, 1, "32 lanes, consecutive words"}, {32, 32, "32 lanes, 32 words apart"}};
  for (int rep = 0; rep < 2; rep++) {
    for (unsigned op = 0; op < 5; op++)
      for (auto &s : shapes) {
        k_lat<<<1, s.threads>>>(dg, dg64, dout, dcyc, op, s.spread, 0);
        CHECK(cudaDeviceSynchronize());
        long long c; CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
        printf("latency %s, %s: %.2f cycles per atomic\n", ops[op], s.what, (double)c / ITERS);
      }
    for (unsigned then_load = 0; then_load < 2; then_load++)
      for (auto &s : shapes) {
        k_red<<<1, s.threads>>>(dg, dout, dcyc, s.spread, then_load, 0);
        CHECK(cudaDeviceSynchronize());
        long long c; CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
        printf("%s, %s: %.2f cycles per iteration\n", then_load ? "red then dependent load" : "red (result unused)", s.what, (double)c / ITERS);
      }
  }
  return 0;
}
