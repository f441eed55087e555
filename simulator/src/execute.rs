//! The execute stage: one warp instruction's semantics, as data.
//!
//! On hardware the dispatch unit sends an issued instruction to its functional unit (the ALU and FMA pipes, the
//! conversion unit, the shuffle network, the vote/match unit, the load/store unit, the barrier unit, the branch
//! unit), which computes every executing lane's result. [`execute`] does the same: it dispatches the instruction
//! to its unit's executor, which writes the lanes' registers and predicates and the memory the access touches,
//! and returns an [`Outcome`]: what the instruction did that the rest of the SM has to know about (the words a
//! memory access touched, the exchange a shuffle made, the lanes a branch sends elsewhere, a barrier arrival).
//!
//! The outcome is the one record everything after execution reads, in one direction: the timing model prices it
//! ([`crate::timing::price`]), the sanitizers ([`crate::sanitizers`]) and the trace ([`crate::trace`]) observe
//! it, and the SM commits its control flow. Nothing here knows about cycles: values never depend on timing.
//! A fault (a bad address, a division by zero, a diverged barrier) is the outcome's error, raised before the
//! instruction changes anything.

use crate::barrier::{self, Arrival};
use crate::check::AccessKind;
use crate::fault::FaultKind;
use crate::kernel::{Bin, Buffer, DAddr, DInstr, DOp, Flat, Kernel};
use crate::lsu::{self, Effect, WriteLog, locate_lanes};
use crate::register_file::{LaneCtx, RegisterFile};
use crate::shuffle::{self, Exchange};
use crate::simt_stack::SimtStack;
use crate::{alu, its, vote};

/// What executing one warp instruction did, beyond the registers and predicates it wrote (which
/// [`DInstr::write`] and [`DInstr::pred_write`] name).
pub(crate) enum Outcome<'a> {
    /// Lane values only (ALU, conversion, vote and match, a barrier no lane executes, `nop`).
    Lanes,
    /// A load, store or atomic.
    Access(MemoryAccess<'a>),
    /// A shuffle: every lane's source, and which reads were in range or undefined.
    Exchange(Exchange<'a>),
    /// A branch the `taken` lanes take to `target` (none, some or all of the active lanes).
    Branch { taken: u64, target: u32 },
    /// The `lanes` exited.
    Exit { lanes: u64 },
    /// The warp arrived at a block barrier (its results are written at the release).
    Barrier(Arrival),
    /// `bar.warp.sync`: the `lanes` synchronised.
    WarpSync { lanes: u64 },
    /// `printf`: each executing lane's text, in lane order.
    Printed(Vec<(u32, String)>),
    /// An IEEE division or square root (f32 `div.rn`, f64 `div.rn`, `sqrt.rn`) some of whose lanes take the GPU's
    /// slow path, a subroutine the compiled code calls (`alu::slow_path`); its values are written as for
    /// [`Outcome::Lanes`].
    SlowPath,
    /// A division, reciprocal or square root with a directed rounding that ptxas compiles to a call of a subroutine
    /// whatever the operands (`Wide::calls_subroutine`), none of whose lanes takes a slow path; its values are
    /// written as for [`Outcome::Lanes`].
    Subroutine,
}

impl Outcome<'_> {
    /// The register a global atomic's old value goes to at the commit ([`DInstr::returns_at_commit`]), unless
    /// a generic atomic reached shared memory (its old value was written at once).
    pub fn returns_at_commit(&self, inst: &DInstr) -> Option<u16> {
        match self {
            Outcome::Access(m) if m.addr.shared => None,
            _ => inst.returns_at_commit(),
        }
    }
}

/// The words a memory instruction touched.
pub(crate) struct MemoryAccess<'a> {
    pub addr: DAddr,
    pub kind: AccessKind,
    /// Each executing lane's word (in its buffer, or in the block's shared memory), indexed by lane.
    pub words: &'a [usize; 64],
    /// With tracing: each lane's element index in the array (empty otherwise).
    pub index: Vec<u64>,
    /// An 8- or 16-bit access: each lane's byte within its word (the sanitizers' byte masks).
    pub bytes: Option<&'a [u8; 64]>,
}

