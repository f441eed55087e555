//! ISA → CUDA C: a kernel that does what a warpsim program does, instruction by instruction.
//!
//! The translation works on the instantiated [`Kernel`] (warp size 32, parameters and `W` substituted), so every
//! immediate is a concrete number. Registers become `unsigned` locals (`%v` → `r_v`) that hold the same 32 bits
//! as in warpsim; typed instructions view them through `F()` (as f32), `S()` (as s32) or directly (u32).
//! Predicates become `bool`s (`%p` → `p_p`), global buffers `unsigned *` parameters (`g_in`), shared arrays
//! `__shared__ unsigned` arrays (`s_partial`), labels C labels and branches `goto`. Shuffles, shifts and the
//! cycle clock go through one-line inline-PTX helpers, so their lane operand, packed clamp/segment operand,
//! member mask and out-of-range rules are PTX's own, not a C approximation. Each statement carries the
//! instruction it came from as a comment.
//!
//! The kernel takes one extra parameter, `warpsim_clocks`: two `unsigned long long` per block, the block's
//! earliest start and latest exit `clock64()`, from which `sim crosscheck` reports the GPU's cycles.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Write as _;
use warpsim::kernel::{Atom, Bin, CmpClass, Conv, DAddr, DBar, DOp, Kernel, Member, Src, Tern, Un, Wide};
use warpsim_isa::ast::{
    ApproxOp, Cmp, ElemTy, PredLogicOp, RoundedOp, Rounding, ShflMode, Special, Ty, VoteMode, Width,
};

/// The C type of an array of `elem`: 32-bit words, or 64-bit ones for a 64-bit element.
fn ctype(elem: ElemTy) -> &'static str {
    if elem.words() == 2 {
        "unsigned long long"
    } else {
        "unsigned"
    }
}

/// CUDA runs warps of 32 lanes: the only warp size a program can be translated at.
pub const CUDA_WARP: u32 = 32;

/// Helpers a kernel uses; the prelude defines just those.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "a set of independent flags, one per helper"
)]
pub struct Helpers {
    shifts: bool,
    clock: bool,
    shfl: bool,
    atomic_f32_minmax: bool,
    f32_ptx: bool,
    warp_ops: bool,
    int_ptx: bool,
    round_ptx: bool,
}

impl Helpers {
    #[must_use]
    pub fn union(self, o: Helpers) -> Helpers {
        Helpers {
            shifts: self.shifts | o.shifts,
            clock: self.clock | o.clock,
            shfl: self.shfl | o.shfl,
            atomic_f32_minmax: self.atomic_f32_minmax | o.atomic_f32_minmax,
            f32_ptx: self.f32_ptx | o.f32_ptx,
            warp_ops: self.warp_ops | o.warp_ops,
            int_ptx: self.int_ptx | o.int_ptx,
            round_ptx: self.round_ptx | o.round_ptx,
        }
    }
}

/// One translated kernel.
#[derive(Clone, Debug)]
pub struct CudaKernel {
    /// The `extern "C"` function name.
    pub name: String,
    /// The `__global__` function (without the prelude).
    pub body: String,
    pub helpers: Helpers,
    /// Bytes of dynamic shared memory to launch with.
    pub dynamic_shared_bytes: u32,
    /// Buffers (by index into [`Kernel::buffers`]) whose contents depend on the cycle clock: the GPU's values
    /// are cycles, reported, not compared.
    pub clock_buffers: Vec<bool>,
}

/// Why a program cannot be translated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmitError(pub String);

/// The definitions every translated kernel relies on, then the helpers `h` names.
pub fn prelude(h: Helpers) -> String {
    let mut s = String::from(
        "// Registers are untyped 32-bit values, as in warpsim: these view their bits as f32 and s32.\n\
         #define F(x) __uint_as_float(x)\n\
         #define U(x) __float_as_uint(x)\n\
         #define S(x) ((int)(x))\n\
         \n\
         // The cycle comparison's clock: clock64() that no load or store is moved across (a memory clobber).\n\
         __device__ __forceinline__ long long warpsim_clock() { long long t; asm volatile(\"mov.u64 %0, %%clock64;\" : \"=l\"(t) :: \"memory\"); return t; }\n\
         \n\
         // A thread's exit: its block's first start and last exit cycle (`at[0]`, `at[1]`), for the cycle comparison,\n\
         // written by the lowest of the lanes here (they read the clock together), not by every thread: a block's\n\
         // threads all updating one word queue their atomics at one L2 slice and delay its warps still running.\n\
         __device__ __forceinline__ void warpsim_record(unsigned long long *at, long long start) {\n\
         \x20   const long long end = warpsim_clock();\n\
         \x20   const unsigned active = __activemask();\n\
         \x20   unsigned lower; asm(\"mov.u32 %0, %%lanemask_lt;\" : \"=r\"(lower));\n\
         \x20   if ((active & lower) == 0) {\n\
         \x20       atomicMin(&at[0], (unsigned long long)start);\n\
         \x20       atomicMax(&at[1], (unsigned long long)end);\n\
         \x20   }\n\
         }\n",
    );
    if h.f32_ptx {
        s.push_str(
            "\n// f32 arithmetic as PTX instructions: the compiler may not simplify them (x - 0.0 into x, min(x, x)\n\
             // into x), which would change NaN bits; the hardware returns the canonical NaN 0x7fffffff.\n\
             #define WARPSIM_F32(name, ptx)                                                                     \\\n\
             \x20   __device__ __forceinline__ unsigned name(unsigned a, unsigned b) {                              \\\n\
             \x20       unsigned d; asm(ptx \" %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b)); return d;                 \\\n\
             \x20   }\n\
             WARPSIM_F32(add_f32, \"add.rn.f32\")\n\
             WARPSIM_F32(sub_f32, \"sub.rn.f32\")\n\
             WARPSIM_F32(mul_f32, \"mul.rn.f32\")\n\
             WARPSIM_F32(div_f32, \"div.rn.f32\")\n\
             WARPSIM_F32(min_f32, \"min.f32\")\n\
             WARPSIM_F32(max_f32, \"max.f32\")\n\
             __device__ __forceinline__ unsigned fma_f32(unsigned a, unsigned b, unsigned c) {\n\
             \x20   unsigned d; asm(\"fma.rn.f32 %0, %1, %2, %3;\" : \"=r\"(d) : \"r\"(a), \"r\"(b), \"r\"(c)); return d;\n\
             }\n",
        );
    }
    if h.shifts {
        s.push_str(
            "\n// PTX shifts: an amount above 31 shifts everything out (C leaves it undefined).\n\
             __device__ __forceinline__ unsigned shl_b32(unsigned a, unsigned b) { unsigned d; asm(\"shl.b32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b)); return d; }\n\
             __device__ __forceinline__ unsigned shr_u32(unsigned a, unsigned b) { unsigned d; asm(\"shr.u32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b)); return d; }\n\
             __device__ __forceinline__ unsigned shr_s32(unsigned a, unsigned b) { unsigned d; asm(\"shr.s32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b)); return d; }\n",
        );
    }
    if h.int_ptx {
        s.push_str(
            "\n// Integer instructions whose edges C leaves undefined, as PTX: abs.s32 of INT_MIN, INT_MIN / -1 and\n\
             // INT_MIN % -1, division by zero. Written in C, the compiler may assume they never happen. Even as\n\
             // PTX, ptxas takes abs.s32's result as never negative (it converted abs(INT_MIN) = INT_MIN to f32 as\n\
             // +2^31's signed twin): each use XORs the result with warpsim_zero, a 0 it cannot see through.\n\
             __device__ __forceinline__ unsigned abs_s32(unsigned a) { unsigned d; asm(\"abs.s32 %0, %1;\" : \"=r\"(d) : \"r\"(a)); return d; }\n\
             #define WARPSIM_I32(name, ptx)                                                                     \\\n\
             \x20   __device__ __forceinline__ unsigned name(unsigned a, unsigned b) {                              \\\n\
             \x20       unsigned d; asm(ptx \" %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(b)); return d;                 \\\n\
             \x20   }\n\
             WARPSIM_I32(div_s32, \"div.s32\")\n\
             WARPSIM_I32(rem_s32, \"rem.s32\")\n\
             WARPSIM_I32(div_u32, \"div.u32\")\n\
             WARPSIM_I32(rem_u32, \"rem.u32\")\n",
        );
    }
    if h.round_ptx {
        s.push_str(
            "\n// cvt.RND.f32.f32 as PTX (a NaN comes out as the canonical NaN, whatever C's rintf would do).\n\
             #define WARPSIM_ROUND(name, ptx)                                                                   \\\n\
             \x20   __device__ __forceinline__ unsigned name(unsigned a) {                                          \\\n\
             \x20       unsigned d; asm(ptx \" %0, %1;\" : \"=r\"(d) : \"r\"(a)); return d;                              \\\n\
             \x20   }\n\
             WARPSIM_ROUND(cvt_rni_f32, \"cvt.rni.f32.f32\")\n\
             WARPSIM_ROUND(cvt_rzi_f32, \"cvt.rzi.f32.f32\")\n\
             WARPSIM_ROUND(cvt_rmi_f32, \"cvt.rmi.f32.f32\")\n\
             WARPSIM_ROUND(cvt_rpi_f32, \"cvt.rpi.f32.f32\")\n",
        );
    }
    if h.clock {
        s.push_str(
            "\n// %clock: the SM's cycle counter, low 32 bits.\n\
             __device__ __forceinline__ unsigned clock32() { unsigned d; asm volatile(\"mov.u32 %0, %%clock;\" : \"=r\"(d)); return d; }\n",
        );
    }
    if h.shfl {
        s.push_str(
            "\n// shfl.sync.MODE.b32 d, a, b, c, membermask: exactly PTX's instruction (c = segment mask << 8 | clamp);\n\
             // the _p form also returns PTX's predicate: whether the source lane was in range.\n\
             #define WARPSIM_SHFL(mode)                                                                                 \\\n\
             \x20   __device__ __forceinline__ unsigned shfl_##mode(unsigned a, unsigned b, unsigned c, unsigned mask) {    \\\n\
             \x20       unsigned d;                                                                                     \\\n\
             \x20       asm volatile(\"shfl.sync.\" #mode \".b32 %0, %1, %2, %3, %4;\" : \"=r\"(d) : \"r\"(a), \"r\"(b), \"r\"(c), \"r\"(mask)); \\\n\
             \x20       return d;                                                                                       \\\n\
             \x20   }                                                                                                   \\\n\
             \x20   __device__ __forceinline__ unsigned shfl_##mode##_p(unsigned a, unsigned b, unsigned c, unsigned mask, \\\n\
             \x20                                                       bool *in_range) {                               \\\n\
             \x20       unsigned d, p;                                                                                  \\\n\
             \x20       asm volatile(\"{ .reg .pred q; shfl.sync.\" #mode \".b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }\"    \\\n\
             \x20                    : \"=r\"(d), \"=r\"(p) : \"r\"(a), \"r\"(b), \"r\"(c), \"r\"(mask));                        \\\n\
             \x20       *in_range = p;                                                                                  \\\n\
             \x20       return d;                                                                                       \\\n\
             \x20   }\n\
             WARPSIM_SHFL(idx)\n\
             WARPSIM_SHFL(up)\n\
             WARPSIM_SHFL(down)\n\
             WARPSIM_SHFL(bfly)\n",
        );
    }
    if h.warp_ops {
        s.push_str(
            "\n// vote.sync and match.sync as PTX, with their results in 32-bit registers. (With CUDA's __any_sync and a\n\
             // bool, ptxas 13 may recompute the vote where its result is used, inside later divergent code that\n\
             // not every lane of the mask reaches: a deadlock, seen on sm_90.)\n\
             #define WARPSIM_VOTE(mode)                                                                                \\\n\
             \x20   __device__ __forceinline__ bool vote_##mode(unsigned mask, bool p) {                                   \\\n\
             \x20       unsigned d;                                                                                    \\\n\
             \x20       asm volatile(\"{ .reg .pred q, r; setp.ne.u32 q, %1, 0; vote.sync.\" #mode \".pred r, q, %2; selp.u32 %0, 1, 0, r; }\" \\\n\
             \x20                    : \"=r\"(d) : \"r\"((unsigned)p), \"r\"(mask));                                             \\\n\
             \x20       return d;                                                                                      \\\n\
             \x20   }\n\
             WARPSIM_VOTE(all)\n\
             WARPSIM_VOTE(any)\n\
             WARPSIM_VOTE(uni)\n\
             __device__ __forceinline__ unsigned vote_ballot(unsigned mask, bool p) {\n\
             \x20   unsigned d; asm volatile(\"{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, %2; }\" : \"=r\"(d) : \"r\"((unsigned)p), \"r\"(mask)); return d;\n\
             }\n\
             __device__ __forceinline__ unsigned match_any(unsigned mask, unsigned a) {\n\
             \x20   unsigned d; asm volatile(\"match.sync.any.b32 %0, %1, %2;\" : \"=r\"(d) : \"r\"(a), \"r\"(mask)); return d;\n\
             }\n\
             __device__ __forceinline__ unsigned match_all(unsigned mask, unsigned a, bool *all) {\n\
             \x20   unsigned d, p; asm volatile(\"{ .reg .pred q; match.sync.all.b32 %0|q, %2, %3; selp.u32 %1, 1, 0, q; }\" : \"=r\"(d), \"=r\"(p) : \"r\"(a), \"r\"(mask));\n\
             \x20   *all = p; return d;\n\
             }\n",
        );
    }
    if h.atomic_f32_minmax {
        s.push_str(
            "\n// atom.min/max.f32 (min.f32/max.f32 rules), as a compare-and-swap loop.\n\
             __device__ unsigned atomic_min_f32(unsigned *p, unsigned v) {\n\
             \x20   unsigned old = *p, seen;\n\
             \x20   do { seen = old; old = atomicCAS(p, seen, min_f32(seen, v)); } while (old != seen);\n\
             \x20   return old;\n\
             }\n\
             __device__ unsigned atomic_max_f32(unsigned *p, unsigned v) {\n\
             \x20   unsigned old = *p, seen;\n\
             \x20   do { seen = old; old = atomicCAS(p, seen, max_f32(seen, v)); } while (old != seen);\n\
             \x20   return old;\n\
             }\n",
        );
    }
    s
}

