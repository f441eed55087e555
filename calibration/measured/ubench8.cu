// Microbenchmarks for issue 22 (third round): 64-bit signed division as the emitted CUDA writes it (inline
// `div.s64`, which ptxas compiles to a call of a division subroutine), with the dividend INT64_MIN (the random
// programs' constant) and a constant or variable divisor; dependent (each dividend depends on the previous
// quotient) and independent (quotients only summed) chains, one lane and 32 lanes.
// Build: nvcc -O3 -arch=sm_90 -o ubench8 ubench8.cu ; run: ./ubench8
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }

// mode 0: constant operands, independent; 1: INT64_MIN ^ (q & 1) / 15, dependent; 2: INT64_MIN / d (d a parameter), independent
__global__ void k_divc(unsigned long long *out, long long *cyc, unsigned mode, unsigned long long d) {
  unsigned long long q = 0, acc = 0;
  long long t0 = clk();
#pragma unroll 1
  for (int i = 0; i < 256; i++) {
    unsigned long long r;
    if (mode == 0) asm("div.s64 %0, %1, %2;" : "=l"(r) : "l"(0x8000000000000000ull), "l"(15ull));
    else if (mode == 1) asm("div.s64 %0, %1, %2;" : "=l"(r) : "l"(0x8000000000000000ull ^ (q & 1)), "l"(15ull));
    else asm("div.s64 %0, %1, %2;" : "=l"(r) : "l"(0x8000000000000000ull + i), "l"(d));
    q = r;
    acc += r;
  }
  long long t1 = clk();
  out[threadIdx.x] = acc + q;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  unsigned long long *dq; long long *dcyc, c;
  CHECK(cudaMalloc(&dq, 1024 * sizeof(unsigned long long)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  const char *modes[] = {"INT64_MIN / 15, constant operands, independent", "INT64_MIN / 15, dependent", "(INT64_MIN + i) / d, d = 15 a parameter, independent"};
  for (int rep = 0; rep < 2; rep++)
    for (unsigned threads = 1; threads <= 32; threads += 31)
      for (unsigned m = 0; m < 3; m++) {
        k_divc<<<1, threads>>>(dq, dcyc, m, 15);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
        printf("div.s64 %s, %u lanes: %.2f cycles per division\n", modes[m], threads, (double)c / 256);
      }
  return 0;
}
