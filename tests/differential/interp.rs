//! A reference interpreter of warpsim assembly, written from `docs/ISA.md` and PTX's definitions alone, for
//! differential testing against the simulator.
//!
//! It runs the assembled [`Program`] (the parser's AST, not the simulator's decoded `Kernel`) and shares no
//! code with the simulator: its own buffer initialisation, immediate encoding, arithmetic, shuffle network,
//! votes and control flow. Clarity over speed, and no timing at all:
//!
//! * **Warps run one after the other**, each to its end (or its first fault). That is exact for programs
//!   whose warps do not communicate (every thread's memory its own, or shared only within one warp, read-only
//!   tables), which is what the differential test generates; barriers are not supported.
//! * **Divergence** is a recursive walk instead of a stack: at a divergent branch the fall-through lanes run
//!   from the next instruction until they reach the branch's reconvergence point, then the taken lanes run
//!   from the target until they reach it, and the survivors of both go on together from there. This is the
//!   stack model of ISA.md section 6 (fall-through path first; merge at the immediate post-dominator) with the
//!   stack kept by the host's call stack.
//! * **Reconvergence points** are computed here, independently of `warpsim_isa::cfg`: post-dominator sets of
//!   single instructions by the textbook iterative data-flow equations (`pdom(n) = {n} ∪ ⋂ pdom(successors)`),
//!   with `exit` and the end of the program leading to a virtual exit node. A guarded `exit`, and a guarded
//!   branch to the end of the program (an exit too), keeps only its fall-through edge: lanes that exit leave the
//!   warp on their own, and for reconvergence only the lanes that go on matter (ISA.md section 6).
//! * **64-bit values** are written from ISA.md and the PTX ISA here too (`wide`, `convert_any`, `f64_nan`): a
//!   `.reg.b64` register is its row (the low half) and the next (the high half), a 64-bit element two words of
//!   its buffer, low first; integers wrap modulo 2^64, f64 arithmetic is the host's IEEE-754 binary64 (correctly
//!   rounded, as PTX's `.rn`), with ISA.md's NaN rules (the NaN operand quietened, chosen in the order each
//!   instruction gives; the default NaN when no operand is NaN); the directed float roundings step from the
//!   nearest float to its neighbour when it lies on the wrong side of the exact value.
//! * Not supported (a panic names them): `bar.sync`/`bar.red` (they need warps to interleave), `%clock`
//!   (its value is timing), arithmetic with a directed rounding (`add.rz.f32`, …) and the carry chain (`add.cc`,
//!   `addc`, …): the random programs use neither; `simulator/src/alu.rs` and `tests/ptx_lower.rs` test them against
//!   values worked out by hand, and the PTX corpus against the GPU's.

use std::fmt;
use warpsim_isa::{
    AddrMode, Address, AtomOp, BinaryOp, Cmp, ConstExpr, ElemTy, Op, Operand, PredLogicOp, PredOperand, Program,
    ReduxOp, Rounding, ShflMode, ShflSegment, Space, Special, TernaryOp, Ty, UnaryOp, Value, VoteMode,
};

/// The canonical NaN that every f32 arithmetic result that is NaN becomes (ISA.md section 5).
pub const CANONICAL_NAN: u32 = 0x7fff_ffff;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    DivideByZero,
    OutOfBounds {
        buffer: String,
        index: i64,
        store: bool,
    },
    Misaligned {
        buffer: String,
        byte_offset: i64,
        store: bool,
    },
    WarpSync {
        missing: u64,
    },
}

/// The first fault of one warp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub block: u32,
    pub warp: u32,
    pub pc: usize,
    /// The lowest faulting lane, when one lane is to blame.
    pub lane: Option<u32>,
    pub kind: FaultKind,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} in block {}, warp {}, lane {:?}, pc {}",
            self.kind, self.block, self.warp, self.lane, self.pc
        )
    }
}

/// What a run leaves behind.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Every global buffer's final contents, by name, in declaration order. Meaningless if a warp faulted.
    pub buffers: Vec<(String, Vec<u32>)>,
    /// The first fault of each warp that faulted, in (block, warp) order.
    pub faults: Vec<Fault>,
    /// Warp instructions issued (one per instruction per path of a warp, whether or not a lane executes it).
    pub warp_instructions: u64,
    /// Executing lanes summed over the warp instructions.
    pub lane_instructions: u64,
    /// Branches whose executing lanes disagreed.
    pub divergent_branches: u64,
    /// Shuffle lane reads that PTX leaves undefined (a source lane that does not execute, or a lane outside
    /// the member mask); the value is then the source lane's register, as warpsim defines it.
    pub undefined_shuffle_reads: u64,
}

impl Outcome {
    pub fn buffer(&self, name: &str) -> Option<&[u32]> {
        self.buffers.iter().find(|(n, _)| n == name).map(|(_, d)| d.as_slice())
    }
}

/// Run every warp of every block of `program` launched at warp size `w` with the default parameters.
pub fn run(program: &Program, w: u32) -> Outcome {
    let env = Env::new(program, w);
    let reconverge = reconvergence_points(program);
    let mut global: Vec<Vec<u32>> = program.buffers.iter().map(|b| env.init_buffer(b)).collect();
    let words = |e: warpsim_isa::ElemTy| if e.ty().wide() { 2 } else { 1 };
    let mut out = Outcome::default();
    let warps = env.block.div_ceil(w);
    for block in 0..env.grid {
        let mut shared: Vec<Vec<u32>> = env
            .shared_lens
            .iter()
            .zip(&program.shared)
            .map(|(&n, a)| vec![0; n * words(a.elem)])
            .collect();
        for warp in 0..warps {
            let lanes = (env.block - warp * w).min(w);
            let mut state = Warp {
                env: &env,
                program,
                reconverge: &reconverge,
                block,
                warp,
                live: lane_bits(lanes),
                regs: vec![vec![0; w as usize]; program.regs.len()],
                preds: vec![0; program.preds.len()],
                global: &mut global,
                shared: &mut shared,
                out: &mut out,
                steps: 0,
            };
            let live = state.live;
            if let Err(fault) = state.run_path(live, 0, None) {
                state.out.faults.push(fault);
            }
        }
    }
    out.buffers = program.buffers.iter().map(|b| b.name.clone()).zip(global).collect();
    out
}

/// The (x, y, z) index of linear number `n` in `shape`, x fastest (CUDA's order of threads and blocks).
fn unflatten(n: u32, shape: [u32; 3]) -> [u32; 3] {
    [n % shape[0], n / shape[0] % shape[1], n / (shape[0] * shape[1])]
}

/// The lowest `n` lanes.
fn lane_bits(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The launch: warp size, parameters, shape, array sizes.
struct Env {
    w: u32,
    params: Vec<(String, Value)>,
    grid: u32,
    block: u32,
    /// The shapes (x, y, z) whose products are `grid` and `block`.
    grid_dim: [u32; 3],
    block_dim: [u32; 3],
    shared_lens: Vec<usize>,
}

impl Env {
    fn new(p: &Program, w: u32) -> Env {
        let mut env = Env {
            w,
            params: Vec::new(),
            grid: 1,
            block: w,
            grid_dim: [1; 3],
            block_dim: [w, 1, 1],
            shared_lens: Vec::new(),
        };
        for decl in &p.params {
            let v = decl
                .default
                .eval(&|n| env.var(n))
                .unwrap_or_else(|e| panic!("parameter {}: {e:?}", decl.name));
            env.params.push((decl.name.clone(), v));
        }
        let dims = |env: &Env, exprs: &[ConstExpr]| {
            let mut d = [1u32; 3];
            for (k, e) in exprs.iter().enumerate() {
                d[k] = u32::try_from(env.int(e)).expect("a component fits 32 bits");
            }
            d
        };
        if let Some(g) = &p.grid {
            env.grid_dim = dims(&env, g);
        }
        if let Some(b) = &p.block {
            env.block_dim = dims(&env, b);
        }
        env.grid = env.grid_dim.iter().product();
        env.block = env.block_dim.iter().product();
        // The dynamic array has no elements without `--dynamic-shared`.
        env.shared_lens = p
            .shared
            .iter()
            .map(|s| {
                s.len
                    .as_ref()
                    .map_or(0, |l| usize::try_from(env.int(l)).expect("a length"))
            })
            .collect();
        env
    }

    fn var(&self, name: &str) -> Option<Value> {
        if name == "W" {
            return Some(Value::Int(i64::from(self.w)));
        }
        self.params.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// An integer constant expression.
    fn int(&self, e: &ConstExpr) -> i64 {
        match e.eval(&|n| self.var(n)) {
            Ok(Value::Int(v)) => v,
            other => panic!("`{e}` is not an integer: {other:?}"),
        }
    }

    /// An immediate as a 32-bit operand of type `ty` (ISA.md section 3, "Converting the value to an operand").
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the ISA's conversion: a float rounds to f32; an integer in -2^31..=u32::MAX (asserted) keeps its \
                  low 32 bits, a negative one its two's complement"
    )]
    fn imm(&self, e: &ConstExpr, ty: Ty) -> u32 {
        if ty == Ty::F32 {
            let v = e
                .eval_float(&|n| self.var(n))
                .unwrap_or_else(|err| panic!("`{e}`: {err:?}"));
            (v.as_f64() as f32).to_bits()
        } else {
            let v = self.int(e);
            assert!(
                (-(1i64 << 31)..=i64::from(u32::MAX)).contains(&v),
                "immediate {v} out of range"
            );
            v as u32
        }
    }

    /// A buffer's initial contents: the default for every element, then the overrides in order.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_possible_wrap,
        reason = "the length and indices are asserted in 0..len; an f32 initialiser rounds to f32, an integer one is \
                  asserted in its element's range and kept as its 32 bits"
    )]
    fn init_buffer(&self, b: &warpsim_isa::BufferDecl) -> Vec<u32> {
        let len = self.int(&b.len);
        assert!(len >= 0);
        if b.elem.ty().wide() {
            return self.init_buffer64(b, len);
        }
        let Some(init) = &b.init else {
            return vec![0; len as usize];
        };
        let value = |e: &ConstExpr, i: i64| -> u32 {
            let lookup = |n: &str| match n {
                "i" => Some(Value::Int(i)),
                "len" => Some(Value::Int(len)),
                _ => self.var(n),
            };
            if b.elem == ElemTy::F32 {
                (e.eval_float(&lookup).expect("f32 initialiser").as_f64() as f32).to_bits()
            } else {
                match e.eval(&lookup) {
                    Ok(Value::Int(v)) => {
                        let ok = if b.elem == ElemTy::U32 {
                            (0..=i64::from(u32::MAX)).contains(&v)
                        } else {
                            (i64::from(i32::MIN)..=i64::from(i32::MAX)).contains(&v)
                        };
                        assert!(ok, "initialiser value {v} out of range for {}", b.elem.name());
                        v as u32
                    }
                    other => panic!("integer initialiser gave {other:?}"),
                }
            }
        };
        let index = |e: &ConstExpr| -> i64 {
            match e.eval(&|n| if n == "len" { Some(Value::Int(len)) } else { self.var(n) }) {
                Ok(Value::Int(v)) => v,
                other => panic!("initialiser index gave {other:?}"),
            }
        };
        let mut data: Vec<u32> = (0..len).map(|i| value(&init.default, i)).collect();
        for o in &init.overrides {
            match o {
                warpsim_isa::InitOverride::One { index: k, value: v } => {
                    let k = index(k);
                    assert!((0..len).contains(&k));
                    data[k as usize] = value(v, k);
                }
                warpsim_isa::InitOverride::List { start, end, values } => {
                    let a = index(start);
                    if let Some(end) = end {
                        assert_eq!(index(end) - a, values.len() as i64, "`[a..b]` needs b - a values");
                    }
                    for (j, v) in values.iter().enumerate() {
                        let k = a + j as i64;
                        if k >= len {
                            break; // `[a..] = [...]`: values past the end are ignored
                        }
                        data[k as usize] = value(v, k);
                    }
                }
            }
        }
        data
    }
}

