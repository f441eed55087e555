// Microbenchmark for issue 22: does a load of another 32-byte sector of a line already in L1 miss?
// One thread chases through N lines (128 bytes each) of a buffer, one load per line, in passes that read
// word `o` of every line: the first pass (o = 0) brings the lines into L1 (from L2: the buffer is warmed first by
// another kernel), later passes read another sector (o = 8, 16, 24) or the same one (o = 0, 1) again. The cycles
// per load of each pass say which hit L1 (about 40) and which went to L2 (about 290).
// Build: nvcc -O3 -arch=sm_90 -o ubench16 ubench16.cu ; run: ./ubench16
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

__device__ __forceinline__ unsigned ldca(const unsigned *p) {
  unsigned v;
  asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

// Touch every word from another SM-independent kernel so that the lines are in L2 (not L1 of the chasing SM).
__global__ void warm(const unsigned *buf, int n, unsigned *sink) {
  unsigned s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += __ldcg(buf + i);  // L2 only
  if (s == 0xdeadbeef) *sink = s;
}

// Passes over `lines` lines, each reading word offs[p] of every line (a chase: each word holds the next index).
__global__ void chase(const unsigned *buf, int lines, const int *offs, int passes, long long *cyc, unsigned *sink) {
  unsigned acc = 0;
  for (int p = 0; p < passes; p++) {
    unsigned i = offs[p];  // line 0, word offs[p]
    long long t0 = clock64();
    for (int k = 0; k < lines; k++) i = buf[i];  // LDG.E: a plain load, cached in L1
    long long t1 = clock64();
    cyc[p] = t1 - t0;
    acc += i;
  }
  *sink = acc;
}

int main() {
  const int lines = 512;  // 64 KiB: fits the L1
  const int words = lines * 32;
  std::vector<unsigned> h(words);
  for (int l = 0; l < lines; l++)
    for (int w = 0; w < 32; w++) h[l * 32 + w] = ((l * 97 + 1) % lines) * 32 + w;  // scattered next line, same word
  unsigned *buf, *sink;
  long long *cyc;
  int *offs;
  CHECK(cudaMalloc(&buf, words * 4));
  CHECK(cudaMalloc(&sink, 4));
  CHECK(cudaMalloc(&cyc, 64 * 8));
  CHECK(cudaMalloc(&offs, 64 * 4));
  CHECK(cudaMemcpy(buf, h.data(), words * 4, cudaMemcpyHostToDevice));
  const char *names[] = {"A: o=0,8,8,0,1,16,24,31", "B: o=8,8,0,0", "C: o=0,0,8,9,16,16"};
  std::vector<std::vector<int>> sets = {{0, 8, 8, 0, 1, 16, 24, 31}, {8, 8, 0, 0}, {0, 0, 8, 9, 16, 16}};
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, sm_%d%d\n", prop.name, prop.major, prop.minor);
  for (size_t s = 0; s < sets.size(); s++) {
    for (int rep = 0; rep < 3; rep++) {
      warm<<<1, 256>>>(buf, words, sink);
      CHECK(cudaMemcpy(offs, sets[s].data(), sets[s].size() * 4, cudaMemcpyHostToDevice));
      chase<<<1, 1>>>(buf, lines, offs, (int)sets[s].size(), cyc, sink);
      CHECK(cudaDeviceSynchronize());
      std::vector<long long> c(sets[s].size());
      CHECK(cudaMemcpy(c.data(), cyc, c.size() * 8, cudaMemcpyDeviceToHost));
      printf("%s rep %d: cycles per load:", names[s], rep);
      for (size_t p = 0; p < c.size(); p++) printf(" %.1f", (double)c[p] / lines);
      printf("\n");
    }
  }
  return 0;
}
