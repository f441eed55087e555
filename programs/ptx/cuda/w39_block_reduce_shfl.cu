// The shipped block_reduce.s in CUDA (the same algorithm, for comparing the speed of PTX and warpsim-ISA runs):
// each warp sums its values by butterfly shuffles, lane 0 of each warp stores the warp's sum in shared memory,
// and warp 0 adds the warp sums.
extern "C" __global__ void block_reduce(const unsigned *in, unsigned *out, unsigned n)
{
    __shared__ unsigned partial[32];
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned v = gid < n ? in[gid] : 0;
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_xor_sync(0xffffffff, v, off);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    if (warp != 0)
        return;
    v = lane < blockDim.x / 32 ? partial[lane] : 0;
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_xor_sync(0xffffffff, v, off);
    if (lane == 0)
        out[blockIdx.x] = v;
}
