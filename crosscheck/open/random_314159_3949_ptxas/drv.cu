
#include <cstdio>
#include <cstring>
#include <string>
#include <fstream>
#include <sstream>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include "r3949.cu"
static const unsigned IN[] = {4294967295u,34u,2730820328u,4294967295u,34u,32u,2147483648u,34u,4294967295u,34u,2730820328u,4294967295u,34u,4294967295u,32u,1120113004u,2730820328u,1120113004u,4294967295u,34u,32u,2730820328u,1120113004u,2147483648u,34u,34u,1120113004u,1120113004u,34u,2730820328u,2147483648u,2147483648u,2730820328u,1120113004u,32u,2147483648u,1120113004u,34u,4294967295u,2730820328u,34u,2147483648u,4294967295u,34u,1120113004u,4294967295u,2147483648u,34u,34u,34u,2147483648u,34u,4294967295u,2147483648u,4294967295u,4294967295u,34u,1120113004u,34u,4294967295u,4294967295u,34u,34u,1120113004u,4294967295u,32u,2147483648u,34u,34u,4294967295u,34u,2147483648u,32u,34u,4294967295u,34u,1120113004u,2147483648u,34u,32u,2147483648u,2147483648u,4294967295u,4294967295u,4294967295u,4294967295u,2730820328u,2147483648u,34u,34u,2147483648u,34u,1120113004u,32u,4294967295u,2730820328u,32u,34u,2730820328u,1120113004u,34u,2147483648u,2147483648u,1120113004u,4294967295u,1120113004u,2147483648u,4294967295u,2147483648u,1120113004u,1120113004u,32u,2147483648u,1120113004u,4294967295u,34u,2147483648u,1120113004u,32u,34u,2147483648u,34u,2730820328u,4294967295u,1120113004u,34u,2730820328u,1120113004u,34u,2147483648u,34u,2730820328u,2730820328u,32u,1120113004u,34u,2147483648u,4294967295u,2730820328u,4294967295u,34u,32u,2730820328u,4294967295u,34u,2147483648u,4294967295u,34u,34u,2147483648u,2147483648u,4294967295u,1120113004u,1120113004u,2730820328u,32u,1120113004u,4294967295u,4294967295u,4294967295u,2730820328u,2730820328u,34u,2730820328u,4294967295u,34u,1120113004u,2730820328u,1120113004u,2147483648u,1120113004u,34u,34u,32u,4294967295u,2730820328u,34u,34u,2147483648u,2147483648u,1120113004u,2147483648u,2730820328u,4294967295u,2147483648u,34u,34u,34u,32u,2730820328u,34u,1120113004u,2730820328u,2730820328u,34u,2147483648u,32u,2730820328u,4294967295u,1120113004u,32u,34u,34u,2730820328u,34u,34u,2147483648u,2730820328u,2730820328u,34u,34u,34u,1120113004u,2147483648u,4294967295u,1120113004u,2147483648u,2730820328u,4294967295u,34u,34u,34u,2730820328u,34u,32u,34u,2147483648u,32u,2730820328u,2147483648u,4294967295u,34u,4294967295u,32u,1120113004u,32u,32u,2730820328u,34u,34u,2730820328u,34u,4294967295u,32u,2730820328u,34u,2730820328u,2147483648u,34u,34u,4294967295u,34u,2730820328u,2147483648u,34u,34u,34u,2147483648u};
#define NB 22
static void run(const char *what, CUfunction f, bool use_f, int threads) {
    void *bufs[NB];
    for (int i = 0; i < NB; i++) { cudaMalloc(&bufs[i], 65536); cudaMemset(bufs[i], 0, 65536); }
    cudaMemcpy(bufs[0], IN, sizeof(IN), cudaMemcpyHostToDevice);
    unsigned long long c[2] = {~0ull, 0}; cudaMemcpy(bufs[21], c, 16, cudaMemcpyHostToDevice);
    unsigned zero = 0;
    void *args[NB + 1];
    for (int i = 0; i < NB; i++) args[i] = &bufs[i];
    args[NB] = &zero;
    if (use_f) {
        CUresult r = cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, 0, args, 0);
        if (r) printf("launch %d\n", (int)r);
    } else {
        cudaLaunchKernel((const void *)random_314159_3949_reduced, dim3(1), dim3(threads), args, 0, 0);
    }
    cudaError_t e = cudaDeviceSynchronize();
    static unsigned out[301];
    cudaMemcpy(out, bufs[8], sizeof(out), cudaMemcpyDeviceToHost);
    printf("%s err=%d out[4t+6]:", what, (int)e);
    for (int t = 0; t < threads; t++) printf(" %u", out[t * 4 + 6]);
    printf("\n");
    for (int i = 0; i < NB; i++) cudaFree(bufs[i]);
}
int main() {
    cudaFree(0);
    run("nvcc", 0, false, 43);
    std::ifstream fin("r3949.cu"); std::stringstream ss; ss << fin.rdbuf(); std::string code = ss.str();
    const char *variants[][6] = {
        {"--fmad=false", "--prec-div=true", "--prec-sqrt=true", "--ftz=false", "-arch=sm_90", 0},
        {"-arch=sm_90", 0, 0, 0, 0, 0},
    };
    for (int v = 0; v < 2; v++) {
        nvrtcProgram p; nvrtcCreateProgram(&p, code.c_str(), "r3949.cu", 0, 0, 0);
        int n = 0; while (n < 6 && variants[v][n]) n++;
        nvrtcResult rr = nvrtcCompileProgram(p, n, variants[v]);
        size_t ls; nvrtcGetProgramLogSize(p, &ls); std::string log(ls, 0); nvrtcGetProgramLog(p, &log[0]);
        if (rr) { printf("nvrtc %d %s\n", (int)rr, log.c_str()); return 1; }
        size_t cs; nvrtcGetCUBINSize(p, &cs); std::string cubin(cs, 0); nvrtcGetCUBIN(p, &cubin[0]);
        char name[32]; snprintf(name, 32, "nvrtc%d.cubin", v);
        std::ofstream(name, std::ios::binary).write(cubin.data(), cs);
        size_t ps; nvrtcGetPTXSize(p, &ps); std::string ptx(ps, 0); nvrtcGetPTX(p, &ptx[0]);
        snprintf(name, 32, "nvrtc%d.ptx", v);
        std::ofstream(name).write(ptx.data(), ps - 1);
        CUmodule m; CUresult r = cuModuleLoadData(&m, cubin.data());
        if (r) { printf("load %d\n", (int)r); return 1; }
        CUfunction f; cuModuleGetFunction(&f, m, "random_314159_3949_reduced");
        snprintf(name, 32, "nvrtc variant %d", v);
        run(name, f, true, 43);
        run(name, f, true, 43);
    }
    int ver; nvrtcVersion(&ver, &ver); 
    int major, minor; nvrtcVersion(&major, &minor); printf("nvrtc %d.%d\n", major, minor);
    return 0;
}
