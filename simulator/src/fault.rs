//! Runtime faults in a simulated program: what went wrong, and exactly where (block, warp, lane, pc, the
//! instruction and its source line).

use crate::kernel::Kernel;
use std::fmt::Write;
use warpsim_isa::Diagnostic;

#[derive(Clone, Debug, PartialEq)]
pub enum FaultKind {
    /// `shared`: the array is in the block's shared memory (else a global buffer).
    OutOfBounds {
        buffer: String,
        shared: bool,
        index: i64,
        len: usize,
        store: bool,
    },
    Misaligned {
        buffer: String,
        shared: bool,
        byte_offset: i64,
        /// The access's size in bytes: 1, 2, 4 or 8.
        width: u32,
        store: bool,
    },
    /// A flat global or generic access whose address lies in no buffer (and, generic, in neither the shared
    /// nor the local window); 0 is a null pointer.
    NoBuffer {
        address: u64,
        generic: bool,
        store: bool,
    },
    /// A flat shared or local access outside the block's shared memory or the thread's local memory (`size`
    /// bytes), or not aligned to its `width` (4 or 8 bytes); `array`: the shared array that holds the address.
    Window {
        local: bool,
        offset: u64,
        width: u32,
        size: u64,
        misaligned: bool,
        array: Option<String>,
        store: bool,
    },
    /// The lanes of one flat access reach different buffers or state spaces (`first` and `other`: the lanes'
    /// places, as `buffer `out``, `shared memory`, `local memory`).
    MixedSpaces {
        first: String,
        other: String,
        first_lane: u32,
    },
    /// A generic atomic on local memory (PTX defines atomics on global and shared memory only).
    LocalAtomic,
    DivideByZero,
    CycleLimit {
        limit: u64,
    },
    /// The run was still going after `--timeout` of wall-clock time (host time: where it stops depends on the
    /// host, unlike every other fault).
    Timeout {
        limit: std::time::Duration,
    },
    /// The run issued more warp instructions than `--max-instructions`.
    InstructionLimit {
        limit: u64,
        issued: u64,
    },
    /// Only part of a warp reached a barrier.
    BarrierDivergence {
        arrived: u64,
        missing: u64,
    },
    /// `bar.warp.sync` named lanes that are not converged here.
    WarpSyncDivergence {
        missing: u64,
    },
    /// A barrier id outside 0..16 or a thread count that is not a positive multiple of the warp size.
    BadBarrier {
        what: String,
    },
    /// ITS: every path of a warp waits at a warp-synchronous instruction for lanes that can never arrive
    /// (`paths`: each path's pc and lanes; `missing`: the lanes named in the waiting masks that are not
    /// waiting with them). `pc` of the fault is the last path to wait.
    WarpSyncDeadlock {
        paths: Vec<(u32, u64)>,
        missing: u64,
    },
    /// ITS: lanes named in a member mask wait at another warp-synchronous instruction (at `other_pc`) that is
    /// not the same operation with the same qualifiers and member mask: PTX pairs nothing else.
    WarpSyncAcrossPaths {
        other_pc: u32,
        lanes: u64,
    },
    /// No warp can ever proceed.
    Deadlock {
        waiting: Vec<WaitingWarp>,
    },
    /// CUDA's `assert` failed (`__assertfail`).
    Assertion(Box<AssertionFailure>),
}

/// A failed `assert`: its condition's text, the source file and line, the function, as the program gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssertionFailure {
    pub message: String,
    pub file: String,
    pub line: u32,
    pub function: String,
}

/// A warp stuck at a barrier, for a deadlock report.
#[derive(Clone, Debug, PartialEq)]
pub struct WaitingWarp {
    pub block: u32,
    pub warp: u32,
    pub pc: u32,
    pub barrier: u32,
    pub arrived: u32,
    pub expected: u32,
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
    /// What the sanitizers found before the fault ([`crate::RunOptions::checks`]).
    pub findings: Vec<crate::check::Finding>,
}

