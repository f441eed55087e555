// One kernel per approximate PTX instruction, to read what ptxas makes of each (cuobjdump -sass).
#define K32(name, ins) extern "C" __global__ void name(float *o, const float *a) { int i = threadIdx.x; float y; asm(ins " %0, %1;" : "=f"(y) : "f"(a[i])); o[i] = y; }
#define K32B(name, ins) extern "C" __global__ void name(float *o, const float *a) { int i = threadIdx.x; float y; asm(ins " %0, %1, %2;" : "=f"(y) : "f"(a[i]), "f"(a[i ^ 1])); o[i] = y; }
#define K64(name, ins) extern "C" __global__ void name(double *o, const double *a) { int i = threadIdx.x; double y; asm(ins " %0, %1;" : "=d"(y) : "d"(a[i])); o[i] = y; }
K32(k_rcp_ftz, "rcp.approx.ftz.f32") K32(k_rcp, "rcp.approx.f32")
K32(k_rsq_ftz, "rsqrt.approx.ftz.f32") K32(k_rsq, "rsqrt.approx.f32")
K32(k_lg2_ftz, "lg2.approx.ftz.f32") K32(k_lg2, "lg2.approx.f32")
K32(k_ex2_ftz, "ex2.approx.ftz.f32") K32(k_ex2, "ex2.approx.f32")
K32(k_sin_ftz, "sin.approx.ftz.f32") K32(k_sin, "sin.approx.f32")
K32(k_cos_ftz, "cos.approx.ftz.f32") K32(k_cos, "cos.approx.f32")
K32(k_tanh, "tanh.approx.f32") K32(k_sqrt_approx, "sqrt.approx.f32") K32(k_sqrt_approx_ftz, "sqrt.approx.ftz.f32")
K32B(k_div_approx, "div.approx.f32") K32B(k_div_approx_ftz, "div.approx.ftz.f32")
K32B(k_div_full, "div.full.f32") K32B(k_div_full_ftz, "div.full.ftz.f32")
K64(k_rcp64_ftz, "rcp.approx.ftz.f64") K64(k_rsq64_ftz, "rsqrt.approx.ftz.f64") K64(k_rsq64, "rsqrt.approx.f64")
