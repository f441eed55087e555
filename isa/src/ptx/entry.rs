//! What a kernel's caller needs to know about a PTX entry: its names (the PTX name, the demangled C++
//! signature, the short name people call it by), [`find`]ing it from a `--entry` query, and its parameters
//! grouped into the source-level arguments ([`describe`]): pointers, scalars, structs passed by value as bytes,
//! and Numba's array descriptors (several `.param`s each), with the argument names read from the kernel's
//! source when it is at hand. Documented in `docs/ptx.md` ("Entries and arguments").
//!
//! ```
//! use warpsim_isa::ptx::{self, entry::{ArgKind, Scalar}};
//! use warpsim_isa::ElemTy;
//! let text = ".version 9.5\n.target sm_90\n.address_size 64\n\
//!             .visible .entry _Z5scalePfPKfi(.param .u64 p0, .param .u64 p1, .param .u32 p2)\n{\nret;\n}\n";
//! let (module, _) = ptx::parse("k.ptx", text).unwrap();
//! let k = ptx::entry::find(&module, Some("scale")).unwrap();
//! let e = ptx::entry::describe(&module, k, &|_| None);
//! assert_eq!(e.name.demangled.as_deref(), Some("scale(float*, float const*, int)"));
//! assert_eq!(e.arguments[1].kind, ArgKind::Pointer { elem: Some(Scalar::Elem(ElemTy::F32)), is_const: true });
//! assert_eq!(e.arguments[2].kind, ArgKind::Scalar(Scalar::Elem(ElemTy::S32)));
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;

use cpp_demangle::{DemangleOptions, Symbol};

use super::ast::{Function, Module, ScalarType, Statement};
use crate::ElemTy;
use crate::diagnostic::closest;

/// Which compiler's naming an entry follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Not mangled: `extern "C"` (or hand-written PTX): the PTX name is the name.
    Plain,
    /// An Itanium-mangled C++ name (nvcc).
    Cxx,
    /// Numba's mangled name: `module::function[abi:vN][abi:FLAGS](Array<float, 1, C, mutable, aligned>, …)`.
    Numba,
}

/// The names of an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryName {
    /// As the PTX spells it (`_Z13map_blocks_2dPfPKfi`).
    pub ptx: String,
    pub origin: Origin,
    /// The demangled signature (`map_blocks_2d(float*, float const*, int)`, `void reduce_sum<float,
    /// 256>(float*, float const*, int, int*)`, Numba's with its `[abi:…]` tags); `None` for a plain name.
    pub demangled: Option<String>,
    /// Without return type, parameters and ABI tags: `reduce_sum<float, 256>`, `p04_map2d::map_2d`.
    pub qualified: String,
    /// The last `::` component of `qualified`: `reduce_sum<float, 256>`, `map_2d` (Numba: the Python name).
    pub last: String,
    /// `last` without template arguments: `reduce_sum`.
    pub short: String,
}

impl EntryName {
    /// The demangled signature without Numba's `[abi:…]` tags (the PTX name when it is not mangled).
    pub fn display(&self) -> String {
        match &self.demangled {
            Some(d) => strip_abi_tags(d),
            None => self.ptx.clone(),
        }
    }

    /// The forms a query may take to select this entry (besides the PTX name), without whitespace.
    fn forms(&self) -> Vec<String> {
        let mut forms = vec![self.qualified.clone(), self.last.clone(), self.short.clone()];
        if let Some(d) = &self.demangled {
            forms.push(d.clone());
            forms.push(strip_abi_tags(d));
        }
        if self.origin == Origin::Numba {
            // Python's spelling of the qualified name: `module.function`.
            forms.push(self.qualified.replace("::", "."));
        }
        forms.into_iter().map(|f| squash(&f)).collect()
    }
}

/// The names of entry (or function) `f`. A name that does not demangle is taken as plain.
pub fn entry_name(f: &Function) -> EntryName {
    let ptx = f.name.name.clone();
    let plain = |ptx: &str| EntryName {
        ptx: ptx.to_string(),
        origin: Origin::Plain,
        demangled: None,
        qualified: ptx.to_string(),
        last: ptx.to_string(),
        short: ptx.to_string(),
    };
    if !ptx.starts_with("_Z") {
        return plain(&ptx);
    }
    let Ok(symbol) = Symbol::new(ptx.as_bytes()) else {
        return plain(&ptx);
    };
    let (Ok(full), Ok(bare)) = (
        symbol.demangle(),
        symbol.demangle_with_options(&DemangleOptions::new().no_params().no_return_type()),
    ) else {
        return plain(&ptx);
    };
    // Numba tags every function with `[abi:vN]` (N: a per-process compile counter), then its flags.
    let origin = if is_numba(&bare) { Origin::Numba } else { Origin::Cxx };
    let qualified = strip_abi_tags(&bare);
    let last = split_top(&qualified, "::").pop().unwrap_or_default().to_string();
    let short = match top_level_index(&last, '<') {
        Some(i) if i > 0 => last[..i].to_string(),
        _ => last.clone(),
    };
    EntryName {
        ptx,
        origin,
        demangled: Some(full),
        qualified,
        last,
        short,
    }
}

