//! Instantiation: an assembled [`Program`] plus a warp size and parameter values → a [`Kernel`] ready to run.
//!
//! This is where everything symbolic becomes concrete: `W` and `.param`s are substituted, launch shape and
//! buffer lengths evaluated, buffers initialised, and each instruction decoded into a compact form whose
//! immediates are already bit patterns of the right type, so the executor never looks at names or expressions.

use crate::config::Config;
use crate::register_file::{LaneCtx, RegisterFile, for_lanes};
use smallvec::{SmallVec, smallvec};
use std::fmt::Write as _;
#[allow(
    clippy::wildcard_imports,
    reason = "the decoder reads nearly every node type of the AST"
)]
use warpsim_isa::ast::*;
use warpsim_isa::cfg;
use warpsim_isa::expr::{ConstExpr, EvalError, Value};
use warpsim_isa::{Diagnostic, Span};

/// Largest buffer, in elements, a program may declare (1 GiB of 4-byte words); also the limit for all buffers
/// together.
pub const MAX_BUFFER_ELEMENTS: u64 = 1 << 28;
/// Largest grid.
pub const MAX_GRID: u64 = (1 << 31) - 1;
/// Most bytes of registers the warps resident at once may hold (each register is a row of 64 lanes of 4 bytes,
/// whatever the warp size): 1 GiB, as global memory.
pub const MAX_REGISTER_BYTES: u64 = 1 << 30;

/// What [`instantiate_with`] lets a launch allocate, checked before anything is allocated. The default is the
/// machine's: [`MAX_BUFFER_ELEMENTS`]. An embedder that runs untrusted programs in bulk (the fuzzer) sets less.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most elements of one buffer, and of all buffers together.
    pub buffer_elements: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            buffer_elements: MAX_BUFFER_ELEMENTS,
        }
    }
}

/// A source operand, resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Src {
    Reg(u16),
    /// The bit pattern in the instruction's type.
    Imm(u32),
    Special(Special),
}

/// The member mask of a warp-synchronous instruction (`shfl.sync`, `vote.sync`, `match.sync`, `bar.warp.sync`):
/// a constant, cut to the warp's lanes when decoded, or a register (or special register) that each lane reads,
/// whose 32 bits name lanes 0-31 (PTX's membermask is a `.b32`: at `W = 64` a register names no lane above 31).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Member {
    Lanes(u64),
    Reg(Src),
}

impl Member {
    /// The mask `lane` names.
    #[inline]
    pub(crate) fn of_lane(self, rf: &RegisterFile, lane: u32, ctx: &LaneCtx) -> u64 {
        match self {
            Member::Lanes(m) => m,
            Member::Reg(s) => u64::from(rf.read(s, lane, ctx)) & ctx.full,
        }
    }

    /// The lanes the `exec` lanes name: the constant, or the union of their masks. PTX requires every lane to
    /// name the same mask (an instruction whose lanes differ is undefined: warpsim takes the union, and
    /// `--check sync` reports it).
    #[inline(always)]
    pub(crate) fn lanes(self, rf: &RegisterFile, ctx: &LaneCtx, exec: u64) -> u64 {
        match self {
            Member::Lanes(m) => m,
            Member::Reg(_) => {
                let mut m = 0;
                for_lanes(exec, |lane| m |= self.of_lane(rf, lane, ctx));
                m
            }
        }
    }
}

/// Binary operations, with the type folded in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bin {
    AddI,
    SubI,
    MulI,
    DivS,
    DivU,
    RemS,
    RemU,
    MinS,
    MinU,
    MaxS,
    MaxU,
    AddF,
    SubF,
    MulF,
    DivF,
    MinF,
    MaxF,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrS,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Un {
    NegI,
    NegF,
    AbsI,
    AbsF,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tern {
    MadI,
    FmaF,
}

/// How `setp` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpClass {
    Signed,
    Unsigned,
    Float,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conv {
    /// f32 → s32 / u32 with rounding (saturating; NaN → 0, as PTX).
    F2S(Rounding),
    F2U(Rounding),
    /// s32 / u32 → f32, round to nearest.
    S2F,
    U2F,
    /// f32 → integral f32.
    F2F(Rounding),
    /// s32 ↔ u32: the bits unchanged.
    Bits,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DAddr {
    /// Shared memory of the block (else global memory).
    pub shared: bool,
    /// Index into [`Kernel::buffers`] or [`Kernel::shared`].
    pub buffer: u16,
    pub byte: bool,
    pub base: Option<Src>,
    pub disp: i64,
}

/// Functional-unit class: selects the latency and issue interval in [`crate::config::Units`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Alu,
    Fma,
    Convert,
    IntDiv,
    Fp32Div,
    Shuffle,
    ShuffleIdx,
    SharedLoad,
    SharedStore,
    SharedAtomic,
    GlobalLoad,
    GlobalStore,
    GlobalAtomic,
    /// Barriers: the warp waits until release.
    Barrier,
    Branch,
    Clock,
}

/// Execution pipes: classes that share hardware share a pipe (its issue interval, and forwarding within it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipe {
    Alu = 0,
    Fma,
    /// Conversions and the division sequences.
    Sfu,
    Shuffle,
    /// The SM's shared-memory pipe (loads, stores, atomics), shared by its sub-partitions.
    Shared,
    /// The SM's L1/global load-store pipe, shared by its sub-partitions.
    Global,
    /// Global atomics (performed at L2), per SM.
    GlobalAtomic,
    Barrier,
    Branch,
    Clock,
}

impl Pipe {
    pub const COUNT: usize = 10;

    /// One pipe per SM rather than per sub-partition.
    pub fn per_sm(self) -> bool {
        matches!(self, Pipe::Shared | Pipe::Global | Pipe::GlobalAtomic)
    }
}

impl Unit {
    pub fn pipe(self) -> Pipe {
        match self {
            Unit::Alu => Pipe::Alu,
            Unit::Fma => Pipe::Fma,
            Unit::Convert | Unit::IntDiv | Unit::Fp32Div => Pipe::Sfu,
            Unit::Shuffle | Unit::ShuffleIdx => Pipe::Shuffle,
            Unit::SharedLoad | Unit::SharedStore | Unit::SharedAtomic => Pipe::Shared,
            Unit::GlobalLoad | Unit::GlobalStore => Pipe::Global,
            Unit::GlobalAtomic => Pipe::GlobalAtomic,
            Unit::Barrier => Pipe::Barrier,
            Unit::Branch => Pipe::Branch,
            Unit::Clock => Pipe::Clock,
        }
    }

    /// This class's latency and interval in `units`.
    pub fn timing(self, u: &crate::config::Units) -> crate::config::Unit {
        match self {
            Unit::Alu => u.alu,
            Unit::Fma => u.fma,
            Unit::Convert => u.convert,
            Unit::IntDiv => u.int_div,
            Unit::Fp32Div => u.fp32_div,
            Unit::Shuffle => u.shuffle,
            Unit::ShuffleIdx => u.shuffle_idx,
            Unit::SharedLoad => u.shared_load,
            Unit::SharedStore => u.shared_store,
            Unit::SharedAtomic => u.shared_atomic,
            Unit::GlobalLoad => u.global_load,
            Unit::GlobalStore => u.global_store,
            Unit::GlobalAtomic => u.global_atomic,
            Unit::Barrier => u.barrier,
            Unit::Branch => u.branch,
            Unit::Clock => u.clock,
        }
    }
}

