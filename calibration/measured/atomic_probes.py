#!/usr/bin/env python3
"""Issue 22: the probes of global atomics behind `memory.atomic_line`, `atomic_issue` and `atomic_word_lane`.

Writes warpsim ISA programs into DIR (`python3 calibration/measured/atomic_probes.py DIR`), run on an H200 with
`sim crosscheck DIR/*.s --jobs 1 --save-buffers BUF --format json`; the results, with warpsim's figures beside them,
are in `atomic-probes-h200-2026-11-29.txt`. Each program times a region with `%clock` into `cyc`:
  a_*, b_*, c_*, d_*, e_*, f_*, g_*  one atomic (or load), from a clock before it to one after its result's use;
  w_*                                64 dependent atomics on fresh lines, the first L lanes on one word;
  r_*                                64 `red`s in a loop;
  rb_*, ab_*                         K `red`s / K atoms (results summed) straight, the kernel's first accesses;
  rw_*, aw_*, sw_*                   the same after a load and a store of the buffer (its pointer read first);
  ai_*                               K atoms straight, their results stored after the second clock read.
"""
import os
import sys


def write(out, name, text):
    with open(os.path.join(out, f"{name}.s"), "w") as f:
        f.write(text)


def single(out):
    head = """.kernel {name}
.block {block}
.buffer in u32[4096] = i * 7 + 3
.buffer fcnt f32[4096] = i + 0.5
.buffer cnt u32[4096] = i
.buffer scr u32[4096]
.buffer usev u32[256]
.buffer cyc u32[256]
.reg %a, %b, %v, %r0, %r1, %r2, %r3, %r4, %r5, %ci, %ck, %ck2, %t0, %gid
.pred %p, %q

        mov.u32 %gid, %tid.x
        mul.lo.u32 %a, %gid, 4
        add.u32 %a, %a, 64
        mov.u32 %v, %tid.x
"""
    tail = """        mov.u32 %ck, %clock
        atom.global.{op} %r0, {buf}[%a], %v
        add.u32 %ci, %r0, 1
        st.global.u32 usev[%gid], %ci
        mov.u32 %ck2, %clock
        sub.u32 %ck2, %ck2, %ck
        st.global.u32 cyc[%gid], %ck2
"""
    loads = "".join(f"        ld.global.u32 %r{k + 1}, in[%a + {k + 1}]\n" for k in range(5))
    stores = "".join(f"        st.global.u32 scr[%a + {k}], %v\n" for k in range(6))
    variants = {
        "a_exch": ("", "exch.b32", "cnt"),
        "a_add": ("", "add.u32", "cnt"),
        "a_max": ("", "max.u32", "cnt"),
        "a_exchf": ("", "exch.b32", "fcnt"),
        "a_exch_l1": ("        mov.u32 %a, %gid\n", "exch.b32", "cnt"),
        "b_loads": (loads, "exch.b32", "cnt"),
        "b_loads_used": (loads + "        add.u32 %v, %v, %r5\n        and.b32 %v, %v, 0\n        add.u32 %v, %v, %tid.x\n",
                         "exch.b32", "cnt"),
        "c_stores": (stores, "exch.b32", "cnt"),
        "c_ownline": ("        st.global.u32 cnt[%a + 1], %v\n", "exch.b32", "cnt"),
        "d_second": ("        atom.global.add.u32 %r1, cnt[%a + 2048], 1\n        add.u32 %v, %v, %r1\n"
                     "        sub.u32 %v, %v, %r1\n", "exch.b32", "cnt"),
    }
    for name, (body, op, buf) in variants.items():
        write(out, name, head.format(name=name, block=32) + body + tail.format(op=op, buf=buf))
    write(out, "e_div", head.format(name="e_div", block=32) + "        setp.lt.u32 %q, %tid.x, 16\n        @!%q bra skip\n"
          + tail.format(op="exch.b32", buf="cnt") + "skip:\n")
    write(out, "e_div_join", head.format(name="e_div_join", block=32) + """        mov.u32 %r0, 0
        setp.lt.u32 %q, %tid.x, 16
        mov.u32 %ck, %clock
        @!%q bra skip
        atom.global.exch.b32 %r0, cnt[%a], %v
skip:
        add.u32 %ci, %r0, 1
        st.global.u32 usev[%gid], %ci
        mov.u32 %ck2, %clock
        sub.u32 %ck2, %ck2, %ck
        st.global.u32 cyc[%gid], %ck2
""")
    write(out, "f_4warps", head.format(name="f_4warps", block=128) + tail.format(op="exch.b32", buf="cnt"))
    # g_*: an atomic or a load after another access (or none).
    head = """.kernel {name}
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
"""
    region = """        mov.u32 %ck, %clock
        {ins}
        add.u32 %ci, %r0, 1
        st.global.u32 usev[%gid], %ci
        mov.u32 %ck2, %clock
        sub.u32 %ck2, %ck2, %ck
        st.global.u32 cyc[%gid], %ck2
"""
    pre = {
        "g_none": "",
        "g_ld_same": "        ld.global.u32 %v, cnt[%a + 1024]\n        st.global.u32 scr[%gid], %v\n",
        "g_ld_sameline": "        ld.global.u32 %v, cnt[%a + 1]\n        st.global.u32 scr[%gid], %v\n",
        "g_ld_other": "        ld.global.u32 %v, in[%a]\n        st.global.u32 scr[%gid], %v\n",
        "g_at_same": "        atom.global.exch.b32 %v, cnt[%a + 1024], %gid\n        st.global.u32 scr[%gid], %v\n",
        "g_at_other": "        atom.global.exch.b32 %v, in[%a], %gid\n        st.global.u32 scr[%gid], %v\n",
        "g_st_only": "        st.global.u32 scr[%gid], %v\n",
    }
    for name, p in pre.items():
        for kind, ins in (("at", "atom.global.exch.b32 %r0, cnt[%a], %v"), ("ld", "ld.global.u32 %r0, cnt[%a]")):
            write(out, f"{name}_{kind}", head.format(name=f"{name}_{kind}") + p + region.format(ins=ins))