impl Env {
    /// A 64-bit immediate of type `ty` (ISA.md section 2): an f64 operand's value in double precision; an
    /// integer's two's complement bits.
    fn imm64(&self, e: &ConstExpr, ty: Ty) -> u64 {
        if ty == Ty::F64 {
            e.eval_float(&|n| self.var(n))
                .unwrap_or_else(|err| panic!("`{e}`: {err:?}"))
                .as_f64()
                .to_bits()
        } else {
            self.int(e).cast_unsigned()
        }
    }

    /// A buffer of 64-bit elements: each element two words, the low one first; f64 values in double precision,
    /// integers as their bits (a u64 value must not be negative).
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_possible_wrap,
        reason = "the length and indices are asserted in 0..len"
    )]
    fn init_buffer64(&self, b: &warpsim_isa::BufferDecl, len: i64) -> Vec<u32> {
        let mut data = vec![0u64; len as usize];
        if let Some(init) = &b.init {
            let value = |e: &ConstExpr, i: i64| -> u64 {
                let lookup = |n: &str| match n {
                    "i" => Some(Value::Int(i)),
                    "len" => Some(Value::Int(len)),
                    _ => self.var(n),
                };
                if b.elem == ElemTy::F64 {
                    e.eval_float(&lookup).expect("f64 initialiser").as_f64().to_bits()
                } else {
                    match e.eval(&lookup) {
                        Ok(Value::Int(v)) => {
                            assert!(b.elem == ElemTy::S64 || v >= 0, "u64 initialiser {v}");
                            v.cast_unsigned()
                        }
                        other => panic!("integer initialiser gave {other:?}"),
                    }
                }
            };
            let index = |e: &ConstExpr| -> i64 {
                match e.eval(&|n| if n == "len" { Some(Value::Int(len)) } else { self.var(n) }) {
                    Ok(Value::Int(v)) => v,
                    other => panic!("initialiser index gave {other:?}"),
                }
            };
            for (i, d) in data.iter_mut().enumerate() {
                *d = value(&init.default, i as i64);
            }
            for o in &init.overrides {
                match o {
                    warpsim_isa::InitOverride::One { index: k, value: v } => {
                        let k = index(k);
                        assert!((0..len).contains(&k));
                        data[k as usize] = value(v, k);
                    }
                    warpsim_isa::InitOverride::List { start, values, .. } => {
                        let a = index(start);
                        for (j, v) in values.iter().enumerate() {
                            let k = a + j as i64;
                            if k >= len {
                                break;
                            }
                            data[k as usize] = value(v, k);
                        }
                    }
                }
            }
        }
        data.iter().flat_map(|&v| [v as u32, (v >> 32) as u32]).collect()
    }
}

/// The successors of each instruction in the control-flow graph; `n` (the instruction count) is the virtual
/// exit.
fn successors(p: &Program) -> Vec<Vec<usize>> {
    let n = p.instructions.len();
    let node = |pc: usize| pc.min(n);
    p.instructions
        .iter()
        .enumerate()
        .map(|(pc, inst)| {
            let guarded = inst.guard.is_some();
            let mut s = match inst.op {
                Op::Bra { target } if guarded && target >= n => vec![node(pc + 1)],
                Op::Bra { target } if guarded => vec![node(target), node(pc + 1)],
                Op::Bra { target } => vec![node(target)],
                Op::Exit if guarded => vec![node(pc + 1)],
                Op::Exit => vec![n],
                _ => vec![node(pc + 1)],
            };
            s.dedup();
            s
        })
        .collect()
}

/// For every instruction, its immediate post-dominator, `None` when that is the virtual exit (the paths meet
/// only by exiting). Only branches use it.
pub fn reconvergence_points(p: &Program) -> Vec<Option<usize>> {
    let n = p.instructions.len();
    let succ = successors(p);
    let words = (n + 1).div_ceil(64);
    let full = vec![u64::MAX; words];
    let set = |s: &mut Vec<u64>, k: usize| s[k / 64] |= 1 << (k % 64);
    let has = |s: &[u64], k: usize| s[k / 64] >> (k % 64) & 1 == 1;
    let mut pdom = vec![full.clone(); n + 1];
    pdom[n] = vec![0; words];
    set(&mut pdom[n], n);
    let mut changed = true;
    while changed {
        changed = false;
        for pc in (0..n).rev() {
            let mut new = full.clone();
            for &s in &succ[pc] {
                for (a, b) in new.iter_mut().zip(&pdom[s]) {
                    *a &= b;
                }
            }
            set(&mut new, pc);
            if new != pdom[pc] {
                pdom[pc] = new;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|pc| {
            // The immediate post-dominator is the strict post-dominator whose own post-dominators are all the
            // strict post-dominators of pc.
            let mut strict = pdom[pc].clone();
            strict[pc / 64] &= !(1 << (pc % 64));
            (0..=n)
                .filter(|&d| has(&strict, d))
                .find(|&d| pdom[d] == strict)
                .filter(|&d| d != n)
        })
        .collect()
}

/// One warp being run.
#[allow(
    clippy::struct_field_names,
    reason = "`warp` is the warp's number in its block, as the trace names it"
)]
struct Warp<'a> {
    env: &'a Env,
    program: &'a Program,
    reconverge: &'a [Option<usize>],
    block: u32,
    warp: u32,
    /// Lanes that have not exited.
    live: u64,
    /// `regs[r][lane]`.
    regs: Vec<Vec<u32>>,
    /// `preds[p]`: bit `lane`.
    preds: Vec<u64>,
    global: &'a mut Vec<Vec<u32>>,
    shared: &'a mut Vec<Vec<u32>>,
    out: &'a mut Outcome,
    steps: u64,
}

fn bit(mask: u64, lane: u32) -> bool {
    mask >> lane & 1 == 1
}

fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

/// An f32 arithmetic result: NaN is always the canonical NaN.
fn canon(x: f32) -> u32 {
    if x.is_nan() { CANONICAL_NAN } else { x.to_bits() }
}

