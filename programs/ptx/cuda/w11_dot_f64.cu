// Double-precision dot product: per-thread fma accumulation, shared-memory tree,
// one double atomicAdd per block.
#define BLOCK 256
extern "C" __global__ void dot_f64(double *result, const double *x, const double *y, int n)
{
    __shared__ double partial[BLOCK];
    double acc = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc = fma(x[i], y[i], acc);
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(result, partial[0]);
}
