// Microbenchmark for issue 22 (eighth round): what `bar.warp.sync` (__syncwarp) costs when the lanes it names
// are on two diverged paths of the warp (warp_pipeline's mailbox hand-over), against the same with every lane
// on one path. Each lane runs N iterations of a short body and one __syncwarp() (mode 0: all lanes on one path;
// 1: lanes 0-15 and 16-31 on two paths, each with its own loop and __syncwarp; 2: as 1 with two __syncwarp a
// iteration, as warp_pipeline). Cycles per iteration.
// Build: nvcc -O3 -arch=sm_90 -o ubench13 ubench13.cu ; run: ./ubench13 ; SASS: cuobjdump -sass ubench13
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define N 256
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }

__global__ void k_sync(unsigned *out, long long *cyc, unsigned mode, unsigned y) {
  unsigned lane = threadIdx.x & 31, x = lane;
  long long t0 = clk();
  if (mode == 0) {
#pragma unroll 1
    for (int i = 0; i < N; i++) { asm volatile("mad.lo.u32 %0, %0, 3, %1;" : "+r"(x) : "r"(y)); __syncwarp(); }
  } else if (lane < 16) {
#pragma unroll 1
    for (int i = 0; i < N; i++) {
      asm volatile("mad.lo.u32 %0, %0, 3, %1;" : "+r"(x) : "r"(y));
      __syncwarp();
      if (mode == 2) __syncwarp();
    }
  } else {
#pragma unroll 1
    for (int i = 0; i < N; i++) {
      asm volatile("mad.lo.u32 %0, %0, 5, %1;" : "+r"(x) : "r"(y));
      __syncwarp();
      if (mode == 2) __syncwarp();
    }
  }
  long long t1 = clk();
  out[threadIdx.x] = x;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  unsigned *dout; long long *dcyc, c;
  CHECK(cudaMalloc(&dout, 1024 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  const char *modes[] = {"all lanes on one path, one __syncwarp an iteration", "two diverged paths, one __syncwarp an iteration each", "two diverged paths, two __syncwarp an iteration each"};
  for (int rep = 0; rep < 2; rep++)
    for (unsigned m = 0; m < 3; m++) {
      k_sync<<<1, 32>>>(dout, dcyc, m, 1);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
      printf("%s: %.2f cycles per iteration\n", modes[m], (double)c / N);
    }
  return 0;
}
