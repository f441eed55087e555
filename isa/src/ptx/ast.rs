//! The PTX syntax tree: what the text says, with a [`Span`] on every node, and nothing interpreted that a later
//! pass could want to see as written. Names are not resolved (a later pass scopes them lexically through the
//! [`Block`] structure), opcode qualifiers are kept as an ordered list of strings, and integer immediates keep
//! their exact value.

use crate::source::{FileId, Span};

/// A name as written, with its span: a register (`%r1`, `%SP`, or `start` declared without `%`), a special
/// register (`%tid.x`), a variable, a parameter, a label or a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// One PTX module (one `.ptx` file).
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    /// The file it was parsed from.
    pub file: FileId,
    /// `.version MAJOR.MINOR`.
    pub version: Option<Version>,
    /// `.target sm_90[, debug, …]`: each comma-separated word, in order.
    pub target: Vec<Ident>,
    /// `.address_size 32|64`.
    pub address_size: Option<(u32, Span)>,
    /// Module-scope variables, functions and pragmas in file order (declarations before definitions included).
    pub items: Vec<Item>,
    /// `.file N "path"` directives, wherever they stand in the module (nvcc puts them after the functions).
    pub files: Vec<FileDecl>,
    /// `.section NAME { … }` (DWARF): skipped by brace matching, recorded by name and span.
    pub sections: Vec<Section>,
    /// The labelled byte strings of `.section .debug_str` (names of inlined functions, which `.loc …
    /// function_name LABEL` refers to), in file order.
    pub debug_strings: Vec<DebugString>,
}

impl Module {
    /// The functions (`.entry` and `.func`, declarations included), in file order.
    pub fn functions(&self) -> impl Iterator<Item = &Function> {
        self.items.iter().filter_map(|i| match i {
            Item::Function(f) => Some(f),
            _ => None,
        })
    }

    /// The kernels (`.entry` with a body), in file order.
    pub fn entries(&self) -> impl Iterator<Item = &Function> {
        self.functions()
            .filter(|f| f.kind == FunctionKind::Entry && f.body.is_some())
    }

    /// The function named `name` that has a body, else its declaration.
    pub fn function(&self, name: &str) -> Option<&Function> {
        let mut named = self.functions().filter(|f| f.name.name == name);
        let first = named.next()?;
        if first.body.is_some() {
            return Some(first);
        }
        named.find(|f| f.body.is_some()).or(Some(first))
    }

    /// The module-scope variables, in file order.
    pub fn variables(&self) -> impl Iterator<Item = &Variable> {
        self.items.iter().filter_map(|i| match i {
            Item::Variable(v) => Some(v),
            _ => None,
        })
    }

    /// The path that `.file index "path"` gives (the last such directive for that index).
    pub fn file_path(&self, index: u32) -> Option<&str> {
        self.files
            .iter()
            .rev()
            .find(|f| f.index == index)
            .map(|f| f.path.as_str())
    }

    /// The bytes of the `.debug_str` string labelled `label`, without its terminating NUL.
    pub fn debug_string(&self, label: &str) -> Option<&[u8]> {
        self.debug_strings.iter().find(|s| s.label.name == label).map(|s| {
            let b = s.bytes.as_slice();
            b.strip_suffix(&[0]).unwrap_or(b)
        })
    }
}

/// `.version MAJOR.MINOR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub span: Span,
}

/// A module-scope item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Variable(Variable),
    Function(Function),
    Pragma(Pragma),
}

/// `.file N "path"[, timestamp, size]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDecl {
    pub index: u32,
    pub path: String,
    pub timestamp: Option<u64>,
    pub size: Option<u64>,
    pub span: Span,
}

/// `.section NAME { … }`: its contents are not parsed (but see [`Module::debug_strings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub name: Ident,
    pub span: Span,
}

/// `LABEL: .b8 …` in `.section .debug_str`: the bytes that follow the label, up to the next label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DebugString {
    pub label: Ident,
    pub bytes: Vec<u8>,
}

