// histogram_bin (P27): collect the values that fall in one histogram bin, in thread order.
//   bin = floor(v * 8) clamped to 0..7; a thread matches when bin == target_bin.
//   A block-wide exclusive prefix sum of the match flags gives every matching thread its slot:
//     1. each warp scans its flags with shfl.up;
//     2. each warp's last lane stores the warp's total in shared memory; barrier;
//     3. warp 0 scans the totals into per-warp offsets in shared memory; barrier;
//     4. slot = offset of the warp + the thread's exclusive scan; matching threads (a divergent branch) write
//        bins[slot] = v; the last thread writes count[0] = its slot + its flag.
// Default input (i % 80) / 100 over 128 threads: counts 26, 24, 26, 22, 13, 12, 5, 0 for bins 0..7.
// `--set blocks=N` runs N blocks over N·threads values (i is the global index); block b collects its own
// values into bins[b·threads …] and writes its count to count[b].
.kernel histogram_bin
.desc "the values of one bin, in thread order, via a block-wide prefix sum (4 warps, shared memory, barriers) (P27)"
.param target_bin = 0
.param threads = 128
.param blocks = 1
.require threads % W == 0, "histogram_bin needs whole warps: --set threads to a multiple of the warp size"
.require threads / W <= W, "warp 0 scans one warp total per lane, so a block may have at most W warps: use a larger --warp or a smaller --set threads"
.grid blocks
.block threads
.buffer in    f32[blocks * threads] = (i % 80) / 100.0
.buffer bins  f32[blocks * threads]
.buffer count s32[blocks]
.shared totals  u32[threads / W]
.shared offsets u32[threads / W]
.include "warp.s"
.reg %tid, %gid, %v, %scaled, %bin, %flag, %incl, %excl, %other, %d, %total, %offset, %slot, %n
.pred %match, %more, %has, %top, %warp0, %lane_ok, %last

        mov.u32             %tid, %tid.x
        mad.lo.u32          %gid, %ctaid.x, %ntid.x, %tid.x
        ld.global.f32       %v, in[%gid]
        mul.f32             %scaled, %v, 8.0
        cvt.rmi.s32.f32     %bin, %scaled
        max.s32             %bin, %bin, 0
        min.s32             %bin, %bin, 7
        setp.eq.s32         %match, %bin, target_bin
        selp.u32            %flag, 1, 0, %match
        // 1. the warp's inclusive scan of the flags
        mov.u32             %incl, %flag
        scan_up_u32         %incl, %other, %d, %more, %has
        sub.u32             %excl, %incl, %flag
        // 2. the warp's total, from its last lane
        setp.eq.u32         %top, %laneid, (W - 1)
        @%top st.shared.u32 totals[%warpid], %incl
        bar.sync            0
        // 3. warp 0: exclusive scan of the warp totals
        setp.eq.u32         %warp0, %warpid, 0
        @!%warp0 bra        offsets_ready
        mov.u32             %total, 0
        setp.lt.u32         %lane_ok, %laneid, %nwarpid
        @%lane_ok ld.shared.u32 %total, totals[%laneid]
        mov.u32             %offset, %total
        scan_up_u32         %offset, %other, %d, %more, %has
        sub.u32             %offset, %offset, %total
        @%lane_ok st.shared.u32 offsets[%laneid], %offset
offsets_ready:
        bar.sync            0
        // 4. every thread's slot; matching threads write their value
        ld.shared.u32       %offset, offsets[%warpid]
        add.u32             %slot, %offset, %excl
        @!%match bra        written
        mad.lo.u32          %d, %ctaid.x, %ntid.x, %slot
        st.global.f32       bins[%d], %v
written:
        setp.eq.u32         %last, %tid, (threads - 1)
        @!%last exit
        add.u32             %n, %slot, %flag
        st.global.s32       count[%ctaid.x], %n