/// `atom`/`red` operations with the type folded in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atom {
    AddI,
    AddF,
    MinS,
    MinU,
    MinF,
    MaxS,
    MaxU,
    MaxF,
    Exch,
    Cas,
    And,
    Or,
    Xor,
}

/// What a barrier computes besides waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DBar {
    Sync,
    Popc(u16),
    And(u16),
    Or(u16),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DOp {
    Mov {
        d: u16,
        a: Src,
    },
    Un {
        f: Un,
        d: u16,
        a: Src,
    },
    Bin {
        f: Bin,
        d: u16,
        a: Src,
        b: Src,
    },
    Tern {
        f: Tern,
        d: u16,
        a: Src,
        b: Src,
        c: Src,
    },
    Setp {
        cmp: Cmp,
        class: CmpClass,
        p: u16,
        a: Src,
        b: Src,
    },
    PredLogic {
        op: PredLogicOp,
        d: u16,
        a: (u16, bool),
        b: Option<(u16, bool)>,
    },
    Selp {
        d: u16,
        a: Src,
        b: Src,
        p: u16,
    },
    Cvt {
        f: Conv,
        d: u16,
        a: Src,
    },
    Ld {
        d: u16,
        addr: DAddr,
    },
    St {
        addr: DAddr,
        a: Src,
    },
    Shfl {
        mode: ShflMode,
        d: u16,
        p: Option<u16>,
        a: Src,
        b: Src,
        clamp: u32,
        segmask: u32,
        member: Member,
    },
    Atom {
        f: Atom,
        d: Option<u16>,
        addr: DAddr,
        b: Src,
        c: Option<Src>,
    },
    Bar {
        kind: DBar,
        id: Src,
        count: Option<Src>,
        pred: Option<(u16, bool)>,
    },
    BarWarp {
        mask: Member,
    },
    Vote {
        mode: VoteMode,
        d: u16,
        a: (u16, bool),
        mask: Member,
    },
    Activemask {
        d: u16,
    },
    Match {
        all: bool,
        d: u16,
        p: Option<u16>,
        a: Src,
        mask: Member,
    },
    Bra {
        target: u32,
    },
    Exit,
    Nop,
}

/// A decoded instruction.
#[derive(Clone, Debug)]
pub struct DInstr {
    pub guard: Option<(u16, bool)>,
    pub op: DOp,
    pub unit: Unit,
    /// Registers read (scoreboard).
    pub reads: smallvec::SmallVec<[u16; 4]>,
    /// Predicates read (including the guard).
    pub pred_reads: smallvec::SmallVec<[u16; 2]>,
    /// Register written.
    pub write: Option<u16>,
    pub pred_write: Option<u16>,
    /// For a branch: where split lanes reconverge (`len` = at exit).
    pub reconverge: u32,
    /// The value type of the result (for traces).
    pub ty: Ty,
}

impl DInstr {
    /// The register a global atomic's old value goes to: it arrives at the epoch's commit, after the issue.
    pub fn returns_at_commit(&self) -> Option<u16> {
        match self.op {
            DOp::Atom { d, addr, .. } if !addr.shared => d,
            _ => None,
        }
    }
}

/// An instruction as the trace's readers see it, described once when the kernel is decoded, so that no
/// renderer interprets an instruction's encoding ([`DOp`]) again: the value operands it reads, the registers
/// it reads and writes, and its role.
#[derive(Clone, Debug, PartialEq)]
pub struct Described {
    /// Its value operands in order (the trace's [`crate::trace::Issue::operands`] are their lanes' values).
    pub operands: SmallVec<[Src; 3]>,
    /// Every register it reads (address registers too) and the one it writes.
    pub reads: SmallVec<[u16; 4]>,
    pub write: Option<u16>,
    pub role: Role,
}

/// What kind of operation an instruction is, with what the pictures and traces show of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Role {
    /// `mov`: carries a value.
    Move,
    /// Arithmetic that makes a new value from its operands (unary, binary, ternary, `selp`, `cvt`); `name` for
    /// the binary operations a reduction combines with (`max`, `min`, `add`, `mul`).
    Combine {
        name: Option<&'static str>,
    },
    /// `setp` and predicate logic.
    Compare,
    /// A shuffle: its mode, the register it sends (if one), its lane or amount operand, its member mask.
    Shuffle {
        mode: ShflMode,
        sent: Option<u16>,
        amount: Src,
        member: Member,
    },
    Load {
        shared: bool,
    },
    /// A store, and the register whose value it stores (if one).
    Store {
        shared: bool,
        value: Option<u16>,
    },
    Atomic {
        shared: bool,
    },
    Branch {
        target: u32,
    },
    /// `bar`, `bar.warp.sync`, votes, `activemask`, `match`, `exit`, `nop`.
    Other,
}

impl Described {
    /// Describe a decoded instruction.
    pub fn of(d: &DInstr) -> Described {
        let reg = |s: Src| if let Src::Reg(r) = s { Some(r) } else { None };
        let operands: SmallVec<[Src; 3]> = match d.op {
            DOp::Mov { a, .. } | DOp::Un { a, .. } | DOp::Cvt { a, .. } | DOp::St { a, .. } | DOp::Match { a, .. } => {
                smallvec![a]
            }
            DOp::Bin { a, b, .. } | DOp::Setp { a, b, .. } | DOp::Selp { a, b, .. } | DOp::Shfl { a, b, .. } => {
                smallvec![a, b]
            }
            DOp::Tern { a, b, c, .. } => smallvec![a, b, c],
            DOp::Atom { b, c, .. } => {
                let mut v = smallvec![b];
                v.extend(c);
                v
            }
            _ => SmallVec::new(),
        };
        let role = match d.op {
            DOp::Mov { .. } => Role::Move,
            DOp::Bin { f, .. } => Role::Combine {
                name: match f {
                    Bin::MaxF | Bin::MaxS | Bin::MaxU => Some("max"),
                    Bin::MinF | Bin::MinS | Bin::MinU => Some("min"),
                    Bin::AddF | Bin::AddI => Some("add"),
                    Bin::MulF | Bin::MulI => Some("mul"),
                    _ => None,
                },
            },
            DOp::Un { .. } | DOp::Tern { .. } | DOp::Selp { .. } | DOp::Cvt { .. } => Role::Combine { name: None },
            DOp::Setp { .. } | DOp::PredLogic { .. } => Role::Compare,
            DOp::Shfl { mode, a, b, member, .. } => Role::Shuffle {
                mode,
                sent: reg(a),
                amount: b,
                member,
            },
            DOp::Ld { addr, .. } => Role::Load { shared: addr.shared },
            DOp::St { addr, a } => Role::Store {
                shared: addr.shared,
                value: reg(a),
            },
            DOp::Atom { addr, .. } => Role::Atomic { shared: addr.shared },
            DOp::Bra { target } => Role::Branch { target },
            DOp::Bar { .. }
            | DOp::BarWarp { .. }
            | DOp::Vote { .. }
            | DOp::Activemask { .. }
            | DOp::Match { .. }
            | DOp::Exit
            | DOp::Nop => Role::Other,
        };
        Described {
            operands,
            reads: d.reads.clone(),
            write: d.write,
            role,
        }
    }
}