/// PTX `min.f32`: a NaN operand gives the other operand, two NaNs the canonical NaN, and -0.0 < +0.0.
fn fmin(a: u32, b: u32) -> u32 {
    let (x, y) = (f(a), f(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        _ if x < y => a,
        _ if y < x => b,
        // Equal: only the zeros differ in bits; the negative one is smaller.
        _ => a | b,
    }
}

/// PTX `max.f32`, the mirror of [`fmin`].
fn fmax(a: u32, b: u32) -> u32 {
    let (x, y) = (f(a), f(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => CANONICAL_NAN,
        (true, false) => b,
        (false, true) => a,
        _ if x > y => a,
        _ if y > x => b,
        _ => a & b,
    }
}

/// `setp.CMP.T`: f32 comparisons are ordered (false if either is NaN), `.b32` compares as unsigned.
fn compare(cmp: Cmp, ty: Ty, a: u32, b: u32) -> bool {
    use std::cmp::Ordering;
    let ord = match ty {
        Ty::F32 => match f(a).partial_cmp(&f(b)) {
            Some(o) => o,
            None => return false,
        },
        Ty::S32 => a.cast_signed().cmp(&b.cast_signed()),
        Ty::U32 | Ty::B32 => a.cmp(&b),
        Ty::F64 | Ty::S64 | Ty::U64 | Ty::B64 => panic!("64-bit comparisons are not interpreted"),
    };
    match cmp {
        Cmp::Eq => ord == Ordering::Equal,
        Cmp::Ne => ord != Ordering::Equal,
        Cmp::Lt => ord == Ordering::Less,
        Cmp::Le => ord != Ordering::Greater,
        Cmp::Gt => ord == Ordering::Greater,
        Cmp::Ge => ord != Ordering::Less,
    }
}

/// Integer and f32 two-operand arithmetic; `None` for an integer division by zero.
fn binary(op: BinaryOp, ty: Ty, a: u32, b: u32) -> Option<u32> {
    let signed = ty == Ty::S32;
    assert!(
        !ty.wide() && !matches!(op, BinaryOp::MulHi | BinaryOp::MulWide),
        "64-bit arithmetic is not interpreted"
    );
    Some(match (op, ty) {
        (BinaryOp::MulHi | BinaryOp::MulWide, _) => unreachable!("refused above"),
        (BinaryOp::Add, Ty::F32) => canon(f(a) + f(b)),
        (BinaryOp::Sub, Ty::F32) => canon(f(a) - f(b)),
        (BinaryOp::Mul, Ty::F32) => canon(f(a) * f(b)),
        (BinaryOp::Div, Ty::F32) => canon(f(a) / f(b)),
        (BinaryOp::Min, Ty::F32) => fmin(a, b),
        (BinaryOp::Max, Ty::F32) => fmax(a, b),
        // `b` with `a`'s sign, bit by bit.
        (BinaryOp::CopySign, Ty::F32) => (b & 0x7fff_ffff) | (a & 0x8000_0000),
        (_, Ty::F32) | (BinaryOp::CopySign, _) => panic!("{op:?}.{} is not an instruction", ty.name()),
        (BinaryOp::Add, _) => a.wrapping_add(b),
        (BinaryOp::Sub, _) => a.wrapping_sub(b),
        (BinaryOp::Mul, _) => a.wrapping_mul(b),
        (BinaryOp::Div | BinaryOp::Rem, _) if b == 0 => return None,
        // -2^31 / -1 wraps to -2^31 and its remainder is 0.
        (BinaryOp::Div, _) if signed => a.cast_signed().wrapping_div(b.cast_signed()).cast_unsigned(),
        (BinaryOp::Div, _) => a / b,
        (BinaryOp::Rem, _) if signed => a.cast_signed().wrapping_rem(b.cast_signed()).cast_unsigned(),
        (BinaryOp::Rem, _) => a % b,
        (BinaryOp::Min, _) if signed => a.cast_signed().min(b.cast_signed()).cast_unsigned(),
        (BinaryOp::Min, _) => a.min(b),
        (BinaryOp::Max, _) if signed => a.cast_signed().max(b.cast_signed()).cast_unsigned(),
        (BinaryOp::Max, _) => a.max(b),
        (BinaryOp::And, _) => a & b,
        (BinaryOp::Or, _) => a | b,
        (BinaryOp::Xor, _) => a ^ b,
        // Shift amounts are clamped, not taken modulo 32.
        (BinaryOp::Shl, _) => {
            if b >= 32 {
                0
            } else {
                a << b
            }
        }
        (BinaryOp::Shr, _) if signed => (a.cast_signed() >> b.min(31)).cast_unsigned(),
        (BinaryOp::Shr, _) => {
            if b >= 32 {
                0
            } else {
                a >> b
            }
        }
    })
}

fn unary(op: UnaryOp, ty: Ty, a: u32) -> u32 {
    match (op, ty) {
        // neg and abs of f32 only touch the sign bit, of NaN too.
        (UnaryOp::Neg, Ty::F32) => a ^ 0x8000_0000,
        (UnaryOp::Abs, Ty::F32) => a & 0x7fff_ffff,
        (UnaryOp::Neg, _) => a.cast_signed().wrapping_neg().cast_unsigned(),
        (UnaryOp::Abs, _) => a.cast_signed().wrapping_abs().cast_unsigned(),
        (UnaryOp::Not, _) => !a,
        (UnaryOp::Sqrt, _) => panic!("sqrt is not interpreted"),
        (UnaryOp::Popc, _) => a.count_ones(),
        (UnaryOp::Clz, _) => a.leading_zeros(),
        (UnaryOp::Brev, _) => a.reverse_bits(),
        (UnaryOp::Bfind | UnaryOp::BfindShift, _) => {
            // PTX: the most significant bit that differs from the sign (signed) or is set (unsigned).
            let x = if ty == Ty::S32 && a >> 31 == 1 { !a } else { a };
            match (0..32).rev().find(|&i| x >> i & 1 == 1) {
                None => u32::MAX,
                Some(i) if op == UnaryOp::BfindShift => 31 - i,
                Some(i) => i,
            }
        }
    }
}

/// `bfe.{u32,s32}`, bit by bit as PTX's pseudo-code writes it.
fn bfe32(signed: bool, a: u32, b: u32, c: u32) -> u32 {
    let (pos, len) = (b & 0xff, c & 0xff);
    let sbit = if signed && len != 0 {
        a >> (pos + len - 1).min(31) & 1
    } else {
        0
    };
    (0..32).fold(0, |d, i| {
        let bit = if i < len && pos + i <= 31 {
            a >> (pos + i) & 1
        } else {
            sbit
        };
        d | bit << i
    })
}

/// `prmt.b32` in its default mode, byte by byte.
fn prmt(a: u32, b: u32, c: u32) -> u32 {
    let bytes = [a, a >> 8, a >> 16, a >> 24, b, b >> 8, b >> 16, b >> 24].map(|x| x & 0xff);
    (0..4).fold(0, |d, n| {
        let sel = (c >> (4 * n)) & 0xf;
        let v = bytes[(sel & 7) as usize];
        let v = if sel & 8 != 0 {
            if v & 0x80 != 0 { 0xff } else { 0 }
        } else {
            v
        };
        d | v << (8 * n)
    })
}

fn ternary(ty: Ty, a: u32, b: u32, c: u32) -> u32 {
    if ty == Ty::F32 {
        // mad.f32 and fma.f32 are both fused: one rounding.
        canon(f(a).mul_add(f(b), f(c)))
    } else {
        a.wrapping_mul(b).wrapping_add(c)
    }
}

/// Round an f64 holding an f32 value to an integral value.
fn round(x: f64, r: Rounding) -> f64 {
    match r {
        Rounding::Nearest => x.round_ties_even(),
        Rounding::Zero => x.trunc(),
        Rounding::Down => x.floor(),
        Rounding::Up => x.ceil(),
        Rounding::NearestFloat | Rounding::FloatZero | Rounding::FloatDown | Rounding::FloatUp => {
            panic!("`.{}` does not round to an integer", r.name())
        }
    }
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    reason = "cvt's own conversions: a rounded value clamped to the integer type's range, then converted (exact); an \
              integral value back to f32 (exact); an integer to the nearest f32, as cvt.rn.f32 rounds"
)]
fn convert(r: Rounding, to: Ty, from: Ty, a: u32) -> u32 {
    match (to, from) {
        (Ty::S32, Ty::F32) => {
            let x = f64::from(f(a));
            if x.is_nan() {
                0
            } else {
                (round(x, r).clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32).cast_unsigned()
            }
        }
        (Ty::U32, Ty::F32) => {
            let x = f64::from(f(a));
            if x.is_nan() {
                0
            } else {
                round(x, r).clamp(0.0, f64::from(u32::MAX)) as u32
            }
        }
        (Ty::F32, Ty::F32) => {
            let x = f(a);
            if x.is_nan() {
                CANONICAL_NAN
            } else {
                // An f32 rounded to an integral value is still an f32 (exactly representable).
                (round(f64::from(x), r) as f32).to_bits()
            }
        }
        (Ty::F32, Ty::S32) => (a.cast_signed() as f32).to_bits(),
        (Ty::F32, Ty::U32) => (a as f32).to_bits(),
        // Between the integer views the bits stay.
        _ => a,
    }
}

/// A subnormal flushed to zero of its sign (what f32 `atom.add` does to its operands and result in global memory).
fn flush(x: f32) -> f32 {
    if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
        if x < 0.0 { -0.0 } else { 0.0 }
    } else {
        x
    }
}

fn atomic(op: AtomOp, ty: Ty, space: Space, old: u32, b: u32, c: u32) -> u32 {
    let signed = ty == Ty::S32;
    match op {
        AtomOp::Add if ty == Ty::F32 && space == Space::Global => canon(flush(flush(f(old)) + flush(f(b)))),
        AtomOp::Add if ty == Ty::F32 => canon(f(old) + f(b)),
        AtomOp::Add => old.wrapping_add(b),
        AtomOp::Min if ty == Ty::F32 => fmin(old, b),
        AtomOp::Max if ty == Ty::F32 => fmax(old, b),
        AtomOp::Min if signed => old.cast_signed().min(b.cast_signed()).cast_unsigned(),
        AtomOp::Max if signed => old.cast_signed().max(b.cast_signed()).cast_unsigned(),
        AtomOp::Min => old.min(b),
        AtomOp::Max => old.max(b),
        AtomOp::Exch => b,
        AtomOp::Inc => {
            if old >= b {
                0
            } else {
                old + 1
            }
        }
        AtomOp::Dec => {
            if old == 0 || old > b {
                b
            } else {
                old - 1
            }
        }
        AtomOp::Cas => {
            if old == b {
                c
            } else {
                old
            }
        }
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
    }
}

