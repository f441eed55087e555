//! Debug builds (`.target sm_XX, debug`, what `nvcc -G` emits): ptxas compiles them without optimising, each PTX
//! instruction into a few SASS instructions (the operation, and moves of its operands and result to where a
//! debugger finds them). [`class`] sorts a PTX instruction by that code; `timing.debug_build` holds each class's
//! count (docs/timing.md, "Debug builds").

use super::{Instruction, OperandKind};
use crate::ast::DebugClass;

/// Special registers a `mov` may read (`mov.u32 %r1, %tid.x`): ptxas reads them with `S2R`.
fn special(name: &str) -> bool {
    name.starts_with('%')
        && [
            "%tid",
            "%ntid",
            "%ctaid",
            "%nctaid",
            "%laneid",
            "%warpid",
            "%nwarpid",
            "%smid",
            "%nsmid",
            "%clock",
            "%globaltimer",
            "%lanemask",
            "%dynamic_smem_size",
            "%total_smem_size",
            "%gridid",
            "%envreg",
        ]
        .iter()
        .any(|s| name.starts_with(s))
}

/// The class of PTX instruction `i` (qualifiers `q`) of a debug build; `kernel_param` says that an `ld.param`
/// reads a kernel's parameter rather than a call sequence's.
pub fn class(i: &Instruction, q: &[&str], kernel_param: bool) -> DebugClass {
    let wide = q.iter().any(|t| matches!(*t, "s64" | "u64" | "b64" | "f64"));
    let float = |t: &str| q.contains(&t);
    match i.opcode.as_str() {
        "ld" | "st" if q.contains(&"param") => {
            if kernel_param {
                DebugClass::ParamEntry
            } else {
                DebugClass::ParamCall
            }
        }
        "ld" | "ldu" => DebugClass::Load,
        "st" => DebugClass::Store,
        "mov" => match i.operands.last().map(|o| &o.kind) {
            Some(OperandKind::Name(n)) if special(&n.name) => DebugClass::MovSpecial,
            Some(OperandKind::Name(n)) if !n.name.starts_with('%') => DebugClass::MovSymbol,
            Some(OperandKind::Offset(..)) => DebugClass::MovSymbol,
            _ if wide => DebugClass::Mov64,
            _ => DebugClass::Mov,
        },
        "cvt" if wide => DebugClass::Cvt64,
        "cvt" => DebugClass::Cvt,
        "cvta" => DebugClass::Cvta,
        "div" | "rem" | "sqrt" | "rcp" if float("f64") && !float("approx") => DebugClass::DoubleDiv,
        "div" | "sqrt" | "rcp" if float("f32") && !float("approx") && !float("full") => DebugClass::FloatDiv,
        "div" | "rem" if !float("f32") && !float("f64") => {
            if wide {
                DebugClass::IntDiv64
            } else {
                DebugClass::IntDiv
            }
        }
        "mul" if wide && q.contains(&"lo") => DebugClass::Mul64,
        "bra" | "brx" => DebugClass::Branch,
        "shfl" | "vote" | "match" | "redux" => DebugClass::Warp,
        "activemask" => DebugClass::Mov,
        "atom" | "red" => DebugClass::Atomic,
        "bar" | "barrier" | "membar" | "fence" => DebugClass::Barrier,
        "call" => DebugClass::Call,
        "ret" | "exit" => DebugClass::Ret,
        _ if wide => DebugClass::Alu64,
        _ => DebugClass::Alu,
    }
}
