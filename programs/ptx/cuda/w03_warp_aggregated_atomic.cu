// Warp-aggregated atomics (stream compaction): the active lanes that pass the
// filter elect a leader, which reserves space for all of them with one atomicAdd.
__device__ int atomic_agg_inc(int *counter)
{
    unsigned active = __activemask();
    int leader = __ffs(active) - 1;
    int lane = threadIdx.x & 31;
    int base;
    if (lane == leader)
        base = atomicAdd(counter, __popc(active));
    base = __shfl_sync(active, base, leader);
    return base + __popc(active & ((1u << lane) - 1));
}
extern "C" __global__ void filter_positive(int *dst, int *count, const int *src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && src[i] > 0)
        dst[atomic_agg_inc(count)] = src[i];
}
