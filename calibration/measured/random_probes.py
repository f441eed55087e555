#!/usr/bin/env python3
"""Issue 22: the probes behind "Where the random programs' cycles go" (docs/timing.md), written as warpsim programs
so that `sim crosscheck` runs them on the GPU through the same CUDA translation as the random programs.

    python3 calibration/measured/random_probes.py OUT_DIR [--sim target/release/sim]   (from the repository's root)

writes into OUT_DIR, one folder per probe:
  regions/   random programs 1911, 1977, 2536, 4029, 6080, 6985 and 8490 of seed 314159 with clock points (`cyc`,
             lane by lane: index ((block * 8 + point) * 2 + warp) * 32 + lane) at the start, after the loads that open
             every random program, before its closing stores, and after each group of those stores;
  cuts/      programs 1911, 1977, 2536 and 6080 cut after line K (`kNNNN_cK.s`: the lines from K + 1 to the closing
             stores removed, labels kept);
  ablate/    the same programs without line K (`aNNNN_dK.s`; `_d0` is the program itself);
  insitu/    a clock right before line K and after the first use of its result (`cyc`, per thread);
  jumps/     a dependent chain of multiply-adds with K taken forward branches, each over G multiply-adds and
             followed by E executed ones (`cyc[0]`: the chain's cycles);
  atomics/   64 dependent global atomics (or loads), each on lines no earlier step touched, with the lanes S words
             apart (S = 0: lane 0 alone) (`cyc[0]`: the 64 steps' cycles);
  exits/     program 6985 with its load, remainder or first exit removed, and a warp whose lanes 0-15 exit with a
             load in flight before (`ex_load`) or after (`ex_loadb`) lanes 16-31 run; `exit_drain0`/`1`: the same
             with lanes 16-31 reading the clock first;
  sample/    90 random programs with clock points at the start, after the opening loads, before the closing stores
             and at the end;
  stores/    loops of stores spread over lines or repeating lines, and of loads and atomics together (`sb_*`,
             `aq_*`); straight-line bursts of stores between two clock reads (`sl_*`, `bu_*`); loops of one or six stores
             an iteration over 1 to 32 lines each (`sl1_*`, `sl6_*`);
  warpsync/  an atomic (a load, a store, nothing) whose value is not used, then a warp-synchronous instruction
             (`cyc[0]`: clock to clock).

Run on the GPU with `sim crosscheck DIR/*.s --jobs 1 --save-buffers BUF --format json` (several times); the results
are in random-probes-h200-2026-11-28.txt.
"""
import argparse
import os
import subprocess

SEED = 314159
EPILOGUE = "        mul.lo.u32 %t0, %gid, 7"


def random_program(sim, index):
    return subprocess.run([sim, "random", "--seed", str(SEED), "--index", str(index)], capture_output=True,
                          text=True, check=True).stdout.split("\n")


def write(folder, name, lines):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name + ".s"), "w") as f:
        f.write("\n".join(lines) + "\n")


def renamed(line, name):
    return ".kernel " + name if line.startswith(".kernel") else line


def regions(sim, out):
    after = ["        setp.ne.u32 %p2, %r4, %laneid", None, "        st.global.u32 out[%t0 + 6], %t1",
             "        st.global.u32 scout[%ob + 3], %t1", "        st.global.u64 out64[%t0 + 3], %w3",
             "        st.global.u64 scout64[%ob + 3], %wt0"]

    def clock(p):
        return ["        mov.u32 %ck, %clock", "        mad.lo.u32 %ci, %ctaid.y, %nctaid.x, %ctaid.x",
                f"        mad.lo.u32 %ci, %ci, 8, {p}", "        mad.lo.u32 %ci, %ci, 2, %warpid",
                "        mad.lo.u32 %ci, %ci, 32, %laneid", "        st.global.u32 cyc[%ci], %ck"]

    for index in (1911, 1977, 2536, 4029, 6080, 6985, 8490):
        lines, p, mark, body = [], 0, 0, False
        for line in random_program(sim, index):
            line = renamed(line, f"c{index}")
            if line.startswith(".pred"):
                lines += [line, ".reg %ck, %ci", ".buffer cyc u32[4096]"]
                continue
            if not body and line.startswith("        "):
                body, p = True, 1
                lines += clock(0)
            if mark < len(after) and after[mark] is None and line == EPILOGUE:
                lines += clock(p)
                p, mark = p + 1, mark + 1
            lines.append(line)
            while mark < len(after) and line == after[mark]:
                lines += clock(p)
                p, mark = p + 1, mark + 1
        write(os.path.join(out, "regions"), f"c{index}", lines)