/// A global buffer with its contents (32-bit words).
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    pub name: String,
    pub elem: ElemTy,
    pub data: Vec<u32>,
}

/// A program made concrete for one launch.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub program: Program,
    pub warp_size: u32,
    pub grid: u32,
    pub block: u32,
    /// Parameter values in declaration order.
    pub params: Vec<(String, Value)>,
    pub buffers: Vec<Buffer>,
    /// Shared-memory arrays of each block, laid out one after the other.
    pub shared: Vec<SharedArray>,
    /// Shared memory per block, in 4-byte words.
    pub shared_words: usize,
    pub code: Vec<DInstr>,
    /// Each instruction described for the trace's readers (the renderers read these, never `code`).
    pub described: Vec<Described>,
    /// How to show each register's value in traces: the type the program's typed instructions use it as.
    pub reg_types: Vec<Ty>,
}

/// A shared-memory array as laid out in the block's shared memory.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedArray {
    pub name: String,
    pub elem: ElemTy,
    /// First word in the block's shared memory (bank of element `k` = (offset + k) mod banks).
    pub offset: usize,
    pub len: usize,
}

impl Kernel {
    pub fn warps_per_block(&self) -> u32 {
        self.block.div_ceil(self.warp_size)
    }

    pub fn buffer(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }

    /// Move the buffers' initial contents out (for [`crate::run_with`], which then needs no copy); the kernel
    /// keeps their names and types, with no data.
    pub fn take_buffers(&mut self) -> Vec<Buffer> {
        self.buffers
            .iter_mut()
            .map(|b| Buffer {
                name: b.name.clone(),
                elem: b.elem,
                data: std::mem::take(&mut b.data),
            })
            .collect()
    }
}

/// How to launch: warp size, optional shape overrides, parameter overrides.
#[derive(Clone, Debug, Default)]
pub struct Launch {
    pub grid: Option<u32>,
    pub block: Option<u32>,
    /// `--set NAME=VALUE`, in order.
    pub set: Vec<(String, Value)>,
    /// Bytes of dynamic shared memory per block (the `.shared NAME TYPE[]` array); default 0.
    pub dynamic_shared: Option<u32>,
}

/// Why a program cannot be launched as asked.
#[derive(Debug)]
pub enum LoadError {
    /// A problem with a place in the program text.
    Diagnostic(Box<Diagnostic>),
    /// A problem with the launch request itself (flags).
    Usage(String),
}

impl LoadError {
    pub fn render(&self, program: &Program, color: bool) -> String {
        match self {
            LoadError::Diagnostic(d) => d.render(&program.sources, color),
            LoadError::Usage(m) => format!("error: {m}\n"),
        }
    }
}

fn diag(span: Span, message: impl Into<String>, label: &str, help: Option<String>) -> LoadError {
    let mut d = Diagnostic::error(span, message).with_label(label);
    if let Some(h) = help {
        d = d.with_help(h);
    }
    LoadError::Diagnostic(Box::new(d))
}

fn eval_err(e: EvalError) -> LoadError {
    let EvalError { span, message, help } = e;
    diag(span, message, "here", help)
}

/// Parses a `--set` value or other command-line number: an integer (decimal or 0x hex) or a float.
pub fn parse_value(text: &str) -> Option<Value> {
    let t = text.trim();
    let (neg, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    // One optional minus sign, then digits: no second sign, no sign after `0x`.
    if body.is_empty() || body.starts_with(['+', '-']) {
        return None;
    }
    let sign = |v: i64| if neg { -v } else { v };
    if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if h.is_empty() || !h.bytes().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        return i64::from_str_radix(h, 16).ok().map(|v| Value::Int(sign(v)));
    }
    if body.bytes().all(|c| c.is_ascii_digit()) {
        return body.parse::<i64>().ok().map(|v| Value::Int(sign(v)));
    }
    let float_chars = body
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !float_chars || !body.as_bytes()[0].is_ascii_digit() && body.as_bytes()[0] != b'.' {
        return None;
    }
    t.parse::<f64>().ok().filter(|f| f.is_finite()).map(Value::Float)
}

/// Instantiate `program` for `config.warp_size` and `launch`.
pub fn instantiate(program: &Program, config: &Config, launch: &Launch) -> Result<Kernel, LoadError> {
    instantiate_with(program, config, launch, &Limits::default())
}

