// printf's formatting on the GPU, for `tests/printf.rs`: one warp, each lane printing its own values through
// many conversions, flags, widths and precisions. (Left out: what the CUDA driver's printf gets wrong, `docs/ptx.md`
// "printf": a `.*` precision, `hh`, and conversions after an `h` one in the same call.) The GPU's output is `printf_formats.gpu.txt` (from the `main`
// below, run on an H200); warpsim runs this file's PTX (`printf_formats.ptx`, nvcc -ptx -arch=sm_90 -O3) and must
// print the same text, byte for byte.
#include <cstdio>
#include <cmath>

__constant__ double doubles[32] = {
    0.0, -0.0, 1.0, -1.0, 0.5, 0.25, 0.35, 2.5, 3.5, 1.005, 123456.789, -98765.4321, 1e-5, 1.5e-5, 9.9999e-5, 1e6,
    999999.5, 1e15, 1.7976931348623157e308, 4.9406564584124654e-324, 2.2250738585072014e-308, 3.0e-300, 1.0 / 3.0,
    2.0 / 3.0, 6.02214076e23, 1e100, 0.1, 0.2, 0.3, 12345678.9, 0.000123456, 5e-324};
__constant__ int ints[32] = {0, 1, -1, 7, -7, 42, 255, -255, 1000, -1000, 65535, 65536, 70000, -70000, 2147483647,
                             -2147483647 - 1, 123456789, -123456789, 8, 9, 10, 15, 16, 100, 128, 200, 300, 4096, 99999,
                             -99999, 31, 32};

extern "C" __global__ void formats(const char *word) {
  int i = threadIdx.x;
  double d = doubles[i];
  int n = ints[i];
  long long big = (long long)n * 1000003LL * (i + 1);
  printf("%2d: %d %i %u %x %X %o %#x %#o %+d % d %5d|%-5d|%05d %.3d %.0d|\n", i, n, n, n, n, n, n, n, n, n, n, n, n, n, n, n);
  printf("%2d: %f %.0f %.1f %.3f %10.4f|%-10.2f|%+f %010.3f %#.0f\n", i, d, d, d, d, d, d, d, d, d);
  printf("%2d: %e %.0e %.2e %E %12.3e|%-12.1e|%+e %#.0e\n", i, d, d, d, d, d, d, d, d);
  printf("%2d: %g %.0g %.1g %.3g %.10g %G %#g %10g|%-10g|%+g\n", i, d, d, d, d, d, d, d, d, d, d);
  printf("%2d: %a %A %.2a %lld %llx %llu %c|%5c|%-3c|\n", i, d, d, d, big, big, big, 'a' + i % 26, 'A' + i % 26,
         '0' + i % 10);
  // (`h` last in its call: the driver copies a call's arguments as if a short took 2 bytes, so that what follows
  // it in a call comes out wrong; and it prints `hh` conversions wrongly, calibration/measured/printf_probe2.cu.)
  printf("%2d: %hd\n", i, n);
  printf("%2d: %hu\n", i, n);
  printf("%2d: %s|%.3s|%8s|%-8s|%*d|%-*d|%%|%ld\n", i, word, word, word + i % 5, word, i % 7 + 1, n, i % 5 + 2, i,
         (long)big);
  if (i == 0) {
    double inf = INFINITY, nan = NAN;
    printf("special: %f %f %e %g %F %E %G %5.1f|%-6f| %+f\n", inf, -inf, nan, -nan, inf, -inf, nan, inf, nan, inf);
    printf("no arguments, then an empty string: [%s] [%5s]\n", "", "");
  }
}

int main() {
  char *word;
  cudaMalloc(&word, 16);
  cudaMemcpy(word, "warpsim!", 9, cudaMemcpyHostToDevice);
  formats<<<1, 32>>>(word);
  cudaDeviceSynchronize();
  return 0;
}