def cuts_and_ablations(sim, out):
    plan = {1911: ([71, 73, 90, 100, 103], [73, 77, 84, 89, 98, 102]),
            1977: ([70, 73, 88, 100, 103], [71, 73, 92, 94, 103]),
            2536: ([70, 80, 91, 103], [71, 74, 79, 85, 90, 97]),
            6080: ([71, 77], [76])}
    for index, (cuts, drops) in plan.items():
        src = random_program(sim, index)
        epi = src.index(EPILOGUE)
        for c in cuts:
            lines = [renamed(l, f"k{index}_c{c}") for i, l in enumerate(src)
                     if not (i + 1 > c and i < epi and not l.endswith(":"))]
            write(os.path.join(out, "cuts"), f"k{index}_c{c}", lines)
        for d in [0] + drops:
            lines = [renamed(l, f"a{index}_d{d}") for i, l in enumerate(src) if i + 1 != d]
            write(os.path.join(out, "ablate"), f"a{index}_d{d}", lines)


def insitu(sim, out):
    plan = [(2536, 85, "cvt.u32.u64 %ci, %w2"), (2536, 79, "cvt.u32.u64 %ci, %w1"), (1977, 92, "add.u32 %ci, %r0, 1"),
            (1911, 77, "add.u32 %ci, %r1, 1"), (1911, 102, "add.u32 %ci, %r3, 1")]
    for index, at, use in plan:
        lines = []
        for i, line in enumerate(random_program(sim, index)):
            line = renamed(line, f"s{index}_{at}")
            if line.startswith(".pred"):
                lines += [line, ".reg %ck, %ck2, %ci", ".buffer cyc u32[256]", ".buffer usev u32[256]"]
            elif i + 1 == at:
                lines += ["        mov.u32 %ck, %clock", line, "        " + use, "        st.global.u32 usev[%gid], %ci",
                          "        mov.u32 %ck2, %clock", "        sub.u32 %ck2, %ck2, %ck",
                          "        st.global.u32 cyc[%gid], %ck2"]
            else:
                lines.append(line)
        write(os.path.join(out, "insitu"), f"s{index}_{at}", lines)


def jumps(out):
    mad_x, mad_y = "        mad.lo.u32 %x, %x, %a, %b", "        mad.lo.u32 %y, %y, %a, %b"
    for k, g, e in [(0, 0, 256), (8, 32, 32), (16, 8, 16), (16, 32, 16), (16, 128, 16), (32, 32, 8)]:
        name = f"ic_k{k}_g{g}" if k else "ic_k0"
        lines = [f".kernel {name}", ".block 32", ".buffer in u32[4] = 2 * i + 1, [0] = 1", ".buffer out u32[W]",
                 ".buffer cyc u32[1]", ".reg %x, %y, %a, %b, %sel, %t0, %t1", ".pred %p", "",
                 "        ld.global.u32 %a, in[1]", "        ld.global.u32 %b, in[2]", "        ld.global.u32 %sel, in[0]",
                 "        setp.ne.u32 %p, %sel, 0", "        mov.u32 %x, %tid.x", "        mad.lo.u32 %y, %tid.x, %a, %b",
                 "        mov.u32 %t0, %clock"]
        for j in range(k):
            lines += [f"        @%p bra L{j}"] + [mad_y] * g + [f"L{j}:"] + [mad_x] * e
        if k == 0:
            lines += [mad_x] * e
        lines += ["        mov.u32 %t1, %clock", "        sub.u32 %t1, %t1, %t0", "        xor.b32 %x, %x, %y",
                  "        st.global.u32 out[%tid.x], %x", "        setp.eq.u32 %p, %tid.x, 0",
                  "        @%p st.global.u32 cyc[0], %t1"]
        write(os.path.join(out, "jumps"), name, lines)