/// [`instantiate`] within `limits`.
pub fn instantiate_with(
    program: &Program,
    config: &Config,
    launch: &Launch,
    limits: &Limits,
) -> Result<Kernel, LoadError> {
    let w = config.warp_size;
    if !(2..=64).contains(&w) || !w.is_power_of_two() {
        return Err(LoadError::Usage(format!(
            "warp size {w} is not supported: use a power of two from 2 to 64"
        )));
    }
    let (lo, hi) = program.warp_sizes;
    if w < lo || w > hi {
        let msg = format!("`{}` runs with warp sizes {lo} to {hi}, not {w}", program.name);
        return Err(match program.warp_sizes_span {
            Some(span) => diag(
                span,
                msg,
                "declared here",
                Some(if lo == hi {
                    format!("run it with `--warp {lo}`")
                } else {
                    format!("run it with a `--warp` from {lo} to {hi}")
                }),
            ),
            None => LoadError::Usage(msg),
        });
    }
    // Parameters: defaults in order, then overrides.
    for (name, _) in &launch.set {
        if !program.params.iter().any(|p| &p.name == name) {
            let names: Vec<&str> = program.params.iter().map(|p| p.name.as_str()).collect();
            let hint = match warpsim_isa::diagnostic::closest(name, names.iter().copied()) {
                Some(s) => format!("; did you mean `{s}`?"),
                None if names.is_empty() => format!("; `{}` has no parameters", program.name),
                None => format!("; its parameters are: {}", names.join(", ")),
            };
            return Err(LoadError::Usage(format!(
                "`{}` has no parameter `{name}`{hint}",
                program.name
            )));
        }
    }
    let mut params: Vec<(String, Value)> = Vec::new();
    for p in &program.params {
        let v = match launch.set.iter().rev().find(|(n, _)| n == &p.name) {
            Some((_, v)) => *v,
            None => p
                .default
                .eval(&|name| lookup(name, w, &params, None))
                .map_err(eval_err)?,
        };
        params.push((p.name.clone(), v));
    }
    let env = |name: &str| lookup(name, w, &params, None);
    // The program's own conditions on W and its parameters, before anything is sized by them.
    for r in &program.requires {
        let holds = match r.cond.eval(&env).map_err(eval_err)? {
            Value::Int(v) => v != 0,
            Value::Float(f) => f != 0.0,
        };
        if !holds {
            let mut shape = format!(" (W={w}");
            for (name, value) in params.iter().filter(|(name, _)| r.cond.mentions(name)) {
                let _ = write!(shape, ", {name}={value}");
            }
            shape.push(')');
            return Err(diag(
                r.span,
                format!("{}{shape}", r.message),
                "this launch does not meet the requirement",
                None,
            ));
        }
    }

    let shape = |e: &Option<ConstExpr>, default: u64, what: &str, max: u64| -> Result<u64, LoadError> {
        let Some(e) = e else { return Ok(default) };
        match e.eval(&env).map_err(eval_err)? {
            // (At least 1: the same value unsigned.)
            Value::Int(v) if v >= 1 && v.cast_unsigned() <= max => Ok(v.cast_unsigned()),
            v => Err(diag(
                e.span,
                format!("{what} is {v}; it must be a whole number from 1 to {max}"),
                "evaluates out of range",
                None,
            )),
        }
    };
    let max_block = u64::from(config.max_threads_per_block);
    let grid = match launch.grid {
        Some(g) => u64::from(g),
        None => shape(&program.grid, 1, "the grid", MAX_GRID)?,
    };
    let block = match launch.block {
        Some(b) => u64::from(b),
        None => shape(&program.block, u64::from(w), "the block size", max_block)?,
    };
    if grid == 0 || grid > MAX_GRID {
        return Err(LoadError::Usage(format!(
            "--grid {grid} is out of range: 1 to {MAX_GRID} blocks"
        )));
    }
    if block == 0 || block > max_block {
        return Err(LoadError::Usage(format!(
            "--block {block} is out of range: 1 to {max_block} threads (the machine's limit per block)"
        )));
    }
    if block.div_ceil(u64::from(w)) > u64::from(config.max_warps_per_sm) {
        return Err(LoadError::Usage(format!(
            "a block of {block} threads is {} warps of {w}; the SM holds at most {} (config `max_warps_per_sm`)",
            block.div_ceil(u64::from(w)),
            config.max_warps_per_sm
        )));
    }
    // The register files of the warps resident at once (every SM full, or the whole grid), before any is made.
    let resident =
        (grid * block.div_ceil(u64::from(w))).min(u64::from(config.sms) * u64::from(config.max_warps_per_sm));
    let per_warp = (program.regs.len() as u64 * 64 + program.preds.len() as u64 * 2) * 4;
    if resident.saturating_mul(per_warp) > MAX_REGISTER_BYTES {
        return Err(LoadError::Usage(format!(
            "the program's {} registers take {} KiB per warp; the {resident} warps resident at once would need \
             {} MiB of registers, more than {} MiB\n  help: declare fewer registers, or launch fewer blocks \
             (`--grid`) or a machine with fewer SMs (`--sms`)",
            program.regs.len(),
            per_warp.div_ceil(1024),
            resident.saturating_mul(per_warp).div_ceil(1 << 20),
            MAX_REGISTER_BYTES >> 20,
        )));
    }
    // Buffers: every length, and their sum, is checked before any buffer is allocated or initialised (a
    // launch past the limit is refused in milliseconds, whatever the order of its buffers).
    let mut lengths = Vec::with_capacity(program.buffers.len());
    let mut total_elements = 0u64;
    let max_elements = limits.buffer_elements;
    for b in &program.buffers {
        let v = b.len.eval(&env).map_err(eval_err)?;
        let Some(len) = whole_in(v, 0, max_elements).and_then(|n| usize::try_from(n).ok()) else {
            return Err(diag(
                b.len.span,
                format!("buffer `{}` would have {v} elements", b.name),
                "length out of range",
                Some(format!("a buffer holds 0 to {max_elements} elements")),
            ));
        };
        total_elements += len as u64;
        if total_elements > max_elements {
            return Err(diag(
                b.len.span,
                format!("the buffers together would hold more than {max_elements} elements"),
                "this buffer goes past the limit",
                Some(format!(
                    "global memory is limited to {} of 4-byte elements in all",
                    bytes(max_elements.saturating_mul(4))
                )),
            ));
        }
        lengths.push(len);
    }
    if let Some(bytes) = launch.dynamic_shared {
        if !program.shared.iter().any(|s| s.len.is_none()) {
            return Err(LoadError::Usage(format!(
                "--dynamic-shared {bytes}: `{}` declares no dynamic shared array (`.shared NAME TYPE[]`)",
                program.name
            )));
        }
        if bytes % 4 != 0 {
            return Err(LoadError::Usage(format!(
                "--dynamic-shared {bytes}: the size is in bytes and must be a multiple of 4 (the element size)"
            )));
        }
    }
    // Shared memory: the static arrays in declaration order, then the dynamic one.
    let mut shared = Vec::with_capacity(program.shared.len());
    let mut words = 0usize;
    let max_words = (config.max_shared_per_block / 4) as usize;
    for sh in &program.shared {
        let len = match &sh.len {
            None => (launch.dynamic_shared.unwrap_or(0) / 4) as usize,
            Some(e) => {
                let v = e.eval(&env).map_err(eval_err)?;
                let Some(len) = whole_in(v, 0, max_words as u64).and_then(|n| usize::try_from(n).ok()) else {
                    return Err(diag(
                        e.span,
                        format!("shared array `{}` would have {v} elements", sh.name),
                        "length out of range",
                        Some(format!(
                            "a block has at most {} bytes of shared memory",
                            config.max_shared_per_block
                        )),
                    ));
                };
                len
            }
        };
        shared.push(SharedArray {
            name: sh.name.clone(),
            elem: sh.elem,
            offset: words,
            len,
        });
        words += len;
    }
    if words > max_words {
        return Err(LoadError::Usage(format!(
            "`{}` needs {} bytes of shared memory per block; the machine allows {} (config `max_shared_per_block`)",
            program.name,
            words * 4,
            config.max_shared_per_block
        )));
    }
    // Every size is known and within its limit: now the buffers are allocated and initialised.
    let mut buffers = Vec::with_capacity(program.buffers.len());
    for (b, &len) in program.buffers.iter().zip(&lengths) {
        let data = initialise(b, len, w, &params)?;
        buffers.push(Buffer {
            name: b.name.clone(),
            elem: b.elem,
            data,
        });
    }
    let graph = cfg::analyse(program);
    let code = program
        .instructions
        .iter()
        .enumerate()
        .map(|(pc, inst)| decode(program, inst, pc, &graph, w, &params))
        .collect::<Result<Vec<_>, _>>()?;
    let described = code.iter().map(Described::of).collect();
    Ok(Kernel {
        reg_types: register_types(program),
        program: program.clone(),
        warp_size: w,
        grid: u32::try_from(grid).expect("the grid is checked against MAX_GRID"),
        block: u32::try_from(block).expect("the block is checked against max_threads_per_block, a u32"),
        params,
        buffers,
        shared,
        shared_words: words,
        code,
        described,
    })
}

/// `1073741824` → `1 GiB`: a byte count in the largest binary unit that divides it.
fn bytes(n: u64) -> String {
    match n {
        0 => "0 bytes".into(),
        n if n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

fn lookup(name: &str, w: u32, params: &[(String, Value)], elem: Option<(i64, i64)>) -> Option<Value> {
    if name == "W" {
        return Some(Value::Int(i64::from(w)));
    }
    if let Some((i, n)) = elem {
        match name {
            "i" => return Some(Value::Int(i)),
            "len" => return Some(Value::Int(n)),
            _ => {}
        }
    }
    params.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
}

/// An instruction index as a pc.
#[allow(
    clippy::cast_possible_truncation,
    reason = "a program has far fewer than 2^32 instructions: its source is at most 8 MiB"
)]
fn pc32(pc: usize) -> u32 {
    pc as u32
}

/// `v` as a whole number from `lo` to `hi`, if it is one.
fn whole_in(v: Value, lo: u64, hi: u64) -> Option<u64> {
    match v {
        Value::Int(n) => u64::try_from(n).ok().filter(|n| (lo..=hi).contains(n)),
        Value::Float(_) => None,
    }
}