def chains(out):
    ops = {"add": ("u32", "atom.global.add.u32 %r1, B[%a], 1", False),
           "exch": ("u32", "atom.global.exch.b32 %r1, B[%a], %k", False),
           "max": ("u32", "atom.global.max.u32 %r1, B[%a], %k", False),
           "add64": ("u64", "atom.global.add.u64 %w1, B[%a], %w0", True),
           "exch64": ("u64", "atom.global.exch.b64 %w1, B[%a], %w0", True)}
    for op, (ty, ins, wide) in ops.items():
        for lanes in (1, 2, 8, 32):
            name = f"w_{op}_l{lanes}"
            lines = [f".kernel {name}", ".block 32", f".buffer B {ty}[{64 * 32 + 64}] = i", ".buffer out u32[W]",
                     ".buffer cyc u32[1]", ".reg %a, %base, %r1, %d, %k, %i, %t0, %t1", ".reg.b64 %w0, %w1",
                     ".pred %p, %z, %more", "", "        mov.u32 %a, 0", "        mov.u32 %base, 0",
                     "        mov.u32 %k, %tid.x", "        cvt.u64.u32 %w0, %tid.x", "        mov.u32 %i, 0",
                     "        mov.u32 %r1, 0", f"        setp.lt.u32 %p, %tid.x, {lanes}",
                     "        mov.u32 %t0, %clock", "loop:", "        add.u32 %a, %a, %base", f"        @%p {ins}"]
            if wide:
                lines.append("        cvt.u32.u64 %r1, %w1")
            lines += ["        shr.u32 %d, %r1, 30", "        sub.u32 %a, %a, %base", "        add.u32 %base, %base, 32",
                      "        add.u32 %base, %base, %d", "        add.u32 %i, %i, 1",
                      "        setp.lt.u32 %more, %i, 64", "        @%more bra loop", "        mov.u32 %t1, %clock",
                      "        sub.u32 %t1, %t1, %t0", "        st.global.u32 out[%tid.x], %r1",
                      "        setp.eq.u32 %z, %tid.x, 0", "        @%z st.global.u32 cyc[0], %t1"]
            write(out, name, "\n".join(lines) + "\n")
    for op, ins in (("redadd", "red.global.add.u32 B[%a], 1"), ("redmax", "red.global.max.u32 B[%a], %k")):
        for lanes in (1, 32):
            name = f"r_{op}_l{lanes}"
            lines = [f".kernel {name}", ".block 32", ".buffer B u32[2112] = i", ".buffer out u32[W]",
                     ".buffer cyc u32[1]", ".reg %a, %r1, %k, %i, %t0, %t1", ".pred %p, %z, %more", "",
                     "        mov.u32 %a, 0", "        mov.u32 %k, %tid.x", "        mov.u32 %i, 0",
                     f"        setp.lt.u32 %p, %tid.x, {lanes}", "        mov.u32 %t0, %clock", "loop:", f"        @%p {ins}",
                     "        add.u32 %a, %a, 32", "        add.u32 %i, %i, 1", "        setp.lt.u32 %more, %i, 64",
                     "        @%more bra loop", "        mov.u32 %t1, %clock", "        sub.u32 %t1, %t1, %t0",
                     "        st.global.u32 out[%tid.x], %a", "        setp.eq.u32 %z, %tid.x, 0",
                     "        @%z st.global.u32 cyc[0], %t1"]
            write(out, name, "\n".join(lines) + "\n")


