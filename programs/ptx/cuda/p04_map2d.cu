// GPU-Puzzles 4 (Map 2D): square input, 2-D block bigger than the data.
extern "C" __global__ void map_2d(float *out, const float *a, int size)
{
    int i = threadIdx.x;
    int j = threadIdx.y;
    if (i < size && j < size)
        out[j * size + i] = a[j * size + i] + 10.0f;
}
