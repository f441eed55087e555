// Per-thread local array indexed dynamically (forces .local memory): a tiny
// per-thread sort of 8 values followed by a data-dependent lookup.
extern "C" __global__ void local_sort8(int *out, const int *in, const int *pick, int nthreads)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nthreads) return;
    int v[8];
    for (int k = 0; k < 8; ++k)
        v[k] = in[t * 8 + k];
    for (int a = 1; a < 8; ++a) {          // insertion sort
        int x = v[a];
        int b = a - 1;
        while (b >= 0 && v[b] > x) { v[b + 1] = v[b]; --b; }
        v[b + 1] = x;
    }
    out[t] = v[pick[t] & 7];
}
