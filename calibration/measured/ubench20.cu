// Issue 22: which operands send the GPU's IEEE divisions and square roots down their slow path (a called
// subroutine), and what that costs. nvcc 13 for sm_90 compiles div.rn.f32 as MUFU.RCP + FFMA refinement with
// `FCHK P0, a, b` choosing a CALL to the slow path; sqrt.rn.f32 as MUFU.RSQ with a call when the bits of a less
// 0x0d000000 exceed 0x727fffff; div.rn.f64 and sqrt.rn.f64 likewise with integer and FSETP tests of the high
// words. One thread times each operation alone: the clock, the operation (inline PTX on values loaded from
// memory), a shared store of its result, the clock.
// Build: nvcc -O3 -arch=sm_90 -o ubench20 ubench20.cu ; run: ./ubench20
#include <cstdio>
#include <cstring>
#include <cmath>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
#define NF 14
#define ND 14
// kind 0: div.rn.f32 a/b over all pairs; 1: sqrt.rn.f32 a; each timed twice (the second is reported, warm).
__global__ void k_f32(const float *va, long long *cyc, float *out) {
  __shared__ float s[2];
  float acc = 0;
  for (int i = 0; i < NF; i++)
    for (int j = 0; j <= NF; j++) {
      float a = va[i], b = va[j < NF ? j : 0], r = 0;
      long long t0 = 0, t1 = 0;
      for (int rep = 0; rep < 2; rep++) {
        t0 = clk();
        if (j < NF) asm volatile("div.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
        else asm volatile("sqrt.rn.f32 %0, %1;" : "=f"(r) : "f"(a));
        asm volatile("st.volatile.shared.f32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[rep])), "f"(r) : "memory");
        t1 = clk();
      }
      cyc[i * (NF + 1) + j] = t1 - t0;
      acc += r;
    }
  out[0] = acc;
}
__global__ void k_f64(const double *va, long long *cyc, double *out) {
  __shared__ double s[2];
  double acc = 0;
  for (int i = 0; i < ND; i++)
    for (int j = 0; j <= ND; j++) {
      double a = va[i], b = va[j < ND ? j : 0], r = 0;
      long long t0 = 0, t1 = 0;
      for (int rep = 0; rep < 2; rep++) {
        t0 = clk();
        if (j < ND) asm volatile("div.rn.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b));
        else asm volatile("sqrt.rn.f64 %0, %1;" : "=d"(r) : "d"(a));
        asm volatile("st.volatile.shared.f64 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[rep])), "d"(r) : "memory");
        t1 = clk();
      }
      cyc[i * (ND + 1) + j] = t1 - t0;
      acc += r;
    }
  out[0] = acc;
}
int main() {
  const char *nf[NF] = {"1.5", "-3", "0", "1e-40(den)", "inf", "nan", "2^-126", "2^127", "2^-100", "2^100", "2^-120", "2^120", "1e-30", "3e38"};
  float hf[NF] = {1.5f, -3.0f, 0.0f, 1e-40f, INFINITY, NAN, ldexpf(1, -126), ldexpf(1, 127), ldexpf(1, -100), ldexpf(1, 100), ldexpf(1, -120), ldexpf(1, 120), 1e-30f, 3e38f};
  const char *nd[ND] = {"1.5", "-3", "0", "1e-310(den)", "inf", "nan", "2^-1022", "2^1023", "2^-969", "2^-968", "2^1016", "2^1017", "2^-1000", "2^1000"};
  double hd[ND] = {1.5, -3.0, 0.0, 1e-310, INFINITY, NAN, ldexp(1, -1022), ldexp(1, 1023), ldexp(1, -969), ldexp(1, -968), ldexp(1, 1016), ldexp(1, 1017), ldexp(1, -1000), ldexp(1, 1000)};
  float *df; double *dd, *dof; long long *dc; float *dofl;
  CHECK(cudaMalloc(&df, sizeof hf)); CHECK(cudaMalloc(&dd, sizeof hd)); CHECK(cudaMalloc(&dc, 4096 * 8));
  CHECK(cudaMalloc(&dof, 64)); CHECK(cudaMalloc(&dofl, 64));
  CHECK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice));
  long long c[(NF + 1) * NF];
  for (int pass = 0; pass < 2; pass++) {
    k_f32<<<1, 1>>>(df, dc, dofl); CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
    printf("pass %d: div.rn.f32 a / b, cycles (rows a, columns b), last column sqrt.rn.f32 a\n%12s", pass, "");
    for (int j = 0; j < NF; j++) printf(" %10s", nf[j]);
    printf(" %10s\n", "sqrt");
    for (int i = 0; i < NF; i++) { printf("%12s", nf[i]); for (int j = 0; j <= NF; j++) printf(" %10lld", c[i * (NF + 1) + j]); printf("\n"); }
    k_f64<<<1, 1>>>(dd, dc, dof); CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
    printf("pass %d: div.rn.f64 a / b, cycles (rows a, columns b), last column sqrt.rn.f64 a\n%12s", pass, "");
    for (int j = 0; j < ND; j++) printf(" %10s", nd[j]);
    printf(" %10s\n", "sqrt");
    for (int i = 0; i < ND; i++) { printf("%12s", nd[i]); for (int j = 0; j <= ND; j++) printf(" %10lld", c[i * (ND + 1) + j]); printf("\n"); }
  }
  return 0;
}
