//! PTX, as nvcc and Numba emit it: a lexer and parser of PTX ISA text (7.x–9.x) into a syntax tree with spans
//! ([`Module`]). This module only reads the text: it resolves no name and interprets no qualifier; lowering
//! PTX to warpsim's program representation is a later pass. What it accepts is described in `docs/ptx.md`
//! ("Parsing").
//!
//! ```
//! use warpsim_isa::ptx::{self, OperandKind};
//! let text = ".version 9.5\n.target sm_90\n.address_size 64\n\
//!             .visible .entry k(.param .u64 k_param_0)\n{\n.reg .b32 %r<2>;\n\
//!             mov.u32 %r1, %tid.x;\nret;\n}\n";
//! let (module, _sources) = ptx::parse("k.ptx", text).unwrap();
//! let k = module.entries().next().unwrap();
//! assert_eq!(k.name.name, "k");
//! let body = k.body.as_ref().unwrap().instructions();
//! assert_eq!(body[0].opcode, "mov");
//! assert_eq!(body[0].qualifiers, ["u32"]);
//! assert!(matches!(&body[0].operands[1].kind, OperandKind::Name(n) if n.name == "%tid.x"));
//! ```

mod ast;
mod contract;
pub mod debug;
pub mod entry;
mod lexer;
mod lower;
mod parser;

pub use ast::*;
pub use entry::{Entry, describe, find, source_beside};
pub use lower::{Bindings, ParamValue, SUBSET_DOC, lower, placeholder_bindings};
pub use parser::MAX_DEPTH;

use crate::diagnostic::Diagnostic;
use crate::parser::AssembleError;
use crate::source::{FileId, SourceFile, SourceMap};

/// Parse the PTX text of file `file` of `sources`. The first syntax error is returned as a [`Diagnostic`]
/// (file, line and column through `sources`, what was expected and found, a hint).
pub fn parse_source(sources: &SourceMap, file: FileId) -> Result<Module, Diagnostic> {
    parser::Parser::new(file, &sources.file(file).text).module()
}

/// Parse PTX text named `name` (the name diagnostics show). Returns the module and the source map its spans
/// point into, or the error with the source map it is rendered against.
pub fn parse(name: &str, text: &str) -> Result<(Module, SourceMap), AssembleError> {
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new(name, text));
    match parse_source(&sources, file) {
        Ok(module) => Ok((module, sources)),
        Err(d) => Err(AssembleError {
            diagnostics: vec![d],
            sources,
        }),
    }
}