def atomics(out):
    ops = {"add": ("u32", "atom.global.add.u32 %r1, B[%a], 1"), "exch": ("u32", "atom.global.exch.b32 %r1, B[%a], %k"),
           "cas": ("u32", "atom.global.cas.b32 %r1, B[%a], %k, 5"),
           "add64": ("u64", "atom.global.add.u64 %w1, B[%a], %w0"), "ld": ("u32", "ld.global.u32 %r1, B[%a]")}
    steps = 64
    for op, (ty, ins) in ops.items():
        for s in (0, 1, 4, 32):
            stride = max(s, 1)
            step = 32 * stride
            words = steps * step + 32 * stride + 64
            name = f"ach_{op}_s{s}"
            lines = [f".kernel {name}", ".block 32", f".buffer B {ty}[{words}] = i", ".buffer out u32[W]",
                     ".buffer cyc u32[1]", ".reg %a, %base, %r1, %d, %k, %i, %t0, %t1", ".reg.b64 %w0, %w1",
                     ".pred %p, %z, %more", "", f"        mul.lo.u32 %a, %tid.x, {stride}", "        mov.u32 %base, 0",
                     "        mov.u32 %k, %tid.x", "        cvt.u64.u32 %w0, %tid.x", "        mov.u32 %i, 0",
                     "        mov.u32 %r1, 0",
                     "        setp.eq.u32 %p, %tid.x, 0" if s == 0 else "        setp.lt.u32 %p, %tid.x, 32",
                     "        mov.u32 %t0, %clock", "loop:", "        add.u32 %a, %a, %base", f"        @%p {ins}"]
            if ty == "u64":
                lines.append("        cvt.u32.u64 %r1, %w1")
            lines += ["        shr.u32 %d, %r1, 30", "        sub.u32 %a, %a, %base", f"        add.u32 %base, %base, {step}",
                      "        add.u32 %base, %base, %d", "        add.u32 %i, %i, 1",
                      f"        setp.lt.u32 %more, %i, {steps}", "        @%more bra loop", "        mov.u32 %t1, %clock",
                      "        sub.u32 %t1, %t1, %t0", "        st.global.u32 out[%tid.x], %r1",
                      "        setp.eq.u32 %z, %tid.x, 0", "        @%z st.global.u32 cyc[0], %t1"]
            write(os.path.join(out, "atomics"), name, lines)


def exits(sim, out):
    src = random_program(sim, 6985)
    load, rem = "        ld.global.u32 %r1, cnt[%t0]", "        @%p0 rem.s32 %r4, %r1, %t0"
    variants = {"x_a": (), "x_noload": (load,), "x_norem": (rem,), "x_neither": (load, rem)}
    for name, drop in variants.items():
        write(os.path.join(out, "exits"), name, [renamed(l, name) for l in src if l not in drop])
    first, lines = True, []
    for line in src:
        if line == "        @%q exit" and first:
            first = False
            continue
        lines.append(renamed(line, "x_noexit1"))
    write(os.path.join(out, "exits"), "x_noexit1", lines)
    for v, loads, fall in [("load", True, True), ("noload", False, True), ("loadb", True, False),
                           ("noloadb", False, False)]:
        lines = [f".kernel ex_{v}", ".block 32", ".buffer in u32[2048] = 2 * i + 1", ".buffer out u32[W]",
                 ".buffer out2 u32[W]", ".reg %a, %v, %w, %k", ".pred %z", "", "        ld.global.u32 %k, in[2000]",
                 "        mov.u32 %v, 0", "        mul.lo.u32 %a, %tid.x, 32", "        setp.lt.u32 %z, %tid.x, 16"]
        body = (["        add.u32 %a, %a, %k", "        and.b32 %a, %a, 1023", "        ld.global.u32 %v, in[%a]"]
                if loads else ["        add.u32 %v, %k, 1"])
        # (The store to out2, which may alias in, keeps nvcc from sinking the load below the exit.)
        path = body + ["        st.global.u32 out2[%tid.x], %k", "        setp.ne.u32 %z, %tid.x, %k", "        @%z exit",
                       "        st.global.u32 out[%tid.x], %v", "        exit"]
        other = ["        add.u32 %w, %k, %tid.x", "        mad.lo.u32 %w, %w, 3, 1", "        st.global.u32 out[%tid.x], %w",
                 "        exit"]
        if fall:
            lines += ["        @!%z bra other"] + path + ["other:"] + other
        else:
            lines += ["        @%z bra loadpath"] + other + ["loadpath:"] + path
        write(os.path.join(out, "exits"), f"ex_{v}", lines)


