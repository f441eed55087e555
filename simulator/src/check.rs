//! Sanitizers for simulated programs (`sim run --check race,init,shfl,sync`), in the spirit of NVIDIA's
//! compute-sanitizer, but on the model, so they see every access and every lane:
//!
//! - **race**: shared- and global-memory hazards (read after write, write after read, write after write)
//!   between two threads that nothing orders. Within a block, threads of different warps are ordered by a
//!   barrier both take part in (a vector clock per warp, joined at every barrier release); lanes of one warp by
//!   executing together (converged: one lane was active when the other accessed), or by a reconvergence,
//!   `bar.warp.sync` or barrier whose lanes include both since the first access. Threads of different blocks
//!   are ordered by nothing within a kernel (no grid-wide barrier), so two accesses of theirs to one global word
//!   race if either writes ([`GlobalCheck`], at each epoch's commit). An atomic is a write; atomics never race
//!   with atomics. A thread never races with itself. Each record keeps the bytes of the word it reached, so 8- and
//!   16-bit accesses to different bytes of one word do not conflict.
//! - **init**: reads of registers, predicates or shared-memory words that no instruction wrote (warpsim zeroes
//!   them; a GPU does not).
//! - **shfl**: shuffles that read an inactive lane or a lane outside the member mask (undefined in PTX).
//! - **sync**: the member masks of warp-synchronous instructions (`shfl.sync`, `vote.sync`, `match.sync`,
//!   `bar.warp.sync`): an executing lane outside its own mask, lanes naming different masks (both undefined in
//!   PTX), and a mask naming lanes that do not execute the instruction (diverged or guarded off, not exited: on
//!   sm_70 and later the executing lanes would wait for them).
//!
//! A finding does not stop the run: each distinct one (by kind and instructions) is reported once, with the
//! first occurrence in (cycle, SM) order and a count, so the report is the same for every host thread count.
//! Checking costs nothing when it is off beyond one test per issued instruction.

use crate::fault::lanes;
use crate::kernel::Kernel;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use warpsim_isa::Diagnostic;

/// Which sanitizers run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "one switch per sanitizer, each independent (`--check race,sync`)"
)]
pub struct Checks {
    pub race: bool,
    pub init: bool,
    pub shfl: bool,
    pub sync: bool,
}

impl Checks {
    pub const NAMES: [&'static str; 4] = ["race", "init", "shfl", "sync"];

    pub fn all() -> Checks {
        Checks {
            race: true,
            init: true,
            shfl: true,
            sync: true,
        }
    }

    pub fn any(&self) -> bool {
        self.race || self.init || self.shfl || self.sync
    }

    /// `race,init`, `all`: the names of the checks, comma-separated.
    pub fn parse(text: &str) -> Result<Checks, String> {
        Checks::parse_words(text, false).map(|(c, _)| c)
    }

    /// `sim run --check`'s words: the checks, and `scheduling`, whether to run the kernel under both warp
    /// schedulings and compare the results ([`crate::Machine::scheduling_difference`]); `all` is every one.
    pub fn parse_with_scheduling(text: &str) -> Result<(Checks, bool), String> {
        Checks::parse_words(text, true)
    }

    fn parse_words(text: &str, with_scheduling: bool) -> Result<(Checks, bool), String> {
        let (mut c, mut scheduling) = (Checks::default(), false);
        for word in text.split(',').map(str::trim) {
            match word {
                "race" => c.race = true,
                "init" => c.init = true,
                "shfl" => c.shfl = true,
                "sync" => c.sync = true,
                "scheduling" if with_scheduling => scheduling = true,
                "all" => (c, scheduling) = (Checks::all(), with_scheduling),
                _ => {
                    let extra: &[&str] = if with_scheduling {
                        &["scheduling", "all"]
                    } else {
                        &["all"]
                    };
                    let hint = warpsim_isa::diagnostic::closest(word, Checks::NAMES.iter().chain(extra).copied())
                        .map(|s| format!("did you mean `{s}`? "))
                        .unwrap_or_default();
                    let names = if with_scheduling { "sync, scheduling" } else { "sync" };
                    return Err(format!(
                        "unknown check `{word}`: {hint}the checks are race, init, shfl, {names} (or all), comma-separated"
                    ));
                }
            }
        }
        Ok((c, scheduling))
    }

    /// The names of the checks that run, comma-separated.
    pub fn names(&self) -> String {
        let on = [self.race, self.init, self.shfl, self.sync];
        Checks::NAMES
            .iter()
            .zip(on)
            .filter(|(_, on)| *on)
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The three hazards (shared or global memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hazard {
    ReadAfterWrite,
    WriteAfterRead,
    WriteAfterWrite,
}

impl Hazard {
    pub fn name(self) -> &'static str {
        match self {
            Hazard::ReadAfterWrite => "read-after-write",
            Hazard::WriteAfterRead => "write-after-read",
            Hazard::WriteAfterWrite => "write-after-write",
        }
    }
}

/// How a thread touched a shared word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Read,
    Write,
    Atomic,
}

impl AccessKind {
    fn verb(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "wrote",
            AccessKind::Atomic => "updated (atomically)",
        }
    }
}

/// One side of a race: which thread, which instruction, when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub block: u32,
    pub warp: u32,
    pub lane: u32,
    pub pc: u32,
    pub cycle: u64,
    pub kind: AccessKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FindingKind {
    /// Two unordered accesses to word `array[index]`, at least one a write (an atomic is a write; two atomics
    /// never race): of a block's shared memory, or of global memory (`global`: `array` is the buffer), by
    /// threads of one block or of two.
    Race {
        hazard: Hazard,
        array: String,
        index: usize,
        global: bool,
        first: Access,
        second: Access,
    },
    /// `lanes` read register `reg`, which they never wrote.
    UninitRegister { reg: String, lanes: u64 },
    /// `lanes` read predicate `pred`, which they never wrote.
    UninitPredicate { pred: String, lanes: u64 },
    /// `lanes` read shared words no thread of the block wrote; `index` is the first lane's element.
    UninitShared { array: String, index: usize, lanes: u64 },
    /// `lanes` read a lane that does not take part: `source` is the first lane's source lane.
    UndefinedShuffle {
        lanes: u64,
        lane: u32,
        source: u32,
        reason: ShuffleReason,
    },
    /// The member mask of a warp-synchronous instruction is wrong in `lanes`; `lane` is the first of them.
    MemberMask { lanes: u64, lane: u32, reason: MaskReason },
}

/// What is wrong with a member mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskReason {
    /// The executing lanes are not in the mask they name (undefined in PTX).
    NotMember,
    /// The lanes name a mask (`mask`) other than the first executing lane's (`first`, naming `first_mask`):
    /// undefined in PTX, which requires one mask.
    Differ { first: u32, first_mask: u64, mask: u64 },
    /// The mask names the lanes, which have not exited but do not execute the instruction (on another path, or
    /// guarded off): on sm_70 and later the executing lanes would wait for them, where warpsim's lockstep model
    /// goes on without them.
    Absent,
}

