// Warp-specialised producer/consumer with named barriers (the CUDA guide's pattern): the block's
// first warp produces a tile of values into one of two shared buffers and signals with
// bar.arrive; the other warps wait with bar.sync on the same barrier, consume the tile, and
// signal back that the buffer is free. Barriers 1/2 say "buffer b is full", 3/4 "buffer b is
// free". Each consumer thread accumulates its column over the rounds.
#define TILE 32
__device__ __forceinline__ void arrive(int id, int threads)
{
    asm volatile("bar.arrive %0, %1;" :: "r"(id), "r"(threads) : "memory");
}
__device__ __forceinline__ void sync(int id, int threads)
{
    asm volatile("bar.sync %0, %1;" :: "r"(id), "r"(threads) : "memory");
}
extern "C" __global__ void producer_consumer(float *out, const float *in, int rounds)
{
    __shared__ float tile[2][TILE];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int threads = blockDim.x;
    const float *src = in + blockIdx.x * rounds * TILE;
    if (warp == 0) {
        for (int r = 0; r < rounds; r++) {
            int b = r & 1;
            if (r >= 2)
                sync(3 + b, threads); // wait until the consumers freed buffer b
            tile[b][lane] = src[r * TILE + lane] * 2.0f;
            arrive(1 + b, threads); // buffer b is full
        }
    } else {
        float acc = 0.0f;
        int c = (threadIdx.x - 32) % TILE;
        for (int r = 0; r < rounds; r++) {
            int b = r & 1;
            sync(1 + b, threads); // wait until buffer b is full
            acc += tile[b][c] + (float)warp;
            if (r + 2 < rounds)
                arrive(3 + b, threads); // buffer b is free again
        }
        out[blockIdx.x * (blockDim.x - 32) + threadIdx.x - 32] = acc;
    }
}
