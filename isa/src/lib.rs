//! # warpsim-isa
//!
//! warpsim's SIMT assembly language: a typed, PTX-flavoured ISA that a person can read and write.
//! This crate knows nothing of simulation. It provides
//!
//! - [`parse`]: text → [`Program`], with spans on everything, `.include`, `.macro`, and rustc-style
//!   [`Diagnostic`]s (file:line:col, the line with a caret, a hint);
//! - [`print`]: [`Program`] → canonical text that parses back to an equivalent program;
//! - [`cfg::analyse`]: basic blocks and the reconvergence point (immediate post-dominator) of every branch;
//! - [`ptx::parse`]: PTX text (as nvcc and Numba emit it) → a PTX syntax tree with spans ([`ptx::Module`]).
//!
//! ```
//! use warpsim_isa::{parse, FsResolver};
//! let src = ".reg %v\n    mov.u32 %v, %laneid\n    shfl.sync.bfly.b32 %v, %v, 1\n";
//! let program = parse("pair.s", src, &FsResolver).unwrap();
//! assert_eq!(program.instructions.len(), 2);
//! assert_eq!(warpsim_isa::print::instruction(&program, &program.instructions[1]),
//!            "shfl.sync.bfly.b32 %v, %v, 1");
//! ```
//!
//! The language is documented in `docs/ISA.md` at the repository root.

pub mod address;
pub mod ast;
pub mod cfg;
pub mod diagnostic;
pub mod expr;
pub mod lexer;
pub mod parser;
pub mod ptx;
pub mod print {
    //! Printing programs and instructions.
    pub use crate::printer::{binary_name, instruction, op, print};
}
mod printer;
pub mod source;

pub use ast::*;
pub use diagnostic::{Diagnostic, Severity};
pub use expr::{ConstExpr, EvalError, Value};
pub use parser::{
    AssembleError, FsResolver, IncludeResolver, MAX_SOURCE_BYTES, decode_source, parse, parse_file, read_source,
};
pub use printer::print;
pub use source::{FileId, Location, SourceFile, SourceMap, Span};