/// The low 32 bits of `i` (the pattern of an s32 or a u32 value).
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the low 32 bits are the point"
)]
fn low_bits(i: i64) -> u32 {
    i as u32
}

/// The f32 nearest `v` (round to nearest even; out of range: an infinity), as the ISA reads an f32 constant.
#[allow(
    clippy::cast_possible_truncation,
    reason = "rounding to the nearest f32 is the point"
)]
fn nearest_f32(v: f64) -> f32 {
    v as f32
}

/// The bits of `v` as an element of type `elem`.
fn to_elem(v: Value, elem: ElemTy) -> Option<u32> {
    match (elem, v) {
        (ElemTy::F32, v) => Some(nearest_f32(v.as_f64()).to_bits()),
        (ElemTy::S32, Value::Int(i)) => i32::try_from(i).ok().map(i32::cast_unsigned),
        (ElemTy::U32, Value::Int(i)) => u32::try_from(i).ok(),
        (_, Value::Float(_)) => None,
    }
}

#[allow(
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "element indices are the expression language's integers (i64): `len` is within the buffer limit, far \
              below i64::MAX, and an index is checked within 0..len before it indexes"
)]
fn initialise(b: &BufferDecl, len: usize, w: u32, params: &[(String, Value)]) -> Result<Vec<u32>, LoadError> {
    // The memory itself may be refused (a capped address space): an error, not an abort.
    let mut data: Vec<u32> = Vec::new();
    if data.try_reserve_exact(len).is_err() {
        return Err(diag(
            b.len.span,
            format!(
                "cannot allocate buffer `{}`: {} elements ({} bytes)",
                b.name,
                len,
                len as u64 * 4
            ),
            "the host has not this much memory",
            Some("make the buffer smaller, or free memory (a `ulimit -v` may cap this process)".into()),
        ));
    }
    let Some(init) = &b.init else {
        data.resize(len, 0);
        return Ok(data);
    };
    let n = len as i64;
    let bad_value = |span: Span, v: Value, at: i64| {
        diag(
            span,
            format!(
                "value {v} of element {at} does not fit buffer `{}` of {}",
                b.name,
                b.elem.name()
            ),
            "out of range for the element type",
            Some("integer buffers take whole numbers in range; use an f32 buffer for fractions".into()),
        )
    };
    // Values are evaluated in the element's arithmetic: floating point for f32 buffers.
    let value_of = |e: &ConstExpr, i: i64| {
        let env = |name: &str| lookup(name, w, params, Some((i, n)));
        if b.elem == ElemTy::F32 {
            e.eval_float(&env)
        } else {
            e.eval(&env)
        }
        .map_err(eval_err)
    };
    for i in 0..n {
        let v = value_of(&init.default, i)?;
        data.push(to_elem(v, b.elem).ok_or_else(|| bad_value(init.default.span, v, i))?);
    }
    // Indices are integers in `len`, `W` and the parameters (no `i`: they name elements, not compute them).
    let env = |name: &str| match name {
        "len" => Some(Value::Int(n)),
        "i" => None,
        _ => lookup(name, w, params, None),
    };
    let index = |e: &ConstExpr| -> Result<i64, LoadError> {
        match e.eval(&env).map_err(eval_err)? {
            Value::Int(k) if (0..=n).contains(&k) => Ok(k),
            v => Err(diag(
                e.span,
                format!("index {v} is outside buffer `{}` (length {n})", b.name),
                "out of range",
                None,
            )),
        }
    };
    for o in &init.overrides {
        match o {
            InitOverride::One { index: ie, value } => {
                let k = index(ie)?;
                if k == n {
                    return Err(diag(
                        ie.span,
                        format!("index {k} is outside buffer `{}` (length {n})", b.name),
                        "out of range",
                        None,
                    ));
                }
                let v = value_of(value, k)?;
                data[k as usize] = to_elem(v, b.elem).ok_or_else(|| bad_value(value.span, v, k))?;
            }
            InitOverride::List {
                start,
                end: None,
                values,
            } => {
                let s = index(start)?;
                for (k, ve) in (s..n).zip(values) {
                    let v = value_of(ve, k)?;
                    data[k as usize] = to_elem(v, b.elem).ok_or_else(|| bad_value(ve.span, v, k))?;
                }
            }
            InitOverride::List {
                start,
                end: Some(end),
                values,
            } => {
                let (s, e) = (index(start)?, index(end)?);
                if e - s != values.len() as i64 {
                    return Err(diag(
                        start.span.to(end.span),
                        format!(
                            "range {s}..{e} has {} elements but {} values are given",
                            (e - s).max(0),
                            values.len()
                        ),
                        "length mismatch",
                        Some("the range is half-open: `[0..3] = [a, b, c]`; `[0..] = [...]` fills what fits".into()),
                    ));
                }
                for (k, ve) in (s..e).zip(values) {
                    let v = value_of(ve, k)?;
                    data[k as usize] = to_elem(v, b.elem).ok_or_else(|| bad_value(ve.span, v, k))?;
                }
            }
        }
    }
    Ok(data)
}

/// Decode instruction `pc` of `program` (`inst`) for warp size `w` and the launch's `params`: its operation, the
/// unit that runs it and the type its values show as, with the registers and predicates it reads and writes.
fn decode(
    program: &Program,
    inst: &Instruction,
    pc: usize,
    graph: &cfg::Cfg,
    w: u32,
    params: &[(String, Value)],
) -> Result<DInstr, LoadError> {
    let dec = Decoder { w, params };
    let (op, unit, ty) = match &inst.op {
        // Arithmetic, comparisons and conversions.
        Op::Mov { ty, d, a } => dec.mov(*ty, *d, a)?,
        Op::Unary { op, ty, d, a } => dec.unary(*op, *ty, *d, a)?,
        Op::Binary { op, ty, d, a, b } => dec.binary(*op, *ty, *d, a, b)?,
        Op::Ternary { ty, d, a, b, c, .. } => dec.ternary(*ty, *d, a, b, c)?,
        Op::Setp { cmp, ty, p, a, b } => dec.setp(*cmp, *ty, *p, a, b)?,
        Op::PredLogic { op, d, a, b } => pred_logic(*op, *d, *a, *b),
        Op::Selp { ty, d, a, b, p } => dec.selp(*ty, *d, a, b, *p)?,
        Op::Cvt {
            rounding,
            to,
            from,
            d,
            a,
        } => dec.cvt(*rounding, *to, *from, *d, a)?,
        // Memory.
        Op::Ld { ty, d, addr: a } => dec.ld(*ty, *d, a)?,
        Op::St { ty, addr: a, a: v } => dec.st(*ty, a, v)?,
        Op::Atom {
            op,
            ty,
            d,
            addr: a,
            b,
            c,
        } => dec.atom(*op, *ty, *d, a, b, c.as_ref())?,
        // Barriers, and what a warp's lanes decide together.
        Op::Bar { kind, id, count, pred } => dec.bar(*kind, id, count.as_ref(), *pred)?,
        Op::BarWarp { mask } => dec.bar_warp(mask.as_ref())?,
        Op::Vote {
            mode,
            d_pred,
            d_reg,
            a,
            mask,
        } => dec.vote(*mode, (*d_pred, *d_reg), *a, mask.as_ref())?,
        Op::Activemask { d } => (DOp::Activemask { d: d.0 }, Unit::Alu, Ty::U32),
        Op::Match { all, d, p, a, mask } => dec.matching(*all, (*d, *p), a, mask.as_ref())?,
        Op::Shfl {
            mode,
            d,
            p,
            a,
            b,
            segment,
            mask,
        } => dec.shfl(*mode, (*d, *p), a, b, segment.as_ref(), mask.as_ref())?,
        // Control flow.
        Op::Bra { target } => (DOp::Bra { target: pc32(*target) }, Unit::Branch, Ty::B32),
        Op::Exit => (DOp::Exit, Unit::Branch, Ty::B32),
        Op::Nop => (DOp::Nop, Unit::Alu, Ty::B32),
    };
    let mut reads: smallvec::SmallVec<[u16; 4]> = inst
        .op
        .sources()
        .into_iter()
        .filter_map(|o| match o {
            Operand::Reg(r) => Some(r.0),
            _ => None,
        })
        .collect();
    reads.sort_unstable();
    reads.dedup();
    let mut pred_reads: smallvec::SmallVec<[u16; 2]> = inst.op.preds_read().into_iter().map(|p| p.0).collect();
    if let Some(g) = inst.guard {
        pred_reads.push(g.pred.0);
    }
    let ty = match (&inst.op, ty) {
        // Shuffles move bits; show them as the type of the value when the program says (b32 → u32 view).
        (_, Ty::B32) => Ty::U32,
        (_, t) => t,
    };
    Ok(DInstr {
        guard: inst.guard.map(|g| (g.pred.0, g.negated)),
        op,
        unit,
        reads,
        pred_reads,
        write: inst.op.reg_written().map(|r| r.0),
        pred_write: inst.op.pred_written().map(|p| p.0),
        reconverge: pc32(graph.reconvergence_pc(pc).unwrap_or(program.instructions.len())),
        ty,
    })
}

