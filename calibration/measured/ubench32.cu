// Issue 22: loops ptxas unrolls. One warp runs a loop of global loads whose trip count is known only at run time
// (T passes, every lane the same), its lines in L2 (each kernel runs twice; the second run is timed). ptxas
// unrolls such a loop by 4 while four passes are left, then runs two, then one, and issues the loads of the passes
// it runs together at once (the SASS beside this file), unless the loop's body is too long: k_sum_body<30> is
// unrolled, k_sum_body<60> is not. Prints the cycles from the kernel's start to the loop's end for each T.
#include <cstdio>
#include <cstdlib>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); exit(1); } } while (0)

// acc += a[i] for i = lane, lane + 32, ... while i < n (n = 32 T).
extern "C" __global__ void k_sum_lt(const float *a, float *out, long long *cyc, unsigned n) {
  unsigned i = threadIdx.x;
  float acc = 0.0f;
  long long t0 = clock64();
  if (i < n) {
    do {
      acc += a[i];
      i += 32;
    } while (i < n);
  }
  long long t1 = clock64();
  out[threadIdx.x] = acc;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

// The same with the passes counted down to zero (nvcc unrolls this one itself, and ptxas again).
extern "C" __global__ void k_sum_ne(const float *a, float *out, long long *cyc, unsigned n) {
  unsigned i = threadIdx.x, k = n / 32;
  float acc = 0.0f;
  long long t0 = clock64();
  if (k != 0) {
    do {
      acc += a[i];
      i += 32;
      k -= 1;
    } while (k != 0);
  }
  long long t1 = clock64();
  out[threadIdx.x] = acc;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

// dot_f64's loop: two f64 loads and an fma a pass.
extern "C" __global__ void k_dot_lt(const double *a, const double *b, double *out, long long *cyc, unsigned n) {
  unsigned i = threadIdx.x;
  double acc = 0.0;
  long long t0 = clock64();
  if (i < n) {
    do {
      acc = __fma_rn(a[i], b[i], acc);
      i += 32;
    } while (i < n);
  }
  long long t1 = clock64();
  out[threadIdx.x] = acc;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

// k_sum_lt with K dependent integer instructions more a pass (a longer body).
template <int K> __global__ void k_sum_body(const float *a, float *out, long long *cyc, unsigned n) {
  unsigned i = threadIdx.x, c = threadIdx.x;
  float acc = 0.0f;
  long long t0 = clock64();
  if (i < n) {
    do {
      acc += a[i];
#pragma unroll
      for (int k = 0; k < K; k++) asm volatile("add.u32 %0, %0, %1;" : "+r"(c) : "r"(i));
      i += 32;
    } while (i < n);
  }
  long long t1 = clock64();
  out[threadIdx.x] = acc + (float)c;
  if (threadIdx.x == 0) cyc[0] = t1 - t0;
}

int main() {
  const int max_t = 16;
  float *a, *fo; double *da, *db, *dout; long long *cyc, h;
  CHECK(cudaMalloc(&a, 32 * max_t * 4)); CHECK(cudaMalloc(&fo, 32 * 4));
  CHECK(cudaMalloc(&da, 32 * max_t * 8)); CHECK(cudaMalloc(&db, 32 * max_t * 8)); CHECK(cudaMalloc(&dout, 32 * 8));
  CHECK(cudaMalloc(&cyc, 64));
  CHECK(cudaMemset(a, 0, 32 * max_t * 4)); CHECK(cudaMemset(da, 0, 32 * max_t * 8)); CHECK(cudaMemset(db, 0, 32 * max_t * 8));
  auto rd = [&]() { CHECK(cudaDeviceSynchronize()); CHECK(cudaMemcpy(&h, cyc, 8, cudaMemcpyDeviceToHost)); return h; };
  const int ts[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16};
  for (int rep = 0; rep < 3; rep++) {
    printf("--- rep %d\n", rep);
    for (int t : ts) {
      unsigned n = 32 * t;
      k_sum_lt<<<1, 32>>>(a, fo, cyc, n); rd(); k_sum_lt<<<1, 32>>>(a, fo, cyc, n); long long x = rd();
      k_sum_ne<<<1, 32>>>(a, fo, cyc, n); rd(); k_sum_ne<<<1, 32>>>(a, fo, cyc, n); long long y = rd();
      k_dot_lt<<<1, 32>>>(da, db, dout, cyc, n); rd(); k_dot_lt<<<1, 32>>>(da, db, dout, cyc, n); long long z = rd();
      k_sum_body<30><<<1, 32>>>(a, fo, cyc, n); rd(); k_sum_body<30><<<1, 32>>>(a, fo, cyc, n); long long u = rd();
      k_sum_body<60><<<1, 32>>>(a, fo, cyc, n); rd(); k_sum_body<60><<<1, 32>>>(a, fo, cyc, n); long long v = rd();
      printf("T %2d  k_sum_lt %5lld  k_sum_ne %5lld  k_dot_lt %5lld  k_sum_body<30> %5lld  k_sum_body<60> %5lld\n", t, x, y, z, u, v);
    }
  }
  return 0;
}