/// Why a shuffle's read is undefined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShuffleReason {
    /// The reading lane is not in the member mask.
    ReaderNotMember,
    /// The source lane does not execute the shuffle (inactive, or predicated off).
    SourceInactive,
    /// The source lane executes it but is not in the member mask.
    SourceNotMember,
}

/// One finding: the first occurrence, where it happened, and how many times it happened in all.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub kind: FindingKind,
    pub cycle: u64,
    pub sm: u32,
    pub block: u32,
    pub warp: u32,
    pub lane: Option<u32>,
    pub pc: u32,
    /// Occurrences (lanes or lane pairs) of this finding over the run.
    pub count: u64,
}

/// What makes two findings the same: their kind and instructions.
type Key = (u8, u32, u32, u32);

impl Finding {
    fn key(&self) -> Key {
        match &self.kind {
            FindingKind::Race {
                hazard, first, second, ..
            } => (*hazard as u8, first.pc, second.pc, 0),
            FindingKind::UninitRegister { .. } => (3, self.pc, 0, 0),
            FindingKind::UninitPredicate { .. } => (4, self.pc, 0, 0),
            FindingKind::UninitShared { .. } => (5, self.pc, 0, 0),
            FindingKind::UndefinedShuffle { .. } => (6, self.pc, 0, 0),
            FindingKind::MemberMask { reason, .. } => (
                7,
                self.pc,
                match reason {
                    MaskReason::NotMember => 0,
                    MaskReason::Differ { .. } => 1,
                    MaskReason::Absent => 2,
                },
                0,
            ),
        }
    }

