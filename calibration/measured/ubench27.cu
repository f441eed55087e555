// Issue 22: loads and atomics on a buffer's last 32-byte sector when the buffer ends inside it. Each case does
// what `sim crosscheck` does before a kernel: flush L2 (zero a buffer of twice its size), allocate the buffer
// zeroed (cudaMalloc + cudaMemset of `offset + len` words), copy `len` words from the host at word `offset`
// (0, then 33 lines further each run, as the cross-check spreads its nine runs), then one thread reads the clock,
// loads (ld.global.cg) or atomically adds (atom.global.add.u32, value returned) word `at` of the copy, stores the
// value to shared memory and reads the clock again: the access's cycles. 9 runs a case.
// Build: nvcc -O3 -arch=sm_90 -o ubench27 ubench27.cu ; run: ./ubench27
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
__device__ __forceinline__ long long clk() { long long t; asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory"); return t; }
__global__ void k_access(unsigned *g, long long *cyc, int atomic) {
  __shared__ unsigned s[2];
  __shared__ unsigned long long sp;
  sp = (unsigned long long)g;
  __syncthreads();
  unsigned v;
  long long t0 = clk();
  if (atomic) asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(v) : "l"(g) : "memory");
  else asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(g) : "memory");
  asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&s[0])), "r"(v) : "memory");
  long long t1 = clk();
  cyc[0] = t1 - t0;
  cyc[1] = sp;
}
int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, sm_%d%d, L2 %d bytes\n", prop.name, prop.major, prop.minor, prop.l2CacheSize);
  unsigned char *flush; long long *dcyc;
  size_t fl = 2 * (size_t)prop.l2CacheSize;
  CHECK(cudaMalloc(&flush, fl));
  CHECK(cudaMalloc(&dcyc, 64));
  struct Case { const char *name; int len, at, atomic; };
  const Case cases[] = {
    {"load, 32-word copy, word 0 (full sector)", 32, 0, 0},
    {"load, 32-word copy, word 31 (full sector)", 32, 31, 0},
    {"load, 36-word copy, word 0 (full sector)", 36, 0, 0},
    {"load, 36-word copy, word 32 (last sector, 4 of 8 words copied)", 36, 32, 0},
    {"load, 33-word copy, word 32 (last sector, 1 of 8 words copied)", 33, 32, 0},
    {"load, 40-word copy, word 32 (last sector, whole)", 40, 32, 0},
    {"load, 6-word copy, word 0 (the only sector, 6 of 8 words)", 6, 0, 0},
    {"load, 8-word copy, word 0 (the only sector, whole)", 8, 0, 0},
    {"atomic, 1-word copy, word 0 (1 of 8 words)", 1, 0, 1},
    {"atomic, 8-word copy, word 0 (whole sector)", 8, 0, 1},
    {"atomic, 32-word copy, word 0 (whole sectors)", 32, 0, 1},
  };
  const int spread = 33 * 32;
  for (const Case &c : cases) {
    printf("%-66s", c.name);
    std::vector<unsigned> h(c.len);
    for (int i = 0; i < c.len; i++) h[i] = i;
    for (int run = 0; run < 9; run++) {
      CHECK(cudaMemset(flush, 0, fl));
      int offset = run * spread;
      unsigned *g;
      CHECK(cudaMalloc(&g, (offset + c.len) * sizeof(unsigned)));
      CHECK(cudaMemset(g, 0, (offset + c.len) * sizeof(unsigned)));
      CHECK(cudaMemcpy(g + offset, h.data(), c.len * sizeof(unsigned), cudaMemcpyHostToDevice));
      k_access<<<1, 1>>>(g + offset + c.at, dcyc, c.atomic);
      CHECK(cudaDeviceSynchronize());
      long long r[2];
      CHECK(cudaMemcpy(r, dcyc, sizeof r, cudaMemcpyDeviceToHost));
      printf(" %lld", r[0]);
      CHECK(cudaFree(g));
    }
    printf("\n");
  }
  return 0;
}
