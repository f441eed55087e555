// Sub-warp shuffles (width < 32), redux.sync via __reduce_*_sync, __syncwarp with a mask,
// lanemask special registers and __fns.
__device__ __forceinline__ unsigned lanemask_lt() { unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned lanemask_ge() { unsigned r; asm("mov.u32 %0, %%lanemask_ge;" : "=r"(r)); return r; }
extern "C" __global__ void warp_width(int *out, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int s8 = v;
    for (int o = 4; o > 0; o >>= 1) s8 += __shfl_xor_sync(0xffffffffu, s8, o, 8);
    int first16 = __shfl_sync(0xffffffffu, v, 0, 16);
    int up4 = __shfl_up_sync(0xffffffffu, v, 1, 4);
    int down16 = __shfl_down_sync(0xffffffffu, v, 3, 16);
    unsigned total = __reduce_add_sync(0xffffffffu, (unsigned)v);
    int mx = __reduce_max_sync(0xffffffffu, v);
    unsigned anded = __reduce_and_sync(0xffffffffu, (unsigned)v);
    __syncwarp(0x0000ffffu & (threadIdx.x < 16 ? 0xffffffffu : 0u));
    unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
    int rank = __popc(ballot & lanemask_lt());
    int nxt = __fns(ballot, threadIdx.x & 31, 1);
    if (i < n)
        out[i] = s8 + first16 + up4 + down16 + (int)total + mx + (int)anded + rank + nxt + __popc(lanemask_ge());
}