fn is_numba(bare: &str) -> bool {
    bare.find("[abi:v").is_some_and(|i| {
        let rest = &bare[i + 6..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with(']')
    })
}

/// `name[abi:x][abi:y]` → `name` (everywhere in the string).
fn strip_abi_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("[abi:") {
        out.push_str(&rest[..i]);
        match rest[i..].find(']') {
            Some(j) => rest = &rest[i + j + 1..],
            None => {
                rest = &rest[i..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Without whitespace: queries compare `reduce_sum<float,256>` equal to `reduce_sum<float, 256>`.
fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The byte index of the first `c` outside brackets (`<>`, `()`, `[]`).
fn top_level_index(s: &str, c: char) -> Option<usize> {
    let mut depth = 0i32;
    for (i, ch) in s.char_indices() {
        if ch == c && depth == 0 {
            return Some(i);
        }
        match ch {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `s` split at every `sep` outside brackets (`<>`, `()`, `[]`).
fn split_top<'a>(s: &'a str, sep: &str) -> Vec<&'a str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut i = 0;
    let bytes = s.as_bytes();
    while i < s.len() {
        if depth == 0 && s[i..].starts_with(sep) {
            parts.push(&s[start..i]);
            i += sep.len();
            start = i;
            continue;
        }
        match bytes[i] {
            b'<' | b'(' | b'[' => depth += 1,
            b'>' | b')' | b']' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    parts.push(&s[start..]);
    parts
}

/// The kernel that `query` names (`--entry`), or the only kernel of the module when there is no query. A query
/// matches the PTX name, the demangled signature, the name without parameters, its last `::` component
/// (for Numba: the Python function's name, or `module.function`), or that without template arguments;
/// whitespace is not significant. The error lists the candidates (with a "did you mean"), or the matches when
/// the query names several kernels.
pub fn find<'m>(module: &'m Module, query: Option<&str>) -> Result<&'m Function, String> {
    let entries: Vec<&Function> = module.entries().collect();
    let names: Vec<EntryName> = entries.iter().map(|f| entry_name(f)).collect();
    if entries.is_empty() {
        return Err("the module has no kernel (no .entry with a body)".to_string());
    }
    let Some(query) = query else {
        if entries.len() == 1 {
            return Ok(entries[0]);
        }
        return Err(format!(
            "the module has {} kernels; choose one with --entry:\n{}",
            entries.len(),
            listing(&names, &(0..names.len()).collect::<Vec<_>>())
        ));
    };
    if let Some(i) = names.iter().position(|n| n.ptx == query) {
        return Ok(entries[i]);
    }
    let q = squash(query);
    let matches: Vec<usize> = (0..names.len()).filter(|&i| names[i].forms().contains(&q)).collect();
    match matches.len() {
        1 => Ok(entries[matches[0]]),
        0 => {
            let mut candidates: Vec<&str> = Vec::new();
            for n in &names {
                for c in [n.ptx.as_str(), n.qualified.as_str(), n.last.as_str(), n.short.as_str()] {
                    if !candidates.contains(&c) {
                        candidates.push(c);
                    }
                }
            }
            let hint = closest(query, candidates).map_or(String::new(), |c| format!(" (did you mean `{c}`?)"));
            Err(format!(
                "no kernel `{query}` in the module{hint}; its kernels:\n{}",
                listing(&names, &(0..names.len()).collect::<Vec<_>>())
            ))
        }
        n => Err(format!(
            "`{query}` names {n} kernels; give the full name, or the PTX name:\n{}",
            listing(&names, &matches)
        )),
    }
}

/// One line per entry `which` of `names`: the name to select it by (its last `::` component if that is
/// unique in the module, else the PTX name), then its signature if it is mangled.
fn listing(names: &[EntryName], which: &[usize]) -> String {
    let mut out = String::new();
    for &i in which {
        let n = &names[i];
        let unique = names.iter().filter(|m| squash(&m.last) == squash(&n.last)).count() == 1;
        let label = if unique { &n.last } else { &n.ptx };
        let _ = write!(out, "  {label}");
        if n.demangled.is_some() {
            let _ = write!(out, "  ({})", n.display());
        }
        if !unique {
            // The PTX name alone does not say which is which.
            let _ = write!(out, "  [{}]", n.display());
        }
        out.push('\n');
    }
    out.pop();
    out
}

/// A scalar type of a kernel argument (or of an array's elements). The 8- and 16-bit ones have no [`ElemTy`]:
/// a caller that cannot handle them yet says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `float`, `double`, `int`, `unsigned int`, `long long` (and `long`), `unsigned long long` (`size_t`).
    Elem(ElemTy),
    /// `signed char`, `char` (signed on the x86-64 and AArch64 Linux hosts nvcc compiles for with GCC),
    /// `int8_t`.
    S8,
    /// `unsigned char`, `uint8_t`.
    U8,
    /// `bool` (one byte: 0 or 1).
    Bool,
    /// `short`, `int16_t`.
    S16,
    /// `unsigned short`, `uint16_t`.
    U16,
}

impl Scalar {
    /// The element type, if warpsim's buffers and scalars have it.
    pub fn elem(self) -> Option<ElemTy> {
        match self {
            Scalar::Elem(t) => Some(t),
            _ => None,
        }
    }

    /// Size in bytes.
    pub fn bytes(self) -> u32 {
        match self {
            Scalar::Elem(t) => 4 * u32::try_from(t.words()).unwrap_or(2),
            Scalar::S8 | Scalar::U8 | Scalar::Bool => 1,
            Scalar::S16 | Scalar::U16 => 2,
        }
    }

    /// `f32`, `s32`, …, `s8`, `u8`, `bool`, `s16`, `u16`.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Elem(t) => t.name(),
            Scalar::S8 => "s8",
            Scalar::U8 => "u8",
            Scalar::Bool => "bool",
            Scalar::S16 => "s16",
            Scalar::U16 => "u16",
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Scalar::Elem(ElemTy::F32 | ElemTy::F64))
    }
}

/// Where a Numba array's descriptor fields are: indices into the entry's [`Function::params`]. Numba's
/// `ArrayModel` lays an array argument out as the struct `{meminfo, parent, nitems, itemsize, data,
/// shape[ndim], strides[ndim]}`, each field a 64-bit `.param` of its own: `meminfo` and `parent` are 0 at a
/// launch, `nitems` the element count, `itemsize` the element size in bytes, `data` the device pointer, and
/// `strides` in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayParams {
    pub meminfo: usize,
    pub parent: usize,
    pub nitems: usize,
    pub itemsize: usize,
    pub data: usize,
    pub shape: Range<usize>,
    pub strides: Range<usize>,
}

/// What a source-level argument is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A pointer (one 64-bit `.param`): to `elem`s, or untyped (`void*`, a pointer to a struct, to a pointer,
    /// to a type this module does not know); `is_const`: the pointee is `const`.
    Pointer { elem: Option<Scalar>, is_const: bool },
    /// A scalar passed by value (one `.param`).
    Scalar(Scalar),
    /// A value passed as bytes (one `.param .align A .b8 name[size]`): a struct by value, `__half`, `int2`.
    Bytes { size: u64, align: u32 },
    /// A Numba array: a descriptor of 5 + 2·ndim `.param`s.
    Array {
        elem: Option<Scalar>,
        ndim: usize,
        /// `C`, `F` or `A` (any).
        layout: String,
        mutable: bool,
        params: ArrayParams,
    },
    /// A Numba tuple of scalars (`UniTuple<double, 2>`): one `.param` per element, in order.
    Tuple(Vec<Scalar>),
    /// A parameter known only by its PTX type (no signature or source said more): a `.u64` may be a pointer
    /// or an integer.
    Param(ScalarType),
}

/// One source-level argument of a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Argument {
    /// Its position among the arguments (0, 1, …).
    pub index: usize,
    /// Its name in the kernel's source, when the source was read and matched.
    pub name: Option<String>,
    /// Its type as the signature or source spells it (`float const*`, `Array<float, 1, C, mutable, aligned>`),
    /// or the PTX type (`.u64`, `.b8[24]`).
    pub ty: String,
    pub kind: ArgKind,
    /// The `.param`s it covers (indices into [`Function::params`]).
    pub params: Range<usize>,
}

