// ubench31: one rem.s64 whose lanes' operands differ in size and sign (random program 9650's, issue 22), against
// the same with every lane on one pair; timed as the second of two dependent remainders.
#include <cstdio>
#include <cuda_runtime.h>
#include "ubench31-pairs.h"
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

__global__ void k_srem(long long *out, const long long *a, const long long *b, long long *cyc) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  long long x = a[t], y = b[t];
  long long r = x % (y | 1);              // the first one waits for the loads
  long long z = x + (r & 0x100000000LL) * 0;
  long long z2 = x ^ (r >> 63 << 63 >> 63 & 0);
  __syncwarp();
  long long t0 = clock64();
  long long s = (z2 + (r & 0)) % y;
  long long t1 = clock64();
  out[t] = s + r + z;
  if (threadIdx.x % 32 == 0) cyc[t / 32] = t1 - t0;
}
__global__ void k_srem_dep(long long *out, const long long *a, const long long *b, long long *cyc) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  long long x = a[t], y = b[t];
  long long r = x % (y | 1);
  __syncwarp();
  long long t0 = clock64();
  long long s = (x ^ (r & 1)) % y;       // depends on r: issued after it
  long long t1 = clock64();
  long long u = s + 1;
  long long t2 = clock64();
  out[t] = u + r;
  if (threadIdx.x % 32 == 0) { cyc[t / 32] = t1 - t0; cyc[8 + t / 32] = t2 - t0; }
}

int main() {
  long long *a, *b, *o, *cyc, h[16];
  CHECK(cudaMalloc(&a, 1024)); CHECK(cudaMalloc(&b, 1024)); CHECK(cudaMalloc(&o, 1024)); CHECK(cudaMalloc(&cyc, 256));
  long long ha[128], hb[128];
  for (int mode = 0; mode < 4; mode++) {
    for (int t = 0; t < 128; t++) {
      int k = mode == 0 ? t : mode == 1 ? 11 : mode == 2 ? 0 : 15;  // 9650's lanes; one pair: big/big, small/small, small/big
      ha[t] = PA[k]; hb[t] = PB[k] == 0 ? 7 : PB[k];
    }
    cudaMemcpy(a, ha, 1024, cudaMemcpyHostToDevice); cudaMemcpy(b, hb, 1024, cudaMemcpyHostToDevice);
    const char *names[4] = {"program 9650's lanes", "every lane 9218868437227405311 % 6084658089669936562",
                            "every lane -1 % -528934619", "every lane 2 % 1113399124"};
    for (int rep = 0; rep < 3; rep++) {
      k_srem_dep<<<2, 64>>>(o, a, b, cyc); cudaDeviceSynchronize(); cudaMemcpy(h, cyc, 128, cudaMemcpyDeviceToHost);
      printf("srem64 %s rep %d: warps %lld %lld %lld %lld (to result %lld %lld %lld %lld)\n", names[mode], rep, h[0], h[1], h[2], h[3], h[8], h[9], h[10], h[11]);
    }
  }
  CHECK(cudaGetLastError());
  return 0;
}