/// An instruction decoded: its operation, the unit that runs it, and the type its values show as.
type Decoded = (DOp, Unit, Ty);

/// A predicate operation (no operand to evaluate).
fn pred_logic(op: PredLogicOp, d: Pred, a: PredOperand, b: Option<PredOperand>) -> Decoded {
    (
        DOp::PredLogic {
            op,
            d: d.0,
            a: (a.pred.0, a.negated),
            b: b.map(|b| (b.pred.0, b.negated)),
        },
        Unit::Alu,
        Ty::B32,
    )
}

/// What decoding an instruction's operands needs: the warp size and the launch's parameters, which immediates,
/// address offsets, lane masks and shuffle widths are constant expressions of.
struct Decoder<'a> {
    w: u32,
    params: &'a [(String, Value)],
}

impl Decoder<'_> {
    /// The value of a name in a constant expression (`W`, a parameter).
    fn env(&self, name: &str) -> Option<Value> {
        lookup(name, self.w, self.params, None)
    }

    /// An immediate as the bits of a `ty` operand: an integer in 32 bits, or a float for `.f32`.
    fn imm(&self, e: &ConstExpr, ty: Ty) -> Result<u32, LoadError> {
        let env = |name: &str| self.env(name);
        let v = if ty == Ty::F32 {
            e.eval_float(&env)
        } else {
            e.eval(&env)
        }
        .map_err(eval_err)?;
        let out = match (ty, v) {
            (Ty::F32, v) => Some(nearest_f32(v.as_f64()).to_bits()),
            // An s32 or a u32: its 32-bit pattern.
            (_, Value::Int(i)) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&i) => Some(low_bits(i)),
            _ => None,
        };
        out.ok_or_else(|| match v {
            Value::Float(_) => diag(
                e.span,
                format!("a `.{}` operand needs an integer, and this is {v}", ty.name()),
                "not an integer",
                Some("set an integer (a `--set` value with a decimal point is a float)".into()),
            ),
            Value::Int(_) => diag(
                e.span,
                format!("immediate {v} does not fit a `.{}` operand", ty.name()),
                "out of range",
                Some("integer operands are 32 bits: -2147483648 to 4294967295".into()),
            ),
        })
    }

    /// A value operand read as `ty`.
    fn src(&self, o: &Operand, ty: Ty) -> Result<Src, LoadError> {
        Ok(match o {
            Operand::Reg(r) => Src::Reg(r.0),
            Operand::Special(s) => Src::Special(*s),
            Operand::Imm(e) => Src::Imm(self.imm(e, ty)?),
        })
    }

    /// An address: its array, base and integer offset.
    fn addr(&self, a: &Address) -> Result<DAddr, LoadError> {
        let disp = match &a.disp {
            Some(e) => match e.eval(&|name: &str| self.env(name)).map_err(eval_err)? {
                Value::Int(v) => v,
                v @ Value::Float(_) => {
                    return Err(diag(
                        e.span,
                        format!("address offset {v} is not an integer"),
                        "expected an integer",
                        None,
                    ));
                }
            },
            None => 0,
        };
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the assembler refuses a program with u16::MAX buffers and shared arrays or more"
        )]
        let buffer = a.buffer as u16;
        Ok(DAddr {
            shared: a.space == Space::Shared,
            buffer,
            byte: a.mode == AddrMode::Byte,
            base: a.base.as_ref().map(|b| self.src(b, Ty::U32)).transpose()?,
            disp,
        })
    }

    /// A member mask: a constant cut to the warp's lanes (all lanes when omitted), or a register.
    fn lane_mask_of(&self, m: Option<&Operand>) -> Result<Member, LoadError> {
        let lane_mask = if self.w == 64 { u64::MAX } else { (1u64 << self.w) - 1 };
        match m {
            None => Ok(Member::Lanes(lane_mask)),
            Some(o @ (Operand::Reg(_) | Operand::Special(_))) => Ok(Member::Reg(self.src(o, Ty::U32)?)),
            Some(Operand::Imm(e)) => match e.eval(&|name: &str| self.env(name)).map_err(eval_err)? {
                Value::Int(v) => Ok(Member::Lanes(v.cast_unsigned() & lane_mask)),
                v @ Value::Float(_) => Err(diag(
                    e.span,
                    format!("lane mask {v} is not an integer"),
                    "expected a lane mask",
                    None,
                )),
            },
        }
    }

    /// `mov`: the clock's own unit for `%clock`, the ALU otherwise.
    fn mov(&self, ty: Ty, d: Reg, a: &Operand) -> Result<Decoded, LoadError> {
        let unit = if matches!(a, Operand::Special(Special::Clock)) {
            Unit::Clock
        } else {
            Unit::Alu
        };
        Ok((
            DOp::Mov {
                d: d.0,
                a: self.src(a, ty)?,
            },
            unit,
            ty,
        ))
    }

    /// `neg`, `abs`, `not`: float or integer by the type.
    fn unary(&self, op: UnaryOp, ty: Ty, d: Reg, a: &Operand) -> Result<Decoded, LoadError> {
        let f = match (op, ty) {
            (UnaryOp::Neg, Ty::F32) => Un::NegF,
            (UnaryOp::Neg, _) => Un::NegI,
            (UnaryOp::Abs, Ty::F32) => Un::AbsF,
            (UnaryOp::Abs, _) => Un::AbsI,
            (UnaryOp::Not, _) => Un::Not,
        };
        Ok((
            DOp::Un {
                f,
                d: d.0,
                a: self.src(a, ty)?,
            },
            Unit::Alu,
            ty,
        ))
    }

    /// A two-operand operation: float, signed or unsigned by the type, on the unit its operation uses; a shift's
    /// amount is read as `.u32`.
    fn binary(&self, op: BinaryOp, ty: Ty, d: Reg, a: &Operand, b: &Operand) -> Result<Decoded, LoadError> {
        let f = binary_op(op, ty);
        let bty = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            Ty::U32
        } else {
            ty
        };
        Ok((
            DOp::Bin {
                f,
                d: d.0,
                a: self.src(a, ty)?,
                b: self.src(b, bty)?,
            },
            binary_unit(f),
            ty,
        ))
    }

    /// `fma` or `mad`, on the FMA datapath.
    fn ternary(&self, ty: Ty, d: Reg, a: &Operand, b: &Operand, c: &Operand) -> Result<Decoded, LoadError> {
        let (f, unit) = if ty == Ty::F32 {
            (Tern::FmaF, Unit::Fma)
        } else {
            (Tern::MadI, Unit::Fma)
        };
        Ok((
            DOp::Tern {
                f,
                d: d.0,
                a: self.src(a, ty)?,
                b: self.src(b, ty)?,
                c: self.src(c, ty)?,
            },
            unit,
            ty,
        ))
    }

    /// `setp`: a float, signed or unsigned comparison by the type.
    fn setp(&self, cmp: Cmp, ty: Ty, p: Pred, a: &Operand, b: &Operand) -> Result<Decoded, LoadError> {
        let class = match ty {
            Ty::F32 => CmpClass::Float,
            Ty::S32 => CmpClass::Signed,
            _ => CmpClass::Unsigned,
        };
        Ok((
            DOp::Setp {
                cmp,
                class,
                p: p.0,
                a: self.src(a, ty)?,
                b: self.src(b, ty)?,
            },
            Unit::Alu,
            ty,
        ))
    }

    /// `selp`: one of two values by a predicate.
    fn selp(&self, ty: Ty, d: Reg, a: &Operand, b: &Operand, p: Pred) -> Result<Decoded, LoadError> {
        Ok((
            DOp::Selp {
                d: d.0,
                a: self.src(a, ty)?,
                b: self.src(b, ty)?,
                p: p.0,
            },
            Unit::Alu,
            ty,
        ))
    }

    /// `cvt`: which conversion the two types make; the value shows as the type converted to.
    fn cvt(&self, rounding: Rounding, to: Ty, from: Ty, d: Reg, a: &Operand) -> Result<Decoded, LoadError> {
        let f = match (to, from) {
            (Ty::F32, Ty::F32) => Conv::F2F(rounding),
            (Ty::S32, Ty::F32) => Conv::F2S(rounding),
            (Ty::U32, Ty::F32) => Conv::F2U(rounding),
            (Ty::F32, Ty::S32) => Conv::S2F,
            (Ty::F32, _) => Conv::U2F,
            _ => Conv::Bits,
        };
        Ok((
            DOp::Cvt {
                f,
                d: d.0,
                a: self.src(a, from)?,
            },
            Unit::Convert,
            to,
        ))
    }

    /// `ld`: on the shared or the global load path by the address's space.
    fn ld(&self, ty: Ty, d: Reg, a: &Address) -> Result<Decoded, LoadError> {
        let unit = if a.space == Space::Shared {
            Unit::SharedLoad
        } else {
            Unit::GlobalLoad
        };
        Ok((
            DOp::Ld {
                d: d.0,
                addr: self.addr(a)?,
            },
            unit,
            ty,
        ))
    }

    /// `st`: on the shared or the global store path by the address's space.
    fn st(&self, ty: Ty, a: &Address, v: &Operand) -> Result<Decoded, LoadError> {
        let unit = if a.space == Space::Shared {
            Unit::SharedStore
        } else {
            Unit::GlobalStore
        };
        Ok((
            DOp::St {
                addr: self.addr(a)?,
                a: self.src(v, ty)?,
            },
            unit,
            ty,
        ))
    }

    /// `atom`: which atomic (float, signed or unsigned by the type), shared or global by the address's space.
    fn atom(
        &self,
        op: AtomOp,
        ty: Ty,
        d: Option<Reg>,
        a: &Address,
        b: &Operand,
        c: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        let unit = if a.space == Space::Shared {
            Unit::SharedAtomic
        } else {
            Unit::GlobalAtomic
        };
        Ok((
            DOp::Atom {
                f: atomic_op(op, ty),
                d: d.map(|d| d.0),
                addr: self.addr(a)?,
                b: self.src(b, ty)?,
                c: c.map(|c| self.src(c, ty)).transpose()?,
            },
            unit,
            ty,
        ))
    }

    /// `bar.sync` and `bar.red`: the barrier's id, its thread count, and what it reduces.
    fn bar(
        &self,
        kind: BarKind,
        id: &Operand,
        count: Option<&Operand>,
        pred: Option<PredOperand>,
    ) -> Result<Decoded, LoadError> {
        let kind = match kind {
            BarKind::Sync => DBar::Sync,
            BarKind::Popc(d) => DBar::Popc(d.0),
            BarKind::And(d) => DBar::And(d.0),
            BarKind::Or(d) => DBar::Or(d.0),
        };
        Ok((
            DOp::Bar {
                kind,
                id: self.src(id, Ty::U32)?,
                count: count.map(|c| self.src(c, Ty::U32)).transpose()?,
                pred: pred.map(|p| (p.pred.0, p.negated)),
            },
            Unit::Barrier,
            Ty::U32,
        ))
    }

    /// `bar.warp.sync`: its member mask.
    fn bar_warp(&self, mask: Option<&Operand>) -> Result<Decoded, LoadError> {
        Ok((
            DOp::BarWarp {
                mask: self.lane_mask_of(mask)?,
            },
            Unit::Alu,
            Ty::B32,
        ))
    }

    /// `vote`: its destination (the register when it writes one, else the predicate) and member mask.
    fn vote(
        &self,
        mode: VoteMode,
        (d_pred, d_reg): (Option<Pred>, Option<Reg>),
        a: PredOperand,
        mask: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        let d = match (d_pred, d_reg) {
            (_, Some(r)) => r.0,
            (Some(p), None) => p.0,
            (None, None) => 0,
        };
        Ok((
            DOp::Vote {
                mode,
                d,
                a: (a.pred.0, a.negated),
                mask: self.lane_mask_of(mask)?,
            },
            Unit::Alu,
            Ty::U32,
        ))
    }

    /// `match.any` and `match.all`: the value compared (as bits) and the member mask.
    fn matching(
        &self,
        all: bool,
        (d, p): (Reg, Option<Pred>),
        a: &Operand,
        mask: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        Ok((
            DOp::Match {
                all,
                d: d.0,
                p: p.map(|p| p.0),
                a: self.src(a, Ty::B32)?,
                mask: self.lane_mask_of(mask)?,
            },
            Unit::Alu,
            Ty::U32,
        ))
    }

    /// `shfl`: its segment (clamp and segment mask), member mask, and the shuffle unit (`idx` has its own).
    fn shfl(
        &self,
        mode: ShflMode,
        (d, p): (Reg, Option<Pred>),
        a: &Operand,
        b: &Operand,
        segment: Option<&ShflSegment>,
        mask: Option<&Operand>,
    ) -> Result<Decoded, LoadError> {
        let (clamp, segmask) = self.segment(mode, segment)?;
        let member = self.lane_mask_of(mask)?;
        let unit = if mode == ShflMode::Idx {
            Unit::ShuffleIdx
        } else {
            Unit::Shuffle
        };
        Ok((
            DOp::Shfl {
                mode,
                d: d.0,
                p: p.map(|p| p.0),
                a: self.src(a, Ty::B32)?,
                b: self.src(b, Ty::U32)?,
                clamp,
                segmask,
                member,
            },
            unit,
            Ty::B32,
        ))
    }

    /// A shuffle's clamp and segment mask: the whole warp when omitted, a segment of a power-of-two width, or
    /// PTX's raw `c` operand.
    fn segment(&self, mode: ShflMode, segment: Option<&ShflSegment>) -> Result<(u32, u32), LoadError> {
        let w = self.w;
        Ok(match segment {
            None => (if mode == ShflMode::Up { 0 } else { w - 1 }, 0),
            Some(ShflSegment::Width(e)) => {
                let v = e.eval(&|name: &str| self.env(name)).map_err(eval_err)?;
                let width = whole_in(v, 1, u64::from(w))
                    .filter(|n| n.is_power_of_two())
                    .and_then(|n| u32::try_from(n).ok());
                let Some(width) = width else {
                    return Err(diag(
                        e.span,
                        format!("shuffle width {v} does not fit a warp of {w} lanes"),
                        "invalid width",
                        Some(format!("the width is a power of two from 1 to the warp size ({w})")),
                    ));
                };
                (if mode == ShflMode::Up { 0 } else { width - 1 }, w - width)
            }
            Some(ShflSegment::Raw(e)) => {
                let c = self.imm(e, Ty::U32)?;
                (c & (w - 1), (c >> 8) & (w - 1))
            }
        })
    }
}

