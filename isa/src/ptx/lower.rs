//! Lowering: one entry of a PTX [`Module`] → a warpsim [`Program`].
//!
//! PTX registers become the program's registers (a `.b64`/`.u64`/`.f64` register a 64-bit one, a `.pred` a
//! predicate), instructions become [`Op`]s one for one where warpsim has the instruction, and a few each where it
//! takes several (a `setp` with a second destination or a boolean combination, a vector `ld`/`st`, `cvta`,
//! an unordered float comparison). Memory is addressed as PTX does: a register holding an address
//! ([`AddrMode::Flat`]); a kernel parameter is a constant of the launch ([`Bindings`]): a pointer the address of
//! a buffer, a scalar a program parameter. Module-scope `.global` and `.const` variables become buffers, `.shared`
//! variables shared arrays, `.local` variables the thread's local memory. Every lowered instruction keeps the
//! span of its PTX statement, and the `.loc` in force names its CUDA or Python source line.
//!
//! What is not lowered is an error naming the instruction and its line, pointing at `docs/ptx.md`, which lists
//! what is supported.

#![allow(
    clippy::unused_self,
    reason = "the lowering's helpers are methods of one pass, whether or not they read its state today"
)]

use super::ast::{
    self as ptx, Function, InitValue, Initializer, Module, OperandKind, ScalarType, StateSpace, Statement,
};
use crate::address::{LOCAL_WINDOW, SHARED_WINDOW};
use crate::ast::{
    AddrMode, Address, ApproxOp, AtomOp, BarKind, BinaryOp, BufferDecl, CarryOp, Cmp, ElemTy, Guard, HalfOp, Init,
    InitOverride, Instruction, Named, Narrow, Op, Operand, Origin, ParamDecl, Pred, PredLogicOp, PredOperand, Program,
    ReduxOp, Reg, RoundedOp, Rounding, Scheduling, SharedDecl, ShflMode, ShflSegment, Space, Special, TernaryOp, Ty,
    UnaryOp, VoteMode, Width,
};
use crate::ast::{PtxArg, PtxSource};
use crate::diagnostic::Diagnostic;
use crate::expr::{BinOp, ConstExpr, ExprKind};
use crate::source::{SourceMap, Span};
use std::collections::HashMap;

/// Where the supported subset is listed (every "not supported" error says so).
pub const SUBSET_DOC: &str = "docs/ptx.md lists the PTX warpsim runs";

/// What a kernel parameter is at this launch.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// A constant expression of the program: `Var(buffer)` is a buffer's address, `Var(param)` a scalar given at
    /// launch (`--set`), an integer or float a constant.
    Expr(ConstExpr),
    /// Not bound (`sim check`): reading it is an error.
    Unbound,
}

/// The launch-side facts the lowering needs: the program's buffers and parameters, and what each `.param` of
/// the entry holds.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    /// Buffers the kernel's pointer arguments point to (first in the program, in this order).
    pub buffers: Vec<BufferDecl>,
    /// Scalars given at launch.
    pub params: Vec<ParamDecl>,
    /// Per `.param` of the entry, in order.
    pub values: Vec<ParamValue>,
}

/// A register of the lowering: its row(s) in the program and its PTX width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// A 32-bit register (or a 16-bit one, held in 32 bits).
    R32(Reg, u32),
    /// A 64-bit register.
    R64(Reg),
    Pred(Pred),
}

/// An instruction whose branch target is still a label name.
struct Pending {
    inst: Instruction,
    label: Option<(String, Span)>,
}

impl Pending {
    /// `op` as lowered from the PTX instruction `at` (its guard, text and source line).
    fn of(at: &At, op: Op) -> Pending {
        Pending {
            inst: Instruction {
                guard: at.guard,
                op,
                span: at.i.span,
                text: at.text.clone(),
                expanded_from: None,
                origin: at.origin.clone(),
                param: None,
                debug: None,
            },
            label: None,
        }
    }
}

struct Lower<'a> {
    module: &'a Module,
    /// Reads a source file a `.loc` names (its path as `.file` gives it).
    read: &'a dyn Fn(&str) -> Option<(String, String)>,
    /// `.file` index → the file in the program's source map (`None`: unreadable).
    files: HashMap<u32, Option<crate::source::FileId>>,
    sources: &'a SourceMap,
    entry: &'a Function,
    bindings: &'a Bindings,
    p: Program,
    /// Register names in scope, innermost scope last.
    scopes: Vec<HashMap<String, Slot>>,
    /// Names used by program registers (a nested scope's register may reuse a PTX name).
    used: std::collections::HashSet<String>,
    /// Symbols: variables' addresses (shared offset, buffer address, local offset) as expressions.
    symbols: HashMap<String, (StateSpace, ConstExpr)>,
    labels: HashMap<String, usize>,
    code: Vec<Pending>,
    /// Instructions held back until an instruction reads or writes their destination, or the basic block ends
    /// ([`Lower::defer`]).
    deferred: Vec<Pending>,
    /// Scratch predicates and registers, created on first use.
    scratch_preds: Vec<Pred>,
    /// The predicate that holds PTX's carry flag, once an instruction uses it.
    carry_pred: Option<Pred>,
    scratch_regs: HashMap<(bool, u32), Reg>,
    /// Registers known to hold a constant here (set by an unguarded `mov` of an immediate since the last label):
    /// a shuffle's clamp/segment operand, which nvcc moves into a register first.
    known: HashMap<Reg, ConstExpr>,
    /// `.param` variables of call sequences in scope (name → unique id), innermost last.
    param_scopes: Vec<HashMap<String, u32>>,
    /// The registers holding each call-sequence `.param` variable's bytes: (id, byte offset) → register.
    param_slots: HashMap<(u32, i64), Slot>,
    next_param: u32,
    /// Each entry parameter's byte offset in the parameter space (`entry::param_offsets`), for the constant-bank
    /// line its reads touch (`Instruction::param`).
    param_offsets: Vec<u32>,
    /// The device functions being inlined (outermost first): each with its parameters' and return values'
    /// call-site variables, the label its `ret` jumps to and the prefix of its labels.
    frames: Vec<Frame>,
    calls: u32,
    /// A scratch register that could not be created (past `u16::MAX` registers): the lowering's error.
    too_many: Option<Diagnostic>,
    /// The module is a debug build (`.target …, debug`): each instruction carries its [`crate::ast::DebugClass`].
    debug: bool,
    /// Where each `.pragma "nounroll"` stands ([`PtxSource::nounroll`]).
    nounroll: Vec<u32>,
    /// The multiplications and additions ptxas fuses (`super::contract`), in every function lowered so far.
    contract: super::contract::Plan,
}

/// A device function inlined at a call site.
struct Frame {
    function: String,
    /// The callee's parameter and return-value names → the caller's `.param` variables (ids).
    params: HashMap<String, u32>,
    ret_label: String,
    /// The call's source line: the origin of the callee's instructions that have no `.loc` of their own (CUDA's
    /// math library's internal functions, `__internal_trig_reduction_slowpathd`, carry none).
    origin: Option<Origin>,
}

/// Lower entry `entry` of `module` with the launch's `bindings`.
///
/// `read` reads a source file that the PTX's `.loc`s name (the path as its `.file` directive gives it) and
/// returns the path it was read from (for messages) and its text: each lowered instruction's [`Origin`] then
/// carries the line's span in the program's source map.
pub fn lower(
    module: &Module,
    sources: &SourceMap,
    entry: &Function,
    bindings: &Bindings,
    read: &dyn Fn(&str) -> Option<(String, String)>,
) -> Result<Program, Diagnostic> {
    let mut l = Lower {
        module,
        read,
        files: HashMap::new(),
        sources,
        entry,
        bindings,
        p: Program {
            name: entry.name.name.clone(),
            description: None,
            warp_sizes: (32, 32),
            warp_sizes_span: None,
            // PTX for sm_70 and later assumes independent thread scheduling.
            scheduling: Some(Scheduling::Its),
            grid: None,
            block: None,
            params: bindings.params.clone(),
            buffers: bindings.buffers.clone(),
            shared: Vec::new(),
            requires: Vec::new(),
            local_bytes: 0,
            regs: Vec::new(),
            preds: Vec::new(),
            labels: Vec::new(),
            instructions: Vec::new(),
            sources: sources.clone(),
            ptx: None,
        },
        scopes: vec![HashMap::new()],
        used: std::collections::HashSet::new(),
        symbols: HashMap::new(),
        labels: HashMap::new(),
        code: Vec::new(),
        deferred: Vec::new(),
        scratch_preds: Vec::new(),
        carry_pred: None,
        scratch_regs: HashMap::new(),
        known: HashMap::new(),
        param_scopes: vec![HashMap::new()],
        param_slots: HashMap::new(),
        next_param: 0,
        param_offsets: super::entry::param_offsets(entry),
        frames: Vec::new(),
        calls: 0,
        too_many: None,
        debug: module.target.iter().any(|t| t.name == "debug"),
        nounroll: Vec::new(),
        contract: super::contract::Plan::default(),
    };
    l.module_variables()?;
    let Some(body) = &entry.body else {
        return Err(Diagnostic::error(
            entry.name.span,
            format!("`{}` is declared but has no body", entry.name.name),
        )
        .with_label("no body"));
    };
    if !l.debug {
        l.contract = super::contract::plan(body);
    }
    l.block(body)?;
    l.p.ptx = Some(Box::new(PtxSource {
        text: sources.file(module.file).text.clone(),
        entry: entry.name.name.clone(),
        args: entry
            .params
            .iter()
            .zip(&bindings.values)
            .map(|(param, v)| match v {
                ParamValue::Expr(e) => match &e.kind {
                    ExprKind::Var(name) if l.p.buffers.iter().any(|b| &b.name == name) => {
                        PtxArg::Buffer(l.p.buffers.iter().position(|b| &b.name == name).expect("found"))
                    }
                    _ => PtxArg::Scalar {
                        bits: param.ty.scalar.bits(),
                        float: matches!(param.ty.scalar, ScalarType::F32 | ScalarType::F64),
                        value: e.clone(),
                    },
                },
                ParamValue::Unbound => PtxArg::Scalar {
                    bits: param.ty.scalar.bits(),
                    float: false,
                    value: int(0, param.name.span),
                },
            })
            .collect(),
        nounroll: std::mem::take(&mut l.nounroll),
    }));
    // Falling off the end of a kernel ends its threads.
    l.finish(entry.span)
}

/// `d` = the low `bits` of `a`, sign-extended (`bfe.s32 d, a, 0, bits`) or zero-extended (`and.b32`): how an 8- or
/// 16-bit value is held in a 32-bit row.
fn low_bits(span: Span, d: Reg, a: Operand, bits: u32, signed: bool) -> Op {
    let imm = |v: i64| Operand::Imm(int(v, span));
    if signed {
        Op::Ternary {
            op: TernaryOp::Bfe,
            ty: Ty::S32,
            d,
            a,
            b: imm(0),
            c: imm(i64::from(bits)),
        }
    } else {
        Op::Binary {
            op: BinaryOp::And,
            ty: Ty::B32,
            d,
            a,
            b: imm((1i64 << bits) - 1),
        }
    }
}

fn unsupported(span: Span, what: impl Into<String>) -> Diagnostic {
    Diagnostic::error(span, what)
        .with_label("not supported")
        .with_help(SUBSET_DOC)
}

fn int(v: i64, span: Span) -> ConstExpr {
    ConstExpr::int(v, span)
}

fn var(name: &str, span: Span) -> ConstExpr {
    ConstExpr {
        kind: ExprKind::Var(name.to_string()),
        span,
    }
}

fn plus(a: ConstExpr, offset: i64) -> ConstExpr {
    if offset == 0 {
        return a;
    }
    let span = a.span;
    ConstExpr {
        kind: ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(int(offset, span))),
        span,
    }
}

/// A `setp` comparison warpsim has as it is: PTX's ordered ones, and the unsigned names of the same (`lo` is `lt`
/// of an unsigned type).
fn ordered_cmp(name: &str) -> Option<Cmp> {
    Some(match name {
        "eq" => Cmp::Eq,
        "ne" => Cmp::Ne,
        "lt" | "lo" => Cmp::Lt,
        "le" | "ls" => Cmp::Le,
        "gt" | "hi" => Cmp::Gt,
        "ge" | "hs" => Cmp::Ge,
        _ => return None,
    })
}

/// A warpsim type for a PTX scalar type of 32 or 64 bits.
fn ty_of(s: ScalarType) -> Option<Ty> {
    Some(match s {
        ScalarType::U32 => Ty::U32,
        ScalarType::S32 => Ty::S32,
        ScalarType::B32 => Ty::B32,
        ScalarType::F32 => Ty::F32,
        ScalarType::U64 => Ty::U64,
        ScalarType::S64 => Ty::S64,
        ScalarType::B64 => Ty::B64,
        ScalarType::F64 => Ty::F64,
        _ => return None,
    })
}

/// A 16-bit float type among an instruction's qualifiers: (bfloat16, two halves).
fn half_type(q: &[&str]) -> Option<(bool, bool)> {
    q.iter().find_map(|q| match *q {
        "f16" => Some((false, false)),
        "f16x2" => Some((false, true)),
        "bf16" => Some((true, false)),
        "bf16x2" => Some((true, true)),
        _ => None,
    })
}

/// [`Op::Half`] with its operands.
fn half(op: HalfOp, bf16: bool, x2: bool, d: Reg, [a, b, c]: [Option<Operand>; 3]) -> Op {
    Op::Half {
        op,
        bf16,
        x2,
        d,
        a: a.expect("an operand"),
        b,
        c,
    }
}

fn type_of_qualifier(q: &str) -> Option<ScalarType> {
    ScalarType::from_directive(&format!(".{q}"))
}

/// The names an operand mentions (registers, variables, labels).
fn operand_names<'a>(o: &'a ptx::Operand, out: &mut std::collections::HashSet<&'a str>) {
    match &o.kind {
        OperandKind::Name(n) | OperandKind::Offset(n, _) | OperandKind::Not(n) => {
            out.insert(n.name.as_str());
        }
        OperandKind::Address(a) => {
            if let Some(b) = &a.base {
                out.insert(b.name.as_str());
            }
        }
        OperandKind::Vector(v) | OperandKind::List(v) => v.iter().for_each(|x| operand_names(x, out)),
        OperandKind::Pair(a, b) => {
            out.insert(a.name.as_str());
            out.insert(b.name.as_str());
        }
        OperandKind::Int(_) | OperandKind::Float(_) => {}
    }
}

/// Whether an initialiser takes the address of variable `name`.
fn mentions(i: &Initializer, name: &str) -> bool {
    match i {
        Initializer::Value(InitValue::Symbol(n, _) | InitValue::Generic(n, _), _) => n.name == name,
        Initializer::Value(..) => false,
        Initializer::List(l, _) => l.iter().any(|x| mentions(x, name)),
    }
}

/// A variable's size in bytes.
fn var_bytes(v: &ptx::Variable) -> Option<u64> {
    let elem = u64::from(v.ty.scalar.bits().max(8) / 8) * u64::from(v.ty.vector.unwrap_or(1));
    let mut n = elem;
    for d in &v.dims {
        n = n.checked_mul((*d)?)?;
    }
    Some(n)
}

/// A variable's initial bytes (little-endian), or `None` for an initialiser this lowering cannot lay out.
#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "an initialiser's value is its low bits, as the PTX assembler stores it"
)]
fn init_bytes(v: &ptx::Variable, len: u64) -> Option<Vec<u8>> {
    fn flatten<'a>(i: &'a Initializer, out: &mut Vec<&'a InitValue>) {
        match i {
            Initializer::Value(v, _) => out.push(v),
            Initializer::List(l, _) => l.iter().for_each(|x| flatten(x, out)),
        }
    }
    let size = (v.ty.scalar.bits().max(8) / 8) as usize;
    if size > 8 {
        // (`.b128`: not laid out.)
        return None;
    }
    let mut values = Vec::new();
    flatten(v.init.as_ref()?, &mut values);
    let mut bytes = Vec::with_capacity(values.len() * size);
    for value in values {
        let bits: u64 = match (value, v.ty.scalar) {
            (InitValue::Int(i), _) => *i as u64,
            (InitValue::Float(ptx::FloatLit::F32(b)), _) => u64::from(*b),
            (InitValue::Float(ptx::FloatLit::F64(b)), ScalarType::F32) => {
                u64::from((f64::from_bits(*b) as f32).to_bits())
            }
            (InitValue::Float(ptx::FloatLit::F64(b)), _) => *b,
            (InitValue::Float(ptx::FloatLit::Decimal(x)), ScalarType::F32) => u64::from((*x as f32).to_bits()),
            (InitValue::Float(ptx::FloatLit::Decimal(x)), _) => x.to_bits(),
            _ => return None,
        };
        bytes.extend_from_slice(&bits.to_le_bytes()[..size]);
    }
    // Whole words; past the values given, the buffer's default (0) holds.
    let given = bytes.len().div_ceil(4) * 4;
    bytes.resize(given.min(usize::try_from(len).ok()?), 0);
    Some(bytes)
}

