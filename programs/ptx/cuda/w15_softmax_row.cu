// Softmax of rows (one warp per row): warp max, exp, warp sum, divide.
extern "C" __global__ void softmax_rows(float *out, const float *in, int rows, int cols)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= rows) return;
    const float *row = in + (size_t)warp * cols;
    float m = -INFINITY;
    for (int c = lane; c < cols; c += 32)
        m = fmaxf(m, row[c]);
    for (int o = 16; o > 0; o >>= 1)
        m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32)
        s += expf(row[c] - m);
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffff, s, o);
    for (int c = lane; c < cols; c += 32)
        out[(size_t)warp * cols + c] = expf(row[c] - m) / s;
}