impl Warp<'_> {
    fn w(&self) -> u32 {
        self.env.w
    }

    fn fault(&self, pc: usize, lane: Option<u32>, kind: FaultKind) -> Fault {
        Fault {
            block: self.block,
            warp: self.warp,
            pc,
            lane,
            kind,
        }
    }

    fn special(&self, s: Special, lane: u32) -> u32 {
        let w = self.w();
        // The 32-bit lane masks; at W = 64 lanes 32-63 have no bit.
        let below = |n: u32| if n >= 32 { u32::MAX } else { (1u32 << n) - 1 };
        match s {
            Special::LaneId => lane,
            Special::TidX => unflatten(self.warp * w + lane, self.env.block_dim)[0],
            Special::TidY => unflatten(self.warp * w + lane, self.env.block_dim)[1],
            Special::TidZ => unflatten(self.warp * w + lane, self.env.block_dim)[2],
            Special::NtidX => self.env.block_dim[0],
            Special::NtidY => self.env.block_dim[1],
            Special::NtidZ => self.env.block_dim[2],
            Special::CtaidX => unflatten(self.block, self.env.grid_dim)[0],
            Special::CtaidY => unflatten(self.block, self.env.grid_dim)[1],
            Special::CtaidZ => unflatten(self.block, self.env.grid_dim)[2],
            Special::NctaidX => self.env.grid_dim[0],
            Special::NctaidY => self.env.grid_dim[1],
            Special::NctaidZ => self.env.grid_dim[2],
            Special::WarpId => self.warp,
            Special::NWarpId => self.env.block.div_ceil(w),
            Special::WarpSize => w,
            Special::LanemaskEq => below(lane + 1) & !below(lane),
            Special::LanemaskLt => below(lane),
            Special::LanemaskLe => below(lane + 1),
            Special::LanemaskGt => !below(lane + 1),
            Special::LanemaskGe => !below(lane),
            Special::Clock | Special::Clock64 => panic!("the reference has no clock"),
            Special::SmId | Special::NSmId | Special::DynamicSmemSize | Special::TotalSmemSize => {
                panic!("the reference has no SMs or shared memory sizes")
            }
        }
    }

    /// An operand's value in every lane, read as type `ty`.
    fn row(&self, o: &Operand, ty: Ty) -> Vec<u32> {
        match o {
            Operand::Reg(r) => self.regs[r.0 as usize].clone(),
            Operand::Special(s) => (0..self.w()).map(|l| self.special(*s, l)).collect(),
            Operand::Imm(e) => vec![self.env.imm(e, ty); self.w() as usize],
        }
    }

    fn pred_row(&self, p: PredOperand) -> u64 {
        let v = self.preds[p.pred.0 as usize];
        if p.negated { !v } else { v }
    }

    /// A member mask (vote, match, shuffle, bar.warp.sync): bits at or above W are ignored; default all lanes.
    /// A register mask is each executing lane's 32-bit value; where they differ (undefined in PTX) the union.
    fn member_mask(&self, m: Option<&Operand>, exec: u64) -> u64 {
        let all = lane_bits(self.w());
        match m {
            None => all,
            Some(Operand::Imm(e)) => self.env.int(e).cast_unsigned() & all,
            Some(o) => {
                let row = self.row(o, Ty::U32);
                (0..self.w())
                    .filter(|&l| bit(exec, l))
                    .fold(0, |m, l| m | u64::from(row[l as usize]))
                    & all
            }
        }
    }

    fn write(&mut self, d: warpsim_isa::Reg, exec: u64, values: &[u32]) {
        for lane in 0..self.w() {
            if bit(exec, lane) {
                self.regs[d.0 as usize][lane as usize] = values[lane as usize];
            }
        }
    }

    fn write_pred(&mut self, p: warpsim_isa::Pred, exec: u64, values: u64) {
        let old = self.preds[p.0 as usize];
        self.preds[p.0 as usize] = (old & !exec) | (values & exec);
    }

    /// Elements of the addressed buffer or array.
    fn len(&self, addr: &Address) -> usize {
        let words = match addr.space {
            Space::Shared => self.shared[addr.buffer].len(),
            _ => self.global[addr.buffer].len(),
        };
        words / self.elem_words(addr)
    }

    /// Words per element of the addressed buffer or array: 1, or 2 for a 64-bit element.
    fn elem_words(&self, addr: &Address) -> usize {
        let elem = match addr.space {
            Space::Shared => self.program.shared[addr.buffer].elem,
            _ => self.program.buffers[addr.buffer].elem,
        };
        if elem.ty().wide() { 2 } else { 1 }
    }

    fn name(&self, addr: &Address) -> String {
        match addr.space {
            Space::Shared => self.program.shared[addr.buffer].name.clone(),
            _ => self.program.buffers[addr.buffer].name.clone(),
        }
    }

    /// The element each executing lane addresses, checked lane by lane (the lowest faulting lane is reported).
    fn elements(&self, pc: usize, addr: &Address, exec: u64, store: bool) -> Result<Vec<usize>, Fault> {
        let base = addr.base.as_ref().map(|b| self.row(b, Ty::S32));
        let disp = addr.disp.as_ref().map_or(0, |d| self.env.int(d));
        let len = i64::try_from(self.len(addr)).expect("a buffer's length");
        let mut at = vec![0; self.w() as usize];
        for lane in (0..self.w()).filter(|&l| bit(exec, l)) {
            // The register part is a signed 32-bit integer.
            let offset = base.as_ref().map_or(0, |b| i64::from(b[lane as usize].cast_signed())) + disp;
            let size = 4 * i64::try_from(self.elem_words(addr)).expect("1 or 2");
            let index = match addr.mode {
                AddrMode::Element => offset,
                AddrMode::Byte => {
                    if offset % size != 0 {
                        let kind = FaultKind::Misaligned {
                            buffer: self.name(addr),
                            byte_offset: offset,
                            store,
                        };
                        return Err(self.fault(pc, Some(lane), kind));
                    }
                    offset / size
                }
                AddrMode::Flat => unreachable!("the random generator writes no flat (PTX) address"),
            };
            if !(0..len).contains(&index) {
                let kind = FaultKind::OutOfBounds {
                    buffer: self.name(addr),
                    index,
                    store,
                };
                return Err(self.fault(pc, Some(lane), kind));
            }
            at[lane as usize] = usize::try_from(index).expect("checked in 0..len");
        }
        Ok(at)
    }

    /// An 8- or 16-bit access's word and byte in it for every executing lane (a byte offset into the array,
    /// aligned to the access's size).
    fn bytes_at(
        &self,
        pc: usize,
        addr: &Address,
        exec: u64,
        store: bool,
        n: warpsim_isa::Narrow,
    ) -> Result<Vec<(usize, u32)>, Fault> {
        let base = addr.base.as_ref().map(|b| self.row(b, Ty::S32));
        let disp = addr.disp.as_ref().map_or(0, |d| self.env.int(d));
        let words = i64::try_from(self.len(addr) * self.elem_words(addr)).expect("a buffer's length");
        let size = i64::from(n.bytes);
        let mut at = vec![(0, 0); self.w() as usize];
        for lane in (0..self.w()).filter(|&l| bit(exec, l)) {
            let offset = base.as_ref().map_or(0, |b| i64::from(b[lane as usize].cast_signed())) + disp;
            if offset % size != 0 {
                let kind = FaultKind::Misaligned {
                    buffer: self.name(addr),
                    byte_offset: offset,
                    store,
                };
                return Err(self.fault(pc, Some(lane), kind));
            }
            if !(0..words * 4).contains(&offset) {
                let kind = FaultKind::OutOfBounds {
                    buffer: self.name(addr),
                    index: offset.div_euclid(size),
                    store,
                };
                return Err(self.fault(pc, Some(lane), kind));
            }
            let byte = u32::try_from(offset % 4).expect("0..4");
            at[lane as usize] = (usize::try_from(offset / 4).expect("checked"), byte);
        }
        Ok(at)
    }

    fn memory(&mut self, space: Space) -> &mut Vec<Vec<u32>> {
        match space {
            Space::Shared => self.shared,
            _ => self.global,
        }
    }

    /// Run the lanes `mask` from `pc` until they reach `stop` (their reconvergence point) or all exit; the lanes
    /// still live at `stop` are returned.
    fn run_path(&mut self, mut mask: u64, mut pc: usize, stop: Option<usize>) -> Result<u64, Fault> {
        let n = self.program.instructions.len();
        loop {
            mask &= self.live;
            if mask == 0 {
                return Ok(0);
            }
            if Some(pc) == stop {
                return Ok(mask);
            }
            if pc >= n {
                // Falling off the end is an exit.
                self.live &= !mask;
                return Ok(0);
            }
            self.steps += 1;
            assert!(self.steps < 5_000_000, "the reference ran too long: an endless loop?");
            let inst = &self.program.instructions[pc];
            let exec = match inst.guard {
                None => mask,
                Some(g) => {
                    let p = self.preds[g.pred.0 as usize];
                    mask & if g.negated { !p } else { p }
                }
            };
            self.out.warp_instructions += 1;
            self.out.lane_instructions += u64::from(exec.count_ones());
            match inst.op {
                Op::Bra { target } => {
                    let fall = mask & !exec;
                    if fall == 0 {
                        pc = target;
                    } else if exec == 0 {
                        pc += 1;
                    } else {
                        self.out.divergent_branches += 1;
                        let r = self.reconverge[pc];
                        let a = self.run_path(fall, pc + 1, r)?;
                        let b = self.run_path(exec, target, r)?;
                        match r {
                            Some(r) => {
                                mask = a | b;
                                pc = r;
                            }
                            // The paths meet only at the exit: every lane has exited.
                            None => return Ok(0),
                        }
                    }
                }
                Op::Exit => {
                    self.live &= !exec;
                    mask &= !exec;
                    pc += 1;
                }
                _ => {
                    self.execute(pc, exec)?;
                    pc += 1;
                }
            }
        }
    }

    /// Every instruction but the control flow, on the executing lanes `exec`.
    fn execute(&mut self, pc: usize, exec: u64) -> Result<(), Fault> {
        let program = self.program;
        let w = self.w();
        let lanes = move || (0..w).filter(move |&l| bit(exec, l));
        if is_wide(&program.instructions[pc].op) {
            return self.wide(pc, exec);
        }
        match &program.instructions[pc].op {
            Op::Mov { ty, d, a } => {
                let a = self.row(a, *ty);
                self.write(*d, exec, &a);
            }
            Op::Unary { op, ty, d, a } => {
                let a = self.row(a, *ty);
                let v: Vec<u32> = a.iter().map(|&a| unary(*op, *ty, a)).collect();
                self.write(*d, exec, &v);
            }
            Op::Binary { op, ty, d, a, b } => {
                let a = self.row(a, *ty);
                // Shift amounts are always read as .u32 (the same bits for every integer type).
                let b = self.row(
                    b,
                    if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                        Ty::U32
                    } else {
                        *ty
                    },
                );
                let mut v = vec![0; w as usize];
                for lane in lanes() {
                    let l = lane as usize;
                    v[l] = binary(*op, *ty, a[l], b[l])
                        .ok_or_else(|| self.fault(pc, Some(lane), FaultKind::DivideByZero))?;
                }
                self.write(*d, exec, &v);
            }
            Op::Bfi { ty, d, a, b, pos, len } => {
                let (a, b) = (self.row(a, *ty), self.row(b, *ty));
                let (p, n) = (self.row(pos, Ty::U32), self.row(len, Ty::U32));
                let v: Vec<u32> = (0..w as usize)
                    .map(|l| {
                        let bits = bfi_bits(u64::from(a[l]), u64::from(b[l]), p[l], n[l], 32);
                        u32::try_from(bits).expect("32 bits")
                    })
                    .collect();
                self.write(*d, exec, &v);
            }
            Op::Ternary {
                op: op @ (TernaryOp::Bfe | TernaryOp::Prmt | TernaryOp::Fns),
                ty,
                d,
                a,
                b,
                c,
            } => {
                let (a, b, c) = (self.row(a, *ty), self.row(b, Ty::U32), self.row(c, Ty::U32));
                let v: Vec<u32> = (0..w as usize)
                    .map(|l| match op {
                        TernaryOp::Bfe => bfe32(*ty == Ty::S32, a[l], b[l], c[l]),
                        TernaryOp::Fns => fns(a[l], b[l], c[l].cast_signed()),
                        _ => prmt(a[l], b[l], c[l]),
                    })
                    .collect();
                self.write(*d, exec, &v);
            }
            Op::Ternary {
                op: op @ (TernaryOp::Dp4a { .. } | TernaryOp::Dp2a { .. } | TernaryOp::Lop3(_)),
                d,
                a,
                b,
                c,
                ..
            } => {
                let (a, b, c) = (self.row(a, Ty::U32), self.row(b, Ty::U32), self.row(c, Ty::U32));
                let v: Vec<u32> = (0..w as usize).map(|l| dot_or_lop3(*op, a[l], b[l], c[l])).collect();
                self.write(*d, exec, &v);
            }
            Op::Ternary { op, ty, d, a, b, c } => {
                assert!(*op == TernaryOp::Mad || *ty == Ty::F32, "fma is f32 only");
                let (a, b, c) = (self.row(a, *ty), self.row(b, *ty), self.row(c, *ty));
                let v: Vec<u32> = (0..w as usize).map(|l| ternary(*ty, a[l], b[l], c[l])).collect();
                self.write(*d, exec, &v);
            }
            Op::Setp { cmp, ftz, ty, p, a, b } => {
                // `.ftz`: an f32 subnormal compares as a zero of its sign.
                let flush = |x: u32| {
                    if *ftz && x & 0x7f80_0000 == 0 {
                        x & 0x8000_0000
                    } else {
                        x
                    }
                };
                let (a, b) = (self.row(a, *ty), self.row(b, *ty));
                let v = lanes()
                    .filter(|&l| compare(*cmp, *ty, flush(a[l as usize]), flush(b[l as usize])))
                    .fold(0u64, |m, l| m | 1 << l);
                self.write_pred(*p, exec, v);
            }
            Op::PredLogic { op, d, a, b } => {
                let a = self.pred_row(*a);
                let b = b.map(|b| self.pred_row(b));
                let v = match (op, b) {
                    (PredLogicOp::And, Some(b)) => a & b,
                    (PredLogicOp::Or, Some(b)) => a | b,
                    (PredLogicOp::Xor, Some(b)) => a ^ b,
                    (PredLogicOp::Not, None) => !a,
                    other => panic!("malformed predicate logic {other:?}"),
                };
                self.write_pred(*d, exec, v);
            }
            Op::Selp { ty, d, a, b, p } => {
                let (a, b) = (self.row(a, *ty), self.row(b, *ty));
                let p = self.preds[p.0 as usize];
                let v: Vec<u32> = (0..w)
                    .map(|l| if bit(p, l) { a[l as usize] } else { b[l as usize] })
                    .collect();
                self.write(*d, exec, &v);
            }
            Op::Cvt {
                rounding,
                to,
                from,
                d,
                a,
            } => {
                let a = self.row(a, *from);
                let v: Vec<u32> = a.iter().map(|&a| convert(*rounding, *to, *from, a)).collect();
                self.write(*d, exec, &v);
            }
            Op::Ld {
                d,
                addr,
                narrow: Some(n),
                ..
            } => {
                let at = self.bytes_at(pc, addr, exec, false, *n)?;
                let mem = &self.memory(addr.space)[addr.buffer];
                let bits = n.bits();
                let v: Vec<u32> = at
                    .iter()
                    .map(|&(i, byte)| {
                        let raw = mem[i] >> (8 * byte);
                        if n.signed {
                            ((raw << (32 - bits)).cast_signed() >> (32 - bits)).cast_unsigned()
                        } else {
                            raw & ((1u32 << bits) - 1)
                        }
                    })
                    .collect();
                self.write(*d, exec, &v);
            }
            Op::St {
                ty,
                addr,
                a,
                narrow: Some(n),
            } => {
                let a = self.row(a, *ty);
                let at = self.bytes_at(pc, addr, exec, true, *n)?;
                let mem = &mut self.memory(addr.space)[addr.buffer];
                let low = (1u32 << n.bits()) - 1;
                for l in lanes() {
                    let (i, byte) = at[l as usize];
                    let mask = low << (8 * byte);
                    mem[i] = (mem[i] & !mask) | ((a[l as usize] << (8 * byte)) & mask);
                }
            }
            Op::Ld { d, addr, .. } => {
                let at = self.elements(pc, addr, exec, false)?;
                let mem = &self.memory(addr.space)[addr.buffer];
                let v: Vec<u32> = at.iter().map(|&i| mem[i]).collect();
                self.write(*d, exec, &v);
            }
            Op::St { ty, addr, a, .. } => {
                let a = self.row(a, *ty);
                // Every lane is checked before any writes; the highest lane writes last and wins.
                let at = self.elements(pc, addr, exec, true)?;
                let buffer = addr.buffer;
                let mem = &mut self.memory(addr.space)[buffer];
                for l in lanes() {
                    mem[at[l as usize]] = a[l as usize];
                }
            }
            Op::Atom { op, ty, d, addr, b, c } => {
                let b = self.row(b, *ty);
                let c = c.as_ref().map(|c| self.row(c, *ty));
                // Faults are reported as stores; then the lanes apply one at a time, in lane order.
                let at = self.elements(pc, addr, exec, true)?;
                let buffer = addr.buffer;
                let mut old = vec![0; w as usize];
                for l in lanes() {
                    let l = l as usize;
                    let mem = &mut self.memory(addr.space)[buffer];
                    old[l] = mem[at[l]];
                    mem[at[l]] = atomic(*op, *ty, addr.space, old[l], b[l], c.as_ref().map_or(0, |c| c[l]));
                }
                if let Some(d) = d {
                    self.write(*d, exec, &old);
                }
            }
            Op::Shfl {
                mode,
                d,
                p,
                a,
                b,
                segment,
                mask,
            } => {
                let a = self.row(a, Ty::B32);
                let b = self.row(b, Ty::U32);
                let members = self.member_mask(mask.as_ref(), exec);
                let wm = w - 1;
                // PTX's packed c: the clamp value in the low bits, the segment mask from bit 8.
                let c = match segment {
                    None if *mode == ShflMode::Up => 0,
                    None => wm,
                    Some(ShflSegment::Width(e)) => {
                        let width = u32::try_from(self.env.int(e)).expect("a shuffle width");
                        ((w - width) << 8) | if *mode == ShflMode::Up { 0 } else { width - 1 }
                    }
                    Some(ShflSegment::Raw(e)) => self.env.imm(e, Ty::U32),
                    Some(ShflSegment::Reg(_)) => 0,
                };
                // A register `c`: each lane's own.
                let cs = match segment {
                    Some(ShflSegment::Reg(o)) => self.row(o, Ty::U32),
                    _ => vec![c; w as usize],
                };
                let mut v = vec![0; w as usize];
                let mut valid = 0u64;
                for lane in lanes() {
                    let clamp = cs[lane as usize] & wm;
                    let segmask = (cs[lane as usize] >> 8) & wm;
                    let bval = b[lane as usize] & wm;
                    let max_lane = (lane & segmask) | (clamp & !segmask);
                    let min_lane = lane & segmask;
                    let (j, pval) = match mode {
                        ShflMode::Up => {
                            let j = i64::from(lane) - i64::from(bval);
                            (j, j >= i64::from(max_lane))
                        }
                        ShflMode::Down => {
                            let j = i64::from(lane + bval);
                            (j, j <= i64::from(max_lane))
                        }
                        ShflMode::Bfly => {
                            let j = i64::from(lane ^ bval);
                            (j, j <= i64::from(max_lane))
                        }
                        ShflMode::Idx => {
                            let j = i64::from(min_lane | (bval & !segmask));
                            (j, j <= i64::from(max_lane))
                        }
                    };
                    let j = if pval {
                        u32::try_from(j).expect("a lane of the warp")
                    } else {
                        lane
                    };
                    if pval {
                        valid |= 1 << lane;
                    }
                    let undefined = !bit(members, lane) || (j != lane && (!bit(exec, j) || !bit(members, j)));
                    if undefined {
                        self.out.undefined_shuffle_reads += 1;
                    }
                    v[lane as usize] = a[j as usize];
                }
                self.write(*d, exec, &v);
                if let Some(p) = p {
                    self.write_pred(*p, exec, valid);
                }
            }
            Op::Vote {
                mode,
                d_pred,
                d_reg,
                a,
                mask,
            } => {
                let voters = exec & self.member_mask(mask.as_ref(), exec);
                let q = self.pred_row(*a) & voters;
                match mode {
                    VoteMode::Ballot => {
                        let ballot = (q & 0xffff_ffff) as u32;
                        let d = d_reg.expect("ballot writes a register");
                        self.write(d, exec, &vec![ballot; w as usize]);
                    }
                    _ => {
                        let result = match mode {
                            VoteMode::All => q == voters,
                            VoteMode::Any => q != 0,
                            VoteMode::Uni => q == 0 || q == voters,
                            VoteMode::Ballot => unreachable!(),
                        };
                        let p = d_pred.expect("vote writes a predicate");
                        self.write_pred(p, exec, if result { u64::MAX } else { 0 });
                    }
                }
            }
            Op::Activemask { d } => {
                self.write(*d, exec, &vec![(exec & 0xffff_ffff) as u32; w as usize]);
            }
            Op::Match { all, d, p, a, mask } => {
                let a = self.row(a, Ty::B32);
                let members = exec & self.member_mask(mask.as_ref(), exec);
                let member_lanes: Vec<u32> = (0..w).filter(|&l| bit(members, l)).collect();
                let lane_bit = |l: u32| if l < 32 { 1u32 << l } else { 0 };
                if *all {
                    let same = member_lanes.windows(2).all(|x| a[x[0] as usize] == a[x[1] as usize]);
                    let value = if same {
                        member_lanes.iter().map(|&l| lane_bit(l)).fold(0, |m, b| m | b)
                    } else {
                        0
                    };
                    self.write(*d, exec, &vec![value; w as usize]);
                    if let Some(p) = p {
                        self.write_pred(*p, exec, if same { u64::MAX } else { 0 });
                    }
                } else {
                    let v: Vec<u32> = (0..w)
                        .map(|l| {
                            if !bit(members, l) {
                                return 0;
                            }
                            member_lanes
                                .iter()
                                .filter(|&&m| a[m as usize] == a[l as usize])
                                .map(|&m| lane_bit(m))
                                .fold(0, |acc, b| acc | b)
                        })
                        .collect();
                    self.write(*d, exec, &v);
                }
            }
            Op::Redux { op, ty, d, a, mask } => {
                let a = self.row(a, *ty);
                let members = exec & self.member_mask(mask.as_ref(), exec);
                let values = (0..w).filter(|&l| bit(members, l)).map(|l| a[l as usize]);
                let total = match op {
                    ReduxOp::Add => values.fold(0u32, u32::wrapping_add),
                    ReduxOp::And => values.fold(u32::MAX, |x, v| x & v),
                    ReduxOp::Or => values.fold(0, |x, v| x | v),
                    ReduxOp::Xor => values.fold(0, |x, v| x ^ v),
                    ReduxOp::Min if *ty == Ty::S32 => values.map(u32::cast_signed).min().unwrap_or(0).cast_unsigned(),
                    ReduxOp::Max if *ty == Ty::S32 => values.map(u32::cast_signed).max().unwrap_or(0).cast_unsigned(),
                    ReduxOp::Min => values.min().unwrap_or(0),
                    ReduxOp::Max => values.max().unwrap_or(0),
                };
                let v: Vec<u32> = (0..w).map(|l| if bit(members, l) { total } else { 0 }).collect();
                self.write(*d, exec, &v);
            }
            Op::BarWarp { mask } => {
                let missing = self.member_mask(mask.as_ref(), exec) & self.live & !exec;
                if missing != 0 {
                    return Err(self.fault(pc, None, FaultKind::WarpSync { missing }));
                }
            }
            Op::Nop => {}
            Op::Bar { .. } => panic!("the reference runs warps one after the other: no block barriers"),
            Op::Rounded { .. } => panic!("the reference does not interpret directed roundings"),
            Op::Approx { .. } => panic!("the reference does not interpret the SFU's approximations"),
            Op::Half { .. } => panic!("the reference does not interpret 16-bit floats"),
            Op::Carry { .. } => panic!("the reference does not interpret the carry chain"),
            Op::Printf { .. } | Op::AssertFail { .. } => {
                panic!("the reference runs warpsim's own programs: no printf or assert (PTX's vprintf, __assertfail)")
            }
            Op::Pack { .. } | Op::Unpack { .. } => unreachable!("64-bit moves are `wide`'s"),
            Op::Bra { .. } | Op::Exit => unreachable!("control flow is run_path's"),
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------------------
// 64-bit and mixed-width semantics, from ISA.md section 5 and the PTX ISA.

const SIGN64: u64 = 1 << 63;
/// The NaN an f64 operation gives when no operand is NaN (0 × ∞, ∞ − ∞, 0 ÷ 0, √−1): ISA.md section 5.
const DEFAULT_NAN64: u64 = 0xfff8_0000_0000_0000;
const QUIET64: u64 = 1 << 51;

fn d(bits: u64) -> f64 {
    f64::from_bits(bits)
}

fn is_nan64(bits: u64) -> bool {
    d(bits).is_nan()
}

/// An f64 arithmetic result: a NaN is the first NaN among `order` (the instruction's operands in the order
/// ISA.md gives for it), quietened, or the default NaN when no operand is NaN.
fn f64_nan(x: f64, order: &[u64]) -> u64 {
    if !x.is_nan() {
        return x.to_bits();
    }
    order
        .iter()
        .find(|&&v| is_nan64(v))
        .map_or(DEFAULT_NAN64, |&v| v | QUIET64)
}

/// `min.f64`/`max.f64`: a NaN operand gives the other; two NaNs the second, quietened; -0.0 below +0.0.
fn fminmax64(max: bool, a: u64, b: u64) -> u64 {
    let (x, y) = (d(a), d(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => b | QUIET64,
        (true, false) => b,
        (false, true) => a,
        _ if x < y => {
            if max {
                b
            } else {
                a
            }
        }
        _ if y < x => {
            if max {
                a
            } else {
                b
            }
        }
        // Equal: only the zeros differ in bits.
        _ if max => a & b,
        _ => a | b,
    }
}

/// The width of an operand, in bits.
fn bits_of(ty: Ty) -> u32 {
    if ty.wide() { 64 } else { 32 }
}

/// A 32-bit operand's value as an integer of its type.
fn int32(ty: Ty, a: u64) -> i128 {
    #[allow(clippy::cast_possible_truncation, reason = "the low 32 bits are the operand")]
    let a = a as u32;
    if ty.signed() {
        i128::from(a.cast_signed())
    } else {
        i128::from(a)
    }
}

/// An integer operand's value: its bits read as `ty`.
fn int_value(ty: Ty, a: u64) -> i128 {
    match ty {
        Ty::S64 => i128::from(a.cast_signed()),
        Ty::U64 | Ty::B64 => i128::from(a),
        _ => int32(ty, a),
    }
}

/// The low `bits` of `v` (two's complement).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "keeping the low bits is the operation"
)]
fn low(v: i128, bits: u32) -> u64 {
    if bits == 64 { v as u64 } else { u64::from(v as u32) }
}

