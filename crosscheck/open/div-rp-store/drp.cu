// The first eight operand pairs of crosscheck/edges/edges_carry.s (thread i: a = {x, y}, b = {y, x} as 64-bit
// words) through div.rp.f64, the results stored whole: all are the IEEE results warpsim gives (low words included),
// where the edge program storing the low word alone after `mov.b64 {lo, hi}` read back 0 through NVRTC (see
// crosscheck/README.md, "Open").
#include <cstdio>
__global__ void k(const unsigned long long *v, unsigned long long *o) {
  int i = threadIdx.x;
  double a = __longlong_as_double(v[2 * i]), b = __longlong_as_double(v[2 * i + 1]), r;
  asm("div.rp.f64 %0, %1, %2;" : "=d"(r) : "d"(a), "d"(b));
  o[3 * i] = __double_as_longlong(r);
  o[3 * i + 1] = __double_as_longlong(__ddiv_ru(a, b));
  unsigned long long x = v[2 * i], y = v[2 * i + 1], z;
  asm("div.rp.f64 %0, %1, %2;" : "=l"(z) : "l"(x), "l"(y));
  o[3 * i + 2] = z;
}
int main() {
  unsigned long long h[16], *dv, *dout, out[24];
  for (int i = 0; i < 8; i++) {
    unsigned long long x = (i * 2654435761ull + 12345) % 4294967296ull, y = (i * 2246822519ull + 3266489917ull) % 4294967296ull;
    h[2 * i] = (y << 32) | x; h[2 * i + 1] = (x << 32) | y;
  }
  cudaMalloc(&dv, sizeof h); cudaMalloc(&dout, sizeof out);
  cudaMemcpy(dv, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 8>>>(dv, dout); cudaDeviceSynchronize();
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) printf("%d %016llx %016llx -> %016llx %016llx %016llx\n", i, h[2*i], h[2*i+1], out[3*i], out[3*i+1], out[3*i+2]);
}
