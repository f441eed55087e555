.kernel g_ld_other_at
.block 32
.buffer in u32[4096] = i * 7 + 3
.buffer cnt u32[4096] = i
.buffer scr u32[4096]
.buffer usev u32[256]
.buffer cyc u32[256]
.reg %a, %v, %w, %r0, %ci, %ck, %ck2, %gid

        mov.u32 %gid, %tid.x
        mul.lo.u32 %a, %gid, 4
        add.u32 %a, %a, 64
        mov.u32 %v, %tid.x
        ld.global.u32 %v, in[%a]
        st.global.u32 scr[%gid], %v
        mov.u32 %ck, %clock
        atom.global.exch.b32 %r0, cnt[%a], %v
        add.u32 %ci, %r0, 1
        st.global.u32 usev[%gid], %ci
        mov.u32 %ck2, %clock
        sub.u32 %ck2, %ck2, %ck
        st.global.u32 cyc[%gid], %ck2
