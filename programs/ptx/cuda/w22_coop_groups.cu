// Cooperative groups: tiled_partition<32> reduce, then block sync via this_thread_block().
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cg_reduce(int *out, const int *in, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int s = cg::reduce(tile, v, cg::plus<int>());
    __shared__ int warp_sum[32];
    if (tile.thread_rank() == 0) warp_sum[tile.meta_group_rank()] = s;
    block.sync();
    if (threadIdx.x == 0) {
        int t = 0;
        for (int w = 0; w < (int)tile.meta_group_size(); ++w) t += warp_sum[w];
        atomicAdd(out, t);
    }
}
