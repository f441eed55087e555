// First touch of single lines after a host copy (issue 22): one thread, three dependent loads with ld.global.cg
// (L2, not L1): line A (the launch's first load), line B (another line of the same copy, first touch) and line A
// again (touched). The copy lands at 64 offsets 33 lines apart, L2 flushed before each copy.
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
__global__ void probe(const unsigned *a, const unsigned *b, unsigned long long *out) {
    // Each load's address depends on the load before (every word holds 7), and its value is stored to shared
    // memory before the next clock read: in-order issue reads the clock only once the value has arrived.
    __shared__ volatile unsigned s[4];
    unsigned v, w, x;
    long long t0 = clock64();
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(a) : "memory");
    s[0] = v;
    long long t1 = clock64();
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(w) : "l"(b + (v - 7)) : "memory");
    s[1] = w;
    long long t2 = clock64();
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(x) : "l"(a + (w - 7)) : "memory");
    s[2] = x;
    long long t3 = clock64();
    out[0] = t1 - t0; out[1] = t2 - t1; out[2] = t3 - t2; out[3] = s[0] + s[1] + s[2];
}
int main() {
    const size_t pool_bytes = 64 << 20, flush_bytes = 256 << 20;
    char *pool, *flush; unsigned long long *d_out;
    cudaMalloc(&pool, pool_bytes); cudaMalloc(&flush, flush_bytes); cudaMalloc(&d_out, 64);
    std::vector<unsigned> host(4096, 7);
    std::vector<long long> ta, tb, tc;
    for (int k = 0; k < 64; k++) {
        size_t off = (size_t)k * 4224;
        cudaMemset(flush, k, flush_bytes);
        cudaMemcpy(pool + off, host.data(), 16384, cudaMemcpyHostToDevice);
        probe<<<1, 1>>>((unsigned *)(pool + off), (unsigned *)(pool + off + 8192), d_out);
        unsigned long long h[4]; cudaMemcpy(h, d_out, 32, cudaMemcpyDeviceToHost);
        ta.push_back(h[0]); tb.push_back(h[1]); tc.push_back(h[2]);
    }
    auto show = [](const char *name, std::vector<long long> v) {
        double m = 0; for (auto x : v) m += x; m /= v.size();
        std::vector<long long> s = v; std::sort(s.begin(), s.end());
        printf("%-40s mean %6.1f  min %lld  q1 %lld  median %lld  q3 %lld  max %lld\n  all:", name, m, s[0], s[s.size()/4], s[s.size()/2], s[3*s.size()/4], s.back());
        for (auto x : v) printf(" %lld", x);
        printf("\n");
    };
    show("A: the launch's first load (first touch)", ta);
    show("B: another line's first touch", tb);
    show("A again (touched, L2)", tc);
    return 0;
}
