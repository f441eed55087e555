// Issue 22: the first global load of a launch with the parameters' constant-bank line already read, and the
// constant-bank miss itself.
//   A. ubench4's chase (k_cold: the pointer parameter first read after the start clock) and k_pre (the pointer
//      read and stored to shared memory before the start clock), in ubench4's order: the 64 MiB buffer's chases
//      first (which leave little of a 4 KiB buffer copied later in L2), then the 4 KiB buffer, fresh copies, each
//      launched twice; k_pre, k_cold, then k_pre again.
//   B. calibration/programs/param_miss.ptx (the path is the first argument), loaded as PTX by the driver: each
//      warp's first read of a parameter against its next read of the same line, 1 thread and then 4 warps.
// Build: nvcc -O3 -arch=sm_90 -o ubench19 ubench19.cu -lcuda ; run: ./ubench19 ../programs/param_miss.ptx
#include <cstdio>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define DCHECK(x) do { CUresult e = (x); if (e != CUDA_SUCCESS) { const char *s; cuGetErrorString(e, &s); printf("driver error %s at %s:%d\n", s, __FILE__, __LINE__); return 1; } } while (0)
#define STEPS 10
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
__global__ void k_cold(const unsigned *g, long long *cyc, unsigned *out) {
  __shared__ unsigned s[STEPS];
  unsigned p = 0; long long t[STEPS + 1];
  t[0] = clk();
#pragma unroll
  for (int i = 0; i < STEPS; i++) {
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(p) : "l"(g + p) : "memory");
    asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[i])), "r"(p) : "memory");
    t[i + 1] = clk();
  }
  for (int i = 0; i < STEPS; i++) cyc[i] = t[i + 1] - t[i];
  out[0] = s[STEPS - 1] + p;
}
__global__ void k_pre(const unsigned *g, long long *cyc, unsigned *out) {
  __shared__ unsigned s[STEPS + 1];
  unsigned p = 0; long long t[STEPS + 1];
  asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[STEPS])), "r"((unsigned)(size_t)g) : "memory");
  t[0] = clk();
#pragma unroll
  for (int i = 0; i < STEPS; i++) {
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(p) : "l"(g + p) : "memory");
    asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[i])), "r"(p) : "memory");
    t[i + 1] = clk();
  }
  for (int i = 0; i < STEPS; i++) cyc[i] = t[i + 1] - t[i];
  out[0] = s[STEPS - 1] + p + s[STEPS];
}
int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, sm_%d%d\n", prop.name, prop.major, prop.minor);
  unsigned *dout; long long *dcyc;
  CHECK(cudaMalloc(&dout, 4096 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dcyc, 64 * sizeof(long long)));
  const unsigned big[STEPS] = {0, 8, 32, 1024, 16384, 524288, 8388608, 8388616, 0, 32};
  const unsigned small[STEPS] = {0, 8, 32, 64, 96, 128, 512, 520, 0, 32};
  const char *names[4] = {"64 MiB k_cold", "4 KiB k_pre ", "4 KiB k_cold", "4 KiB k_pre "};
  for (int phase = 0; phase < 4; phase++) {
    const size_t words = phase == 0 ? (16u << 20) : 1024;
    const unsigned *chain = phase == 0 ? big : small;
    std::vector<unsigned> h(words, 0);
    for (int i = 0; i + 1 < STEPS; i++) h[chain[i]] = chain[i + 1];
    for (int rep = 0; rep < 5; rep++) {
      unsigned *dg;
      CHECK(cudaMalloc(&dg, words * sizeof(unsigned)));
      CHECK(cudaMemcpy(dg, h.data(), words * sizeof(unsigned), cudaMemcpyHostToDevice));
      for (int launch = 0; launch < 2; launch++) {
        if (phase == 1 || phase == 3) k_pre<<<1, 1>>>(dg, dcyc, dout); else k_cold<<<1, 1>>>(dg, dcyc, dout);
        CHECK(cudaDeviceSynchronize());
        long long c[STEPS];
        CHECK(cudaMemcpy(c, dcyc, sizeof c, cudaMemcpyDeviceToHost));
        printf("%s fresh copy %d, launch %d:", names[phase], rep, launch);
        for (int i = 0; i < STEPS; i++) printf(" %lld", c[i]);
        printf("\n");
      }
      CHECK(cudaFree(dg));
    }
  }
  printf("words: 0 8 32 64 96 128 512 520 0 32 (4 KiB); steps: [0] first touch, [1] same line, [2]-[6] new lines\n");
  if (argc < 2) return 0;
  CUmodule mod; CUfunction f;
  DCHECK(cuModuleLoad(&mod, argv[1]));
  DCHECK(cuModuleGetFunction(&f, mod, "param_miss"));
  unsigned *dc, *da, *db;
  CHECK(cudaMalloc(&dc, 64 * sizeof(unsigned)));
  CHECK(cudaMalloc(&da, 64)); CHECK(cudaMalloc(&db, 64));
  for (int threads = 1; threads <= 128; threads += 127) {
    for (int rep = 0; rep < 10; rep++) {
      CHECK(cudaMemset(dc, 0, 64 * sizeof(unsigned)));
      CUdeviceptr pc = (CUdeviceptr)dc, pa = (CUdeviceptr)da, pb = (CUdeviceptr)db;
      void *args[] = {&pc, &pa, &pb};
      DCHECK(cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, 0, args, 0));
      CHECK(cudaDeviceSynchronize());
      unsigned c[9];
      CHECK(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
      printf("param_miss %3d threads, launch %d: cyc[0] (first - second) %d; per warp first, second:", threads, rep, (int)c[0]);
      for (int w = 0; w < (threads + 31) / 32; w++) printf(" %u %u;", c[1 + 2 * w], c[2 + 2 * w]);
      printf("\n");
    }
  }
  return 0;
}
