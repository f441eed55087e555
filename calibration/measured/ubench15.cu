// Microbenchmark for issue 22 (tenth round): does a warp-synchronous instruction take the slow path (ubench13.cu:
// about 375 cycles) when some lanes of the warp have exited? (warp_aggregate: lanes exit, then `shfl.sync` with
// mask = activemask.) A dependent chain of __shfl_sync(mask, x, src) + 1, N times: mode 0, all 32 lanes, mask
// 0xffffffff; 1: the odd lanes exit first, mask = __activemask(); 2: the odd lanes exit first, mask 0x55555555;
// 3: all lanes, but only the even ones take part (if (lane even) with mask 0x55555555: diverged, not exited).
// Build: nvcc -O3 -arch=sm_90 -o ubench15 ubench15.cu ; run: ./ubench15
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define N 256
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }

__global__ void k_shfl(unsigned *out, long long *cyc, unsigned mode) {
  unsigned lane = threadIdx.x & 31, x = lane;
  if ((mode == 1 || mode == 2) && (lane & 1)) return;
  long long t0 = clk();
  if (mode == 3) {
    if (!(lane & 1)) {
#pragma unroll 1
      for (int i = 0; i < N; i++) x = __shfl_sync(0x55555555u, x, 0) + 1;
    }
  } else {
    unsigned m = mode == 0 ? 0xffffffffu : mode == 1 ? __activemask() : 0x55555555u;
#pragma unroll 1
    for (int i = 0; i < N; i++) x = __shfl_sync(m, x, 0) + 1;
  }
  long long t1 = clk();
  out[threadIdx.x] = x;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  unsigned *dout; long long *dcyc, c;
  CHECK(cudaMalloc(&dout, 1024 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  const char *modes[] = {"all lanes, full mask", "odd lanes exited, mask = activemask", "odd lanes exited, mask 0x55555555", "even lanes in an if, mask 0x55555555"};
  for (int rep = 0; rep < 2; rep++)
    for (unsigned m = 0; m < 4; m++) {
      k_shfl<<<1, 32>>>(dout, dcyc, m);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
      printf("shfl chain, %s: %.2f cycles per shuffle\n", modes[m], (double)c / N);
    }
  return 0;
}
