// Control flow people write: switch, while/break/continue, do-while, early return,
// and a recursive __device__ function (real call with a stack frame).
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ __noinline__ int collatz_steps(unsigned x)
{
    int steps = 0;
    while (x != 1) {
        if (steps > 1000) break;
        x = (x & 1) ? 3 * x + 1 : x / 2;
        ++steps;
    }
    return steps;
}
extern "C" __global__ void control_flow(int *out, const int *op, const unsigned *arg, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int r;
    switch (op[i]) {
    case 0: r = collatz_steps(arg[i] + 1); break;
    case 1: r = fact(arg[i] % 12); break;
    case 2: r = -1; break;
    case 3: r = (int)arg[i] * 7; break;
    case 4: r = __popc(arg[i]); break;
    case 5: r = 42; break;
    default: r = 0;
    }
    int k = 0;
    do {
        if ((k & 1) == 0) { ++k; continue; }
        r += k;
        ++k;
    } while (k < (i & 7));
    out[i] = r;
}