impl Fault {
    pub fn message(&self) -> String {
        match &self.kind {
            FaultKind::OutOfBounds {
                buffer,
                shared,
                index,
                len,
                store,
            } => format!(
                "out-of-bounds {} {}`{buffer}`: element {index}, but `{buffer}` has {len} element{} (0..{len})",
                if *store { "store to" } else { "load from" },
                if *shared { "shared array " } else { "" },
                if *len == 1 { "" } else { "s" }
            ),
            FaultKind::Misaligned {
                buffer,
                shared,
                byte_offset,
                width,
                store,
            } => format!(
                "misaligned {} {}`{buffer}`: byte offset {byte_offset} is not a multiple of {width}",
                if *store { "store to" } else { "load from" },
                if *shared { "shared array " } else { "" },
            ),
            FaultKind::NoBuffer {
                address,
                generic,
                store,
            } => format!(
                "{} address {address:#018x}{}: it is in no buffer{}",
                if *store { "store to" } else { "load from" },
                if *address == 0 { " (a null pointer)" } else { "" },
                if *generic {
                    ", nor in the shared or the local window"
                } else {
                    ""
                }
            ),
            FaultKind::Window {
                local,
                offset,
                width,
                size,
                misaligned,
                array,
                store,
            } => {
                let what = if *local {
                    "the thread's local memory"
                } else {
                    "the block's shared memory"
                };
                let dir = if *store { "store to" } else { "load from" };
                let space = if *local { "local" } else { "shared" };
                let array = array
                    .as_ref()
                    .map(|a| format!(" (in shared array `{a}`)"))
                    .unwrap_or_default();
                if *misaligned {
                    format!("misaligned {dir} {space} memory: byte offset {offset}{array} is not a multiple of {width}")
                } else {
                    format!(
                        "out-of-bounds {dir} {space} memory: bytes {offset}..{}, but {what} has {size} byte{}",
                        offset.saturating_add(u64::from(*width)),
                        if *size == 1 { "" } else { "s" }
                    )
                }
            }
            FaultKind::MixedSpaces {
                first,
                other,
                first_lane,
            } => format!(
                "the lanes of one access reach different buffers or state spaces (lane {first_lane}: {first}; this lane: {other}): not supported"
            ),
            FaultKind::LocalAtomic => {
                "atomic on local memory: PTX defines atomics on global and shared memory only".to_string()
            }
            FaultKind::DivideByZero => "integer division by zero".to_string(),
            FaultKind::Assertion(a) => format!(
                "{}:{}: {}: Assertion `{}` failed.",
                a.file, a.line, a.function, a.message
            ),
            FaultKind::CycleLimit { limit } => format!("the run passed the cycle limit ({limit} cycles)"),
            FaultKind::Timeout { limit } => format!(
                "the run passed the time limit ({} s of wall-clock time) at cycle {}; this warp issued the most lately",
                seconds(*limit),
                self.cycle
            ),
            FaultKind::InstructionLimit { limit, issued } => format!(
                "the run passed the instruction limit ({limit} warp instructions): {issued} issued; this warp issued the most"
            ),
            FaultKind::BarrierDivergence { arrived, missing } => format!(
                "barrier divergence: {} of the warp reached the barrier but {} did not",
                lanes(*arrived),
                lanes(*missing)
            ),
            FaultKind::WarpSyncDivergence { missing } => {
                format!(
                    "bar.warp.sync: {} named in the mask are not converged here",
                    lanes(*missing)
                )
            }
            FaultKind::BadBarrier { what } => what.clone(),
            FaultKind::WarpSyncDeadlock { paths, missing } => {
                let mut m = format!(
                    "warp-synchronous deadlock: every path of the warp waits, and {} named in their member masks never arrive:",
                    lanes(*missing)
                );
                for (pc, l) in paths {
                    let _ = write!(m, "\n  {} wait at pc {pc}", lanes(*l));
                }
                m
            }
            FaultKind::WarpSyncAcrossPaths { other_pc, lanes: l } => format!(
                "independent thread scheduling: {} wait at pc {other_pc}, a warp-synchronous instruction that is not the same operation with the same qualifiers and member mask: they can never meet",
                lanes(*l)
            ),
            FaultKind::Deadlock { waiting } => {
                let mut m = if waiting.len() == 1 {
                    "deadlock: no warp can proceed; 1 warp waits at a barrier:".to_string()
                } else {
                    format!(
                        "deadlock: no warp can proceed; {} warps wait at barriers:",
                        waiting.len()
                    )
                };
                for w in waiting {
                    let _ = write!(
                        m,
                        "\n  block {}, warp {}, pc {}: waits at barrier {} ({} of {} warp{} arrived)",
                        w.block,
                        w.warp,
                        w.pc,
                        w.barrier,
                        w.arrived,
                        w.expected,
                        if w.expected == 1 { "" } else { "s" }
                    );
                }
                m
            }
        }
    }

    /// What the sanitizers found before the fault, each rendered, then the fault: the whole report of a run that
    /// faulted, for a front end that prints it as one error.
    pub fn report(&self, kernel: &Kernel, color: bool) -> String {
        let mut out = String::new();
        for f in &self.findings {
            out.push_str(&f.render(kernel, color));
            out.push('\n');
        }
        out.push_str(&self.render(kernel, color));
        out
    }