/// The CUDA function name for a program: its name, as a C identifier.
pub fn kernel_name(program: &str) -> String {
    let s = ident("", program);
    if s.starts_with(|c: char| c.is_ascii_digit()) || s.is_empty() {
        format!("k_{s}")
    } else {
        s
    }
}

/// A C identifier from a warpsim name (`$` and `.` are not allowed in C).
fn ident(prefix: &str, name: &str) -> String {
    let mut s = String::from(prefix);
    for c in name.chars() {
        s.push(if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' });
    }
    s
}

fn special(sp: Special) -> &'static str {
    match sp {
        Special::LaneId => "laneid",
        Special::TidX => "tid_x",
        Special::TidY => "tid_y",
        Special::TidZ => "tid_z",
        Special::NtidX => "ntid_x",
        Special::NtidY => "ntid_y",
        Special::NtidZ => "ntid_z",
        Special::CtaidX => "ctaid_x",
        Special::CtaidY => "ctaid_y",
        Special::CtaidZ => "ctaid_z",
        Special::NctaidX => "nctaid_x",
        Special::NctaidY => "nctaid_y",
        Special::NctaidZ => "nctaid_z",
        Special::WarpId => "warpid",
        Special::NWarpId => "nwarpid",
        Special::WarpSize => "warpsize",
        Special::Clock => "clock32()",
        Special::LanemaskEq => "lanemask_eq",
        Special::LanemaskLt => "lanemask_lt",
        Special::LanemaskLe => "lanemask_le",
        Special::LanemaskGt => "lanemask_gt",
        Special::LanemaskGe => "lanemask_ge",
        // (GNU statement expressions, which nvcc accepts: no helper needed.)
        Special::SmId => "({ unsigned d; asm volatile(\"mov.u32 %0, %%smid;\" : \"=r\"(d)); d; })",
        Special::NSmId => "({ unsigned d; asm(\"mov.u32 %0, %%nsmid;\" : \"=r\"(d)); d; })",
        Special::Clock64 => "({ unsigned long long d; asm volatile(\"mov.u64 %0, %%clock64;\" : \"=l\"(d)); d; })",
        Special::DynamicSmemSize => "({ unsigned d; asm(\"mov.u32 %0, %%dynamic_smem_size;\" : \"=r\"(d)); d; })",
        Special::TotalSmemSize => "({ unsigned d; asm(\"mov.u32 %0, %%total_smem_size;\" : \"=r\"(d)); d; })",
    }
}

/// How an instruction reads an operand's bits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum View {
    U32,
    S32,
    F32,
}

/// An f32 constant as C: the shortest decimal that reads back to the same bits, or the bits themselves.
fn f32_literal(bits: u32) -> String {
    let x = f32::from_bits(bits);
    if !x.is_finite() {
        return format!("F(0x{bits:08x}u)");
    }
    let s = format!("{x:?}");
    let lit = if s.contains(['.', 'e', 'E']) {
        format!("{s}f")
    } else {
        format!("{s}.0f")
    };
    if x.is_sign_negative() { format!("({lit})") } else { lit }
}

fn u32_literal(bits: u32) -> String {
    if bits < 1 << 16 {
        format!("{bits}u")
    } else {
        format!("0x{bits:08x}u")
    }
}

fn s32_literal(bits: u32) -> String {
    let v = bits.cast_signed();
    if v == i32::MIN {
        "(-2147483647 - 1)".into()
    } else if v < 0 {
        format!("({v})")
    } else {
        v.to_string()
    }
}

struct Emitter<'k> {
    k: &'k Kernel,
    helpers: Helpers,
    specials: BTreeSet<&'static str>,
    labels: Vec<Vec<String>>,
}

