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
    let mut skip_to = 0;
    for (i, ch) in s.char_indices() {
        if i < skip_to {
            continue;
        }
        if depth == 0 && s[i..].starts_with(sep) {
            parts.push(&s[start..i]);
            start = i + sep.len();
            skip_to = start;
            continue;
        }
        match ch {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            _ => {}
        }
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

/// The `read` for [`describe`] of a `.ptx` file at `ptx`: a path from its `.file` table is read from the file
/// of that name beside the `.ptx` (nvcc and Numba write the absolute path of the machine that compiled, so a
/// kernel shipped with its source is found wherever the two are copied), else from the path as written (a
/// relative one from the `.ptx`'s directory). Read as [`crate::read_source`] reads: a regular UTF-8 file of at
/// most [`crate::MAX_SOURCE_BYTES`]; anything else is `None`.
pub fn source_beside(ptx: &std::path::Path) -> impl Fn(&str) -> Option<String> + 'static {
    let dir = ptx.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    move |path: &str| {
        let written = std::path::Path::new(path);
        let beside = written.file_name().map(|name| dir.join(name));
        beside
            .into_iter()
            .chain([dir.join(written)])
            .find_map(|p| crate::read_source(&p).ok())
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

/// The byte offset of each `.param` of entry `f` in its parameter space, as the ABI lays them out: in order,
/// each aligned to its `.align` or else its element's size. (Past an unsized array: the offsets so far.)
pub fn param_offsets(f: &Function) -> Vec<u32> {
    let mut out = Vec::with_capacity(f.params.len());
    let mut next = 0u64;
    for p in &f.params {
        let Some(bytes) = param_bytes(p) else { break };
        let elem = u64::from(p.ty.scalar.bits() / 8) * u64::from(p.ty.vector.unwrap_or(1));
        let align = p.align.map_or(elem, u64::from).max(1);
        next = next.div_ceil(align) * align;
        let Ok(at) = u32::try_from(next) else { break };
        out.push(at);
        next += bytes;
    }
    out
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
            // To the closing quote (a literal does not span lines: an unterminated one ends at the newline).
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                if b[i] == b'\\' && b.get(i + 1).is_some_and(|&n| n != b'\n') {
                    i += 1;
                }
                i += 1;
            }
            if i < b.len() && b[i] == c {
                i += 1;
            }
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
            || (t.text == "(" && s.ends_with(')'))
            || s.ends_with(['<', '(', '[', ':'])
            || s.ends_with("(*")
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx;

    /// A module of entries `(name, params)`, each with a `ret;` body.
    fn module(entries: &[(&str, &str)]) -> Module {
        let mut text = String::from(".version 9.5\n.target sm_90\n.address_size 64\n");
        for (name, params) in entries {
            let _ = write!(text, ".visible .entry {name}({params})\n{{\nret;\n}}\n");
        }
        ptx::parse("m.ptx", &text).expect("parses").0
    }

    #[test]
    fn parameter_offsets_follow_the_abi_each_aligned_to_its_align_or_size() {
        let m = module(&[(
            "k",
            ".param .u32 a, .param .u64 b, .param .u8 c, .param .align 16 .b8 s[20], .param .u16 d, .param .f64 e, \
             .param .u8 f, .param .u32 g",
        )]);
        let f = m.entries().next().expect("an entry");
        // a 0..4, b 8..16, c 16, s 32..52 (aligned to 16), d 52..54, e 56..64, f 64, g 68..72.
        assert_eq!(param_offsets(f), [0, 8, 16, 32, 52, 56, 64, 68]);
        let none = module(&[("k", "")]);
        assert!(param_offsets(none.entries().next().expect("an entry")).is_empty());
    }

    fn params(types: &[&str]) -> String {
        types
            .iter()
            .enumerate()
            .map(|(i, t)| match t.find('[') {
                // `.align 8 .b8[24]`: the dimension after the name.
                Some(d) => format!(".param {} p_{i}{}", &t[..d], &t[d..]),
                None => format!(".param {t} p_{i}"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn name_of(ptx: &str) -> EntryName {
        let m = module(&[(ptx, "")]);
        entry_name(m.entries().next().unwrap())
    }

    const NUMBA_MAP_2D: &str = "_ZN9p04_map2d6map_2dB2v5B106cw51cXTLSUwv1sDUaKthqaNgoKmjgMVuW1AiA8rAEg2UjxRKtuAIAMYDWpKAqkSkPiQB1BQFk0DyoW21Oizc1a0UoPGnDpQE8oxrNQE_3dE5ArrayIfLi2E1C7mutable7alignedE5ArrayIfLi2E1C7mutable7alignedEx";

    #[test]
    fn names_plain_cxx_template_namespace_numba() {
        let n = name_of("map_add10");
        assert_eq!(
            (
                n.origin,
                n.demangled,
                n.qualified.as_str(),
                n.last.as_str(),
                n.short.as_str()
            ),
            (Origin::Plain, None, "map_add10", "map_add10", "map_add10")
        );
        let n = name_of("_Z13map_blocks_2dPfPKfi");
        assert_eq!(n.origin, Origin::Cxx);
        assert_eq!(n.demangled.as_deref(), Some("map_blocks_2d(float*, float const*, int)"));
        assert_eq!(
            (n.qualified.as_str(), n.last.as_str(), n.short.as_str()),
            ("map_blocks_2d", "map_blocks_2d", "map_blocks_2d")
        );
        let n = name_of("_Z10reduce_sumIfLi256EEvPT_PKS0_iPi");
        assert_eq!(
            n.demangled.as_deref(),
            Some("void reduce_sum<float, 256>(float*, float const*, int, int*)")
        );
        assert_eq!(
            (n.qualified.as_str(), n.last.as_str(), n.short.as_str()),
            ("reduce_sum<float, 256>", "reduce_sum<float, 256>", "reduce_sum")
        );
        let n = name_of("_ZN2ns6kernelEPd");
        assert_eq!(n.demangled.as_deref(), Some("ns::kernel(double*)"));
        assert_eq!(
            (n.qualified.as_str(), n.last.as_str(), n.short.as_str()),
            ("ns::kernel", "kernel", "kernel")
        );
        let n = name_of("_ZN2ns5inner6kernelEPdj");
        assert_eq!(n.demangled.as_deref(), Some("ns::inner::kernel(double*, unsigned int)"));
        assert_eq!(
            (n.qualified.as_str(), n.last.as_str(), n.short.as_str()),
            ("ns::inner::kernel", "kernel", "kernel")
        );
        let n = name_of(NUMBA_MAP_2D);
        assert_eq!(n.origin, Origin::Numba);
        assert_eq!(
            (n.qualified.as_str(), n.last.as_str(), n.short.as_str()),
            ("p04_map2d::map_2d", "map_2d", "map_2d")
        );
        assert_eq!(
            n.display(),
            "p04_map2d::map_2d(Array<float, 2, C, mutable, aligned>, Array<float, 2, C, mutable, aligned>, long long)"
        );
        assert!(n.demangled.unwrap().starts_with("p04_map2d::map_2d[abi:v5][abi:cw51c"));
        // `_Z` that is not a mangled name: taken as plain.
        assert_eq!(name_of("_Z3fooQ").origin, Origin::Plain);
        assert_eq!(name_of("_Z3fooQ").short, "_Z3fooQ");
    }

    #[test]
    fn find_by_every_form() {
        let m = module(&[
            (
                "_Z10reduce_sumIfLi256EEvPT_PKS0_iPi",
                &params(&[".u64", ".u64", ".u32", ".u64"]),
            ),
            (
                "_Z10reduce_sumIiLi128EEvPT_PKS0_iPi",
                &params(&[".u64", ".u64", ".u32", ".u64"]),
            ),
            ("_ZN2ns6scalarEPf", &params(&[".u64"])),
            (NUMBA_MAP_2D, &params(&[".u64"; 19])),
            ("plain_k", ""),
        ]);
        let found = |q: &str| find(&m, Some(q)).map(|f| f.name.name.clone());
        for q in [
            "reduce_sum<float, 256>",
            "reduce_sum<float,256>",
            "void reduce_sum<float, 256>(float*, float const*, int, int*)",
            "_Z10reduce_sumIfLi256EEvPT_PKS0_iPi",
        ] {
            assert_eq!(found(q).as_deref(), Ok("_Z10reduce_sumIfLi256EEvPT_PKS0_iPi"), "{q}");
        }
        for q in ["scalar", "ns::scalar", "ns::scalar(float*)"] {
            assert_eq!(found(q).as_deref(), Ok("_ZN2ns6scalarEPf"), "{q}");
        }
        for q in ["map_2d", "p04_map2d::map_2d", "p04_map2d.map_2d"] {
            assert_eq!(found(q).as_deref(), Ok(NUMBA_MAP_2D), "{q}");
        }
        assert_eq!(found("plain_k").as_deref(), Ok("plain_k"));
        assert_eq!(
            found("reduce_sum"),
            Err("`reduce_sum` names 2 kernels; give the full name, or the PTX name:\n  \
                 reduce_sum<float, 256>  (void reduce_sum<float, 256>(float*, float const*, int, int*))\n  \
                 reduce_sum<int, 128>  (void reduce_sum<int, 128>(int*, int const*, int, int*))"
                .to_string())
        );
        assert_eq!(
            found("scalr"),
            Err("no kernel `scalr` in the module (did you mean `scalar`?); its kernels:\n  \
                 reduce_sum<float, 256>  (void reduce_sum<float, 256>(float*, float const*, int, int*))\n  \
                 reduce_sum<int, 128>  (void reduce_sum<int, 128>(int*, int const*, int, int*))\n  \
                 scalar  (ns::scalar(float*))\n  \
                 map_2d  (p04_map2d::map_2d(Array<float, 2, C, mutable, aligned>, Array<float, 2, C, mutable, aligned>, long long))\n  \
                 plain_k"
                .to_string())
        );
        let e = find(&m, Some("zzzzzzzzzz")).unwrap_err();
        assert!(
            e.starts_with("no kernel `zzzzzzzzzz` in the module; its kernels:\n"),
            "{e}"
        );
        let e = find(&m, None).unwrap_err();
        assert!(
            e.starts_with("the module has 5 kernels; choose one with --entry:\n  reduce_sum<float, 256>  ("),
            "{e}"
        );
    }

    #[test]
    fn find_the_only_entry_and_none() {
        let one = module(&[("k", "")]);
        assert_eq!(find(&one, None).map(|f| f.name.name.as_str()), Ok("k"));
        let text = ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry decl();\n\
                    .visible .func f()\n{\nret;\n}\n";
        let none = ptx::parse("m.ptx", text).unwrap().0;
        assert_eq!(
            find(&none, None),
            Err("the module has no kernel (no .entry with a body)".to_string())
        );
        assert_eq!(
            find(&none, Some("f")),
            Err("the module has no kernel (no .entry with a body)".to_string())
        );
    }

    #[test]
    fn same_python_name_twice_lists_the_ptx_names() {
        let a = "_ZN7p01_map9map_add10B2v1B1xE5ArrayIdLi1E1C7mutable7alignedE";
        let b = "_ZN7p01_map9map_add10B2v2B1xE5ArrayIfLi1E1C7mutable7alignedE";
        let m = module(&[(a, &params(&[".u64"; 7])), (b, &params(&[".u64"; 7]))]);
        assert_eq!(
            find(&m, Some("map_add10")).unwrap_err(),
            format!(
                "`map_add10` names 2 kernels; give the full name, or the PTX name:\n  \
                 {a}  (p01_map::map_add10(Array<double, 1, C, mutable, aligned>))  \
                 [p01_map::map_add10(Array<double, 1, C, mutable, aligned>)]\n  \
                 {b}  (p01_map::map_add10(Array<float, 1, C, mutable, aligned>))  \
                 [p01_map::map_add10(Array<float, 1, C, mutable, aligned>)]"
            )
        );
        assert_eq!(find(&m, Some(b)).map(|f| f.name.name.as_str()), Ok(b));
    }

    fn describe_one(name: &str, types: &[&str]) -> Module {
        module(&[(name, &params(types))])
    }

    fn kinds(e: &Entry) -> Vec<(ArgKind, Range<usize>)> {
        e.arguments.iter().map(|a| (a.kind.clone(), a.params.clone())).collect()
    }

    #[test]
    fn cxx_arguments_from_the_signature() {
        use ElemTy as E;
        // k(float*, float const*, int, unsigned int, long, unsigned long long, double, float, char, unsigned char,
        //   bool, short, unsigned short, void*, float**, Params, __half)
        let m = describe_one(
            "_Z1kPfPKfijlydfchbstPvPS_6Params6__half",
            &[
                ".u64",
                ".u64",
                ".u32",
                ".u32",
                ".u64",
                ".u64",
                ".f64",
                ".f32",
                ".u8",
                ".u8",
                ".u8",
                ".u16",
                ".u16",
                ".u64",
                ".u64",
                ".align 8 .b8[24]",
                ".align 2 .b8[2]",
            ],
        );
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!(e.types_from, TypesFrom::Signature);
        assert_eq!(e.fallback, None);
        let ptr = |elem, is_const| ArgKind::Pointer { elem, is_const };
        let s = |t| ArgKind::Scalar(Scalar::Elem(t));
        assert_eq!(
            kinds(&e).into_iter().map(|(k, _)| k).collect::<Vec<_>>(),
            [
                ptr(Some(Scalar::Elem(E::F32)), false),
                ptr(Some(Scalar::Elem(E::F32)), true),
                s(E::S32),
                s(E::U32),
                s(E::S64),
                s(E::U64),
                s(E::F64),
                s(E::F32),
                ArgKind::Scalar(Scalar::S8),
                ArgKind::Scalar(Scalar::U8),
                ArgKind::Scalar(Scalar::Bool),
                ArgKind::Scalar(Scalar::S16),
                ArgKind::Scalar(Scalar::U16),
                ptr(None, false),
                ptr(None, false),
                ArgKind::Bytes { size: 24, align: 8 },
                ArgKind::Bytes { size: 2, align: 2 },
            ]
        );
        let tys: Vec<&str> = e.arguments.iter().map(|a| a.ty.as_str()).collect();
        assert_eq!(
            tys,
            [
                "float*",
                "float const*",
                "int",
                "unsigned int",
                "long",
                "unsigned long long",
                "double",
                "float",
                "char",
                "unsigned char",
                "bool",
                "short",
                "unsigned short",
                "void*",
                "float**",
                "Params",
                "__half"
            ]
        );
        assert!(e.arguments.iter().all(|a| a.name.is_none()));
    }

    #[test]
    fn a_signature_that_does_not_fit_falls_back_to_the_ptx() {
        // Three C++ parameters, two .params.
        let m = describe_one("_Z1kPfPKfi", &[".u64", ".u64"]);
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!(e.types_from, TypesFrom::Ptx);
        assert_eq!(e.fallback.as_deref(), Some("3 parameters for 2 .params"));
        assert_eq!(
            kinds(&e),
            [
                (ArgKind::Param(ScalarType::U64), 0..1),
                (ArgKind::Param(ScalarType::U64), 1..2)
            ]
        );
        assert_eq!(e.argument_list(), "  0: .u64 (p_0)\n  1: .u64 (p_1)");
        // An `int` in a 64-bit .param.
        let m = describe_one("_Z1kPfi", &[".u64", ".u64"]);
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!(
            e.fallback.as_deref(),
            Some("parameter 1 `int` does not fit .param .u64 `p_1`")
        );
        // A float in an integer .param.
        let m = describe_one("_Z1kf", &[".u32"]);
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!(
            e.fallback.as_deref(),
            Some("parameter 0 `float` does not fit .param .u32 `p_0`")
        );
        // An enum (a named type) is whatever its .param is.
        let m = describe_one("_Z1k4Mode", &[".u32"]);
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!(
            (e.types_from, kinds(&e)),
            (TypesFrom::Signature, vec![(ArgKind::Param(ScalarType::U32), 0..1)])
        );
    }

    #[test]
    fn numba_arrays_tuples_and_scalars() {
        use ElemTy as E;
        // f(Array<short, 3, F, readonly, aligned>, UniTuple<double, 2>, Tuple<int, float>, bool, unsigned long long)
        let name = "_ZN3mod1fB2v3B1xE5ArrayIsLi3E1F8readonly7alignedE8UniTupleIdLi2EE5TupleIifEby";
        let mut types = vec![".u64"; 11];
        types.extend([".f64", ".f64", ".u32", ".f32", ".u8", ".u64"]);
        let m = describe_one(name, &types);
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!(e.fallback, None);
        assert_eq!(
            kinds(&e),
            [
                (
                    ArgKind::Array {
                        elem: Some(Scalar::S16),
                        ndim: 3,
                        layout: "F".into(),
                        mutable: false,
                        params: ArrayParams {
                            meminfo: 0,
                            parent: 1,
                            nitems: 2,
                            itemsize: 3,
                            data: 4,
                            shape: 5..8,
                            strides: 8..11
                        }
                    },
                    0..11
                ),
                (ArgKind::Tuple(vec![Scalar::Elem(E::F64); 2]), 11..13),
                (ArgKind::Tuple(vec![Scalar::Elem(E::S32), Scalar::Elem(E::F32)]), 13..15),
                (ArgKind::Scalar(Scalar::Bool), 15..16),
                (ArgKind::Scalar(Scalar::Elem(E::U64)), 16..17),
            ]
        );
        // One .param short: the descriptor does not fit, one argument per .param.
        let m = describe_one("_ZN3mod1fB2v3E5ArrayIfLi1E1C7mutable7alignedE", &[".u64"; 6]);
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!(e.types_from, TypesFrom::Ptx);
        assert_eq!(
            e.fallback.as_deref(),
            Some(
                "argument 0 `Array<float, 1, C, mutable, aligned>`: its descriptor needs 7 64-bit .params from .param 0"
            )
        );
        assert_eq!(e.arguments.len(), 6);
        // One .param too many.
        let m = describe_one("_ZN3mod1fB2v3E5ArrayIfLi1E1C7mutable7alignedE", &[".u64"; 8]);
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!(
            e.fallback.as_deref(),
            Some("the signature's arguments cover 7 of 8 .params")
        );
        // A type Numba's layout is not known for.
        let m = describe_one("_ZN3mod1fB2v3E9complex64", &[".u64"]);
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!(e.fallback.as_deref(), Some("argument 0: unknown type `complex64`"));
    }

    #[test]
    fn scalar_words() {
        use ElemTy as E;
        let s = |t: &str| scalar_of(&t.split_whitespace().collect::<Vec<_>>());
        for (t, want) in [
            ("int", Some(Scalar::Elem(E::S32))),
            ("signed", Some(Scalar::Elem(E::S32))),
            ("unsigned", Some(Scalar::Elem(E::U32))),
            ("unsigned int", Some(Scalar::Elem(E::U32))),
            ("long", Some(Scalar::Elem(E::S64))),
            ("long int", Some(Scalar::Elem(E::S64))),
            ("long long", Some(Scalar::Elem(E::S64))),
            ("unsigned long", Some(Scalar::Elem(E::U64))),
            ("long unsigned long int", Some(Scalar::Elem(E::U64))),
            ("size_t", Some(Scalar::Elem(E::U64))),
            ("int64_t", Some(Scalar::Elem(E::S64))),
            ("uint32_t", Some(Scalar::Elem(E::U32))),
            ("short", Some(Scalar::S16)),
            ("unsigned short int", Some(Scalar::U16)),
            ("char", Some(Scalar::S8)),
            ("signed char", Some(Scalar::S8)),
            ("unsigned char", Some(Scalar::U8)),
            ("uint8_t", Some(Scalar::U8)),
            ("bool", Some(Scalar::Bool)),
            ("float", Some(Scalar::Elem(E::F32))),
            ("double", Some(Scalar::Elem(E::F64))),
            ("long double", None),
            ("unsigned float", None),
            ("int2", None),
            ("__half", None),
            ("void", None),
        ] {
            assert_eq!(s(t), want, "{t}");
        }
    }

    #[test]
    fn c_definitions_names_and_types() {
        let src = r#"
#include <cuda_fp16.h>
#define KERNEL(x) __global__ void x(int a, int b)
template <typename T, int N>
__global__ void tk(T *out, const Foo<int, 2> /* a, b */ table, int n = (1 < 2), float v[4]);
// __global__ void k(int wrong);
extern "C" __global__ void __launch_bounds__(256, 2)
k(const float* __restrict__ x,   // the input, "quoted"
  unsigned n, std::size_t m, volatile int *flag, int (*f)(int), float) {
    const char *s = "__global__ void k(int a)";
}
template <typename T, int N>
__global__ void tk(T *out, const Foo<int, 2> table, int n, float v[4]) { }
template __global__ void tk<float, 1>(float *, const Foo<int, 2>, int, float *);
"#;
        let defs = c_definitions(src, "k");
        assert_eq!(defs.len(), 1);
        assert_eq!(defs[0].line, 8);
        let got = defs[0]
            .params
            .iter()
            .map(|p| (p.name.as_deref(), p.ty.as_ref().map(|t| (t.text.as_str(), &t.kind))))
            .collect::<Vec<_>>();
        let f32p = CKind::Pointer {
            elem: Some(Scalar::Elem(ElemTy::F32)),
            is_const: true,
        };
        let u32s = CKind::Scalar(Scalar::Elem(ElemTy::U32));
        let u64s = CKind::Scalar(Scalar::Elem(ElemTy::U64));
        let s32p = CKind::Pointer {
            elem: Some(Scalar::Elem(ElemTy::S32)),
            is_const: false,
        };
        let fnp = CKind::Pointer {
            elem: None,
            is_const: false,
        };
        let float_scalar = CKind::Scalar(Scalar::Elem(ElemTy::F32));
        assert_eq!(
            got,
            [
                (Some("x"), Some(("const float* __restrict__", &f32p))),
                (Some("n"), Some(("unsigned", &u32s))),
                (Some("m"), Some(("std::size_t", &u64s))),
                (Some("flag"), Some(("volatile int*", &s32p))),
                (None, Some(("int (*f)(int)", &fnp))),
                (None, Some(("float", &float_scalar))),
            ]
        );
        // The definition, not the declaration nor the explicit instantiation.
        let defs = c_definitions(src, "tk");
        assert_eq!(defs.len(), 1);
        assert_eq!(defs[0].line, 13);
        let names: Vec<_> = defs[0].params.iter().map(|p| p.name.as_deref()).collect();
        assert_eq!(names, [Some("out"), Some("table"), Some("n"), Some("v")]);
        assert_eq!(defs[0].params[1].ty.as_ref().unwrap().kind, CKind::Named);
        assert_eq!(
            defs[0].params[3].ty.as_ref().unwrap().kind,
            CKind::Pointer {
                elem: Some(Scalar::Elem(ElemTy::F32)),
                is_const: false
            }
        );
        // Only declarations: they are used.
        let decls = c_definitions("__global__ void d(int a, int b = 3);", "d");
        let names: Vec<_> = decls[0].params.iter().map(|p| p.name.as_deref()).collect();
        assert_eq!(names, [Some("a"), Some("b")]);
        assert_eq!(c_definitions("__global__ void e(void) {}", "e")[0].params, []);
        assert_eq!(c_definitions("__device__ void k(int a) {}", "k"), []);
        assert_eq!(c_definitions("__global__ void k", "k"), []);
        assert_eq!(c_definitions("__global__ void k(int a", "k"), []);
    }

    #[test]
    fn python_definitions_names() {
        let src = "import numba\n\n@cuda.jit\ndef k(out, a,  # the input\n      n: int = 3, *rest, **kw):\n    pass\n\
                   def k_other(x):\n    pass\n    def k(y, /, z, *, w): pass\ndef broken(a,\n";
        let defs = python_definitions(src, "k");
        assert_eq!(defs.iter().map(|d| d.line).collect::<Vec<_>>(), [4, 9]);
        let names = |d: &Definition| d.params.iter().map(|p| p.name.clone().unwrap()).collect::<Vec<_>>();
        assert_eq!(names(&defs[0]), ["out", "a", "n", "rest", "kw"]);
        assert_eq!(names(&defs[1]), ["y", "z", "w"]);
        assert_eq!(python_definitions(src, "broken"), []);
    }

    /// A kernel with `.loc`s in file `loc_file` of the two `.file`s (`/a/b/k.cu` and `/x/h.hpp`).
    fn located(name: &str, params: &str, loc_file: u32) -> Module {
        let text = format!(
            ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry {name}({params})\n{{\n\
             .loc {loc_file} 7 3\nmov.u32 %r1, %tid.x;\n.loc 2 448 9, function_name $L__info_string0, inlined_at 1 9 2\n\
             mov.u32 %r1, %tid.x;\nret;\n}}\n.file 1 \"/a/b/k.cu\"\n.file 2 \"/x/h.hpp\"\n"
        );
        ptx::parse("m.ptx", &text).unwrap().0
    }

    #[test]
    fn names_and_types_from_the_source() {
        let m = located("k", ".param .u64 k_param_0, .param .u32 k_param_1", 1);
        let read = |p: &str| {
            (p == "/a/b/k.cu").then(|| "extern \"C\" __global__ void k(const float *in, unsigned n) {}".to_string())
        };
        let e = describe(&m, m.entries().next().unwrap(), &read);
        assert_eq!(e.types_from, TypesFrom::Source);
        assert_eq!(e.source.as_deref(), Some("/a/b/k.cu"));
        assert_eq!(e.argument_list(), "  0 in: const float*\n  1 n: unsigned");
        assert_eq!(e.argument("n").map(|a| a.index), Ok(1));
        assert_eq!(e.argument("1").map(|a| a.index), Ok(1));
        assert_eq!(e.argument("k_param_0").map(|a| a.index), Ok(0));
        assert_eq!(
            e.argument("nx"),
            Err("kernel `k` has no argument `nx` (did you mean `n`?); its arguments:\n  0 in: const float*\n  1 n: unsigned"
                .to_string())
        );
        assert_eq!(
            e.argument("2"),
            Err(
                "kernel `k` has 2 arguments: no argument 2; its arguments:\n  0 in: const float*\n  1 n: unsigned"
                    .to_string()
            )
        );
        // No source: PTX types, no names.
        let e = describe(&m, m.entries().next().unwrap(), &|_| None);
        assert_eq!((e.types_from, e.source.as_deref()), (TypesFrom::Ptx, None));
        assert_eq!(e.argument_list(), "  0: .u64 (k_param_0)\n  1: .u32 (k_param_1)");
        // A source whose kernel has another parameter count: no names, PTX types.
        let read3 = |_: &str| Some("__global__ void k(float *a, int b, int c) {}".to_string());
        let e = describe(&m, m.entries().next().unwrap(), &read3);
        assert_eq!(
            e.fallback.as_deref(),
            Some("the source's parameters: 3 parameters for 2 .params")
        );
        assert!(e.arguments.iter().all(|a| a.name.is_none()));
        assert_eq!(e.source, None);
        // The .locs of the header name file 2 but were inlined into file 1: file 1 is the kernel's, even
        // when the kernel's own .loc names file 2.
        let m2 = located("k", ".param .u64 k_param_0, .param .u32 k_param_1", 2);
        let read_both = |p: &str| match p {
            "/a/b/k.cu" => Some("__global__ void k(float *a, int b) {}".to_string()),
            _ => Some("__global__ void k(float *wrong, int names) {}".to_string()),
        };
        let e = describe(&m2, m2.entries().next().unwrap(), &read_both);
        // Counted: file 2 once (the kernel's own .loc), file 1 once (inlined at): the tie goes to file 1.
        assert_eq!(e.source.as_deref(), Some("/a/b/k.cu"));
        assert_eq!(e.arguments[0].name.as_deref(), Some("a"));
    }

    #[test]
    fn mangled_names_take_names_from_the_source_and_types_from_the_signature() {
        let m = located("_Z1kPfi", ".param .u64 p0, .param .u32 p1", 1);
        let read = |_: &str| Some("typedef float real;\n__global__ void k(real *data, int count) {}".to_string());
        let e = describe(&m, m.entries().next().unwrap(), &read);
        assert_eq!(e.types_from, TypesFrom::Signature);
        assert_eq!(e.argument_list(), "  0 data: float*\n  1 count: int");
    }
    #[test]
    fn tokens_skip_comments_literals_and_directives() {
        let src =
            "#define A(x) \\\n  x\nint a = 'b'; /* one\ntwo */ char *s = \"x\\\"y\"; // c\nfloat c = 'q\n\"é\" ü d";
        let toks: Vec<(String, u32)> = tokens(src).into_iter().map(|t| (t.text, t.line)).collect();
        let want: Vec<(String, u32)> = [
            ("int", 3),
            ("a", 3),
            ("=", 3),
            (";", 3),
            ("char", 4),
            ("*", 4),
            ("s", 4),
            ("=", 4),
            (";", 4),
            ("float", 5),
            ("c", 5),
            ("=", 5),
            ("ü", 6),
            ("d", 6),
        ]
        .into_iter()
        .map(|(t, l)| (t.to_string(), l))
        .collect();
        assert_eq!(toks, want);
        assert_eq!(split_top("a<b, c>, é(d, e), f", ","), ["a<b, c>", " é(d, e)", " f"]);
        assert_eq!(split_top("ns::k<a::b>::f", "::"), ["ns", "k<a::b>", "f"]);
    }
}