/// Where the argument types came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypesFrom {
    /// The demangled name (C++ and Numba).
    Signature,
    /// The kernel's definition in its source (`extern "C"` kernels).
    Source,
    /// The `.param` types alone: one argument per `.param`.
    Ptx,
}

/// An entry with its names and arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<'m> {
    pub function: &'m Function,
    pub name: EntryName,
    pub arguments: Vec<Argument>,
    pub types_from: TypesFrom,
    /// The path (as the module's `.file` gives it) of the source the argument names were read from.
    pub source: Option<String>,
    /// Why the signature's or the source's types were not used (they did not cover the `.param`s exactly).
    pub fallback: Option<String>,
}

impl Entry<'_> {
    /// The argument that `key` names: its source name, its position (`0`, `1`, …) or the name of one of its
    /// `.param`s.
    pub fn argument(&self, key: &str) -> Result<&Argument, String> {
        let params = &self.function.params;
        if let Some(a) = self.arguments.iter().find(|a| a.name.as_deref() == Some(key)) {
            return Ok(a);
        }
        if !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()) {
            return match key.parse::<usize>().ok().and_then(|i| self.arguments.get(i)) {
                Some(a) => Ok(a),
                None => Err(format!(
                    "kernel `{}` has {} argument{}: no argument {key}; its arguments:\n{}",
                    self.name.last,
                    self.arguments.len(),
                    if self.arguments.len() == 1 { "" } else { "s" },
                    self.argument_list()
                )),
            };
        }
        if let Some(a) = self
            .arguments
            .iter()
            .find(|a| params[a.params.clone()].iter().any(|p| p.name.name == key))
        {
            return Ok(a);
        }
        let names = self.arguments.iter().filter_map(|a| a.name.as_deref());
        let hint = closest(key, names).map_or(String::new(), |c| format!(" (did you mean `{c}`?)"));
        Err(format!(
            "kernel `{}` has no argument `{key}`{hint}; its arguments:\n{}",
            self.name.last,
            self.argument_list()
        ))
    }

    /// One line per argument: `  0 out: float*`, or `  0: .u64 (map_param_0)` when it has no name.
    pub fn argument_list(&self) -> String {
        let mut out = String::new();
        for a in &self.arguments {
            let _ = match &a.name {
                Some(n) => write!(out, "  {} {n}: {}", a.index, a.ty),
                None => write!(out, "  {}: {}", a.index, a.ty),
            };
            if self.types_from == TypesFrom::Ptx {
                let _ = write!(out, " ({})", self.function.params[a.params.start].name.name);
            }
            out.push('\n');
        }
        out.pop();
        out
    }
}

