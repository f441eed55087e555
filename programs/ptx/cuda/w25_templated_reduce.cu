// Templated block reduction (C++ mangled entry names), grid-stride, __syncwarp, bar.red via __syncthreads_count/or.
template <typename T, int BLOCK>
__global__ void reduce_sum(T *out, const T *in, int n, int *nonzero_blocks)
{
    __shared__ T sh[BLOCK];
    T acc = T(0);
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x)
        acc += in[i];
    sh[threadIdx.x] = acc;
    int any_nonzero = __syncthreads_or(acc != T(0));
    int count = __syncthreads_count(acc != T(0));
    for (int s = BLOCK / 2; s >= 32; s >>= 1) {
        if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x < 32) {
        T v = sh[threadIdx.x];
        __syncwarp();
        for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
        if (threadIdx.x == 0) {
            out[blockIdx.x] = v;
            if (any_nonzero) atomicAdd(nonzero_blocks, count > 0);
        }
    }
}
template __global__ void reduce_sum<float, 256>(float *, const float *, int, int *);
template __global__ void reduce_sum<int, 128>(int *, const int *, int, int *);
template __global__ void reduce_sum<double, 256>(double *, const double *, int, int *);