impl Lower<'_> {
    /// Module-scope variables that some function's code names: `.global`/`.const` → buffers, `.shared` →
    /// shared arrays. (Numba declares a `.common .global` environment per function that no code reads: it is
    /// not a buffer of the program.)
    fn module_variables(&mut self) -> Result<(), Diagnostic> {
        let module = self.module;
        let mut named = std::collections::HashSet::new();
        for f in module.functions() {
            if let Some(b) = &f.body {
                for i in b.instructions() {
                    for o in &i.operands {
                        operand_names(o, &mut named);
                    }
                }
            }
        }
        for v in module.variables() {
            let by_initialiser = module
                .variables()
                .any(|w| w.init.as_ref().is_some_and(|init| mentions(init, &v.name.name)));
            if named.contains(v.name.name.as_str()) || by_initialiser {
                self.variable(v)?;
            }
        }
        Ok(())
    }

    fn variable(&mut self, v: &ptx::Variable) -> Result<(), Diagnostic> {
        let name = v.name.name.clone();
        let span = v.name.span;
        match v.space {
            StateSpace::Global | StateSpace::Const => {
                let bytes = var_bytes(v).ok_or_else(|| unsupported(span, "a global variable of unknown size"))?;
                let words = bytes.div_ceil(4).max(1);
                let init = match &v.init {
                    None => None,
                    Some(_) => {
                        let b = init_bytes(v, words * 4)
                            .ok_or_else(|| unsupported(span, "this initialiser (addresses of other variables)"))?;
                        let values = b
                            .chunks(4)
                            .map(|c| int(i64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])), span))
                            .collect();
                        Some(Init {
                            default: int(0, span),
                            overrides: vec![InitOverride::List {
                                start: int(0, span),
                                end: None,
                                values,
                            }],
                        })
                    }
                };
                if self.p.buffers.iter().any(|b| b.name == name) {
                    return Err(
                        Diagnostic::error(span, format!("`{name}` is also the name of a buffer"))
                            .with_label("name taken"),
                    );
                }
                self.p.buffers.push(BufferDecl {
                    name: name.clone(),
                    elem: ElemTy::U32,
                    len: int(i64::try_from(words).unwrap_or(i64::MAX), span),
                    init,
                    span,
                });
                self.symbols
                    .insert(name.clone(), (StateSpace::Global, var(&name, span)));
            }
            StateSpace::Shared => {
                if v.dims.first() == Some(&None) || v.linkage == Some(ptx::Linkage::Extern) {
                    // Dynamic shared memory: every `.extern .shared` array is the same memory.
                    if let Some(d) = self.p.shared.iter().find(|s| s.len.is_none()) {
                        let first = d.name.clone();
                        self.symbols.insert(name, (StateSpace::Shared, var(&first, span)));
                        return Ok(());
                    }
                    self.p.shared.push(SharedDecl {
                        name: name.clone(),
                        elem: ElemTy::U32,
                        len: None,
                        span,
                    });
                } else {
                    let bytes = var_bytes(v).ok_or_else(|| unsupported(span, "a shared variable of unknown size"))?;
                    // Whole 16-byte units, so that every array stays aligned for vector accesses.
                    let words = bytes.div_ceil(16) * 4;
                    let decl = SharedDecl {
                        name: name.clone(),
                        elem: ElemTy::U32,
                        len: Some(int(i64::try_from(words).unwrap_or(i64::MAX), span)),
                        span,
                    };
                    // The dynamic array stays last.
                    let at = self
                        .p
                        .shared
                        .iter()
                        .position(|s| s.len.is_none())
                        .unwrap_or(self.p.shared.len());
                    self.p.shared.insert(at, decl);
                }
                self.symbols
                    .insert(name.clone(), (StateSpace::Shared, var(&name, span)));
            }
            StateSpace::Local => {
                let bytes = var_bytes(v).ok_or_else(|| unsupported(span, "a local variable of unknown size"))?;
                let align = u64::from(v.align.unwrap_or(4).max(4));
                let at = self.p.local_bytes.div_ceil(align) * align;
                self.p.local_bytes = at + bytes;
                self.symbols.insert(
                    name,
                    (StateSpace::Local, int(i64::try_from(at).unwrap_or(i64::MAX), span)),
                );
            }
            StateSpace::Param | StateSpace::Reg => {
                return Err(unsupported(span, "a `.param` variable outside a call sequence"));
            }
        }
        Ok(())
    }

    fn block(&mut self, b: &ptx::Block) -> Result<(), Diagnostic> {
        self.scopes.push(HashMap::new());
        self.param_scopes.push(HashMap::new());
        for s in &b.statements {
            match s {
                Statement::Block(inner) => self.block(inner)?,
                Statement::Reg(r) => self.registers(r)?,
                Statement::Var(v) if v.space == StateSpace::Param => {
                    let id = self.next_param;
                    self.next_param += 1;
                    self.param_scopes
                        .last_mut()
                        .expect("a scope")
                        .insert(v.name.name.clone(), id);
                }
                Statement::Var(v) => self.variable(v)?,
                Statement::Label(l) => {
                    self.known.clear();
                    self.settle(None);
                    let key = self.label_key(&l.name);
                    if self.labels.insert(key, self.code.len()).is_some() {
                        return Err(
                            Diagnostic::error(l.span, format!("label `{}` is defined twice", l.name))
                                .with_label("second definition"),
                        );
                    }
                }
                Statement::Pragma(p) => {
                    self.settle(None);
                    if p.values.iter().any(|v| v == "nounroll") {
                        #[allow(clippy::cast_possible_truncation, reason = "pcs are u32")]
                        self.nounroll.push(self.code.len() as u32);
                    }
                }
                Statement::Loc(_) => {}
                Statement::BranchTargets(_, span) => return Err(unsupported(*span, "`.branchtargets` (`brx.idx`)")),
                Statement::CallPrototype(p) => return Err(unsupported(p.span, "`.callprototype` (indirect calls)")),
                Statement::Instruction(i) => self.instruction(i)?,
            }
        }
        self.scopes.pop();
        self.param_scopes.pop();
        Ok(())
    }

    fn registers(&mut self, r: &ptx::RegDecl) -> Result<(), Diagnostic> {
        if r.ty.vector.is_some() {
            return Err(unsupported(r.span, "vector registers (`.reg .v2 …`)"));
        }
        for n in &r.names {
            let names: Vec<String> = match n.count {
                Some(c) => (0..c).map(|k| format!("{}{k}", n.name.name)).collect(),
                None => vec![n.name.name.clone()],
            };
            for name in names {
                let slot = self.new_register(&name, r.ty.scalar, n.name.span)?;
                self.scopes.last_mut().expect("a scope").insert(name, slot);
            }
        }
        Ok(())
    }

    /// A program name for PTX register `name` (`%r1` → `r1`), unique in the program.
    fn fresh_name(&mut self, name: &str) -> String {
        let base: String = name
            .trim_start_matches('%')
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
            .collect();
        let base = if base.is_empty() || base.starts_with(|c: char| c.is_ascii_digit()) {
            format!("_{base}")
        } else {
            base
        };
        let mut candidate = base.clone();
        let mut k = 1;
        while Special::parse(&candidate).is_some() || !self.used.insert(candidate.clone()) {
            candidate = format!("{base}_{k}");
            k += 1;
        }
        candidate
    }

    fn new_register(&mut self, name: &str, ty: ScalarType, span: Span) -> Result<Slot, Diagnostic> {
        let program_name = self.fresh_name(name);
        let too_many = || Diagnostic::error(span, "too many registers").with_label("here");
        match ty.bits() {
            1 => {
                let k = u16::try_from(self.p.preds.len()).map_err(|_| too_many())?;
                self.p.preds.push(Named {
                    name: program_name,
                    span,
                    width: Width::W32,
                });
                Ok(Slot::Pred(Pred(k)))
            }
            8 | 16 | 32 => {
                let k = u16::try_from(self.p.regs.len()).map_err(|_| too_many())?;
                self.p.regs.push(Named {
                    name: program_name,
                    span,
                    width: Width::W32,
                });
                Ok(Slot::R32(Reg(k), ty.bits()))
            }
            64 => {
                let k = u16::try_from(self.p.regs.len() + 1).map_err(|_| too_many())?;
                self.p.regs.push(Named {
                    name: program_name.clone(),
                    span,
                    width: Width::W64,
                });
                self.p.regs.push(Named {
                    name: format!("{program_name}.hi"),
                    span,
                    width: Width::High,
                });
                Ok(Slot::R64(Reg(k - 1)))
            }
            _ => Err(unsupported(span, format!("{}-bit registers", ty.bits()))),
        }
    }

    fn lookup(&self, name: &str) -> Option<Slot> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn finish(mut self, end: Span) -> Result<Program, Diagnostic> {
        if let Some(d) = self.too_many.take() {
            return Err(d);
        }
        self.settle(None);
        let text = "ret;".to_string();
        self.code.push(Pending {
            inst: Instruction {
                guard: None,
                op: Op::Exit,
                span: end,
                text,
                expanded_from: None,
                origin: None,
                param: None,
                debug: None,
            },
            label: None,
        });
        let mut labels: Vec<(String, usize)> = self.labels.iter().map(|(l, pc)| (l.clone(), *pc)).collect();
        labels.sort_by_key(|(l, pc)| (*pc, l.clone()));
        let mut instructions = Vec::with_capacity(self.code.len());
        for pending in self.code {
            let mut inst = pending.inst;
            if let Some((label, span)) = pending.label {
                let Some(&target) = self.labels.get(&label) else {
                    return Err(Diagnostic::error(span, format!("unknown label `{label}`")).with_label("no such label"));
                };
                inst.op = Op::Bra { target };
            }
            instructions.push(inst);
        }
        self.p.labels = labels;
        self.p.instructions = instructions;
        Ok(self.p)
    }
}

/// One PTX instruction being lowered: its statement, for spans, text and guard.
struct At<'i> {
    i: &'i ptx::Instruction,
    guard: Option<Guard>,
    text: String,
    origin: Option<Origin>,
}

