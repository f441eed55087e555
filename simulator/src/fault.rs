//! Runtime faults in a simulated program: what went wrong, and exactly where (block, warp, lane, pc, the
//! instruction and its source line).

use crate::kernel::Kernel;
use warpsim_isa::Diagnostic;

#[derive(Clone, Debug, PartialEq)]
pub enum FaultKind {
    OutOfBounds {
        buffer: String,
        index: i64,
        len: usize,
        store: bool,
    },
    Misaligned {
        buffer: String,
        byte_offset: i64,
        store: bool,
    },
    DivideByZero,
    CycleLimit {
        limit: u64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    pub kind: FaultKind,
    pub cycle: u64,
    pub block: u32,
    pub warp: u32,
    /// The first faulting lane.
    pub lane: Option<u32>,
    pub pc: u32,
}

impl Fault {
    pub fn message(&self) -> String {
        match &self.kind {
            FaultKind::OutOfBounds {
                buffer,
                index,
                len,
                store,
            } => format!(
                "out-of-bounds {} `{buffer}`: element {index}, but `{buffer}` has {len} elements (0..{len})",
                if *store { "store to" } else { "load from" }
            ),
            FaultKind::Misaligned {
                buffer,
                byte_offset,
                store,
            } => format!(
                "misaligned {} `{buffer}`: byte offset {byte_offset} is not a multiple of 4",
                if *store { "store to" } else { "load from" }
            ),
            FaultKind::DivideByZero => "integer division by zero".to_string(),
            FaultKind::CycleLimit { limit } => format!("the run passed the cycle limit ({limit} cycles)"),
        }
    }

    /// A rustc-style report pointing at the instruction.
    pub fn render(&self, kernel: &Kernel, color: bool) -> String {
        let inst = &kernel.program.instructions[self.pc as usize];
        let lane = self.lane.map(|l| format!(", lane {l}")).unwrap_or_default();
        let thread = self
            .lane
            .map(|l| format!(" (thread {})", self.warp * kernel.warp_size + l))
            .unwrap_or_default();
        let mut d = Diagnostic::error(inst.span, self.message())
            .with_label("faulting instruction")
            .with_note(
                format!(
                    "in block {}, warp {}{lane}{thread}, pc {}, cycle {}: `{}`",
                    self.block, self.warp, self.pc, self.cycle, inst.text
                ),
                None,
            );
        if let Some(call) = inst.expanded_from {
            d = d.with_note("in this macro invocation", Some(call));
        }
        d = match &self.kind {
            FaultKind::CycleLimit { .. } => d.with_help("an endless loop? raise the limit with `--max-cycles N`"),
            FaultKind::OutOfBounds { .. } => d.with_help("check the index computation, or enlarge the buffer"),
            FaultKind::Misaligned { .. } => d.with_help("byte addresses of 32-bit elements are multiples of 4"),
            FaultKind::DivideByZero => d.with_help("guard the division with a predicate"),
        };
        d.render(&kernel.program.sources, color)
    }
}