    /// Which check found it.
    pub fn check(&self) -> &'static str {
        match self.kind {
            FindingKind::Race { .. } => "race",
            FindingKind::UninitRegister { .. }
            | FindingKind::UninitPredicate { .. }
            | FindingKind::UninitShared { .. } => "init",
            FindingKind::UndefinedShuffle { .. } => "shfl",
            FindingKind::MemberMask { .. } => "sync",
        }
    }

    /// One line saying what was found.
    pub fn message(&self) -> String {
        match &self.kind {
            FindingKind::Race {
                hazard,
                array,
                index,
                global,
                first,
                second,
            } => format!(
                "data race on {} memory: {} hazard on `{array}[{index}]` between threads {}",
                if *global { "global" } else { "shared" },
                hazard.name(),
                if first.block == second.block {
                    "no barrier orders"
                } else {
                    "of different blocks (nothing orders blocks within a kernel)"
                }
            ),
            FindingKind::UninitRegister { reg, lanes: l } => {
                format!("read of uninitialised register `%{reg}` ({} never wrote it)", lanes(*l))
            }
            FindingKind::UninitPredicate { pred, lanes: l } => {
                format!(
                    "read of uninitialised predicate `%{pred}` ({} never wrote it)",
                    lanes(*l)
                )
            }
            FindingKind::UninitShared { array, index, lanes: l } => format!(
                "read of uninitialised shared memory `{array}[{index}]` (by {}; no thread of the block wrote it)",
                lanes(*l)
            ),
            FindingKind::UndefinedShuffle {
                lanes: l,
                lane,
                source,
                reason,
            } => {
                let why = match reason {
                    ShuffleReason::ReaderNotMember => {
                        format!("lane {lane} executes the shuffle but is not in its member mask")
                    }
                    ShuffleReason::SourceInactive => {
                        format!("lane {lane} reads lane {source}, which does not execute it")
                    }
                    ShuffleReason::SourceNotMember => {
                        format!("lane {lane} reads lane {source}, which is not in the member mask")
                    }
                };
                format!("undefined shuffle read: {why} ({} in all)", lanes(*l))
            }
            FindingKind::MemberMask { lanes: l, lane, reason } => match reason {
                MaskReason::NotMember => format!(
                    "member mask: lane {lane} executes a warp-synchronous instruction but is not in the member mask it names ({} in all; undefined in PTX)",
                    lanes(*l)
                ),
                MaskReason::Differ {
                    first,
                    first_mask,
                    mask,
                } => format!(
                    "member mask: lane {lane} names {mask:#x} but lane {first} names {first_mask:#x} ({} differ; PTX requires every lane to name the same mask)",
                    lanes(*l)
                ),
                MaskReason::Absent => format!(
                    "member mask: it names {} that do not execute the instruction (on another path or guarded off): on sm_70 and later the lanes that execute it would wait for them",
                    lanes(*l)
                ),
            },
        }
    }

    /// A rustc-style report pointing at the instruction (for a race, the second access, with the first in a
    /// note).
    pub fn render(&self, kernel: &Kernel, color: bool) -> String {
        let code = &kernel.program.instructions;
        let Some(inst) = code.get(self.pc as usize) else {
            return format!("error: {}\n", self.message());
        };
        let thread = |warp: u32, lane: u32| kernel.thread_name(warp, lane);
        let times = if self.count > 1 {
            format!(" ({} times in all)", self.count)
        } else {
            String::new()
        };
        let mut d = Diagnostic::error(inst.span, self.message());
        match &self.kind {
            FindingKind::Race {
                first,
                second,
                array,
                index,
                global,
                ..
            } => {
                let label = format!("{} by warp {}, lane {}", second.kind.verb(), second.warp, second.lane);
                d = d.with_label(label);
                if *global {
                    d = d.with_note(
                        format!(
                            "address: `{array}[{index}]` is byte {} of global buffer `{array}`",
                            index * 4
                        ),
                        None,
                    );
                } else if let Some(byte) = shared_byte(kernel, array, *index) {
                    d = d.with_note(
                        format!("address: `{array}[{index}]` is byte {byte} of the block's shared memory"),
                        None,
                    );
                }
                // "warp 1, lane 0 (thread 32) wrote it at cycle 530, pc 11: `st.shared …`"
                let side = |a: &Access, text: &str| {
                    format!(
                        "block {}, warp {}, lane {} (thread {}) {} it at cycle {}, pc {}: `{text}`",
                        kernel.block_name(a.block),
                        a.warp,
                        a.lane,
                        thread(a.warp, a.lane),
                        a.kind.verb(),
                        a.cycle,
                        a.pc,
                    )
                };
                if let Some(other) = code.get(first.pc as usize) {
                    d = d.with_note(format!("first: {}", side(first, &other.text)), Some(other.span));
                }
                d = d
                    .with_note(format!("then: {}{times}", side(second, &inst.text)), None)
                    .with_help(if first.block != second.block {
                        "blocks run in no set order and cannot wait for each other within a kernel: give each block its own words, or update shared totals with atomics only (`atom.global.add`)"
                    } else if first.warp != second.warp {
                        "order the two accesses with a barrier both warps reach between them (`bar.sync 0`)"
                    } else {
                        "the lanes are on different paths of a branch: let them reconverge, or order them with `bar.warp.sync` between the accesses"
                    });
            }
            _ => {
                let lane = self.lane.map(|l| format!(", lane {l}")).unwrap_or_default();
                let th = self
                    .lane
                    .map(|l| format!(" (thread {})", thread(self.warp, l)))
                    .unwrap_or_default();
                d = d.with_label(self.check_label()).with_note(
                    format!(
                        "first in block {}, warp {}{lane}{th}, pc {}, cycle {}: `{}`{times}",
                        kernel.block_name(self.block),
                        self.warp,
                        self.pc,
                        self.cycle,
                        inst.text
                    ),
                    None,
                );
                d = d.with_help(match &self.kind {
                    FindingKind::UninitRegister { .. } | FindingKind::UninitPredicate { .. } => {
                        "write it on every path before it is read (warpsim starts registers at 0; a GPU does not)"
                    }
                    FindingKind::UninitShared { .. } => {
                        "store to it (or zero it) before the read, with a barrier between if another warp stores (warpsim starts shared memory at 0; a GPU does not)"
                    }
                    FindingKind::MemberMask {
                        reason: MaskReason::Absent,
                        ..
                    } => {
                        "name only the lanes that reach this instruction (`activemask.b32 %m` gives those that execute it), or run with `--scheduling its`, where they wait for each other"
                    }
                    FindingKind::MemberMask { .. } => {
                        "every lane that executes a warp-synchronous instruction must name the same mask, with its own lane in it"
                    }
                    _ => {
                        "on hardware such a read returns an undefined value: name exactly the lanes that execute the shuffle in its member mask, and read only from them"
                    }
                });
            }
        }
        if let Some(call) = inst.expanded_from {
            d = d.with_note("in this macro invocation", Some(call));
        }
        d.render(&kernel.program.sources, color)
    }

    fn check_label(&self) -> &'static str {
        match self.kind {
            FindingKind::UndefinedShuffle { .. } => "undefined read",
            FindingKind::MemberMask { .. } => "member mask",
            _ => "uninitialised read",
        }
    }
}