impl Lower<'_> {
    /// The source line of `.loc` `l`: in a header (a CUDA intrinsic inlined into the kernel), the line of the
    /// kernel's code it was inlined at.
    fn origin(&mut self, l: &ptx::Loc) -> Option<Origin> {
        let header = |f: u32| {
            self.module
                .file_path(f)
                .and_then(|p| std::path::Path::new(p).extension())
                .is_some_and(|e| ["h", "hpp", "cuh"].iter().any(|h| e.eq_ignore_ascii_case(h)))
        };
        let (file, line) = match l.inlined_at {
            Some((f, line, _)) if header(l.file) => (f, line),
            _ => (l.file, l.line),
        };
        let path = self.module.file_path(file)?.to_string();
        let id = match self.files.get(&file) {
            Some(id) => *id,
            None => {
                let id = (self.read)(&path)
                    .map(|(shown, text)| self.p.sources.add(crate::source::SourceFile::new(shown, text)));
                self.files.insert(file, id);
                id
            }
        };
        let span = id.and_then(|id| {
            let (start, end) = self.p.sources.file(id).line_range(line as usize)?;
            Some(Span::new(id, start, end))
        });
        Some(Origin { file: path, line, span })
    }

    /// `op` where it is first needed: just before the next instruction that reads or writes its destination, or
    /// at the end of the basic block (a label, a branch or any instruction but plain arithmetic and memory
    /// accesses), as ptxas schedules a load's consumer where it is used. Used for the 16-bit mask of a sign-extended
    /// 8-bit load into a 16-bit register, which the GPU does not have (its registers are 32 bits): held back, it
    /// does not stop the loads after it from issuing. A debug build keeps every instruction in place.
    fn defer(&mut self, at: &At, op: Op) {
        if self.debug {
            self.emit(at, op);
            return;
        }
        self.deferred.push(Pending::of(at, op));
    }

    /// Emit the held-back instructions that must come before `op` (all of them for `None`: the block ends).
    fn settle(&mut self, op: Option<&Op>) {
        let plain = |op: &Op| {
            matches!(
                op,
                Op::Mov { .. }
                    | Op::Unary { .. }
                    | Op::Binary { .. }
                    | Op::Ternary { .. }
                    | Op::Rounded { .. }
                    | Op::Approx { .. }
                    | Op::Carry { .. }
                    | Op::Selp { .. }
                    | Op::Cvt { .. }
                    | Op::Setp { .. }
                    | Op::PredLogic { .. }
                    | Op::Ld { .. }
                    | Op::St { .. }
                    | Op::Pack { .. }
                    | Op::Unpack { .. }
                    | Op::Bfi { .. }
            )
        };
        let held = std::mem::take(&mut self.deferred);
        for p in held {
            // (Also where `op` changes the held instruction's guard.)
            let needed = match (op, p.inst.op.reg_written()) {
                (Some(op), Some(r)) if plain(op) => {
                    op.sources().contains(&&Operand::Reg(r))
                        || op.reg_written() == Some(r)
                        || matches!(op, Op::Unpack { hi, .. } if *hi == r)
                        || p.inst.guard.is_some_and(|g| op.pred_written() == Some(g.pred))
                }
                _ => true,
            };
            if needed {
                self.code.push(p);
            } else {
                self.deferred.push(p);
            }
        }
    }

    fn emit(&mut self, at: &At, op: Op) {
        if !self.deferred.is_empty() {
            self.settle(Some(&op));
        }
        if let Some(d) = op.reg_written() {
            match (&op, at.guard) {
                (Op::Mov { a: Operand::Imm(e), .. }, None) => {
                    self.known.insert(d, e.clone());
                }
                _ => {
                    self.known.remove(&d);
                }
            }
        }
        self.code.push(Pending::of(at, op));
    }

    fn instruction(&mut self, i: &ptx::Instruction) -> Result<(), Diagnostic> {
        if self.contract.absorbed.contains(&i.span) {
            // A `mul` ptxas fuses into the `add` that reads it (`super::contract`): lowered there.
            return Ok(());
        }
        let first = self.code.len();
        if let Some(f) = self.contract.fused.get(&i.span).cloned() {
            self.fused(i, &f)?;
        } else {
            self.lower_instruction(i)?;
        }
        // (A `call` is inlined: its class replaces that of the callee's first instruction, lowered inside it.)
        if self.debug
            && let Some(p) = self.code.get_mut(first)
        {
            let q: Vec<&str> = i.qualifiers.iter().map(String::as_str).collect();
            p.inst.debug = Some(super::debug::class(i, &q, p.inst.param.is_some()));
        }
        Ok(())
    }

    /// An `add`/`sub` with the `mul` ptxas fuses into it (`super::contract`): `fma(a, b, c)` for `a*b + c` and
    /// `c + a*b`, `fma(a, b, -c)` for `a*b - c`, `fma(-a, b, c)` for `c - a*b` (the negation of a register a `neg`
    /// into a scratch register first, where the GPU negates the operand inside its `FFMA`), rounded to nearest once;
    /// with a `div.approx`/`div.full` instead of the `mul`, `divadd` ([`ApproxOp::DivAdd`]).
    fn fused(&mut self, i: &ptx::Instruction, f: &super::contract::Fused) -> Result<(), Diagnostic> {
        let at = self.at(i)?;
        let q: Vec<&str> = i.qualifiers.iter().map(String::as_str).collect();
        if let Some((bf16, x2)) = half_type(&q) {
            return self.fused_half(&at, f, bf16, x2);
        }
        let ftz = q.contains(&"ftz");
        let ty = if q.contains(&"f64") { Ty::F64 } else { Ty::F32 };
        let mut ma = self.src(&f.mul.operands[1], ty)?;
        let mb = self.src(&f.mul.operands[2], ty)?;
        let mut c = self.src(self.operand(&at, 3 - f.operand)?, ty)?;
        let d = self.dst(&at, 0, bits_of(ty))?;
        if i.opcode == "sub" {
            let negate = |l: &mut Self, x: Operand| match x {
                Operand::Imm(e) => {
                    let span = e.span;
                    Operand::Imm(ConstExpr {
                        kind: ExprKind::Neg(Box::new(e)),
                        span,
                    })
                }
                x => {
                    let t = l.scratch_reg(ty == Ty::F64, 8);
                    l.emit(
                        &at,
                        Op::Unary {
                            op: UnaryOp::Neg,
                            ty,
                            d: t,
                            a: x,
                        },
                    );
                    Operand::Reg(t)
                }
            };
            if f.operand == 1 {
                c = negate(self, c);
            } else {
                ma = negate(self, ma);
            }
        }
        let op = if f.mul.opcode == "div" {
            Op::Approx {
                op: if f.mul.qualifiers.iter().any(|q| q == "full") {
                    ApproxOp::DivFullAdd
                } else {
                    ApproxOp::DivAdd
                },
                ftz,
                ty,
                d,
                a: ma,
                b: Some(mb),
                c: Some(c),
            }
        } else if ftz {
            Op::Rounded {
                op: RoundedOp::Fma,
                rounding: Rounding::NearestFloat,
                ftz: true,
                ty,
                d,
                a: ma,
                b: Some(mb),
                c: Some(c),
            }
        } else {
            Op::Ternary {
                op: TernaryOp::Fma,
                ty,
                d,
                a: ma,
                b: mb,
                c,
            }
        };
        self.emit(&at, op);
        Ok(())
    }

    /// [`Lower::fused`] of 16-bit floats: one `fma.rn` (a `neg` first for a subtraction, as `HFMA2` negates an
    /// operand).
    fn fused_half(&mut self, at: &At, f: &super::contract::Fused, bf16: bool, x2: bool) -> Result<(), Diagnostic> {
        let mut ma = self.half_src(at, &f.mul.operands[1])?;
        let mb = self.half_src(at, &f.mul.operands[2])?;
        let mut c = self.half_src(at, self.operand(at, 3 - f.operand)?)?;
        let d = self.small_reg(self.operand(at, 0)?)?;
        if at.i.opcode == "sub" {
            let t = self.scratch_reg(false, 8);
            let x = if f.operand == 1 { c.clone() } else { ma.clone() };
            self.emit(at, half(HalfOp::Neg, bf16, x2, t, [Some(x), None, None]));
            if f.operand == 1 {
                c = Operand::Reg(t);
            } else {
                ma = Operand::Reg(t);
            }
        }
        self.emit(at, half(HalfOp::Fma, bf16, x2, d, [Some(ma), Some(mb), Some(c)]));
        Ok(())
    }

    /// A 16-bit float operand: a register (16 or 32 bits wide) or an integer literal (its bits).
    fn half_src(&mut self, at: &At, o: &ptx::Operand) -> Result<Operand, Diagnostic> {
        match &o.kind {
            OperandKind::Int(_) => self.small_src(at, o, 32, false, 0),
            _ => Ok(Operand::Reg(self.small_reg(o)?)),
        }
    }

    /// `add`, `sub`, `mul`, `fma`, `min`, `max`, `neg`, `abs` of `.f16`, `.f16x2`, `.bf16`, `.bf16x2` (`.rn` or no
    /// rounding modifier), and `cvt` between them and f32: [`Op::Half`]; `setp` of `.f16`/`.bf16` compares the
    /// values converted to f32 (exactly).
    fn half_op(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        let m = at.i.opcode.as_str();
        let (bf16, x2) = half_type(q).expect("dispatched on a 16-bit float type");
        let bad = q
            .iter()
            .find(|q| !matches!(**q, "rn" | "f16" | "f16x2" | "bf16" | "bf16x2" | "f32") && m != "setp");
        if let Some(b) = bad {
            return Err(unsupported(at.i.opcode_span, format!("`.{b}` on 16-bit floats")));
        }
        match m {
            "cvt" => {
                self.count(at, if x2 { 3 } else { 2 })?;
                let to_half = type_of_qualifier(q[q.len() - 2]).is_some_and(|t| t != ScalarType::F32);
                if to_half {
                    if !q.contains(&"rn") || q.last() != Some(&"f32") {
                        return Err(unsupported(
                            at.i.opcode_span,
                            "a conversion to a 16-bit float other than `.rn` from f32",
                        ));
                    }
                    let d = self.small_reg(self.operand(at, 0)?)?;
                    let a = self.src(self.operand(at, 1)?, Ty::F32)?;
                    let b = if x2 {
                        Some(self.src(self.operand(at, 2)?, Ty::F32)?)
                    } else {
                        None
                    };
                    self.emit(at, half(HalfOp::FromF32, bf16, x2, d, [Some(a), b, None]));
                } else {
                    if x2 || q.first() != Some(&"f32") {
                        return Err(unsupported(
                            at.i.opcode_span,
                            "a conversion from a 16-bit float other than to f32",
                        ));
                    }
                    let d = self.dst(at, 0, 32)?;
                    let a = self.half_src(at, self.operand(at, 1)?)?;
                    self.emit(at, half(HalfOp::ToF32, bf16, false, d, [Some(a), None, None]));
                }
                Ok(())
            }
            "setp" => {
                // `setp.CMP.f16 p, a, b`: the f32 comparison of the exact conversions.
                if x2 || q.iter().any(|q| matches!(*q, "and" | "or" | "xor" | "ftz")) {
                    return Err(unsupported(
                        at.i.opcode_span,
                        "`setp` of `.f16x2`, `.bf16x2`, or combined",
                    ));
                }
                self.count(at, 3)?;
                let cmp_name = q.first().copied().unwrap_or_default();
                let Some(cmp) = Cmp::ALL.into_iter().find(|c| c.name() == cmp_name) else {
                    return Err(unsupported(
                        at.i.opcode_span,
                        format!("`setp.{cmp_name}` of 16-bit floats"),
                    ));
                };
                let p = self.pred_dst(at, 0)?;
                let mut xs = [Operand::Reg(Reg(0)), Operand::Reg(Reg(0))];
                for (k, x) in xs.iter_mut().enumerate() {
                    let t = self.scratch_reg(false, 22 + u32::try_from(k).unwrap_or(0));
                    let a = self.half_src(at, self.operand(at, k + 1)?)?;
                    self.emit(at, half(HalfOp::ToF32, bf16, false, t, [Some(a), None, None]));
                    *x = Operand::Reg(t);
                }
                let [a, b] = xs;
                self.emit(
                    at,
                    Op::Setp {
                        cmp,
                        ftz: false,
                        ty: Ty::F32,
                        p,
                        a,
                        b,
                    },
                );
                Ok(())
            }
            _ => {
                let op = HalfOp::ARITHMETIC
                    .iter()
                    .find(|(n, _)| *n == m)
                    .map(|(_, h)| *h)
                    .expect("dispatched by name");
                self.count(at, 1 + op.arity(x2))?;
                let d = self.small_reg(self.operand(at, 0)?)?;
                let mut xs = [None, None, None];
                for (k, x) in xs.iter_mut().enumerate().take(op.arity(x2)) {
                    *x = Some(self.half_src(at, self.operand(at, k + 1)?)?);
                }
                self.emit(at, half(op, bf16, x2, d, xs));
                Ok(())
            }
        }
    }

    /// An instruction's guard, text and source line, for the instructions it lowers to.
    fn at<'i>(&mut self, i: &'i ptx::Instruction) -> Result<At<'i>, Diagnostic> {
        let guard = match &i.guard {
            None => None,
            Some(g) => Some(Guard {
                pred: self.pred_named(&g.predicate)?,
                negated: g.negated,
            }),
        };
        let text = self
            .sources
            .snippet(i.span)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        // (An inlined function's instruction without a `.loc`: its call's line.)
        let origin = i
            .loc
            .as_ref()
            .and_then(|l| self.origin(l))
            .or_else(|| self.frames.last().and_then(|f| f.origin.clone()));
        Ok(At { i, guard, text, origin })
    }

    fn lower_instruction(&mut self, i: &ptx::Instruction) -> Result<(), Diagnostic> {
        let at = self.at(i)?;
        let q: Vec<&str> = i.qualifiers.iter().map(String::as_str).collect();
        if let Some(r) = self.small(&at, &q) {
            return r;
        }
        match i.opcode.as_str() {
            "add" | "sub" | "mul" | "fma" | "min" | "max" | "neg" | "abs" | "cvt" | "setp"
                if half_type(&q).is_some() =>
            {
                self.half_op(&at, &q)
            }
            "mov" => self.mov(&at, &q),
            "rcp" | "rsqrt" | "sqrt" | "ex2" | "lg2" | "sin" | "cos" | "div"
                if q.iter().any(|q| matches!(*q, "approx" | "full")) =>
            {
                self.approx(&at, &q)
            }
            "add" | "sub" | "mul" | "div" | "fma" | "mad" | "sqrt" | "rcp" | "min" | "max" | "abs" | "neg"
                if q.contains(&"ftz") && q.contains(&"f32") =>
            {
                self.rounded(&at, &q)
            }
            "add" | "sub" | "mul" | "div" | "fma" | "sqrt" | "rcp"
                if q.iter().any(|q| matches!(*q, "rz" | "rm" | "rp")) =>
            {
                self.rounded(&at, &q)
            }
            "add" | "sub" | "mad" if q.contains(&"cc") => self.carry(&at, &q),
            "addc" | "subc" | "madc" => self.carry(&at, &q),
            "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor" | "shl" | "shr"
            | "copysign" => self.binary(&at, &q),
            "mad" | "fma" => self.ternary(&at, &q),
            "neg" | "abs" | "not" | "popc" | "clz" | "brev" | "bfind" | "sqrt" => self.unary(&at, &q),
            "rcp" => self.rcp(&at, &q),
            "bfe" | "prmt" | "fns" => self.bit_field(&at, &q),
            "bfi" => self.bfi(&at, &q),
            "dp4a" | "dp2a" | "lop3" => self.dot(&at, &q),
            "shf" => self.shf(&at, &q),
            "sad" => self.sad(&at, &q),
            "setp" => self.setp(&at, &q),
            "selp" => self.selp(&at, &q),
            "cvt" => self.cvt(&at, &q),
            "cvta" => self.cvta(&at, &q),
            "ld" | "st" => self.memory(&at, &q),
            "atom" | "red" => self.atom(&at, &q),
            "bar" | "barrier" => self.bar(&at, &q),
            "shfl" => self.shfl(&at, &q),
            "vote" => self.vote(&at, &q),
            "match" => self.match_sync(&at, &q),
            "redux" => self.redux(&at, &q),
            "activemask" => {
                let d = self.dst(&at, 0, 32)?;
                self.emit(&at, Op::Activemask { d });
                Ok(())
            }
            "membar" | "fence" => {
                // Global writes reach other SMs in a fixed order at each epoch's commit; a fence orders nothing
                // further in the model.
                self.emit(&at, Op::Nop);
                Ok(())
            }
            "bra" => {
                let Some(OperandKind::Name(target)) = i.operands.first().map(|o| &o.kind) else {
                    return Err(Diagnostic::error(i.span, "`bra` needs a label").with_label("no target"));
                };
                self.code.push(Pending {
                    inst: Instruction {
                        guard: at.guard,
                        op: Op::Nop,
                        span: i.span,
                        text: at.text.clone(),
                        expanded_from: None,
                        origin: at.origin.clone(),
                        param: None,
                        debug: None,
                    },
                    label: Some((self.label_key(&target.name), target.span)),
                });
                Ok(())
            }
            "ret" if !self.frames.is_empty() => {
                // The end of an inlined function: after its body.
                let label = self.frames.last().expect("a frame").ret_label.clone();
                self.code.push(Pending {
                    inst: Instruction {
                        guard: at.guard,
                        op: Op::Nop,
                        span: i.span,
                        text: at.text.clone(),
                        expanded_from: None,
                        origin: at.origin.clone(),
                        param: None,
                        debug: None,
                    },
                    label: Some((label, i.span)),
                });
                Ok(())
            }
            "ret" | "exit" => {
                self.emit(&at, Op::Exit);
                Ok(())
            }
            "call" => self.call(&at),
            other => Err(unsupported(
                i.opcode_span,
                format!(
                    "`{other}` is not supported ({})",
                    i.qualifiers.iter().map(|q| format!(".{q}")).collect::<String>()
                ),
            )),
        }
    }

    // ----- operands -----

    fn operand<'i>(&self, at: &At<'i>, k: usize) -> Result<&'i ptx::Operand, Diagnostic> {
        at.i.operands.get(k).ok_or_else(|| {
            Diagnostic::error(at.i.span, format!("`{}` needs more operands", at.i.opcode))
                .with_label("too few operands")
        })
    }

    fn slot(&self, name: &ptx::Ident) -> Result<Slot, Diagnostic> {
        self.lookup(&name.name).ok_or_else(|| {
            Diagnostic::error(name.span, format!("unknown register `{}`", name.name)).with_label("not declared")
        })
    }

    fn pred_named(&self, name: &ptx::Ident) -> Result<Pred, Diagnostic> {
        match self.slot(name)? {
            Slot::Pred(p) => Ok(p),
            _ => Err(
                Diagnostic::error(name.span, format!("`{}` is not a predicate", name.name))
                    .with_label("expected a `.pred`"),
            ),
        }
    }

    /// A destination register of `bits` bits (0: 32, any non-predicate register accepted as 32).
    fn dst(&self, at: &At, k: usize, bits: u32) -> Result<Reg, Diagnostic> {
        let o = self.operand(at, k)?;
        let OperandKind::Name(n) = &o.kind else {
            return Err(Diagnostic::error(o.span, "expected a register").with_label("here"));
        };
        self.reg(n, bits)
    }

    fn reg(&self, n: &ptx::Ident, bits: u32) -> Result<Reg, Diagnostic> {
        match (self.slot(n)?, bits) {
            (Slot::R64(r), 64) => Ok(r),
            (Slot::R32(r, 32), 32) => Ok(r),
            (Slot::R32(_, b), _) if b < 32 => Err(unsupported(n.span, format!("{b}-bit registers in arithmetic"))),
            (Slot::Pred(_), _) => {
                Err(Diagnostic::error(n.span, format!("`{}` is a predicate", n.name)).with_label("expected a register"))
            }
            (s, _) => Err(Diagnostic::error(
                n.span,
                format!(
                    "`{}` is a {}-bit register; this operand is {bits}-bit",
                    n.name,
                    if matches!(s, Slot::R64(_)) { 64 } else { 32 }
                ),
            )
            .with_label("wrong width")),
        }
    }

    fn pred_dst(&self, at: &At, k: usize) -> Result<Pred, Diagnostic> {
        let o = self.operand(at, k)?;
        match &o.kind {
            OperandKind::Name(n) => self.pred_named(n),
            _ => Err(Diagnostic::error(o.span, "expected a predicate").with_label("here")),
        }
    }

    fn pred_src(&self, o: &ptx::Operand) -> Result<PredOperand, Diagnostic> {
        match &o.kind {
            OperandKind::Name(n) => Ok(PredOperand {
                pred: self.pred_named(n)?,
                negated: false,
            }),
            OperandKind::Not(n) => Ok(PredOperand {
                pred: self.pred_named(n)?,
                negated: true,
            }),
            _ => Err(Diagnostic::error(o.span, "expected a predicate").with_label("here")),
        }
    }

    /// A source operand of type `ty`.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_precision_loss,
        reason = "a PTX integer literal is 64 bits (its two's complement); a float operand converts it, rounding"
    )]
    fn src(&self, o: &ptx::Operand, ty: Ty) -> Result<Operand, Diagnostic> {
        let bits = if ty.wide() { 64 } else { 32 };
        match &o.kind {
            OperandKind::Name(n) => {
                if let Some(s) = self.special(n, bits)? {
                    return Ok(s);
                }
                if self.lookup(&n.name).is_some() {
                    return Ok(Operand::Reg(self.reg(n, bits)?));
                }
                match self.symbol(n, 0) {
                    Some(e) => Ok(Operand::Imm(e)),
                    None => {
                        Err(Diagnostic::error(n.span, format!("unknown name `{}`", n.name)).with_label("not declared"))
                    }
                }
            }
            OperandKind::Offset(n, off) => match self.symbol(n, *off) {
                Some(e) => Ok(Operand::Imm(e)),
                None => {
                    Err(Diagnostic::error(n.span, format!("unknown variable `{}`", n.name)).with_label("not declared"))
                }
            },
            OperandKind::Int(v) => {
                // The literal's bits (PTX integer literals are 64-bit).
                let bits = *v as i64;
                let value = if ty.is_float() {
                    // An integer literal of a float operand is converted (PTX: as for `cvt`).
                    ConstExpr {
                        kind: ExprKind::Float(*v as f64),
                        span: o.span,
                    }
                } else {
                    int(bits, o.span)
                };
                Ok(Operand::Imm(value))
            }
            OperandKind::Float(f) => {
                let x = match *f {
                    ptx::FloatLit::F32(b) => f64::from(f32::from_bits(b)),
                    ptx::FloatLit::F64(b) => f64::from_bits(b),
                    ptx::FloatLit::Decimal(x) => x,
                };
                // A NaN literal keeps its bits only as a quiet NaN of the operand's own width (an f32 literal
                // goes through an f64, which would quieten a signalling one).
                let exact = match *f {
                    ptx::FloatLit::F32(b) => ty == Ty::F32 && b & 0x0040_0000 != 0,
                    ptx::FloatLit::F64(_) => ty == Ty::F64,
                    ptx::FloatLit::Decimal(_) => false,
                };
                if x.is_nan() && !exact {
                    return Err(unsupported(
                        o.span,
                        "a NaN literal other than a quiet NaN of the operand's own width",
                    ));
                }
                if ty.is_int() {
                    return Err(
                        Diagnostic::error(o.span, "a float literal where an integer is expected").with_label("here"),
                    );
                }
                Ok(Operand::Imm(ConstExpr {
                    kind: ExprKind::Float(x),
                    span: o.span,
                }))
            }
            _ => Err(Diagnostic::error(o.span, "expected a register or a constant").with_label("here")),
        }
    }

    /// A special register read at `bits` bits.
    fn special(&self, n: &ptx::Ident, bits: u32) -> Result<Option<Operand>, Diagnostic> {
        if self.lookup(&n.name).is_some() {
            return Ok(None);
        }
        // PTX's constant `WARP_SZ`.
        if n.name == "WARP_SZ" {
            return Ok(Some(Operand::Imm(int(32, n.span))));
        }
        let Some(name) = n.name.strip_prefix('%') else {
            return Ok(None);
        };
        // `%envreg1`, `%envreg2`: the grid's workspace for `grid.sync()`, which CUDA's `this_grid()` reads (a debug
        // build keeps the read); 0 in a launch that is not cooperative, as every launch here is (an H200 read 0 in
        // both, 2026-11-29; the other `%envreg`s hold the driver's own values and are refused).
        if matches!(name, "envreg1" | "envreg2") {
            return Ok(Some(Operand::Imm(int(0, n.span))));
        }
        match Special::parse(name) {
            Some(s) if bits == 32 || name == "clock64" => Ok(Some(Operand::Special(s))),
            Some(_) => Err(
                Diagnostic::error(n.span, format!("`{}` is a 32-bit special register", n.name))
                    .with_label("read at 64 bits"),
            ),
            // An undeclared `%name` (a variable's name never starts with `%`): a special register warpsim does
            // not have, or a misspelt register.
            None if !self.symbols.contains_key(&n.name) => Err(Diagnostic::error(
                n.span,
                format!(
                    "`{}` is neither a declared register nor a special register warpsim supports",
                    n.name
                ),
            )
            .with_label("not supported")
            .with_help(SUBSET_DOC)),
            None => Ok(None),
        }
    }

    /// The address of variable `n` plus `offset`, in its own state space's terms.
    fn symbol(&self, n: &ptx::Ident, offset: i64) -> Option<ConstExpr> {
        let (_, e) = self.symbols.get(&n.name)?;
        let mut e = e.clone();
        e.span = n.span;
        Some(plus(e, offset))
    }

    fn ty(&self, at: &At, q: &[&str], allowed: &[Ty]) -> Result<Ty, Diagnostic> {
        let found = q.iter().rev().find_map(|q| type_of_qualifier(q));
        match found {
            Some(s) => match ty_of(s) {
                Some(t) if allowed.contains(&t) => Ok(t),
                _ => Err(unsupported(
                    at.i.opcode_span,
                    format!("`{}` with type `.{}`", at.i.opcode, format!("{s:?}").to_lowercase()),
                )),
            },
            None => Err(
                Diagnostic::error(at.i.opcode_span, format!("`{}` needs a type", at.i.opcode)).with_label("no type"),
            ),
        }
    }

    /// Qualifiers this lowering does not model: refuse them by name.
    fn refuse(&self, at: &At, q: &[&str], refused: &[&str]) -> Result<(), Diagnostic> {
        for r in refused {
            if q.contains(r) {
                return Err(unsupported(at.i.opcode_span, format!("`{}` with `.{r}`", at.i.opcode)));
            }
        }
        Ok(())
    }

    fn count(&self, at: &At, n: usize) -> Result<(), Diagnostic> {
        if at.i.operands.len() == n {
            Ok(())
        } else {
            Err(Diagnostic::error(
                at.i.span,
                format!("`{}` takes {n} operands, not {}", at.i.opcode, at.i.operands.len()),
            )
            .with_label("wrong number of operands"))
        }
    }

    /// Scratch predicate `k`, created on first use. Past the register limit, [`Lower::too_many`] holds the
    /// error (the lowering then returns it, not the program).
    fn scratch_pred(&mut self, k: usize) -> Pred {
        while self.scratch_preds.len() <= k {
            let id = self.new_pred(&format!("tp{}", self.scratch_preds.len()));
            self.scratch_preds.push(id);
        }
        self.scratch_preds[k]
    }

    /// A predicate of the lowering's own named `name`. Past the register limit, [`Lower::too_many`] holds the error.
    fn new_pred(&mut self, name: &str) -> Pred {
        match self.new_register(name, ScalarType::Pred, self.entry.name.span) {
            Ok(Slot::Pred(p)) => p,
            Ok(_) => unreachable!("a .pred register is a predicate"),
            Err(d) => {
                self.too_many.get_or_insert(d);
                Pred(0)
            }
        }
    }

    fn scratch_reg(&mut self, wide: bool, k: u32) -> Reg {
        if let Some(r) = self.scratch_regs.get(&(wide, k)) {
            return *r;
        }
        let name = format!("t{}{k}", if wide { "d" } else { "r" });
        let ty = if wide { ScalarType::B64 } else { ScalarType::B32 };
        let r = match self.new_register(&name, ty, self.entry.name.span) {
            Ok(Slot::R32(r, _) | Slot::R64(r)) => r,
            Ok(Slot::Pred(_)) => unreachable!("a .b32 or .b64 register is not a predicate"),
            Err(d) => {
                self.too_many.get_or_insert(d);
                Reg(0)
            }
        };
        self.scratch_regs.insert((wide, k), r);
        r
    }
}

// ----- instructions -----

const ARITH: [Ty; 6] = [Ty::S32, Ty::U32, Ty::F32, Ty::S64, Ty::U64, Ty::F64];
const INT: [Ty; 4] = [Ty::S32, Ty::U32, Ty::S64, Ty::U64];
const BITS: [Ty; 6] = [Ty::B32, Ty::U32, Ty::S32, Ty::B64, Ty::U64, Ty::S64];

fn bits_of(ty: Ty) -> u32 {
    if ty.wide() { 64 } else { 32 }
}

