// ubench28: what a loop's back edge, a shuffle's consumer and an L2 line's atomic rate cost (issue 22).
#include <cstdio>
#include <cuda_runtime.h>
#define N_ITER 4096
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

// 8 independent shuffle chains, the loop unrolled U times (8U SHFL a back edge).
template <int U> __global__ void k_shfl_tput(int *out, long long *cyc) {
  int a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
  __syncwarp();
  long long t0 = clock64();
  #pragma unroll U
  for (int i = 0; i < N_ITER; i++) {
    a0 = __shfl_xor_sync(0xffffffff, a0, 1); a1 = __shfl_xor_sync(0xffffffff, a1, 2);
    a2 = __shfl_xor_sync(0xffffffff, a2, 4); a3 = __shfl_xor_sync(0xffffffff, a3, 8);
    a4 = __shfl_xor_sync(0xffffffff, a4, 16); a5 = __shfl_xor_sync(0xffffffff, a5, 3);
    a6 = __shfl_xor_sync(0xffffffff, a6, 5); a7 = __shfl_xor_sync(0xffffffff, a7, 7);
  }
  long long t1 = clock64();
  out[threadIdx.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
// The same, 8 independent FP64 FMA chains.
template <int U> __global__ void k_dfma_tput(double *out, long long *cyc, double d) {
  double v0 = threadIdx.x, v1 = v0 + 1, v2 = v0 + 2, v3 = v0 + 3, v4 = v0 + 4, v5 = v0 + 5, v6 = v0 + 6, v7 = v0 + 7;
  long long t0 = clock64();
  #pragma unroll U
  for (int i = 0; i < N_ITER; i++) {
    v0 = __fma_rn(v0, d, d); v1 = __fma_rn(v1, d, d); v2 = __fma_rn(v2, d, d); v3 = __fma_rn(v3, d, d);
    v4 = __fma_rn(v4, d, d); v5 = __fma_rn(v5, d, d); v6 = __fma_rn(v6, d, d); v7 = __fma_rn(v7, d, d);
  }
  long long t1 = clock64();
  out[threadIdx.x] = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
// A dependent chain of SHFL and one more instruction (OP), the loop unrolled U times.
#define PAIR(name, T, init, expr)                                                              \
  template <int U> __global__ void name(T *out, long long *cyc, T d) {                         \
    T v = init;                                                                                \
    __syncwarp();                                                                              \
    long long t0 = clock64();                                                                  \
    _Pragma("unroll U") for (int i = 0; i < N_ITER; i++) { v = __shfl_xor_sync(0xffffffff, v, 1); v = expr; } \
    long long t1 = clock64();                                                                  \
    out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;                              \
  }
PAIR(k_pair_fadd, float, (float)threadIdx.x, v + d)
PAIR(k_pair_fmax, float, (float)threadIdx.x, fmaxf(v, d))
PAIR(k_pair_iadd, int, (int)threadIdx.x, v + d)
PAIR(k_pair_xor, int, (int)threadIdx.x, v ^ d)
PAIR(k_pair_imad, int, (int)threadIdx.x, v * d + 3)
PAIR(k_pair_ffma, float, (float)threadIdx.x, v * d + 1.5f)
// A dependent FADD chain, the loop unrolled U times (a back edge every U FADDs).
template <int U> __global__ void k_fadd(float *out, long long *cyc, float d) {
  float v = threadIdx.x;
  long long t0 = clock64();
  #pragma unroll U
  for (int i = 0; i < N_ITER; i++) v = v + d;
  long long t1 = clock64();
  out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
// Global atomics on one line (spread 1: 32 words; 0: one word), each result added in, the loop unrolled U times.
template <int U> __global__ void k_atom_global(int *g, int *out, long long *cyc, int spread) {
  int v = 0;
  long long t0 = clock64();
  #pragma unroll U
  for (int i = 0; i < 512; i++) v += atomicAdd(&g[(threadIdx.x * spread) & 31], 1 + (v & 0));
  long long t1 = clock64();
  out[threadIdx.x] = v;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
// N reds on one line, then an atomic on the same word whose result is waited for.
template <int N> __global__ void k_red_line(int *g, int *out, long long *cyc, int spread) {
  int *p = &g[(threadIdx.x * spread) & 31];
  long long t0 = clock64();
  #pragma unroll
  for (int i = 0; i < N; i++) atomicAdd(p, 1);
  int v = atomicAdd(p, 1);
  out[threadIdx.x] = v;
  long long t1 = clock64();
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}
// Shared atomics, as ubench's k_atom_shared, the loop unrolled U times.
template <int U> __global__ void k_atom_shared(int *out, long long *cyc, int spread) {
  __shared__ int s[32];
  if (threadIdx.x < 32) s[threadIdx.x] = 0;
  __syncthreads();
  int v = 0;
  long long t0 = clock64();
  #pragma unroll U
  for (int i = 0; i < 1024; i++) v += atomicAdd(&s[(threadIdx.x * spread) & 31], 1 + (v & 0));
  long long t1 = clock64();
  out[threadIdx.x] = v;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  int *io; long long *cyc, h; int *g; float *fo; double *dout;
  CHECK(cudaMalloc(&io, 4096 * 4)); CHECK(cudaMalloc(&fo, 4096 * 4)); CHECK(cudaMalloc(&dout, 4096 * 8));
  CHECK(cudaMalloc(&cyc, 64)); CHECK(cudaMalloc(&g, 1 << 20)); CHECK(cudaMemset(g, 0, 1 << 20));
  auto rd = [&]() { cudaDeviceSynchronize(); cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost); return (double)h; };
  for (int rep = 0; rep < 3; rep++) {
    printf("--- rep %d\n", rep);
#define TPUT(U) k_shfl_tput<U><<<1, 32>>>(io, cyc); printf("shfl 8 chains unroll %d: %.3f cycles/shfl\n", U, rd() / N_ITER / 8);
    TPUT(1) TPUT(2) TPUT(4) TPUT(8) TPUT(16)
#define DTPUT(U) k_dfma_tput<U><<<1, 32>>>(dout, cyc, 1.0000001); printf("dfma 8 chains unroll %d: %.3f cycles/dfma\n", U, rd() / N_ITER / 8);
    DTPUT(1) DTPUT(2) DTPUT(4) DTPUT(8) DTPUT(16)
#define PR(k, o, d, U) k<U><<<1, 32>>>(o, cyc, d); printf(#k " unroll %d: %.3f cycles/pair\n", U, rd() / N_ITER);
    PR(k_pair_fadd, fo, 1.0f, 1) PR(k_pair_fadd, fo, 1.0f, 16)
    PR(k_pair_fmax, fo, 1.0f, 1) PR(k_pair_fmax, fo, 1.0f, 16)
    PR(k_pair_ffma, fo, 1.0f, 1) PR(k_pair_ffma, fo, 1.0f, 16)
    PR(k_pair_iadd, io, 1, 1) PR(k_pair_iadd, io, 1, 16)
    PR(k_pair_xor, io, 3, 1) PR(k_pair_xor, io, 3, 16)
    PR(k_pair_imad, io, 3, 1) PR(k_pair_imad, io, 3, 16)
#define FA(U) k_fadd<U><<<1, 32>>>(fo, cyc, 1.0f); printf("fadd chain unroll %d: %.3f cycles/fadd\n", U, rd() / N_ITER);
    FA(1) FA(2) FA(4) FA(16)
#define AG(U, s) k_atom_global<U><<<1, 32>>>(g, io, cyc, s); printf("atom global spread %d unroll %d: %.3f cycles/atomic\n", s, U, rd() / 512);
    AG(1, 0) AG(16, 0) AG(64, 0) AG(128, 0) AG(1, 1) AG(16, 1) AG(64, 1) AG(128, 1)
#define RL(N, s) k_red_line<N><<<1, 32>>>(g, io, cyc, s); printf("red line spread %d N %d: %.1f cycles\n", s, N, rd());
    RL(0, 0) RL(32, 0) RL(64, 0) RL(128, 0) RL(0, 1) RL(32, 1) RL(64, 1) RL(128, 1)
#define AS(U, s) k_atom_shared<U><<<1, 32>>>(io, cyc, s); printf("atom shared spread %d unroll %d: %.3f cycles/atomic\n", s, U, rd() / 1024);
    AS(1, 0) AS(16, 0) AS(64, 0) AS(1, 1) AS(16, 1) AS(64, 1)
  }
  CHECK(cudaGetLastError());
  return 0;
}
