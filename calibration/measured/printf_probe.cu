// Probe of the CUDA driver's printf where it differs from glibc (printf_formats.gpu.txt): `%c` with the `-`
// flag, `%#g` and `%g` when rounding carries into a new power of ten, `*` and `.*` widths and precisions.
// Build: nvcc -O3 -arch=sm_90 -o printf_probe printf_probe.cu ; run: ./printf_probe
#include <cstdio>
__global__ void probe() {
  printf("A [%c] [%3c] [%-3c] [%-c] [%-1c] [%-2c]\n", 'x', 'y', 'z', 'u', 'v', 'w');
  printf("B [%-3c] [%d]\n", 'q', 5);
  printf("C [%#g] [%#g] [%#g] [%#g] [%#.3g] [%#.1g]\n", 999999.5, 9.9999996, 99.99999, 0.000099999996, 9.9996, 9.6);
  printf("D [%g] [%g] [%.3g] [%.1g] [%#g] [%#g]\n", 999999.5, 9.9999996, 9.9996, 9.6, 1e-5, 123.0);
  printf("E [%*d] [%-*d] [%.*d] [%d]\n", 5, 42, 4, 7, 3, 9, 11);
  printf("F [%*.*f] [%d]\n", 8, 2, 3.14159, 12);
  printf("G [%.*f] [%d] [%d]\n", 2, 3.14159, 13, 14);
  printf("H [%5.*f] [%d]\n", 2, 3.14159, 15);
  printf("I [%-5c|%-5d|%-5s|%-5x]\n", 'k', 16, "ab", 255);
  printf("J [%#x] [%#o] [%#X] [%#.0f] [%#e] [%#.0e]\n", 0, 0, 255, 2.5, 1.0, 5.0);
}
int main() {
  probe<<<1, 1>>>();
  cudaDeviceSynchronize();
  return 0;
}