impl Emitter<'_> {
    fn reg(&self, r: u16) -> String {
        ident("r_", &self.k.program.regs[r as usize].name)
    }

    fn pred(&self, p: u16) -> String {
        ident("p_", &self.k.program.preds[p as usize].name)
    }

    fn pred_operand(&self, (p, neg): (u16, bool)) -> String {
        format!("{}{}", if neg { "!" } else { "" }, self.pred(p))
    }

    fn src(&mut self, s: Src, view: View) -> String {
        match s {
            Src::Reg(r) => {
                let r = self.reg(r);
                match view {
                    View::U32 => r,
                    View::S32 => format!("S({r})"),
                    View::F32 => format!("F({r})"),
                }
            }
            Src::Imm(bits) => match view {
                View::U32 => u32_literal(bits),
                View::S32 => s32_literal(bits),
                View::F32 => f32_literal(bits),
            },
            // 64-bit operands are always read as their bits.
            Src::Const(k) => format!("0x{:016x}ull", self.k.consts[k as usize]),
            Src::Special(sp) => {
                if sp == Special::Clock {
                    self.helpers.clock = true;
                } else {
                    self.specials.insert(special(sp));
                }
                let name = special(sp).to_string();
                match view {
                    View::U32 => name,
                    View::S32 => format!("S({name})"),
                    View::F32 => format!("F({name})"),
                }
            }
        }
    }

    /// An operand's 32 bits; an immediate is written in the instruction's type (`U(1.5f)`, `(unsigned)(-2)`).
    fn bits(&mut self, s: Src, ty: warpsim_isa::Ty) -> String {
        match (s, ty) {
            (Src::Imm(_), warpsim_isa::Ty::F32) => format!("U({})", self.src(s, View::F32)),
            (Src::Imm(b), warpsim_isa::Ty::S32) if b.cast_signed() < 0 => {
                format!("(unsigned){}", self.src(s, View::S32))
            }
            _ => self.src(s, View::U32),
        }
    }

    /// The element an address names, as a C lvalue.
    fn place(&mut self, a: DAddr) -> String {
        let name = if a.shared {
            ident("s_", &self.k.shared[a.buffer as usize].name)
        } else {
            ident("g_", &self.k.buffers[a.buffer as usize].name)
        };
        let base = a.base.map(|b| match b {
            Src::Reg(_) => self.src(b, View::S32),
            _ => self.src(b, View::U32),
        });
        let offset = match (base, a.disp) {
            (None, d) => d.to_string(),
            (Some(b), 0) => b,
            (Some(b), d) if d < 0 => format!("{b} - {}", -d),
            (Some(b), d) => format!("{b} + {d}"),
        };
        if a.byte {
            let t = match a.narrow {
                Some(n) => match (n.bytes, n.signed) {
                    (1, false) => "unsigned char",
                    (1, true) => "signed char",
                    (_, false) => "unsigned short",
                    (_, true) => "short",
                },
                None if a.wide => "unsigned long long",
                None => "unsigned",
            };
            format!("*({t} *)((char *){name} + ({offset}))")
        } else {
            format!("{name}[{offset}]")
        }
    }

    /// A thread's exit: it records the block's clocks and returns.
    fn exit() -> String {
        "warpsim_record(warpsim_at, warpsim_start); return;".into()
    }

    /// The C label of branch target `target` (inside the program: a branch to its end is an exit).
    fn label(&self, target: u32) -> String {
        self.labels
            .get(target as usize)
            .and_then(|l| l.first())
            .cloned()
            .unwrap_or_default()
    }

    /// The C statement for one instruction (without its guard): which family it is; each has its method.
    fn statement(&mut self, op: DOp, ty: warpsim_isa::Ty) -> String {
        match op {
            DOp::Printf { .. } | DOp::AssertFail { .. } => {
                unreachable!("`emit` refuses `printf` and `assert` (their addresses are generic)")
            }
            DOp::Mov { d, a } => format!("{} = {};", self.reg(d), self.bits(a, ty)),
            DOp::Un { f, d, a } => self.unary(f, d, a),
            DOp::Bin { f, d, a, b } => self.binary(f, d, a, b),
            DOp::Tern { f, d, a, b, c } => {
                let v = match f {
                    Tern::MadI => format!(
                        "{} * {} + {}",
                        self.src(a, View::U32),
                        self.src(b, View::U32),
                        self.src(c, View::U32)
                    ),
                    Tern::FmaF => {
                        self.helpers.f32_ptx = true;
                        let t = warpsim_isa::Ty::F32;
                        format!("fma_f32({}, {}, {})", self.bits(a, t), self.bits(b, t), self.bits(c, t))
                    }
                };
                format!("{} = {v};", self.reg(d))
            }
            DOp::Setp { cmp, class, p, a, b } => self.setp(cmp, class, p, a, b),
            DOp::PredLogic { op, d, a, b } => {
                let x = self.pred_operand(a);
                let v = match (op, b) {
                    (PredLogicOp::Not, _) => format!("!({x})"),
                    (_, None) => x,
                    (PredLogicOp::And, Some(b)) => format!("{x} && {}", self.pred_operand(b)),
                    (PredLogicOp::Or, Some(b)) => format!("{x} || {}", self.pred_operand(b)),
                    (PredLogicOp::Xor, Some(b)) => format!("{x} != {}", self.pred_operand(b)),
                };
                format!("{} = {v};", self.pred(d))
            }
            DOp::Selp { d, a, b, p } => {
                let (x, y) = (self.bits(a, ty), self.bits(b, ty));
                format!("{} = {} ? {x} : {y};", self.reg(d), self.pred(p))
            }
            DOp::Cvt { f, d, a } => self.cvt(f, d, a),
            // (An 8- or 16-bit load converts through `int`: sign- or zero-extended by its C type.)
            DOp::Ld { d, addr } if addr.narrow.is_some() => {
                format!("{} = (unsigned)(int){};", self.reg(d), self.place(addr))
            }
            DOp::Ld { d, addr } => format!("{} = {};", self.reg(d), self.place(addr)),
            DOp::St { addr, a } if addr.narrow.is_some() => {
                let v = self.bits(a, ty);
                let t = if addr.narrow.is_some_and(|n| n.bytes == 1) {
                    "unsigned char"
                } else {
                    "unsigned short"
                };
                // (Stored through an unsigned type: the value's low bytes.)
                let mut unsigned = addr;
                unsigned.narrow = addr.narrow.map(|n| warpsim_isa::Narrow { signed: false, ..n });
                format!("{} = ({t})({v});", self.place(unsigned))
            }
            DOp::St { addr, a } => {
                let v = self.bits(a, ty);
                format!("{} = {v};", self.place(addr))
            }
            DOp::Shfl { .. } => self.shfl(op),
            DOp::Atom { f, d, addr, b, c } => self.atom(f, d, addr, b, c),
            DOp::Bar { kind, id, count, pred } => self.bar(kind, id, count, pred),
            DOp::BarWarp { mask } => format!("__syncwarp({});", self.member(mask)),
            DOp::Vote { mode, d, a, mask } => {
                self.helpers.warp_ops = true;
                let x = self.pred_operand(a);
                let m = self.member(mask);
                match mode {
                    VoteMode::All => format!("{} = vote_all({m}, {x});", self.pred(d)),
                    VoteMode::Any => format!("{} = vote_any({m}, {x});", self.pred(d)),
                    VoteMode::Uni => format!("{} = vote_uni({m}, {x});", self.pred(d)),
                    VoteMode::Ballot => format!("{} = vote_ballot({m}, {x});", self.reg(d)),
                }
            }
            DOp::Activemask { d } => format!("{} = __activemask();", self.reg(d)),
            DOp::Match { all, d, p, a, mask } => {
                self.helpers.warp_ops = true;
                let x = self.src(a, View::U32);
                let m = self.member(mask);
                match (all, p) {
                    (true, Some(p)) => format!("{} = match_all({m}, {x}, &{});", self.reg(d), self.pred(p)),
                    (true, None) => format!("{{ bool all; {} = match_all({m}, {x}, &all); }}", self.reg(d)),
                    (false, _) => format!("{} = match_any({m}, {x});", self.reg(d)),
                }
            }
            DOp::Redux { op, signed, d, a, mask } => {
                // PTX's instruction, by the members only (warpsim gives lanes outside the mask 0, as for
                // `match`; on the GPU a lane outside the mask may not execute it).
                let x = self.src(a, View::U32);
                let m = self.member(mask);
                let ty = if op.bitwise() {
                    "b32"
                } else if signed {
                    "s32"
                } else {
                    "u32"
                };
                format!(
                    "{{ unsigned m = {m}, r = 0u; if ((m >> (threadIdx.x % 32)) & 1u) asm volatile(\"redux.sync.{}.{ty} %0, %1, %2;\" : \"=r\"(r) : \"r\"({x}), \"r\"(m)); {} = r; }}",
                    op.name(),
                    self.reg(d)
                )
            }
            DOp::Wide { f, d, a, b, c } => self.wide(f, d, [a, b, c]),
            DOp::Setp64 { cmp, class, p, a, b } => {
                let view = |s: String| match class {
                    CmpClass::Signed => format!("(long long){s}"),
                    CmpClass::Unsigned => s,
                    CmpClass::Float | CmpClass::FloatFtz => format!("__longlong_as_double({s})"),
                };
                let (x, y) = (view(self.src(a, View::U32)), view(self.src(b, View::U32)));
                let v = match (cmp, class) {
                    (Cmp::Ne, CmpClass::Float) => format!("{x} < {y} || {x} > {y}"),
                    _ => format!("{x} {} {y}", c_cmp(cmp)),
                };
                format!("{} = {v};", self.pred(p))
            }
            DOp::Selp64 { d, a, b, p } => {
                let (x, y) = (self.src(a, View::U32), self.src(b, View::U32));
                format!("{} = {} ? {x} : {y};", self.reg(d), self.pred(p))
            }
            DOp::Carry {
                f,
                signed,
                wide,
                d,
                a,
                b,
                c,
                cin,
                cout,
            } => self.carry((f, signed, wide), d, [a, b, c], cin, cout),
            DOp::Unpack { lo, hi, a } => {
                let x = self.src(a, View::U32);
                // The low half through the zero ptxas cannot see: ptxas 13.0 made an `F2I.U32.F64.TRUNC` (the
                // value converted, not its bits) of the low half of an `rcp.approx.ftz.f64` result (13.5 does not).
                format!(
                    "{} = (unsigned)({x} ^ (unsigned long long)warpsim_zero); {} = (unsigned)({x} >> 32);",
                    self.reg(lo),
                    self.reg(hi)
                )
            }
            DOp::Bfi {
                wide,
                d,
                a,
                b,
                pos,
                len,
            } => {
                // The PTX instruction itself; a 32-bit operand of the 64-bit form through the opaque zero (see
                // `wide`).
                let (c, w) = if wide { ("l", "b64") } else { ("r", "b32") };
                let (x, y) = (self.src(a, View::U32), self.src(b, View::U32));
                let (p, n) = (self.src(pos, View::U32), self.src(len, View::U32));
                format!(
                    "asm(\"bfi.{w} %0, %1, %2, %3, %4;\" : \"={c}\"({}) : \"{c}\"({x}), \"{c}\"({y}), \"r\"((unsigned){p} ^ warpsim_zero), \"r\"((unsigned){n} ^ warpsim_zero));",
                    self.reg(d)
                )
            }
            // A branch to the program's end is an exit (below).
            DOp::Bra { target } if target as usize >= self.labels.len() => Self::exit(),
            DOp::Bra { target } => format!("goto {};", self.label(target)),
            // A real exit, as the program's: a jump to the kernel's end instead would make that end the
            // reconvergence point of every branch around it, so ptxas would keep the lanes of a loop with an
            // `exit` in it apart (each group running the rest of the kernel alone) where warpsim, like the GPU
            // running an `exit`, joins them after the loop.
            DOp::Exit => Self::exit(),
            DOp::Nop => ";".into(),
        }
    }

    /// The carry chain in C (PTX's carry flag does not outlive one `asm` statement; NVRTC has no 128-bit integers
    /// by default): the first two terms' sum (or difference) and then the carry in, each step's wrap (or borrow)
    /// detected by a comparison and the two or-ed into the carry out.
    fn carry(
        &mut self,
        (f, signed, wide): (warpsim_isa::CarryOp, bool, bool),
        d: u16,
        ops: [Src; 3],
        cin: Option<u16>,
        cout: Option<u16>,
    ) -> String {
        use warpsim_isa::CarryOp;
        let [x, y, z] = ops.map(|s| self.src(s, View::U32));
        let (u, s) = if wide {
            ("unsigned long long", "long long")
        } else {
            ("unsigned", "int")
        };
        let (first, second) = match f {
            CarryOp::Add | CarryOp::Sub => (format!("({u}){x}"), format!("({u}){y}")),
            CarryOp::MadLo => (format!("({u})(({u}){x} * ({u}){y})"), format!("({u}){z}")),
            CarryOp::MadHi => {
                let hi = match (wide, signed) {
                    (false, false) => format!("__umulhi(({u}){x}, ({u}){y})"),
                    (false, true) => format!("__mulhi(({s}){x}, ({s}){y})"),
                    (true, false) => format!("__umul64hi(({u}){x}, ({u}){y})"),
                    (true, true) => format!("__mul64hi(({s}){x}, ({s}){y})"),
                };
                (format!("({u}){hi}"), format!("({u}){z}"))
            }
        };
        let ci = cin.map_or_else(|| "0".to_string(), |p| format!("({u}){}", self.pred(p)));
        let steps = if f == CarryOp::Sub {
            "s_ = p_ - q_; k_ = p_ < q_; r_ = s_ - c_; k_ = k_ || s_ < c_;"
        } else {
            "s_ = p_ + q_; k_ = s_ < p_; r_ = s_ + c_; k_ = k_ || r_ < s_;"
        };
        let out = cout.map_or_else(String::new, |p| format!(" {} = k_;", self.pred(p)));
        format!(
            "{{ {u} p_ = {first}, q_ = {second}, c_ = {ci}, s_, r_; bool k_; {steps} {} = r_;{out} }}",
            self.reg(d)
        )
    }

    /// A 16-bit float operation as its PTX instruction (inline PTX, `.rn` where it rounds, so that nothing fuses
    /// it): on 16-bit registers of the asm block's own for the scalar forms, the 32-bit operands' low halves in and
    /// the result zero-extended out; on the 32-bit registers themselves for `.x2`.
    fn half(&mut self, op: warpsim_isa::HalfOp, bf16: bool, x2: bool, d: u16, ops: [Src; 3]) -> String {
        use warpsim_isa::HalfOp;
        let ty = format!("{}{}", if bf16 { "bf16" } else { "f16" }, if x2 { "x2" } else { "" });
        let name = match op {
            HalfOp::FromF32 => format!("cvt.rn.{ty}.f32"),
            HalfOp::ToF32 => format!("cvt.f32.{ty}"),
            _ => {
                let n = HalfOp::ARITHMETIC
                    .iter()
                    .find(|(_, h)| *h == op)
                    .map_or("?", |(n, _)| n);
                format!("{n}{}.{ty}", if op.rounds() { ".rn" } else { "" })
            }
        };
        let n = op.arity(x2);
        let inputs: Vec<String> = ops[..n]
            .iter()
            .map(|&s| format!("\"r\"((unsigned){})", self.src(s, View::U32)))
            .collect();
        let operands: Vec<String> = (1..=n).map(|k| format!("%{k}")).collect();
        // (16-bit registers in the scalar forms: `h_k` for operand k, `h_0` for the result.)
        let half_in = !x2 && op != HalfOp::FromF32;
        let half_out = !x2 && op != HalfOp::ToF32;
        let mut body = String::from("{ .reg .b16 h_0, h_1, h_2, h_3; ");
        let mut args = Vec::new();
        for (k, o) in operands.iter().enumerate() {
            if half_in {
                let _ = write!(body, "cvt.u16.u32 h_{}, {o}; ", k + 1);
                args.push(format!("h_{}", k + 1));
            } else {
                args.push(o.clone());
            }
        }
        let dst = if half_out { "h_0" } else { "%0" };
        let _ = write!(body, "{name} {dst}, {}; ", args.join(", "));
        if half_out {
            body.push_str("cvt.u32.u16 %0, h_0; ");
        }
        body.push('}');
        format!("asm(\"{body}\" : \"=r\"({}) : {});", self.reg(d), inputs.join(", "))
    }

    /// A 64-bit or mixed-width operation as the PTX instruction warpsim models (inline PTX, so that its
    /// semantics are PTX's own), or a bit operation where the instruction's NaN result is not specified (the
    /// sign of `neg`/`abs.f64`).
    fn wide(&mut self, f: Wide, d: u16, ops: [Src; 3]) -> String {
        let (dw, widths) = f.shape();
        let x = self.src(ops[0], View::U32);
        match f {
            Wide::NegF => return format!("{} = {x} ^ 0x8000000000000000ull;", self.reg(d)),
            Wide::AbsF => return format!("{} = {x} & 0x7fffffffffffffffull;", self.reg(d)),
            Wide::Half { op, bf16, x2 } => return self.half(op, bf16, x2, d, ops),
            _ => {}
        }
        let opcode = match f {
            Wide::Mov => "mov.b64".to_string(),
            Wide::Pack => "mov.b64".to_string(),
            Wide::Add => "add.s64".into(),
            Wide::Sub => "sub.s64".into(),
            Wide::Mul => "mul.lo.s64".into(),
            Wide::MulHiU => "mul.hi.u64".into(),
            Wide::MulHiS => "mul.hi.s64".into(),
            Wide::MulHi32U => "mul.hi.u32".into(),
            Wide::MulHi32S => "mul.hi.s32".into(),
            Wide::MulWideU => "mul.wide.u32".into(),
            Wide::MulWideS => "mul.wide.s32".into(),
            Wide::DivU => "div.u64".into(),
            Wide::DivS => "div.s64".into(),
            Wide::RemU => "rem.u64".into(),
            Wide::RemS => "rem.s64".into(),
            Wide::MinU => "min.u64".into(),
            Wide::MinS => "min.s64".into(),
            Wide::MaxU => "max.u64".into(),
            Wide::MaxS => "max.s64".into(),
            Wide::And => "and.b64".into(),
            Wide::Or => "or.b64".into(),
            Wide::Xor => "xor.b64".into(),
            Wide::Shl => "shl.b64".into(),
            Wide::ShrU => "shr.u64".into(),
            Wide::ShrS => "shr.s64".into(),
            Wide::Not => "not.b64".into(),
            Wide::NegI => "neg.s64".into(),
            Wide::AbsI => "abs.s64".into(),
            Wide::Mad => "mad.lo.s64".into(),
            Wide::MadHiU => "mad.hi.u64".into(),
            Wide::MadHiS => "mad.hi.s64".into(),
            Wide::MadHi32U => "mad.hi.u32".into(),
            Wide::MadHi32S => "mad.hi.s32".into(),
            Wide::MadWideU => "mad.wide.u32".into(),
            Wide::MadWideS => "mad.wide.s32".into(),
            Wide::AddF => "add.rn.f64".into(),
            Wide::SubF => "sub.rn.f64".into(),
            Wide::MulF => "mul.rn.f64".into(),
            Wide::DivF => "div.rn.f64".into(),
            Wide::MinF => "min.f64".into(),
            Wide::MaxF => "max.f64".into(),
            Wide::FmaF => "fma.rn.f64".into(),
            Wide::SqrtF => "sqrt.rn.f64".into(),
            Wide::Sqrt32 => "sqrt.rn.f32".into(),
            Wide::Popc64 => "popc.b64".into(),
            Wide::Clz64 => "clz.b64".into(),
            Wide::Brev64 => "brev.b64".into(),
            Wide::Bfe { signed, wide } => format!(
                "bfe.{}{}",
                if signed { "s" } else { "u" },
                if wide { "64" } else { "32" }
            ),
            Wide::Bfind { signed, wide, shiftamt } => format!(
                "bfind{}.{}{}",
                if shiftamt { ".shiftamt" } else { "" },
                if signed { "s" } else { "u" },
                if wide { "64" } else { "32" }
            ),
            Wide::Prmt => "prmt.b32".into(),
            Wide::Fns => "fns.b32".into(),
            Wide::Dot { op } => op.dot_name().expect("a dot product or lop3"),
            Wide::CopySign { wide } => format!("copysign.{}", if wide { "f64" } else { "f32" }),
            Wide::Rounded {
                op,
                rounding,
                wide,
                ftz,
            } => {
                let rounding = if op.rounds() {
                    format!(".{}", rounding.name())
                } else {
                    String::new()
                };
                let ty = match (wide, op) {
                    (true, _) => "f64",
                    (false, RoundedOp::Flush) => "f32.f32",
                    (false, _) => "f32",
                };
                format!("{}{rounding}{}.{ty}", op.name(), if ftz { ".ftz" } else { "" })
            }
            Wide::Approx { op, ftz, wide } => {
                format!(
                    "{}{}.{}",
                    op.name(),
                    if ftz { ".ftz" } else { "" },
                    if wide { "f64" } else { "f32" }
                )
            }
            Wide::NegF | Wide::AbsF | Wide::Half { .. } => unreachable!("returned above"),
            Wide::Cvt { to, from, rounding } => {
                let exact =
                    (to.is_int() && from.is_int()) || (to == warpsim_isa::Ty::F64 && from == warpsim_isa::Ty::F32);
                if exact {
                    format!("cvt.{}.{}", to.name(), from.name())
                } else {
                    format!("cvt.{}.{}.{}", rounding.name(), to.name(), from.name())
                }
            }
        };
        let n = f.arity();
        let constraint = |wide: bool| if wide { "l" } else { "r" };
        let mut inputs = Vec::new();
        for (k, &s) in ops.iter().enumerate().take(n) {
            let wide = match f {
                Wide::Cvt { from, .. } => from.wide(),
                _ => widths[k],
            };
            let mut v = self.src(s, View::U32);
            // ptxas simplifies min/max(x, x) and takes abs's result as never negative (see `binary_f32` and
            // `unary`): an operand it cannot see through keeps PTX's own result.
            if (matches!(f, Wide::MinF | Wide::MaxF) && k == 1) || (f == Wide::AbsI && k == 0) {
                v = format!("({v} ^ (unsigned long long)warpsim_zero)");
            }
            if !wide && matches!(s, Src::Reg(_)) {
                // ptxas widens a 32-bit integer operand of a 64-bit operation (a shift amount, a `mul.wide`
                // factor, a `cvt` from u32) with a conversion it chooses by the instruction that last wrote the
                // register: after an f32 instruction it emits F2I, converting the float's value instead of
                // keeping its bits (an H100: `shl.b64 d, 13, r` after `fma.rn.f32 r, 0, 0, 9.0` shifted by 9,
                // SASS `FFMA; F2I.U64.TRUNC; SHF.L.U64.HI`). An operand it cannot see through keeps the bits.
                let float_operand = matches!(
                    f,
                    Wide::Sqrt32
                        | Wide::Cvt { from: Ty::F32, .. }
                        | Wide::CopySign { wide: false }
                        | Wide::Rounded { wide: false, .. }
                        | Wide::Approx { wide: false, .. }
                );
                v = if float_operand {
                    format!("(unsigned){v}")
                } else {
                    format!("((unsigned){v} ^ warpsim_zero)")
                };
            }
            inputs.push(format!("\"{}\"({v})", constraint(wide)));
        }
        if let Wide::Approx {
            op: op @ (ApproxOp::DivAdd | ApproxOp::DivFullAdd),
            ftz,
            ..
        } = f
        {
            // The division and the addition that ptxas fuses into one FFMA (warpsim's `divadd`), written as the
            // SASS computes it, so that no contraction setting (NVRTC's --fmad=false) changes it: the operands
            // scaled (`div.full` by 1/4 where |b| > 2^126; without `.ftz` by 2^24 where b is subnormal), the bare
            // MUFU.RCP (`rcp.approx.ftz` of a normal or zero operand), one fma.
            let full = op == ApproxOp::DivFullAdd;
            let (ftz, mul) = if ftz {
                (".ftz", "mul.rn.ftz.f32")
            } else {
                ("", "mul.rn.f32")
            };
            let mut body = String::from("{.reg .f32 q, x, y; .reg .pred p; mov.b32 x, %1; mov.b32 y, %2; ");
            if full {
                let _ = write!(
                    body,
                    "abs.f32 q, y; setp.gt.f32 p, q, 0f7E800000; @p {mul} x, x, 0f3E800000; @p {mul} y, y, 0f3E800000; "
                );
            }
            if ftz.is_empty() {
                // (After the 1/4 scaling a subnormal b is impossible: |b| > 2^126.)
                body.push_str(
                    "abs.f32 q, y; setp.lt.f32 p, q, 0f00800000; @p mul.rn.f32 x, x, 0f4B800000; @p mul.rn.f32 y, y, 0f4B800000; ",
                );
            }
            let _ = write!(body, "rcp.approx.ftz.f32 q, y; fma.rn{ftz}.f32 %0, x, q, %3;}}");
            return format!("asm(\"{body}\" : \"=r\"({}) : {});", self.reg(d), inputs.join(", "));
        }
        let operands = match f {
            Wide::Pack => "%0, {%1, %2}".to_string(),
            Wide::Dot {
                op: warpsim_isa::TernaryOp::Lop3(lut),
            } => format!("%0, %1, %2, %3, {lut}"),
            _ => (0..=n).map(|k| format!("%{k}")).collect::<Vec<_>>().join(", "),
        };
        format!(
            "asm(\"{opcode} {operands};\" : \"={}\"({}) : {});",
            constraint(dw),
            self.reg(d),
            inputs.join(", ")
        )
    }

    /// A unary operation: which bit operation or helper keeps PTX's result (wrapping negation, the sign bit of a
    /// NaN, abs(INT_MIN)).
    fn unary(&mut self, f: Un, d: u16, a: Src) -> String {
        let v = match f {
            // Unsigned negation wraps: -INT_MIN is INT_MIN, as in PTX.
            Un::NegI => format!("0u - {}", self.src(a, View::U32)),
            // The ISA's neg.f32 and abs.f32 flip and clear the sign bit, NaNs included; C's -x and
            // fabsf may be lowered to an FADD, which returns the canonical NaN instead.
            Un::NegF => format!("{} ^ 0x80000000u", self.src(a, View::U32)),
            Un::AbsF => format!("{} & 0x7fffffffu", self.src(a, View::U32)),
            Un::AbsI => {
                self.helpers.int_ptx = true;
                // XORed with the zero ptxas cannot see: it takes abs.s32's result as never negative
                // and converts or divides it as such, which abs(INT_MIN) = INT_MIN is not.
                format!("abs_s32({}) ^ warpsim_zero", self.src(a, View::U32))
            }
            Un::Not => format!("~{}", self.src(a, View::U32)),
            Un::Popc => format!("(unsigned)__popc({})", self.src(a, View::U32)),
            Un::Clz => format!("(unsigned)__clz((int){})", self.src(a, View::U32)),
            Un::Brev => format!("__brev({})", self.src(a, View::U32)),
        };
        format!("{} = {v};", self.reg(d))
    }

    /// A binary operation: whether it goes through an inline-PTX helper (integer division, every f32
    /// operation, a shift by a register or by 32 or more) or is C's own operator.
    fn binary(&mut self, f: Bin, d: u16, a: Src, b: Src) -> String {
        let view = match f {
            Bin::AddF | Bin::SubF | Bin::MulF | Bin::DivF | Bin::MinF | Bin::MaxF => View::F32,
            Bin::MinS | Bin::MaxS => View::S32,
            _ => View::U32,
        };
        if let Some(name) = match f {
            Bin::DivS => Some("div_s32"),
            Bin::RemS => Some("rem_s32"),
            Bin::DivU => Some("div_u32"),
            Bin::RemU => Some("rem_u32"),
            _ => None,
        } {
            self.helpers.int_ptx = true;
            let (x, y) = (self.src(a, View::U32), self.src(b, View::U32));
            return format!("{} = {name}({x}, {y});", self.reg(d));
        }
        if view == View::F32 {
            return self.binary_f32(f, d, a, b);
        }
        let (x, y) = (self.src(a, view), self.src(b, view));
        let v = match f {
            Bin::AddI => format!("{x} + {y}"),
            Bin::SubI => format!("{x} - {y}"),
            Bin::MulI => format!("{x} * {y}"),
            Bin::DivU | Bin::RemU | Bin::DivS | Bin::RemS => unreachable!("divisions return above"),
            Bin::MinS => format!("(unsigned)min({x}, {y})"),
            Bin::MaxS => format!("(unsigned)max({x}, {y})"),
            Bin::MinU => format!("min({x}, {y})"),
            Bin::MaxU => format!("max({x}, {y})"),
            Bin::And => format!("{x} & {y}"),
            Bin::Or => format!("{x} | {y}"),
            Bin::Xor => format!("{x} ^ {y}"),
            Bin::AddF | Bin::SubF | Bin::MulF | Bin::DivF | Bin::MinF | Bin::MaxF => {
                unreachable!("f32 operations return above")
            }
            // A constant amount below 32 means the same in C.
            Bin::Shl if matches!(b, Src::Imm(n) if n < 32) => format!("{x} << {y}"),
            Bin::ShrU if matches!(b, Src::Imm(n) if n < 32) => format!("{x} >> {y}"),
            Bin::ShrS if matches!(b, Src::Imm(n) if n < 32) => format!("(unsigned)(S({x}) >> {y})"),
            Bin::Shl | Bin::ShrU | Bin::ShrS => {
                self.helpers.shifts = true;
                let f = match f {
                    Bin::Shl => "shl_b32",
                    Bin::ShrU => "shr_u32",
                    _ => "shr_s32",
                };
                format!("{f}({x}, {y})")
            }
        };
        format!("{} = {v};", self.reg(d))
    }

    /// An f32 binary operation: which inline-PTX helper, and whether an operand is kept apart from the other
    /// (min and max).
    fn binary_f32(&mut self, f: Bin, d: u16, a: Src, b: Src) -> String {
        self.helpers.f32_ptx = true;
        let name = match f {
            Bin::AddF => "add_f32",
            Bin::SubF => "sub_f32",
            Bin::MulF => "mul_f32",
            Bin::DivF => "div_f32",
            Bin::MinF => "min_f32",
            _ => "max_f32",
        };
        let (x, y) = (self.bits(a, warpsim_isa::Ty::F32), self.bits(b, warpsim_isa::Ty::F32));
        if matches!(f, Bin::MinF | Bin::MaxF) {
            // ptxas turns min/max(x, x) into x even in inline PTX, keeping a NaN's payload where
            // the hardware returns the canonical NaN (random 271828 programs 351, 1703, ...): an
            // operand XORed with the zero it cannot see keeps the two apart.
            return format!("{} = {name}({x}, {y} ^ warpsim_zero);", self.reg(d));
        }
        format!("{} = {name}({x}, {y});", self.reg(d))
    }

    /// A comparison: which view of the bits, and which C comparison (an ordered one for `ne` on floats).
    fn setp(&mut self, cmp: Cmp, class: CmpClass, p: u16, a: Src, b: Src) -> String {
        if class == CmpClass::FloatFtz {
            // C has no flushing comparison: PTX's own, its result through a register.
            let (x, y) = (self.src(a, View::U32), self.src(b, View::U32));
            return format!(
                "{{ unsigned t; asm(\"{{.reg .pred q; setp.{}.ftz.f32 q, %1, %2; selp.u32 %0, 1, 0, q;}}\" : \"=r\"(t) : \"r\"({x}), \"r\"({y})); {} = t != 0u; }}",
                cmp.name(),
                self.pred(p)
            );
        }
        let view = match class {
            CmpClass::Signed => View::S32,
            CmpClass::Unsigned => View::U32,
            CmpClass::Float | CmpClass::FloatFtz => View::F32,
        };
        let (x, y) = (self.src(a, view), self.src(b, view));
        let v = match (cmp, class) {
            // PTX `ne` on floats is ordered: false when either is NaN (C's != is true then).
            (Cmp::Ne, CmpClass::Float) => format!("{x} < {y} || {x} > {y}"),
            _ => {
                let op = match cmp {
                    Cmp::Eq => "==",
                    Cmp::Ne => "!=",
                    Cmp::Lt => "<",
                    Cmp::Le => "<=",
                    Cmp::Gt => ">",
                    Cmp::Ge => ">=",
                };
                format!("{x} {op} {y}")
            }
        };
        format!("{} = {v};", self.pred(p))
    }

    /// A conversion: which CUDA intrinsic or rounding helper (none for a same-type copy of the bits).
    fn cvt(&mut self, f: Conv, d: u16, a: Src) -> String {
        let v = match f {
            Conv::F2S(r) => format!("(unsigned)__float2int_{}({})", round_suffix(r), self.src(a, View::F32)),
            Conv::F2U(r) => format!("__float2uint_{}({})", round_suffix(r), self.src(a, View::F32)),
            Conv::S2F => format!("U(__int2float_rn({}))", self.src(a, View::S32)),
            Conv::U2F => format!("U(__uint2float_rn({}))", self.src(a, View::U32)),
            Conv::F2F(r) => {
                let func = match r {
                    Rounding::Nearest => "cvt_rni_f32",
                    Rounding::Zero => "cvt_rzi_f32",
                    Rounding::Down => "cvt_rmi_f32",
                    Rounding::Up => "cvt_rpi_f32",
                    Rounding::NearestFloat | Rounding::FloatZero | Rounding::FloatDown | Rounding::FloatUp => "",
                };
                if func.is_empty() {
                    self.src(a, View::U32)
                } else {
                    self.helpers.round_ptx = true;
                    format!("{func}({})", self.src(a, View::U32))
                }
            }
            Conv::Bits => self.src(a, View::U32),
        };
        format!("{} = {v};", self.reg(d))
    }

    /// A member mask: a constant ([`member_mask`]) or the register each lane reads (a per-lane value, as the
    /// PTX `membermask` operand).
    fn member(&mut self, m: Member) -> String {
        match m {
            Member::Lanes(m) => member_mask(m),
            Member::Reg(s) => self.src(s, View::U32),
        }
    }

    /// A shuffle: its inline-PTX helper by mode, with or without the in-range predicate, and the packed
    /// clamp/segment operand.
    fn shfl(&mut self, op: DOp) -> String {
        let DOp::Shfl {
            mode,
            d,
            p,
            a,
            b,
            clamp,
            segmask,
            from,
            member,
        } = op
        else {
            unreachable!("not a shuffle")
        };
        self.helpers.shfl = true;
        let m = match mode {
            ShflMode::Idx => "idx",
            ShflMode::Up => "up",
            ShflMode::Down => "down",
            ShflMode::Bfly => "bfly",
        };
        let c = match from {
            None => format!("0x{:04x}", (u32::from(segmask & 31) << 8) | u32::from(clamp & 31)),
            Some(c) => self.src(c, View::U32),
        };
        let (suffix, out) = match p {
            Some(p) => ("_p", format!(", &{}", self.pred(p))),
            None => ("", String::new()),
        };
        format!(
            "{} = shfl_{m}{suffix}({}, {}, {c}, {}{out});",
            self.reg(d),
            self.src(a, View::U32),
            self.src(b, View::U32),
            self.member(member)
        )
    }

    /// An atomic (`d` Some) or a reduction: which CUDA atomic or helper, and how its old value is read back as
    /// bits.
    fn atom(&mut self, f: Atom, d: Option<u16>, addr: DAddr, b: Src, c: Option<Src>) -> String {
        let place = self.place(addr);
        let ptr = if let Some(inner) = place.strip_prefix('*') {
            inner.to_string()
        } else {
            format!("&{place}")
        };
        let b_u = self.src(b, View::U32);
        if f.wide() {
            let ull = "(unsigned long long *)";
            let call = match f {
                Atom::AddI64 => format!("atomicAdd({ull}{ptr}, {b_u})"),
                Atom::AddF64 => {
                    format!("__double_as_longlong(atomicAdd((double *){ptr}, __longlong_as_double({b_u})))")
                }
                Atom::MinS64 => format!("atomicMin((long long *){ptr}, (long long){b_u})"),
                Atom::MaxS64 => format!("atomicMax((long long *){ptr}, (long long){b_u})"),
                Atom::MinU64 => format!("atomicMin({ull}{ptr}, {b_u})"),
                Atom::MaxU64 => format!("atomicMax({ull}{ptr}, {b_u})"),
                Atom::Exch64 => format!("atomicExch({ull}{ptr}, {b_u})"),
                Atom::Cas64 => {
                    let cv = c.map(|c| self.src(c, View::U32)).unwrap_or_else(|| "0ull".into());
                    format!("atomicCAS({ull}{ptr}, {b_u}, {cv})")
                }
                Atom::And64 => format!("atomicAnd({ull}{ptr}, {b_u})"),
                Atom::Or64 => format!("atomicOr({ull}{ptr}, {b_u})"),
                _ => format!("atomicXor({ull}{ptr}, {b_u})"),
            };
            return match d {
                Some(d) => format!("{} = (unsigned long long){call};", self.reg(d)),
                None => format!("{call};"),
            };
        }
        let (call, wrap) = match f {
            Atom::AddI => (format!("atomicAdd({ptr}, {b_u})"), ("", "")),
            Atom::AddF => (
                format!("atomicAdd((float *){ptr}, {})", self.src(b, View::F32)),
                ("U(", ")"),
            ),
            Atom::MinS => (
                format!("atomicMin((int *){ptr}, {})", self.src(b, View::S32)),
                ("(unsigned)", ""),
            ),
            Atom::MaxS => (
                format!("atomicMax((int *){ptr}, {})", self.src(b, View::S32)),
                ("(unsigned)", ""),
            ),
            Atom::MinU => (format!("atomicMin({ptr}, {b_u})"), ("", "")),
            Atom::MaxU => (format!("atomicMax({ptr}, {b_u})"), ("", "")),
            Atom::MinF | Atom::MaxF => {
                self.helpers.atomic_f32_minmax = true;
                self.helpers.f32_ptx = true;
                let name = if f == Atom::MinF {
                    "atomic_min_f32"
                } else {
                    "atomic_max_f32"
                };
                (format!("{name}({ptr}, {b_u})"), ("", ""))
            }
            Atom::Exch => (format!("atomicExch({ptr}, {b_u})"), ("", "")),
            Atom::Cas => {
                let cv = c.map(|c| self.src(c, View::U32)).unwrap_or_else(|| "0u".into());
                (format!("atomicCAS({ptr}, {b_u}, {cv})"), ("", ""))
            }
            Atom::And => (format!("atomicAnd({ptr}, {b_u})"), ("", "")),
            Atom::Or => (format!("atomicOr({ptr}, {b_u})"), ("", "")),
            Atom::Xor => (format!("atomicXor({ptr}, {b_u})"), ("", "")),
            Atom::Inc => (format!("atomicInc({ptr}, {b_u})"), ("", "")),
            Atom::Dec => (format!("atomicDec({ptr}, {b_u})"), ("", "")),
            _ => unreachable!("64-bit atomics return above"),
        };
        match d {
            Some(d) => format!("{} = {}{call}{};", self.reg(d), wrap.0, wrap.1),
            None => format!("{call};"),
        }
    }

    /// A block barrier: CUDA's `__syncthreads` family where it is barrier 0 of every thread, PTX's own
    /// instruction where it names an id or a thread count.
    fn bar(&mut self, kind: DBar, id: Src, count: Option<Src>, pred: Option<(u16, bool)>) -> String {
        let simple = matches!(id, Src::Imm(0)) && count.is_none() && kind != DBar::Arrive;
        let p = pred.map(|p| self.pred_operand(p)).unwrap_or_else(|| "false".into());
        if simple {
            return match kind {
                DBar::Sync => "__syncthreads();".into(),
                DBar::Arrive => unreachable!("bar.arrive always names a thread count"),
                DBar::Popc(d) => format!("{} = __syncthreads_count({p});", self.reg(d)),
                DBar::And(d) => format!("{} = __syncthreads_and({p});", self.pred(d)),
                DBar::Or(d) => format!("{} = __syncthreads_or({p});", self.pred(d)),
            };
        }
        // A barrier id or a thread count: PTX's own instruction (without a count, every live thread).
        let idv = self.src(id, View::U32);
        let (n_ptx, n_arg) = match count {
            Some(c) => (", %3".to_string(), format!(", \"r\"({})", self.src(c, View::U32))),
            None => (String::new(), String::new()),
        };
        match kind {
            DBar::Sync => {
                let n_ptx = n_ptx.replace("%3", "%1");
                format!("asm volatile(\"bar.sync %0{n_ptx};\" :: \"r\"({idv}){n_arg} : \"memory\");")
            }
            DBar::Arrive => {
                let n_ptx = n_ptx.replace("%3", "%1");
                format!("asm volatile(\"bar.arrive %0{n_ptx};\" :: \"r\"({idv}){n_arg} : \"memory\");")
            }
            DBar::Popc(d) => format!(
                "asm volatile(\"{{ .reg .pred q; setp.ne.u32 q, %1, 0; bar.red.popc.u32 %0, %2{n_ptx}, q; }}\" : \"=r\"({}) : \"r\"((unsigned)({p})), \"r\"({idv}){n_arg} : \"memory\");",
                self.reg(d)
            ),
            DBar::And(d) | DBar::Or(d) => {
                let m = if matches!(kind, DBar::And(_)) { "and" } else { "or" };
                format!(
                    "{{ unsigned t; asm volatile(\"{{ .reg .pred q, r; setp.ne.u32 q, %1, 0; bar.red.{m}.pred r, %2{n_ptx}, q; selp.u32 %0, 1, 0, r; }}\" : \"=r\"(t) : \"r\"((unsigned)({p})), \"r\"({idv}){n_arg} : \"memory\"); {} = t; }}",
                    self.pred(d)
                )
            }
        }
    }
}