/// A two-operand operation's function: float, signed or unsigned by the type.
fn binary_op(op: BinaryOp, ty: Ty) -> Bin {
    let signed = ty == Ty::S32;
    let float = ty == Ty::F32;
    match op {
        BinaryOp::Add if float => Bin::AddF,
        BinaryOp::Add => Bin::AddI,
        BinaryOp::Sub if float => Bin::SubF,
        BinaryOp::Sub => Bin::SubI,
        BinaryOp::Mul if float => Bin::MulF,
        BinaryOp::Mul => Bin::MulI,
        BinaryOp::Div if float => Bin::DivF,
        BinaryOp::Div if signed => Bin::DivS,
        BinaryOp::Div => Bin::DivU,
        BinaryOp::Rem if signed => Bin::RemS,
        BinaryOp::Rem => Bin::RemU,
        BinaryOp::Min if float => Bin::MinF,
        BinaryOp::Min if signed => Bin::MinS,
        BinaryOp::Min => Bin::MinU,
        BinaryOp::Max if float => Bin::MaxF,
        BinaryOp::Max if signed => Bin::MaxS,
        BinaryOp::Max => Bin::MaxU,
        BinaryOp::And => Bin::And,
        BinaryOp::Or => Bin::Or,
        BinaryOp::Xor => Bin::Xor,
        BinaryOp::Shl => Bin::Shl,
        BinaryOp::Shr if signed => Bin::ShrS,
        BinaryOp::Shr => Bin::ShrU,
    }
}

