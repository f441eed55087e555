// Fifth pass over the SFU (after mufu_tables4.cu): sin.approx and cos.approx as tables keyed by the sign bit of
// y = x *rz 1/(2 pi) and the fraction of |y| truncated to 25 bits, filled from all 2^32 inputs (NaN and infinities
// apart) and checked on them (a result that differs from its key's first is a conflict). Then the odd (sin) and even
// (cos) symmetry between the two signs' halves where both are reached, and each function's half for the plus sign
// written with the keys no input reaches filled by linear interpolation between their reached neighbours (never
// read). Build: nvcc -O3 -arch=sm_90 -o mufu_tables5 mufu_tables5.cu ; run: ./mufu_tables5 OUTDIR
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define F32OP(name, ins) __device__ __forceinline__ uint32_t name(uint32_t x) { float y; asm(ins " %0, %1;" : "=f"(y) : "f"(__uint_as_float(x))); return __float_as_uint(y); }
F32OP(sin_a, "sin.approx.ftz.f32")
F32OP(cos_a, "cos.approx.ftz.f32")
const int F = 25;
__device__ unsigned long long g_count[4];
__device__ uint32_t g_first[4][3];
__global__ void group(uint32_t *slots, int fn, uint32_t base) {
  uint32_t x = base + blockIdx.x * blockDim.x + threadIdx.x;
  if (((x >> 23) & 0xff) == 0xff) return;
  uint32_t out = fn ? cos_a(x) : sin_a(x);
  float y = __fmul_rz(__uint_as_float(x), __uint_as_float(0x3e22f983u));
  double a = fabs((double)y);
  uint32_t k = (uint32_t)((a - floor(a)) * (double)(1u << F)) | ((__float_as_uint(y) >> 31) << F);
  uint32_t old = atomicCAS(&slots[k], 0xffffffffu, out);
  if (old != 0xffffffffu && old != out) {
    unsigned long long n = atomicAdd(&g_count[fn], 1ull);
    if (n == 0) { g_first[fn][0] = x; g_first[fn][1] = out; g_first[fn][2] = old; }
  }
}
int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  const uint64_t n = 2ull << F, half = 1ull << F;
  uint32_t *slots; CHECK(cudaMalloc(&slots, 4 * n));
  std::vector<uint32_t> t(n);
  for (int fn = 0; fn < 2; fn++) {
    CHECK(cudaMemset(slots, 0xff, 4 * n));
    for (uint64_t base = 0; base < (1ull << 32); base += (1ull << 30)) group<<<(1u << 30) / 256, 256>>>(slots, fn, (uint32_t)base);
    CHECK(cudaDeviceSynchronize());
    unsigned long long c[4]; uint32_t f[4][3];
    CHECK(cudaMemcpyFromSymbol(c, g_count, sizeof c)); CHECK(cudaMemcpyFromSymbol(f, g_first, sizeof f));
    const char *name = fn ? "cos" : "sin";
    printf("%s keyed by the sign of y and frac(|y|) in %d bits: conflicts %llu", name, F, c[fn]);
    if (c[fn]) printf(" (first: x %08x result %08x, its key's %08x)", f[fn][0], f[fn][1], f[fn][2]);
    printf("\n");
    CHECK(cudaMemcpy(t.data(), slots, 4 * n, cudaMemcpyDeviceToHost));
    uint64_t reached[2] = {0, 0}, both = 0, asym = 0, first = 0;
    for (uint64_t k = 0; k < half; k++) {
      uint32_t p = t[k], m = t[half + k];
      reached[0] += p != 0xffffffffu; reached[1] += m != 0xffffffffu;
      if (p != 0xffffffffu && m != 0xffffffffu) {
        both++;
        uint32_t want = fn ? p : (p ^ 0x80000000u);
        if (m != want && !(p == 0x7fffffffu && m == 0x7fffffffu)) { if (!asym) first = k; asym++; }
      }
    }
    printf("  keys reached: plus %llu, minus %llu of %llu each; both %llu; %s symmetry broken at %llu (first key %llx: %08x, %08x)\n",
           (unsigned long long)reached[0], (unsigned long long)reached[1], (unsigned long long)half, (unsigned long long)both,
           fn ? "even" : "odd", (unsigned long long)asym, (unsigned long long)first, t[first], t[half + first]);
    // The plus half, its unreached keys filled from the minus half by symmetry, then by linear interpolation.
    std::vector<uint32_t> h(t.begin(), t.begin() + half);
    uint64_t from_minus = 0;
    for (uint64_t k = 0; k < half; k++)
      if (h[k] == 0xffffffffu && t[half + k] != 0xffffffffu) { h[k] = fn ? t[half + k] : (t[half + k] ^ 0x80000000u); from_minus++; }
    uint64_t gaps = 0;
    for (uint64_t k = 0; k < half;) {
      if (h[k] != 0xffffffffu) { k++; continue; }
      uint64_t e = k; while (e < half && h[e] == 0xffffffffu) e++;
      int64_t a = k ? (int64_t)h[k - 1] : (int64_t)h[e], b = e < half ? (int64_t)h[e] : a;
      for (uint64_t j = k; j < e; j++) h[j] = (uint32_t)(a + (b - a) * (int64_t)(j - k + 1) / (int64_t)(e - k + 1));
      gaps += e - k; k = e;
    }
    printf("  plus half written: %llu keys from the minus half, %llu interpolated (never read)\n", (unsigned long long)from_minus, (unsigned long long)gaps);
    char path[512]; snprintf(path, sizeof path, "%s/%s.u32", dir, name);
    FILE *o = fopen(path, "wb"); fwrite(h.data(), 4, half, o); fclose(o);
  }
  return 0;
}
