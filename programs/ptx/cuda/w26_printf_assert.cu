// Hello-world style kernel from every CUDA course: printf from device code, plus assert.
#include <cstdio>
#include <cassert>
extern "C" __global__ void hello(const int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(n > 0);
    if (i < n)
        printf("Hello from block %d, thread %d: data[%d] = %d (%f)\n",
               blockIdx.x, threadIdx.x, i, data[i], (double)data[i] * 0.5);
}