/// An SM's findings, deduplicated as they come.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    pub list: Vec<Finding>,
    index: FxHashMap<Key, usize>,
}

/// Distinct findings kept per SM; more are counted in the first ones' kinds only if already known.
const MAX_FINDINGS: usize = 10_000;

impl Findings {
    pub fn add(&mut self, f: Finding) {
        let key = f.key();
        if let Some(&i) = self.index.get(&key) {
            self.list[i].count += f.count;
        } else if self.list.len() < MAX_FINDINGS {
            self.index.insert(key, self.list.len());
            self.list.push(f);
        }
    }
}

/// Every SM's findings together, each distinct finding once (its first occurrence in (cycle, SM) order, the
/// counts summed).
pub(crate) fn merge(per_sm: impl IntoIterator<Item = Vec<Finding>>) -> Vec<Finding> {
    let mut all: Vec<Finding> = per_sm.into_iter().flatten().collect();
    all.sort_by_key(|f| (f.cycle, f.sm));
    let mut out = Findings::default();
    for f in all {
        out.add(f);
    }
    out.list
}

/// A shared access as the race checker keeps it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rec {
    /// The warp in the block (the low 12 bits: at most 1024 threads / 2 lanes) and the bytes of the word the
    /// access reached (the high 4 bits: [`Rec::bytes`]). (Lanes: at most 64. Kept small: the shadow holds up to
    /// three of these per shared word.)
    warp_bytes: u16,
    lane: u8,
    kind: AccessKind,
    pc: u32,
    /// The warp's own vector-clock entry at the access.
    clock: u32,
    /// The warp's synchronisation count at the access (see [`WarpSync`]).
    seq: u32,
    /// The lanes active (executing together) at the access.
    mask: u64,
    cycle: u64,
}

impl Rec {
    fn warp(&self) -> u32 {
        u32::from(self.warp_bytes & 0xfff)
    }

    /// The bytes of the word the access reached, a bit each (0b1111: the whole word).
    fn bytes(&self) -> u8 {
        (self.warp_bytes >> 12) as u8
    }

    fn with_bytes(mut self, bytes: u8) -> Rec {
        self.warp_bytes = (self.warp_bytes & 0xfff) | u16::from(bytes & 15) << 12;
        self
    }

    fn access(&self, block: u32) -> Access {
        Access {
            block,
            warp: self.warp(),
            lane: u32::from(self.lane),
            pc: self.pc,
            cycle: self.cycle,
            kind: self.kind,
        }
    }
}

/// The race checker's and init checker's view of one shared word.
#[derive(Clone, Debug, Default)]
pub(crate) struct Shadow {
    write: Option<Rec>,
    /// Reads since the last write: the latest by each warp.
    reads: SmallVec<[Rec; 2]>,
    written: bool,
}

/// Per block: the shadow of its shared memory and a vector clock per warp (`vc[w * warps + v]`: what warp `w`
/// knows of warp `v`'s clock).
#[derive(Debug, Default)]
pub(crate) struct BlockCheck {
    shadow: Vec<Shadow>,
    /// With `race`: the shadow of the global words the block's threads touched, of buffers the kernel writes
    /// (keyed by buffer and word), for races between its warps; races between blocks are found at the epoch's
    /// commit ([`GlobalCheck`]).
    global: FxHashMap<u64, Shadow>,
    vc: Vec<u32>,
    warps: usize,
    /// Per named barrier: the join of the clocks `bar.arrive` brought to it since its last release (empty: none).
    arrived: Vec<Vec<u32>>,
}

impl BlockCheck {
    pub fn reset(&mut self, words: usize, warps: usize) {
        self.shadow.clear();
        self.shadow.resize(words, Shadow::default());
        self.global.clear();
        self.warps = warps;
        self.vc.clear();
        self.vc.resize(warps * warps, 0);
        for w in 0..warps {
            self.vc[w * warps + w] = 1;
        }
        self.arrived.iter_mut().for_each(Vec::clear);
    }

    /// Warp `w` arrived at barrier `id` without waiting (`bar.arrive`): what it knew now is ordered before what
    /// the warps released there do next; what it does next is not.
    pub fn arrive(&mut self, id: u32, w: u32) {
        let n = self.warps;
        if self.arrived.len() < crate::barrier::BARRIERS {
            self.arrived.resize(crate::barrier::BARRIERS, Vec::new());
        }
        let pending = &mut self.arrived[id as usize];
        pending.resize(n, 0);
        let row = &mut self.vc[w as usize * n..(w as usize + 1) * n];
        for (j, v) in pending.iter_mut().zip(row.iter()) {
            *j = (*j).max(*v);
        }
        row[w as usize] += 1;
    }

