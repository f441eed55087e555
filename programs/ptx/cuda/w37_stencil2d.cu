// 2-D five-point stencil (a Jacobi step) with a shared-memory tile and a one-cell halo:
// out[y][x] = (4*in[y][x] - in[y-1][x] - in[y+1][x] - in[y][x-1] - in[y][x+1]), zero outside.
#define TILE 16
extern "C" __global__ void stencil2d(int *out, const int *in, int width, int height)
{
    __shared__ int tile[TILE + 2][TILE + 2];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    auto at = [&](int yy, int xx) { return (xx >= 0 && xx < width && yy >= 0 && yy < height) ? in[yy * width + xx] : 0; };
    tile[ty][tx] = at(y, x);
    if (threadIdx.x == 0) tile[ty][0] = at(y, x - 1);
    if (threadIdx.x == TILE - 1) tile[ty][TILE + 1] = at(y, x + 1);
    if (threadIdx.y == 0) tile[0][tx] = at(y - 1, x);
    if (threadIdx.y == TILE - 1) tile[TILE + 1][tx] = at(y + 1, x);
    __syncthreads();
    if (x < width && y < height)
        out[y * width + x] = 4 * tile[ty][tx] - tile[ty - 1][tx] - tile[ty + 1][tx] - tile[ty][tx - 1] - tile[ty][tx + 1];
}