/// `.pragma "a", "b";`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    pub values: Vec<String>,
    pub span: Span,
}

/// `.visible`, `.extern`, `.weak`, `.common`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Linkage {
    Visible,
    Extern,
    Weak,
    Common,
}

/// A state space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateSpace {
    Reg,
    Global,
    Const,
    Shared,
    Local,
    Param,
}

impl StateSpace {
    pub fn from_directive(word: &str) -> Option<StateSpace> {
        Some(match word {
            ".reg" => StateSpace::Reg,
            ".global" => StateSpace::Global,
            ".const" => StateSpace::Const,
            ".shared" => StateSpace::Shared,
            ".local" => StateSpace::Local,
            ".param" => StateSpace::Param,
            _ => return None,
        })
    }

    /// The directive as written (`.global`).
    pub fn directive(self) -> &'static str {
        match self {
            StateSpace::Reg => ".reg",
            StateSpace::Global => ".global",
            StateSpace::Const => ".const",
            StateSpace::Shared => ".shared",
            StateSpace::Local => ".local",
            StateSpace::Param => ".param",
        }
    }
}

/// A fundamental type (PTX ISA "Fundamental Types", and the alternate floating-point formats).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    S8,
    S16,
    S32,
    S64,
    U8,
    U16,
    U32,
    U64,
    B8,
    B16,
    B32,
    B64,
    B128,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    Tf32,
    E4m3,
    E5m2,
    E4m3x2,
    E5m2x2,
    F32,
    F64,
    Pred,
}

impl ScalarType {
    /// The type a directive word names (`.u32` → `U32`).
    pub fn from_directive(word: &str) -> Option<ScalarType> {
        use ScalarType as T;
        Some(match word {
            ".s8" => T::S8,
            ".s16" => T::S16,
            ".s32" => T::S32,
            ".s64" => T::S64,
            ".u8" => T::U8,
            ".u16" => T::U16,
            ".u32" => T::U32,
            ".u64" => T::U64,
            ".b8" => T::B8,
            ".b16" => T::B16,
            ".b32" => T::B32,
            ".b64" => T::B64,
            ".b128" => T::B128,
            ".f16" => T::F16,
            ".f16x2" => T::F16x2,
            ".bf16" => T::Bf16,
            ".bf16x2" => T::Bf16x2,
            ".tf32" => T::Tf32,
            ".e4m3" => T::E4m3,
            ".e5m2" => T::E5m2,
            ".e4m3x2" => T::E4m3x2,
            ".e5m2x2" => T::E5m2x2,
            ".f32" => T::F32,
            ".f64" => T::F64,
            ".pred" => T::Pred,
            _ => return None,
        })
    }

    /// Size in bits (a predicate: 1).
    pub fn bits(self) -> u32 {
        use ScalarType as T;
        match self {
            T::Pred => 1,
            T::S8 | T::U8 | T::B8 | T::E4m3 | T::E5m2 => 8,
            T::S16 | T::U16 | T::B16 | T::F16 | T::Bf16 | T::E4m3x2 | T::E5m2x2 => 16,
            T::S32 | T::U32 | T::B32 | T::F32 | T::F16x2 | T::Bf16x2 | T::Tf32 => 32,
            T::S64 | T::U64 | T::B64 | T::F64 => 64,
            T::B128 => 128,
        }
    }
}

/// A declared type: a scalar, or a `.v2`/`.v4`/`.v8` vector of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    pub scalar: ScalarType,
    /// Elements of a vector type (2, 4 or 8), `None` for a scalar.
    pub vector: Option<u8>,
}

/// An array dimension: `[N]`, or `[]` (size given elsewhere: `.extern .shared … s[]`, or by the initialiser).
pub type Dim = Option<u64>;