impl Lower<'_> {
    fn mov(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        if q.contains(&"pred") {
            let d = self.pred_dst(at, 0)?;
            let src = self.operand(at, 1)?;
            return match &src.kind {
                OperandKind::Int(v) => {
                    // setp.eq/ne.u32 d, 0, 0: true or false.
                    let cmp = if *v != 0 { Cmp::Eq } else { Cmp::Ne };
                    let zero = Operand::Imm(int(0, src.span));
                    self.emit(
                        at,
                        Op::Setp {
                            cmp,
                            ftz: false,
                            ty: Ty::U32,
                            p: d,
                            a: zero.clone(),
                            b: zero,
                        },
                    );
                    Ok(())
                }
                _ => {
                    let a = self.pred_src(src)?;
                    self.emit(
                        at,
                        Op::PredLogic {
                            op: PredLogicOp::And,
                            d,
                            a,
                            b: Some(a),
                        },
                    );
                    Ok(())
                }
            };
        }
        let ty = self.ty(
            at,
            q,
            &[Ty::B32, Ty::U32, Ty::S32, Ty::F32, Ty::B64, Ty::U64, Ty::S64, Ty::F64],
        )?;
        let (d, s) = (self.operand(at, 0)?, self.operand(at, 1)?);
        match (&d.kind, &s.kind) {
            (OperandKind::Vector(parts), _) if ty.wide() && parts.len() == 2 => {
                let lo = self.vec_reg(&parts[0])?;
                let hi = self.vec_reg(&parts[1])?;
                let a = self.src(s, ty)?;
                self.emit(at, Op::Unpack { lo, hi, a });
                Ok(())
            }
            (_, OperandKind::Vector(parts)) if ty.wide() && parts.len() == 2 => {
                let d = self.dst(at, 0, 64)?;
                let lo = self.src(&parts[0], Ty::B32)?;
                let hi = self.src(&parts[1], Ty::B32)?;
                self.emit(at, Op::Pack { d, lo, hi });
                Ok(())
            }
            (OperandKind::Vector(parts), _) if Self::sub_parts(ty, parts.len()) => {
                let parts = parts.clone();
                self.unpack_parts(at, ty, &parts, s)
            }
            (_, OperandKind::Vector(parts)) if Self::sub_parts(ty, parts.len()) => {
                let parts = parts.clone();
                self.pack_parts(at, ty, &parts)
            }
            (OperandKind::Vector(_), _) | (_, OperandKind::Vector(_)) => {
                Err(unsupported(at.i.span, "`mov` packing 8- or 16-bit parts"))
            }
            _ => {
                let d = self.dst(at, 0, bits_of(ty))?;
                let a = self.src(s, ty)?;
                self.emit(at, Op::Mov { ty, d, a });
                Ok(())
            }
        }
    }

    /// `mov.b32` with 2 or 4 parts (16- or 8-bit), `mov.b64` with 4 (16-bit).
    fn sub_parts(ty: Ty, n: usize) -> bool {
        matches!((ty.wide(), n), (false, 2 | 4) | (true, 4))
    }

    /// `mov.b32 d, {a, b}` (and 4 parts; `mov.b64 d, {a, b, c, e}`): the parts' low bits side by side, the first
    /// lowest.
    fn pack_parts(&mut self, at: &At, ty: Ty, parts: &[ptx::Operand]) -> Result<(), Diagnostic> {
        let bits = bits_of(ty) / u32::try_from(parts.len()).unwrap_or(1);
        let halves: Vec<&[ptx::Operand]> = if ty.wide() {
            vec![&parts[..2], &parts[2..]]
        } else {
            vec![parts]
        };
        let mut words = Vec::new();
        for (h, half) in halves.iter().enumerate() {
            let d = if ty.wide() {
                self.scratch_reg(false, 20 + u32::try_from(h).unwrap_or(0))
            } else {
                self.dst(at, 0, 32)?
            };
            for (k, part) in half.iter().enumerate() {
                let a = self.small_src(at, part, bits, false, 0)?;
                if k == 0 {
                    // (A register wider than the part keeps only its low bits.)
                    self.emit(at, low_bits(at.i.span, d, a, bits, false));
                } else {
                    let imm = |v: u32| Operand::Imm(int(i64::from(v), at.i.span));
                    let pos = bits * u32::try_from(k).unwrap_or(0);
                    self.emit(
                        at,
                        Op::Bfi {
                            ty: Ty::B32,
                            d,
                            a,
                            b: Operand::Reg(d),
                            pos: imm(pos),
                            len: imm(bits),
                        },
                    );
                }
            }
            words.push(d);
        }
        if ty.wide() {
            let d = self.dst(at, 0, 64)?;
            self.emit(
                at,
                Op::Pack {
                    d,
                    lo: Operand::Reg(words[0]),
                    hi: Operand::Reg(words[1]),
                },
            );
        }
        Ok(())
    }

    /// `mov.b32 {a, b}, s` (and 4 parts; `mov.b64 {a, b, c, e}, s`): each part's bits of `s`, zero-extended into
    /// its register (`_` takes none).
    fn unpack_parts(&mut self, at: &At, ty: Ty, parts: &[ptx::Operand], s: &ptx::Operand) -> Result<(), Diagnostic> {
        let bits = bits_of(ty) / u32::try_from(parts.len()).unwrap_or(1);
        let per_word = 32 / bits;
        let words: Vec<Operand> = if ty.wide() {
            let (lo, hi) = (self.scratch_reg(false, 20), self.scratch_reg(false, 21));
            let a = self.src(s, ty)?;
            self.emit(at, Op::Unpack { lo, hi, a });
            vec![Operand::Reg(lo), Operand::Reg(hi)]
        } else {
            let a = self.src(s, Ty::B32)?;
            let word = match a {
                Operand::Reg(_) => a,
                _ => {
                    let t = self.scratch_reg(false, 20);
                    self.emit(at, Op::Mov { ty: Ty::B32, d: t, a });
                    Operand::Reg(t)
                }
            };
            vec![word]
        };
        for (k, part) in parts.iter().enumerate() {
            if matches!(&part.kind, OperandKind::Name(n) if n.name == "_") {
                continue;
            }
            let d = self.small_reg(part)?;
            let word = words[k / per_word as usize].clone();
            let imm = |v: u32| Operand::Imm(int(i64::from(v), at.i.span));
            let pos = bits * (u32::try_from(k).unwrap_or(0) % per_word);
            self.emit(
                at,
                Op::Ternary {
                    op: TernaryOp::Bfe,
                    ty: Ty::U32,
                    d,
                    a: word,
                    b: imm(pos),
                    c: imm(bits),
                },
            );
        }
        Ok(())
    }

    fn vec_reg(&self, o: &ptx::Operand) -> Result<Reg, Diagnostic> {
        match &o.kind {
            OperandKind::Name(n) => self.reg(n, 32),
            _ => Err(Diagnostic::error(o.span, "expected a 32-bit register").with_label("here")),
        }
    }

    fn binary(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        let m = at.i.opcode.as_str();
        if matches!(m, "and" | "or" | "xor") && q.contains(&"pred") {
            self.count(at, 3)?;
            let d = self.pred_dst(at, 0)?;
            let a = self.pred_src(self.operand(at, 1)?)?;
            let b = self.pred_src(self.operand(at, 2)?)?;
            let op = match m {
                "and" => PredLogicOp::And,
                "or" => PredLogicOp::Or,
                _ => PredLogicOp::Xor,
            };
            self.emit(at, Op::PredLogic { op, d, a, b: Some(b) });
            return Ok(());
        }
        self.count(at, 3)?;
        self.refuse(
            at,
            q,
            &[
                "ftz", "sat", "cc", "rz", "rm", "rp", "approx", "full", "NaN", "xorsign", "relu", "clamp", "wrap",
                "u16", "s16", "b16", "f16", "bf16", "f16x2", "bf16x2",
            ],
        )?;
        let half = q.iter().find(|q| matches!(**q, "lo" | "hi" | "wide")).copied();
        let allowed: &[Ty] = match (m, half) {
            ("mul", Some("wide")) => &[Ty::U32, Ty::S32],
            ("mul", Some(_)) | ("rem", _) => &INT,
            ("and" | "or" | "xor" | "shl" | "shr", _) => &BITS,
            ("copysign", _) => &[Ty::F32, Ty::F64],
            _ => &ARITH,
        };
        let ty = self.ty(at, q, allowed)?;
        // (The caller dispatched on these opcodes.)
        let op = BinaryOp::of_opcode(m, half).unwrap_or(BinaryOp::Shr);
        if op == BinaryOp::Div && ty.is_float() && !q.contains(&"rn") {
            return Err(unsupported(
                at.i.opcode_span,
                "a float `div` without `.rn` (approximate division)",
            ));
        }
        // PTX's `shr.b32` is a logical shift, as warpsim's `shr.u32`.
        let ty = match (op, ty) {
            (BinaryOp::Shr, Ty::B32) => Ty::U32,
            (BinaryOp::Shr, Ty::B64) => Ty::U64,
            _ => ty,
        };
        let dbits = if op == BinaryOp::MulWide { 64 } else { bits_of(ty) };
        let d = self.dst(at, 0, dbits)?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let bty = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            Ty::U32
        } else {
            ty
        };
        let b = self.src(self.operand(at, 2)?, bty)?;
        self.emit(at, Op::Binary { op, ty, d, a, b });
        Ok(())
    }

    /// `add`, `sub`, `mul`, `div`, `fma`, `sqrt`, `rcp` with `.rz`, `.rm` or `.rp` on `.f32`/`.f64`: IEEE
    /// arithmetic rounded towards zero, minus or plus infinity (CUDA's `__fadd_rz`, `__dmul_ru`, `__fsqrt_rd`, …,
    /// and nvcc's `expf`, `log1pf`, `roundf`); and f32 arithmetic with `.ftz` (`-use_fast_math`: `add.ftz.f32`,
    /// `fma.rn.ftz.f32`, `div.rn.ftz.f32`, `min.ftz.f32`, `abs.ftz.f32`, …, any rounding): subnormal operands and
    /// results flushed to zeros of their sign ([`Op::Rounded`] with `ftz`).
    fn rounded(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        let m = at.i.opcode.as_str();
        // (The caller dispatched on these opcodes; `mad.rn.ftz.f32` is an `fma`.)
        let op = if m == "mad" {
            RoundedOp::Fma
        } else {
            RoundedOp::of_opcode(m).unwrap_or(RoundedOp::Add)
        };
        self.count(at, 1 + op.arity())?;
        self.refuse(
            at,
            q,
            &[
                "sat", "approx", "relu", "NaN", "xorsign", "abs", "lo", "hi", "wide", "cc", "f16", "bf16", "f16x2",
                "bf16x2",
            ],
        )?;
        let ftz = q.contains(&"ftz");
        let rounding = if q.contains(&"rz") {
            Rounding::FloatZero
        } else if q.contains(&"rm") {
            Rounding::FloatDown
        } else if q.contains(&"rp") {
            Rounding::FloatUp
        } else {
            Rounding::NearestFloat
        };
        // (`.ftz` is for f32 only.)
        let ty = self.ty(at, q, if ftz { &[Ty::F32] } else { &[Ty::F32, Ty::F64] })?;
        let d = self.dst(at, 0, bits_of(ty))?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let mut more = [None, None];
        for (k, slot) in more.iter_mut().enumerate().take(op.arity() - 1) {
            *slot = Some(self.src(self.operand(at, 2 + k)?, ty)?);
        }
        let [b, c] = more;
        self.emit(
            at,
            Op::Rounded {
                op,
                rounding,
                ftz,
                ty,
                d,
                a,
                b,
                c,
            },
        );
        Ok(())
    }

    /// The special-function unit's approximations: `rcp`, `rsqrt`, `sqrt`, `ex2`, `lg2`, `sin`, `cos`, `div`
    /// `.approx[.ftz].f32`, `div.full[.ftz].f32`, `rcp.approx.ftz.f64`, `rsqrt.approx.ftz.f64` (CUDA's `__expf`,
    /// `__sinf`, `rsqrtf`, `__fdividef`, and
    /// inside `expf`, `powf`, `tanf`, f64 `log`, `pow`, …), as the H200 computes them ([`Op::Approx`]).
    fn approx(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        let m = at.i.opcode.as_str();
        let full = q.contains(&"full");
        let Some(op) = ApproxOp::of_opcode(m, full) else {
            return Err(unsupported(at.i.opcode_span, format!("`{m}.full`")));
        };
        self.count(at, 1 + op.arity())?;
        self.refuse(
            at,
            q,
            &["sat", "rn", "rz", "rm", "rp", "f16", "bf16", "f16x2", "bf16x2"],
        )?;
        let ftz = q.contains(&"ftz");
        let ty = self.ty(at, q, &[Ty::F32, Ty::F64])?;
        if ty == Ty::F64 && !op.has_f64(ftz) {
            return Err(unsupported(
                at.i.opcode_span,
                format!(
                    "`{}.f64`{}",
                    op.name(),
                    if op == ApproxOp::Rsqrt && !ftz {
                        " without `.ftz` (ptxas refines it with a Newton step)"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let d = self.dst(at, 0, bits_of(ty))?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let b = if op.arity() == 2 {
            Some(self.src(self.operand(at, 2)?, ty)?)
        } else {
            None
        };
        self.emit(
            at,
            Op::Approx {
                op,
                ftz,
                ty,
                d,
                a,
                b,
                c: None,
            },
        );
        Ok(())
    }

    /// The carry chain (`add.cc`, `addc[.cc]`, `sub.cc`, `subc[.cc]`, `mad{.lo,.hi}.cc`, `madc{.lo,.hi}[.cc]`, as
    /// the extended-precision arithmetic in nvcc's f64 `sin`, `cos` and `tan` uses it): PTX's carry flag becomes
    /// one predicate of the kernel's own ([`Lower::carry_flag`]), read by the `c` forms and written by `.cc`.
    fn carry(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        let m = at.i.opcode.as_str();
        let carry_in = matches!(m, "addc" | "subc" | "madc");
        let op = match m.trim_end_matches('c') {
            "add" => CarryOp::Add,
            "sub" => CarryOp::Sub,
            _ if q.contains(&"hi") => CarryOp::MadHi,
            _ if q.contains(&"lo") => CarryOp::MadLo,
            _ => {
                return Err(
                    Diagnostic::error(at.i.opcode_span, format!("`{m}` needs `.lo` or `.hi`"))
                        .with_label("which half of the product"),
                );
            }
        };
        self.count(at, if op.adds() { 4 } else { 3 })?;
        self.refuse(at, q, &["sat", "wide"])?;
        let ty = self.ty(at, q, &INT)?;
        let flag = self.carry_flag();
        let d = self.dst(at, 0, bits_of(ty))?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let b = self.src(self.operand(at, 2)?, ty)?;
        let c = if op.adds() {
            Some(self.src(self.operand(at, 3)?, ty)?)
        } else {
            None
        };
        self.emit(
            at,
            Op::Carry {
                op,
                ty,
                d,
                a,
                b,
                c,
                cin: carry_in.then_some(flag),
                cout: q.contains(&"cc").then_some(flag),
            },
        );
        Ok(())
    }

    /// The predicate that holds PTX's carry flag (`CC.CF`), created on first use.
    fn carry_flag(&mut self) -> Pred {
        if let Some(p) = self.carry_pred {
            return p;
        }
        let p = self.new_pred("tcc");
        self.carry_pred = Some(p);
        p
    }

    fn ternary(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 4)?;
        self.refuse(
            at,
            q,
            &[
                "ftz", "sat", "cc", "rz", "rm", "rp", "f16", "bf16", "f16x2", "bf16x2", "relu",
            ],
        )?;
        let m = at.i.opcode.as_str();
        let half = q.iter().find(|q| matches!(**q, "lo" | "hi" | "wide")).copied();
        let (op, allowed): (TernaryOp, &[Ty]) = match (m, half) {
            ("fma", _) => (TernaryOp::Fma, &[Ty::F32, Ty::F64]),
            (_, Some("hi")) => (TernaryOp::MadHi, &INT),
            (_, Some("wide")) => (TernaryOp::MadWide, &[Ty::U32, Ty::S32]),
            (_, Some(_)) => (TernaryOp::Mad, &INT),
            _ => (TernaryOp::Mad, &ARITH),
        };
        let ty = self.ty(at, q, allowed)?;
        if op == TernaryOp::Fma && !q.contains(&"rn") {
            return Err(unsupported(at.i.opcode_span, "`fma` without `.rn`"));
        }
        let wide = if op == TernaryOp::MadWide { Ty::U64 } else { ty };
        let d = self.dst(at, 0, bits_of(wide))?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let b = self.src(self.operand(at, 2)?, ty)?;
        let c = self.src(
            self.operand(at, 3)?,
            if op == TernaryOp::MadWide { Ty::U64 } else { ty },
        )?;
        self.emit(at, Op::Ternary { op, ty, d, a, b, c });
        Ok(())
    }

    fn unary(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        let m = at.i.opcode.as_str();
        if m == "not" && q.contains(&"pred") {
            self.count(at, 2)?;
            let d = self.pred_dst(at, 0)?;
            let a = self.pred_src(self.operand(at, 1)?)?;
            self.emit(
                at,
                Op::PredLogic {
                    op: PredLogicOp::Not,
                    d,
                    a,
                    b: None,
                },
            );
            return Ok(());
        }
        self.count(at, 2)?;
        self.refuse(
            at,
            q,
            &["ftz", "approx", "rz", "rm", "rp", "f16", "bf16", "f16x2", "bf16x2"],
        )?;
        let allowed: &[Ty] = match m {
            "not" => &BITS,
            "popc" | "clz" | "brev" => &[Ty::B32, Ty::B64],
            "bfind" => &INT,
            "sqrt" => &[Ty::F32, Ty::F64],
            _ => &[Ty::S32, Ty::F32, Ty::S64, Ty::F64],
        };
        let ty = self.ty(at, q, allowed)?;
        if m == "sqrt" && !q.contains(&"rn") {
            return Err(unsupported(
                at.i.opcode_span,
                "`sqrt` without `.rn` (the approximate square root)",
            ));
        }
        let op = match m {
            "neg" => UnaryOp::Neg,
            "abs" => UnaryOp::Abs,
            "sqrt" => UnaryOp::Sqrt,
            "popc" => UnaryOp::Popc,
            "clz" => UnaryOp::Clz,
            "brev" => UnaryOp::Brev,
            "bfind" if q.contains(&"shiftamt") => UnaryOp::BfindShift,
            "bfind" => UnaryOp::Bfind,
            _ => UnaryOp::Not,
        };
        let dbits = if matches!(op, UnaryOp::Popc | UnaryOp::Clz | UnaryOp::Bfind | UnaryOp::BfindShift) {
            32
        } else {
            bits_of(ty)
        };
        let d = self.dst(at, 0, dbits)?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        if op == UnaryOp::Neg && ty == Ty::F64 {
            // ptxas makes `neg.f64` a `DADD d, -RZ, -a` (or folds the negation into the instruction that reads it),
            // and the GPU's NaN propagation ignores the negation: a NaN keeps its sign. `-0.0 - a` gives exactly
            // that (every other value negated, zeros included), on the FP64 pipe as on the GPU.
            let minus_zero = Operand::Imm(ConstExpr {
                kind: ExprKind::Float(-0.0),
                span: at.i.span,
            });
            self.emit(
                at,
                Op::Binary {
                    op: BinaryOp::Sub,
                    ty,
                    d,
                    a: minus_zero,
                    b: a,
                },
            );
            return Ok(());
        }
        self.emit(at, Op::Unary { op, ty, d, a });
        Ok(())
    }

    /// `rcp.rn.f32/f64 d, a`: `1 / a`, correctly rounded (nvcc's `1.0f / x`), an operation of its own for its
    /// timing ([`Op::Rounded`] with `rn`; the directed forms go through [`Lower::rounded`]).
    fn rcp(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        self.refuse(at, q, &["ftz", "approx"])?;
        if !q.contains(&"rn") {
            return Err(unsupported(
                at.i.opcode_span,
                "`rcp` without `.rn` (the approximate reciprocal)",
            ));
        }
        let ty = self.ty(at, q, &[Ty::F32, Ty::F64])?;
        let d = self.dst(at, 0, bits_of(ty))?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        self.emit(
            at,
            Op::Rounded {
                op: RoundedOp::Rcp,
                rounding: Rounding::NearestFloat,
                ftz: false,
                ty,
                d,
                a,
                b: None,
                c: None,
            },
        );
        Ok(())
    }

    fn bit_field(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 4)?;
        let (op, ty) = if at.i.opcode == "bfe" {
            (TernaryOp::Bfe, self.ty(at, q, &INT)?)
        } else if at.i.opcode == "fns" {
            (TernaryOp::Fns, self.ty(at, q, &[Ty::B32])?)
        } else {
            if q.iter()
                .any(|m| matches!(*m, "f4e" | "b4e" | "rc8" | "ecl" | "ecr" | "rc16"))
            {
                return Err(unsupported(at.i.opcode_span, "`prmt` modes other than the default"));
            }
            (TernaryOp::Prmt, self.ty(at, q, &[Ty::B32])?)
        };
        let d = self.dst(at, 0, bits_of(ty))?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let bt = if op == TernaryOp::Bfe { Ty::U32 } else { ty };
        let b = self.src(self.operand(at, 2)?, bt)?;
        let c = self.src(self.operand(at, 3)?, bt)?;
        self.emit(at, Op::Ternary { op, ty, d, a, b, c });
        Ok(())
    }

    /// `dp4a.ATYPE.BTYPE`, `dp2a.{lo,hi}.ATYPE.BTYPE` (integer dot products of bytes and halves, CUDA's `__dp4a`,
    /// `__dp2a_lo`) and `lop3.b32 d, a, b, c, LUT` (nvcc's three-input logic): one instruction each.
    fn dot(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        let m = at.i.opcode.as_str();
        let (op, ty) = if m == "lop3" {
            if q != ["b32"] {
                return Err(unsupported(
                    at.i.opcode_span,
                    "`lop3` with a predicate (`lop3.BoolOp.b32 d|p, …`)",
                ));
            }
            self.count(at, 5)?;
            let lut = match &self.operand(at, 4)?.kind {
                OperandKind::Int(v) if (0..=255).contains(v) => u8::try_from(*v).expect("checked"),
                _ => {
                    return Err(Diagnostic::error(self.operand(at, 4)?.span, "expected a lookup table")
                        .with_label("an integer from 0 to 255"));
                }
            };
            (TernaryOp::Lop3(lut), Ty::B32)
        } else {
            self.count(at, 4)?;
            let types: Vec<&str> = q.iter().copied().filter(|q| matches!(*q, "u32" | "s32")).collect();
            let hi = q.contains(&"hi");
            if types.len() != 2
                || (m == "dp2a" && !(hi || q.contains(&"lo")))
                || q.len() != 2 + usize::from(m == "dp2a")
            {
                return Err(unsupported(at.i.opcode_span, format!("this form of `{m}`")));
            }
            let (a_signed, b_signed) = (types[0] == "s32", types[1] == "s32");
            let op = if m == "dp4a" {
                TernaryOp::Dp4a { a_signed, b_signed }
            } else {
                TernaryOp::Dp2a { hi, a_signed, b_signed }
            };
            (op, if a_signed || b_signed { Ty::S32 } else { Ty::U32 })
        };
        let d = self.dst(at, 0, 32)?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let b = self.src(self.operand(at, 2)?, ty)?;
        let c = self.src(self.operand(at, 3)?, ty)?;
        self.emit(at, Op::Ternary { op, ty, d, a, b, c });
        Ok(())
    }

    fn bfi(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 5)?;
        let ty = self.ty(at, q, &[Ty::B32, Ty::B64])?;
        let d = self.dst(at, 0, bits_of(ty))?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let b = self.src(self.operand(at, 2)?, ty)?;
        let pos = self.src(self.operand(at, 3)?, Ty::U32)?;
        let len = self.src(self.operand(at, 4)?, Ty::U32)?;
        self.emit(at, Op::Bfi { ty, d, a, b, pos, len });
        Ok(())
    }

    /// `setp.CMP[.BOOL].TYPE p[|q], a, b[, {!}c]`.
    fn setp(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.refuse(at, q, &["f16", "bf16", "f16x2", "bf16x2", "u16", "s16", "b16"])?;
        let ftz = q.contains(&"ftz");
        let ty = self.ty(at, q, if ftz { &[Ty::F32] } else { &Ty::ALL })?;
        let cmp_name = q.first().copied().unwrap_or("");
        let combine = q.iter().find_map(|q| match *q {
            "and" => Some(PredLogicOp::And),
            "or" => Some(PredLogicOp::Or),
            "xor" => Some(PredLogicOp::Xor),
            _ => None,
        });
        let n = if combine.is_some() { 4 } else { 3 };
        self.count(at, n)?;
        let (p, second) = match &self.operand(at, 0)?.kind {
            OperandKind::Pair(p, q2) => (self.pred_named(p)?, Some(self.pred_named(q2)?)),
            OperandKind::Name(p) => (self.pred_named(p)?, None),
            _ => return Err(Diagnostic::error(self.operand(at, 0)?.span, "expected a predicate").with_label("here")),
        };
        let a = self.src(self.operand(at, 1)?, ty)?;
        let b = self.src(self.operand(at, 2)?, ty)?;
        let c = match combine {
            Some(_) => Some(self.pred_src(self.operand(at, 3)?)?),
            None => None,
        };
        // (comparison, negate the result): PTX's unsigned and unordered comparisons in warpsim's six.
        let (cmp, negate) = match (cmp_name, ty.is_float()) {
            (name, _) if ordered_cmp(name).is_some() => (ordered_cmp(name).expect("checked"), false),
            // Unordered: true when either is NaN, i.e. the ordered complement is false.
            ("equ", true) => (Cmp::Ne, true),
            ("neu", true) => (Cmp::Eq, true),
            ("ltu", true) => (Cmp::Ge, true),
            ("leu", true) => (Cmp::Gt, true),
            ("gtu", true) => (Cmp::Le, true),
            ("geu", true) => (Cmp::Lt, true),
            ("num" | "nan", true) => {
                self.setp_num(at, cmp_name == "nan", ty, (a, b), p, second, combine.zip(c));
                return Ok(());
            }
            _ => {
                return Err(unsupported(
                    at.i.opcode_span,
                    format!("`setp.{cmp_name}` on `.{}`", ty.name()),
                ));
            }
        };
        if matches!(ty, Ty::B32 | Ty::B64) && !matches!(cmp, Cmp::Eq | Cmp::Ne) {
            return Err(unsupported(at.i.opcode_span, "an ordering comparison of untyped bits"));
        }
        // The comparison into a scratch predicate when more follows, else straight into `p`.
        let simple = !negate && combine.is_none() && second.is_none();
        let t = if simple { p } else { self.scratch_pred(0) };
        self.emit(
            at,
            Op::Setp {
                cmp,
                ftz,
                ty,
                p: t,
                a,
                b,
            },
        );
        if simple {
            return Ok(());
        }
        self.finish_setp(at, t, negate, p, second, combine.zip(c));
        Ok(())
    }

    /// `p = (t ^ negate) BOOL c`, `q = !(t ^ negate) BOOL c`.
    fn finish_setp(
        &mut self,
        at: &At,
        t: Pred,
        negate: bool,
        p: Pred,
        second: Option<Pred>,
        combine: Option<(PredLogicOp, PredOperand)>,
    ) {
        let tv = PredOperand {
            pred: t,
            negated: negate,
        };
        let not_tv = PredOperand {
            pred: t,
            negated: !negate,
        };
        // `q` first: `p` may be `c`'s register.
        let emit_one = |this: &mut Self, d: Pred, v: PredOperand| match combine {
            Some((op, c)) => this.emit(
                at,
                Op::PredLogic {
                    op,
                    d,
                    a: v,
                    b: Some(c),
                },
            ),
            None if v.negated => this.emit(
                at,
                Op::PredLogic {
                    op: PredLogicOp::Not,
                    d,
                    a: PredOperand {
                        pred: v.pred,
                        negated: false,
                    },
                    b: None,
                },
            ),
            None => this.emit(
                at,
                Op::PredLogic {
                    op: PredLogicOp::And,
                    d,
                    a: v,
                    b: Some(v),
                },
            ),
        };
        if let (Some((_, c)), Some(q)) = (combine, second)
            && c.pred == p
        {
            // p would overwrite c before q reads it: q first.
            emit_one(self, q, not_tv);
            emit_one(self, p, tv);
            return;
        }
        emit_one(self, p, tv);
        if let Some(q) = second {
            emit_one(self, q, not_tv);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn setp_num(
        &mut self,
        at: &At,
        nan: bool,
        ty: Ty,
        (a, b): (Operand, Operand),
        p: Pred,
        second: Option<Pred>,
        combine: Option<(PredLogicOp, PredOperand)>,
    ) {
        // num: a == a and b == b (false for a NaN).
        let (t1, t2) = (self.scratch_pred(0), self.scratch_pred(1));
        self.emit(
            at,
            Op::Setp {
                cmp: Cmp::Eq,
                ftz: false,
                ty,
                p: t1,
                a: a.clone(),
                b: a,
            },
        );
        self.emit(
            at,
            Op::Setp {
                cmp: Cmp::Eq,
                ftz: false,
                ty,
                p: t2,
                a: b.clone(),
                b,
            },
        );
        let o = |pred| PredOperand { pred, negated: false };
        self.emit(
            at,
            Op::PredLogic {
                op: PredLogicOp::And,
                d: t1,
                a: o(t1),
                b: Some(o(t2)),
            },
        );
        self.finish_setp(at, t1, nan, p, second, combine);
    }

    fn selp(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 4)?;
        let ty = self.ty(at, q, &Ty::ALL)?;
        let d = self.dst(at, 0, bits_of(ty))?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let b = self.src(self.operand(at, 2)?, ty)?;
        let c = self.pred_src(self.operand(at, 3)?)?;
        if c.negated {
            return Err(
                Diagnostic::error(self.operand(at, 3)?.span, "`selp` takes a predicate, not its negation")
                    .with_label("here"),
            );
        }
        self.emit(at, Op::Selp { ty, d, a, b, p: c.pred });
        Ok(())
    }

    fn cvt(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        if q.contains(&"ftz") {
            let types: Vec<&str> = q.iter().copied().filter(|q| type_of_qualifier(q).is_some()).collect();
            return match types[..] {
                // `.rni`/`.rzi` round a subnormal to 0 with or without the flush.
                [to, "f32"] if to != "f32" && to != "f64" && q.iter().any(|q| matches!(*q, "rni" | "rzi")) => {
                    let rest: Vec<&str> = q.iter().copied().filter(|q| *q != "ftz").collect();
                    self.convert(at, &rest, None)
                }
                [_, "f32"] => self.cvt_flushed(at, q),
                ["f32", "f64"] => self.cvt_flushed_f64(at, q),
                _ => Err(
                    Diagnostic::error(at.i.opcode_span, "`.ftz` applies to a conversion from or to an f32")
                        .with_label("here"),
                ),
            };
        }
        self.convert(at, q, None)
    }

    /// `cvt` without `.ftz`; `a` the source operand when the caller already read it.
    fn convert(&mut self, at: &At, q: &[&str], a: Option<Operand>) -> Result<(), Diagnostic> {
        if q.contains(&"sat") && q.iter().filter(|q| **q == "f32").count() == 2 {
            let a = match a {
                Some(a) => a,
                None => self.src(self.operand(at, 1)?, Ty::F32)?,
            };
            return self.saturate(at, q, a);
        }
        self.refuse(at, q, &["sat", "relu"])?;
        let types: Vec<ScalarType> = q.iter().filter_map(|q| type_of_qualifier(q)).collect();
        let [to_s, from_s] = types[..] else {
            return Err(
                Diagnostic::error(at.i.opcode_span, "`cvt` needs a destination and a source type").with_label("here"),
            );
        };
        let (Some(to), Some(from)) = (ty_of(to_s), ty_of(from_s)) else {
            return Err(unsupported(at.i.opcode_span, "`cvt` of 8- or 16-bit types"));
        };
        let rnd = q
            .iter()
            .find(|q| matches!(**q, "rn" | "rz" | "rm" | "rp" | "rni" | "rzi" | "rmi" | "rpi"))
            .copied();
        let rounding = if from.is_float() && (to.is_int() || to == from) {
            match rnd {
                Some("rni") => Rounding::Nearest,
                Some("rzi") => Rounding::Zero,
                Some("rmi") => Rounding::Down,
                Some("rpi") => Rounding::Up,
                _ => {
                    return Err(Diagnostic::error(
                        at.i.opcode_span,
                        "a conversion from a float to an integer needs `.rni`, `.rzi`, `.rmi` or `.rpi`",
                    )
                    .with_label("which rounding?"));
                }
            }
        } else if to.is_float() && !(from == Ty::F32 && to == Ty::F64) {
            match rnd {
                None | Some("rn") => Rounding::NearestFloat,
                Some("rz") => Rounding::FloatZero,
                Some("rm") => Rounding::FloatDown,
                Some("rp") => Rounding::FloatUp,
                Some(r) => {
                    return Err(Diagnostic::error(
                        at.i.opcode_span,
                        format!("`.{r}` does not apply to a conversion to a float"),
                    )
                    .with_label("here"));
                }
            }
        } else {
            Rounding::NearestFloat
        };
        // Integer types of the same width and b-types: a move of the bits.
        let d = self.dst(at, 0, bits_of(to))?;
        let a = match a {
            Some(a) => a,
            None => self.src(self.operand(at, 1)?, from)?,
        };
        if to.is_int() && from.is_int() && to.wide() == from.wide() {
            self.emit(
                at,
                Op::Mov {
                    ty: if to.wide() { Ty::B64 } else { Ty::B32 },
                    d,
                    a,
                },
            );
            return Ok(());
        }
        let norm = |t: Ty| match t {
            Ty::B32 => Ty::U32,
            Ty::B64 => Ty::U64,
            t => t,
        };
        self.emit(
            at,
            Op::Cvt {
                rounding,
                to: norm(to),
                from: norm(from),
                d,
                a,
            },
        );
        Ok(())
    }

    /// `cvt.ftz` from an f32 (other than a flush alone, `cvt.ftz.f32.f32`, and `.rni`/`.rzi` to an integer): the
    /// operand flushed into a scratch register, then the conversion without `.ftz`. Where the GPU has one
    /// instruction (`FRND.FTZ`, `F2I.FTZ`, `FADD.FTZ.SAT`) warpsim issues two.
    fn cvt_flushed(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        let a = self.src(self.operand(at, 1)?, Ty::F32)?;
        let only_flush = q.iter().filter(|q| **q == "f32").count() == 2
            && !q.iter().any(|q| {
                matches!(
                    *q,
                    "sat" | "rni" | "rzi" | "rmi" | "rpi" | "rn" | "rz" | "rm" | "rp" | "relu"
                )
            });
        let t = if only_flush {
            self.dst(at, 0, 32)?
        } else {
            self.scratch_reg(false, 7)
        };
        self.emit(
            at,
            Op::Rounded {
                op: RoundedOp::Flush,
                rounding: Rounding::NearestFloat,
                ftz: true,
                ty: Ty::F32,
                d: t,
                a,
                b: None,
                c: None,
            },
        );
        if only_flush {
            return Ok(());
        }
        let rest: Vec<&str> = q.iter().copied().filter(|q| *q != "ftz").collect();
        self.convert(at, &rest, Some(Operand::Reg(t)))
    }

    /// `cvt.RND.ftz.f32.f64 d, a`, as ptxas writes it: the plain conversion (`F2F`), then, where a test of the
    /// operand or the result says it lies below the normal range, the result times 2^-126 (an `FMUL` that leaves a
    /// zero of its sign). The test by rounding: `.rn` |a| < 2^-126 − 2^-151; `.rz` |d| < 2^-126; `.rm`, `.rp` |a| <
    /// 2^-126 − 2^-150 or |d| < 2^-126 (ptxas picks 2^-126 or 2^-126 − 2^-150 for |a| by the sign: the same thing).
    /// Lowered as the conversion, the tests into a scratch predicate, the product and a `selp` (a NaN fails every
    /// test and keeps the conversion's NaN).
    fn cvt_flushed_f64(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        let rest: Vec<&str> = q.iter().copied().filter(|q| *q != "ftz").collect();
        self.convert(at, &rest, None)?;
        let d = self.dst(at, 0, 32)?;
        let a = self.src(self.operand(at, 1)?, Ty::F64)?;
        let rounding = q
            .iter()
            .copied()
            .find(|q| matches!(*q, "rz" | "rm" | "rp"))
            .unwrap_or("rn");
        let span = at.i.span;
        let bits32 = |b: u32| {
            Operand::Imm(ConstExpr {
                kind: ExprKind::Float(f64::from(f32::from_bits(b))),
                span,
            })
        };
        let bits64 = |b: u64| {
            Operand::Imm(ConstExpr {
                kind: ExprKind::Float(f64::from_bits(b)),
                span,
            })
        };
        let p = self.scratch_pred(0);
        let (t64, t32) = (self.scratch_reg(true, 4), self.scratch_reg(false, 9));
        let setp = |cmp, ty, p, a, b| Op::Setp {
            cmp,
            ftz: false,
            ty,
            p,
            a,
            b,
        };
        if rounding != "rz" {
            let threshold = if rounding == "rn" {
                0x380f_ffff_f000_0000
            } else {
                0x380f_ffff_e000_0000
            };
            self.emit(
                at,
                Op::Unary {
                    op: UnaryOp::Abs,
                    ty: Ty::F64,
                    d: t64,
                    a,
                },
            );
            self.emit(at, setp(Cmp::Lt, Ty::F64, p, Operand::Reg(t64), bits64(threshold)));
        }
        if rounding != "rn" {
            let q2 = if rounding == "rz" { p } else { self.scratch_pred(1) };
            self.emit(
                at,
                Op::Unary {
                    op: UnaryOp::Abs,
                    ty: Ty::F32,
                    d: t32,
                    a: Operand::Reg(d),
                },
            );
            self.emit(at, setp(Cmp::Lt, Ty::F32, q2, Operand::Reg(t32), bits32(0x0080_0000)));
            if q2 != p {
                self.emit(
                    at,
                    Op::PredLogic {
                        op: PredLogicOp::Or,
                        d: p,
                        a: PredOperand {
                            pred: p,
                            negated: false,
                        },
                        b: Some(PredOperand {
                            pred: q2,
                            negated: false,
                        }),
                    },
                );
            }
        }
        self.emit(
            at,
            Op::Binary {
                op: BinaryOp::Mul,
                ty: Ty::F32,
                d: t32,
                a: Operand::Reg(d),
                b: bits32(0x0080_0000),
            },
        );
        self.emit(
            at,
            Op::Selp {
                ty: Ty::F32,
                d,
                a: Operand::Reg(t32),
                b: Operand::Reg(d),
                p,
            },
        );
        Ok(())
    }

    /// `cvt[.RNDi].sat.f32.f32 d, a`: rounded to an integral value (with a rounding mode), then clamped to
    /// [0, 1], NaN to 0: `max` with 0 (PTX's `max` returns the other operand for a NaN), then `min` with 1.
    fn saturate(&mut self, at: &At, q: &[&str], mut a: Operand) -> Result<(), Diagnostic> {
        let d = self.dst(at, 0, 32)?;
        let rounding = match q.iter().find(|q| matches!(**q, "rni" | "rzi" | "rmi" | "rpi")).copied() {
            Some("rni") => Some(Rounding::Nearest),
            Some("rzi") => Some(Rounding::Zero),
            Some("rmi") => Some(Rounding::Down),
            Some("rpi") => Some(Rounding::Up),
            _ => None,
        };
        if let Some(rounding) = rounding {
            self.emit(
                at,
                Op::Cvt {
                    rounding,
                    to: Ty::F32,
                    from: Ty::F32,
                    d,
                    a,
                },
            );
            a = Operand::Reg(d);
        }
        let float = |x: f64| {
            Operand::Imm(ConstExpr {
                kind: ExprKind::Float(x),
                span: at.i.span,
            })
        };
        self.emit(
            at,
            Op::Binary {
                op: BinaryOp::Max,
                ty: Ty::F32,
                d,
                a,
                b: float(0.0),
            },
        );
        self.emit(
            at,
            Op::Binary {
                op: BinaryOp::Min,
                ty: Ty::F32,
                d,
                a: Operand::Reg(d),
                b: float(1.0),
            },
        );
        Ok(())
    }

    /// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c`: the funnel shift of the 64 bits `b:a` by `c` (mod 32, or at most
    /// 32), in 32-bit shifts: left `(b << n) | (a >> (32 - n))`, right `(a >> n) | (b << (32 - n))` (a shift by 32
    /// gives 0 in PTX).
    fn shf(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 4)?;
        let left = q.contains(&"l");
        let wrap = q.contains(&"wrap");
        if !q.contains(&"b32") || !(left || q.contains(&"r")) || !(wrap || q.contains(&"clamp")) {
            return Err(unsupported(at.i.opcode_span, "this form of `shf`"));
        }
        let d = self.dst(at, 0, 32)?;
        let a = self.src(self.operand(at, 1)?, Ty::B32)?;
        let b = self.src(self.operand(at, 2)?, Ty::B32)?;
        let c = self.src(self.operand(at, 3)?, Ty::U32)?;
        let (n, m, hi, lo) = (
            self.scratch_reg(false, 1),
            self.scratch_reg(false, 2),
            self.scratch_reg(false, 3),
            self.scratch_reg(false, 4),
        );
        let imm = |v: i64| Operand::Imm(int(v, at.i.span));
        if wrap {
            self.emit(
                at,
                Op::Binary {
                    op: BinaryOp::And,
                    ty: Ty::B32,
                    d: n,
                    a: c,
                    b: imm(31),
                },
            );
        } else {
            self.emit(
                at,
                Op::Binary {
                    op: BinaryOp::Min,
                    ty: Ty::U32,
                    d: n,
                    a: c,
                    b: imm(32),
                },
            );
        }
        self.emit(
            at,
            Op::Binary {
                op: BinaryOp::Sub,
                ty: Ty::U32,
                d: m,
                a: imm(32),
                b: Operand::Reg(n),
            },
        );
        let (first, second) = if left { (b, a) } else { (a, b) };
        let (op1, op2) = if left {
            (BinaryOp::Shl, BinaryOp::Shr)
        } else {
            (BinaryOp::Shr, BinaryOp::Shl)
        };
        self.emit(
            at,
            Op::Binary {
                op: op1,
                ty: Ty::U32,
                d: hi,
                a: first,
                b: Operand::Reg(n),
            },
        );
        self.emit(
            at,
            Op::Binary {
                op: op2,
                ty: Ty::U32,
                d: lo,
                a: second,
                b: Operand::Reg(m),
            },
        );
        self.emit(
            at,
            Op::Binary {
                op: BinaryOp::Or,
                ty: Ty::B32,
                d,
                a: Operand::Reg(hi),
                b: Operand::Reg(lo),
            },
        );
        Ok(())
    }

    /// `sad.{s32,u32} d, a, b, c`: `|a - b| + c`, as `max(a, b) - min(a, b) + c`.
    fn sad(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 4)?;
        let ty = self.ty(at, q, &[Ty::S32, Ty::U32])?;
        let d = self.dst(at, 0, 32)?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let b = self.src(self.operand(at, 2)?, ty)?;
        let c = self.src(self.operand(at, 3)?, ty)?;
        let (hi, lo) = (self.scratch_reg(false, 1), self.scratch_reg(false, 2));
        self.emit(
            at,
            Op::Binary {
                op: BinaryOp::Max,
                ty,
                d: hi,
                a: a.clone(),
                b: b.clone(),
            },
        );
        self.emit(
            at,
            Op::Binary {
                op: BinaryOp::Min,
                ty,
                d: lo,
                a,
                b,
            },
        );
        self.emit(
            at,
            Op::Binary {
                op: BinaryOp::Sub,
                ty: Ty::U32,
                d: hi,
                a: Operand::Reg(hi),
                b: Operand::Reg(lo),
            },
        );
        self.emit(
            at,
            Op::Binary {
                op: BinaryOp::Add,
                ty: Ty::U32,
                d,
                a: Operand::Reg(hi),
                b: c,
            },
        );
        Ok(())
    }

    /// `cvta[.to].SPACE.u64 d, a`: generic ⇄ state-space addresses by the windows of `crate::address`.
    fn cvta(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        let to = q.contains(&"to");
        let space = q
            .iter()
            .find(|q| matches!(**q, "global" | "shared" | "local" | "const" | "param"))
            .copied();
        let ty = self.ty(at, q, &[Ty::U64, Ty::U32])?;
        if ty != Ty::U64 {
            return Err(unsupported(at.i.opcode_span, "`cvta` of 32-bit addresses"));
        }
        let d = self.dst(at, 0, 64)?;
        let a = self.src(self.operand(at, 1)?, Ty::U64)?;
        let window = match space {
            Some("global" | "const") => None,
            Some("shared") => Some(SHARED_WINDOW),
            Some("local") => Some(LOCAL_WINDOW),
            _ => return Err(unsupported(at.i.opcode_span, "`cvta` of this state space")),
        };
        let Some(w) = window else {
            self.emit(at, Op::Mov { ty: Ty::B64, d, a });
            return Ok(());
        };
        let op = if to { BinaryOp::Sub } else { BinaryOp::Add };
        let b = Operand::Imm(int(w.cast_signed(), at.i.span));
        self.emit(
            at,
            Op::Binary {
                op,
                ty: Ty::U64,
                d,
                a,
                b,
            },
        );
        Ok(())
    }

    /// The state space of `ld`/`st`/`atom`/`red` from its qualifiers (`None`: generic).
    fn space_of(q: &[&str]) -> Option<&'static str> {
        q.iter().find_map(|q| match *q {
            "global" => Some("global"),
            "shared" => Some("shared"),
            "local" => Some("local"),
            "param" => Some("param"),
            "const" => Some("const"),
            _ => None,
        })
    }

    /// `[base+offset]` in `space` as a flat address.
    fn address(&self, o: &ptx::Operand, space: Option<&str>, extra: i64) -> Result<Address, Diagnostic> {
        let OperandKind::Address(a) = &o.kind else {
            return Err(Diagnostic::error(o.span, "expected an address `[…]`").with_label("here"));
        };
        let sp = match space {
            Some("global" | "const") => Space::Global,
            Some("shared") => Space::Shared,
            Some("local") => Space::Local,
            _ => Space::Generic,
        };
        let offset = a
            .offset
            .checked_add(extra)
            .ok_or_else(|| Diagnostic::error(o.span, "address offset overflows").with_label("here"))?;
        let (base, disp) = match &a.base {
            None => (None, Some(int(offset, o.span))),
            Some(n) => match self.lookup(&n.name) {
                Some(Slot::R64(r)) => (Some(Operand::Reg(r)), (offset != 0).then(|| int(offset, o.span))),
                Some(Slot::R32(r, 32)) if matches!(sp, Space::Shared | Space::Local) => {
                    (Some(Operand::Reg(r)), (offset != 0).then(|| int(offset, o.span)))
                }
                Some(_) => {
                    return Err(
                        Diagnostic::error(n.span, format!("`{}` cannot hold an address here", n.name))
                            .with_label("expected a 64-bit register (32-bit for shared and local)"),
                    );
                }
                None => {
                    let Some((vspace, e)) = self.symbols.get(&n.name) else {
                        return Err(
                            Diagnostic::error(n.span, format!("unknown name `{}`", n.name)).with_label("not declared")
                        );
                    };
                    // A variable named directly: its address in its own space.
                    let sp_ok = matches!(
                        (vspace, sp),
                        (StateSpace::Global, Space::Global | Space::Generic)
                            | (StateSpace::Shared, Space::Shared)
                            | (StateSpace::Local, Space::Local)
                    );
                    if !sp_ok {
                        return Err(unsupported(
                            n.span,
                            format!("`{}` named from another state space", n.name),
                        ));
                    }
                    let mut e = e.clone();
                    e.span = n.span;
                    (None, Some(plus(e, offset)))
                }
            },
        };
        Ok(Address {
            space: sp,
            buffer: 0,
            mode: AddrMode::Flat,
            base,
            disp,
        })
    }

    fn memory(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        let load = at.i.opcode == "ld";
        let space = Self::space_of(q);
        let scalar = q.iter().rev().find_map(|q| type_of_qualifier(q)).ok_or_else(|| {
            Diagnostic::error(at.i.opcode_span, format!("`{}` needs a type", at.i.opcode)).with_label("no type")
        })?;
        let Some(ty) = ty_of(scalar) else {
            return Err(unsupported(
                at.i.opcode_span,
                format!("`{}` of 8- or 16-bit values", at.i.opcode),
            ));
        };
        let lanes = if q.contains(&"v2") {
            2
        } else if q.contains(&"v4") {
            4
        } else {
            1
        };
        let (reg_k, addr_k) = if load { (0, 1) } else { (1, 0) };
        if space == Some("param") {
            if !load {
                return self.st_param(at, ty);
            }
            return self.ld_param(at, ty);
        }
        let values: Vec<&ptx::Operand> = match &self.operand(at, reg_k)?.kind {
            OperandKind::Vector(v) if v.len() == lanes => v.iter().collect(),
            OperandKind::Vector(_) => {
                return Err(Diagnostic::error(
                    self.operand(at, reg_k)?.span,
                    "the vector's length differs from `.v2`/`.v4`",
                )
                .with_label("here"));
            }
            _ if lanes == 1 => vec![self.operand(at, reg_k)?],
            _ => {
                return Err(
                    Diagnostic::error(self.operand(at, reg_k)?.span, "a vector access needs `{…}`").with_label("here"),
                );
            }
        };
        let size = i64::from(bits_of(ty) / 8);
        let addr_op = self.operand(at, addr_k)?;
        // A load into the base register of its own address reads every element first… only scalar loads
        // may overwrite their base.
        for (k, v) in values.iter().enumerate() {
            let addr = self.address(addr_op, space, size * i64::from(u8::try_from(k).unwrap_or(0)))?;
            if load {
                let OperandKind::Name(n) = &v.kind else {
                    return Err(Diagnostic::error(v.span, "expected a register").with_label("here"));
                };
                if n.name == "_" {
                    continue;
                }
                if !ty.wide() && lanes == 1 && matches!(self.lookup(&n.name), Some(Slot::R64(_))) {
                    // PTX: a 32-bit load into a 64-bit register is zero- or sign-extended.
                    let d = self.reg(n, 64)?;
                    if ty != Ty::S32 && addr.base != Some(Operand::Reg(d)) {
                        // Zero-extended: the high word is set first and the load writes the low word (a 32-bit
                        // load writes one row), as SASS loads one register and reads the high word as `RZ` where
                        // it is used. Nothing waits for the load here, so loads in a row stay in flight together.
                        let zero = Operand::Imm(int(0, v.span));
                        self.emit(
                            at,
                            Op::Mov {
                                ty: Ty::B64,
                                d,
                                a: zero,
                            },
                        );
                        self.emit(
                            at,
                            Op::Ld {
                                ty,
                                d,
                                addr,
                                narrow: None,
                            },
                        );
                        continue;
                    }
                    let t = self.scratch_reg(false, 0);
                    self.emit(
                        at,
                        Op::Ld {
                            ty,
                            d: t,
                            addr,
                            narrow: None,
                        },
                    );
                    let (to, from) = if ty == Ty::S32 {
                        (Ty::S64, Ty::S32)
                    } else {
                        (Ty::U64, Ty::U32)
                    };
                    let a = Operand::Reg(t);
                    self.emit(
                        at,
                        Op::Cvt {
                            rounding: Rounding::NearestFloat,
                            to,
                            from,
                            d,
                            a,
                        },
                    );
                    continue;
                }
                let d = self.reg(n, bits_of(ty))?;
                if lanes > 1 && addr.base == Some(Operand::Reg(d)) && k + 1 < lanes {
                    return Err(unsupported(v.span, "a vector load into its own address register"));
                }
                self.emit(
                    at,
                    Op::Ld {
                        ty,
                        d,
                        addr,
                        narrow: None,
                    },
                );
            } else {
                let wider = match &v.kind {
                    OperandKind::Name(n) => !ty.wide() && matches!(self.lookup(&n.name), Some(Slot::R64(_))),
                    _ => false,
                };
                if wider {
                    // PTX: a 64-bit register stored as 32 bits is truncated.
                    let wide = self.src(v, Ty::U64)?;
                    let t = self.scratch_reg(false, 0);
                    let rounding = Rounding::NearestFloat;
                    self.emit(
                        at,
                        Op::Cvt {
                            rounding,
                            to: Ty::U32,
                            from: Ty::U64,
                            d: t,
                            a: wide,
                        },
                    );
                    self.emit(
                        at,
                        Op::St {
                            ty,
                            addr,
                            a: Operand::Reg(t),
                            narrow: None,
                        },
                    );
                    continue;
                }
                let a = self.src(v, ty)?;
                self.emit(
                    at,
                    Op::St {
                        ty,
                        addr,
                        a,
                        narrow: None,
                    },
                );
            }
        }
        Ok(())
    }

    /// `ld.param.TYPE d, [name+offset]` of a kernel parameter: its value at this launch.
    fn ld_param(&mut self, at: &At, ty: Ty) -> Result<(), Diagnostic> {
        let (a, kernel) = self.param_source(at, ty)?;
        let d = self.dst(at, 0, bits_of(ty))?;
        let ty = if ty.wide() {
            if ty == Ty::F64 { Ty::F64 } else { Ty::B64 }
        } else if ty == Ty::F32 {
            Ty::F32
        } else {
            Ty::B32
        };
        self.emit(at, Op::Mov { ty, d, a });
        self.mark_param(kernel);
        Ok(())
    }

    /// `ld.param` of 32 bits or fewer into `d` (all 32 bits; the caller keeps the low ones).
    fn ld_param_into(&mut self, at: &At, d: Reg) -> Result<(), Diagnostic> {
        let (a, kernel) = self.param_source(at, Ty::B32)?;
        self.emit(at, Op::Mov { ty: Ty::B32, d, a });
        self.mark_param(kernel);
        Ok(())
    }

    /// The instruction just emitted reads the kernel parameter at byte `offset` of the parameter space
    /// (`Instruction::param`), if any.
    fn mark_param(&mut self, offset: Option<u32>) {
        if let Some(last) = self.code.last_mut() {
            last.inst.param = offset;
        }
    }

    /// What `ld.param.TYPE d, [name+offset]` reads: a call's argument (its register), or a kernel parameter's
    /// value at this launch; and whether it is a kernel parameter.
    fn param_source(&mut self, at: &At, ty: Ty) -> Result<(Operand, Option<u32>), Diagnostic> {
        let o = self.operand(at, 1)?;
        let OperandKind::Address(a) = &o.kind else {
            return Err(Diagnostic::error(o.span, "expected `[parameter]`").with_label("here"));
        };
        let Some(name) = &a.base else {
            return Err(Diagnostic::error(o.span, "expected `[parameter]`").with_label("here"));
        };
        if let Some(id) = self.param_var(&name.name) {
            return Ok((self.param_slot(id, a.offset, ty, name.span)?, None));
        }
        let Some(k) = self.entry.params.iter().position(|p| p.name.name == name.name) else {
            return Err(Diagnostic::error(
                name.span,
                format!("`{}` is not a parameter of `{}`", name.name, self.entry.name.name),
            )
            .with_label("unknown parameter"));
        };
        if a.offset != 0 {
            return Err(unsupported(
                o.span,
                "reading part of a parameter (a struct passed by value)",
            ));
        }
        match self.bindings.values.get(k) {
            Some(ParamValue::Expr(e)) => {
                let mut e = e.clone();
                e.span = name.span;
                Ok((Operand::Imm(e), self.param_offsets.get(k).copied()))
            }
            _ => Err(
                Diagnostic::error(name.span, format!("parameter {k} (`{}`) is not bound", name.name))
                    .with_label("no value")
                    .with_help("give it a buffer (`--buffer NAME=f32[N]`) or a value (`--set NAME=V`)"),
            ),
        }
    }

    fn atom(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        let returns = at.i.opcode == "atom";
        let space = Self::space_of(q);
        if matches!(space, Some("local" | "param" | "const")) {
            return Err(unsupported(
                at.i.opcode_span,
                "an atomic outside global and shared memory",
            ));
        }
        let op = q
            .iter()
            .find_map(|q| AtomOp::ALL.into_iter().find(|o| o.name() == *q))
            .ok_or_else(|| {
                unsupported(
                    at.i.opcode_span,
                    format!(
                        "`{}` with this operation (inc, dec and vectors are not modelled)",
                        at.i.opcode
                    ),
                )
            })?;
        self.refuse(at, q, &["v2", "v4", "v8", "f16", "bf16", "f16x2", "bf16x2"])?;
        let ty = self.ty(at, q, &Ty::ALL)?;
        let n = usize::from(returns) + 2 + usize::from(op == AtomOp::Cas);
        self.count(at, n)?;
        let mut k = 0;
        let d = if returns {
            k = 1;
            Some(self.dst(at, 0, bits_of(ty))?)
        } else {
            None
        };
        let addr = self.address(self.operand(at, k)?, space, 0)?;
        let b = self.src(self.operand(at, k + 1)?, ty)?;
        let c = if op == AtomOp::Cas {
            Some(self.src(self.operand(at, k + 2)?, ty)?)
        } else {
            None
        };
        // `.b32` etc. for exch/cas/and/or/xor; warpsim's typed forms for the rest.
        let ty = match (op, ty) {
            (AtomOp::And | AtomOp::Or | AtomOp::Xor | AtomOp::Exch | AtomOp::Cas, t) => t,
            (_, Ty::B32) => Ty::U32,
            (_, Ty::B64) => Ty::U64,
            (_, t) => t,
        };
        self.emit(at, Op::Atom { op, ty, d, addr, b, c });
        Ok(())
    }

    fn bar(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        // `.cta` is the only scope and `.aligned` what warpsim checks anyway (every live lane arrives).
        let q: Vec<&str> = q.iter().copied().filter(|q| !matches!(*q, "cta" | "aligned")).collect();
        let q = q.as_slice();
        if q.first() == Some(&"warp") {
            self.count(at, 1)?;
            let mask = Some(self.src(self.operand(at, 0)?, Ty::U32)?);
            self.emit(at, Op::BarWarp { mask });
            return Ok(());
        }
        match q.first().copied() {
            Some("arrive") => {
                self.count(at, 2)?;
                let id = self.src(self.operand(at, 0)?, Ty::U32)?;
                let count = Some(self.src(self.operand(at, 1)?, Ty::U32)?);
                self.emit(
                    at,
                    Op::Bar {
                        kind: BarKind::Arrive,
                        id,
                        count,
                        pred: None,
                    },
                );
                Ok(())
            }
            Some("sync") | None => {
                let id = match at.i.operands.first() {
                    Some(o) => self.src(o, Ty::U32)?,
                    None => Operand::Imm(int(0, at.i.span)),
                };
                let count = match at.i.operands.get(1) {
                    Some(o) => Some(self.src(o, Ty::U32)?),
                    None => None,
                };
                self.emit(
                    at,
                    Op::Bar {
                        kind: BarKind::Sync,
                        id,
                        count,
                        pred: None,
                    },
                );
                Ok(())
            }
            Some("red") => {
                let n = at.i.operands.len();
                if !(3..=4).contains(&n) {
                    return self.count(at, 3);
                }
                let kind = if q.contains(&"popc") {
                    BarKind::Popc(self.dst(at, 0, 32)?)
                } else if q.contains(&"and") {
                    BarKind::And(self.pred_dst(at, 0)?)
                } else {
                    BarKind::Or(self.pred_dst(at, 0)?)
                };
                let id = self.src(self.operand(at, 1)?, Ty::U32)?;
                let count = if n == 4 {
                    Some(self.src(self.operand(at, 2)?, Ty::U32)?)
                } else {
                    None
                };
                let pred = Some(self.pred_src(self.operand(at, n - 1)?)?);
                self.emit(at, Op::Bar { kind, id, count, pred });
                Ok(())
            }
            _ => Err(unsupported(
                at.i.opcode_span,
                format!("`{}.{}`", at.i.opcode, q.join(".")),
            )),
        }
    }

    fn shfl(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        if !q.contains(&"sync") {
            return Err(unsupported(
                at.i.opcode_span,
                "`shfl` without `.sync` (deprecated; use `shfl.sync`)",
            ));
        }
        self.count(at, 5)?;
        let mode = q
            .iter()
            .find_map(|q| ShflMode::ALL.into_iter().find(|m| m.name() == *q))
            .ok_or_else(|| {
                Diagnostic::error(at.i.opcode_span, "a shuffle mode: idx, up, down or bfly").with_label("which mode?")
            })?;
        let (d, p) = match &self.operand(at, 0)?.kind {
            OperandKind::Pair(d, p) => (self.reg(d, 32)?, Some(self.pred_named(p)?)),
            OperandKind::Name(d) => (self.reg(d, 32)?, None),
            _ => return Err(Diagnostic::error(self.operand(at, 0)?.span, "expected a register").with_label("here")),
        };
        let a = self.src(self.operand(at, 1)?, Ty::B32)?;
        let b = self.src(self.operand(at, 2)?, Ty::U32)?;
        // nvcc moves a constant `c` into a register first: the constant, when it is known here.
        let segment = match self.src(self.operand(at, 3)?, Ty::U32)? {
            Operand::Imm(e) => ShflSegment::Raw(e),
            Operand::Reg(r) if self.known.contains_key(&r) => ShflSegment::Raw(self.known[&r].clone()),
            c => ShflSegment::Reg(c),
        };
        let mask = Some(self.src(self.operand(at, 4)?, Ty::U32)?);
        self.emit(
            at,
            Op::Shfl {
                mode,
                d,
                p,
                a,
                b,
                segment: Some(segment),
                mask,
            },
        );
        Ok(())
    }

    fn vote(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        if !q.contains(&"sync") {
            return Err(unsupported(
                at.i.opcode_span,
                "`vote` without `.sync` (deprecated; use `vote.sync`)",
            ));
        }
        self.count(at, 3)?;
        let mode = match q.iter().find(|q| matches!(**q, "all" | "any" | "uni" | "ballot")) {
            Some(&"all") => VoteMode::All,
            Some(&"any") => VoteMode::Any,
            Some(&"uni") => VoteMode::Uni,
            Some(_) => VoteMode::Ballot,
            None => {
                return Err(
                    Diagnostic::error(at.i.opcode_span, "a vote mode: all, any, uni or ballot")
                        .with_label("which mode?"),
                );
            }
        };
        let (d_pred, d_reg) = if mode == VoteMode::Ballot {
            (None, Some(self.dst(at, 0, 32)?))
        } else {
            (Some(self.pred_dst(at, 0)?), None)
        };
        let a = self.pred_src(self.operand(at, 1)?)?;
        let mask = Some(self.src(self.operand(at, 2)?, Ty::U32)?);
        self.emit(
            at,
            Op::Vote {
                mode,
                d_pred,
                d_reg,
                a,
                mask,
            },
        );
        Ok(())
    }

    fn match_sync(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 3)?;
        let all = q.contains(&"all");
        if !q.contains(&"b32") {
            return Err(unsupported(at.i.opcode_span, "`match.sync` of 64-bit values"));
        }
        let (d, p) = match &self.operand(at, 0)?.kind {
            OperandKind::Pair(d, p) if all => (self.reg(d, 32)?, Some(self.pred_named(p)?)),
            OperandKind::Name(d) => (self.reg(d, 32)?, None),
            _ => return Err(Diagnostic::error(self.operand(at, 0)?.span, "expected a register").with_label("here")),
        };
        let a = self.src(self.operand(at, 1)?, Ty::B32)?;
        let mask = Some(self.src(self.operand(at, 2)?, Ty::U32)?);
        self.emit(at, Op::Match { all, d, p, a, mask });
        Ok(())
    }

    /// `redux.sync.OP.TYPE d, a, membermask` (sm_80's integer warp reduction).
    fn redux(&mut self, at: &At, q: &[&str]) -> Result<(), Diagnostic> {
        self.count(at, 3)?;
        let op = q
            .iter()
            .find_map(|q| ReduxOp::ALL.into_iter().find(|o| o.name() == *q))
            .ok_or_else(|| {
                Diagnostic::error(at.i.opcode_span, "a reduction: add, min, max, and, or or xor").with_label("which?")
            })?;
        let ty = if q.contains(&"s32") {
            Ty::S32
        } else if q.contains(&"u32") {
            Ty::U32
        } else if q.contains(&"b32") {
            Ty::B32
        } else {
            return Err(unsupported(
                at.i.opcode_span,
                format!("`redux.sync` of `.{}`", q.last().copied().unwrap_or("?")),
            ));
        };
        let d = self.dst(at, 0, 32)?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        let mask = Some(self.src(self.operand(at, 2)?, Ty::U32)?);
        self.emit(at, Op::Redux { op, ty, d, a, mask });
        Ok(())
    }
}