/// The high `n` bits of the double-width product of two `n`-bit integers (unsigned ones up to 2^64 - 1, whose
/// product needs 128 unsigned bits; signed ones fit an i128).
#[allow(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "non-negative values below 2^64, and a high half below 2^64"
)]
fn high(x: i128, y: i128, n: u32) -> i128 {
    if x >= 0 && y >= 0 {
        ((x as u128 * y as u128) >> n) as i128
    } else {
        (x * y) >> n
    }
}

/// A two-operand 64-bit or mixed-width operation (`mul.hi`, `mul.wide` of 32-bit operands too); `None` for an
/// integer division by zero.
fn binary64(op: BinaryOp, ty: Ty, a: u64, b: u64) -> Option<u64> {
    let n = bits_of(ty);
    let (x, y) = (int_value(ty, a), int_value(ty, b));
    Some(match (op, ty) {
        (BinaryOp::Add, Ty::F64) => f64_nan(d(a) + d(b), &[b, a]),
        (BinaryOp::Sub, Ty::F64) => f64_nan(d(a) - d(b), &[b, a]),
        (BinaryOp::Mul, Ty::F64) => f64_nan(d(a) * d(b), &[b, a]),
        (BinaryOp::Div, Ty::F64) => f64_nan(d(a) / d(b), &[a, b]),
        (BinaryOp::Min, Ty::F64) => fminmax64(false, a, b),
        (BinaryOp::Max, Ty::F64) => fminmax64(true, a, b),
        (BinaryOp::CopySign, Ty::F64) => (b & !(1 << 63)) | (a & (1 << 63)),
        (_, Ty::F64) | (BinaryOp::CopySign, _) => panic!("{op:?}.{} is not an instruction", ty.name()),
        // The whole product of two 32-bit operands, or the high half of the double-width one.
        (BinaryOp::MulWide, _) => low(x * y, 64),
        (BinaryOp::MulHi, _) => low(high(x, y, n), n),
        (BinaryOp::Add, _) => low(x + y, n),
        (BinaryOp::Sub, _) => low(x - y, n),
        (BinaryOp::Mul, _) => low(x.wrapping_mul(y), n),
        (BinaryOp::Div | BinaryOp::Rem, _) if y == 0 => return None,
        // In i128 the quotient of -2^63 / -1 is 2^63, whose low 64 bits are -2^63 (PTX wraps); Rust's `/`
        // truncates toward zero and `%` takes the dividend's sign, as PTX's div and rem.
        (BinaryOp::Div, _) => low(x / y, n),
        (BinaryOp::Rem, _) => low(x % y, n),
        (BinaryOp::Min, _) => low(x.min(y), n),
        (BinaryOp::Max, _) => low(x.max(y), n),
        (BinaryOp::And, _) => a & b,
        (BinaryOp::Or, _) => a | b,
        (BinaryOp::Xor, _) => a ^ b,
        // The amount is a .u32 operand; past 63 every bit is shifted out (an arithmetic shift fills with
        // the sign).
        (BinaryOp::Shl, _) => {
            let k = b & 0xffff_ffff;
            if k >= 64 { 0 } else { a << k }
        }
        (BinaryOp::Shr, Ty::S64) => low(x >> (b & 0xffff_ffff).min(63), 64),
        (BinaryOp::Shr, _) => {
            let k = b & 0xffff_ffff;
            if k >= 64 { 0 } else { a >> k }
        }
    })
}