    /// Barrier `id` released `warps` (in the block): each now knows what all of them knew, and what the warps
    /// that arrived there without waiting knew when they arrived, then moves on.
    pub fn barrier(&mut self, id: u32, warps: impl Iterator<Item = u32> + Clone) {
        let n = self.warps;
        let mut join = match self.arrived.get_mut(id as usize) {
            Some(pending) if !pending.is_empty() => std::mem::take(pending),
            _ => vec![0u32; n],
        };
        for w in warps.clone() {
            for (j, v) in join.iter_mut().zip(&self.vc[w as usize * n..(w as usize + 1) * n]) {
                *j = (*j).max(*v);
            }
        }
        for w in warps {
            let row = &mut self.vc[w as usize * n..(w as usize + 1) * n];
            row.copy_from_slice(&join);
            row[w as usize] += 1;
        }
    }
}

/// Per warp: the masks of its recent synchronisations among its own lanes (reconvergences, `bar.warp.sync`,
/// barrier releases), numbered; two lanes are ordered after an access if a later one included both.
#[derive(Clone, Debug, Default)]
pub(crate) struct WarpSync {
    seq: u32,
    recent: [(u32, u64); WarpSync::KEPT],
}

impl WarpSync {
    const KEPT: usize = 16;

    pub fn reset(&mut self) {
        *self = WarpSync::default();
    }

    pub fn sync(&mut self, mask: u64) {
        self.seq += 1;
        self.recent[self.seq as usize % WarpSync::KEPT] = (self.seq, mask);
    }

    /// Whether lanes `a` and `b` synchronised together after sequence number `since`.
    fn together_since(&self, since: u32, a: u32, b: u32) -> bool {
        let both = 1u64 << a | 1u64 << b;
        // Too long ago to tell: take them as ordered (a missed report rather than a false one).
        #[allow(clippy::cast_possible_truncation, reason = "KEPT is 16")]
        if self.seq.saturating_sub(since) >= WarpSync::KEPT as u32 {
            return true;
        }
        self.recent
            .iter()
            .any(|&(s, m)| s > since && s <= self.seq && m & both == both)
    }
}

/// The thread making an access, for the checker.
pub(crate) struct Who<'a> {
    pub sm: u32,
    pub block: u32,
    pub warp: u32,
    pub pc: u32,
    pub cycle: u64,
    /// Lanes active (executing together) now.
    pub active: u64,
    pub sync: &'a WarpSync,
}

/// Where an access goes: the block's shared memory, or a global buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Space {
    Shared,
    Global(u16),
}

