// 2-D 5-point Jacobi stencil with a shared tile and halo.
#define BX 16
#define BY 16
extern "C" __global__ void jacobi2d(float *out, const float *in, int nx, int ny)
{
    __shared__ float t[BY + 2][BX + 2];
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
    auto at = [&](int xx, int yy) { return (xx >= 0 && xx < nx && yy >= 0 && yy < ny) ? in[yy * nx + xx] : 0.0f; };
    t[ly][lx] = at(x, y);
    if (threadIdx.x == 0)      t[ly][0] = at(x - 1, y);
    if (threadIdx.x == BX - 1) t[ly][BX + 1] = at(x + 1, y);
    if (threadIdx.y == 0)      t[0][lx] = at(x, y - 1);
    if (threadIdx.y == BY - 1) t[BY + 1][lx] = at(x, y + 1);
    __syncthreads();
    if (x < nx && y < ny)
        out[y * nx + x] = 0.25f * (t[ly][lx - 1] + t[ly][lx + 1] + t[ly - 1][lx] + t[ly + 1][lx]);
}
