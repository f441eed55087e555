// Microbenchmarks for issue 22 (fourth round): how an L2 line's latency depends on its slice and on whether an SM
// has touched it before, and what the f32 atomic-min compare-and-swap loop costs over the atomic it contains.
//   A. one thread chases pointers through 4096 lines (a buffer copied from the host just before the launch) twice
//      in one launch: ld.global.cg (L2, bypassing L1) or atomicAdd(p, 0); cycles per step of each pass;
//   B. for each of 16 lines of another buffer (one address each, so one L2 slice each): a dependent atomicAdd
//      chain, the emitter's f32 atomic-min CAS loop, and a dependent ld.global.cg chain, 1 lane, cycles each.
// Build: nvcc -O3 -arch=sm_90 -o ubench9 ubench9.cu ; run: ./ubench9
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define LINES 4096
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }

__global__ void k_passes(unsigned *g, unsigned *out, long long *cyc, unsigned atomic) {
  for (int pass = 0; pass < 2; pass++) {
    unsigned p = 0;
    long long t0 = clk();
#pragma unroll 1
    for (int i = 0; i < LINES; i++) p = atomic ? atomicAdd(&g[p], 0u) : __ldcg(&g[p]);
    long long t1 = clk();
    cyc[pass] = t1 - t0;
    out[pass] = p;
  }
}

__device__ __forceinline__ unsigned min_f32(unsigned a, unsigned b) { unsigned d; asm("min.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ unsigned atomic_min_f32(unsigned *p, unsigned v) {
  unsigned old = *p, seen;
  do { seen = old; old = atomicCAS(p, seen, min_f32(seen, v)); } while (old != seen);
  return old;
}

// what 0: dependent atomicAdd; 1: f32 atomic min CAS loop (a lowering value each call); 2: dependent ld.cg
__global__ void k_at(unsigned *g, unsigned *out, long long *cyc, unsigned a, unsigned what, unsigned mask) {
  unsigned v = 0, acc = 0;
  long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < 256; i++) {
    if (what == 0) v = atomicAdd(&g[a + (v & mask)], 1u);
    else if (what == 1) acc += atomic_min_f32(&g[a], __float_as_uint(1.0e6f - i));
    else v = __ldcg(&g[a + (v & mask)]);
  }
  long long t1 = clk();
  out[0] = v + acc;
  cyc[0] = t1 - t0;
}

int main() {
  unsigned *dg, *dh, *dout; long long *dcyc, c[2];
  CHECK(cudaMalloc(&dg, LINES * 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dh, 16 * 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dout, 64 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  static unsigned h[LINES * 32];
  for (int i = 0; i < LINES; i++) h[i * 32] = ((i * 1237 + 611) % LINES) * 32;
  for (int rep = 0; rep < 2; rep++) {
    for (unsigned atomic = 0; atomic < 2; atomic++) {
      CHECK(cudaMemcpy(dg, h, sizeof h, cudaMemcpyHostToDevice));
      k_passes<<<1, 1>>>(dg, dout, dcyc, atomic);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
      printf("%s chase, %d lines copied from the host: first pass %.2f, second pass %.2f cycles per step\n",
             atomic ? "atomicAdd(p, 0)" : "ld.global.cg", LINES, (double)c[0] / LINES, (double)c[1] / LINES);
    }
    double sum[3] = {0, 0, 0};
    for (unsigned line = 0; line < 16; line++) {
      double r[3];
      for (unsigned what = 0; what < 3; what++) {
        static unsigned init[16 * 32];
        float f = 2.0e6f;
        for (int i = 0; i < 16 * 32; i++) init[i] = what == 1 ? *(unsigned *)&f : 0;
        CHECK(cudaMemcpy(dh, init, sizeof init, cudaMemcpyHostToDevice));
        k_at<<<1, 1>>>(dh, dout, dcyc, line * 32, what, 0);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(c, dcyc, sizeof c[0], cudaMemcpyDeviceToHost));
        r[what] = (double)c[0] / 256;
        sum[what] += r[what];
      }
      printf("line %2u: atomicAdd %.2f, f32 atomic min (CAS loop) %.2f, ld.global.cg %.2f cycles\n", line, r[0], r[1], r[2]);
    }
    printf("mean of 16 lines: atomicAdd %.2f, f32 atomic min (CAS loop) %.2f, ld.global.cg %.2f cycles\n", sum[0] / 16, sum[1] / 16, sum[2] / 16);
  }
  return 0;
}