/// Check and record the shared accesses of one instruction, or (race only, buffers the kernel writes only:
/// `race_global`) its global accesses against the block's other warps, logging them in `log` for the check
/// between blocks: `words[lane]` for each lane of `exec`.
// (Out of line: inlined, it made the issue loop slower with the checks off.)
#[allow(clippy::too_many_arguments)]
#[allow(
    clippy::cast_possible_truncation,
    reason = "a warp of a block (at most 4096 threads) fits a u16, a lane (below 64) a u8, a word of a buffer (at most \
              2^28, MAX_BUFFER_ELEMENTS) a u32"
)]
#[inline(never)]
pub(crate) fn access(
    checks: Checks,
    block: &mut BlockCheck,
    kernel: &Kernel,
    who: &Who,
    words: &[usize; 64],
    exec: u64,
    kind: AccessKind,
    space: Space,
    narrow: Option<(u8, &[u8; 64])>,
    findings: &mut Findings,
    log: &mut Vec<GlobalAccess>,
    race_global: &[bool],
) {
    // Each lane's bytes of its word: all four, or an 8- or 16-bit access's.
    let bytes_of = |lane: u32| match narrow {
        Some((size, at)) => ((1u8 << size) - 1) << at[lane as usize],
        None => 0b1111,
    };
    if let Space::Global(buffer) = space {
        // Only buffers the kernel writes, and only for `race`.
        if !race_global[buffer as usize] {
            return;
        }
        let mut m = exec;
        while m != 0 {
            let lane = m.trailing_zeros();
            m &= m - 1;
            log.push(GlobalAccess {
                cycle: who.cycle,
                block: who.block,
                pc: who.pc,
                word: words[lane as usize] as u32,
                buffer,
                warp: who.warp as u16,
                lane: lane as u8,
                kind,
                bytes: bytes_of(lane),
            });
        }
    }
    let n = block.warps;
    let warp = who.warp;
    let clock = block.vc[warp as usize * n + warp as usize];
    // Uninitialised reads: one finding for the instruction, naming every lane.
    if checks.init && kind != AccessKind::Write && space == Space::Shared {
        let mut unwritten = 0u64;
        let mut m = exec;
        while m != 0 {
            let lane = m.trailing_zeros();
            m &= m - 1;
            if !block.shadow[words[lane as usize]].written {
                unwritten |= 1 << lane;
            }
        }
        if unwritten != 0 {
            let lane = unwritten.trailing_zeros();
            let (array, index) = shared_element(kernel, words[lane as usize]);
            findings.add(Finding {
                kind: FindingKind::UninitShared {
                    array,
                    index,
                    lanes: unwritten,
                },
                cycle: who.cycle,
                sm: who.sm,
                block: who.block,
                warp,
                lane: Some(lane),
                pc: who.pc,
                count: u64::from(unwritten.count_ones()),
            });
        }
    }
    let mut m = exec;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        let word = words[lane as usize];
        let bytes = bytes_of(lane);
        let now = Rec {
            warp_bytes: warp as u16 | u16::from(bytes) << 12,
            lane: lane as u8,
            pc: who.pc,
            clock,
            seq: who.sync.seq,
            mask: who.active,
            cycle: who.cycle,
            kind,
        };
        let vc = &block.vc[warp as usize * n..(warp as usize + 1) * n];
        // (Accesses to different bytes of a word do not conflict: as ordered.)
        let ordered = |prev: &Rec| {
            prev.bytes() & bytes == 0
                || if prev.warp() == warp {
                    u32::from(prev.lane) == lane
                        || prev.mask >> lane & 1 == 1
                        || who.sync.together_since(prev.seq, u32::from(prev.lane), lane)
                } else {
                    vc[prev.warp() as usize] >= prev.clock
                }
        };
        let shadow = match space {
            Space::Shared => &mut block.shadow[word],
            Space::Global(buffer) => block.global.entry(global_key(buffer, word)).or_default(),
        };
        if checks.race {
            let mut report = |prev: &Rec, hazard: Hazard| {
                let (array, index) = match space {
                    Space::Shared => shared_element(kernel, word),
                    Space::Global(buffer) => (kernel.buffers[buffer as usize].name.clone(), word),
                };
                findings.add(Finding {
                    kind: FindingKind::Race {
                        hazard,
                        array,
                        index,
                        global: space != Space::Shared,
                        first: prev.access(who.block),
                        second: now.access(who.block),
                    },
                    cycle: who.cycle,
                    sm: who.sm,
                    block: who.block,
                    warp,
                    lane: Some(lane),
                    pc: who.pc,
                    count: 1,
                });
            };
            let both_atomic = |prev: &Rec| prev.kind == AccessKind::Atomic && kind == AccessKind::Atomic;
            if let Some(w) = shadow.write.as_ref().filter(|w| !ordered(w) && !both_atomic(w)) {
                report(
                    w,
                    if kind == AccessKind::Read {
                        Hazard::ReadAfterWrite
                    } else {
                        Hazard::WriteAfterWrite
                    },
                );
            }
            if kind != AccessKind::Read
                && let Some(r) = shadow.reads.iter().find(|r| !ordered(r) && !both_atomic(r))
            {
                report(r, Hazard::WriteAfterRead);
            }
        }
        // (A write keeps the reads of the word's other bytes; a warp's latest read holds the bytes of its reads
        // since the last write. The last write is one record, of one instruction's lanes: after writes to
        // different bytes of a word by different instructions, only the latest is checked against.)
        match kind {
            AccessKind::Read => match shadow.reads.iter_mut().find(|r| r.warp() == warp) {
                Some(r) => *r = now.with_bytes(r.bytes() | bytes),
                None => shadow.reads.push(now),
            },
            AccessKind::Write | AccessKind::Atomic => {
                // (The lanes of one instruction writing bytes of the word: one record of them all.)
                let same = |w: &Rec| w.warp() == warp && w.pc == now.pc && w.cycle == now.cycle && w.kind == kind;
                shadow.write = Some(match shadow.write {
                    Some(w) if same(&w) => now.with_bytes(w.bytes() | bytes),
                    _ => now,
                });
                if bytes == 0b1111 {
                    shadow.reads.clear();
                } else {
                    shadow.reads.retain(|r| r.bytes() & !bytes != 0);
                    for r in &mut shadow.reads {
                        *r = r.with_bytes(r.bytes() & !bytes);
                    }
                }
                shadow.written = true;
            }
        }
    }
}

/// The key of a global word in the race checker's maps.
fn global_key(buffer: u16, word: usize) -> u64 {
    u64::from(buffer) << 32 | word as u64
}

/// A global access to a buffer the kernel writes, logged by its SM (with `race`) for the check between blocks
/// at the epoch's commit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GlobalAccess {
    pub cycle: u64,
    pub block: u32,
    pub pc: u32,
    pub word: u32,
    pub buffer: u16,
    pub warp: u16,
    pub lane: u8,
    pub kind: AccessKind,
    /// The bytes of the word it reached, a bit each.
    pub bytes: u8,
}

/// A global access as the check between blocks keeps it.
#[derive(Clone, Copy, Debug)]
struct GlobalRec {
    cycle: u64,
    block: u32,
    pc: u32,
    warp: u16,
    lane: u8,
    kind: AccessKind,
    bytes: u8,
}

impl GlobalRec {
    fn access(&self) -> Access {
        Access {
            block: self.block,
            warp: u32::from(self.warp),
            lane: u32::from(self.lane),
            pc: self.pc,
            cycle: self.cycle,
            kind: self.kind,
        }
    }
}