/// Describe entry `f` of `module`: its names and its arguments. `read` returns the text of a source file named
/// by the module's `.file` table (as written there: nvcc and Numba write absolute paths of the machine that
/// compiled), or `None`; the kernel's file is the one its instructions' `.loc`s name most (an inlined
/// function's `.loc` counts for the file it was inlined into), else the first `.cu` or `.py` file. Never fails:
/// what cannot be known is absent ([`Argument::name`]) or falls back to the PTX types ([`TypesFrom::Ptx`]).
pub fn describe<'m>(module: &'m Module, f: &'m Function, read: &dyn Fn(&str) -> Option<String>) -> Entry<'m> {
    let name = entry_name(f);
    let source = kernel_source(module, f, &name, read);
    let mut fallback = None;
    let mut types_from = TypesFrom::Ptx;
    let mut arguments = None;
    if let Some(sig) = name.demangled.as_deref() {
        match signature_arguments(f, &name, sig) {
            Ok(a) => {
                arguments = Some(a);
                types_from = TypesFrom::Signature;
            }
            Err(e) => fallback = Some(e),
        }
    } else if let Some(types) = source
        .as_ref()
        .and_then(|(_, def)| def.params.iter().map(|p| p.ty.clone()).collect::<Option<Vec<_>>>())
    {
        match c_arguments(f, &types) {
            Ok(a) => {
                arguments = Some(a);
                types_from = TypesFrom::Source;
            }
            Err(e) => fallback = Some(format!("the source's parameters: {e}")),
        }
    }
    let mut arguments = arguments.unwrap_or_else(|| ptx_arguments(f));
    let mut path = None;
    if let Some((p, def)) = source.filter(|(_, def)| def.params.len() == arguments.len()) {
        for (a, p) in arguments.iter_mut().zip(def.params) {
            a.name = p.name;
        }
        path = Some(p);
    }
    Entry {
        function: f,
        name,
        arguments,
        types_from,
        source: path,
        fallback,
    }
}

/// One argument per `.param`, with its PTX type.
fn ptx_arguments(f: &Function) -> Vec<Argument> {
    f.params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let bits = p.ty.scalar.bits();
            let (kind, ty) = if p.dims.is_empty() && p.ty.vector.is_none() {
                (ArgKind::Param(p.ty.scalar), scalar_directive(p.ty.scalar).to_string())
            } else {
                let size = param_bytes(p).unwrap_or(0);
                (
                    ArgKind::Bytes {
                        size,
                        align: p.align.unwrap_or(bits / 8).max(1),
                    },
                    format!("{}[{size}]", scalar_directive(p.ty.scalar)),
                )
            };
            Argument {
                index: i,
                name: None,
                ty,
                kind,
                params: i..i + 1,
            }
        })
        .collect()
}

/// The size in bytes of a `.param` (its type times its array dimensions).
fn param_bytes(p: &super::ast::Param) -> Option<u64> {
    let mut n = u64::from(p.ty.scalar.bits() / 8) * u64::from(p.ty.vector.unwrap_or(1));
    for d in &p.dims {
        n = n.checked_mul((*d)?)?;
    }
    Some(n)
}

fn scalar_directive(t: ScalarType) -> &'static str {
    use ScalarType as T;
    match t {
        T::S8 => ".s8",
        T::S16 => ".s16",
        T::S32 => ".s32",
        T::S64 => ".s64",
        T::U8 => ".u8",
        T::U16 => ".u16",
        T::U32 => ".u32",
        T::U64 => ".u64",
        T::B8 => ".b8",
        T::B16 => ".b16",
        T::B32 => ".b32",
        T::B64 => ".b64",
        T::B128 => ".b128",
        T::F16 => ".f16",
        T::F16x2 => ".f16x2",
        T::Bf16 => ".bf16",
        T::Bf16x2 => ".bf16x2",
        T::Tf32 => ".tf32",
        T::E4m3 => ".e4m3",
        T::E5m2 => ".e5m2",
        T::E4m3x2 => ".e4m3x2",
        T::E5m2x2 => ".e5m2x2",
        T::F32 => ".f32",
        T::F64 => ".f64",
        T::Pred => ".pred",
    }
}

