// Is the SFU's 2^x (ex2.approx.ftz.f32, MUFU.EX2) and 1/x (rcp.approx.ftz.f32, MUFU.RCP) a function warpsim can
// reproduce bit for bit from a table of one period? For every one of the 2^32 inputs, compare the GPU's result
// with models built from its own results on [0, 1) (ex2: a table by the 23-bit fixed-point fraction of x, scaled
// by 2^floor; three ways of making the fixed-point number) and on [1, 2) (rcp: a table by the mantissa, scaled
// by the exponent). Prints the mismatches of each model by range, and the first few. Also times a dependent chain.
// Build: nvcc -O3 -arch=sm_90 -o mufu_probe mufu_probe.cu ; run: ./mufu_probe
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

__device__ __forceinline__ float ex2(float x) { float y; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float rcp(float x) { float y; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }

__global__ void tables(uint32_t *t_ex2, uint32_t *t_rcp) {
  uint32_t f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f >= (1u << 23)) return;
  t_ex2[f] = __float_as_uint(ex2((float)f * 0x1p-23f));
  t_rcp[f] = __float_as_uint(rcp(__uint_as_float(0x3f800000u | f)));
}

// ex2 models: fixed = x * 2^23 made integral by floor (0), round to nearest even (1) or truncation (2).
__device__ uint32_t ex2_model(float x, const uint32_t *t, int how) {
  uint32_t b = __float_as_uint(x);
  if (x != x) return 0x7fffffffu;
  if (x >= 128.0f) return 0x7f800000u;
  if (x < -150.0f) return 0u;  // (flushed; checked separately below)
  double s = (double)x * 8388608.0;  // exact
  double r = how == 0 ? floor(s) : how == 1 ? rint(s) : trunc(s);
  long long fixed = (long long)r;
  long long i = fixed >> 23;  // floor
  uint32_t frac = (uint32_t)(fixed & ((1 << 23) - 1));
  uint32_t m = t[frac];
  int e = (int)((m >> 23) & 0xff) + (int)i;
  if (e <= 0) return 0u;          // ftz
  if (e >= 255) return 0x7f800000u;
  (void)b;
  return (m & 0x807fffffu) | ((uint32_t)e << 23);
}

__device__ uint32_t rcp_model(float x, const uint32_t *t) {
  uint32_t b = __float_as_uint(x);
  uint32_t s = b & 0x80000000u, e = (b >> 23) & 0xff, m = b & 0x7fffffu;
  if (x != x) return 0x7fffffffu;
  if (e == 0) return s | 0x7f800000u;     // zero or flushed subnormal: infinity
  if (e == 255) return s;                 // infinity: zero
  uint32_t r = t[m];                      // 1/1.m in [0.5, 1]
  int re = (int)((r >> 23) & 0xff) - ((int)e - 127);
  if (re <= 0) return s;                  // ftz
  if (re >= 255) return s | 0x7f800000u;
  return s | (r & 0x7fffffu) | ((uint32_t)re << 23);
}

// Per model, mismatches in: [0] x in [-126, 128), [1] elsewhere (finite), [2] NaN/inf inputs. First mismatch kept.
__global__ void check(const uint32_t *t_ex2, const uint32_t *t_rcp, unsigned long long *count, uint32_t *first, uint32_t base) {
  uint32_t b = base + blockIdx.x * blockDim.x + threadIdx.x;
  float x = __uint_as_float(b);
  uint32_t hw = __float_as_uint(ex2(x));
  int range = (x != x || isinf(x)) ? 2 : (x >= -126.0f && x < 128.0f) ? 0 : 1;
  for (int how = 0; how < 3; how++) {
    uint32_t m = ex2_model(x, t_ex2, how);
    if (m != hw && !(hw != hw && m == 0x7fffffffu)) {
      unsigned long long k = atomicAdd(&count[how * 3 + range], 1ull);
      if (k == 0) { first[(how * 3 + range) * 3] = b; first[(how * 3 + range) * 3 + 1] = hw; first[(how * 3 + range) * 3 + 2] = m; }
    }
  }
  uint32_t hr = __float_as_uint(rcp(x));
  uint32_t mr = rcp_model(x, t_rcp);
  if (mr != hr && !((hr & 0x7fffffffu) > 0x7f800000u && mr == 0x7fffffffu)) {
    unsigned long long k = atomicAdd(&count[9 + range], 1ull);
    if (k == 0) { first[(9 + range) * 3] = b; first[(9 + range) * 3 + 1] = hr; first[(9 + range) * 3 + 2] = mr; }
  }
}

__global__ void chain(float x, int n, float *out, long long *cyc) {
  float y = x;
  long long t0 = clock64();
  for (int k = 0; k < n; k++) y = ex2(y) * 0.25f;
  long long t1 = clock64();
  *out = y; *cyc = t1 - t0;
}

int main() {
  uint32_t *te, *tr, *first; unsigned long long *count;
  CHECK(cudaMalloc(&te, 4u << 23)); CHECK(cudaMalloc(&tr, 4u << 23));
  CHECK(cudaMalloc(&count, 12 * 8)); CHECK(cudaMalloc(&first, 12 * 3 * 4));
  CHECK(cudaMemset(count, 0, 12 * 8)); CHECK(cudaMemset(first, 0, 12 * 3 * 4));
  tables<<<(1u << 23) / 256, 256>>>(te, tr);
  CHECK(cudaDeviceSynchronize());
  for (uint64_t base = 0; base < (1ull << 32); base += (1ull << 30))
    check<<<(1u << 30) / 256, 256>>>(te, tr, count, first, (uint32_t)base);
  CHECK(cudaDeviceSynchronize());
  unsigned long long c[12]; uint32_t f[36];
  CHECK(cudaMemcpy(c, count, sizeof c, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(f, first, sizeof f, cudaMemcpyDeviceToHost));
  const char *model[4] = {"ex2, floor", "ex2, nearest", "ex2, truncation", "rcp, by mantissa"};
  const char *range[3] = {"x in [-126, 128)", "other finite x", "NaN and infinities"};
  for (int k = 0; k < 12; k++)
    printf("%-17s %-19s mismatches %llu (first: x %08x GPU %08x model %08x)\n", model[k / 3], range[k % 3], c[k], f[3 * k], f[3 * k + 1], f[3 * k + 2]);
  uint32_t h[8];
  CHECK(cudaMemcpy(h, te, sizeof h, cudaMemcpyDeviceToHost));
  printf("ex2 table, first entries: %08x %08x %08x %08x\n", h[0], h[1], h[2], h[3]);
  float *o; long long *cy, cyc;
  CHECK(cudaMalloc(&o, 4)); CHECK(cudaMalloc(&cy, 8));
  for (int n : {256, 1024}) {
    chain<<<1, 1>>>(0.3f, n, o, cy);
    CHECK(cudaMemcpy(&cyc, cy, 8, cudaMemcpyDeviceToHost));
    printf("dependent ex2 + fmul chain, %d steps: %.2f cycles a step\n", n, double(cyc) / n);
  }
  return 0;
}