impl Lower<'_> {
    /// The key of label `name` in the function being lowered (an inlined function's labels are its own).
    fn label_key(&self, name: &str) -> String {
        match self.frames.last() {
            Some(f) => format!("{}{name}", f.ret_label),
            None => name.to_string(),
        }
    }

    /// A call-sequence `.param` variable in scope, or an inlined function's parameter or return value.
    fn param_var(&self, name: &str) -> Option<u32> {
        if let Some(f) = self.frames.last()
            && let Some(&id) = f.params.get(name)
        {
            return Some(id);
        }
        self.param_scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    /// The register holding bytes `offset..` of call-sequence variable `id`, read or written as `ty`.
    fn param_slot(&mut self, id: u32, offset: i64, ty: Ty, span: Span) -> Result<Operand, Diagnostic> {
        let bits = bits_of(ty);
        let slot = match self.param_slots.get(&(id, offset)) {
            Some(s) => *s,
            None => {
                let t = if ty.wide() { ScalarType::B64 } else { ScalarType::B32 };
                let s = self.new_register(&format!("arg{id}_{offset}"), t, span)?;
                self.param_slots.insert((id, offset), s);
                s
            }
        };
        match (slot, bits) {
            (Slot::R64(r), 64) | (Slot::R32(r, 32), 32) => Ok(Operand::Reg(r)),
            _ => Err(unsupported(
                span,
                "a call's argument written and read at different widths",
            )),
        }
    }

    /// `call (ret), vprintf, (fmt, args)`: CUDA's `printf`, one instruction ([`Op::Printf`]) reading the call's two
    /// 64-bit arguments and writing its 32-bit result (to a scratch register when the call takes none).
    fn vprintf(&mut self, at: &At, returns: &[ptx::Operand], args: &[ptx::Operand]) -> Result<(), Diagnostic> {
        let [fmt, list] = args else {
            return Err(Diagnostic::error(
                at.i.span,
                format!(
                    "`vprintf` takes 2 parameters (the format and the arguments); this call passes {}",
                    args.len()
                ),
            )
            .with_label("wrong call"));
        };
        let fmt = self.call_slot(fmt, Ty::B64)?;
        let list = self.call_slot(list, Ty::B64)?;
        let d = match returns {
            [] => self.scratch_reg(false, 0),
            [r] => match self.call_slot(r, Ty::B32)? {
                Operand::Reg(r) => r,
                _ => unreachable!("a parameter slot is a register"),
            },
            _ => {
                return Err(Diagnostic::error(at.i.span, "`vprintf` returns one value").with_label("wrong call"));
            }
        };
        self.emit(at, Op::Printf { d, fmt, args: list });
        Ok(())
    }

    /// `call __assertfail, (message, file, line, function, char_size)`: CUDA's failed `assert`, one instruction
    /// ([`Op::AssertFail`]) reading the call's arguments (the character size, 1, is not needed).
    fn assertfail(&mut self, at: &At, args: &[ptx::Operand]) -> Result<(), Diagnostic> {
        let [message, file, line, function, _] = args else {
            return Err(Diagnostic::error(
                at.i.span,
                format!(
                    "`__assertfail` takes 5 parameters (message, file, line, function, character size); this call passes {}",
                    args.len()
                ),
            )
            .with_label("wrong call"));
        };
        let op = Op::AssertFail {
            message: self.call_slot(message, Ty::B64)?,
            file: self.call_slot(file, Ty::B64)?,
            line: self.call_slot(line, Ty::B32)?,
            function: self.call_slot(function, Ty::B64)?,
        };
        self.emit(at, op);
        Ok(())
    }

    /// The register holding call argument `o` (a call sequence's `.param` variable) as `ty`, for the calls warpsim
    /// runs as one instruction (`vprintf`, `__assertfail`).
    fn call_slot(&mut self, o: &ptx::Operand, ty: Ty) -> Result<Operand, Diagnostic> {
        let OperandKind::Name(n) = &o.kind else {
            return Err(unsupported(o.span, "a call argument that is not a `.param` variable"));
        };
        let Some(id) = self.param_var(&n.name) else {
            return Err(unsupported(n.span, "a call argument that is not a `.param` variable"));
        };
        self.param_slot(id, 0, ty, n.span)
    }

    /// `st.param.TYPE [var+offset], a` in a call sequence (an argument) or an inlined function (its return value).
    fn st_param(&mut self, at: &At, ty: Ty) -> Result<(), Diagnostic> {
        let d = self.st_param_slot(at, ty)?;
        let a = self.src(self.operand(at, 1)?, ty)?;
        self.emit(at, Op::Mov { ty, d, a });
        Ok(())
    }

    /// The register an `st.param [var+offset], a` writes: the call-sequence variable's slot for that offset.
    fn st_param_slot(&mut self, at: &At, ty: Ty) -> Result<Reg, Diagnostic> {
        let o = self.operand(at, 0)?;
        let (
            OperandKind::Address(ptx::Address {
                base: Some(name),
                offset,
            }),
            span,
        ) = (&o.kind, o.span)
        else {
            return Err(Diagnostic::error(o.span, "expected `[parameter]`").with_label("here"));
        };
        let Some(id) = self.param_var(&name.name) else {
            return Err(unsupported(span, "`st.param` outside a call sequence"));
        };
        let Operand::Reg(d) = self.param_slot(id, *offset, ty, span)? else {
            unreachable!("a parameter slot is a register")
        };
        Ok(d)
    }

    /// `call[.uni] (ret), func, (args)`: the function's body inlined, its parameters the call's `.param`
    /// variables; its `ret` jumps past the body. A guarded call jumps around it.
    fn call(&mut self, at: &At) -> Result<(), Diagnostic> {
        let ops = &at.i.operands;
        let (returns, k) = match ops.first().map(|o| &o.kind) {
            Some(OperandKind::List(r)) => (r.as_slice(), 1),
            _ => (&[][..], 0),
        };
        let Some(OperandKind::Name(fname)) = ops.get(k).map(|o| &o.kind) else {
            return Err(Diagnostic::error(at.i.span, "`call` needs a function name").with_label("here"));
        };
        let args: &[ptx::Operand] = match ops.get(k + 1).map(|o| &o.kind) {
            Some(OperandKind::List(a)) => a,
            None => &[],
            Some(_) => return Err(unsupported(at.i.span, "indirect calls and call prototypes")),
        };
        let defined = |name: &str| self.module.functions().any(|f| f.name.name == name && f.body.is_some());
        if fname.name == "vprintf" && !defined("vprintf") {
            return self.vprintf(at, returns, args);
        }
        if fname.name == "__assertfail" && !defined("__assertfail") {
            return self.assertfail(at, args);
        }
        let Some(f) = self
            .module
            .functions()
            .find(|f| f.name.name == fname.name && f.body.is_some())
        else {
            let what = format!("a call of `{}`, which has no body in this file", fname.name);
            return Err(unsupported(fname.span, what));
        };
        if self.frames.iter().any(|fr| fr.function == f.name.name) || f.name.name == self.entry.name.name {
            return Err(
                Diagnostic::error(fname.span, format!("`{}` calls itself (recursion)", f.name.name))
                    .with_label("recursive call")
                    .with_help("warpsim inlines device functions; recursion is not supported"),
            );
        }
        if f.returns.len() != returns.len() || f.params.len() != args.len() {
            return Err(Diagnostic::error(
                at.i.span,
                format!(
                    "`{}` takes {} parameters and returns {} values; this call passes {} and expects {}",
                    f.name.name,
                    f.params.len(),
                    f.returns.len(),
                    args.len(),
                    returns.len()
                ),
            )
            .with_label("wrong call"));
        }
        let mut params = HashMap::new();
        for (decl, actual) in f.params.iter().chain(&f.returns).zip(args.iter().chain(returns)) {
            let OperandKind::Name(n) = &actual.kind else {
                return Err(unsupported(
                    actual.span,
                    "a call argument that is not a `.param` variable",
                ));
            };
            let Some(id) = self.param_var(&n.name) else {
                return Err(unsupported(n.span, "a call argument that is not a `.param` variable"));
            };
            params.insert(decl.name.name.clone(), id);
        }
        self.calls += 1;
        let ret_label = format!("{}$call{}$", f.name.name, self.calls);
        // A guarded call: lanes whose guard is false jump past the body.
        if let Some(g) = at.guard {
            self.code.push(Pending {
                inst: Instruction {
                    guard: Some(Guard {
                        pred: g.pred,
                        negated: !g.negated,
                    }),
                    op: Op::Nop,
                    span: at.i.span,
                    text: at.text.clone(),
                    expanded_from: None,
                    origin: at.origin.clone(),
                    param: None,
                    debug: None,
                },
                label: Some((ret_label.clone(), at.i.span)),
            });
        }
        self.frames.push(Frame {
            function: f.name.name.clone(),
            params,
            ret_label: ret_label.clone(),
            origin: at.origin.clone(),
        });
        let saved = std::mem::take(&mut self.param_scopes);
        self.param_scopes.push(HashMap::new());
        let body = f.body.as_ref().expect("checked");
        if !self.debug {
            self.contract.extend(super::contract::plan(body));
        }
        let result = self.block(body);
        self.param_scopes = saved;
        self.frames.pop();
        result?;
        self.known.clear();
        self.settle(None);
        self.labels.insert(ret_label, self.code.len());
        Ok(())
    }
}

