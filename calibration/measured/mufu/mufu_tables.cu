// The SFU's approximations (MUFU.RCP, MUFU.RSQ, MUFU.LG2, MUFU.EX2, MUFU.RCP64H, MUFU.RSQ64H) as functions warpsim can
// reproduce from tables measured on the GPU. Writes each table (raw little-endian u32, the GPU's result for every
// entry) and checks, over every one of the 2^32 inputs (f32) or high words (f64), the model that scales the table's
// entry by the input's exponent, counting mismatches by range with the first few kept.
// Build: nvcc -O3 -arch=sm_90 -o mufu_tables mufu_tables.cu ; run: ./mufu_tables OUTDIR
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); return 1; } } while (0)

#define F32OP(name, ins) __device__ __forceinline__ uint32_t name(uint32_t x) { float y; asm(ins " %0, %1;" : "=f"(y) : "f"(__uint_as_float(x))); return __float_as_uint(y); }
F32OP(rcp, "rcp.approx.ftz.f32")
F32OP(rsq, "rsqrt.approx.ftz.f32")
F32OP(lg2, "lg2.approx.ftz.f32")
F32OP(ex2, "ex2.approx.ftz.f32")
F32OP(rcp_n, "rcp.approx.f32")
F32OP(rsq_n, "rsqrt.approx.f32")
F32OP(lg2_n, "lg2.approx.f32")
F32OP(ex2_n, "ex2.approx.f32")
F32OP(tanh_a, "tanh.approx.f32")
F32OP(sin_a, "sin.approx.ftz.f32")
F32OP(cos_a, "cos.approx.ftz.f32")
#define F64OP(name, ins) __device__ __forceinline__ uint64_t name(uint64_t x) { double y; asm(ins " %0, %1;" : "=d"(y) : "d"(__longlong_as_double((long long)x))); return (uint64_t)__double_as_longlong(y); }
F64OP(rcp64, "rcp.approx.ftz.f64")
F64OP(rsq64, "rsqrt.approx.ftz.f64")
F64OP(rsq64_n, "rsqrt.approx.f64")

enum { T_RCP, T_RSQ, T_LG2, T_EX2, T_RCP64, T_RSQ64, T_RCP64LO, T_RSQ64LO, NT };
const uint32_t tsize[NT] = {1u << 23, 1u << 24, 1u << 23, 1u << 24, 1u << 20, 1u << 21, 1u << 20, 1u << 21};
const char *tname[NT] = {"rcp", "rsq", "lg2", "ex2", "rcp64h", "rsq64h", "rcp64lo", "rsq64lo"};

__global__ void tables(uint32_t **t) {
  uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < (1u << 23)) t[T_RCP][k] = rcp(0x3f800000u | k);
  if (k < (1u << 24)) t[T_RSQ][k] = rsq(0x3f800000u + k);            // [1, 4)
  if (k < (1u << 23)) t[T_LG2][k] = lg2(0x3f800000u | k);
  if (k < (1u << 24)) t[T_EX2][k] = ex2(__float_as_uint((float)k * 0x1p-24f));  // [0, 1) by 2^-24
  if (k < (1u << 20)) { uint64_t r = rcp64((uint64_t)(0x3ff00000u | k) << 32); t[T_RCP64][k] = (uint32_t)(r >> 32); t[T_RCP64LO][k] = (uint32_t)r; }
  if (k < (1u << 21)) { uint64_t r = rsq64((uint64_t)(0x3ff00000u + k) << 32); t[T_RSQ64][k] = (uint32_t)(r >> 32); t[T_RSQ64LO][k] = (uint32_t)r; }
}

// Scale a table entry's exponent by d; flush to signed zero below the normal range, infinity above (8-bit or 11-bit).
__device__ uint32_t rescale(uint32_t r, int d, int ebits) {
  int shift = ebits == 8 ? 23 : 20, emax = (1 << ebits) - 1;
  uint32_t s = r & 0x80000000u, mmask = (1u << shift) - 1;
  int e = (int)((r >> shift) & emax) + d;
  if (e <= 0) return s;
  if (e >= emax) return s | ((uint32_t)emax << shift);
  return s | (r & mmask) | ((uint32_t)e << shift);
}