/// Races in global memory between blocks: nothing orders two blocks within a kernel (the ISA has no grid-wide
/// barrier), so any two accesses to one word by different blocks race if one is a write, unless both are
/// atomics. Fed at each epoch's commit with every SM's accesses of the epoch in (cycle, SM, issue) order (so
/// the findings are the same on any number of host threads); it keeps, for each word touched of a buffer the
/// kernel writes, the last write (or atomic) and the latest reads of the last two blocks that read it, in pages
/// of [`PAGE`] words made when a word of theirs is first written (or read): 24 bytes per word of a page
/// written, 48 per word of a page read, plus a hash-table entry per page. Races between warps of one block
/// are the SM's to find (they need the block's vector clocks: [`access`] with [`Space::Global`]).
#[derive(Debug, Default)]
pub(crate) struct GlobalCheck {
    writes: FxHashMap<u64, Box<[Option<GlobalRec>; PAGE]>>,
    reads: FxHashMap<u64, Box<[[Option<GlobalRec>; 2]; PAGE]>>,
    pub findings: Findings,
    /// The epoch's accesses in check order: (cycle, SM, index in its log). Reused.
    pub order: Vec<(u64, u32, usize)>,
}

/// Words per page of [`GlobalCheck`]'s shadow: a compromise between dense accesses (a hash-table entry per word
/// would cost more than the record) and lone words (a page is made for each).
pub(crate) const PAGE: usize = 8;

impl GlobalCheck {
    /// Check and record access `a`, made on SM `sm`.
    pub fn access(&mut self, kernel: &Kernel, sm: u32, a: &GlobalAccess) {
        let page = global_key(a.buffer, a.word as usize / PAGE);
        let slot = a.word as usize % PAGE;
        let now = GlobalRec {
            cycle: a.cycle,
            block: a.block,
            pc: a.pc,
            warp: a.warp,
            lane: a.lane,
            kind: a.kind,
            bytes: a.bytes,
        };
        let conflicts = |prev: &GlobalRec| {
            prev.block != a.block
                && prev.bytes & a.bytes != 0
                && !(prev.kind == AccessKind::Atomic && a.kind == AccessKind::Atomic)
        };
        let mut report = |prev: &GlobalRec, hazard: Hazard| {
            self.findings.add(Finding {
                kind: FindingKind::Race {
                    hazard,
                    array: kernel.buffers[a.buffer as usize].name.clone(),
                    index: a.word as usize,
                    global: true,
                    first: prev.access(),
                    second: now.access(),
                },
                cycle: a.cycle,
                sm,
                block: a.block,
                warp: u32::from(a.warp),
                lane: Some(u32::from(a.lane)),
                pc: a.pc,
                count: 1,
            });
        };
        if let Some(w) = self.writes.get(&page).and_then(|p| p[slot]).filter(conflicts) {
            report(
                &w,
                if a.kind == AccessKind::Read {
                    Hazard::ReadAfterWrite
                } else {
                    Hazard::WriteAfterWrite
                },
            );
        }
        if a.kind == AccessKind::Read {
            let reads = &mut self.reads.entry(page).or_insert_with(|| Box::new([[None; 2]; PAGE]))[slot];
            match reads {
                [Some(r), _] if r.block == a.block => {
                    reads[0] = Some(GlobalRec {
                        bytes: r.bytes | a.bytes,
                        ..now
                    });
                }
                [_, Some(r)] if r.block == a.block => {
                    reads[1] = Some(GlobalRec {
                        bytes: r.bytes | a.bytes,
                        ..now
                    });
                }
                _ => *reads = [reads[1], Some(now)],
            }
        } else {
            if let Some(r) = self
                .reads
                .get(&page)
                .and_then(|p| p[slot].iter().flatten().find(|r| conflicts(r)).copied())
            {
                report(&r, Hazard::WriteAfterRead);
            }
            // (The lanes of one instruction writing bytes of the word: one record of them all.)
            let w = &mut self.writes.entry(page).or_insert_with(|| Box::new([None; PAGE]))[slot];
            *w = Some(match *w {
                Some(p) if p.block == a.block && p.warp == a.warp && p.pc == a.pc && p.cycle == a.cycle => GlobalRec {
                    bytes: p.bytes | a.bytes,
                    ..now
                },
                _ => now,
            });
        }
    }
}

/// The byte address, in the block's shared memory, of `array[index]`.
pub fn shared_byte(kernel: &Kernel, array: &str, index: usize) -> Option<usize> {
    kernel
        .shared
        .iter()
        .find(|a| a.name == array)
        .map(|a| (a.offset + index) * 4)
}

/// A shared-memory load of a word that another warp of its block wrote (a store or an atomic) since the block's
/// last barrier: nothing ordered the two warps, so the value read depends on which ran first, and the GPU's
/// schedule may differ from warpsim's. The engine looks for the first one whenever `--check race` is off (which
/// finds these and every other race, and says whether the order mattered); the CLI reports it as a warning.
/// Barrier releases of any id count as ordering, and atomics reading such a word do not count: it can miss a
/// race, and it reports a read that other means (a flag, a fence) ordered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnorderedRead {
    pub cycle: u64,
    pub sm: u32,
    pub block: u32,
    /// The load: its warp, first lane reading such a word, and pc.
    pub warp: u32,
    pub lane: u32,
    pub pc: u32,
    /// The write the load saw: its warp and pc.
    pub writer_warp: u32,
    pub writer_pc: u32,
    pub array: String,
    pub index: usize,
}