# Lanes 0-15 load from 16 lines and exit before their loads arrive; lanes 16-31, set aside by the branch, then read
# the clock (`cyc[0]`: from before the branch). `load` 0 removes the load.
EXIT_CLOCK = """\
.kernel KERNEL
.param load = LOAD
.block 32
.buffer in u32[2048] = 2 * i + 1
.buffer out u32[W]
.buffer out2 u32[W]
.buffer cyc u32[1]
.shared s u32[1]
.reg %a, %v, %w, %k, %t0, %t1
.pred %z, %l

        ld.global.u32       %k, in[2000]
        mov.u32             %v, 0
        st.shared.u32       s[0], %k
        mov.u32             %t0, %clock
        mul.lo.u32          %a, %tid.x, 32
        setp.lt.u32         %z, %tid.x, 16
        @!%z bra            other
        add.u32             %a, %a, %k
        and.b32             %a, %a, 1023
        setp.ne.u32         %l, load, 0
        @%l ld.global.u32   %v, in[%a]
        st.global.u32       out2[%tid.x], %k
        setp.ne.u32         %z, %tid.x, %k
        @%z exit
        st.global.u32       out[%tid.x], %v
        exit
other:
        mov.u32             %t1, %clock
        sub.u32             %t1, %t1, %t0
        add.u32             %w, %k, %tid.x
        st.global.u32       out[%tid.x], %w
        setp.eq.u32         %z, %tid.x, 16
        @%z st.global.u32   cyc[0], %t1
"""


def exit_clock(out):
    for load in (0, 1):
        text = EXIT_CLOCK.replace("KERNEL", f"exit_drain{load}").replace("LOAD", str(load))
        write(os.path.join(out, "exits"), f"exit_drain{load}", text.rstrip("\n").split("\n"))


def warp_sync(out):
    """A warp-synchronous instruction right after an atomic (or a load, a store, nothing) whose value is not used."""
    def prog(name, mid):
        lines = [f".kernel {name}", ".block 32", ".buffer in u32[64] = 2 * i + 1", ".buffer cnt u32[512] = i",
                 ".buffer out u32[W]", ".buffer out2 u32[W]", ".buffer cyc u32[1]", ".reg %a, %x, %r1, %r2, %t0, %t1, %m",
                 ".pred %p, %z", "", "        ld.global.u32 %x, in[%tid.x]", "        mul.lo.u32 %a, %tid.x, 4",
                 "        mov.u32 %r1, 0", "        mov.u32 %r2, 0", "        st.global.u32 out2[%tid.x], %x",
                 "        mov.u32 %t0, %clock"]
        lines += ["        " + m for m in mid]
        lines += ["        st.global.u32 out2[%tid.x], %r2", "        mov.u32 %t1, %clock", "        sub.u32 %t1, %t1, %t0",
                  "        add.u32 %r1, %r1, %r2", "        st.global.u32 out[%tid.x], %r1", "        setp.eq.u32 %z, %tid.x, 0",
                  "        @%z st.global.u32 cyc[0], %t1"]
        write(os.path.join(out, "warpsync"), name, lines)

    atom, shfl = "atom.global.add.u32 %r1, cnt[%a], 1", "shfl.sync.bfly.b32 %r2, %x, 1, 0x1f, 0xffffffff"
    split = ["and.b32 %m, %tid.x, 2", "setp.ne.u32 %p, %m, 0", "@%p bra skip"]
    prog("w_atom_add", [atom, "add.u32 %r2, %x, 1"])
    prog("w_atom_shfl", [atom, shfl])
    prog("w_atom_vote", [atom, "setp.ne.u32 %p, %x, 3", "vote.sync.ballot.b32 %r2, %p, 0xffffffff"])
    prog("w_atom_warpsync", [atom, "bar.warp.sync 0xffffffff", "add.u32 %r2, %x, 1"])
    prog("w_store_shfl", ["st.global.u32 cnt[%a], %x", shfl])
    prog("w_load_shfl", ["ld.global.u32 %r1, cnt[%a]", shfl])
    prog("w_none_shfl", [shfl])
    prog("w_atom_shflm", [atom, "mov.u32 %m, 0xffffffff", "shfl.sync.bfly.b32 %r2, %x, 1, 0x1f, %m"])
    prog("w_atomdiv_shfl", split + [atom, "shfl.sync.idx.b32 %r2, %x, 0, 0x1f, 0x33333333", "skip:"])
    prog("w_div_shfl", split + ["add.u32 %r1, %x, 7", "shfl.sync.idx.b32 %r2, %x, 0, 0x1f, 0x33333333", "skip:"])


