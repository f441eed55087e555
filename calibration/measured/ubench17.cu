// Microbenchmark: what a device-side printf costs the warp that calls it (CUDA's printf is a call of the
// driver's vprintf, which the warp runs to its end). One block of one warp; the calling lanes (1 or 32) print
// `reps` times in a loop, each with 1 or 4 arguments, between two clock64() reads; the cycles per call are
// printed after the kernel's own output (which goes to /dev/null in the run below: only the figures matter).
// Build: nvcc -O3 -arch=sm_90 -o ubench17 ubench17.cu ; run: ./ubench17 > out.txt (figures on stderr)
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

__global__ void calls(int lanes, int args, int reps, long long *cyc) {
  int i = threadIdx.x;
  long long t0 = clock64();
  for (int r = 0; r < reps; r++) {
    if (i < lanes) {
      if (args == 1) printf("%d\n", i);
      else printf("%d %d %f %d\n", i, r, 0.5 * i, lanes);
    }
  }
  long long t1 = clock64();
  if (i == 0) *cyc = t1 - t0;
}

__global__ void empty(int reps, long long *cyc) {
  int i = threadIdx.x;
  long long t0 = clock64();
  for (int r = 0; r < reps; r++) {
    if (i < 0) printf("%d\n", i);  // never taken: the loop's own cost
  }
  long long t1 = clock64();
  if (i == 0) *cyc = t1 - t0;
}

int main() {
  long long *cyc, h;
  CHECK(cudaMalloc(&cyc, sizeof(long long)));
  CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 256 << 20));
  const int reps = 64;
  empty<<<1, 32>>>(reps, cyc);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
  fprintf(stderr, "loop without a call: %.1f cycles an iteration\n", double(h) / reps);
  for (int args : {1, 4}) {
    for (int lanes : {1, 8, 32}) {
      for (int trial = 0; trial < 3; trial++) {
        calls<<<1, 32>>>(lanes, args, reps, cyc);
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(&h, cyc, sizeof h, cudaMemcpyDeviceToHost));
        fprintf(stderr, "printf, %d argument(s), %2d lanes, trial %d: %.1f cycles a call\n", args, lanes, trial, double(h) / reps);
      }
    }
  }
  return 0;
}
