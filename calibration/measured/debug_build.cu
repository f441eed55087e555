// Calibration microbenchmarks of debug builds: compiled with `nvcc -G -ptx -arch=sm_90` (ptxas then compiles the
// PTX without optimising). Each times `n` passes of a loop between two clock64() reads; thread 0 writes the
// cycles to cyc[0]. A row takes n passes less 0 passes, over n.

// Integer arithmetic: a multiply-add chain and the loop's compare and branch.
extern "C" __global__ void debug_arith(unsigned *cyc, int *out, int n) {
    long long t0 = clock64();
    int acc = threadIdx.x;
    for (int i = 0; i < n; i++) {
        acc = acc * 3 + i;
    }
    long long t1 = clock64();
    out[threadIdx.x] = acc;
    if (threadIdx.x == 0) cyc[0] = (unsigned)(t1 - t0);
}

// Global memory: each pass reads one float of `a` and writes one of `b` per thread.
extern "C" __global__ void debug_array(unsigned *cyc, const float *a, float *b, int n) {
    long long t0 = clock64();
    for (int i = 0; i < n; i++) {
        int j = i * blockDim.x + threadIdx.x;
        b[j] = a[j] * 2.0f + 1.0f;
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) cyc[0] = (unsigned)(t1 - t0);
}

// Shared memory and a shuffle: each pass stores to shared memory, reads a neighbour's word and adds a shuffled value.
extern "C" __global__ void debug_exchange(unsigned *cyc, int *out, int n) {
    __shared__ int s[1024];
    long long t0 = clock64();
    int v = threadIdx.x;
    for (int r = 0; r < n; r++) {
        s[threadIdx.x] = v;
        __syncwarp();
        v += s[threadIdx.x ^ 1];
        v += __shfl_xor_sync(0xffffffffu, v, 2);
        __syncwarp();
    }
    long long t1 = clock64();
    out[threadIdx.x] = v;
    if (threadIdx.x == 0) cyc[0] = (unsigned)(t1 - t0);
}

// 64-bit division and remainder: in a debug build each is a call of an unoptimised subroutine.
extern "C" __global__ void debug_div64(unsigned *cyc, unsigned long long *out, unsigned long long d, int n) {
    long long t0 = clock64();
    unsigned long long x = 0xFFFFFFFFFFFFull + threadIdx.x;
    for (int i = 0; i < n; i++) {
        x = x / d + 0xFFFFFFFFFFFFull;
    }
    long long t1 = clock64();
    out[threadIdx.x] = x;
    if (threadIdx.x == 0) cyc[0] = (unsigned)(t1 - t0);
}

extern "C" __global__ void debug_rem64(unsigned *cyc, long long *out, long long d, int n) {
    long long t0 = clock64();
    long long x = 0x7FFFFFFFFFFFll - threadIdx.x;
    for (int i = 0; i < n; i++) {
        x = x % d + 0x7FFFFFFFFFFFll;
    }
    long long t1 = clock64();
    out[threadIdx.x] = x;
    if (threadIdx.x == 0) cyc[0] = (unsigned)(t1 - t0);
}
