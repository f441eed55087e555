// Issue 22: bursts of global stores from one warp. store_burst.ptx: kernels st32_xN and st64_xN, N = 1, 2, 4, 8,
// 16: one warp's 32 lanes store N times (32-bit or 64-bit words, consecutive lanes, each store to lines of its
// own), between two clock reads with nothing reading the stores; thread 0 writes the cycles between the clocks.
// Both pointers are read and stored to shared memory before a barrier and the first clock.
// Build: nvcc -O3 -arch=sm_90 -o ubench26 ubench26.cu -lcuda ; run: ./ubench26 store_burst.ptx
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define DCHECK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char *s; cuGetErrorString(e, &s); printf("driver error %s at %s:%d\n", s, __FILE__, __LINE__); return 1; } } while (0)
int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, sm_%d%d\n", prop.name, prop.major, prop.minor);
  CHECK(cudaFree(0));  // the runtime's context, which the driver calls below use
  CUmodule mod;
  DCHECK(cuModuleLoad(&mod, argv[1]));
  long long *dc; unsigned *db;
  CHECK(cudaMalloc(&dc, 64));
  CHECK(cudaMalloc(&db, 1 << 20));
  const char *names[10] = {"st32_x1", "st32_x2", "st32_x4", "st32_x8", "st32_x16", "st64_x1", "st64_x2", "st64_x4", "st64_x8", "st64_x16"};
  for (int k = 0; k < 10; k++) {
    CUfunction f;
    DCHECK(cuModuleGetFunction(&f, mod, names[k]));
    printf("%-9s", names[k]);
    for (int rep = 0; rep < 8; rep++) {
      CUdeviceptr pb = (CUdeviceptr)db, pc = (CUdeviceptr)dc;
      void *args[] = {&pb, &pc};
      DCHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, args, 0));
      CHECK(cudaDeviceSynchronize());
      long long c;
      CHECK(cudaMemcpy(&c, dc, sizeof c, cudaMemcpyDeviceToHost));
      printf(" %lld", c);
    }
    printf("\n");
  }
  return 0;
}
