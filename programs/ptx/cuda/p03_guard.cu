// GPU-Puzzles 3 (Guards): more threads than positions.
extern "C" __global__ void map_guard(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    if (i < size)
        out[i] = a[i] + 10.0f;
}