def sample(sim, out, reference="crosscheck/h200-2026-11-28-runs9.json"):
    """90 random programs the GPU ran in 1,024-8,192 cycles (drawn with seed 7 from the reference), each with four
    clock points: the start, after the opening loads, before the closing stores, at the end (`cyc`, index
    ((block * 4 + point) * 8 + warp) * 32 + lane)."""
    import json
    import random
    each = [e for e in json.load(open(reference))["random"]["each"] if 1024 <= e[1] < 8192]
    random.seed(7)

    def clock(p):
        return ["        mov.u32 %ck, %clock", "        mad.lo.u32 %ci, %ctaid.y, %nctaid.x, %ctaid.x",
                f"        mad.lo.u32 %ci, %ci, 4, {p}", "        mad.lo.u32 %ci, %ci, 8, %warpid",
                "        mad.lo.u32 %ci, %ci, 32, %laneid", "        st.global.u32 cyc[%ci], %ck"]

    for index, _, _ in random.sample(each, 90):
        src = random_program(sim, index)
        if "        setp.ne.u32 %p2, %r4, %laneid" not in src or EPILOGUE not in src:
            continue
        lines, body = [], False
        for line in src:
            line = renamed(line, f"m{index}")
            if line.startswith(".pred"):
                lines += [line, ".reg %ck, %ci", ".buffer cyc u32[32768]"]
                continue
            if not body and line.startswith("        "):
                body = True
                lines += clock(0)
            if line == EPILOGUE:
                lines += clock(2)
            lines.append(line)
            if line == "        setp.ne.u32 %p2, %r4, %laneid":
                lines += clock(1)
        write(os.path.join(out, "sample"), f"m{index}", lines + clock(3))


LOOP_STEPS = 32


def store_loop(out, name, spread, stores, step=None):
    """`LOOP_STEPS` iterations, each with `stores` stores with the lanes `spread` words apart, each store on lines no
    earlier store touched (`step` words an iteration: by default just past them). `cyc[0]`: the iterations."""
    n = LOOP_STEPS
    step = step or 32 * spread * stores
    # (The loop without stores, which nvcc removes, keeps the six-store loop's buffer.)
    words = n * step + 32 * spread * (stores or 6) + 64
    lines = [f".kernel {name}", ".block 32", f".buffer C u32[{words}]", ".buffer out u32[W]", ".buffer cyc u32[1]",
             ".reg %a, %base, %i, %t0, %t1", ".pred %more, %z", "", "        mov.u32 %base, 0", "        mov.u32 %i, 0",
             "        mov.u32 %t0, %clock", "loop:", f"        mad.lo.u32 %a, %tid.x, {spread}, %base"]
    lines += [f"        st.global.u32 C[%a + {j * 32 * spread}], %i" for j in range(stores)]
    lines += [f"        add.u32 %base, %base, {step}", "        add.u32 %i, %i, 1", f"        setp.lt.u32 %more, %i, {n}",
              "        @%more bra loop", "        mov.u32 %t1, %clock", "        sub.u32 %t1, %t1, %t0",
              "        st.global.u32 out[%tid.x], %a", "        setp.eq.u32 %z, %tid.x, 0", "        @%z st.global.u32 cyc[0], %t1"]
    write(os.path.join(out, "stores"), name, lines)


