// Second probe of the CUDA driver's printf (after printf_probe.cu): which argument of printf_formats.cu's fifth
// call prints `%`, and `%#g` when rounding carries into the next power of ten.
// Build: nvcc -O3 -arch=sm_90 -o printf_probe2 printf_probe2.cu ; run: ./printf_probe2
#include <cstdio>
__global__ void probe(double d, long long big, int n) {
  printf("P1 %a %c|%5c|%-5c|\n", d, 'a', 'b', 'c');
  printf("P2 %lld %llx %llu %hd %hhd %hu %c|%5c|%-5c|\n", big, big, big, n, n, n, 'a', 'b', 'c');
  printf("P3 %2d: %a %A %.2a %lld %llx %llu %hd %hhd %hu %c|%5c|%-5c|\n", 1, d, d, d, big, big, big, n, n, n, 'a', 'b', 'c');
  printf("P4 %2d: %a %A %.2a %lld %llx %llu %hd %hhd %hu %c|%5c|%d|\n", 1, d, d, d, big, big, big, n, n, n, 'a', 'b', 99);
  printf("P5 %d %f %f %f %lld %lld %lld %d %d %d %d %d %d|\n", 1, d, d, d, big, big, big, n, n, n, 97, 98, 99);
  printf("P6 %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d|\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
         14, 15, 16, 17, 18, 19, 20);
  printf("P7 %d %f %f %f %f %f %f %f %f %f %f|\n", 1, d, d, d, d, d, d, d, d, d, d);
  printf("G1 [%#g] [%#g] [%#g] [%#g] [%#.3g] [%#.2g] [%#.4g]\n", 999999.5, 9999995.0, 99999.95, 0.99999996, 999.95,
         99.5, 9999.5);
  printf("G2 [%#g] [%#g] [%#.1g] [%#.2g] [%#e] [%#.3e]\n", 9.9999996e-5, 9.99999996e-6, 0.96, 0.996, 9.9999996, 9.9996);
}
int main() {
  probe<<<1, 1>>>(1.5, 1234567890123LL, 1000);
  cudaDeviceSynchronize();
  return 0;
}
