// GPU-Puzzles 9 (Pooling): out[i] = a[i-2] + a[i-1] + a[i] (clamped at 0).
#define TPB 8
extern "C" __global__ void pool3(float *out, const float *a, int size)
{
    __shared__ float shared[TPB];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int local_i = threadIdx.x;
    if (i < size)
        shared[local_i] = a[i];
    __syncthreads();
    if (i < size) {
        float s = shared[local_i];
        if (local_i >= 1) s += shared[local_i - 1];
        if (local_i >= 2) s += shared[local_i - 2];
        out[i] = s;
    }
}