/// 8- and 16-bit integers: PTX's `.u8 .s8 .b8 .u16 .s16 .b16` types. A 16-bit register is held in a 32-bit row,
/// zero-extended (every instruction that writes one masks its result to 16 bits); an 8- or 16-bit operand is
/// extended to 32 bits by its type's signedness before a 32-bit instruction computes on it. A sub-word load reads
/// the aligned word that holds it and extracts the bytes with `bfe`.
const SMALL: [&str; 6] = ["u8", "s8", "b8", "u16", "s16", "b16"];

impl Lower<'_> {
    /// The instruction, if an 8- or 16-bit type makes it one of these: `None` leaves it to the 32/64-bit
    /// lowering.
    fn small(&mut self, at: &At, q: &[&str]) -> Option<Result<(), Diagnostic>> {
        let types: Vec<&str> = q.iter().copied().filter(|q| type_of_qualifier(q).is_some()).collect();
        if !types.iter().any(|t| SMALL.contains(t)) {
            return None;
        }
        Some(match at.i.opcode.as_str() {
            "ld" if q.contains(&"param") => self.small_ld_param(at, types[0]),
            "st" if q.contains(&"param") => self.small_st_param(at, types[0]),
            "ld" | "st" => self.small_access(at, q, types[0]),
            "mov" => self.small_mov(at, types[0]),
            "cvt" if types.len() == 2 && !q.contains(&"sat") => self.small_cvt(at, types[0], types[1]),
            "selp" => self.small_selp(at, types[0]),
            "setp" if !q.iter().any(|q| matches!(*q, "and" | "or" | "xor")) => self.small_setp(at, q, types[0]),
            "add" | "sub" | "mul" | "and" | "or" | "xor" | "shl" | "shr" | "not" => self.small_arith(at, q, types[0]),
            _ => Err(unsupported(
                at.i.opcode_span,
                format!(
                    "`{}` of 8- or 16-bit values ({})",
                    at.i.opcode,
                    q.iter().map(|q| format!(".{q}")).collect::<String>()
                ),
            )),
        })
    }

    /// Bits and signedness of a small type (`u16` → (16, false)).
    fn small_type(t: &str) -> (u32, bool) {
        let bits = if t.ends_with('8') {
            8
        } else if t.ends_with("16") {
            16
        } else {
            32
        };
        (bits, t.starts_with('s'))
    }

    /// A register that holds a small value: any 8-, 16- or 32-bit register.
    fn small_reg(&self, o: &ptx::Operand) -> Result<Reg, Diagnostic> {
        match &o.kind {
            OperandKind::Name(n) => match self.slot(n)? {
                Slot::R32(r, _) => Ok(r),
                _ => Err(
                    Diagnostic::error(n.span, format!("`{}` is not an 8-, 16- or 32-bit register", n.name))
                        .with_label("wrong register"),
                ),
            },
            _ => Err(Diagnostic::error(o.span, "expected a register").with_label("here")),
        }
    }

    /// Operand `o` of a `bits`-bit type, extended to 32 bits (signed: from its top bit), in scratch register
    /// `k` when it takes an instruction.
    fn small_src(&mut self, at: &At, o: &ptx::Operand, bits: u32, signed: bool, k: u32) -> Result<Operand, Diagnostic> {
        let mask = (1u64 << bits) - 1;
        if let OperandKind::Int(v) = &o.kind {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "the literal's low bits"
            )]
            let low = (*v as u64) & mask;
            #[allow(clippy::cast_possible_wrap, reason = "at most 16 bits")]
            let value = if signed && low >> (bits - 1) == 1 {
                low as i64 - (1i64 << bits)
            } else {
                low as i64
            };
            return Ok(Operand::Imm(int(value, o.span)));
        }
        let r = match (&o.kind, self.special_small(o)?) {
            (_, Some(s)) => return Ok(s),
            _ => self.small_reg(o)?,
        };
        let width = match &o.kind {
            OperandKind::Name(n) => match self.slot(n)? {
                Slot::R32(_, w) => w,
                _ => 32,
            },
            _ => 32,
        };
        // A zero-extended 16-bit register read as an unsigned 16-bit value needs nothing.
        if !signed && width <= bits {
            return Ok(Operand::Reg(r));
        }
        let t = self.scratch_reg(false, 10 + k);
        self.emit(at, low_bits(at.i.span, t, Operand::Reg(r), bits, signed));
        Ok(Operand::Reg(t))
    }

    /// A special register read as a small value (`%tid.x` as `u16`): its 32 bits (all below 2^16).
    fn special_small(&self, o: &ptx::Operand) -> Result<Option<Operand>, Diagnostic> {
        match &o.kind {
            OperandKind::Name(n) if self.lookup(&n.name).is_none() => self.special(n, 32),
            _ => Ok(None),
        }
    }

    /// Write `value` (32 bits) into destination `o`: a 16- or 8-bit register keeps its low bits, zero-extended.
    fn small_write(
        &mut self,
        at: &At,
        o: &ptx::Operand,
        value: Operand,
        signed_source: bool,
    ) -> Result<(), Diagnostic> {
        let d = self.small_reg(o)?;
        let OperandKind::Name(n) = &o.kind else {
            unreachable!("small_reg took a name")
        };
        let width = match self.slot(n)? {
            Slot::R32(_, w) => w,
            _ => 32,
        };
        let _ = signed_source;
        if width < 32 {
            let mask = Operand::Imm(int((1i64 << width) - 1, at.i.span));
            self.emit(
                at,
                Op::Binary {
                    op: BinaryOp::And,
                    ty: Ty::B32,
                    d,
                    a: value,
                    b: mask,
                },
            );
        } else if value != Operand::Reg(d) {
            self.emit(
                at,
                Op::Mov {
                    ty: Ty::B32,
                    d,
                    a: value,
                },
            );
        }
        Ok(())
    }

    /// `ld`/`st` of 8- or 16-bit values (`.u8 .s8 .b8 .u16 .s16 .b16`, scalar, `.v2` or `.v4`) in global, shared,
    /// local or generic memory: one sub-word access an element ([`Narrow`]), at the element's byte address. A load
    /// extends the bytes to the destination's width by the type's signedness (a 16-bit register keeps 16 bits, a
    /// 64-bit one gets 64); a store writes the value's low bytes (a 64-bit register's low word first).
    fn small_access(&mut self, at: &At, q: &[&str], t: &str) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        let load = at.i.opcode == "ld";
        let (bits, signed) = Self::small_type(t);
        let narrow = Narrow {
            bytes: if bits == 8 { 1 } else { 2 },
            signed,
        };
        let space = Self::space_of(q);
        if space == Some("const") {
            return Err(unsupported(at.i.opcode_span, "`ld.const` of 8- or 16-bit values"));
        }
        let lanes = if q.contains(&"v2") {
            2
        } else if q.contains(&"v4") {
            4
        } else {
            1
        };
        let (reg_k, addr_k) = if load { (0, 1) } else { (1, 0) };
        let values: Vec<ptx::Operand> = match &self.operand(at, reg_k)?.kind {
            OperandKind::Vector(v) if v.len() == lanes => v.clone(),
            OperandKind::Vector(_) => {
                return Err(Diagnostic::error(
                    self.operand(at, reg_k)?.span,
                    "the vector's length differs from `.v2`/`.v4`",
                )
                .with_label("here"));
            }
            _ if lanes == 1 => vec![self.operand(at, reg_k)?.clone()],
            _ => {
                return Err(
                    Diagnostic::error(self.operand(at, reg_k)?.span, "a vector access needs `{…}`").with_label("here"),
                );
            }
        };
        let addr_op = self.operand(at, addr_k)?.clone();
        for (k, v) in values.iter().enumerate() {
            let addr = self.address(&addr_op, space, i64::from(narrow.bytes) * i64::try_from(k).unwrap_or(0))?;
            if load {
                let OperandKind::Name(n) = &v.kind else {
                    return Err(Diagnostic::error(v.span, "expected a register").with_label("here"));
                };
                if n.name == "_" {
                    continue;
                }
                self.narrow_load(at, n, addr, narrow, lanes > 1 && k + 1 < lanes)?;
            } else {
                let a = match &v.kind {
                    OperandKind::Name(n) if matches!(self.lookup(&n.name), Some(Slot::R64(_))) => {
                        // A 64-bit register's low word.
                        let wide = self.src(v, Ty::U64)?;
                        let t = self.scratch_reg(false, 0);
                        self.emit(
                            at,
                            Op::Cvt {
                                rounding: Rounding::NearestFloat,
                                to: Ty::U32,
                                from: Ty::U64,
                                d: t,
                                a: wide,
                            },
                        );
                        Operand::Reg(t)
                    }
                    OperandKind::Int(_) => self.small_src(at, v, bits, false, 0)?,
                    _ => self.small_src(at, v, 32, false, 0)?,
                };
                self.emit(
                    at,
                    Op::St {
                        ty: Ty::B32,
                        addr,
                        a,
                        narrow: Some(narrow),
                    },
                );
            }
        }
        Ok(())
    }

    /// One sub-word load into register `n` (8, 16, 32 or 64 bits wide), extended as PTX says: by the type's
    /// signedness to the register's width.
    fn narrow_load(
        &mut self,
        at: &At,
        n: &ptx::Ident,
        addr: Address,
        narrow: Narrow,
        more: bool,
    ) -> Result<(), Diagnostic> {
        let slot = self.slot(n)?;
        let width = match slot {
            Slot::R32(_, w) => w,
            Slot::R64(_) => 64,
            Slot::Pred(_) => {
                return Err(
                    Diagnostic::error(n.span, format!("`{}` is not an integer register", n.name))
                        .with_label("wrong register"),
                );
            }
        };
        let bits = narrow.bits();
        match slot {
            Slot::R32(d, _) => {
                if more && addr.base == Some(Operand::Reg(d)) {
                    return Err(unsupported(n.span, "a vector load into its own address register"));
                }
                // A register no wider than the type holds the bytes as they are; a wider one below 32 bits (an
                // `.s8` into a 16-bit register) the sign-extended value's low bits.
                let signed = narrow.signed && width > bits;
                let narrow = Narrow { signed, ..narrow };
                self.emit(
                    at,
                    Op::Ld {
                        ty: Ty::B32,
                        d,
                        addr,
                        narrow: Some(narrow),
                    },
                );
                if signed && width < 32 {
                    self.defer(at, low_bits(at.i.span, d, Operand::Reg(d), width, false));
                }
            }
            Slot::R64(d) => {
                let t = self.scratch_reg(false, 0);
                self.emit(
                    at,
                    Op::Ld {
                        ty: Ty::B32,
                        d: t,
                        addr,
                        narrow: Some(narrow),
                    },
                );
                let (to, from) = if narrow.signed {
                    (Ty::S64, Ty::S32)
                } else {
                    (Ty::U64, Ty::U32)
                };
                self.emit(
                    at,
                    Op::Cvt {
                        rounding: Rounding::NearestFloat,
                        to,
                        from,
                        d,
                        a: Operand::Reg(t),
                    },
                );
            }
            Slot::Pred(_) => unreachable!("checked above"),
        }
        Ok(())
    }

    /// `ld.param.{u8,s8,u16,s16} d, [param]`: a kernel argument of 8 or 16 bits (a `bool`, a `short`), or a
    /// call's argument: its low bits, extended by its type.
    fn small_ld_param(&mut self, at: &At, t: &str) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        let (bits, signed) = Self::small_type(t);
        if let OperandKind::Vector(parts) = &self.operand(at, 0)?.kind {
            // `ld.param.v2.b8 {a, b}, [retval0+0]`: a call's 8- or 16-bit parts, each from its offset's slot.
            let parts = parts.clone();
            let o = self.operand(at, 1)?;
            let (OperandKind::Address(ptx::Address {
                base: Some(name),
                offset,
            }),) = (&o.kind,)
            else {
                return Err(Diagnostic::error(o.span, "expected `[parameter]`").with_label("here"));
            };
            let (span, offset) = (o.span, *offset);
            let Some(id) = self.param_var(&name.name) else {
                return Err(unsupported(span, "a vector `ld.param` of a kernel parameter"));
            };
            for (k, part) in parts.iter().enumerate() {
                if matches!(&part.kind, OperandKind::Name(n) if n.name == "_") {
                    continue;
                }
                let at_k = offset + i64::from(bits / 8) * i64::try_from(k).unwrap_or(0);
                let a = self.param_slot(id, at_k, Ty::B32, span)?;
                let d = self.small_reg(part)?;
                self.emit(at, low_bits(at.i.span, d, a, bits, signed));
                self.small_write(at, part, Operand::Reg(d), signed)?;
            }
            return Ok(());
        }
        let d = self.small_reg(self.operand(at, 0)?)?;
        // The whole value as 32 bits, then its low bits.
        self.ld_param_into(at, d)?;
        let op = low_bits(at.i.span, d, Operand::Reg(d), bits, signed);
        self.emit(at, op);
        self.small_write(at, self.operand(at, 0)?, Operand::Reg(d), signed)
    }

    /// `st.param.{b8,u16,…} [param+offset], a` in a call sequence (an argument, or a function's return value of 8
    /// or 16 bits): the value into the parameter's slot for that offset, whose reader takes its low bits.
    fn small_st_param(&mut self, at: &At, t: &str) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        let (bits, _) = Self::small_type(t);
        let v = self.small_src(at, self.operand(at, 1)?, bits, false, 0)?;
        let d = self.st_param_slot(at, Ty::B32)?;
        self.emit(at, Op::Mov { ty: Ty::B32, d, a: v });
        Ok(())
    }

    fn small_mov(&mut self, at: &At, t: &str) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        let (bits, signed) = Self::small_type(t);
        let v = self.small_src(at, self.operand(at, 1)?, bits, signed, 0)?;
        self.small_write(at, self.operand(at, 0)?, v, signed)
    }

    /// `cvt.TO.FROM d, a` with an 8- or 16-bit type: extend `a` by FROM, then to TO (a float, a 64-bit integer,
    /// or the low bits of a small one).
    fn small_cvt(&mut self, at: &At, to: &str, from: &str) -> Result<(), Diagnostic> {
        self.count(at, 2)?;
        let (fbits, fsigned) = Self::small_type(from);
        let a = match type_of_qualifier(from).and_then(ty_of) {
            // From 32 or 64 bits into a small type: the value's low 32 bits.
            Some(fty) if fty.wide() => {
                let t = self.scratch_reg(false, 12);
                let src = self.src(self.operand(at, 1)?, fty)?;
                self.emit(
                    at,
                    Op::Cvt {
                        rounding: Rounding::NearestFloat,
                        to: Ty::U32,
                        from: Ty::U64,
                        d: t,
                        a: src,
                    },
                );
                Operand::Reg(t)
            }
            Some(fty) if fty.is_float() => {
                return Err(unsupported(
                    at.i.opcode_span,
                    "`cvt` from a float to an 8- or 16-bit integer",
                ));
            }
            Some(fty) => self.src(self.operand(at, 1)?, fty)?,
            None => self.small_src(at, self.operand(at, 1)?, fbits, fsigned, 0)?,
        };
        match type_of_qualifier(to).and_then(ty_of) {
            Some(tty) if tty.is_float() => {
                let d = self.dst(at, 0, bits_of(tty))?;
                let from = if fsigned { Ty::S32 } else { Ty::U32 };
                self.emit(
                    at,
                    Op::Cvt {
                        rounding: Rounding::NearestFloat,
                        to: tty,
                        from,
                        d,
                        a,
                    },
                );
                Ok(())
            }
            Some(tty) if tty.wide() => {
                let d = self.dst(at, 0, 64)?;
                let (to, from) = if fsigned {
                    (Ty::S64, Ty::S32)
                } else {
                    (Ty::U64, Ty::U32)
                };
                self.emit(
                    at,
                    Op::Cvt {
                        rounding: Rounding::NearestFloat,
                        to,
                        from,
                        d,
                        a,
                    },
                );
                Ok(())
            }
            Some(_) => self.small_write(at, self.operand(at, 0)?, a, fsigned),
            None => {
                // To a small type: its low bits, signed ones sign-extended in the 16-bit register.
                let (tbits, tsigned) = Self::small_type(to);
                let t = self.scratch_reg(false, 13);
                let op = low_bits(at.i.span, t, a, tbits, tsigned);
                self.emit(at, op);
                self.small_write(at, self.operand(at, 0)?, Operand::Reg(t), tsigned)
            }
        }
    }

    fn small_selp(&mut self, at: &At, t: &str) -> Result<(), Diagnostic> {
        self.count(at, 4)?;
        let (bits, _) = Self::small_type(t);
        let a = self.small_src(at, self.operand(at, 1)?, bits, false, 0)?;
        let b = self.small_src(at, self.operand(at, 2)?, bits, false, 1)?;
        let p = self.pred_src(self.operand(at, 3)?)?;
        let d = self.small_reg(self.operand(at, 0)?)?;
        self.emit(
            at,
            Op::Selp {
                ty: Ty::B32,
                d,
                a,
                b,
                p: p.pred,
            },
        );
        Ok(())
    }

    fn small_setp(&mut self, at: &At, q: &[&str], t: &str) -> Result<(), Diagnostic> {
        self.count(at, 3)?;
        let (bits, signed) = Self::small_type(t);
        let Some(cmp) = q.first().copied().and_then(ordered_cmp) else {
            return Err(unsupported(at.i.opcode_span, "this `setp` of 8- or 16-bit values"));
        };
        let (p, second) = match &self.operand(at, 0)?.kind {
            OperandKind::Pair(p, q2) => (self.pred_named(p)?, Some(self.pred_named(q2)?)),
            OperandKind::Name(p) => (self.pred_named(p)?, None),
            _ => return Err(Diagnostic::error(self.operand(at, 0)?.span, "expected a predicate").with_label("here")),
        };
        let a = self.small_src(at, self.operand(at, 1)?, bits, signed, 0)?;
        let b = self.small_src(at, self.operand(at, 2)?, bits, signed, 1)?;
        let ty = if signed { Ty::S32 } else { Ty::U32 };
        let t = if second.is_some() { self.scratch_pred(0) } else { p };
        self.emit(
            at,
            Op::Setp {
                cmp,
                ftz: false,
                ty,
                p: t,
                a,
                b,
            },
        );
        if second.is_some() {
            self.finish_setp(at, t, false, p, second, None);
        }
        Ok(())
    }

    /// `add sub mul{.lo,.wide} and or xor shl shr not` on 16-bit values: in 32 bits on the extended operands,
    /// the result's low 16 bits kept (`mul.wide.{u16,s16}`: the whole 32-bit product).
    fn small_arith(&mut self, at: &At, q: &[&str], t: &str) -> Result<(), Diagnostic> {
        let m = at.i.opcode.as_str();
        let (bits, signed) = Self::small_type(t);
        if bits != 16 || q.iter().any(|q| matches!(*q, "hi" | "sat" | "cc")) {
            return Err(unsupported(
                at.i.opcode_span,
                format!("`{m}` of 8-bit values, `.hi` or `.sat`"),
            ));
        }
        let wide = q.contains(&"wide");
        if m == "not" {
            self.count(at, 2)?;
            let a = self.small_src(at, self.operand(at, 1)?, 16, false, 0)?;
            let r = self.scratch_reg(false, 13);
            self.emit(
                at,
                Op::Unary {
                    op: UnaryOp::Not,
                    ty: Ty::B32,
                    d: r,
                    a,
                },
            );
            return self.small_write(at, self.operand(at, 0)?, Operand::Reg(r), false);
        }
        self.count(at, 3)?;
        let shift = matches!(m, "shl" | "shr");
        let a = self.small_src(at, self.operand(at, 1)?, 16, signed, 0)?;
        let b = if shift {
            self.src(self.operand(at, 2)?, Ty::U32)?
        } else {
            self.small_src(at, self.operand(at, 2)?, 16, signed, 1)?
        };
        let (op, ty) = match m {
            "add" => (BinaryOp::Add, Ty::U32),
            "sub" => (BinaryOp::Sub, Ty::U32),
            "mul" => (BinaryOp::Mul, if signed { Ty::S32 } else { Ty::U32 }),
            "and" => (BinaryOp::And, Ty::B32),
            "or" => (BinaryOp::Or, Ty::B32),
            "xor" => (BinaryOp::Xor, Ty::B32),
            "shl" => (BinaryOp::Shl, Ty::B32),
            _ => (BinaryOp::Shr, if signed { Ty::S32 } else { Ty::U32 }),
        };
        if wide {
            let d = self.dst(at, 0, 32)?;
            self.emit(at, Op::Binary { op, ty, d, a, b });
            return Ok(());
        }
        let r = self.scratch_reg(false, 13);
        self.emit(at, Op::Binary { op, ty, d: r, a, b });
        self.small_write(at, self.operand(at, 0)?, Operand::Reg(r), signed)
    }
}

/// Bindings for `sim check`: every pointer a one-element buffer, every scalar 0 (so the whole entry lowers).
pub fn placeholder_bindings(entry: &Function) -> Bindings {
    let span = entry.name.span;
    let mut b = Bindings::default();
    for (k, p) in entry.params.iter().enumerate() {
        let value = if p.ty.scalar.bits() == 64 && p.dims.is_empty() {
            let name = format!("param{k}");
            b.buffers.push(BufferDecl {
                name: name.clone(),
                elem: ElemTy::U32,
                len: int(1, span),
                init: None,
                span,
            });
            var(&name, span)
        } else {
            int(0, span)
        };
        b.values.push(ParamValue::Expr(value));
    }
    b
}