/// Per-lane storage an outcome points into: the words of a memory access, the sources of a shuffle (the SM's,
/// reused by every instruction, so that an outcome moves no lane arrays).
pub(crate) struct LaneScratch {
    pub words: [usize; 64],
    /// An 8- or 16-bit access's byte of each lane within its word.
    pub bytes: [u8; 64],
    pub sources: [u32; 64],
    /// A 64-bit operation's operand and result rows (reused: an instruction writes the lanes it reads).
    pub wide: alu::execute::WideRows,
    /// An executor's operand and result rows (`alu::Rows`).
    pub rows: alu::Rows,
}

impl Default for LaneScratch {
    fn default() -> LaneScratch {
        LaneScratch {
            words: [0; 64],
            bytes: [0; 64],
            sources: [0; 64],
            wide: [[0; 64]; 4],
            rows: [[0; 64]; 4],
        }
    }
}

/// The memory an instruction reads and writes: global memory as committed at the epoch's start, the block's
/// shared memory, and this SM's uncommitted global writes ([`lsu`]).
pub(crate) struct Memory<'a> {
    pub global: &'a [Buffer],
    pub shared: &'a mut [u32],
    /// This SM's view of its own global writes, for the buffers the kernel both reads and writes.
    pub own: &'a mut lsu::Overlay,
    /// Per global buffer: whether loads look in `own`.
    pub overlaid: &'a [bool],
    /// The epoch's global writes, in issue order.
    pub effects: &'a mut Vec<Effect>,
    /// The warp's local memory (PTX `.local`): `Kernel::local_words` words per lane, interleaved by lane.
    pub local: &'a mut Vec<u32>,
    /// Where a global atomic's old value goes at the commit: the warp's slot and id, and (with tracing) its
    /// return event among the SM's.
    pub returns: (u32, u64, u32),
}

/// Whether `op` only computes lane values, without a fault, a slow path or anything else the SM has to know
/// about: a move, an arithmetic, logic, compare, select or conversion instruction other than a division or
/// remainder ([`plain`] executes it; the SM's issue takes a shorter way for such an instruction,
/// `Shared::quick`).
#[inline(always)]
pub(crate) fn is_plain(op: DOp) -> bool {
    match op {
        DOp::Mov { .. }
        | DOp::Un { .. }
        | DOp::Tern { .. }
        | DOp::Setp { .. }
        | DOp::PredLogic { .. }
        | DOp::Selp { .. }
        | DOp::Cvt { .. } => true,
        DOp::Bin { f, .. } => !matches!(f, Bin::DivF | Bin::DivS | Bin::DivU | Bin::RemS | Bin::RemU),
        _ => false,
    }
}

/// Execute a plain instruction ([`is_plain`]) in the `exec` lanes: its results into the registers or predicates.
#[inline(always)]
pub(crate) fn plain(op: DOp, rf: &mut RegisterFile, ctx: &LaneCtx, exec: u64, rows: &mut alu::Rows) {
    match op {
        DOp::Mov { d, a } => alu::execute::mov(rf, ctx, exec, d, a, rows),
        DOp::Un { f, d, a } => alu::execute::unary(rf, ctx, exec, f, d, a, rows),
        DOp::Bin { f, d, a, b } => {
            // (No division: nothing to fault.)
            let divided = alu::execute::binary(rf, ctx, exec, f, d, a, b, rows);
            debug_assert!(divided.is_ok(), "a plain instruction divides by nothing");
        }
        DOp::Tern { f, d, a, b, c } => alu::execute::ternary(rf, ctx, exec, f, d, (a, b, c), rows),
        DOp::Setp { cmp, class, p, a, b } => alu::execute::setp(rf, ctx, exec, cmp, class, p, (a, b), rows),
        DOp::PredLogic { op, d, a, b } => alu::execute::pred_logic(rf, exec, op, d, a, b),
        DOp::Selp { d, a, b, p } => alu::execute::selp(rf, ctx, exec, d, a, b, p, rows),
        DOp::Cvt { f, d, a } => alu::execute::convert(rf, ctx, exec, f, d, a),
        _ => unreachable!("not a plain instruction"),
    }
}