/// A variable: at module scope (`.global`, `.const`, `.shared`, `.extern .shared`, `.common .global`) or in a
/// function body (`.local`, `.shared`, `.param`).
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    pub linkage: Option<Linkage>,
    pub space: StateSpace,
    pub align: Option<u32>,
    pub ty: Type,
    pub name: Ident,
    /// Array dimensions in order (`.b8 a[2][3]` → `[Some(2), Some(3)]`); empty for a scalar.
    pub dims: Vec<Dim>,
    pub init: Option<Initializer>,
    pub span: Span,
}

/// `= value` or `= { … }` (nested braces for a multi-dimensional array).
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Value(InitValue, Span),
    List(Vec<Initializer>, Span),
}

/// One value of an initialiser.
#[derive(Clone, Debug, PartialEq)]
pub enum InitValue {
    Int(i128),
    Float(FloatLit),
    /// The address of a variable or function, plus a byte offset: `sym`, `sym+8`.
    Symbol(Ident, i64),
    /// `generic(sym)` or `generic(sym)+8`: the generic address of a variable.
    Generic(Ident, i64),
}

/// `.entry` or `.func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    Entry,
    Func,
}

/// A function: a kernel (`.entry`) or a device function (`.func`); a declaration (ending in `;`: a prototype,
/// or an `.extern .func` such as `vprintf`) has no body.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub linkage: Option<Linkage>,
    pub kind: FunctionKind,
    pub name: Ident,
    /// `.func (.param .b32 func_retval0) name(…)`: the return parameters.
    pub returns: Vec<Param>,
    pub params: Vec<Param>,
    /// `.noreturn`.
    pub noreturn: bool,
    /// `.maxntid 256, 1, 1`, `.reqntid …`, `.minnctapersm 2`, `.maxnreg 32`, … in order.
    pub performance: Vec<Performance>,
    pub body: Option<Block>,
    pub span: Span,
}

/// A parameter: `.param .u64 name`, `.param .align 8 .b8 name[24]`, `.reg .b32 name`,
/// `.param .u64 .ptr .global .align 16 name`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// `.param` or `.reg`.
    pub space: StateSpace,
    pub align: Option<u32>,
    pub ty: Type,
    /// `.ptr` with its optional state space and alignment (`.ptr .global .align 16`).
    pub ptr: Option<PtrAttr>,
    pub name: Ident,
    pub dims: Vec<Dim>,
    pub span: Span,
}

/// A kernel pointer parameter's `.ptr` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtrAttr {
    pub space: Option<StateSpace>,
    pub align: Option<u32>,
}

/// A performance-tuning directive: its name without the dot (`maxntid`) and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Performance {
    pub name: String,
    pub values: Vec<u64>,
    pub span: Span,
}

/// `{ … }`: a function body or a nested block, with its own declarations (which shadow the enclosing ones).
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub statements: Vec<Statement>,
    pub span: Span,
}

impl Block {
    /// Every instruction of the block and its nested blocks, in order.
    pub fn instructions(&self) -> Vec<&Instruction> {
        let mut out = Vec::new();
        self.visit(&mut |s| {
            if let Statement::Instruction(i) = s {
                out.push(i);
            }
        });
        out
    }

    /// Call `f` on every statement, depth first (a nested block before its statements).
    pub fn visit<'a>(&'a self, f: &mut dyn FnMut(&'a Statement)) {
        for s in &self.statements {
            f(s);
            if let Statement::Block(b) = s {
                b.visit(f);
            }
        }
    }
}

/// A statement of a function body.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    Block(Block),
    Reg(RegDecl),
    /// `.local`, `.shared`, `.param`, `.global`, `.const` variables declared in the body.
    Var(Variable),
    Label(Ident),
    Loc(Loc),
    Pragma(Pragma),
    /// `TABLE: .branchtargets L1, L2;` (the label is the statement before): the targets of `brx.idx`.
    BranchTargets(Vec<Ident>, Span),
    /// `PROTO: .callprototype (.param .b32 _) _ (.param .b32 _);`: the signature of an indirect `call`.
    CallPrototype(Prototype),
    Instruction(Instruction),
}

