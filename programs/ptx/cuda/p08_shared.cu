// GPU-Puzzles 8 (Shared): stage through a static shared array, then add 10.
#define TPB 4
extern "C" __global__ void shared_add10(float *out, const float *a, int size)
{
    __shared__ float shared[TPB];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int local_i = threadIdx.x;
    if (i < size)
        shared[local_i] = a[i];
    __syncthreads();
    if (i < size)
        out[i] = shared[local_i] + 10.0f;
}
