// 1-D stencil of radius 3 with a shared tile plus halo.
#define RADIUS 3
#define BLOCK 128
extern "C" __global__ void stencil1d(int *out, const int *in, int n)
{
    __shared__ int temp[BLOCK + 2 * RADIUS];
    int gindex = blockIdx.x * blockDim.x + threadIdx.x;
    int lindex = threadIdx.x + RADIUS;
    temp[lindex] = gindex < n ? in[gindex] : 0;
    if (threadIdx.x < RADIUS) {
        int left = gindex - RADIUS;
        int right = gindex + BLOCK;
        temp[lindex - RADIUS] = left >= 0 ? in[left] : 0;
        temp[lindex + BLOCK] = right < n ? in[right] : 0;
    }
    __syncthreads();
    int result = 0;
    for (int off = -RADIUS; off <= RADIUS; off++)
        result += temp[lindex + off];
    if (gindex < n)
        out[gindex] = result;
}