/// A `.callprototype`.
#[derive(Clone, Debug, PartialEq)]
pub struct Prototype {
    pub returns: Vec<Param>,
    pub params: Vec<Param>,
    pub noreturn: bool,
    pub span: Span,
}

/// `.reg .b32 %r<22>, %x, low;` (also `.reg .align 8 .b64 …`, `.reg .v2 .f32 …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegDecl {
    pub align: Option<u32>,
    pub ty: Type,
    pub names: Vec<RegName>,
    pub span: Span,
}

/// One name of a `.reg` declaration: `%r<22>` declares `%r0` … `%r21` (`count: Some(22)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegName {
    pub name: Ident,
    pub count: Option<u32>,
}

/// `.loc FILE LINE COLUMN[, function_name LABEL[+OFFSET], inlined_at FILE LINE COLUMN]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub file: u32,
    pub line: u32,
    pub column: u32,
    /// The `.debug_str` label naming the function this code was inlined from, and its offset.
    pub function_name: Option<(Ident, i64)>,
    /// Where that function was inlined: (file, line, column).
    pub inlined_at: Option<(u32, u32, u32)>,
    pub span: Span,
}

/// The guard `@%p` or `@!%p`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub predicate: Ident,
    pub negated: bool,
    pub span: Span,
}

/// An instruction: `@%p ld.global.f32 %f1, [%rd6+4];`.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub guard: Option<Guard>,
    /// The opcode without qualifiers: `ld`.
    pub opcode: String,
    /// The dotted qualifiers after the opcode, in order, without their dots: `["global", "f32"]`.
    pub qualifiers: Vec<String>,
    /// The span of the opcode and its qualifiers.
    pub opcode_span: Span,
    pub operands: Vec<Operand>,
    /// From the guard (or opcode) to the `;`.
    pub span: Span,
    /// The last `.loc` before the instruction in its function (`.loc` applies until the next one).
    pub loc: Option<Loc>,
}

/// An operand, with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub kind: OperandKind,
    pub span: Span,
}

/// What an operand is, syntactically.
#[derive(Clone, Debug, PartialEq)]
pub enum OperandKind {
    /// A name: a register (`%r1`, `start`), special register (`%tid.x`), variable, parameter, label, function,
    /// or `_` (a sink).
    Name(Ident),
    /// `name+8`, `name-8`, `name+-8`: a variable's address plus an offset (`mov.u64 %rd, sym+4`).
    Offset(Ident, i64),
    /// `%r9|%p2`: a destination and a second, predicate destination (`shfl.sync`, `setp`).
    Pair(Ident, Ident),
    /// `!%p`: a negated predicate source.
    Not(Ident),
    /// An integer, its exact value (from `i64::MIN` to `u64::MAX`); `U` suffix dropped.
    Int(i128),
    Float(FloatLit),
    /// `{%a, %b}`: a vector of operands (names, `_`, immediates).
    Vector(Vec<Operand>),
    /// `[…]`: an address.
    Address(Address),
    /// `(a, b)`: a call's return or argument list.
    List(Vec<Operand>),
}

/// `[base]`, `[base+imm]`, `[base+-imm]`, `[base-imm]`, `[imm]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// A register or a variable; `None` for an absolute address `[imm]`.
    pub base: Option<Ident>,
    /// The byte offset (for `[imm]`, the address; one above `i64::MAX` as its two's-complement bits).
    pub offset: i64,
}

/// A floating-point literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FloatLit {
    /// `0fXXXXXXXX`: the exact bits of an f32.
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX`: the exact bits of an f64.
    F64(u64),
    /// A decimal literal (`1.5`, `1e-3`): an f64 value (PTX treats decimal floating literals as f64).
    Decimal(f64),
}
