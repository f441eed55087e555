// Dynamic shared memory (extern __shared__): reverse each block's chunk in place.
// Launch with blockDim.x * sizeof(int) bytes of dynamic shared memory.
extern "C" __global__ void reverse_dynamic(int *d, int n)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    int valid = min((int)blockDim.x, n - base);
    if (t < valid)
        s[t] = d[base + t];
    __syncthreads();
    if (t < valid)
        d[base + t] = s[valid - t - 1];
}
