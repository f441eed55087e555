// Kernel parameters passed by value as structs, float2/int2 vector types, char/short arrays.
struct Params {
    const float2 *points;
    float *dist;
    int n;
    float scale;
};
struct Rect { short x0, y0, x1, y1; };
extern "C" __global__ void struct_params(Params p, Rect r, unsigned char *mask, const short *weights, int2 offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n) return;
    float2 q = p.points[i];
    float dx = q.x - offset.x, dy = q.y - offset.y;
    p.dist[i] = p.scale * sqrtf(dx * dx + dy * dy);
    bool inside = q.x >= r.x0 && q.x < r.x1 && q.y >= r.y0 && q.y < r.y1;
    mask[i] = inside ? (unsigned char)(weights[i & 15] & 0xff) : 0;
}
