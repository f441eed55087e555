// GPU-Puzzles 6 (Blocks): fewer threads per block than elements.
extern "C" __global__ void map_blocks(float *out, const float *a, int size)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < size)
        out[i] = a[i] + 10.0f;
}
