// Issue 22: where `FCHK` (div.rn.f32's test for its slow path) draws its lines: one thread times div.rn.f32 a/b
// (as ubench20.cu) over scans of exponents: a = 2^k with b = 1; b = 2^k with a = 1; a = 1.5 * 2^k with b = 1 (the
// quotient's exponent at the top); a = 2^-20 with b = 2^k (the quotient's exponent at the bottom); a = 2^k, b = 2^k.
// Prints each pair and its cycles (the fast path takes about 53 here, the slow path 180 or more).
// Build: nvcc -O3 -arch=sm_90 -o ubench21 ubench21.cu ; run: ./ubench21
#include <cstdio>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
__global__ void k(const float *a, const float *b, int n, long long *cyc, float *out) {
  __shared__ float s[2];
  float acc = 0;
  for (int i = 0; i < n; i++) {
    float x = a[i], y = b[i], r = 0;
    long long t0 = 0, t1 = 0;
    for (int rep = 0; rep < 2; rep++) {
      t0 = clk();
      asm volatile("div.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
      asm volatile("st.volatile.shared.f32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[rep])), "f"(r) : "memory");
      t1 = clk();
    }
    cyc[i] = t1 - t0;
    acc += r;
  }
  out[0] = acc;
}
int main() {
  std::vector<float> a, b; std::vector<const char *> scan; std::vector<int> ks;
  auto add = [&](const char *s, int kk, float x, float y) { a.push_back(x); b.push_back(y); scan.push_back(s); ks.push_back(kk); };
  for (int kk = -130; kk <= -95; kk++) add("a=2^k b=1", kk, ldexpf(1, kk), 1.0f);
  for (int kk = 115; kk <= 127; kk++) add("a=2^k b=1", kk, ldexpf(1, kk), 1.0f);
  for (int kk = 115; kk <= 127; kk++) add("a=1 b=2^k", kk, 1.0f, ldexpf(1, kk));
  for (int kk = -130; kk <= -115; kk++) add("a=1 b=2^k", kk, 1.0f, ldexpf(1, kk));
  for (int kk = 120; kk <= 127; kk++) add("a=1.5*2^k b=1", kk, ldexpf(1.5f, kk), 1.0f);
  for (int kk = 120; kk <= 127; kk++) add("a=1.5*2^k b=0.75", kk, ldexpf(1.5f, kk), 0.75f);
  for (int kk = 85; kk <= 115; kk++) add("a=2^-20 b=2^k", kk, ldexpf(1, -20), ldexpf(1, kk));
  for (int kk = -110; kk <= -85; kk++) add("a=2^20 b=2^k", kk, ldexpf(1, 20), ldexpf(1, kk));
  for (int kk = -127; kk <= 127; kk += 6) add("a=2^k b=2^k", kk, ldexpf(1, kk), ldexpf(1, kk));
  for (int kk = -110; kk <= -95; kk++) add("a=2^k b=2^-20", kk, ldexpf(1, kk), ldexpf(1, -20));
  int n = a.size();
  float *da, *db, *dout; long long *dc;
  CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&dc, n * 8)); CHECK(cudaMalloc(&dout, 64));
  CHECK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
  std::vector<long long> c(n);
  for (int pass = 0; pass < 2; pass++) {
    k<<<1, 1>>>(da, db, n, dc, dout); CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c.data(), dc, n * 8, cudaMemcpyDeviceToHost));
    if (pass == 0) continue;
    for (int i = 0; i < n; i++) printf("%-18s k=%5d  a=%-14g b=%-14g %5lld %s\n", scan[i], ks[i], a[i], b[i], c[i], c[i] > 100 ? "slow" : "fast");
  }
  return 0;
}
