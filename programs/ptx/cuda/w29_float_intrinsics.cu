// Fast-math and rounding intrinsics, __ldg and cache-hinted loads/stores.
extern "C" __global__ void float_intrinsics(float *out, const float *in, double *outd, const double *ind, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = __ldg(&in[i]);
    float y = __fdividef(x, x + 3.0f) + __saturatef(x) + __frcp_rn(x + 1.0f) + __fsqrt_rn(fabsf(x));
    y += __fmul_rz(x, 1.5f) + __fadd_rd(x, 0.1f) + __fmaf_rn(x, y, 2.0f) + __powf(2.0f, x) + __cosf(x) + tanhf(x);
    y += copysignf(1.0f, x) + fmodf(x, 3.0f) + hypotf(x, 1.0f) + erff(x) + atan2f(x, 2.0f);
    __stcs(&out[i], y);
    double d = __ldcs(&ind[i]);
    outd[i] = __dadd_rn(d, 1.0) * __drcp_rn(d + 2.0) + exp(d) + log1p(fabs(d)) + pow(d, 3.0) + (double)__double2float_rd(d);
}
