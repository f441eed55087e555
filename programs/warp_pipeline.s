// warp_pipeline: a producer/consumer pipeline inside one warp (warp specialisation), as independent thread
// scheduling allows since Volta. The lower half of each warp produces, the upper half consumes, each on its own
// path. In each of `rounds` rounds, producer lane p loads an element, squares it and puts it in slot p of its
// warp's mailbox in shared memory, then hands the mailbox over with `bar.warp.sync`; consumer lane H + p
// (H = W/2) waits at its own `bar.warp.sync` (another instruction, on the other path), adds (round + 1) times
// the item to its sum, and a second pair of `bar.warp.sync`s hands the mailbox back for the next round. At the
// end each consumer sends its sum to its producer by a shuffle that the two paths execute at two different
// instructions, and the producer writes it out: out[g] = sum over r of (r + 1) * in[g * rounds + r]^2, g being
// the producer's global index.
// Runs under independent thread scheduling only (`.scheduling its`): with `--scheduling lockstep` the
// producers' path reaches its bar.warp.sync alone, the consumers being on the other path, and the run faults;
// CUDA code written this way relies on sm_70+ semantics.
.kernel warp_pipeline
.desc "warp specialisation: producer and consumer halves of a warp hand a shared mailbox over with bar.warp.sync on diverged paths, then meet at a shuffle (ITS)"
.scheduling its
.warp_sizes 2..64
.param warps = 2
.param blocks = 2
.param rounds = 4
.grid blocks
.block warps * W
.buffer in  u32[blocks * warps * (W / 2) * rounds] = (3 * i + 1) % 17
.buffer out u32[blocks * warps * (W / 2)]
.shared box u32[warps * (W / 2)]
.reg %h, %g, %slot, %r, %at, %v, %sum, %k, %got, %src
.pred %producer, %more

        shr.u32             %h, W, 1
        // This lane's pair index p (producer p and consumer H + p share it) and its global index g.
        rem.u32             %k, %laneid, %h
        mad.lo.u32          %slot, %warpid, %h, %k
        mad.lo.u32          %g, %ctaid.x, warps * (W / 2), %slot
        mov.u32             %r, 0
        mov.u32             %sum, 0
        setp.lt.u32         %producer, %laneid, %h
        @!%producer bra     consume
produce:
        mad.lo.u32          %at, %g, rounds, %r
        ld.global.u32       %v, in[%at]
        mul.lo.u32          %v, %v, %v
        st.shared.u32       box[%slot], %v
        bar.warp.sync                               // the item is in the mailbox
        bar.warp.sync                               // the mailbox is free again
        add.u32             %r, %r, 1
        setp.lt.u32         %more, %r, rounds
        @%more bra          produce
        // The consumer's sum, from lane H + p, arrives at this shuffle while the consumer is at its own.
        add.u32             %src, %laneid, %h
        shfl.sync.idx.b32   %got, %sum, %src
        st.global.u32       out[%g], %got
        exit
consume:
        bar.warp.sync                               // wait for the item
        ld.shared.u32       %v, box[%slot]
        add.u32             %k, %r, 1
        mad.lo.u32          %sum, %k, %v, %sum
        bar.warp.sync                               // done with the mailbox
        add.u32             %r, %r, 1
        setp.lt.u32         %more, %r, rounds
        @%more bra          consume
        shfl.sync.idx.b32   %got, %sum, %laneid
