// __match_any_sync: lanes with the same key form a group; the group's lowest lane
// adds the group's size to the key's histogram bin (aggregated atomics by key).
extern "C" __global__ void match_histogram(unsigned *bins, const int *keys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int key = keys[i];
        unsigned active = __activemask();
        unsigned peers = __match_any_sync(active, key);
        int lane = threadIdx.x & 31;
        int leader = __ffs(peers) - 1;
        if (lane == leader)
            atomicAdd(&bins[key], __popc(peers));
    }
}