/// The parameter types of a demangled signature: the text between the parentheses that follow the name, split
/// at top-level commas (`()` and `(void)` have none).
fn signature_params(sig: &str) -> Option<Vec<String>> {
    // The parameter list is the last top-level `(…)` group (a return type or template arguments come before).
    let bytes = sig.as_bytes();
    let end = sig.rfind(')')?;
    let mut depth = 0i32;
    let mut open = None;
    for i in (0..=end).rev() {
        match bytes[i] {
            b')' | b'>' | b']' => depth += 1,
            b'(' | b'<' | b'[' => {
                depth -= 1;
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let inner = sig[open? + 1..end].trim();
    if inner.is_empty() || inner == "void" {
        return Some(Vec::new());
    }
    Some(
        split_top(inner, ",")
            .into_iter()
            .map(|s| s.trim().to_string())
            .collect(),
    )
}

/// The arguments that the demangled signature describes, checked against the `.param`s.
fn signature_arguments(f: &Function, name: &EntryName, sig: &str) -> Result<Vec<Argument>, String> {
    let params = signature_params(sig).ok_or_else(|| format!("no parameter list in `{sig}`"))?;
    if name.origin == Origin::Numba {
        return numba_arguments(f, &params);
    }
    let types: Vec<CType> = params.iter().map(|p| CType::parse(&tokens(p))).collect();
    let mut args = c_arguments(f, &types)?;
    for (a, p) in args.iter_mut().zip(params) {
        a.ty = p;
    }
    Ok(args)
}

/// A C/C++ parameter type, as far as a kernel's caller needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CType {
    /// As written (tidied): `const float* __restrict__`, `Params`.
    text: String,
    kind: CKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum CKind {
    Pointer {
        elem: Option<Scalar>,
        is_const: bool,
    },
    Scalar(Scalar),
    /// A type this module does not know (a struct, a class, an enum, a typedef): passed as the PTX says.
    Named,
}

impl CType {
    /// The type that the tokens (without the parameter's name) spell.
    fn parse(toks: &[Tok]) -> CType {
        let text = tidy(toks);
        let mut words: Vec<&str> = Vec::new();
        let mut pointers = 0;
        let mut const_before_pointer = false;
        let mut templated = false;
        let mut function_pointer = false;
        let mut depth = 0i32;
        let mut previous_scope = false;
        for t in toks {
            let s = t.text.as_str();
            match s {
                "<" => {
                    depth += 1;
                    templated = true;
                }
                ">" => depth -= 1,
                "(" if depth == 0 => function_pointer = true,
                _ if depth > 0 => {}
                "*" | "&" | "[" => pointers += 1,
                "const" if pointers == 0 => const_before_pointer = true,
                "::" => previous_scope = true,
                _ if t.is_ident() && !QUALIFIERS.contains(&s) => {
                    if previous_scope {
                        // `std::size_t`: the last component names the type.
                        words.pop();
                    }
                    words.push(s);
                    previous_scope = false;
                }
                _ => {}
            }
        }
        let base = if templated { None } else { scalar_of(&words) };
        let kind = if function_pointer {
            CKind::Pointer {
                elem: None,
                is_const: false,
            }
        } else if pointers > 0 {
            CKind::Pointer {
                elem: if pointers == 1 { base } else { None },
                is_const: const_before_pointer,
            }
        } else {
            base.map_or(CKind::Named, CKind::Scalar)
        };
        CType { text, kind }
    }
}

/// Words that qualify a type without changing what it is.
const QUALIFIERS: &[&str] = &[
    "const",
    "volatile",
    "__restrict__",
    "__restrict",
    "restrict",
    "struct",
    "class",
    "union",
    "enum",
    "typename",
    "__grid_constant__",
];

/// The scalar that type words name (`unsigned long long`, `float`, `uint8_t`), if it is one. `long` is 64 bits
/// (LP64: nvcc follows the host's data model, and the hosts it supports are LP64 Linux).
fn scalar_of(words: &[&str]) -> Option<Scalar> {
    use ElemTy as E;
    let mut unsigned = false;
    let mut signed = false;
    let mut longs = 0;
    let mut short = false;
    let mut int = false;
    let mut other: Option<&str> = None;
    for &w in words {
        match w {
            "unsigned" => unsigned = true,
            "signed" => signed = true,
            "long" => longs += 1,
            "short" => short = true,
            "int" => int = true,
            _ if other.is_none() => other = Some(w),
            _ => return None,
        }
    }
    let sized = |bytes: u32| {
        Some(match (bytes, unsigned) {
            (1, false) => Scalar::S8,
            (1, true) => Scalar::U8,
            (2, false) => Scalar::S16,
            (2, true) => Scalar::U16,
            (4, false) => Scalar::Elem(E::S32),
            (4, true) => Scalar::Elem(E::U32),
            (8, false) => Scalar::Elem(E::S64),
            _ => Scalar::Elem(E::U64),
        })
    };
    match other {
        None if short && longs == 0 => sized(2),
        None if longs > 0 && !short => sized(8),
        None if unsigned || signed || int => sized(4),
        Some("char") if !int && !short && longs == 0 => sized(1),
        Some(_) if unsigned || signed || int || short || longs > 0 => None,
        Some("float") => Some(Scalar::Elem(E::F32)),
        Some("double") => Some(Scalar::Elem(E::F64)),
        Some("bool" | "_Bool") => Some(Scalar::Bool),
        Some("int8_t") => Some(Scalar::S8),
        Some("uint8_t") => Some(Scalar::U8),
        Some("int16_t") => Some(Scalar::S16),
        Some("uint16_t") => Some(Scalar::U16),
        Some("int32_t") => Some(Scalar::Elem(E::S32)),
        Some("uint32_t") => Some(Scalar::Elem(E::U32)),
        Some("int64_t" | "ptrdiff_t" | "intptr_t" | "ssize_t") => Some(Scalar::Elem(E::S64)),
        Some("uint64_t" | "size_t" | "uintptr_t") => Some(Scalar::Elem(E::U64)),
        _ => None,
    }
}

/// Does `.param` `p` hold a scalar of type `s`? (PTX: a kernel's scalar parameter is declared with a type of its
/// size; nvcc uses `.u8`/`.u16`/`.u32`/`.u64`, `.f32`/`.f64`, Numba the same with `.u8` for `bool`.)
fn param_holds(p: &super::ast::Param, s: Scalar) -> bool {
    use ScalarType as T;
    if !p.dims.is_empty() || p.ty.vector.is_some() {
        return false;
    }
    let t = p.ty.scalar;
    let float = matches!(t, T::F32 | T::F64);
    t.bits() == s.bytes() * 8 && (float == s.is_float() || matches!(t, T::B8 | T::B16 | T::B32 | T::B64))
}

/// A 64-bit integer (or untyped) `.param`: a pointer or a Numba descriptor field.
fn param_is_word(p: &super::ast::Param) -> bool {
    p.dims.is_empty()
        && p.ty.vector.is_none()
        && matches!(p.ty.scalar, ScalarType::U64 | ScalarType::S64 | ScalarType::B64)
}

/// One argument per C type, checked against the `.param`s: a pointer is a 64-bit `.param`, a scalar one of its
/// size, an unknown (named) type whatever the `.param` is (bytes for a struct, a scalar for an enum).
fn c_arguments(f: &Function, types: &[CType]) -> Result<Vec<Argument>, String> {
    if types.len() != f.params.len() {
        return Err(format!(
            "{} parameter{} for {} .param{}",
            types.len(),
            if types.len() == 1 { "" } else { "s" },
            f.params.len(),
            if f.params.len() == 1 { "" } else { "s" }
        ));
    }
    let mut args = Vec::new();
    for (i, (t, p)) in types.iter().zip(&f.params).enumerate() {
        let kind = match &t.kind {
            CKind::Pointer { elem, is_const } if param_is_word(p) => ArgKind::Pointer {
                elem: *elem,
                is_const: *is_const,
            },
            CKind::Scalar(s) if param_holds(p, *s) => ArgKind::Scalar(*s),
            CKind::Named => ptx_arguments_one(p),
            _ => {
                return Err(format!(
                    "parameter {i} `{}` does not fit .param {} `{}`",
                    t.text,
                    describe_param(p),
                    p.name.name
                ));
            }
        };
        args.push(Argument {
            index: i,
            name: None,
            ty: t.text.clone(),
            kind,
            params: i..i + 1,
        });
    }
    Ok(args)
}

fn ptx_arguments_one(p: &super::ast::Param) -> ArgKind {
    if p.dims.is_empty() && p.ty.vector.is_none() {
        ArgKind::Param(p.ty.scalar)
    } else {
        ArgKind::Bytes {
            size: param_bytes(p).unwrap_or(0),
            align: p.align.unwrap_or(p.ty.scalar.bits() / 8).max(1),
        }
    }
}

fn describe_param(p: &super::ast::Param) -> String {
    let mut s = scalar_directive(p.ty.scalar).to_string();
    for d in &p.dims {
        let _ = match d {
            Some(n) => write!(s, "[{n}]"),
            None => write!(s, "[]"),
        };
    }
    s
}

/// Numba's arguments: arrays (`Array<dtype, ndim, layout, mutable|readonly, aligned|unaligned>`, 5 + 2·ndim
/// 64-bit `.param`s), tuples (`UniTuple<T, N>`, `Tuple<A, B, …>`: one `.param` per element) and scalars.
fn numba_arguments(f: &Function, types: &[String]) -> Result<Vec<Argument>, String> {
    let mut args = Vec::new();
    let mut next = 0usize;
    for (i, ty) in types.iter().enumerate() {
        let (head, targs) = match ty.find('<') {
            Some(j) if ty.ends_with('>') => (
                ty[..j].trim(),
                split_top(&ty[j + 1..ty.len() - 1], ",")
                    .into_iter()
                    .map(str::trim)
                    .collect::<Vec<_>>(),
            ),
            _ => (ty.as_str(), Vec::new()),
        };
        let scalar = |s: &str| scalar_of(&s.split_whitespace().collect::<Vec<_>>());
        let kind = match head {
            "Array" if targs.len() == 5 => {
                let ndim: usize = targs[1]
                    .parse()
                    .map_err(|_| format!("argument {i} `{ty}`: no dimension count"))?;
                let count = 5 + 2 * ndim;
                let range = next..next + count;
                if range.end > f.params.len() || !f.params[range.clone()].iter().all(param_is_word) {
                    return Err(format!(
                        "argument {i} `{ty}`: its descriptor needs {count} 64-bit .params from .param {next}"
                    ));
                }
                ArgKind::Array {
                    elem: scalar(targs[0]),
                    ndim,
                    layout: targs[2].to_string(),
                    mutable: targs[3] != "readonly",
                    params: ArrayParams {
                        meminfo: next,
                        parent: next + 1,
                        nitems: next + 2,
                        itemsize: next + 3,
                        data: next + 4,
                        shape: next + 5..next + 5 + ndim,
                        strides: next + 5 + ndim..next + count,
                    },
                }
            }
            "UniTuple" | "Tuple" => {
                let elems: Option<Vec<Scalar>> = if head == "UniTuple" && targs.len() == 2 {
                    let n: usize = targs[1].parse().map_err(|_| format!("argument {i} `{ty}`"))?;
                    scalar(targs[0]).map(|s| vec![s; n])
                } else {
                    targs.iter().map(|t| scalar(t)).collect()
                };
                ArgKind::Tuple(elems.ok_or_else(|| format!("argument {i} `{ty}`: a tuple of unknown types"))?)
            }
            _ if targs.is_empty() => {
                ArgKind::Scalar(scalar(head).ok_or_else(|| format!("argument {i}: unknown type `{ty}`"))?)
            }
            _ => return Err(format!("argument {i}: unknown type `{ty}`")),
        };
        let count = match &kind {
            ArgKind::Array { ndim, .. } => 5 + 2 * ndim,
            ArgKind::Tuple(e) => e.len(),
            _ => 1,
        };
        let range = next..next + count;
        let fits = range.end <= f.params.len()
            && match &kind {
                ArgKind::Scalar(s) => param_holds(&f.params[next], *s),
                ArgKind::Tuple(e) => e.iter().zip(&f.params[range.clone()]).all(|(s, p)| param_holds(p, *s)),
                _ => true,
            };
        if !fits {
            return Err(format!(
                "argument {i} `{ty}` does not fit .params {next}..{} of {}",
                range.end,
                f.params.len()
            ));
        }
        args.push(Argument {
            index: i,
            name: None,
            ty: ty.clone(),
            kind,
            params: range,
        });
        next += count;
    }
    if next != f.params.len() {
        return Err(format!(
            "the signature's arguments cover {next} of {} .params",
            f.params.len()
        ));
    }
    Ok(args)
}

// ---------------------------------------------------------------------------------------------------------------
// The kernel's source: its definition's parameter names (and, for C/C++, types).

/// One parameter of a definition in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SourceParam {
    name: Option<String>,
    /// The C type (`None` in Python, or where the declaration could not be read).
    ty: Option<CType>,
}

/// A kernel's definition found in its source.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Definition {
    /// 1-based line of the name.
    line: u32,
    params: Vec<SourceParam>,
}

/// The kernel's source file (path as `.file` gives it) and its definition there, if `read` has the file and
/// the file defines the kernel.
fn kernel_source(
    module: &Module,
    f: &Function,
    name: &EntryName,
    read: &dyn Fn(&str) -> Option<String>,
) -> Option<(String, Definition)> {
    let mut counts: HashMap<u32, usize> = HashMap::new();
    let mut first_line: HashMap<u32, u32> = HashMap::new();
    if let Some(body) = &f.body {
        body.visit(&mut |s| {
            if let Statement::Instruction(super::ast::Instruction { loc: Some(loc), .. }) = s {
                let file = loc.inlined_at.map_or(loc.file, |a| a.0);
                *counts.entry(file).or_default() += 1;
                if loc.inlined_at.is_none() && loc.line > 0 {
                    first_line.entry(loc.file).or_insert(loc.line);
                }
            }
        });
    }
    let mut files: Vec<u32> = Vec::new();
    if let Some((&most, _)) = counts.iter().max_by_key(|&(&file, &n)| (n, std::cmp::Reverse(file))) {
        files.push(most);
    }
    for d in &module.files {
        let lower = d.path.to_ascii_lowercase();
        if [".cu", ".cuh", ".py"].iter().any(|e| lower.ends_with(e)) && !files.contains(&d.index) {
            files.push(d.index);
        }
    }
    for file in files {
        let Some(path) = module.file_path(file) else {
            continue;
        };
        let Some(text) = read(path) else {
            continue;
        };
        let defs = if path.to_ascii_lowercase().ends_with(".py") {
            python_definitions(&text, &name.short)
        } else {
            c_definitions(&text, &name.short)
        };
        if defs.is_empty() {
            continue;
        }
        // Several definitions of the name (overloads, redefinitions): the last one that starts at or before
        // the kernel's first source line, else the first.
        let line = first_line.get(&file).copied().unwrap_or(0);
        let def = defs.iter().rev().find(|d| d.line <= line).unwrap_or(&defs[0]).clone();
        return Some((path.to_string(), def));
    }
    None
}

/// A token of C/C++ source: an identifier, a number, `::`, or one punctuation character.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tok {
    text: String,
    line: u32,
}

