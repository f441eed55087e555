// __ballot_sync voting: per-warp count of elements above a threshold, and
// any/all votes written per warp.
extern "C" __global__ void ballot_count(int *warp_counts, int *any_all, const float *in, float threshold, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool pred = (i < n) && in[i] > threshold;
    unsigned mask = __ballot_sync(0xffffffffu, pred);
    int any = __any_sync(0xffffffffu, pred);
    int all = __all_sync(0xffffffffu, pred);
    if ((threadIdx.x % 32) == 0) {
        int warp = i / 32;
        warp_counts[warp] = __popc(mask);
        any_all[2 * warp] = any;
        any_all[2 * warp + 1] = all;
    }
}