impl UnorderedRead {
    pub(crate) fn new(
        kernel: &Kernel,
        (cycle, sm, block): (u64, u32, u32),
        (warp, lane, pc): (u32, u32, u32),
        (writer_warp, writer_pc): (u32, u32),
        word: usize,
    ) -> UnorderedRead {
        let (array, index) = shared_element(kernel, word);
        UnorderedRead {
            cycle,
            sm,
            block,
            warp,
            lane,
            pc,
            writer_warp,
            writer_pc,
            array,
            index,
        }
    }

    /// A rustc-style warning at the load, the write in a note, and what to do.
    pub fn render(&self, kernel: &Kernel, color: bool) -> String {
        let code = &kernel.program.instructions;
        let message = format!(
            "warp {} reads `{}[{}]`, which warp {} wrote since their last barrier",
            self.warp, self.array, self.index, self.writer_warp
        );
        let Some(load) = code.get(self.pc as usize) else {
            return format!("warning: {message}\n");
        };
        let mut d = Diagnostic::warning(load.span, message)
            .with_label(format!(
                "block {}, warp {}, lane {} reads it here at cycle {}",
                kernel.block_name(self.block),
                self.warp,
                self.lane,
                self.cycle
            ))
            .with_help(
                "nothing orders the two warps, so the value read depends on which one ran first: warpsim's schedule \
                 gave this run's answer, a GPU's may give another. Put a barrier both warps reach between the write \
                 and the read (`bar.sync 0`), or check with `--check race` and `--schedule random --seed N`",
            );
        if let Some(store) = code.get(self.writer_pc as usize) {
            d = d.with_note(
                format!(
                    "warp {} wrote it at pc {}: `{}`",
                    self.writer_warp, self.writer_pc, store.text
                ),
                Some(store.span),
            );
        }
        d.render(&kernel.program.sources, color)
    }
}

/// The shared array and element of a word of the block's shared memory.
fn shared_element(kernel: &Kernel, word: usize) -> (String, usize) {
    kernel
        .shared
        .iter()
        .find(|a| word >= a.offset && word < a.offset + a.len)
        .map(|a| (a.name.clone(), word - a.offset))
        .unwrap_or_else(|| ("shared".into(), word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shadow_of_a_shared_word_stays_small() {
        assert_eq!(std::mem::size_of::<Rec>(), 32);
        assert!(
            std::mem::size_of::<Shadow>() <= 112,
            "{}",
            std::mem::size_of::<Shadow>()
        );
    }

    #[test]
    fn the_shadow_of_a_global_word_stays_small() {
        // What GlobalCheck's documentation promises: 24 bytes per word of a page written, 48 per word of a page
        // read.
        assert_eq!(std::mem::size_of::<GlobalRec>(), 24);
        assert_eq!(std::mem::size_of::<[Option<GlobalRec>; 2]>(), 48);
        assert!(std::mem::size_of::<GlobalAccess>() <= 32);
    }

    #[test]
    fn parse_checks() {
        assert_eq!(
            Checks::parse("race").unwrap(),
            Checks {
                race: true,
                ..Checks::default()
            }
        );
        assert_eq!(Checks::parse("init, shfl").unwrap().names(), "init,shfl");
        assert_eq!(Checks::parse("sync,race").unwrap().names(), "race,sync");
        assert_eq!(Checks::parse("all").unwrap(), Checks::all());
        let e = Checks::parse("rcae").unwrap_err();
        assert!(e.contains("did you mean `race`?"), "{e}");
        // `scheduling` is a word of `sim run --check` (and of `all` there), not a sanitizer.
        assert!(Checks::parse("scheduling").is_err());
        let race = Checks::parse("race").unwrap();
        assert_eq!(Checks::parse_with_scheduling("race").unwrap(), (race, false));
        assert_eq!(Checks::parse_with_scheduling("scheduling, race").unwrap(), (race, true));
        assert_eq!(
            Checks::parse_with_scheduling("scheduling").unwrap(),
            (Checks::default(), true)
        );
        assert_eq!(Checks::parse_with_scheduling("all").unwrap(), (Checks::all(), true));
        assert_eq!(
            Checks::parse_with_scheduling("schedule").unwrap_err(),
            "unknown check `schedule`: did you mean `scheduling`? the checks are race, init, shfl, sync, scheduling \
             (or all), comma-separated"
        );
    }

    #[test]
    fn barrier_joins_vector_clocks() {
        let mut b = BlockCheck::default();
        b.reset(4, 3);
        b.barrier(0, [0u32, 1].into_iter());
        // Warps 0 and 1 know each other's clock before the barrier (1); warp 2 took no part.
        assert_eq!(&b.vc[0..3], &[2, 1, 0]);
        assert_eq!(&b.vc[3..6], &[1, 2, 0]);
        assert_eq!(&b.vc[6..9], &[0, 0, 1]);
    }

    #[test]
    fn warp_sync_remembers_which_lanes_met() {
        let mut s = WarpSync::default();
        s.sync(0b0011);
        assert!(s.together_since(0, 0, 1));
        assert!(!s.together_since(0, 0, 2));
        assert!(!s.together_since(1, 0, 1));
    }
}