    /// A rustc-style report pointing at the instruction.
    pub fn render(&self, kernel: &Kernel, color: bool) -> String {
        let Some(inst) = kernel.program.instructions.get(self.pc as usize) else {
            // No instruction to point at (an empty program): one line.
            return format!(
                "error: {} (block {}, warp {}, cycle {})\n",
                self.message(),
                self.block,
                self.warp,
                self.cycle
            );
        };
        let lane = self.lane.map(|l| format!(", lane {l}")).unwrap_or_default();
        let thread = self
            .lane
            .map(|l| format!(" (thread {})", kernel.thread_name(self.warp, l)))
            .unwrap_or_default();
        let mut d = Diagnostic::error(inst.span, self.message())
            .with_label("faulting instruction")
            .with_note(
                format!(
                    "in block {}, warp {}{lane}{thread}, pc {}, cycle {}: `{}`",
                    kernel.block_name(self.block),
                    self.warp,
                    self.pc,
                    self.cycle,
                    inst.text
                ),
                None,
            );
        if let Some(call) = inst.expanded_from {
            d = d.with_note("in this macro invocation", Some(call));
        }
        if let Some(o) = &inst.origin {
            d = d.with_note(format!("compiled from {}", o.short()), o.span);
        }
        d = match &self.kind {
            FaultKind::CycleLimit { .. } => d
                .with_note(LATELY, None)
                .with_help("an endless loop? raise the limit with `--max-cycles N`"),
            FaultKind::Timeout { .. } => d.with_note(LATELY, None).with_help(
                "an endless loop? or a long run: raise the limit with `--timeout SECONDS` (`--timeout none`: no limit)",
            ),
            FaultKind::InstructionLimit { .. } => d
                .with_note(LATELY, None)
                .with_help("an endless loop? raise the limit with `--max-instructions N`"),
            FaultKind::OutOfBounds { shared: false, .. } => {
                d.with_help("check the index computation, or enlarge the buffer")
            }
            FaultKind::OutOfBounds { shared: true, .. } => d.with_help(
                "check the index computation, or enlarge the array (a dynamic `[]` array is sized by --dynamic-shared)",
            ),
            FaultKind::Misaligned { .. } => d.with_help("byte addresses are multiples of the access size: 4 bytes, 8 for a 64-bit access, 2 for a 16-bit one"),
            FaultKind::NoBuffer { .. } => d.with_help(
                "a global address is a buffer's address (`mov.b64 %rd, BUF`) plus a byte offset in it; check the pointer arithmetic",
            ),
            FaultKind::Window { local: false, .. } => d.with_help(
                "a shared address is a byte offset in the block's shared memory (`mov.u32 %r, ARRAY` gives an array's), aligned to the access size",
            ),
            FaultKind::Window { local: true, .. } => d.with_help(
                "a local address is a byte offset below the program's `.local BYTES`, aligned to the access size",
            ),
            FaultKind::MixedSpaces { .. } => d.with_help(
                "split the access so that all the lanes of one instruction use one buffer or state space",
            ),
            FaultKind::LocalAtomic => d.with_help("keep atomics' addresses in global or shared memory"),
            FaultKind::DivideByZero => d.with_help("guard the division with a predicate"),
            FaultKind::Assertion(_) => d.with_help(
                "the kernel's `assert` failed on this thread; on a GPU the launch fails with cudaErrorAssert (\"device-side assert triggered\")",
            ),
            FaultKind::BarrierDivergence { .. } => d.with_help(
                "every non-exited thread of a warp must reach a block barrier together: move it out of the divergent branch",
            ),
            FaultKind::WarpSyncDivergence { .. } => {
                d.with_help("name only the lanes that execute this instruction together in the mask")
            }
            FaultKind::WarpSyncDeadlock { .. } => d.with_help(
                "every non-exited lane named in a member mask must reach a warp-synchronous instruction: name only the lanes that get there (`activemask.b32`)",
            ),
            FaultKind::WarpSyncAcrossPaths { .. } => {
                d.with_help("lanes meet at `shfl`, `vote` or `match` instructions of one kind (same mode) naming one member mask, or at `bar.warp.sync`s")
            }
            FaultKind::BadBarrier { .. } => {
                d.with_help("barrier ids are 0 to 15; a thread count is a positive multiple of the warp size")
            }
            FaultKind::Deadlock { .. } => d.with_help(
                "every waiting warp needs the others to arrive at the same barrier id: check that all warps reach the same barriers",
            ),
        };
        d.render(&kernel.program.sources, color)
    }
}

/// Which warp a cycle limit or time limit names.
const LATELY: &str = "this warp issued the most instructions lately (in the last two epochs, then in all): the likeliest to be in an endless loop";

/// A duration in seconds, as short as exact: `60`, `0.5`, `0.001`.
fn seconds(d: std::time::Duration) -> String {
    let s = format!("{:.9}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `lanes 0-3,8` style list of lanes.
pub fn lanes(mask: u64) -> String {
    let mut parts = Vec::new();
    let mut l = 0u32;
    while l < 64 {
        if mask >> l & 1 == 1 {
            let start = l;
            while l + 1 < 64 && mask >> (l + 1) & 1 == 1 {
                l += 1;
            }
            parts.push(if start == l {
                format!("{l}")
            } else {
                format!("{start}-{l}")
            });
        }
        l += 1;
    }
    if parts.is_empty() {
        "no lanes".into()
    } else {
        format!("lanes {}", parts.join(","))
    }
}
