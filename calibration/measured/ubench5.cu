// Microbenchmarks for issue 22, after the fit over random programs (calibration/analysis/fit_random.py) put the
// largest unexplained costs on global loads and branches:
//   A. divergent branches: a loop whose body is an if/else on the lane's parity (both paths run, one after the
//      other) against the same loop with a warp-uniform condition; cycles per iteration;
//   B. an L1-hit load's latency by the lines a warp touches: each lane follows its own chain g[p] = p (a fixed
//      point, so every load after the first hits L1), lanes `stride` words apart (1 line, 2, 6, 32).
// Build: nvcc -O3 -arch=sm_90 -o ubench5 ubench5.cu ; run: ./ubench5 ; SASS: cuobjdump -sass ubench5
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define ITERS 256

__global__ void k_branch(unsigned *out, long long *cyc, unsigned uniform, unsigned y) {
  unsigned x = threadIdx.x;
  bool c = uniform ? (y & 1) : (threadIdx.x & 1);
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < ITERS; i++) {
    if (c) {
      asm volatile("mad.lo.u32 %0, %0, 3, %1;" : "+r"(x) : "r"(y));
      asm volatile("mad.lo.u32 %0, %0, 5, %1;" : "+r"(x) : "r"(y));
      asm volatile("mad.lo.u32 %0, %0, 7, %1;" : "+r"(x) : "r"(y));
      asm volatile("mad.lo.u32 %0, %0, 9, %1;" : "+r"(x) : "r"(y));
    } else {
      asm volatile("mad.lo.u32 %0, %0, 11, %1;" : "+r"(x) : "r"(y));
      asm volatile("mad.lo.u32 %0, %0, 13, %1;" : "+r"(x) : "r"(y));
      asm volatile("mad.lo.u32 %0, %0, 15, %1;" : "+r"(x) : "r"(y));
      asm volatile("mad.lo.u32 %0, %0, 17, %1;" : "+r"(x) : "r"(y));
    }
    c = !c == !c;  // unchanged, but not provably so before the loop
  }
  long long t1 = clock64();
  out[threadIdx.x] = x;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}


// A': the same with the branch written in PTX and 16 dependent IMADs a path (too long for if-conversion).
#define MADS4(k) "mad.lo.u32 %0, %0, " #k ", %2;\n\tmad.lo.u32 %0, %0, " #k ", %2;\n\tmad.lo.u32 %0, %0, " #k ", %2;\n\tmad.lo.u32 %0, %0, " #k ", %2;\n\t"
__global__ void k_branch_ptx(unsigned *out, long long *cyc, unsigned mode, unsigned y) {
  unsigned x = threadIdx.x;
  // mode 0: lanes alternate (divergent); 1: every lane takes the first path; 2: every lane the second.
  unsigned c = mode == 0 ? (threadIdx.x & 1) : (mode == 1 ? 1u : 0u);
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < ITERS; i++) {
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t@p bra BR_A;\n\t"
                 MADS4(3) MADS4(5) MADS4(7) MADS4(9)
                 "bra.uni BR_END;\nBR_A:\n\t"
                 MADS4(11) MADS4(13) MADS4(15) MADS4(17)
                 "\nBR_END:\n\t}" : "+r"(x) : "r"(c), "r"(y));
  }
  long long t1 = clock64();
  out[threadIdx.x] = x;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

__global__ void k_lines(const unsigned *g, unsigned *out, long long *cyc, unsigned stride) {
  unsigned p = threadIdx.x * stride;
  p = g[p];  // first touch (misses), outside the timed region
  long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < ITERS; i++) p = g[p];
  long long t1 = clock64();
  out[threadIdx.x] = p;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  unsigned *dout, *dg; long long *dcyc;
  CHECK(cudaMalloc(&dout, 1024 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcyc, 8 * sizeof(long long)));
  const int words = 32 * 64;
  unsigned h[words];
  for (int i = 0; i < words; i++) h[i] = i;
  CHECK(cudaMalloc(&dg, sizeof h));
  CHECK(cudaMemcpy(dg, h, sizeof h, cudaMemcpyHostToDevice));
  for (int rep = 0; rep < 3; rep++) {
    for (unsigned uniform = 0; uniform < 2; uniform++) {
      k_branch<<<1, 32>>>(dout, dcyc, uniform, 1);
      CHECK(cudaDeviceSynchronize());
      long long c; CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
      printf("branch %s: %.2f cycles per iteration\n", uniform ? "uniform (one path)" : "divergent (both paths)", (double)c / ITERS);
    }
    const char *modes[] = {"divergent (both paths)", "uniform, first path", "uniform, second path"};
    for (unsigned mode = 0; mode < 3; mode++) {
      k_branch_ptx<<<1, 32>>>(dout, dcyc, mode, 1);
      CHECK(cudaDeviceSynchronize());
      long long c; CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
      printf("PTX branch, 16 IMADs a path, %s: %.2f cycles per iteration\n", modes[mode], (double)c / ITERS);
    }
    const unsigned strides[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64};
    for (unsigned s : strides) {
      k_lines<<<1, 32>>>(dg, dout, dcyc, s);
      CHECK(cudaDeviceSynchronize());
      long long c; CHECK(cudaMemcpy(&c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
      unsigned lines = s >= 32 ? 32 : (31 * s * 4) / 128 + 1;
      printf("L1-hit load, lanes %u words apart (%u lines): %.2f cycles per load\n", s, lines, (double)c / ITERS);
    }
  }
  return 0;
}
