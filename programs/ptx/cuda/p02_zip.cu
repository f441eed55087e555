// GPU-Puzzles 2 (Zip): out[i] = a[i] + b[i].
extern "C" __global__ void zip_add(float *out, const float *a, const float *b)
{
    int i = threadIdx.x;
    out[i] = a[i] + b[i];
}