fn unary64(op: UnaryOp, ty: Ty, a: u64) -> u64 {
    match (op, ty) {
        // Sign-bit operations, NaNs included.
        (UnaryOp::Neg, Ty::F64) => a ^ SIGN64,
        (UnaryOp::Abs, Ty::F64) => a & !SIGN64,
        (UnaryOp::Sqrt, Ty::F64) => f64_nan(d(a).sqrt(), &[a]),
        (UnaryOp::Sqrt, Ty::F32) => {
            #[allow(clippy::cast_possible_truncation, reason = "the 32-bit operand")]
            let x = f(a as u32);
            u64::from(canon(x.sqrt()))
        }
        (UnaryOp::Neg, _) => a.cast_signed().wrapping_neg().cast_unsigned(),
        (UnaryOp::Abs, _) => a.cast_signed().wrapping_abs().cast_unsigned(),
        (UnaryOp::Not, _) => !a,
        (UnaryOp::Popc, _) => u64::from(a.count_ones()),
        (UnaryOp::Clz, _) => u64::from(a.leading_zeros()),
        (UnaryOp::Brev, _) => a.reverse_bits(),
        (UnaryOp::Bfind | UnaryOp::BfindShift, _) => {
            let x = if ty == Ty::S64 && a >> 63 == 1 { !a } else { a };
            match (0..64u64).rev().find(|&i| x >> i & 1 == 1) {
                None => u64::from(u32::MAX),
                Some(i) if op == UnaryOp::BfindShift => 63 - i,
                Some(i) => i,
            }
        }
        other => panic!("{other:?} is not a 64-bit instruction"),
    }
}

/// `mad`/`fma` of 64 bits, `mad.hi` of 32 or 64, `mad.wide` of 32-bit factors and a 64-bit addend.
fn ternary64(op: TernaryOp, ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    let n = bits_of(ty);
    if ty == Ty::F64 {
        // One rounding; of several NaN operands, b's, then c's, then a's (ISA.md section 5).
        return f64_nan(d(a).mul_add(d(b), d(c)), &[b, c, a]);
    }
    let (x, y) = (int_value(ty, a), int_value(ty, b));
    match op {
        TernaryOp::Mad => low(x.wrapping_mul(y).wrapping_add(int_value(ty, c)), n),
        TernaryOp::MadHi => low(high(x, y, n) + int_value(ty, c), n),
        TernaryOp::MadWide => low(x * y + i128::from(c), 64),
        TernaryOp::Fma => panic!("fma is a float instruction"),
        TernaryOp::Bfe => bfe64(ty == Ty::S64, a, b, c),
        TernaryOp::Prmt | TernaryOp::Fns => panic!("prmt and fns are 32-bit"),
        TernaryOp::Dp4a { .. } | TernaryOp::Dp2a { .. } | TernaryOp::Lop3(_) => panic!("dp4a, dp2a, lop3 are 32-bit"),
    }
}

