// Fourth pass over the SFU: sin.approx, cos.approx (FMUL.RZ by 1/(2 pi), then MUFU.SIN/COS) and tanh.approx
// (MUFU.TANH). sin/cos: for F fraction bits, every input x is keyed by the sign of y = x *rz 1/(2 pi) and the
// fraction of |y| truncated to F bits; the model "the result is a function of the key" is checked on all 2^32
// inputs by filling a table (the first result seen for each key) and counting results that differ from their
// key's. tanh: whether the result depends on the top 23 - k mantissa bits only (the low k cleared), and odd symmetry.
// Writes the sin and cos tables for the smallest F without a conflict, and tanh's table for the largest k.
// Build: nvcc -O3 -arch=sm_90 -o mufu_tables4 mufu_tables4.cu ; run: ./mufu_tables4 OUTDIR
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define F32OP(name, ins) __device__ __forceinline__ uint32_t name(uint32_t x) { float y; asm(ins " %0, %1;" : "=f"(y) : "f"(__uint_as_float(x))); return __float_as_uint(y); }
F32OP(sin_a, "sin.approx.ftz.f32")
F32OP(cos_a, "cos.approx.ftz.f32")
F32OP(tanh_a, "tanh.approx.f32")
F32OP(sin_n, "sin.approx.f32")
F32OP(cos_n, "cos.approx.f32")

__device__ unsigned long long g_count[96];
__device__ uint32_t g_first[96][3];
__device__ void miss(int c, uint32_t x, uint32_t a, uint32_t b) {
  unsigned long long k = atomicAdd(&g_count[c], 1ull);
  if (k == 0) { g_first[c][0] = x; g_first[c][1] = a; g_first[c][2] = b; }
}

// y = x *rz 1/(2 pi) as ptxas computes it (FMUL.RZ with 0x3e22f983).
__device__ float yof(uint32_t x) { return __fmul_rz(__uint_as_float(x), __uint_as_float(0x3e22f983u)); }
// The key: sign of y, then |y|'s fraction truncated to F bits (signed = 0: by |y|; 1: y - floor(y), no sign).
__device__ uint32_t key(float y, int F, int signed_floor) {
  double a = signed_floor ? (double)y - floor((double)y) : fabs((double)y);
  double frac = a - floor(a);
  uint32_t k = (uint32_t)(frac * (double)(1u << F));
  if (!signed_floor && y < 0) k |= 1u << F;
  return k;
}

__global__ void group(uint32_t *slots, int F, int fn, int signed_floor, int counter, uint32_t base) {
  uint32_t x = base + blockIdx.x * blockDim.x + threadIdx.x;
  if (((x >> 23) & 0xff) == 0xff) return;  // NaN and infinities apart
  uint32_t out = fn ? cos_a(x) : sin_a(x);
  uint32_t k = key(yof(x), F, signed_floor);
  uint32_t old = atomicCAS(&slots[k], 0xffffffffu, out);
  if (old != 0xffffffffu && old != out) miss(counter, x, out, old);
}

__global__ void same_as_ftz(uint32_t base) {
  uint32_t x = base + blockIdx.x * blockDim.x + threadIdx.x;
  if (sin_a(x) != sin_n(x)) miss(40, x, sin_a(x), sin_n(x));
  if (cos_a(x) != cos_n(x)) miss(41, x, cos_a(x), cos_n(x));
}

__global__ void tanh_check(uint32_t base) {
  uint32_t x = base + blockIdx.x * blockDim.x + threadIdx.x;
  if (((x >> 23) & 0xff) == 0xff) return;
  uint32_t g = tanh_a(x);
  for (int k = 1; k <= 23; k++) {
    uint32_t t = tanh_a(x & ~((1u << k) - 1));
    if (t != g) miss(k, x, g, t);   // counters 1..23: truncating k low bits changes the result
  }
  if (tanh_a(x ^ 0x80000000u) != (g ^ 0x80000000u)) miss(0, x, g, tanh_a(x ^ 0x80000000u));
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  const int Fs[] = {22, 23, 24, 25, 26, 28};
  uint32_t *slots;
  CHECK(cudaMalloc(&slots, 4ull << 29));
  int counter = 48, bestF[2] = {0, 0};
  for (int fn = 0; fn < 2; fn++)
    for (int sf = 0; sf < 2; sf++)
      for (int fi = 0; fi < 6; fi++, counter++) {
        int F = Fs[fi];
        CHECK(cudaMemset(slots, 0xff, 4ull << (F + 1)));
        for (uint64_t base = 0; base < (1ull << 32); base += (1ull << 30))
          group<<<(1u << 30) / 256, 256>>>(slots, F, fn, sf, counter, (uint32_t)base);
        CHECK(cudaDeviceSynchronize());
        unsigned long long c; CHECK(cudaMemcpyFromSymbol(&c, g_count, 8, 8 * counter));
        uint32_t f[3]; CHECK(cudaMemcpyFromSymbol(f, g_first, 12, 12 * counter));
        printf("%s keyed by %s, F = %d: conflicts %llu", fn ? "cos" : "sin", sf ? "y - floor(y)" : "sign and frac(|y|)", F, c);
        if (c) printf(" (first: x %08x result %08x, its key's %08x)", f[0], f[1], f[2]);
        printf("\n");
        if (c == 0 && sf == 0 && !bestF[fn]) {
          bestF[fn] = F;
          static uint32_t host[1u << 26];
          if (F <= 25) {
            CHECK(cudaMemcpy(host, slots, 4ull << (F + 1), cudaMemcpyDeviceToHost));
            uint64_t filled = 0; for (uint64_t i = 0; i < (2ull << F); i++) filled += host[i] != 0xffffffffu;
            printf("  table written: %llu of %llu keys reached\n", (unsigned long long)filled, (unsigned long long)(2ull << F));
            char path[512]; snprintf(path, sizeof path, "%s/%s%d.u32", dir, fn ? "cos" : "sin", F);
            FILE *o = fopen(path, "wb"); fwrite(host, 4, 2ull << F, o); fclose(o);
          }
        }
      }
  for (uint64_t base = 0; base < (1ull << 32); base += (1ull << 30)) {
    same_as_ftz<<<(1u << 30) / 256, 256>>>((uint32_t)base);
    tanh_check<<<(1u << 30) / 256, 256>>>((uint32_t)base);
  }
  CHECK(cudaDeviceSynchronize());
  unsigned long long c[96]; uint32_t f[96][3];
  CHECK(cudaMemcpyFromSymbol(c, g_count, sizeof c)); CHECK(cudaMemcpyFromSymbol(f, g_first, sizeof f));
  printf("sin.approx.f32 != sin.approx.ftz.f32: %llu; cos: %llu\n", c[40], c[41]);
  printf("tanh odd symmetry mismatches %llu (first x %08x)\n", c[0], f[0][0]);
  int bestk = 0;
  for (int k = 1; k <= 23; k++) {
    printf("tanh with the low %d mantissa bits cleared differs: %llu (first x %08x: %08x against %08x)\n", k, c[k], f[k][0], f[k][1], f[k][2]);
    if (c[k] == 0) bestk = k;
  }
  printf("tanh: largest k without a difference %d\n", bestk);
  return 0;
}
