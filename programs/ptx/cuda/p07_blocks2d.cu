// GPU-Puzzles 7 (Blocks 2D): 2-D grid of 2-D blocks over a size x size matrix.
__global__ void map_blocks_2d(float *out, const float *a, int size)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < size && col < size) {
        int idx = row * size + col;
        out[idx] = a[idx] + 10.0f;
    }
}
