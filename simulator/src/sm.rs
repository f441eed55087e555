//! The streaming multiprocessor: resident blocks and warps, warp schedulers, the issue loop.
//!
//! Hardware: an SM holds up to `max_blocks_per_sm` blocks and `max_warps_per_sm` warps; its warps are split
//! over `schedulers` sub-partitions (Hopper: 4), each of which issues at most one warp instruction per cycle.
//! Blocks are placed on the SM in order as resources free up.
//!
//! Model: cycle-driven. Each cycle, each scheduler picks, round-robin (loose: starting after the warp it last
//! issued), the first warp whose next instruction has its operands ready on the scoreboard, and issues it.
//! Semantics are applied at issue (values never depend on timing); the timing table decides when the result is
//! ready. When no warp can issue, time jumps to the next cycle at which one can. The run's cycle count is the
//! cycle at which the last result is complete.

use crate::alu;
use crate::config::Config;
use crate::fault::{Fault, FaultKind};
use crate::kernel::{Buffer, DAddr, DInstr, DOp, Kernel, Src, Unit};
use crate::scoreboard::Scoreboard;
use crate::shuffle;
use crate::simt_stack::{Merge, SimtStack};
use crate::trace::{Event, Issue, MemoryTrace, ShuffleTrace, TraceSink};
use warpsim_isa::{PredLogicOp, Special};

/// Limits on a run: always finite.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub max_cycles: u64,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            max_cycles: 100_000_000,
        }
    }
}

/// What a run counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub warp_instructions: u64,
    /// Executing lanes summed over warp instructions.
    pub lane_instructions: u64,
    pub shuffles: u64,
    /// Lane reads by shuffles that are undefined on hardware.
    pub undefined_shuffle_reads: u64,
    pub divergent_branches: u64,
}

/// The result of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunOutput {
    pub cycles: u64,
    pub stats: Stats,
    /// Every global buffer's final contents.
    pub buffers: Vec<Buffer>,
}

impl RunOutput {
    pub fn buffer(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }
}

/// One resident warp.
struct Warp {
    block_slot: usize,
    block_id: u32,
    warp_in_block: u32,
    stack: SimtStack,
    /// Registers, structure of arrays: register `r` of lane `l` is `regs[r * W + l]`.
    regs: Vec<u32>,
    /// Predicates as lane masks.
    preds: Vec<u64>,
    scoreboard: Scoreboard,
    /// Earliest cycle this warp may issue again (one instruction per cycle; branch resolution).
    next_issue: u64,
}

struct Block {
    id: u32,
    warps_left: u32,
}

/// Run `kernel` on one SM to completion.
pub fn run<T: TraceSink>(
    kernel: &Kernel,
    config: &Config,
    options: &RunOptions,
    trace: &mut T,
) -> Result<RunOutput, Fault> {
    Sm::new(kernel, config).run(options, trace)
}

struct Sm<'k> {
    kernel: &'k Kernel,
    config: &'k Config,
    w: usize,
    memory: Vec<Buffer>,
    /// Warp slots; slot `i` belongs to scheduler `i % schedulers`.
    warps: Vec<Option<Warp>>,
    blocks: Vec<Option<Block>>,
    next_block: u32,
    /// Per scheduler: the slot it issued last (round robin starts after it).
    last_issued: Vec<usize>,
    stats: Stats,
    /// Cycle at which the last result completes.
    end: u64,
}