/// A warp operation's member mask, XORed with `warpsim_zero`: 0 in every lane, computed from a kernel
/// parameter that is 0 at launch, so the compiler knows neither its value nor that it is the same in every lane.
///
/// With the mask a constant (or a value ptxas can prove uniform), ptxas 13 for sm_90 checks convergence with its
/// own analysis (`BRA.DIV`, or nothing at all) instead of synchronising the named lanes; after divergent code
/// that used warp operations with partial masks that went wrong on an H100/H200: random programs 5784 and 7491
/// of seed 8191 hung or gave wrong values (`crosscheck/regressions/`). With a per-lane mask it cannot see
/// through, ptxas synchronises the named lanes first (`WARPSYNC Rn`), which is what PTX's `.sync` semantics
/// promise.
#[allow(
    clippy::cast_possible_truncation,
    reason = "bits at or above W = 32 name no lane: PTX ignores them"
)]
fn member_mask(m: u64) -> String {
    let m = m as u32;
    format!("(0x{m:08x}u ^ warpsim_zero)")
}

fn round_suffix(r: Rounding) -> &'static str {
    match r {
        Rounding::Nearest | Rounding::NearestFloat => "rn",
        Rounding::Zero | Rounding::FloatZero => "rz",
        Rounding::Down | Rounding::FloatDown => "rd",
        Rounding::Up | Rounding::FloatUp => "ru",
    }
}