#define NC 32
__device__ unsigned long long g_count[NC];
__device__ uint32_t g_first[NC][4][3];
__device__ void miss(int c, uint32_t x, uint32_t gpu, uint32_t model) {
  unsigned long long k = atomicAdd(&g_count[c], 1ull);
  if (k < 4) { g_first[c][k][0] = x; g_first[c][k][1] = gpu; g_first[c][k][2] = model; }
}
const char *cname[NC] = {
  "rsq32 by mantissa and exponent parity, x > 0 normal",
  "rcp64 high word by mantissa, lo = 0, normal",
  "rcp64 output depends on the input's low word",
  "rcp64 output low word nonzero",
  "rsq64 high word by mantissa and parity, lo = 0, normal",
  "rsq64 output depends on the input's low word",
  "rsq64 output low word nonzero",
  "lg2 = E + table, rounded to nearest",
  "lg2 = E + table, toward zero",
  "lg2 = E + table, down",
  "lg2 = E + table, up",
  "ex2 by 24-bit fraction, floor",
  "ex2 by 24-bit fraction, nearest",
  "ex2 by 24-bit fraction, truncation",
  "rcp32 by mantissa, normal x (again)",
};

__global__ void check32(uint32_t *const *t, uint32_t base) {
  uint32_t b = base + blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = b & 0x80000000u, e = (b >> 23) & 0xff, m = b & 0x7fffffu;
  float x = __uint_as_float(b);
  if (e != 0 && e != 255) {
    uint32_t g = rcp(b), r = s | rescale(t[T_RCP][m], 127 - (int)e, 8);
    if (g != r) miss(14, b, g, r);
  }
  if (!s && e != 0 && e != 255) {
    int ex = (int)e - 127, par = ex & 1;  // x = 2^(ex - par) * [1, 4)
    uint32_t g = rsq(b), r = rescale(t[T_RSQ][((uint32_t)par << 23) | m], -((ex - par) >> 1), 8);
    if (g != r) miss(0, b, g, r);
    double v = (double)ex + (double)__uint_as_float(t[T_LG2][m]);
    uint32_t gl = lg2(b);
    uint32_t c0 = __float_as_uint(__double2float_rn(v)), c1 = __float_as_uint(__double2float_rz(v));
    uint32_t c2 = __float_as_uint(__double2float_rd(v)), c3 = __float_as_uint(__double2float_ru(v));
    if (gl != c0) miss(7, b, gl, c0);
    if (gl != c1) miss(8, b, gl, c1);
    if (gl != c2) miss(9, b, gl, c2);
    if (gl != c3) miss(10, b, gl, c3);
  }
  if (e != 255 && x >= -126.0f && x < 128.0f && (e != 0)) {
    double sx = (double)x * 16777216.0;
    uint32_t g = ex2(b);
    for (int how = 0; how < 3; how++) {
      double r = how == 0 ? floor(sx) : how == 1 ? rint(sx) : trunc(sx);
      long long fixed = (long long)r;
      int i = (int)(fixed >> 24);
      uint32_t mm = rescale(t[T_EX2][fixed & 0xffffff], i, 8);
      if (g != mm) miss(11 + how, b, g, mm);
    }
  }
}

__device__ uint32_t hash32(uint32_t x) { x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x | 1u; }

__global__ void check64(uint32_t *const *t, uint32_t base) {
  uint32_t h = base + blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t s = h & 0x80000000u, e = (h >> 20) & 0x7ff, m = h & 0xfffffu;
  uint64_t a = rcp64((uint64_t)h << 32), a2 = rcp64(((uint64_t)h << 32) | hash32(h));
  if (a != a2) miss(2, h, (uint32_t)(a >> 32), (uint32_t)(a2 >> 32));
  if ((uint32_t)a != 0) miss(3, h, (uint32_t)(a >> 32), (uint32_t)a);
  if (e != 0 && e != 2047) {
    uint32_t r = s | rescale(t[T_RCP64][m], 1023 - (int)e, 11);
    if ((uint32_t)(a >> 32) != r) miss(1, h, (uint32_t)(a >> 32), r);
  }
  uint64_t q = rsq64((uint64_t)h << 32), q2 = rsq64(((uint64_t)h << 32) | hash32(h));
  if (q != q2) miss(5, h, (uint32_t)(q >> 32), (uint32_t)(q2 >> 32));
  if ((uint32_t)q != 0) miss(6, h, (uint32_t)(q >> 32), (uint32_t)q);
  if (!s && e != 0 && e != 2047) {
    int ex = (int)e - 1023, par = ex & 1;
    uint32_t r = rescale(t[T_RSQ64][((uint32_t)par << 20) | m], -((ex - par) >> 1), 11);
    if ((uint32_t)(q >> 32) != r) miss(4, h, (uint32_t)(q >> 32), r);
  }
}

