// 8- and 16-bit memory: images of unsigned char (RGBA to grey, a 3x3 box blur with clamped edges, a threshold to
// bool), signed char and short arithmetic stored back narrow, char2/uchar4/short2 vectors, a byte array in shared
// memory, and a byte histogram into 32-bit counters.
#include <cstdint>

extern "C" __global__ void rgba_to_grey(const uchar4* rgba, unsigned char* grey, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uchar4 p = rgba[i];
    grey[i] = (unsigned char)((p.x * 77 + p.y * 150 + p.z * 29 + 128) >> 8);
  }
}

extern "C" __global__ void box_blur(const unsigned char* in, unsigned char* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int sum = 0;
  for (int dy = -1; dy <= 1; dy++) {
    for (int dx = -1; dx <= 1; dx++) {
      int xx = min(max(x + dx, 0), w - 1);
      int yy = min(max(y + dy, 0), h - 1);
      sum += in[yy * w + xx];
    }
  }
  out[y * w + x] = (unsigned char)(sum / 9);
}

extern "C" __global__ void threshold(const unsigned char* in, bool* mask, unsigned char* flipped, int n, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned char v = in[i];
    mask[i] = v > t;
    flipped[i] = 255 - v;
  }
}

extern "C" __global__ void narrow_math(const signed char* a, const short* b, short* s, signed char* c,
                                       unsigned short* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = a[i];
    int y = b[i];
    s[i] = (short)(x * y - 3 * y);
    c[i] = (signed char)(x * 3 + (y >> 4));
    u[i] = (unsigned short)(y * 7 + 40000);
  }
}

extern "C" __global__ void vectors(const char2* a, const uchar4* b, const short2* c, char2* oa, uchar4* ob,
                                   short2* oc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    char2 p = a[i];
    oa[i] = make_char2(p.y - 1, p.x + 1);
    uchar4 q = b[i];
    ob[i] = make_uchar4(q.w, q.z ^ 0x55, q.y, q.x + q.w);
    short2 r = c[i];
    oc[i] = make_short2(r.x + r.y, r.x - r.y);
  }
}

extern "C" __global__ void shared_bytes(const unsigned char* in, unsigned char* out, int n) {
  __shared__ unsigned char s[512];
  int t = threadIdx.x;
  int base = blockIdx.x * 512;
  for (int k = t; k < 512; k += blockDim.x) s[k] = base + k < n ? in[base + k] : 0;
  __syncthreads();
  for (int k = t; k < 512; k += blockDim.x) {
    if (base + k < n) out[base + k] = s[511 - k] + s[(k * 7) & 511];
  }
}

extern "C" __global__ void byte_histogram(const unsigned char* in, unsigned int* bins, int n) {
  __shared__ unsigned int h[256];
  for (int k = threadIdx.x; k < 256; k += blockDim.x) h[k] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&h[in[i]], 1u);
  __syncthreads();
  for (int k = threadIdx.x; k < 256; k += blockDim.x) atomicAdd(&bins[k], h[k]);
}