/// `dp4a`, `dp2a` and `lop3` as PTX's pseudo-code writes them: the bytes (halves) extracted and sign- or
/// zero-extended one by one, the products summed into `c` with wrapping; `lop3` bit by bit through the table.
fn dot_or_lop3(op: TernaryOp, a: u32, b: u32, c: u32) -> u32 {
    let ext = |x: u32, width: u32, signed: bool| -> u32 {
        let shift = 32 - width;
        if signed {
            ((x << shift).cast_signed() >> shift).cast_unsigned()
        } else {
            x << shift >> shift
        }
    };
    match op {
        TernaryOp::Dp4a { a_signed, b_signed } => {
            let mut d = c;
            for i in 0..4 {
                let va = ext(a >> (8 * i), 8, a_signed);
                let vb = ext(b >> (8 * i), 8, b_signed);
                d = d.wrapping_add(va.wrapping_mul(vb));
            }
            d
        }
        TernaryOp::Dp2a { hi, a_signed, b_signed } => {
            let mut d = c;
            let select = if hi { 2 } else { 0 };
            for i in 0..2 {
                let va = ext(a >> (16 * i), 16, a_signed);
                let vb = ext(b >> (8 * (select + i)), 8, b_signed);
                d = d.wrapping_add(va.wrapping_mul(vb));
            }
            d
        }
        TernaryOp::Lop3(lut) => (0..32).fold(0, |d, bit| {
            let index = ((a >> bit) & 1) << 2 | ((b >> bit) & 1) << 1 | ((c >> bit) & 1);
            d | u32::from(lut >> index & 1) << bit
        }),
        _ => unreachable!("a dot product or lop3"),
    }
}

/// `bfi` bit by bit as PTX's pseudo-code writes it: `b`, with bit `pos + i` replaced by bit `i` of `a` for
/// `i < len` while `pos + i` is inside the `bits`-bit value; the 32-bit form takes `pos` and `len` & 0xff, the
/// 64-bit one whole (what an H100 does).
fn bfi_bits(a: u64, b: u64, pos: u32, len: u32, bits: u32) -> u64 {
    let (pos, len) = if bits == 64 {
        (u64::from(pos), u64::from(len))
    } else {
        (u64::from(pos & 0xff), u64::from(len & 0xff))
    };
    (0..len.min(64)).filter(|i| pos + i < u64::from(bits)).fold(b, |f, i| {
        let bit = a >> i & 1;
        (f & !(1 << (pos + i))) | bit << (pos + i)
    })
}

/// `bfe.{u64,s64}` bit by bit, with the whole 32-bit position and length (what an H100 does; PTX's text masks
/// them to 8 bits, which the 32-bit forms do).
fn bfe64(signed: bool, a: u64, pos: u64, len: u64) -> u64 {
    let sbit = if signed && len != 0 {
        a >> (pos + len - 1).min(63) & 1
    } else {
        0
    };
    (0..64).fold(0, |d, i| {
        let bit = if i < len && pos + i <= 63 {
            a >> (pos + i) & 1
        } else {
            sbit
        };
        d | bit << i
    })
}

fn compare64(cmp: Cmp, ty: Ty, a: u64, b: u64) -> bool {
    use std::cmp::Ordering;
    let ord = match ty {
        Ty::F64 => match d(a).partial_cmp(&d(b)) {
            Some(o) => o,
            None => return false,
        },
        Ty::S64 => a.cast_signed().cmp(&b.cast_signed()),
        _ => a.cmp(&b),
    };
    match cmp {
        Cmp::Eq => ord == Ordering::Equal,
        Cmp::Ne => ord != Ordering::Equal,
        Cmp::Lt => ord == Ordering::Less,
        Cmp::Le => ord != Ordering::Greater,
        Cmp::Gt => ord == Ordering::Greater,
        Cmp::Ge => ord != Ordering::Less,
    }
}

/// A float of `to`'s format (f32 or f64) from the nearest one `nearest` to the exact value, rounded as `r` says:
/// towards zero, -∞ or +∞ the neighbour is taken when the nearest lies on the wrong side (`side`: how the
/// nearest compares with the exact value).
fn directed(r: Rounding, nearest: f64, side: std::cmp::Ordering, to: Ty) -> u64 {
    use std::cmp::Ordering;
    let step = |up: bool| -> u64 {
        if to == Ty::F64 {
            (if up { nearest.next_up() } else { nearest.next_down() }).to_bits()
        } else {
            #[allow(clippy::cast_possible_truncation, reason = "nearest is an f32 value")]
            let x = nearest as f32;
            u64::from((if up { x.next_up() } else { x.next_down() }).to_bits())
        }
    };
    let keep = || -> u64 {
        if to == Ty::F64 {
            nearest.to_bits()
        } else {
            #[allow(clippy::cast_possible_truncation, reason = "nearest is an f32 value")]
            u64::from((nearest as f32).to_bits())
        }
    };
    match (r, side) {
        (Rounding::FloatDown, Ordering::Greater) => step(false),
        (Rounding::FloatUp, Ordering::Less) => step(true),
        // Towards zero: a nearest of larger magnitude than the exact value.
        (Rounding::FloatZero, Ordering::Greater) if nearest > 0.0 => step(false),
        (Rounding::FloatZero, Ordering::Less) if nearest < 0.0 => step(true),
        _ => keep(),
    }
}

/// `cvt` between any two of f32, s32, u32, f64, s64, u64 with rounding `r` (ISA.md's `cvt` table): integers
/// keep their low bits or extend by the source's signedness; floats to integers round, then saturate, NaN as an
/// H100 gives it; integers and f64 to floats round to the nearest or in a direction; f32 to f64 is exact.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    clippy::too_many_lines,
    reason = "the conversions themselves: Rust's int-to-float and f64-to-f32 casts round to nearest even (the \
              nearest, then corrected for a direction); a float cast to an integer only once checked in range"
)]
fn convert_any(r: Rounding, to: Ty, from: Ty, a: u64) -> u64 {
    use std::cmp::Ordering;
    let to_bits = bits_of(to);
    if from.is_int() {
        let v = int_value(from, a);
        return match to {
            Ty::F64 => {
                let nearest = v as f64;
                directed(r, nearest, (nearest as i128).cmp(&v), Ty::F64)
            }
            Ty::F32 => {
                let nearest = f64::from(v as f32);
                // An f32 at most 2^64 in magnitude: exact as an i128 (∞ does not come from an integer this size).
                directed(r, nearest, (nearest as i128).cmp(&v), Ty::F32)
            }
            _ => low(v, to_bits),
        };
    }
    // From a float: its value (an f32 is exact as an f64), and its NaN's sign and payload.
    let (x, sign, payload) = if from == Ty::F64 {
        (d(a), a >> 63, a & ((1 << 52) - 1))
    } else {
        let bits = a as u32;
        (
            f64::from(f(bits)),
            u64::from(bits >> 31),
            u64::from(bits & 0x7f_ffff) << 29,
        )
    };
    match to {
        Ty::F64 if from == Ty::F32 => {
            if x.is_nan() {
                // The sign and payload kept (shifted up), quietened.
                (sign << 63) | 0x7ff8_0000_0000_0000 | payload
            } else {
                x.to_bits()
            }
        }
        Ty::F64 => {
            if x.is_nan() {
                a | QUIET64
            } else {
                round(x, r).to_bits()
            }
        }
        Ty::F32 if from == Ty::F64 => {
            if x.is_nan() {
                // The sign and the top of the payload, quietened.
                u64::from((sign as u32) << 31 | 0x7fc0_0000 | (payload >> 29) as u32)
            } else {
                let nearest = f64::from(x as f32);
                let side = nearest.partial_cmp(&x).unwrap_or(Ordering::Equal);
                directed(r, nearest, side, Ty::F32)
            }
        }
        Ty::F32 => u64::from(convert(r, to, from, a as u32)),
        _ if x.is_nan() => {
            // To a 32-bit integer from an f32: 0 (the 32-bit rule); otherwise the sign bit alone.
            if from == Ty::F32 && to_bits == 32 {
                0
            } else if to_bits == 64 {
                SIGN64
            } else {
                0x8000_0000
            }
        }
        _ => {
            let v = round(x, r);
            let (lo, hi): (f64, f64) = match to {
                Ty::S64 => (-(2f64.powi(63)), 2f64.powi(63)),
                Ty::U64 => (0.0, 2f64.powi(64)),
                Ty::S32 => (-(2f64.powi(31)), 2f64.powi(31)),
                _ => (0.0, 2f64.powi(32)),
            };
            // Saturate: below the range its least value, at or past 2^n its greatest.
            let i: i128 = if v <= lo {
                lo as i128
            } else if v >= hi {
                hi as i128 - 1
            } else {
                v as i128
            };
            low(i, to_bits)
        }
    }
}

/// A 64-bit atomic operation's new value; `b` and `c` read as `ty`. f64 `add` keeps subnormals; its NaN is
/// `b`'s, else the old value's, unchanged, in global memory, and the old value's, else `b`'s, quietened, in
/// shared memory (ISA.md section 5, as an H100 gives them).
fn atomic64(op: AtomOp, ty: Ty, space: Space, old: u64, b: u64, c: u64) -> u64 {
    match op {
        AtomOp::Add if ty == Ty::F64 => {
            let sum = d(old) + d(b);
            if !sum.is_nan() {
                sum.to_bits()
            } else if space == Space::Global {
                [b, old].into_iter().find(|&v| is_nan64(v)).unwrap_or(DEFAULT_NAN64)
            } else {
                [old, b]
                    .into_iter()
                    .find(|&v| is_nan64(v))
                    .map_or(DEFAULT_NAN64, |v| v | QUIET64)
            }
        }
        AtomOp::Add => old.wrapping_add(b),
        AtomOp::Min if ty == Ty::S64 => old.cast_signed().min(b.cast_signed()).cast_unsigned(),
        AtomOp::Max if ty == Ty::S64 => old.cast_signed().max(b.cast_signed()).cast_unsigned(),
        AtomOp::Min => old.min(b),
        AtomOp::Max => old.max(b),
        AtomOp::Exch => b,
        AtomOp::Cas => {
            if old == b {
                c
            } else {
                old
            }
        }
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
        AtomOp::Inc | AtomOp::Dec => unreachable!("`inc` and `dec` are u32 only (the assembler checks)"),
    }
}

