// Float math people write: division, sqrt, rsqrt, exp/log, sin, conversions, fabs, min/max, rounding.
extern "C" __global__ void float_math(float *out, double *outd, const float *in, const int *ii, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float y = x / (float)(i + 1);
    y += sqrtf(fabsf(x)) + rsqrtf(fabsf(x) + 1.0f);
    y += __expf(x) + logf(fabsf(x) + 1.0f) + __sinf(x) + exp2f(x) + __log2f(x + 2.0f);
    y += fminf(x, 1.0f) + fmaxf(x, -1.0f) + floorf(x) + ceilf(x) + truncf(x) + rintf(x);
    y += (float)ii[i] + (float)(unsigned)ii[i] + __int_as_float(ii[i] & 0x3f800000);
    int k = (int)x + __float2int_rn(x) + (int)(unsigned)fabsf(x);
    out[i] = y + (float)k + 1.0f / x;
    double d = (double)x * 3.0 + (double)k;
    outd[i] = sqrt(d * d + 1.0) / (d + 2.0);
}
