// __launch_bounds__ (-> .maxntid / .minnctapersm), __restrict__ pointers, #pragma unroll N, a grid-stride SAXPY.
extern "C" __global__ void __launch_bounds__(256, 2)
saxpy_bounded(float *__restrict__ y, const float *__restrict__ x, float a, int n)
{
#pragma unroll 4
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