def store_burst(out, name, spread, count, repeat=False, words=8192):
    """A clock, `count` stores with the lanes `spread` words apart (each to new lines, or with `repeat` to the first
    store's lines), one more one-line store, a clock (`cyc[0]`)."""
    lines = [f".kernel {name}", ".block 32", f".buffer C u32[{words}]", ".buffer D u32[64]", ".buffer out u32[W]",
             ".buffer cyc u32[1]", ".reg %a, %t0, %t1, %v", ".pred %z", "", f"        mul.lo.u32 %a, %tid.x, {spread}",
             "        mov.u32 %v, %tid.x", "        st.global.u32 out[%tid.x], %a", "        mov.u32 %t0, %clock"]
    lines += [f"        st.global.u32 C[%a + {k if repeat else k * 32 * spread}], %v" for k in range(count)]
    lines += ["        st.global.u32 D[%tid.x], %v", "        mov.u32 %t1, %clock", "        sub.u32 %t1, %t1, %t0",
              "        setp.eq.u32 %z, %tid.x, 0", "        @%z st.global.u32 cyc[0], %t1"]
    write(os.path.join(out, "stores"), name, lines)


def stores_and_atomics(out):
    """32 loop iterations, each on fresh lines: six global stores with the lanes S words apart to six distinct line
    groups (`sb_sS`; S 0: no store, a loop nvcc removes); six loads, an atomic, six stores (repeating one group of
    six lines: lanes 6 words apart, word offsets 0-5), or combinations (`aq_*`). `cyc[0]`: the 32 iterations."""
    n = LOOP_STEPS
    for s in (0, 1, 6, 32):
        store_loop(out, f"sb_s{s}", max(s, 1), 6 if s else 0, None if s else 64)

    def aq(name, loads, atomic, stores):
        step = 32 * 6 + 32 * 4
        lines = [f".kernel {name}", ".block 32", f".buffer B u32[{n * step + 512}] = i", f".buffer C u32[{n * step + 512}] = i",
                 ".buffer out u32[W]", ".buffer cyc u32[1]", ".reg %a, %b, %base, %r1, %d, %i, %t0, %t1, %s, %v0, %v1, %v2, %v3, %v4, %v5",
                 ".pred %more, %z", "", "        mov.u32 %base, 0", "        mov.u32 %i, 0", "        mov.u32 %r1, 0",
                 "        mov.u32 %s, 0", "        mov.u32 %t0, %clock", "loop:", "        mad.lo.u32 %a, %tid.x, 6, %base",
                 "        add.u32 %b, %base, 192", "        mad.lo.u32 %b, %tid.x, 4, %b"]
        if loads:
            lines += [f"        ld.global.u32 %v{k}, B[%a + {k}]" for k in range(6)]
        if stores:
            lines += [f"        st.global.u32 C[%a + {k}], %i" for k in range(6)]
        lines += (["        atom.global.add.u32 %r1, B[%b], 1", "        shr.u32 %d, %r1, 30"] if atomic
                  else ["        mov.u32 %d, 0"])
        if loads:
            lines += [f"        add.u32 %s, %s, %v{k}" for k in range(6)]
            lines += ["        shr.u32 %v0, %s, 31", "        add.u32 %d, %d, %v0"]
        lines += [f"        add.u32 %base, %base, {step}", "        add.u32 %base, %base, %d", "        add.u32 %i, %i, 1",
                  f"        setp.lt.u32 %more, %i, {n}", "        @%more bra loop", "        mov.u32 %t1, %clock",
                  "        sub.u32 %t1, %t1, %t0", "        add.u32 %s, %s, %r1", "        st.global.u32 out[%tid.x], %s",
                  "        setp.eq.u32 %z, %tid.x, 0", "        @%z st.global.u32 cyc[0], %t1"]
        write(os.path.join(out, "stores"), name, lines)

    aq("aq_atom", False, True, False)
    aq("aq_loads", True, False, False)
    aq("aq_loads_atom", True, True, False)
    aq("aq_stores_atom", False, True, True)
    aq("aq_stores", False, False, True)