impl<'k> Sm<'k> {
    fn new(kernel: &'k Kernel, config: &'k Config) -> Sm<'k> {
        let slots = config.max_warps_per_sm.max(kernel.warps_per_block()) as usize;
        let schedulers = config.schedulers.max(1) as usize;
        Sm {
            kernel,
            config,
            w: kernel.warp_size as usize,
            memory: kernel.buffers.clone(),
            warps: (0..slots).map(|_| None).collect(),
            blocks: Vec::new(),
            next_block: 0,
            last_issued: (0..schedulers).map(|s| s + schedulers * (slots / schedulers)).collect(),
            stats: Stats::default(),
            end: 0,
        }
    }

    /// Place blocks while the SM has room.
    fn launch_blocks<T: TraceSink>(&mut self, cycle: u64, trace: &mut T) {
        let per_block = self.kernel.warps_per_block() as usize;
        while self.next_block < self.kernel.grid {
            let resident = self.blocks.iter().filter(|b| b.is_some()).count();
            let free: Vec<usize> = (0..self.warps.len())
                .filter(|&i| self.warps[i].is_none())
                .take(per_block)
                .collect();
            if resident >= self.config.max_blocks_per_sm as usize || free.len() < per_block {
                break;
            }
            let id = self.next_block;
            self.next_block += 1;
            let slot = match self.blocks.iter().position(Option::is_none) {
                Some(s) => s,
                None => {
                    self.blocks.push(None);
                    self.blocks.len() - 1
                }
            };
            self.blocks[slot] = Some(Block {
                id,
                warps_left: per_block as u32,
            });
            let nregs = self.kernel.program.regs.len();
            let npreds = self.kernel.program.preds.len();
            for (k, &warp_slot) in free.iter().enumerate() {
                let first_thread = (k * self.w) as u32;
                let lanes = (self.kernel.block - first_thread).min(self.w as u32);
                let mask = if lanes == 64 { u64::MAX } else { (1u64 << lanes) - 1 };
                self.warps[warp_slot] = Some(Warp {
                    block_slot: slot,
                    block_id: id,
                    warp_in_block: k as u32,
                    stack: SimtStack::new(mask),
                    regs: vec![0; nregs * self.w],
                    preds: vec![0; npreds],
                    scoreboard: Scoreboard::new(nregs, npreds),
                    next_issue: cycle,
                });
            }
            if T::ENABLED {
                trace.event(Event::BlockLaunch {
                    cycle,
                    block: id,
                    warps: per_block as u32,
                });
            }
        }
    }

    fn run<T: TraceSink>(mut self, options: &RunOptions, trace: &mut T) -> Result<RunOutput, Fault> {
        let mut cycle = 0u64;
        self.launch_blocks(cycle, trace);
        let schedulers = self.last_issued.len();
        let slots = self.warps.len();
        loop {
            if self.warps.iter().all(Option::is_none) && self.next_block >= self.kernel.grid {
                break;
            }
            let mut issued = false;
            let mut earliest = u64::MAX;
            let mut finished_block = false;
            for s in 0..schedulers {
                let owned = slots.div_ceil(schedulers);
                let start = self.last_issued[s] / schedulers;
                for k in 1..=owned {
                    let slot = s + schedulers * ((start + k) % owned);
                    if slot >= slots {
                        continue;
                    }
                    let Some(warp) = self.warps[slot].as_ref() else {
                        continue;
                    };
                    let pc = warp.stack.top().map(|t| t.pc).unwrap_or(0) as usize;
                    // Past the last instruction the warp only has to exit.
                    let operands = self
                        .kernel
                        .code
                        .get(pc)
                        .map(|i| warp.scoreboard.ready_at(i))
                        .unwrap_or(0);
                    let ready = warp.next_issue.max(operands);
                    if ready <= cycle {
                        self.last_issued[s] = slot;
                        issued = true;
                        if self.issue(slot, cycle, trace)? {
                            finished_block = true;
                        }
                        break;
                    }
                    earliest = earliest.min(ready);
                }
            }
            if finished_block {
                self.launch_blocks(cycle + 1, trace);
            }
            cycle = if issued { cycle + 1 } else { earliest.max(cycle + 1) };
            if cycle > options.max_cycles {
                let (slot, warp) = self
                    .warps
                    .iter()
                    .enumerate()
                    .find_map(|(i, w)| w.as_ref().map(|w| (i, w)))
                    .expect("a live warp");
                let _ = slot;
                return Err(Fault {
                    kind: FaultKind::CycleLimit {
                        limit: options.max_cycles,
                    },
                    cycle,
                    block: warp.block_id,
                    warp: warp.warp_in_block,
                    lane: None,
                    pc: warp.stack.top().map(|t| t.pc).unwrap_or(0),
                });
            }
        }
        Ok(RunOutput {
            cycles: self.end,
            stats: self.stats,
            buffers: self.memory,
        })
    }

    fn latency(&self, unit: Unit) -> u32 {
        let t = &self.config.timing;
        match unit {
            Unit::IntAlu => t.int_alu,
            Unit::IntMul => t.int_mul,
            Unit::IntDiv => t.int_div,
            Unit::Fp32 => t.fp32,
            Unit::Fp32Div => t.fp32_div,
            Unit::Convert => t.convert,
            Unit::Shuffle => t.shuffle,
            Unit::ShuffleIdx => t.shuffle_idx,
            Unit::GlobalLoad => t.global_load,
            Unit::GlobalStore => t.global_store,
            Unit::Branch => t.branch,
            Unit::Clock => t.clock_read,
        }
    }

    /// Issue the next instruction of the warp in `slot`. Returns whether its block finished.
    fn issue<T: TraceSink>(&mut self, slot: usize, cycle: u64, trace: &mut T) -> Result<bool, Fault> {
        let kernel = self.kernel;
        let w = self.w;
        let n = kernel.code.len() as u32;
        let latency = {
            let warp = self.warps[slot].as_ref().expect("live warp");
            let pc = warp.stack.top().map(|t| t.pc).unwrap_or(n);
            if pc >= n {
                0
            } else {
                self.latency(kernel.code[pc as usize].unit)
            }
        };
        let warp = self.warps[slot].as_mut().expect("live warp");
        let top = *warp.stack.top().expect("a warp with lanes has a stack entry");
        let pc = top.pc;
        if pc >= n {
            // Fell off the end: those lanes exit.
            warp.stack.remove_lanes(top.mask);
            return Ok(self.after_issue(slot, cycle, trace));
        }
        let inst: &DInstr = &kernel.code[pc as usize];
        let active = top.mask;
        let exec = match inst.guard {
            None => active,
            Some((p, neg)) => {
                let v = warp.preds[p as usize];
                active & if neg { !v } else { v }
            }
        };
        let ctx = LaneCtx {
            w: w as u32,
            block: warp.block_id,
            warp_in_block: warp.warp_in_block,
            ntid: kernel.block,
            nctaid: kernel.grid,
            nwarps: kernel.warps_per_block(),
            cycle,
        };
        self.stats.warp_instructions += 1;
        self.stats.lane_instructions += exec.count_ones() as u64;
        let mut event = if T::ENABLED {
            Some(Box::new(Issue {
                cycle,
                block: warp.block_id,
                warp: warp.warp_in_block,
                pc,
                active,
                exec,
                operands: operand_values(inst, warp, &ctx),
                write: None,
                pred_write: None,
                shuffle: None,
                memory: None,
            }))
        } else {
            None
        };
        let fault = |kind: FaultKind, lane: Option<u32>| Fault {
            kind,
            cycle,
            block: ctx.block,
            warp: ctx.warp_in_block,
            lane,
            pc,
        };
        let mut next_pc = pc + 1;
        let mut branch: Option<(u64, u32)> = None;
        match inst.op {
            DOp::Mov { d, a } => {
                for_lanes(exec, |lane| {
                    let v = read(warp, a, lane, &ctx);
                    warp.regs[d as usize * w + lane as usize] = v;
                });
            }
            DOp::Un { f, d, a } => for_lanes(exec, |lane| {
                let v = alu::unary(f, read(warp, a, lane, &ctx));
                warp.regs[d as usize * w + lane as usize] = v;
            }),
            DOp::Bin { f, d, a, b } => {
                let mut m = exec;
                while m != 0 {
                    let lane = m.trailing_zeros();
                    m &= m - 1;
                    let x = read(warp, a, lane, &ctx);
                    let y = read(warp, b, lane, &ctx);
                    match alu::binary(f, x, y) {
                        Some(v) => warp.regs[d as usize * w + lane as usize] = v,
                        None => return Err(fault(FaultKind::DivideByZero, Some(lane))),
                    }
                }
            }
            DOp::Tern { f, d, a, b, c } => for_lanes(exec, |lane| {
                let v = alu::ternary(
                    f,
                    read(warp, a, lane, &ctx),
                    read(warp, b, lane, &ctx),
                    read(warp, c, lane, &ctx),
                );
                warp.regs[d as usize * w + lane as usize] = v;
            }),
            DOp::Setp { cmp, class, p, a, b } => {
                let mut bits = 0u64;
                for_lanes(exec, |lane| {
                    if alu::compare(cmp, class, read(warp, a, lane, &ctx), read(warp, b, lane, &ctx)) {
                        bits |= 1 << lane;
                    }
                });
                warp.preds[p as usize] = (warp.preds[p as usize] & !exec) | bits;
            }
            DOp::PredLogic { op, d, a, b } => {
                let get = |(p, neg): (u16, bool)| {
                    let v = warp.preds[p as usize];
                    if neg { !v } else { v }
                };
                let x = get(a);
                let v = match (op, b) {
                    (PredLogicOp::Not, _) => !x,
                    (PredLogicOp::And, Some(b)) => x & get(b),
                    (PredLogicOp::Or, Some(b)) => x | get(b),
                    (PredLogicOp::Xor, Some(b)) => x ^ get(b),
                    (_, None) => x,
                };
                warp.preds[d as usize] = (warp.preds[d as usize] & !exec) | (v & exec);
            }
            DOp::Selp { d, a, b, p } => {
                let pv = warp.preds[p as usize];
                for_lanes(exec, |lane| {
                    let v = if pv >> lane & 1 == 1 {
                        read(warp, a, lane, &ctx)
                    } else {
                        read(warp, b, lane, &ctx)
                    };
                    warp.regs[d as usize * w + lane as usize] = v;
                });
            }
            DOp::Cvt { f, d, a } => for_lanes(exec, |lane| {
                let v = alu::convert(f, read(warp, a, lane, &ctx));
                warp.regs[d as usize * w + lane as usize] = v;
            }),
            DOp::Ld { d, addr } => {
                let mut index = if T::ENABLED { vec![0u64; w] } else { Vec::new() };
                let mut m = exec;
                while m != 0 {
                    let lane = m.trailing_zeros();
                    m &= m - 1;
                    let k =
                        element(&self.memory, warp, addr, lane, &ctx, false).map_err(|kind| fault(kind, Some(lane)))?;
                    warp.regs[d as usize * w + lane as usize] = self.memory[addr.buffer as usize].data[k];
                    if T::ENABLED {
                        index[lane as usize] = k as u64;
                    }
                }
                if let Some(e) = event.as_mut() {
                    e.memory = Some(MemoryTrace {
                        buffer: addr.buffer,
                        store: false,
                        index,
                    });
                }
            }
            DOp::St { addr, a } => {
                let mut index = if T::ENABLED { vec![0u64; w] } else { Vec::new() };
                let mut m = exec;
                // Check every lane first so a faulting store writes nothing.
                while m != 0 {
                    let lane = m.trailing_zeros();
                    m &= m - 1;
                    element(&self.memory, warp, addr, lane, &ctx, true).map_err(|kind| fault(kind, Some(lane)))?;
                }
                let mut m = exec;
                while m != 0 {
                    let lane = m.trailing_zeros();
                    m &= m - 1;
                    let k =
                        element(&self.memory, warp, addr, lane, &ctx, true).map_err(|kind| fault(kind, Some(lane)))?;
                    // Lanes storing to one address: the highest lane wins (one deterministic order).
                    self.memory[addr.buffer as usize].data[k] = read(warp, a, lane, &ctx);
                    if T::ENABLED {
                        index[lane as usize] = k as u64;
                    }
                }
                if let Some(e) = event.as_mut() {
                    e.memory = Some(MemoryTrace {
                        buffer: addr.buffer,
                        store: true,
                        index,
                    });
                }
            }
            DOp::Shfl {
                mode,
                d,
                p,
                a,
                b,
                clamp,
                segmask,
                member,
            } => {
                self.stats.shuffles += 1;
                // Every lane reads its source before any lane writes.
                let mut src_vals = [0u32; 64];
                for (lane, v) in src_vals.iter_mut().enumerate().take(w) {
                    *v = read(warp, a, lane as u32, &ctx);
                }
                let mut sources = if T::ENABLED { vec![0u32; w] } else { Vec::new() };
                let mut in_range = 0u64;
                let mut undefined = 0u64;
                for lane in 0..w as u32 {
                    let bl = read(warp, b, lane, &ctx);
                    let s = shuffle::source_lane(mode, lane, bl, clamp, segmask, w as u32);
                    if T::ENABLED {
                        sources[lane as usize] = s.src;
                    }
                    if s.in_range {
                        in_range |= 1 << lane;
                    }
                    if exec >> lane & 1 == 1 {
                        warp.regs[d as usize * w + lane as usize] = src_vals[s.src as usize];
                        if shuffle::read_is_undefined(lane, s.src, member, exec) {
                            undefined |= 1 << lane;
                        }
                    }
                }
                self.stats.undefined_shuffle_reads += undefined.count_ones() as u64;
                if let Some(p) = p {
                    warp.preds[p as usize] = (warp.preds[p as usize] & !exec) | (in_range & exec);
                }
                if let Some(e) = event.as_mut() {
                    e.shuffle = Some(ShuffleTrace {
                        sources,
                        in_range: in_range & exec,
                        undefined,
                    });
                }
            }
            DOp::Bra { target } => {
                let fallthrough = active & !exec;
                if exec == 0 {
                    // No lane takes it.
                } else if fallthrough == 0 {
                    next_pc = target;
                } else {
                    branch = Some((exec, target));
                }
            }
            DOp::Exit => {
                warp.stack.remove_lanes(exec);
            }
            DOp::Nop => {}
        }
        // Scoreboard and timing.
        let done = cycle + latency as u64;
        warp.scoreboard.reserve(inst, done);
        self.end = self.end.max(done);
        warp.next_issue = cycle + if inst.unit == Unit::Branch { latency as u64 } else { 1 };
        if let Some(e) = event.as_mut() {
            if let Some(d) = inst.write {
                let row = &warp.regs[d as usize * w..(d as usize + 1) * w];
                e.write = Some((d, row.to_vec()));
            }
            if let Some(p) = inst.pred_write {
                e.pred_write = Some((p, warp.preds[p as usize]));
            }
        }
        if let Some(e) = event {
            trace.event(Event::Issue(e));
        }
        // Control flow.
        let warp = self.warps[slot].as_mut().expect("live warp");
        if let Some((taken, target)) = branch {
            let fallthrough = active & !taken;
            self.stats.divergent_branches += 1;
            warp.stack.diverge(taken, target, fallthrough, pc + 1, inst.reconverge);
            if T::ENABLED {
                trace.event(Event::Diverge {
                    cycle,
                    block: warp.block_id,
                    warp: warp.warp_in_block,
                    pc,
                    taken,
                    fallthrough,
                    target,
                    reconverge: inst.reconverge,
                });
            }
        } else if let Some(top) = warp.stack.top_mut() {
            if top.pc == pc {
                top.pc = next_pc;
            }
        }
        Ok(self.after_issue(slot, cycle, trace))
    }

    /// Settle the SIMT stack; retire the warp (and its block) when no lanes are left. Returns whether a block
    /// finished.
    fn after_issue<T: TraceSink>(&mut self, slot: usize, cycle: u64, trace: &mut T) -> bool {
        let n = self.kernel.code.len() as u32;
        let warp = self.warps[slot].as_mut().expect("live warp");
        loop {
            if let Some(Merge::Reconverged { pc, mask }) = warp.stack.settle() {
                if T::ENABLED {
                    trace.event(Event::Reconverge {
                        cycle,
                        block: warp.block_id,
                        warp: warp.warp_in_block,
                        pc,
                        mask,
                    });
                }
            }
            match warp.stack.top().copied() {
                // Lanes at the end of the program exit.
                Some(top) if top.pc >= n => warp.stack.remove_lanes(top.mask),
                _ => break,
            }
        }
        if !warp.stack.is_empty() {
            return false;
        }
        if T::ENABLED {
            trace.event(Event::WarpExit {
                cycle,
                block: warp.block_id,
                warp: warp.warp_in_block,
            });
        }
        let block_slot = warp.block_slot;
        self.warps[slot] = None;
        let block = self.blocks[block_slot].as_mut().expect("block of a live warp");
        block.warps_left -= 1;
        if block.warps_left == 0 {
            let _ = block.id;
            self.blocks[block_slot] = None;
            return true;
        }
        false
    }
}

