// GPU-Puzzles 5 (Broadcast): a is a column (size x 1), b a row (1 x size).
extern "C" __global__ void broadcast_add(float *out, const float *a, const float *b, int size)
{
    int col = threadIdx.x;
    int row = threadIdx.y;
    if (row < size && col < size)
        out[row * size + col] = a[row] + b[col];
}