impl Tok {
    fn is_ident(&self) -> bool {
        self.text
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
    }
}

/// The tokens of C/C++ text, without comments, string and character literals and preprocessor lines.
fn tokens(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // A preprocessor line, with its continuations.
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    line += 1;
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        line_start = false;
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
            continue;
        }
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphanumeric() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else if c == b':' && b.get(i + 1) == Some(&b':') {
            i += 2;
        } else {
            // One character (a multi-byte one whole).
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
        out.push(Tok {
            text: text[start..i].to_string(),
            line,
        });
    }
    out
}

/// Tokens written back as a type: `const float* __restrict__`.
fn tidy(toks: &[Tok]) -> String {
    let mut s = String::new();
    for t in toks {
        let glue = matches!(t.text.as_str(), "*" | "&" | "," | ">" | "[" | "]" | "::" | ")")
            || s.ends_with(['<', '(', '[', ':'])
            || s.is_empty();
        if !glue {
            s.push(' ');
        }
        s.push_str(&t.text);
        if t.text == "," {
            s.push(' ');
        }
    }
    s
}

/// The index of the token that closes the bracket opened at `open` (`(`, `<`, `[`, `{`), or the end.
fn closing(toks: &[Tok], open: usize) -> usize {
    let (o, c) = match toks[open].text.as_str() {
        "(" => ("(", ")"),
        "<" => ("<", ">"),
        "[" => ("[", "]"),
        _ => ("{", "}"),
    };
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate().skip(open) {
        if t.text == o {
            depth += 1;
        } else if t.text == c {
            depth -= 1;
            if depth == 0 {
                return i;
            }
        }
    }
    toks.len()
}