/// What special registers read for a lane.
struct LaneCtx {
    w: u32,
    block: u32,
    warp_in_block: u32,
    ntid: u32,
    nctaid: u32,
    nwarps: u32,
    cycle: u64,
}

#[inline]
fn read(warp: &Warp, s: Src, lane: u32, ctx: &LaneCtx) -> u32 {
    match s {
        Src::Reg(r) => warp.regs[r as usize * ctx.w as usize + lane as usize],
        Src::Imm(v) => v,
        Src::Special(sp) => match sp {
            Special::LaneId => lane,
            Special::TidX => ctx.warp_in_block * ctx.w + lane,
            Special::NtidX => ctx.ntid,
            Special::CtaidX => ctx.block,
            Special::NctaidX => ctx.nctaid,
            Special::WarpId => ctx.warp_in_block,
            Special::NWarpId => ctx.nwarps,
            Special::WarpSize => ctx.w,
            Special::Clock => ctx.cycle as u32,
        },
    }
}

#[inline]
fn for_lanes(mask: u64, mut f: impl FnMut(u32)) {
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        f(lane);
    }
}

/// The element index a lane accesses, bounds- and alignment-checked.
#[inline]
fn element(
    memory: &[Buffer],
    warp: &Warp,
    addr: DAddr,
    lane: u32,
    ctx: &LaneCtx,
    store: bool,
) -> Result<usize, FaultKind> {
    let buf = &memory[addr.buffer as usize];
    let base = addr.base.map(|b| read(warp, b, lane, ctx) as i32 as i64).unwrap_or(0);
    let offset = base + addr.disp;
    let index = if addr.byte {
        if offset.rem_euclid(4) != 0 {
            return Err(FaultKind::Misaligned {
                buffer: buf.name.clone(),
                byte_offset: offset,
                store,
            });
        }
        offset.div_euclid(4)
    } else {
        offset
    };
    if index < 0 || index as usize >= buf.data.len() {
        return Err(FaultKind::OutOfBounds {
            buffer: buf.name.clone(),
            index,
            len: buf.data.len(),
            store,
        });
    }
    Ok(index as usize)
}

/// Source operand values of every lane, for the trace.
fn operand_values(inst: &DInstr, warp: &Warp, ctx: &LaneCtx) -> Vec<Vec<u32>> {
    let srcs: Vec<Src> = match inst.op {
        DOp::Mov { a, .. } | DOp::Un { a, .. } | DOp::Cvt { a, .. } => vec![a],
        DOp::Bin { a, b, .. } | DOp::Setp { a, b, .. } | DOp::Selp { a, b, .. } => vec![a, b],
        DOp::Tern { a, b, c, .. } => vec![a, b, c],
        DOp::St { a, .. } => vec![a],
        DOp::Shfl { a, b, .. } => vec![a, b],
        _ => vec![],
    };
    srcs.into_iter()
        .map(|s| (0..ctx.w).map(|lane| read(warp, s, lane, ctx)).collect())
        .collect()
}
