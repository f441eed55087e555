// Issue 22: the kernel parameters' constant-bank lines. calibration/programs/param_lines.ptx has three kernels
// with 64 u64 parameters (`cyc`, then p1..p63 at c[0x0][0x218 + 8(i-1)]); thread 0 reads the clock, then
// parameters one at a time (each stored to shared memory, so that the next clock read waits for the value)
// with a clock read after each: `seq` p1..p63 in order, `rev` p63..p1, `pairs` two parameters of different
// lines (or the same line) read together. Each difference is a read's time: a line's first read misses.
// The calibration programs param_line.ptx and param_hit.ptx (calibration/programs/, written by param_lines.py) are
// the same measurement with 15 parameters, each writing its figure to cyc[0] and the reads to cyc[1..15] (u32).
// Build: nvcc -O3 -arch=sm_90 -o ubench25 ubench25.cu -lcuda
// Run:   ./ubench25 param_lines.cubin param_lines.ptx ../programs/param_line.ptx ../programs/param_hit.ptx
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define DCHECK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char *s; cuGetErrorString(e, &s); printf("driver error %s at %s:%d\n", s, __FILE__, __LINE__); return 1; } } while (0)
int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, sm_%d%d\n", prop.name, prop.major, prop.minor);
  long long *dc;
  CHECK(cudaMalloc(&dc, 64 * sizeof(long long)));
  unsigned long long vals[64];
  void *args[64];
  CUdeviceptr pc = (CUdeviceptr)dc;
  args[0] = &pc;
  // p1..p63: device pointers to a small buffer (the calibration programs take them as pointer buffers).
  unsigned *dp;
  CHECK(cudaMalloc(&dp, 4096));
  for (int i = 1; i < 64; i++) { vals[i] = (unsigned long long)(size_t)dp + 8 * i; args[i] = &vals[i]; }
  // The calibration programs (param_line.ptx, param_hit.ptx) write u32s: cyc[0] the figure, cyc[i] p_i's read.
  const char *kernels[5] = {"seq", "rev", "pairs", "param_line", "param_hit"};
  const int counts[5] = {63, 63, 5, 16, 16};
  for (int m = 1; m < argc; m++) {
    CUmodule mod;
    DCHECK(cuModuleLoad(&mod, argv[m]));
    for (int k = 0; k < 5; k++) {
      CUfunction f;
      if (cuModuleGetFunction(&f, mod, kernels[k]) != CUDA_SUCCESS) continue;
      for (int rep = 0; rep < 6; rep++) {
        CHECK(cudaMemset(dc, 0, 64 * sizeof(long long)));
        DCHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, 0));
        CHECK(cudaDeviceSynchronize());
        long long c[64];
        unsigned *u = (unsigned *)c;
        CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
        printf("%s %s launch %d:", argv[m], kernels[k], rep);
        for (int i = 0; i < counts[k]; i++) printf(" %lld", k < 3 ? c[i] : (long long)u[i]);
        printf("\n");
      }
    }
  }
  return 0;
}
