// Directed-rounding divisions, reciprocals and square roots (PTX div/rcp/sqrt .rz/.rm/.rp, CUDA's __fdiv_rz …):
// ptxas calls a subroutine for every f32/f64 division and reciprocal and every f64 square root of this kind
// (SASS of programs/ptx/cuda/w40_directed_rounding.cu). One thread times each operation alone, as ubench20.cu does
// the .rn ones: the clock, the operation (inline PTX on values loaded from memory), a shared store of its result,
// the clock; each timed twice, the second reported. The .rn forms on the same operands for comparison.
// Build: nvcc -O3 -arch=sm_90 -o ubench33 ubench33.cu ; run: ./ubench33
#include <cstdio>
#include <cmath>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
#define NV 6
#define NOPS 12
#define TIME32(OP) do { for (int rep = 0; rep < 2; rep++) { t0 = clk(); asm volatile(OP : "=f"(r) : "f"(a), "f"(b)); \
  asm volatile("st.volatile.shared.f32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[rep])), "f"(r) : "memory"); t1 = clk(); } \
  cyc[(i * NV + j) * NOPS + k++] = t1 - t0; acc += r; } while (0)
#define TIME32U(OP) do { for (int rep = 0; rep < 2; rep++) { t0 = clk(); asm volatile(OP : "=f"(r) : "f"(a)); \
  asm volatile("st.volatile.shared.f32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[rep])), "f"(r) : "memory"); t1 = clk(); } \
  cyc[(i * NV + j) * NOPS + k++] = t1 - t0; acc += r; } while (0)
#define TIME64(OP) do { for (int rep = 0; rep < 2; rep++) { t0 = clk(); asm volatile(OP : "=d"(r) : "d"(a), "d"(b)); \
  asm volatile("st.volatile.shared.f64 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[rep])), "d"(r) : "memory"); t1 = clk(); } \
  cyc[(i * NV + j) * NOPS + k++] = t1 - t0; acc += r; } while (0)
#define TIME64U(OP) do { for (int rep = 0; rep < 2; rep++) { t0 = clk(); asm volatile(OP : "=d"(r) : "d"(a)); \
  asm volatile("st.volatile.shared.f64 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[rep])), "d"(r) : "memory"); t1 = clk(); } \
  cyc[(i * NV + j) * NOPS + k++] = t1 - t0; acc += r; } while (0)
__global__ void k_f32(const float *va, long long *cyc, float *out) {
  __shared__ float s[2];
  float acc = 0;
  for (int i = 0; i < NV; i++)
    for (int j = 0; j < NV; j++) {
      float a = va[i], b = va[j], r = 0;
      long long t0 = 0, t1 = 0;
      int k = 0;
      TIME32("div.rn.f32 %0, %1, %2;"); TIME32("div.rz.f32 %0, %1, %2;"); TIME32("div.rm.f32 %0, %1, %2;"); TIME32("div.rp.f32 %0, %1, %2;");
      TIME32U("rcp.rn.f32 %0, %1;"); TIME32U("rcp.rz.f32 %0, %1;"); TIME32U("rcp.rm.f32 %0, %1;"); TIME32U("rcp.rp.f32 %0, %1;");
      TIME32U("sqrt.rn.f32 %0, %1;"); TIME32U("sqrt.rz.f32 %0, %1;"); TIME32U("sqrt.rm.f32 %0, %1;"); TIME32U("sqrt.rp.f32 %0, %1;");
    }
  out[0] = acc;
}
__global__ void k_f64(const double *va, long long *cyc, double *out) {
  __shared__ double s[2];
  double acc = 0;
  for (int i = 0; i < NV; i++)
    for (int j = 0; j < NV; j++) {
      double a = va[i], b = va[j], r = 0;
      long long t0 = 0, t1 = 0;
      int k = 0;
      TIME64("div.rn.f64 %0, %1, %2;"); TIME64("div.rz.f64 %0, %1, %2;"); TIME64("div.rm.f64 %0, %1, %2;"); TIME64("div.rp.f64 %0, %1, %2;");
      TIME64U("rcp.rn.f64 %0, %1;"); TIME64U("rcp.rz.f64 %0, %1;"); TIME64U("rcp.rm.f64 %0, %1;"); TIME64U("rcp.rp.f64 %0, %1;");
      TIME64U("sqrt.rn.f64 %0, %1;"); TIME64U("sqrt.rz.f64 %0, %1;"); TIME64U("sqrt.rm.f64 %0, %1;"); TIME64U("sqrt.rp.f64 %0, %1;");
    }
  out[0] = acc;
}
int main() {
  const char *ops[NOPS] = {"div.rn", "div.rz", "div.rm", "div.rp", "rcp.rn", "rcp.rz", "rcp.rm", "rcp.rp", "sqrt.rn", "sqrt.rz", "sqrt.rm", "sqrt.rp"};
  const char *nf[NV] = {"1.5", "3", "0.1", "2^-120", "1e-40(den)", "2^120"};
  float hf[NV] = {1.5f, 3.0f, 0.1f, ldexpf(1, -120), 1e-40f, ldexpf(1, 120)};
  const char *nd[NV] = {"1.5", "3", "0.1", "2^-1000", "1e-310(den)", "2^1000"};
  double hd[NV] = {1.5, 3.0, 0.1, ldexp(1, -1000), 1e-310, ldexp(1, 1000)};
  float *df, *dofl; double *dd, *dof; long long *dc;
  CHECK(cudaMalloc(&df, sizeof hf)); CHECK(cudaMalloc(&dd, sizeof hd)); CHECK(cudaMalloc(&dc, NV * NV * NOPS * 8));
  CHECK(cudaMalloc(&dof, 64)); CHECK(cudaMalloc(&dofl, 64));
  CHECK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice));
  long long c[NV * NV * NOPS];
  for (int pass = 0; pass < 2; pass++) {
    for (int w = 0; w < 2; w++) {
      if (w == 0) k_f32<<<1, 1>>>(df, dc, dofl); else k_f64<<<1, 1>>>(dd, dc, dof);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
      printf("pass %d, %s: cycles of one operation (a / b; rcp and sqrt of a)\n%-24s", pass, w ? "f64" : "f32", "a, b");
      for (int k = 0; k < NOPS; k++) printf(" %8s", ops[k]);
      printf("\n");
      for (int i = 0; i < NV; i++) for (int j = 0; j < NV; j++) {
        char lab[64]; snprintf(lab, sizeof lab, "%s, %s", (w ? nd : nf)[i], (w ? nd : nf)[j]);
        printf("%-24s", lab);
        for (int k = 0; k < NOPS; k++) printf(" %8lld", c[(i * NV + j) * NOPS + k]);
        printf("\n");
      }
    }
  }
  return 0;
}
