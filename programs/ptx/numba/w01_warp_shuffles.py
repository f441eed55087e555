# Warp-level Numba kernels: shfl_down_sync reduction, shfl_xor_sync butterfly all-reduce,
# syncwarp, activemask, ballot_sync, shfl_sync broadcast, lane id.
from numba import cuda, float32, int32, uint32, int64, float64

def warp_sum_down(out, a, n):
    i = cuda.grid(1)
    v = a[i] if i < n else float32(0)
    offset = 16
    while offset > 0:
        v += cuda.shfl_down_sync(0xffffffff, v, offset)
        offset //= 2
    if cuda.laneid == 0:
        cuda.atomic.add(out, 0, v)

def warp_butterfly_max(out, a, n):
    i = cuda.grid(1)
    v = a[i] if i < n else float32(-1e30)
    mask = 1
    while mask < 32:
        v = max(v, cuda.shfl_xor_sync(0xffffffff, v, mask))
        mask *= 2
    if i < n:
        out[i] = v

def ballot_count(counts, a, threshold, n):
    i = cuda.grid(1)
    pred = i < n and a[i] > threshold
    bits = cuda.ballot_sync(0xffffffff, pred)
    if cuda.threadIdx.x % 32 == 0:
        counts[i // 32] = cuda.popc(bits)

def active_leader(out, counter, a, n):
    i = cuda.grid(1)
    if i < n and a[i] > 0:
        active = cuda.activemask()
        leader = cuda.ffs(active) - 1
        lane = cuda.laneid
        base = 0
        if lane == leader:
            base = cuda.atomic.add(counter, 0, cuda.popc(active))
        base = cuda.shfl_sync(active, base, leader)
        rank = cuda.popc(active & ((1 << lane) - 1))
        out[base + rank] = a[i]
        cuda.syncwarp(active)

def vote_any_all(out, a, n):
    i = cuda.grid(1)
    pred = i < n and a[i] != 0
    anyv = cuda.any_sync(0xffffffff, pred)
    allv = cuda.all_sync(0xffffffff, pred)
    eqv = cuda.eq_sync(0xffffffff, pred)
    if i < n:
        out[i] = int32(anyv) + 2 * int32(allv) + 4 * int32(eqv)

def match_groups(out, keys, n):
    i = cuda.grid(1)
    if i < n:
        peers = cuda.match_any_sync(cuda.activemask(), keys[i])
        out[i] = peers

def block_reduce_f64(out, a, n):
    # block of 256: shared per-warp partials, then warp 0 finishes with shfl_down
    partial = cuda.shared.array(8, float64)
    i = cuda.grid(1)
    v = a[i] if i < n else 0.0
    for off in (16, 8, 4, 2, 1):
        v += cuda.shfl_down_sync(0xffffffff, v, off)
    wid = cuda.threadIdx.x // 32
    lane = cuda.threadIdx.x % 32
    if lane == 0:
        partial[wid] = v
    cuda.syncthreads()
    if wid == 0:
        v = partial[lane] if lane < 8 else 0.0
        for off in (4, 2, 1):
            v += cuda.shfl_down_sync(0xffffffff, v, off)
        if lane == 0:
            cuda.atomic.add(out, 0, v)

SIGS = [
    ("warp_sum_down", warp_sum_down, (float32[::1], float32[::1], int64)),
    ("warp_butterfly_max", warp_butterfly_max, (float32[::1], float32[::1], int64)),
    ("ballot_count", ballot_count, (int32[::1], float32[::1], float32, int64)),
    ("active_leader", active_leader, (int32[::1], int32[::1], int32[::1], int64)),
    ("vote_any_all", vote_any_all, (int32[::1], int32[::1], int64)),
    ("match_groups", match_groups, (uint32[::1], int32[::1], int64)),
    ("block_reduce_f64", block_reduce_f64, (float64[::1], float64[::1], int64)),
]