/// Whether an instruction is 64-bit or mixed-width (or a conversion with a directed float rounding, or a
/// square root): [`Warp::wide`] runs it.
fn is_wide(op: &Op) -> bool {
    match op {
        Op::Mov { ty, .. } | Op::Setp { ty, .. } | Op::Selp { ty, .. } | Op::Ld { ty, .. } | Op::St { ty, .. } => {
            ty.wide()
        }
        Op::Atom { ty, .. } => ty.wide(),
        Op::Unary { op, ty, .. } => ty.wide() || *op == UnaryOp::Sqrt,
        Op::Binary { op, ty, .. } => ty.wide() || matches!(op, BinaryOp::MulHi | BinaryOp::MulWide),
        Op::Ternary { op, ty, .. } => ty.wide() || matches!(op, TernaryOp::MadHi | TernaryOp::MadWide),
        Op::Cvt { rounding, to, from, .. } => {
            to.wide()
                || from.wide()
                || matches!(rounding, Rounding::FloatZero | Rounding::FloatDown | Rounding::FloatUp)
        }
        Op::Pack { .. } | Op::Unpack { .. } => true,
        Op::Bfi { ty, .. } => ty.wide(),
        _ => false,
    }
}

impl Warp<'_> {
    /// An operand of `bits` (32 or 64) in every lane: a 64-bit register is its row and the next.
    fn row_of(&self, o: &Operand, ty: Ty, bits: u32) -> Vec<u64> {
        if bits == 32 {
            return self
                .row(o, if ty.wide() { ty.other_width() } else { ty })
                .into_iter()
                .map(u64::from)
                .collect();
        }
        match o {
            Operand::Reg(r) => {
                let (lo, hi) = (&self.regs[r.0 as usize], &self.regs[r.0 as usize + 1]);
                lo.iter()
                    .zip(hi)
                    .map(|(&l, &h)| u64::from(l) | u64::from(h) << 32)
                    .collect()
            }
            Operand::Imm(e) => vec![self.env.imm64(e, ty); self.w() as usize],
            Operand::Special(s) => panic!("the special register %{} is 32 bits", s.name()),
        }
    }

    /// Write `values` of `bits` (32 or 64) to `d` in the lanes `exec`.
    #[allow(clippy::cast_possible_truncation, reason = "the halves of a 64-bit value")]
    fn write_of(&mut self, d: warpsim_isa::Reg, exec: u64, values: &[u64], bits: u32) {
        let lo: Vec<u32> = values.iter().map(|&v| v as u32).collect();
        self.write(d, exec, &lo);
        if bits == 64 {
            let hi: Vec<u32> = values.iter().map(|&v| (v >> 32) as u32).collect();
            self.write(warpsim_isa::Reg(d.0 + 1), exec, &hi);
        }
    }

    /// A 64-bit or mixed-width instruction ([`is_wide`]) on the executing lanes `exec`.
    #[allow(clippy::too_many_lines, reason = "one arm per instruction kind")]
    fn wide(&mut self, pc: usize, exec: u64) -> Result<(), Fault> {
        let program = self.program;
        let w = self.w() as usize;
        let lanes = (0..self.w())
            .filter(|&l| bit(exec, l))
            .map(|l| l as usize)
            .collect::<Vec<_>>();
        match &program.instructions[pc].op {
            Op::Mov { ty, d, a } => {
                let a = self.row_of(a, *ty, 64);
                self.write_of(*d, exec, &a, 64);
            }
            Op::Pack { d, lo, hi } => {
                let (lo, hi) = (self.row_of(lo, Ty::B32, 32), self.row_of(hi, Ty::B32, 32));
                let v: Vec<u64> = lo.iter().zip(&hi).map(|(&l, &h)| l | h << 32).collect();
                self.write_of(*d, exec, &v, 64);
            }
            Op::Bfi { d, a, b, pos, len, .. } => {
                let (x, y) = (self.row_of(a, Ty::B64, 64), self.row_of(b, Ty::B64, 64));
                let (p, n) = (self.row_of(pos, Ty::U32, 32), self.row_of(len, Ty::U32, 32));
                let v: Vec<u64> = (0..w)
                    .map(|l| {
                        let (p, n) = (u32::try_from(p[l]).expect("u32"), u32::try_from(n[l]).expect("u32"));
                        bfi_bits(x[l], y[l], p, n, 64)
                    })
                    .collect();
                self.write_of(*d, exec, &v, 64);
            }
            Op::Unpack { lo, hi, a } => {
                let a = self.row_of(a, Ty::B64, 64);
                let (l, h): (Vec<u64>, Vec<u64>) = a.iter().map(|&v| (v & 0xffff_ffff, v >> 32)).unzip();
                self.write_of(*lo, exec, &l, 32);
                self.write_of(*hi, exec, &h, 32);
            }
            Op::Unary { op, ty, d, a } => {
                let bits = bits_of(*ty);
                let a = self.row_of(a, *ty, bits);
                let v: Vec<u64> = a.iter().map(|&a| unary64(*op, *ty, a)).collect();
                // Counts and positions are 32-bit results.
                let out = if matches!(op, UnaryOp::Popc | UnaryOp::Clz | UnaryOp::Bfind | UnaryOp::BfindShift) {
                    32
                } else {
                    bits
                };
                self.write_of(*d, exec, &v, out);
            }
            Op::Binary { op, ty, d, a, b } => {
                let bits = bits_of(*ty);
                let shift = matches!(op, BinaryOp::Shl | BinaryOp::Shr);
                let x = self.row_of(a, *ty, bits);
                let y = self.row_of(b, if shift { Ty::U32 } else { *ty }, if shift { 32 } else { bits });
                let mut v = vec![0; w];
                for &l in &lanes {
                    v[l] = binary64(*op, *ty, x[l], y[l]).ok_or_else(|| {
                        self.fault(pc, Some(u32::try_from(l).expect("a lane")), FaultKind::DivideByZero)
                    })?;
                }
                let out = if *op == BinaryOp::MulWide { 64 } else { bits };
                self.write_of(*d, exec, &v, out);
            }
            Op::Ternary { op, ty, d, a, b, c } => {
                let bits = bits_of(*ty);
                let x = self.row_of(a, *ty, bits);
                let (y, z, out) = if *op == TernaryOp::Bfe {
                    // The position and the length are .u32.
                    (self.row_of(b, Ty::U32, 32), self.row_of(c, Ty::U32, 32), bits)
                } else {
                    let y = self.row_of(b, *ty, bits);
                    let (cty, out) = if *op == TernaryOp::MadWide {
                        (ty.other_width(), 64)
                    } else {
                        (*ty, bits)
                    };
                    (y, self.row_of(c, cty, out), out)
                };
                let v: Vec<u64> = (0..w).map(|l| ternary64(*op, *ty, x[l], y[l], z[l])).collect();
                self.write_of(*d, exec, &v, out);
            }
            Op::Setp { cmp, ftz, ty, p, a, b } => {
                let flush = |x: u64| {
                    if *ftz && x & 0x7f80_0000 == 0 {
                        x & 0x8000_0000
                    } else {
                        x
                    }
                };
                let (x, y) = (self.row_of(a, *ty, 64), self.row_of(b, *ty, 64));
                let v = lanes
                    .iter()
                    .filter(|&&l| compare64(*cmp, *ty, flush(x[l]), flush(y[l])))
                    .fold(0u64, |m, &l| m | 1 << l);
                self.write_pred(*p, exec, v);
            }
            Op::Selp { ty, d, a, b, p } => {
                let (x, y) = (self.row_of(a, *ty, 64), self.row_of(b, *ty, 64));
                let p = self.preds[p.0 as usize];
                let v: Vec<u64> = (0..w).map(|l| if p >> l & 1 == 1 { x[l] } else { y[l] }).collect();
                self.write_of(*d, exec, &v, 64);
            }
            Op::Cvt {
                rounding,
                to,
                from,
                d,
                a,
            } => {
                let a = self.row_of(a, *from, bits_of(*from));
                let v: Vec<u64> = a.iter().map(|&a| convert_any(*rounding, *to, *from, a)).collect();
                self.write_of(*d, exec, &v, bits_of(*to));
            }
            Op::Ld { d, addr, .. } => {
                let at = self.elements(pc, addr, exec, false)?;
                let mem = &self.memory(addr.space)[addr.buffer];
                let v: Vec<u64> = at
                    .iter()
                    .map(|&i| u64::from(mem[2 * i]) | u64::from(mem[2 * i + 1]) << 32)
                    .collect();
                self.write_of(*d, exec, &v, 64);
            }
            Op::St { ty, addr, a, .. } => {
                let a = self.row_of(a, *ty, 64);
                // Every lane is checked before any writes; the highest lane writes last and wins.
                let at = self.elements(pc, addr, exec, true)?;
                let mem = &mut self.memory(addr.space)[addr.buffer];
                for &l in &lanes {
                    mem[2 * at[l]] = (a[l] & 0xffff_ffff) as u32;
                    mem[2 * at[l] + 1] = (a[l] >> 32) as u32;
                }
            }
            Op::Atom { op, ty, d, addr, b, c } => {
                let b = self.row_of(b, *ty, 64);
                let c = c.as_ref().map(|c| self.row_of(c, *ty, 64));
                let at = self.elements(pc, addr, exec, true)?;
                let mut old = vec![0u64; w];
                for &l in &lanes {
                    let mem = &mut self.memory(addr.space)[addr.buffer];
                    let k = 2 * at[l];
                    old[l] = u64::from(mem[k]) | u64::from(mem[k + 1]) << 32;
                    let new = atomic64(*op, *ty, addr.space, old[l], b[l], c.as_ref().map_or(0, |c| c[l]));
                    mem[k] = (new & 0xffff_ffff) as u32;
                    mem[k + 1] = (new >> 32) as u32;
                }
                if let Some(d) = d {
                    self.write_of(*d, exec, &old, 64);
                }
            }
            other => unreachable!("not a 64-bit instruction: {other:?}"),
        }
        Ok(())
    }
}

/// `fns.b32` by PTX's pseudo-code, literally: the position of the `offset`-th set bit from `base`.
fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    let bit = |pos: i64| (0..32).contains(&pos) && mask >> pos & 1 == 1;
    let mut d = u32::MAX;
    if offset == 0 {
        if bit(i64::from(base)) {
            d = base;
        }
    } else {
        let mut pos = i64::from(base);
        let mut count = i64::from(offset).abs() - 1;
        let inc = if offset > 0 { 1 } else { -1 };
        while (0..32).contains(&pos) {
            if bit(pos) {
                if count == 0 {
                    d = u32::try_from(pos).expect("a bit position");
                    break;
                }
                count -= 1;
            }
            pos += inc;
        }
    }
    d
}
