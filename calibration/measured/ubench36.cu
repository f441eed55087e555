// Integer dot products and lop3: dependent chains of one warp, 256 operations unrolled 4 times (as ubench35.cu's):
// `v = dp4a.s32.s32(v, K, v)`, `v = dp2a.lo.s32.s32(v, K, v)`, `v = lop3.b32(v, K1, K2, 0x96)`; and, for comparison,
// `v = mad.lo.u32(v, K, v)` (IMAD). Per operation: the chain's cycles / 256.
// Build: nvcc -O3 -arch=sm_90 -o ubench36 ubench36.cu ; run: ./ubench36
#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ unsigned dp4a(unsigned a, unsigned b, unsigned c) { unsigned d; asm volatile("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__device__ __forceinline__ unsigned dp2a(unsigned a, unsigned b, unsigned c) { unsigned d; asm volatile("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__device__ __forceinline__ unsigned lop3(unsigned a, unsigned b, unsigned c) { unsigned d; asm volatile("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__device__ __forceinline__ unsigned imad(unsigned a, unsigned b, unsigned c) { unsigned d; asm volatile("mad.lo.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
#define CHAIN(NAME, EXPR) \
  __global__ void NAME(unsigned *out, long long *cyc, unsigned k1, unsigned k2) { \
    unsigned v = threadIdx.x + 2; long long t0 = clock64(); \
    _Pragma("unroll 4") for (int i = 0; i < 256; i++) v = EXPR; \
    long long t1 = clock64(); out[threadIdx.x] = v; if (threadIdx.x == 0) cyc[0] = t1 - t0; }
CHAIN(k_dp4a, dp4a(v, k1, v))
CHAIN(k_dp2a, dp2a(v, k1, v))
CHAIN(k_lop3, lop3(v, k1, k2))
CHAIN(k_imad, imad(v, k1, v))
int main() {
  unsigned *out; long long *cyc, h[1];
  CHECK(cudaMalloc(&out, 32 * 4)); CHECK(cudaMalloc(&cyc, 8));
#define RUN(K, NAME) for (int pass = 0; pass < 2; pass++) { K<<<1, 32>>>(out, cyc, 0x01fe7f80u, 0x12345678u); CHECK(cudaDeviceSynchronize()); \
    CHECK(cudaMemcpy(h, cyc, 8, cudaMemcpyDeviceToHost)); if (pass) printf("%-40s %.2f cycles\n", NAME, h[0] / 256.0); }
  RUN(k_dp4a, "dp4a.s32.s32 dependent chain")
  RUN(k_dp2a, "dp2a.lo.s32.s32 dependent chain")
  RUN(k_lop3, "lop3.b32 dependent chain")
  RUN(k_imad, "mad.lo.u32 dependent chain")
  return 0;
}