/// The unit a two-operand operation runs on.
fn binary_unit(f: Bin) -> Unit {
    match f {
        Bin::DivF => Unit::Fp32Div,
        Bin::DivS | Bin::DivU | Bin::RemS | Bin::RemU => Unit::IntDiv,
        // Adds, subtracts and multiplies (float and integer) use the FMA datapath; min, max, logic and shifts
        // the ALU.
        Bin::AddF | Bin::SubF | Bin::MulF | Bin::AddI | Bin::SubI | Bin::MulI => Unit::Fma,
        _ => Unit::Alu,
    }
}

/// An atomic's function: float, signed or unsigned by the type.
fn atomic_op(op: AtomOp, ty: Ty) -> Atom {
    let float = ty == Ty::F32;
    let signed = ty == Ty::S32;
    match op {
        AtomOp::Add if float => Atom::AddF,
        AtomOp::Add => Atom::AddI,
        AtomOp::Min if float => Atom::MinF,
        AtomOp::Min if signed => Atom::MinS,
        AtomOp::Min => Atom::MinU,
        AtomOp::Max if float => Atom::MaxF,
        AtomOp::Max if signed => Atom::MaxS,
        AtomOp::Max => Atom::MaxU,
        AtomOp::Exch => Atom::Exch,
        AtomOp::Cas => Atom::Cas,
        AtomOp::And => Atom::And,
        AtomOp::Or => Atom::Or,
        AtomOp::Xor => Atom::Xor,
    }
}

/// The element type of the array an address names.
fn elem_of(p: &Program, addr: &Address) -> ElemTy {
    match addr.space {
        Space::Global => p.buffers[addr.buffer].elem,
        Space::Shared => p.shared[addr.buffer].elem,
    }
}

/// Infers a display type per register: the type most typed instructions read or write it as (shuffles and
/// `.b32` moves carry no type). Only traces use it; values are untyped bits.
fn register_types(p: &Program) -> Vec<Ty> {
    fn slot(ty: Ty) -> Option<usize> {
        match ty {
            Ty::F32 => Some(0),
            Ty::S32 => Some(1),
            Ty::U32 => Some(2),
            Ty::B32 => None,
        }
    }
    let mut votes = vec![[0u32; 3]; p.regs.len()];
    let mut vote = |o: &Operand, ty: Ty| {
        if let (Operand::Reg(r), Some(k)) = (o, slot(ty)) {
            votes[r.0 as usize][k] += 1;
        }
    };
    for inst in &p.instructions {
        match &inst.op {
            Op::Mov { ty, d, a } | Op::Unary { ty, d, a, .. } => {
                vote(&Operand::Reg(*d), *ty);
                vote(a, *ty);
            }
            Op::Binary { op, ty, d, a, b } => {
                vote(&Operand::Reg(*d), *ty);
                vote(a, *ty);
                if !matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                    vote(b, *ty);
                }
            }
            Op::Ternary { ty, d, a, b, c, .. } => {
                vote(&Operand::Reg(*d), *ty);
                for o in [a, b, c] {
                    vote(o, *ty);
                }
            }
            Op::Setp { ty, a, b, .. } => {
                vote(a, *ty);
                vote(b, *ty);
            }
            Op::Selp { ty, d, a, b, .. } => {
                vote(&Operand::Reg(*d), *ty);
                vote(a, *ty);
                vote(b, *ty);
            }
            Op::Cvt { to, from, d, a, .. } => {
                vote(&Operand::Reg(*d), *to);
                vote(a, *from);
            }
            Op::Ld { ty, d, addr } => {
                let t = if *ty == Ty::B32 { elem_of(p, addr).ty() } else { *ty };
                vote(&Operand::Reg(*d), t);
            }
            Op::St { ty, addr, a } => {
                let t = if *ty == Ty::B32 { elem_of(p, addr).ty() } else { *ty };
                vote(a, t);
            }
            _ => {}
        }
    }
    votes
        .iter()
        .map(|v| {
            let best = (0..3).max_by_key(|&k| (v[k], 3 - k)).unwrap_or(2);
            if v[best] == 0 {
                Ty::U32
            } else {
                [Ty::F32, Ty::S32, Ty::U32][best]
            }
        })
        .collect()
}
