//! Random warp programs, for differential testing against a real GPU (`sim crosscheck --random N --seed S`).
//!
//! A program is a function of `(seed, index)` alone: the same pair always gives the same text. Each one loads
//! six registers per thread from a random input buffer, runs a random body, and stores the registers and its
//! three predicates. The body mixes integer and f32 arithmetic (including NaN, infinities, subnormals and
//! integer extremes among the inputs), conversions, comparisons, predicated instructions, shuffles of every
//! mode with random widths, raw clamp/segment operands, lane operands and member masks, votes and `match`,
//! divergent `if`/`else` on lane bits or on data, and loops with a data-dependent trip count.
//!
//! It only writes programs whose result the hardware defines (PTX's rules), so that any difference from a GPU
//! is a simulator bug:
//!
//! * warp-wide operations (`shfl.sync`, `vote`, `match`) run only where the set of executing lanes is known
//!   statically (converged code, or branches on bits of `%laneid`), with the member mask equal to that set:
//!   PTX leaves a `.sync` operation undefined when a lane in the mask does not execute it, or an executing
//!   lane is not in the mask;
//! * inside a branch on lane bit `k`, shuffles use a width of at most `2^k`, and `bfly` an offset below the
//!   width, so every source lane executes the shuffle (reading a lane that does not is undefined);
//! * integer division and remainder divide by a value from 1 to 255 (division by zero is undefined);
//! * `neg.f32` and `abs.f32` never see a NaN (PTX leaves their result unspecified: an H200 flips the sign bit
//!   or returns the canonical NaN, depending on how the compiler lowers them);
//! * no lane exits early, no two lanes store to one address, and there are no atomics whose order shows, and
//!   no `activemask` (its value after a branch is not guaranteed under independent thread scheduling).

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::fmt::Write as _;

/// Data registers per thread (`%r0` … `%r5`).
pub const REGS: usize = 6;
/// Predicates per thread (`%p0` … `%p2`); their bits are stored after the registers.
pub const PREDS: usize = 3;

/// One generated program.
#[derive(Clone, Debug)]
pub struct RandomProgram {
    pub seed: u64,
    pub index: u64,
    /// The kernel name, `random_<seed>_<index>`.
    pub name: String,
    /// The program text (warpsim assembly).
    pub source: String,
}

/// The program number `index` of the batch with this `seed`.
pub fn generate(seed: u64, index: u64) -> RandomProgram {
    // SplitMix64 of (seed, index): independent streams for neighbouring indices.
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let mut g = Gen {
        rng: Pcg64Mcg::seed_from_u64(z),
        body: String::new(),
        labels: 0,
    };
    let name = format!("random_{seed}_{index}");
    let grid = if g.rng.random_bool(0.2) { 2 } else { 1 };
    let block = if g.rng.random_bool(0.25) { 64 } else { 32 };
    let threads = grid * block;
    let inputs: Vec<String> = (0..threads * REGS).map(|_| g.input().to_string()).collect();

    let mut s = String::new();
    let _ = writeln!(s, ".kernel {name}");
    let _ = writeln!(
        s,
        ".desc \"random program {index} of seed {seed} (sim crosscheck --random)\""
    );
    s.push_str(".warp_sizes 32\n");
    let _ = writeln!(s, ".grid {grid}\n.block {block}");
    let _ = writeln!(
        s,
        ".buffer in u32[{}] = 0, [0..] = [{}]",
        threads * REGS,
        inputs.join(", ")
    );
    let _ = writeln!(s, ".buffer out u32[{}]", threads * (REGS + 1));
    let _ = writeln!(s, ".reg %r<{REGS}>, %gid, %base, %t0, %t1, %t2");
    let _ = writeln!(s, ".pred %p<{PREDS}>, %q\n");
    s.push_str("        mad.lo.u32      %gid, %ctaid.x, %ntid.x, %tid.x\n");
    let _ = writeln!(s, "        mul.lo.u32      %base, %gid, {REGS}");
    for r in 0..REGS {
        let _ = writeln!(s, "        ld.global.u32   %r{r}, in[%base + {r}]");
    }
    s.push_str("        setp.lt.s32     %p0, %r0, %r1\n");
    s.push_str("        setp.gt.f32     %p1, %r2, %r3\n");
    s.push_str("        setp.ne.u32     %p2, %r4, %laneid\n");
    let n = g.rng.random_range(8..=32);
    g.block(
        Region {
            active: Some(u32::MAX),
            width: 32,
            depth: 0,
            in_loop: false,
        },
        n,
    );
    s.push_str(&g.body);
    let _ = writeln!(s, "        mul.lo.u32      %base, %gid, {}", REGS + 1);
    for r in 0..REGS {
        let _ = writeln!(s, "        st.global.u32   out[%base + {r}], %r{r}");
    }
    s.push_str("        selp.u32        %t0, 1, 0, %p0\n");
    s.push_str("        selp.u32        %t1, 2, 0, %p1\n");
    s.push_str("        or.b32          %t0, %t0, %t1\n");
    s.push_str("        selp.u32        %t1, 4, 0, %p2\n");
    s.push_str("        or.b32          %t0, %t0, %t1\n");
    let _ = writeln!(s, "        st.global.u32   out[%base + {REGS}], %t0");
    RandomProgram {
        seed,
        index,
        name,
        source: s,
    }
}