/// Execute `inst` in the `exec` lanes of a warp: write their registers, predicates and
/// memory, and say what else happened. A fault names its kind and, where one is to blame, the first lane; it
/// changes nothing.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn execute<'a, const ON: bool>(
    kernel: &Kernel,
    inst: &DInstr,
    rf: &mut RegisterFile,
    stack: &SimtStack,
    mem: Memory<'_>,
    scratch: &'a mut LaneScratch,
    ctx: &LaneCtx,
    exec: u64,
) -> Result<Outcome<'a>, (FaultKind, Option<u32>)> {
    let LaneScratch {
        words,
        bytes,
        sources,
        wide,
        rows,
    } = scratch;
    let global = mem.global;
    let mut access = |rf: &RegisterFile, addr: DAddr, kind: AccessKind| {
        let store = kind != AccessKind::Read;
        match locate_lanes::<ON>(kernel, global, rf, addr, exec, ctx, store, words) {
            Ok(index) => Ok((addr, kind, index)),
            Err((kind, lane)) => Err((kind, Some(lane))),
        }
    };
    Ok(match inst.op {
        op @ (DOp::Mov { .. }
        | DOp::Un { .. }
        | DOp::Tern { .. }
        | DOp::Setp { .. }
        | DOp::PredLogic { .. }
        | DOp::Selp { .. }
        | DOp::Cvt { .. }) => {
            plain(op, rf, ctx, exec, rows);
            Outcome::Lanes
        }
        op @ DOp::Bin { .. } if is_plain(op) => {
            plain(op, rf, ctx, exec, rows);
            Outcome::Lanes
        }
        DOp::Bin { f: Bin::DivF, d, a, b } => {
            let slow = alu::execute::slow_f32_div(rf, ctx, exec, a, b);
            alu::execute::binary(rf, ctx, exec, Bin::DivF, d, a, b, rows)
                .map_err(|lane| (FaultKind::DivideByZero, Some(lane)))?;
            slow_path(slow)
        }
        // (An integer division or remainder: a lane's zero divisor is a fault.)
        DOp::Bin { f, d, a, b } => {
            alu::execute::binary(rf, ctx, exec, f, d, a, b, rows)
                .map_err(|lane| (FaultKind::DivideByZero, Some(lane)))?;
            Outcome::Lanes
        }
        DOp::Wide { f, d, a, b, c } => {
            let slow = if f.may_leave_fast_path() {
                alu::execute::slow_wide(rf, ctx, exec, f, a, b)
            } else {
                0
            };
            alu::execute::wide(rf, ctx, exec, f, d, (a, b, c), wide)
                .map_err(|lane| (FaultKind::DivideByZero, Some(lane)))?;
            if slow == 0 && f.calls_subroutine() {
                Outcome::Subroutine
            } else {
                slow_path(slow)
            }
        }
        DOp::Setp64 { cmp, class, p, a, b } => {
            alu::execute::setp64(rf, ctx, exec, cmp, class, p, a, b);
            Outcome::Lanes
        }
        DOp::Carry {
            f,
            signed,
            wide,
            d,
            a,
            b,
            c,
            cin,
            cout,
        } => {
            alu::execute::carry(rf, ctx, exec, (f, signed, wide), d, (a, b, c), cin, cout);
            Outcome::Lanes
        }
        DOp::Selp64 { d, a, b, p } => {
            alu::execute::selp64(rf, ctx, exec, d, a, b, p);
            Outcome::Lanes
        }
        DOp::Unpack { lo, hi, a } => {
            alu::execute::unpack(rf, ctx, exec, lo, hi, a);
            Outcome::Lanes
        }
        DOp::Bfi {
            wide,
            d,
            a,
            b,
            pos,
            len,
        } => {
            alu::execute::bfi(rf, ctx, exec, wide, d, (a, b, pos, len));
            Outcome::Lanes
        }
        DOp::Ld { addr, .. } | DOp::St { addr, .. } | DOp::Atom { addr, .. }
            if addr.flat != Flat::No || addr.narrow.is_some() =>
        {
            // (The memory's parts one by one: a `Memory` passed whole would have to be built in memory on the
            // hot path too.)
            let log = (&mut *mem.shared, &mut *mem.own, &mut *mem.effects);
            flat::<ON>(
                kernel,
                inst,
                rf,
                (global, mem.overlaid, log, &mut *mem.local),
                mem.returns,
                (words, bytes),
                ctx,
                exec,
            )?
        }
        DOp::Ld { d, addr } => {
            let located = access(rf, addr, AccessKind::Read)?;
            let overlay = !addr.shared
                && mem.overlaid[addr.buffer as usize]
                && mem.own.for_load(addr.buffer, mem.effects, global);
            lsu::load(rf, (mem.shared, global, mem.own), addr, overlay, d, words, exec);
            accessed(located, words)
        }
        DOp::St { addr, a } => {
            // Every lane is located before any writes, so a faulting store writes nothing.
            let located = access(rf, addr, AccessKind::Write)?;
            let overlay = !addr.shared && mem.overlaid[addr.buffer as usize];
            lsu::store(
                rf,
                ctx,
                (mem.shared, mem.own, mem.effects),
                addr,
                overlay,
                a,
                words,
                exec,
            );
            accessed(located, words)
        }
        DOp::Atom { f, d, addr, b, c } => {
            let located = access(rf, addr, AccessKind::Atomic)?;
            let log = (mem.shared, mem.own, mem.effects);
            lsu::atomic(rf, ctx, log, global, (f, d, addr, b, c), mem.returns, words, exec);
            accessed(located, words)
        }
        // A barrier no lane executes (guard false everywhere) is skipped, as in PTX.
        DOp::Bar { .. } if exec == 0 => Outcome::Lanes,
        DOp::Bar { kind, id, count, pred } => {
            Outcome::Barrier(barrier::arrival(rf, ctx, (kind, id, count, pred), exec, stack.live())?)
        }
        DOp::BarWarp { mask } => {
            let mask = mask.lanes(rf, ctx, exec);
            // (`synced`: lanes on other paths that arrived at a `bar.warp.sync` of theirs, under ITS.)
            let missing = mask & stack.live() & !exec & !stack.synced;
            if missing != 0 {
                return Err((FaultKind::WarpSyncDivergence { missing }, None));
            }
            // The lanes that synchronised: these, and under ITS those of the other paths they met.
            Outcome::WarpSync {
                lanes: mask & (exec | (stack.synced & stack.live())),
            }
        }
        // ITS: the results of an exchange across instructions (computed when the last lanes arrived).
        DOp::Shfl { .. } | DOp::Vote { .. } | DOp::Match { .. } | DOp::Redux { .. } if its::mailed(stack, exec) => {
            its::deliver(inst, rf, stack, sources, exec)
        }
        DOp::Vote { mode, d, a, mask } => {
            vote::vote(rf, mode, d, a, mask.lanes(rf, ctx, exec), exec);
            Outcome::Lanes
        }
        DOp::Activemask { d } => {
            vote::activemask(rf, d, exec);
            Outcome::Lanes
        }
        DOp::Match { all, d, p, a, mask } => {
            vote::match_sync(rf, ctx, all, d, p, a, mask.lanes(rf, ctx, exec), exec);
            Outcome::Lanes
        }
        DOp::Redux { op, signed, d, a, mask } => {
            vote::redux_sync(rf, ctx, (op, signed), d, a, mask.lanes(rf, ctx, exec), exec);
            Outcome::Lanes
        }
        DOp::Shfl {
            mode,
            d,
            p,
            a,
            b,
            clamp,
            segmask,
            from,
            member,
        } => Outcome::Exchange(shuffle::execute(
            rf,
            ctx,
            (mode, d, p, a, b),
            (clamp, segmask, from, member.lanes(rf, ctx, exec)),
            exec,
            (sources, rows),
        )),
        DOp::Bra { target } => Outcome::Branch { taken: exec, target },
        DOp::Exit => Outcome::Exit { lanes: exec },
        DOp::Nop => Outcome::Lanes,
        DOp::Printf { d, fmt, args } => {
            let memory = (global, &*mem.shared, &mem.local[..]);
            Outcome::Printed(crate::printf::lanes(kernel, rf, memory, ctx, exec, (d, fmt, args)))
        }
        DOp::AssertFail {
            message,
            file,
            line,
            function,
        } => {
            if exec == 0 {
                return Ok(Outcome::Lanes);
            }
            let memory = (global, &*mem.shared, &mem.local[..]);
            let lane = exec.trailing_zeros();
            let kind = crate::printf::assertion(kernel, rf, memory, ctx, lane, (message, file, line, function));
            return Err((kind, Some(lane)));
        }
    })
}

