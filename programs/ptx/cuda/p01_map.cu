// GPU-Puzzles 1 (Map): out[i] = a[i] + 10, one thread per position.
extern "C" __global__ void map_add10(float *out, const float *a)
{
    int i = threadIdx.x;
    out[i] = a[i] + 10.0f;
}