def store_bursts(out):
    """Straight-line bursts of six (twelve, none) stores, to new lines or (`rep`) repeating the first's."""
    store_burst(out, "sl_s1_n0", 1, 0)
    store_burst(out, "sl_s1_n6", 1, 6)
    store_burst(out, "sl_s1_n12", 1, 12)
    for spread in (2, 4, 6, 32):
        store_burst(out, f"sl_s{spread}_new", spread, 6)
    for spread in (4, 6, 32):
        store_burst(out, f"sl_s{spread}_rep", spread, 6, repeat=True)


def store_rates(out):
    """Loops of one or six stores an iteration with the lanes S words apart, each store on new lines (`sl1_sS`,
    `sl6_sS`); straight-line bursts of K such stores (`bu_sS_kK`)."""
    for s in (1, 2, 4, 8, 16, 32):
        store_loop(out, f"sl1_s{s}", s, 1)
        store_loop(out, f"sl6_s{s}", s, 6)
    for k in (1, 2, 4, 8, 16, 32):
        store_burst(out, f"bu_s1_k{k}", 1, k, words=65536)
        store_burst(out, f"bu_s32_k{k}", 32, k, words=65536)


def store_queue(out):
    """Bursts of N stores between two clock reads, the lanes S words apart, each store 32 * S words past the one before
    (`nb_N`: S = 32, lane 0 storing to the buffer before the first clock; `nx_N`: without that store; `n1_N`, `n4_N`,
    `n8_N`: S = 1, 4, 8), and `bu_s32_k32` without its store to `out`, with only lane 0's, without its store to `D`."""
    def burst(name, spread, n, pre=True):
        step = 32 * spread
        words = n * step + 32 * spread + 64
        lines = [f".kernel {name}", ".block 32", f".buffer C u32[{words}]", ".buffer cyc u32[1]", ".reg %a, %t0, %t1",
                 ".pred %first", "", f"        mul.lo.u32 %a, %tid.x, {spread}", "        setp.eq.u32 %first, %laneid, 0"]
        if pre:
            lines.append(f"        @%first st.global.u32 C[{words - 1}], %a")
        lines.append("        mov.u32 %t0, %clock")
        lines += [f"        st.global.u32 C[%a + {k * step}], %tid.x" for k in range(n)]
        lines += ["        mov.u32 %t1, %clock", "        sub.u32 %t1, %t1, %t0", "        @%first st.global.u32 cyc[0], %t1"]
        write(os.path.join(out, "stores2"), name, lines)
    for n in (16, 24, 32, 33, 34, 36, 40, 48, 64, 96):
        burst(f"nb_{n}", 32, n)
        burst(f"nx_{n}", 32, n, pre=False)
    for n in (32, 64, 128, 256):
        burst(f"n1_{n}", 1, n)
    for n in (32, 64, 128):
        burst(f"n8_{n}", 8, n)
        burst(f"n4_{n}", 4, n)
    store_burst(out, "bu_ref", 32, 32, words=65536)
    with open(os.path.join(out, "stores", "bu_ref.s")) as f:
        ref = f.read()
    os.remove(os.path.join(out, "stores", "bu_ref.s"))
    variants = {"bu_ref": ("", ""),
                "bu_noout": ("        st.global.u32 out[%tid.x], %a\n", ""),
                "bu_nod": ("        st.global.u32 D[%tid.x], %v\n", ""),
                "bu_outlane0": ("        st.global.u32 out[%tid.x], %a\n",
                                "        setp.eq.u32 %z, %tid.x, 0\n        @%z st.global.u32 out[%tid.x], %a\n")}
    for name, (old, new) in variants.items():
        with open(os.path.join(out, "stores2", f"{name}.s"), "w") as f:
            f.write(ref.replace(old, new).replace(".kernel bu_ref", f".kernel {name}"))


def main():
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("out")
    a.add_argument("--sim", default="target/release/sim")
    args = a.parse_args()
    regions(args.sim, args.out)
    cuts_and_ablations(args.sim, args.out)
    insitu(args.sim, args.out)
    jumps(args.out)
    atomics(args.out)
    exits(args.sim, args.out)
    exit_clock(args.out)
    warp_sync(args.out)
    sample(args.sim, args.out)
    stores_and_atomics(args.out)
    store_bursts(args.out)
    store_rates(args.out)
    store_queue(args.out)


if __name__ == "__main__":
    main()