/// The `__global__` definitions of function `name` in C/C++ text (declarations instead if there is no
/// definition, e.g. when the kernel is defined elsewhere).
fn c_definitions(text: &str, name: &str) -> Vec<Definition> {
    let toks = tokens(text);
    let mut defs = Vec::new();
    let mut decls = Vec::new();
    for g in 0..toks.len() {
        if toks[g].text != "__global__" {
            continue;
        }
        // From `__global__` to the name: skip `__launch_bounds__(…)` and other parenthesised attributes.
        let mut j = g + 1;
        let mut found = None;
        while j < toks.len() {
            let t = toks[j].text.as_str();
            if matches!(t, ";" | "{" | "}") {
                break;
            }
            if t == "(" {
                j = closing(&toks, j) + 1;
                continue;
            }
            if t == name {
                let mut k = j + 1;
                if toks.get(k).is_some_and(|t| t.text == "<") {
                    k = closing(&toks, k) + 1;
                }
                if toks.get(k).is_some_and(|t| t.text == "(") {
                    found = Some((j, k));
                }
                break;
            }
            j += 1;
        }
        let Some((at, open)) = found else {
            continue;
        };
        let close = closing(&toks, open);
        if close >= toks.len() {
            continue;
        }
        let params = c_params(&toks[open + 1..close]);
        // After the `)`: `{` for a definition, `;` for a declaration (qualifiers may come between).
        let is_def = toks[close + 1..]
            .iter()
            .find(|t| t.text == "{" || t.text == ";")
            .is_some_and(|t| t.text == "{");
        let def = Definition {
            line: toks[at].line,
            params,
        };
        if is_def {
            defs.push(def);
        } else {
            decls.push(def);
        }
    }
    if defs.is_empty() { decls } else { defs }
}

