// Second pass over the SFU (after mufu_tables.cu): MUFU.LG2 as three tables (x in [1,2), [0.5,1), [0.25,0.5)) and
// the 36-bit fixed-point sum of the exponent and the logarithm rounded toward zero; MUFU.SQRT as a table by mantissa
// and exponent parity; how many fraction bits MUFU.EX2 keeps (its result compared with that of its input rounded
// to a fixed point of F fraction bits); the f64 approximations' special inputs. Checks every one of the 2^32 inputs.
// Build: nvcc -O3 -arch=sm_90 -o mufu_tables2 mufu_tables2.cu ; run: ./mufu_tables2 OUTDIR
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)
#define F32OP(name, ins) __device__ __forceinline__ uint32_t name(uint32_t x) { float y; asm(ins " %0, %1;" : "=f"(y) : "f"(__uint_as_float(x))); return __float_as_uint(y); }
F32OP(lg2, "lg2.approx.ftz.f32")
F32OP(ex2, "ex2.approx.ftz.f32")
F32OP(sqr, "sqrt.approx.ftz.f32")
#define F64OP(name, ins) __device__ __forceinline__ uint64_t name(uint64_t x) { double y; asm(ins " %0, %1;" : "=d"(y) : "d"(__longlong_as_double((long long)x))); return (uint64_t)__double_as_longlong(y); }
F64OP(rcp64, "rcp.approx.ftz.f64")
F64OP(rsq64, "rsqrt.approx.ftz.f64")

__device__ uint32_t rescale(uint32_t r, int d) {
  uint32_t s = r & 0x80000000u;
  int e = (int)((r >> 23) & 0xff) + d;
  if (e <= 0) return s;
  if (e >= 255) return s | 0x7f800000u;
  return s | (r & 0x7fffffu) | ((uint32_t)e << 23);
}
// A signed fixed-point number in units of 2^-40 to f32, rounded toward zero.
__device__ uint32_t fixed_rz(long long v) {
  if (v == 0) return 0;
  uint32_t s = v < 0 ? 0x80000000u : 0;
  unsigned long long a = v < 0 ? (unsigned long long)(-v) : (unsigned long long)v;
  int top = 63 - __clzll(a);           // a in [2^top, 2^(top+1))
  unsigned long long m = top > 23 ? a >> (top - 23) : a << (23 - top);
  int e = top - 40 + 127;
  return s | ((uint32_t)e << 23) | ((uint32_t)m & 0x7fffffu);
}

#define NC 54
__device__ unsigned long long g_count[NC];
__device__ uint32_t g_first[NC][4][3];
__device__ void miss(int c, uint32_t x, uint32_t gpu, uint32_t model) {
  unsigned long long k = atomicAdd(&g_count[c], 1ull);
  if (k < 4) { g_first[c][k][0] = x; g_first[c][k][1] = gpu; g_first[c][k][2] = model; }
}

__global__ void tables(uint32_t *t0, uint32_t *t1, uint32_t *t2, uint32_t *tq) {
  uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < (1u << 23)) { t0[k] = lg2(0x3f800000u | k); t1[k] = lg2(0x3f000000u | k); t2[k] = lg2(0x3e800000u | k); }
  if (k < (1u << 24)) tq[k] = sqr(0x3f800000u + k);
}

// lg2 model: E in {0,-1,-2} from the tables; otherwise E + V rounded toward zero, V = t0 in units of 2^-40 plus a
// sticky unit where t2 shows that V lies above t0.
__device__ uint32_t lg2_model(uint32_t b, const uint32_t *t0, const uint32_t *t1, const uint32_t *t2) {
  int e = (int)((b >> 23) & 0xff) - 127; uint32_t m = b & 0x7fffffu;
  if (e == 0) return t0[m];
  if (e == -1) return t1[m];
  if (e == -2) return t2[m];
  long long v = (long long)((double)__uint_as_float(t0[m]) * 1099511627776.0);   // exact: t0 is a multiple of 2^-36
  long long s2 = ((long long)-2 << 40) + v;
  bool sticky = fixed_rz(s2) != t2[m];
  return fixed_rz(((long long)e << 40) + v + (sticky ? 1 : 0));
}

__global__ void check(const uint32_t *t0, const uint32_t *t1, const uint32_t *t2, const uint32_t *tq, uint32_t base) {
  uint32_t b = base + blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = b & 0x80000000u, e = (b >> 23) & 0xff, m = b & 0x7fffffu;
  if (!s && e != 0 && e != 255) {
    uint32_t g = lg2(b), r = lg2_model(b, t0, t1, t2);
    if (g != r) miss(0, b, g, r);
    long long v = (long long)((double)__uint_as_float(t0[m]) * 1099511627776.0);
    uint32_t r2 = fixed_rz((((long long)e - 127) << 40) + v);
    if (g != r2) miss(1, b, g, r2);
    int ex = (int)e - 127, par = ex & 1;
    uint32_t gs = sqr(b), rs = rescale(tq[((uint32_t)par << 23) | m], (ex - par) >> 1);
    if (gs != rs) miss(2, b, gs, rs);
  }
  float x = __uint_as_float(b);
  if (e != 0 && e != 255 && x > -127.0f && x < 128.0f) {
    uint32_t g = ex2(b);
    double sx = (double)x;
    for (int F = 24; F <= 40; F++) {
      double sc = ldexp(sx, F);
      for (int how = 0; how < 3; how++) {
        double r = how == 0 ? floor(sc) : how == 1 ? rint(sc) : trunc(sc);
        uint32_t xq = __float_as_uint((float)ldexp(r, -F));   // exact: at most 24 significant bits here
        uint32_t gq = ex2(xq);
        if (g != gq) miss(3 + (F - 24) * 3 + how, b, g, gq);
      }
    }
  }
}