/// C's comparison operator.
fn c_cmp(cmp: Cmp) -> &'static str {
    match cmp {
        Cmp::Eq => "==",
        Cmp::Ne => "!=",
        Cmp::Lt => "<",
        Cmp::Le => "<=",
        Cmp::Gt => ">",
        Cmp::Ge => ">=",
    }
}

/// Buffers whose stored values derive from `%clock` (flow-insensitive: a register that is ever computed from
/// the clock taints every store of it).
fn clock_buffers(k: &Kernel) -> Vec<bool> {
    let mut tainted = vec![false; k.program.regs.len()];
    let is_clock = |s: &Src, t: &[bool]| match s {
        // (The machine's own: the GPU's differ from the simulator's.)
        Src::Special(Special::Clock | Special::Clock64 | Special::SmId | Special::NSmId) => true,
        Src::Reg(r) => t[*r as usize],
        Src::Imm(_) | Src::Const(_) | Src::Special(_) => false,
    };
    loop {
        let mut changed = false;
        for i in &k.code {
            let srcs: Vec<Src> = sources(&i.op);
            if let Some(w) = i.write
                && !tainted[w as usize]
                && srcs.iter().any(|s| is_clock(s, &tainted))
            {
                tainted[w as usize] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = vec![false; k.buffers.len()];
    for i in &k.code {
        match i.op {
            DOp::St { addr, a } if !addr.shared && is_clock(&a, &tainted) => {
                out[addr.buffer as usize] = true;
            }
            DOp::Atom { addr, b, c, .. }
                if !addr.shared && (is_clock(&b, &tainted) || c.is_some_and(|c| is_clock(&c, &tainted))) =>
            {
                out[addr.buffer as usize] = true;
            }
            _ => {}
        }
    }
    out
}

fn sources(op: &DOp) -> Vec<Src> {
    let mut v = Vec::new();
    let addr = |a: &DAddr, v: &mut Vec<Src>| v.extend(a.base);
    match op {
        DOp::Mov { a, .. } | DOp::Un { a, .. } | DOp::Cvt { a, .. } | DOp::Match { a, .. } => v.push(*a),
        DOp::Bin { a, b, .. } | DOp::Setp { a, b, .. } | DOp::Selp { a, b, .. } | DOp::Shfl { a, b, .. } => {
            v.extend([*a, *b]);
        }
        DOp::Tern { a, b, c, .. } => v.extend([*a, *b, *c]),
        DOp::Ld { addr: a, .. } => addr(a, &mut v),
        DOp::St { addr: a, a: x } => {
            addr(a, &mut v);
            v.push(*x);
        }
        DOp::Atom { addr: a, b, c, .. } => {
            addr(a, &mut v);
            v.push(*b);
            v.extend(*c);
        }
        _ => {}
    }
    v
}

/// Translate `k` (instantiated at warp size 32) into a CUDA kernel named `name`.
pub fn emit(k: &Kernel, name: &str) -> Result<CudaKernel, EmitError> {
    if k.warp_size != CUDA_WARP {
        return Err(EmitError(format!(
            "CUDA warps have 32 lanes; `{}` was instantiated at W = {} (use --warp 32)",
            k.program.name, k.warp_size
        )));
    }
    // Flat (PTX-style) addresses are raw addresses in warpsim's simulated address map: the translation has no
    // such map, and refuses them rather than translate them wrongly.
    if let Some(pc) = k.code.iter().position(|i| match i.op {
        DOp::Ld { addr, .. } | DOp::St { addr, .. } | DOp::Atom { addr, .. } => addr.flat != warpsim::kernel::Flat::No,
        // (`printf` reads its format and arguments at generic addresses too.)
        DOp::Printf { .. } | DOp::AssertFail { .. } => true,
        _ => false,
    }) {
        return Err(EmitError(format!(
            "`{}` uses a flat address (`[%rd + k]`, pc {pc}): the CUDA translation names buffers and shared arrays only",
            k.program.name
        )));
    }
    let n = k.code.len();
    // C labels: the program's own names where it has them.
    let mut labels = vec![Vec::new(); n];
    let mut taken: HashSet<String> = HashSet::new();
    for (label, pc) in &k.program.labels {
        if *pc < n {
            let mut l = ident("L_", label);
            if !taken.insert(l.clone()) {
                l = format!("{l}_{pc}");
                taken.insert(l.clone());
            }
            labels[*pc].push(l);
        }
    }
    for i in &k.code {
        if let DOp::Bra { target } = i.op
            && (target as usize) < n
            && labels[target as usize].is_empty()
        {
            labels[target as usize].push(format!("L_{target}"));
        }
    }
    let mut e = Emitter {
        k,
        helpers: Helpers::default(),
        specials: BTreeSet::new(),
        labels,
    };
    // The statements first: they decide which specials and helpers are needed.
    let mut body = String::new();
    for (pc, i) in k.code.iter().enumerate() {
        for l in &e.labels[pc] {
            let _ = writeln!(body, "{l}:");
        }
        let stmt = e.statement(i.op, i.ty);
        let stmt = match i.guard {
            // (Braces where the translation is several statements: the guard covers them all.)
            Some(g) if stmt.trim_end_matches(';').contains(';') => format!("if ({}) {{ {stmt} }}", e.pred_operand(g)),
            Some(g) => format!("if ({}) {stmt}", e.pred_operand(g)),
            None => stmt,
        };
        let text = k.program.instructions.get(pc).map(|i| i.text.as_str()).unwrap_or("");
        let _ = writeln!(body, "    {stmt:<56} // {pc:>3}: {}", text.trim());
    }

    let mut s = String::new();
    let shape = format!("grid {}, block {}", k.grid_dim, k.block_dim);
    let params: Vec<String> = k
        .buffers
        .iter()
        .map(|b| format!("{} *{}", ctype(b.elem), ident("g_", &b.name)))
        .collect();
    let _ = writeln!(s, "// warpsim program `{}` at W = 32: {shape}.", k.program.name);
    if k.grid_dim.rank() > 1 || k.block_dim.rank() > 1 {
        let (g, b) = (k.grid_dim, k.block_dim);
        let _ = writeln!(
            s,
            "//   launch as {name}<<<dim3({}, {}, {}), dim3({}, {}, {})>>>",
            g.x, g.y, g.z, b.x, b.y, b.z
        );
    }
    for b in &k.buffers {
        let _ = writeln!(
            s,
            "//   {}: {} {}[{}]",
            ident("g_", &b.name),
            b.name,
            b.elem.name(),
            b.len()
        );
    }
    let _ = writeln!(
        s,
        "extern \"C\" __global__ void {name}({}unsigned long long *warpsim_clocks, unsigned warpsim_zero_param)\n{{",
        params.iter().map(|p| format!("{p}, ")).collect::<String>()
    );
    let mut dynamic_shared_bytes = 0;
    for (idx, a) in k.shared.iter().enumerate() {
        let dynamic = k.program.shared.get(idx).is_some_and(|d| d.len.is_none());
        if dynamic {
            #[allow(
                clippy::cast_possible_truncation,
                reason = "instantiate checked the array against the machine's shared memory per block (a u32)"
            )]
            {
                dynamic_shared_bytes = (a.len * 4 * a.elem.words()) as u32;
            }
            let _ = writeln!(
                s,
                "    extern __shared__ {} {}[]; // {} {}[{}]",
                ctype(a.elem),
                ident("s_", &a.name),
                a.name,
                a.elem.name(),
                a.len
            );
        } else {
            let _ = writeln!(
                s,
                "    __shared__ {} {}[{}]; // {} {}[{}]",
                ctype(a.elem),
                ident("s_", &a.name),
                a.len.max(1),
                a.name,
                a.elem.name(),
                a.len
            );
        }
    }
    // The thread's linear number in its block (x fastest, as the GPU cuts warps from it), the block's threads,
    // and the block's linear number in the grid: `threadIdx.x`, `blockDim.x` and `blockIdx.x` for a 1-D launch.
    let multi_block = k.block_dim.rank() > 1;
    if multi_block {
        s.push_str(
            "    const unsigned warpsim_tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
",
        );
    }
    let (tid, threads) = if multi_block {
        ("warpsim_tid", "blockDim.x * blockDim.y * blockDim.z")
    } else {
        ("threadIdx.x", "blockDim.x")
    };
    let block_id = if k.grid_dim.rank() > 1 {
        "(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z))"
    } else {
        "blockIdx.x"
    };
    for sp in &e.specials {
        let v = match *sp {
            "laneid" => format!("{tid} % 32"),
            "tid_x" => "threadIdx.x".into(),
            "tid_y" => "threadIdx.y".into(),
            "tid_z" => "threadIdx.z".into(),
            "ntid_x" => "blockDim.x".into(),
            "ntid_y" => "blockDim.y".into(),
            "ntid_z" => "blockDim.z".into(),
            "ctaid_x" => "blockIdx.x".into(),
            "ctaid_y" => "blockIdx.y".into(),
            "ctaid_z" => "blockIdx.z".into(),
            "nctaid_x" => "gridDim.x".into(),
            "nctaid_y" => "gridDim.y".into(),
            "nctaid_z" => "gridDim.z".into(),
            "warpid" => format!("{tid} / 32"),
            "nwarpid" => format!("({threads} + 31) / 32"),
            "warpsize" => "32".into(),
            "lanemask_eq" => format!("1u << ({tid} % 32)"),
            "lanemask_lt" => format!("(1u << ({tid} % 32)) - 1"),
            "lanemask_le" => format!("(unsigned)((2ull << ({tid} % 32)) - 1)"),
            "lanemask_gt" => format!("(unsigned)(0xffffffffull << ({tid} % 32 + 1))"),
            "lanemask_ge" => format!("0xffffffffu << ({tid} % 32)"),
            _ => unreachable!("every special has a definition"),
        };
        let _ = writeln!(s, "    const unsigned {sp} = {v};");
    }
    for (width, ty) in [(Width::W32, "unsigned"), (Width::W64, "unsigned long long")] {
        let regs: Vec<String> = k
            .program
            .regs
            .iter()
            .filter(|r| r.width == width)
            .map(|r| format!("{} = 0", ident("r_", &r.name)))
            .collect();
        for chunk in regs.chunks(8) {
            let _ = writeln!(s, "    {ty} {};", chunk.join(", "));
        }
    }
    let preds: Vec<String> = k
        .program
        .preds
        .iter()
        .map(|p| format!("{} = false", ident("p_", &p.name)))
        .collect();
    for chunk in preds.chunks(8) {
        let _ = writeln!(s, "    bool {};", chunk.join(", "));
    }
    if !k.shared.is_empty() {
        s.push_str("    // Shared memory starts zeroed, as in warpsim.\n");
        for a in &k.shared {
            let _ = writeln!(
                s,
                "    for (unsigned i = {tid}; i < {}; i += {threads}) {}[i] = 0;",
                a.len,
                ident("s_", &a.name)
            );
        }
        s.push_str("    __syncthreads();\n");
    }
    // 0 at launch, but neither NVRTC nor ptxas can know it, and different in every lane as far as they can
    // tell (see `member_mask`).
    s.push_str("    const unsigned warpsim_zero = warpsim_zero_param * (threadIdx.x + 1);\n");
    // Where each exit records the block's clocks (`warpsim_record`).
    let _ = writeln!(
        s,
        "    unsigned long long *const warpsim_at = &warpsim_clocks[2 * {block_id}];"
    );
    s.push_str("    const long long warpsim_start = warpsim_clock();\n");
    s.push_str(&body);
    s.push_str(
        "    // The end of the program: the threads that reach it exit.\n\
         \x20   warpsim_record(warpsim_at, warpsim_start);\n\
         }\n",
    );
    Ok(CudaKernel {
        name: name.to_string(),
        body: s,
        helpers: e.helpers,
        dynamic_shared_bytes,
        clock_buffers: clock_buffers(k),
    })
}

/// A complete translation unit: the prelude and one kernel, as `sim emit-cuda` prints it.
pub fn translation_unit(k: &CudaKernel) -> String {
    format!(
        "// Generated by warpsim (`sim emit-cuda`): compile with nvcc or NVRTC, --fmad=false for bit-exact floats.\n\
         // Launch with the program's grid and block, its buffers, a zeroed array of 2 unsigned long long per block\n\
         // (each block's first start and last exit clock) and warpsim_zero_param = 0.\n{}\n{}",
        prelude(k.helpers),
        k.body
    )
}