/// The parameters between the parentheses of a C/C++ declaration.
fn c_params(toks: &[Tok]) -> Vec<SourceParam> {
    // Split at top-level commas; `<>` nest only outside a default argument (where `<` may compare).
    let mut parts: Vec<Vec<Tok>> = vec![Vec::new()];
    let mut depth = 0i32;
    let mut angle = 0i32;
    let mut default = false;
    for t in toks {
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            "<" if !default => angle += 1,
            ">" if !default => angle -= 1,
            "=" if depth == 0 && angle == 0 => default = true,
            "," if depth == 0 && angle == 0 => {
                parts.push(Vec::new());
                default = false;
                continue;
            }
            _ => {}
        }
        if let Some(p) = parts.last_mut() {
            p.push(t.clone());
        }
    }
    if parts.len() == 1 && (parts[0].is_empty() || (parts[0].len() == 1 && parts[0][0].text == "void")) {
        return Vec::new();
    }
    parts.iter().map(|p| c_param(p)).collect()
}

/// Words that are part of a type, never a parameter's name.
const TYPE_WORDS: &[&str] = &[
    "int",
    "unsigned",
    "signed",
    "long",
    "short",
    "char",
    "float",
    "double",
    "bool",
    "void",
    "const",
    "volatile",
    "__restrict__",
    "__restrict",
    "restrict",
];

/// One parameter declaration: its name (the last identifier, before any `[]` or default) and its type.
fn c_param(toks: &[Tok]) -> SourceParam {
    let mut toks: Vec<Tok> = toks.to_vec();
    if let Some(eq) = toks.iter().position(|t| t.text == "=") {
        toks.truncate(eq);
    }
    // `float a[]`, `int m[4][4]`: an array parameter is a pointer.
    let mut array = false;
    while toks.last().is_some_and(|t| t.text == "]") {
        let Some(open) = toks.iter().rposition(|t| t.text == "[") else {
            break;
        };
        toks.truncate(open);
        array = true;
    }
    let name = match toks.last() {
        Some(t) if toks.len() >= 2 && t.is_ident() && !TYPE_WORDS.contains(&t.text.as_str()) => {
            let n = t.text.clone();
            toks.pop();
            Some(n)
        }
        _ => None,
    };
    if array {
        toks.push(Tok {
            text: "*".into(),
            line: 0,
        });
    }
    let ty = (!toks.is_empty()).then(|| CType::parse(&toks));
    SourceParam { name, ty }
}

/// The `def name(…):` definitions in Python text: each parameter's name (annotations, defaults and `*`/`**`
/// dropped; the `/` and `*` markers skipped).
fn python_definitions(text: &str, name: &str) -> Vec<Definition> {
    let lines: Vec<&str> = text.lines().collect();
    let mut defs = Vec::new();
    for (n, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let rest = t.strip_prefix("async ").unwrap_or(t).trim_start();
        let Some(rest) = rest.strip_prefix("def ") else {
            continue;
        };
        let Some(after) = rest.trim_start().strip_prefix(name) else {
            continue;
        };
        let Some(after) = after.trim_start().strip_prefix('(') else {
            continue;
        };
        // The parameter list, to its closing parenthesis (it may span lines), without comments.
        let mut list = String::new();
        let mut depth = 1;
        let mut text_from = after.to_string();
        let mut next = n + 1;
        'scan: loop {
            let mut in_str: Option<char> = None;
            for c in text_from.chars() {
                if let Some(q) = in_str {
                    if c == q {
                        in_str = None;
                    }
                    list.push(c);
                    continue;
                }
                match c {
                    '#' => break,
                    '\'' | '"' => in_str = Some(c),
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break 'scan;
                        }
                    }
                    _ => {}
                }
                list.push(c);
            }
            list.push(' ');
            match lines.get(next) {
                Some(l) => text_from = (*l).to_string(),
                None => break,
            }
            next += 1;
        }
        if depth != 0 {
            continue;
        }
        let params = split_top(&list, ",")
            .into_iter()
            .map(str::trim)
            .filter(|p| !p.is_empty() && *p != "/" && *p != "*")
            .map(|p| {
                let p = p.split([':', '=']).next().unwrap_or("").trim();
                let p = p.trim_start_matches('*').trim();
                SourceParam {
                    name: (!p.is_empty()).then(|| p.to_string()),
                    ty: None,
                }
            })
            .collect();
        defs.push(Definition {
            line: u32::try_from(n + 1).unwrap_or(u32::MAX),
            params,
        });
    }
    defs
}