SHAPES = ((32, 1, "w32"), (32, 0, "one"), (1, 0, "l1"))


def bursts(out):
    def prog(name, body, tail_sum, spread, lanes, warm):
        regs = ", ".join(f"%r{i}" for i in range(130 if warm else 70))
        extra = ", %w" if warm else ""
        lines = [f".kernel {name}", ".block 32", ".buffer B u32[65536] = i", ".buffer out u32[W]", ".buffer cyc u32[1]",
                 f".reg %a, %k, %t0, %t1, %s{extra}, {regs}", ".pred %p, %z", "",
                 "        mov.u32 %k, %tid.x", f"        mul.lo.u32 %a, %tid.x, {spread}",
                 f"        setp.lt.u32 %p, %tid.x, {lanes}", "        mov.u32 %s, 0"]
        if warm:
            lines += ["        ld.global.u32 %w, B[%tid.x + 60000]", "        st.global.u32 out[%tid.x], %w"]
        lines += ["        mov.u32 %t0, %clock"] + body + tail_sum + [
            "        mov.u32 %t1, %clock", "        sub.u32 %t1, %t1, %t0",
            "        st.global.u32 out[%tid.x], %s", "        setp.eq.u32 %z, %tid.x, 0", "        @%z st.global.u32 cyc[0], %t1"]
        return "\n".join(lines) + "\n"

    def reds(k):
        return [f"        @%p red.global.add.u32 B[%a + {64 * j}], 1" for j in range(k)]

    def atoms(k):
        return [f"        @%p atom.global.add.u32 %r{j}, B[%a + {64 * j}], 1" for j in range(k)]

    def sums(k):
        return [f"        add.u32 %s, %s, %r{j}" for j in range(k)]

    for k in (8, 32, 64):
        for lanes, spread, tag in ((1, 0, "l1"), (32, 1, "w32"), (32, 0, "one")):
            write(out, f"rb_{tag}_k{k}", prog(f"rb_{tag}_k{k}", reds(k), [], spread, lanes, False))
            write(out, f"ab_{tag}_k{k}", prog(f"ab_{tag}_k{k}", atoms(k), sums(k), spread, lanes, False))
    for k in (1, 8, 32, 64, 128):
        for lanes, spread, tag in SHAPES:
            write(out, f"rw_{tag}_k{k}", prog(f"rw_{tag}_k{k}", reds(k), [], spread, lanes, True))
            if k <= 64:
                write(out, f"aw_{tag}_k{k}", prog(f"aw_{tag}_k{k}", atoms(k), sums(k), spread, lanes, True))
    for k in (8, 64):
        body = [f"        st.global.u32 B[%a + {64 * j}], %k" for j in range(k)]
        write(out, f"sw_w32_k{k}", prog(f"sw_w32_k{k}", body, [], 1, 32, True))
    for k in (1, 8, 32, 64, 128):
        for lanes, spread, tag in SHAPES:
            regs = ", ".join(f"%r{i}" for i in range(k))
            lines = [f".kernel ai_{tag}_k{k}", ".block 32", ".buffer B u32[65536] = i", f".buffer out u32[{32 * (k + 1)}]",
                     ".buffer cyc u32[1]", f".reg %a, %k, %t0, %t1, %w, {regs}", ".pred %p, %z", "",
                     "        mov.u32 %k, %tid.x", f"        mul.lo.u32 %a, %tid.x, {spread}",
                     f"        setp.lt.u32 %p, %tid.x, {lanes}", "        ld.global.u32 %w, B[%tid.x + 60000]",
                     f"        st.global.u32 out[%tid.x + {32 * k}], %w", "        mov.u32 %t0, %clock"]
            lines += atoms(k) + ["        mov.u32 %t1, %clock", "        sub.u32 %t1, %t1, %t0"]
            lines += [f"        st.global.u32 out[%tid.x + {32 * j}], %r{j}" for j in range(k)]
            lines += ["        setp.eq.u32 %z, %tid.x, 0", "        @%z st.global.u32 cyc[0], %t1"]
            write(out, f"ai_{tag}_k{k}", "\n".join(lines) + "\n")


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    single(out)
    chains(out)
    bursts(out)
