// Softmax of rows in double precision (one warp per row): warp max and warp sum with
// __shfl_xor_sync, exp() in f64 (libdevice's exp: FMA polynomial and bit operations, no
// approximate SFU instruction), then one division per element.
extern "C" __global__ void softmax_rows_f64(double *out, const double *in, int rows, int cols)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (warp >= rows) return;
    const double *row = in + (size_t)warp * cols;
    double m = -1.0e300;
    for (int c = lane; c < cols; c += 32)
        m = fmax(m, row[c]);
    for (int o = 16; o > 0; o >>= 1)
        m = fmax(m, __shfl_xor_sync(0xffffffff, m, o));
    double s = 0.0;
    for (int c = lane; c < cols; c += 32)
        s += exp(row[c] - m);
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_xor_sync(0xffffffff, s, o);
    for (int c = lane; c < cols; c += 32)
        out[(size_t)warp * cols + c] = exp(row[c] - m) / s;
}