__global__ void specials(const uint32_t *in, int n, uint32_t *out) {
  int i = threadIdx.x;
  if (i >= n) return;
  uint32_t x = in[i];
  uint32_t *o = out + i * 16;
  o[0] = rcp(x); o[1] = rcp_n(x); o[2] = rsq(x); o[3] = rsq_n(x); o[4] = lg2(x); o[5] = lg2_n(x);
  o[6] = ex2(x); o[7] = ex2_n(x); o[8] = tanh_a(x); o[9] = sin_a(x); o[10] = cos_a(x);
  uint64_t d = (uint64_t)x << 32;
  uint64_t r = rcp64(d), q = rsq64(d), qn = rsq64_n(d);
  o[11] = (uint32_t)(r >> 32); o[12] = (uint32_t)r; o[13] = (uint32_t)(q >> 32); o[14] = (uint32_t)q; o[15] = (uint32_t)(qn >> 32);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  uint32_t *t[NT], **dt;
  for (int k = 0; k < NT; k++) CHECK(cudaMalloc(&t[k], 4ull * tsize[k]));
  CHECK(cudaMalloc(&dt, sizeof t));
  CHECK(cudaMemcpy(dt, t, sizeof t, cudaMemcpyHostToDevice));
  tables<<<(1u << 24) / 256, 256>>>(dt);
  CHECK(cudaDeviceSynchronize());
  static uint32_t host[1u << 24];
  for (int k = 0; k < NT; k++) {
    CHECK(cudaMemcpy(host, t[k], 4ull * tsize[k], cudaMemcpyDeviceToHost));
    char path[512]; snprintf(path, sizeof path, "%s/%s.u32", dir, tname[k]);
    FILE *f = fopen(path, "wb"); fwrite(host, 4, tsize[k], f); fclose(f);
  }
  for (uint64_t base = 0; base < (1ull << 32); base += (1ull << 30)) {
    check32<<<(1u << 30) / 256, 256>>>(dt, (uint32_t)base);
    check64<<<(1u << 30) / 256, 256>>>(dt, (uint32_t)base);
  }
  CHECK(cudaDeviceSynchronize());
  unsigned long long c[NC]; uint32_t fst[NC][4][3];
  CHECK(cudaMemcpyFromSymbol(c, g_count, sizeof c));
  CHECK(cudaMemcpyFromSymbol(fst, g_first, sizeof fst));
  for (int k = 0; k < NC; k++) {
    if (!cname[k]) continue;
    printf("%-58s mismatches %llu", cname[k], c[k]);
    for (int j = 0; j < 4 && j < (int)c[k]; j++) printf(" | %08x: gpu %08x model %08x", fst[k][j][0], fst[k][j][1], fst[k][j][2]);
    printf("\n");
  }
  const uint32_t sp[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x00400000u, 0x00800000u, 0x80800000u, 0x3f800000u,
                         0xbf800000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
                         0x7e800000u, 0x7f000000u, 0xc2fc0000u, 0xc2fe0000u, 0xc3000000u, 0xc3150000u, 0x42fe0000u, 0x43000000u,
                         0x00000800u, 0x40000000u, 0x3f000000u, 0x3e800000u, 0x4b000000u, 0x4c000000u, 0xbe800000u, 0x3fc00000u};
  int n = sizeof sp / 4;
  uint32_t *din, *dout, hout[32 * 16];
  CHECK(cudaMalloc(&din, sizeof sp)); CHECK(cudaMalloc(&dout, sizeof hout));
  CHECK(cudaMemcpy(din, sp, sizeof sp, cudaMemcpyHostToDevice));
  specials<<<1, 32>>>(din, n, dout);
  CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
  printf("specials: x | rcp.ftz rcp rsq.ftz rsq lg2.ftz lg2 ex2.ftz ex2 tanh sin.ftz cos.ftz | f64 (x as high word): rcp.ftz hi lo, rsq.ftz hi lo, rsq hi\n");
  for (int i = 0; i < n; i++) {
    printf("%08x |", sp[i]);
    for (int j = 0; j < 16; j++) printf(" %08x%s", hout[i * 16 + j], j == 10 ? " |" : "");
    printf("\n");
  }
  return 0;
}
