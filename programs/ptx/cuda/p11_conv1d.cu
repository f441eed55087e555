// GPU-Puzzles 11 (1D convolution): out[i] = sum_j a[i+j] * b[j], i+j < a_size.
// Each block loads TPB + MAX_CONV - 1 elements of a and all of b into shared memory.
#define MAX_CONV 4
#define TPB 8
#define TPB_MAX_CONV (TPB + MAX_CONV)
extern "C" __global__ void conv1d(float *out, const float *a, const float *b, int a_size, int b_size)
{
    __shared__ float sa[TPB_MAX_CONV];
    __shared__ float sb[MAX_CONV];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int local_i = threadIdx.x;

    sa[local_i] = (i < a_size) ? a[i] : 0.0f;
    if (local_i < b_size - 1) {
        int k = i + TPB;
        sa[local_i + TPB] = (k < a_size) ? a[k] : 0.0f;
    }
    if (local_i < b_size)
        sb[local_i] = b[local_i];
    __syncthreads();

    if (i < a_size) {
        float acc = 0.0f;
        for (int j = 0; j < b_size; ++j)
            if (i + j < a_size)
                acc += sa[local_i + j] * sb[j];
        out[i] = acc;
    }
}