/// Where the generator is: which lanes execute, if known.
#[derive(Clone, Copy)]
struct Region {
    /// The executing lanes of each warp, when they are known statically.
    active: Option<u32>,
    /// The widest shuffle segment that is either wholly executing or wholly not.
    width: u32,
    depth: u32,
    /// Inside a loop (its counter `%t2` must be left alone).
    in_loop: bool,
}

struct Gen {
    rng: Pcg64Mcg,
    body: String,
    labels: u32,
}

const FLOAT_SPECIALS: [u32; 12] = [
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fff_ffff,
    0xff80_0001,
    0x0000_0001,
    0x807f_ffff,
    0x0080_0000,
    0x7f7f_ffff,
    0x3f80_0000,
];
const INT_SPECIALS: [u32; 9] = [0, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 31, 32, 33, 0xffff_ffe1];
const FLOAT_IMMS: [&str; 10] = [
    "0.5", "-1.25", "3.0", "1e-3", "0.0", "-0.0", "100.0", "1e30", "1e-40", "-7.0",
];

impl Gen {
    fn input(&mut self) -> u32 {
        match self.rng.random_range(0..10) {
            0..=2 => self.rng.random_range(-8i32..=40) as u32,
            3..=4 => self.rng.random(),
            5..=6 => (self.rng.random_range(-100.0f32..100.0)).to_bits(),
            7 => (self.rng.random_range(-20i32..=20) as f32).to_bits(),
            8 => FLOAT_SPECIALS[self.rng.random_range(0..FLOAT_SPECIALS.len())],
            _ => INT_SPECIALS[self.rng.random_range(0..INT_SPECIALS.len())],
        }
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.body, "        {text}");
    }

    fn label(&mut self, name: &str) {
        let _ = writeln!(self.body, "{name}:");
    }

    fn fresh(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("{what}_{}", self.labels)
    }

    fn reg(&mut self) -> String {
        format!("%r{}", self.rng.random_range(0..REGS))
    }

    fn pred(&mut self) -> String {
        format!("%p{}", self.rng.random_range(0..PREDS))
    }

    fn int_src(&mut self, signed: bool) -> String {
        match self.rng.random_range(0..20) {
            0..=14 => self.reg(),
            15..=16 => {
                if signed {
                    self.rng.random_range(-100i32..=100).to_string()
                } else {
                    self.rng.random_range(0u32..=100).to_string()
                }
            }
            17 => format!("0x{:x}", self.rng.random::<u32>()),
            18 => "%laneid".into(),
            _ => "%tid.x".into(),
        }
    }

    fn f32_src(&mut self) -> String {
        if self.rng.random_bool(0.8) {
            self.reg()
        } else {
            FLOAT_IMMS[self.rng.random_range(0..FLOAT_IMMS.len())].to_string()
        }
    }

    fn guard(&mut self) -> String {
        if self.rng.random_bool(0.2) {
            let neg = if self.rng.random_bool(0.5) { "!" } else { "" };
            format!("@{neg}{} ", self.pred())
        } else {
            String::new()
        }
    }

    fn block(&mut self, region: Region, n: u32) {
        for _ in 0..n {
            self.statement(region);
        }
    }

    fn statement(&mut self, region: Region) {
        let warp_ops = region.active.is_some_and(|a| a != 0);
        let nest = region.depth < 2;
        loop {
            match self.rng.random_range(0..100) {
                0..=21 => return self.int_op(),
                22..=43 => return self.f32_op(),
                44..=51 => return self.cvt(),
                52..=61 => return self.compare(),
                62..=77 if warp_ops => return self.shuffle(region),
                78..=85 if warp_ops => return self.vote(region),
                86..=94 if nest => return self.branch(region),
                95..=99 if nest && !region.in_loop => return self.looped(region),
                _ => {}
            }
        }
    }

    fn int_op(&mut self) {
        let g = self.guard();
        let d = self.reg();
        match self.rng.random_range(0..20) {
            0..=12 => {
                const OPS: [(&str, bool); 13] = [
                    ("add.u32", false),
                    ("sub.u32", false),
                    ("mul.lo.u32", false),
                    ("min.s32", true),
                    ("max.s32", true),
                    ("min.u32", false),
                    ("max.u32", false),
                    ("and.b32", false),
                    ("or.b32", false),
                    ("xor.b32", false),
                    ("shl.b32", false),
                    ("shr.u32", false),
                    ("shr.s32", false),
                ];
                let (op, signed) = OPS[self.rng.random_range(0..OPS.len())];
                let (a, b) = (self.int_src(signed), self.int_src(signed));
                self.line(&format!("{g}{op:<15} {d}, {a}, {b}"));
            }
            13 => {
                let (a, b, c) = (self.int_src(false), self.int_src(false), self.int_src(false));
                self.line(&format!("{g}mad.lo.u32      {d}, {a}, {b}, {c}"));
            }
            14..=16 => {
                const OPS: [&str; 3] = ["neg.s32", "abs.s32", "not.b32"];
                let op = OPS[self.rng.random_range(0..OPS.len())];
                let a = self.int_src(true);
                self.line(&format!("{g}{op:<15} {d}, {a}"));
            }
            _ => {
                // A divisor from 1 to 255: integer division by zero is undefined on hardware.
                let b = self.reg();
                self.line(&format!("and.b32         %t0, {b}, 255"));
                self.line("or.b32          %t0, %t0, 1");
                const OPS: [&str; 4] = ["div.u32", "div.s32", "rem.u32", "rem.s32"];
                let op = OPS[self.rng.random_range(0..OPS.len())];
                let a = self.int_src(op.ends_with("s32"));
                self.line(&format!("{g}{op:<15} {d}, {a}, %t0"));
            }
        }
    }

    fn f32_op(&mut self) {
        let g = self.guard();
        let d = self.reg();
        match self.rng.random_range(0..10) {
            0..=6 => {
                const OPS: [&str; 6] = ["add.f32", "sub.f32", "mul.f32", "div.rn.f32", "min.f32", "max.f32"];
                let op = OPS[self.rng.random_range(0..OPS.len())];
                let (a, mut b) = (self.f32_src(), self.f32_src());
                // PTX's min/max of two NaNs is the canonical NaN, but ptxas turns `max(x, y)` into `x` when it
                // can prove y == x, keeping x's payload: keep the second operand a number.
                if matches!(op, "min.f32" | "max.f32") && b.starts_with('%') {
                    self.line(&format!("max.f32         %t0, {b}, -3e38"));
                    b = "%t0".into();
                }
                self.line(&format!("{g}{op:<15} {d}, {a}, {b}"));
            }
            7 => {
                let (a, b, c) = (self.f32_src(), self.f32_src(), self.f32_src());
                self.line(&format!("{g}fma.rn.f32      {d}, {a}, {b}, {c}"));
            }
            _ => {
                // PTX leaves neg/abs of a NaN unspecified: max with -3e38 turns a NaN into a number first.
                let op = if self.rng.random_bool(0.5) {
                    "neg.f32"
                } else {
                    "abs.f32"
                };
                let a = self.f32_src();
                self.line(&format!("max.f32         %t0, {a}, -3e38"));
                self.line(&format!("{g}{op:<15} {d}, %t0"));
            }
        }
    }

    fn cvt(&mut self) {
        let g = self.guard();
        let d = self.reg();
        let a = self.reg();
        const ROUND: [&str; 4] = ["rni", "rzi", "rmi", "rpi"];
        let r = ROUND[self.rng.random_range(0..4)];
        let op = match self.rng.random_range(0..6) {
            0 => format!("cvt.{r}.s32.f32"),
            1 => format!("cvt.{r}.u32.f32"),
            2 => "cvt.rn.f32.s32".into(),
            3 => "cvt.rn.f32.u32".into(),
            _ => format!("cvt.{r}.f32.f32"),
        };
        self.line(&format!("{g}{op:<15} {d}, {a}"));
    }

    fn compare(&mut self) {
        let p = self.pred();
        match self.rng.random_range(0..10) {
            0..=5 => {
                const CMP: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];
                const TY: [&str; 3] = ["s32", "u32", "f32"];
                let c = CMP[self.rng.random_range(0..6)];
                let t = TY[self.rng.random_range(0..3)];
                let (a, b) = if t == "f32" {
                    (self.f32_src(), self.f32_src())
                } else {
                    (self.int_src(t == "s32"), self.int_src(t == "s32"))
                };
                let g = self.guard();
                self.line(&format!("{g}setp.{c}.{t:<7} {p}, {a}, {b}"));
            }
            6..=7 => {
                let (d, a, b) = (self.reg(), self.int_src(false), self.int_src(false));
                let g = self.guard();
                self.line(&format!("{g}selp.u32        {d}, {a}, {b}, {p}"));
            }
            _ => {
                const OPS: [&str; 4] = ["and.pred", "or.pred", "xor.pred", "not.pred"];
                let op = OPS[self.rng.random_range(0..4)];
                let a = self.pred();
                let na = if self.rng.random_bool(0.3) { "!" } else { "" };
                if op == "not.pred" {
                    self.line(&format!("{op:<15} {p}, {a}"));
                } else {
                    let b = self.pred();
                    self.line(&format!("{op:<15} {p}, {na}{a}, {b}"));
                }
            }
        }
    }

    fn shuffle(&mut self, region: Region) {
        let active = region.active.expect("warp operations only where the lanes are known");
        const MODES: [&str; 4] = ["idx", "up", "down", "bfly"];
        let mode = MODES[self.rng.random_range(0..4)];
        let d = self.reg();
        let a = if self.rng.random_bool(0.1) {
            "%laneid".to_string()
        } else {
            self.reg()
        };
        let out = if self.rng.random_bool(0.4) {
            format!("{d}|{}", self.pred())
        } else {
            d
        };
        let converged = active == u32::MAX;
        let shapes = if converged { 3 } else { 1 };
        match self.rng.random_range(0..shapes) {
            // Converged code: the whole warp, or a raw clamp/segment operand.
            1 => {
                let b = self.shfl_lane(32, mode, true);
                self.line(&format!("shfl.sync.{mode}.b32 {out}, {a}, {b}"));
            }
            2 => {
                let c = self.rng.random::<u32>() & 0x1f1f;
                let b = self.shfl_lane(32, mode, true);
                self.line(&format!("shfl.sync.{mode}.b32 {out}, {a}, {b}, 0x{c:x}, 0xffffffff"));
            }
            _ => {
                let max_log = region.width.trailing_zeros();
                let width = 1u32 << self.rng.random_range(0..=max_log);
                let b = self.shfl_lane(width, mode, converged);
                self.line(&format!(
                    "shfl.sync.{mode}.b32 {out}, {a}, {b}, width={width}, mask=0x{active:08x}"
                ));
            }
        }
    }

    /// A shuffle's lane operand: in converged code anything (PTX takes it modulo 32); in a branch, a `bfly`
    /// offset below the width, so that the partner lane executes too.
    fn shfl_lane(&mut self, width: u32, mode: &str, converged: bool) -> String {
        if !converged && mode == "bfly" {
            if self.rng.random_bool(0.5) {
                return self.rng.random_range(0..width).to_string();
            }
            let r = self.reg();
            self.line(&format!("and.b32         %t0, {r}, {}", width - 1));
            return "%t0".into();
        }
        match self.rng.random_range(0..4) {
            0 | 1 => self.rng.random_range(0..=40u32).to_string(),
            2 => self.reg(),
            _ => "%laneid".into(),
        }
    }

    fn vote(&mut self, region: Region) {
        let mask = region.active.expect("warp operations only where the lanes are known");
        let q = self.pred();
        let nq = if self.rng.random_bool(0.3) { "!" } else { "" };
        match self.rng.random_range(0..6) {
            0 => {
                let d = self.reg();
                self.line(&format!("vote.sync.ballot.b32 {d}, {nq}{q}, 0x{mask:08x}"));
            }
            1..=3 => {
                const MODES: [&str; 3] = ["all", "any", "uni"];
                let m = MODES[self.rng.random_range(0..3)];
                let p = self.pred();
                self.line(&format!("vote.sync.{m}.pred  {p}, {nq}{q}, 0x{mask:08x}"));
            }
            _ => {
                // A few distinct values, so that lanes match.
                let r = self.reg();
                let bits = self.rng.random_range(0..3);
                self.line(&format!("and.b32         %t0, {r}, {}", (1 << bits) - 1));
                let d = self.reg();
                if self.rng.random_bool(0.5) {
                    self.line(&format!("match.sync.any.b32 {d}, %t0, 0x{mask:08x}"));
                } else {
                    let p = self.pred();
                    self.line(&format!("match.sync.all.b32 {d}|{p}, %t0, 0x{mask:08x}"));
                }
            }
        }
    }

    /// `if`/`else` on a bit of `%laneid` (both sides' lanes known) or on data.
    fn branch(&mut self, region: Region) {
        let else_label = self.fresh("else");
        let end_label = self.fresh("endif");
        let inner = Region {
            depth: region.depth + 1,
            ..region
        };
        let (then_region, else_region) = match region.active {
            Some(active) if self.rng.random_bool(0.6) => {
                let k = self.rng.random_range(0..5);
                let bit = 1u32 << k;
                let set: u32 = (0..32).filter(|l| l & bit != 0).map(|l| 1u32 << l).sum();
                self.line(&format!("and.b32         %t1, %laneid, {bit}"));
                self.line("setp.ne.u32     %q, %t1, 0");
                let width = region.width.min(bit);
                (
                    Region {
                        active: Some(active & !set),
                        width,
                        ..inner
                    },
                    Region {
                        active: Some(active & set),
                        width,
                        ..inner
                    },
                )
            }
            _ => {
                const CMP: [&str; 4] = ["lt", "ge", "eq", "ne"];
                let c = CMP[self.rng.random_range(0..4)];
                let (a, b) = (self.reg(), self.int_src(true));
                self.line(&format!("setp.{c}.s32     %q, {a}, {b}"));
                let unknown = Region { active: None, ..inner };
                (unknown, unknown)
            }
        };
        let with_else = self.rng.random_bool(0.6);
        self.line(&format!(
            "@%q bra         {}",
            if with_else { &else_label } else { &end_label }
        ));
        let n = self.rng.random_range(1..=5);
        self.block(then_region, n);
        if with_else {
            self.line(&format!("bra             {end_label}"));
            self.label(&else_label);
            let n = self.rng.random_range(1..=5);
            self.block(else_region, n);
        }
        self.label(&end_label);
    }

    /// A loop whose trip count (0 to 3) differs from lane to lane.
    fn looped(&mut self, region: Region) {
        let top = self.fresh("loop");
        let end = self.fresh("endloop");
        let r = self.reg();
        self.line(&format!("and.b32         %t2, {r}, 3"));
        self.label(&top);
        self.line("setp.eq.u32     %q, %t2, 0");
        self.line(&format!("@%q bra         {end}"));
        let n = self.rng.random_range(1..=4);
        self.block(
            Region {
                active: None,
                width: region.width,
                depth: region.depth + 1,
                in_loop: true,
            },
            n,
        );
        self.line("sub.u32         %t2, %t2, 1");
        self.line(&format!("bra             {top}"));
        self.label(&end);
    }
}
