// GPU-Puzzles 14 (Matmul): tiled square matmul out = a @ b, tiles of TPB x TPB in shared.
#define TPB 16
extern "C" __global__ void matmul_tiled(float *out, const float *a, const float *b, int size)
{
    __shared__ float a_sh[TPB][TPB];
    __shared__ float b_sh[TPB][TPB];
    int col = blockIdx.x * TPB + threadIdx.x;
    int row = blockIdx.y * TPB + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0.0f;
    for (int t = 0; t < size; t += TPB) {
        a_sh[ty][tx] = (row < size && t + tx < size) ? a[row * size + t + tx] : 0.0f;
        b_sh[ty][tx] = (col < size && t + ty < size) ? b[(t + ty) * size + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TPB; ++k)
            acc += a_sh[ty][k] * b_sh[k][tx];
        __syncthreads();
    }
    if (row < size && col < size)
        out[row * size + col] = acc;
}
