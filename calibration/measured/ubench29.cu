// ubench29: a 32-bit integer division or remainder by a register, against one by a constant (issue 22).
#include <cstdio>
#include <cuda_runtime.h>
#define N_ITER 1024
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

// A dependent chain: v = v OP d + 1000000 (d a kernel parameter, in a register), the loop not unrolled.
#define CHAIN(name, T, expr)                                                                   \
  __global__ void name(T *out, long long *cyc, T d) {                                          \
    T v = (T)threadIdx.x + (T)1000000;                                                         \
    long long t0 = clock64();                                                                  \
    _Pragma("unroll 1") for (int i = 0; i < N_ITER; i++) { v = expr; v = v + (T)1000000; }     \
    long long t1 = clock64();                                                                  \
    out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;                              \
  }
CHAIN(k_udiv_reg, unsigned, v / d)
CHAIN(k_urem_reg, unsigned, v % d)
CHAIN(k_sdiv_reg, int, v / d)
CHAIN(k_srem_reg, int, v % d)
CHAIN(k_udiv_imm, unsigned, v / 7u)
CHAIN(k_add_only, unsigned, v ^ d)
// The divisor changes every iteration (d + (i & 3)): no part of the sequence can leave the loop.
CHAIN(k_udiv_var, unsigned, v / (d + (i & 3)))
CHAIN(k_xor_var, unsigned, v ^ (d + (i & 3)))
CHAIN(k_urem_var, unsigned, v % (d + (i & 3)))
CHAIN(k_sdiv_var, int, v / (d - (i & 3)))
CHAIN(k_srem_var, int, v % (d - (i & 3)))
CHAIN(k_sxor_var, int, v ^ (d - (i & 3)))
// Eight independent chains, each dividing by its own register (changing every iteration): the issue interval.
__global__ void k_udiv_tput(unsigned *out, long long *cyc, unsigned d) {
  unsigned v0 = threadIdx.x, v1 = v0 + 1, v2 = v0 + 2, v3 = v0 + 3, v4 = v0 + 4, v5 = v0 + 5, v6 = v0 + 6, v7 = v0 + 7;
  long long t0 = clock64();
  #pragma unroll 1
  for (int i = 0; i < N_ITER; i++) {
    unsigned e = d + (i & 3);
    unsigned d0 = e, d1 = e + 1, d2 = e + 2, d3 = e + 3, d4 = e + 4, d5 = e + 5, d6 = e + 6, d7 = e + 7;
    v0 = v0 / d0 + 1000000u; v1 = v1 / d1 + 1000000u; v2 = v2 / d2 + 1000000u; v3 = v3 / d3 + 1000000u;
    v4 = v4 / d4 + 1000000u; v5 = v5 / d5 + 1000000u; v6 = v6 / d6 + 1000000u; v7 = v7 / d7 + 1000000u;
  }
  long long t1 = clock64();
  out[threadIdx.x] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  unsigned *uo; int *io; long long *cyc, h;
  CHECK(cudaMalloc(&uo, 4096 * 4)); CHECK(cudaMalloc(&io, 4096 * 4)); CHECK(cudaMalloc(&cyc, 64));
  auto rd = [&]() { cudaDeviceSynchronize(); cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost); return (double)h; };
  for (int rep = 0; rep < 3; rep++) {
    printf("--- rep %d\n", rep);
#define RUN(k, o, d) k<<<1, 32>>>(o, cyc, d); printf(#k ": %.3f cycles/iteration\n", rd() / N_ITER);
    RUN(k_udiv_reg, uo, 7u) RUN(k_urem_reg, uo, 7u) RUN(k_sdiv_reg, io, -7) RUN(k_srem_reg, io, -7)
    RUN(k_udiv_imm, uo, 7u) RUN(k_add_only, uo, 7u) RUN(k_udiv_var, uo, 7u) RUN(k_xor_var, uo, 7u)
    RUN(k_urem_var, uo, 7u) RUN(k_sdiv_var, io, -7) RUN(k_srem_var, io, -7) RUN(k_sxor_var, io, -7)
    RUN(k_udiv_tput, uo, 7u)
  }
  CHECK(cudaGetLastError());
  return 0;
}