__global__ void specials64(const uint64_t *in, int n, uint64_t *out) {
  int i = threadIdx.x;
  if (i < n) { out[2 * i] = rcp64(in[i]); out[2 * i + 1] = rsq64(in[i]); }
}
__global__ void specials32(const uint32_t *in, int n, uint32_t *out) {
  int i = threadIdx.x;
  if (i < n) { out[3 * i] = lg2(in[i]); out[3 * i + 1] = ex2(in[i]); out[3 * i + 2] = sqr(in[i]); }
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  uint32_t *t0, *t1, *t2, *tq;
  CHECK(cudaMalloc(&t0, 4u << 23)); CHECK(cudaMalloc(&t1, 4u << 23)); CHECK(cudaMalloc(&t2, 4u << 23)); CHECK(cudaMalloc(&tq, 4u << 24));
  tables<<<(1u << 24) / 256, 256>>>(t0, t1, t2, tq);
  CHECK(cudaDeviceSynchronize());
  static uint32_t host[1u << 24];
  const char *names[4] = {"lg2_0", "lg2_m1", "lg2_m2", "sqrt"}; uint32_t *ts[4] = {t0, t1, t2, tq}; uint32_t sz[4] = {1u << 23, 1u << 23, 1u << 23, 1u << 24};
  for (int k = 0; k < 4; k++) {
    CHECK(cudaMemcpy(host, ts[k], 4ull * sz[k], cudaMemcpyDeviceToHost));
    char path[512]; snprintf(path, sizeof path, "%s/%s.u32", dir, names[k]);
    FILE *f = fopen(path, "wb"); fwrite(host, 4, sz[k], f); fclose(f);
  }
  for (uint64_t base = 0; base < (1ull << 32); base += (1ull << 30)) {
    check<<<(1u << 30) / 256, 256>>>(t0, t1, t2, tq, (uint32_t)base);
  }
  CHECK(cudaDeviceSynchronize());
  unsigned long long c[NC]; uint32_t fst[NC][4][3];
  CHECK(cudaMemcpyFromSymbol(c, g_count, sizeof c));
  CHECK(cudaMemcpyFromSymbol(fst, g_first, sizeof fst));
  for (int k = 0; k < NC; k++) {
    char label[96];
    if (k == 0) snprintf(label, sizeof label, "lg2, three tables and a sticky bit");
    else if (k == 1) snprintf(label, sizeof label, "lg2, E + t0 toward zero (36-bit fixed)");
    else if (k == 2) snprintf(label, sizeof label, "sqrt by mantissa and exponent parity");
    else snprintf(label, sizeof label, "ex2 = ex2(x in %d fraction bits, %s)", 24 + (k - 3) / 3, (k - 3) % 3 == 0 ? "floor" : (k - 3) % 3 == 1 ? "nearest" : "truncation");
    printf("%-48s mismatches %llu", label, c[k]);
    for (int j = 0; j < 4 && j < (int)c[k]; j++) printf(" | %08x: gpu %08x q %08x", fst[k][j][0], fst[k][j][1], fst[k][j][2]);
    printf("\n");
  }
  const uint64_t sp64[] = {0x0ull, 0x8000000000000000ull, 0x0000000100000000ull, 0x000fffff00000000ull, 0x800fffffffffffffull,
                           0x0010000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                           0xfff8000000000000ull, 0x7ff0000100000000ull, 0x7ff0000000000001ull, 0x3ff0000000000000ull,
                           0xbff0000000000000ull, 0x7fefffffffffffffull, 0x7fd0000000000000ull, 0x7fe0000000000000ull,
                           0x0020000000000000ull, 0x0000000000000001ull, 0xbfe0000000000000ull};
  int n64 = sizeof sp64 / 8;
  uint64_t *di, *dout, ho[64];
  CHECK(cudaMalloc(&di, sizeof sp64)); CHECK(cudaMalloc(&dout, sizeof ho));
  CHECK(cudaMemcpy(di, sp64, sizeof sp64, cudaMemcpyHostToDevice));
  specials64<<<1, 32>>>(di, n64, dout);
  CHECK(cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost));
  printf("f64 specials: x | rcp.approx.ftz.f64 | rsqrt.approx.ftz.f64\n");
  for (int i = 0; i < n64; i++) printf("%016llx | %016llx | %016llx\n", (unsigned long long)sp64[i], (unsigned long long)ho[2 * i], (unsigned long long)ho[2 * i + 1]);
  const uint32_t sp32[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x80800000u, 0x3f800000u, 0xbf800000u,
                           0x7f7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x42fe0000u, 0x42fffffeu,
                           0xc2fdfffeu, 0xc2fe0000u, 0xc2fe0001u, 0x33000000u, 0xb3000000u, 0x32800000u, 0xb2800000u, 0x3f000000u};
  int n32 = sizeof sp32 / 4;
  uint32_t *d32, *o32, h32[96];
  CHECK(cudaMalloc(&d32, sizeof sp32)); CHECK(cudaMalloc(&o32, sizeof h32));
  CHECK(cudaMemcpy(d32, sp32, sizeof sp32, cudaMemcpyHostToDevice));
  specials32<<<1, 32>>>(d32, n32, o32);
  CHECK(cudaMemcpy(h32, o32, sizeof h32, cudaMemcpyDeviceToHost));
  printf("f32 specials: x | lg2.ftz | ex2.ftz | sqrt.approx.ftz\n");
  for (int i = 0; i < n32; i++) printf("%08x | %08x | %08x | %08x\n", sp32[i], h32[3 * i], h32[3 * i + 1], h32[3 * i + 2]);
  return 0;
}