/// The outcome of a memory access located as `located` into `words`.
#[inline(always)]
fn accessed((addr, kind, index): (DAddr, AccessKind, Vec<u64>), words: &[usize; 64]) -> Outcome<'_> {
    Outcome::Access(MemoryAccess {
        addr,
        kind,
        words,
        index,
        bytes: None,
    })
}

/// A flat access (`[%r + disp]`): its lanes located by their addresses ([`lsu::locate_flat`]), then performed
/// as the access to the buffer, shared memory or local memory they reach.
#[inline(never)]
#[cold]
#[allow(clippy::too_many_arguments)]
fn flat<'a, const ON: bool>(
    kernel: &Kernel,
    inst: &DInstr,
    rf: &mut RegisterFile,
    (global, overlaid, (shared, own, effects), local): (&[Buffer], &[bool], WriteLog<'_>, &mut Vec<u32>),
    returns: (u32, u64, u32),
    (words, bytes): (&'a mut [usize; 64], &'a mut [u8; 64]),
    ctx: &LaneCtx,
    exec: u64,
) -> Result<Outcome<'a>, (FaultKind, Option<u32>)> {
    let (addr, kind) = match inst.op {
        DOp::Ld { addr, .. } => (addr, AccessKind::Read),
        DOp::St { addr, .. } => (addr, AccessKind::Write),
        DOp::Atom { addr, .. } => (addr, AccessKind::Atomic),
        _ => unreachable!("a flat access is a load, a store or an atomic"),
    };
    let rw = (kind != AccessKind::Read, kind == AccessKind::Atomic);
    let (addr, index) = if addr.flat == Flat::No {
        // An 8- or 16-bit access with a byte offset into a buffer or shared array.
        let index = lsu::locate_narrow::<ON>(kernel, global, rf, addr, exec, ctx, rw.0, words)
            .map_err(|(k, lane)| (k, Some(lane)))?;
        (addr, index)
    } else {
        lsu::locate_flat::<ON>(kernel, global, rf, addr, exec, ctx, rw, words).map_err(|(k, lane)| (k, Some(lane)))?
    };
    if addr.narrow.is_some() {
        *bytes = lsu::bytes_in_word(rf, addr, exec, ctx);
        let at = &*bytes;
        let overlay = !addr.shared && !addr.local && overlaid[addr.buffer as usize];
        let mut place = if addr.local {
            lsu::NarrowPlace::Local(local)
        } else if addr.shared {
            lsu::NarrowPlace::Shared(shared)
        } else {
            lsu::NarrowPlace::Global {
                global,
                own,
                effects,
                overlay,
            }
        };
        match inst.op {
            DOp::Ld { d, .. } => {
                if let lsu::NarrowPlace::Global {
                    global,
                    own,
                    effects,
                    overlay,
                } = &mut place
                {
                    *overlay = *overlay && own.for_load(addr.buffer, effects, global);
                }
                lsu::load_narrow(rf, &place, addr, d, words, at, exec);
            }
            DOp::St { a, .. } => lsu::store_narrow(rf, ctx, &mut place, addr, a, words, at, exec),
            _ => unreachable!("8- and 16-bit accesses are loads and stores"),
        }
        return Ok(Outcome::Access(MemoryAccess {
            addr,
            kind,
            words,
            index,
            bytes: Some(at),
        }));
    }
    match inst.op {
        DOp::Ld { d, .. } if addr.local => lsu::load_local(rf, local, addr.wide, ctx.w, d, words, exec),
        DOp::St { a, .. } if addr.local => lsu::store_local(rf, ctx, local, addr.wide, a, words, exec),
        DOp::Ld { d, .. } => {
            let overlay = !addr.shared && overlaid[addr.buffer as usize] && own.for_load(addr.buffer, effects, global);
            lsu::load(rf, (shared, global, own), addr, overlay, d, words, exec);
        }
        DOp::St { a, .. } => {
            let overlay = !addr.shared && overlaid[addr.buffer as usize];
            lsu::store(rf, ctx, (shared, own, effects), addr, overlay, a, words, exec);
        }
        DOp::Atom { f, d, b, c, .. } => {
            let log = (shared, own, effects);
            lsu::atomic(rf, ctx, log, global, (f, d, addr, b, c), returns, words, exec);
        }
        _ => unreachable!("a flat access is a load, a store or an atomic"),
    }
    Ok(accessed((addr, kind, index), words))
}

/// The outcome of an IEEE division or square root whose `slow` lanes take the GPU's slow path.
#[inline(always)]
fn slow_path<'a>(slow: u64) -> Outcome<'a> {
    if slow == 0 { Outcome::Lanes } else { Outcome::SlowPath }
}
