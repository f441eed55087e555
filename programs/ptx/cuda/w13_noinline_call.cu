// A kernel calling a __device__ __noinline__ function (real call, .func, param passing).
__device__ __noinline__ float saxpy_elem(float a, float x, float y)
{
    return a * x + y;
}
__device__ __noinline__ int clamp_index(int i, int lo, int hi)
{
    return i < lo ? lo : (i > hi ? hi : i);
}
extern "C" __global__ void saxpy_call(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = clamp_index(n - 1 - i, 0, n - 1);
        y[i] = saxpy_elem(a, x[j], y[i]);
    }
}
