//! The register file and operand read: each warp's registers and predicates, and the special registers a lane
//! reads (`%laneid`, `%tid.x`, `%clock`, the lane masks …).
//!
//! On hardware each SM sub-partition has a banked register file shared by its warps; an instruction's operands
//! are read through collectors over a few cycles, and bank conflicts between operands can delay the read. The
//! model keeps each warp's registers as its own rows (no banks, no collector: an operand read takes no time
//! beyond the instruction's latency in `Config::timing`), and predicates as one lane mask per predicate.
//!
//! Layout: structure of arrays. Register `r` of lane `l` is `regs[r * stride + l]`: a row per register, 32 lanes
//! wide for W ≤ 32 and 64 above ([`row_stride`]); a row moves into a fixed-size array of 64 (`alu::Row`) and the
//! ALU works on those; lanes past W are never read.

use crate::alu::Row;
use crate::kernel::{Dim3, Src};
use warpsim_isa::Special;

/// Lanes per register row at warp size `w`: 32, or 64 for the widest warps (a row holds no more lanes than
/// needed: the register file is the bulk of a warp's storage).
pub(crate) const fn row_stride(w: u32) -> usize {
    if w <= 32 { 32 } else { 64 }
}

/// One warp's registers and predicates.
#[derive(Default)]
pub(crate) struct RegisterFile {
    /// Register `r` of lane `l` at `r * stride + l`.
    pub regs: Vec<u32>,
    /// Lanes per row ([`row_stride`]).
    pub stride: usize,
    /// Predicate `p` as a lane mask.
    pub preds: Vec<u64>,
}

/// What the special registers read for a lane of one warp at one cycle.
pub(crate) struct LaneCtx<'k> {
    /// The kernel's 64-bit immediates.
    pub consts: &'k [u64],
    pub w: u32,
    /// Every lane of the warp, as a mask.
    pub full: u64,
    /// The block's linear number in the grid (x fastest).
    pub block: u32,
    pub warp_in_block: u32,
    /// The block's shape.
    pub ntid: Dim3,
    /// The grid's shape.
    pub nctaid: Dim3,
    pub nwarps: u32,
    pub cycle: u64,
    /// The SM the warp runs on (`%smid`).
    pub sm: u32,
}

impl RegisterFile {
    /// Every register and predicate zeroed, for a warp that is placed (the storage is reused); or, given `rows`,
    /// only those (the others keep what the slot's previous warp left, which no lane reads before writing).
    pub fn reset(&mut self, nregs: usize, npreds: usize, stride: usize, rows: Option<&[u16]>) {
        match rows {
            Some(rows) if self.regs.len() == nregs * stride && self.stride == stride => {
                if cfg!(debug_assertions) {
                    // Tests run debug builds: a row the analysis wrongly left alone reads this, not a stale
                    // value that happens to be right, and a traced run (every row zeroed) disagrees.
                    self.regs.fill(0xa5a5_a5a5);
                }
                for &r in rows {
                    self.regs[r as usize * stride..(r as usize + 1) * stride].fill(0);
                }
            }
            _ => {
                self.stride = stride;
                self.regs.clear();
                self.regs.resize(nregs * stride, 0);
            }
        }
        self.preds.clear();
        self.preds.resize(npreds, 0);
    }

    /// Operand `s` of one lane.
    #[inline]
    pub fn read(&self, s: Src, lane: u32, ctx: &LaneCtx) -> u32 {
        match s {
            Src::Reg(r) => self.regs[r as usize * self.stride + lane as usize],
            Src::Imm(v) => v,
            Src::Const(k) => crate::kernel::low32(ctx.consts[k as usize]),
            Src::Special(sp) => special(sp, lane, ctx),
        }
    }

    /// Operand `s` of one lane, 64 bits wide (a register and the next row, a 64-bit immediate) or 32 (in the low
    /// half).
    #[inline]
    pub fn read_at(&self, s: Src, wide: bool, lane: u32, ctx: &LaneCtx) -> u64 {
        match s {
            Src::Reg(r) if wide => {
                let at = r as usize * self.stride + lane as usize;
                u64::from(self.regs[at]) | u64::from(self.regs[at + self.stride]) << 32
            }
            Src::Const(k) => ctx.consts[k as usize],
            Src::Special(Special::Clock64) => ctx.cycle,
            _ => u64::from(self.read(s, lane, ctx)),
        }
    }

    /// Write register `d` of one lane: 64 bits (this row and the next) or the low 32.
    #[inline]
    pub fn write_at(&mut self, d: u16, wide: bool, lane: u32, v: u64) {
        let at = d as usize * self.stride + lane as usize;
        self.regs[at] = crate::kernel::low32(v);
        if wide {
            self.regs[at + self.stride] = crate::kernel::high32(v);
        }
    }

    /// Operand `s` of every lane of the warp as a row (lane `l` at `l`): a register's own row, read in place, or
    /// `buf` filled ([`RegisterFile::fetch`]).
    #[inline(always)]
    pub fn operand<'a>(&'a self, s: Src, ctx: &LaneCtx, buf: &'a mut Row) -> &'a [u32] {
        if let Src::Reg(r) = s {
            let st = self.stride;
            &self.regs[r as usize * st..(r as usize + 1) * st]
        } else {
            self.fetch(s, ctx, buf);
            buf
        }
    }

    /// Operand `s` of every lane of the warp, into `out` (lane `l` at `l`).
    #[inline(always)]
    pub fn fetch(&self, s: Src, ctx: &LaneCtx, out: &mut Row) {
        let w = ctx.w as usize;
        match s {
            Src::Reg(r) => {
                // (Two fixed-size copies: the compiler knows each one's length.)
                if self.stride == 32 {
                    out[..32].copy_from_slice(&self.regs[r as usize * 32..(r as usize + 1) * 32]);
                } else {
                    out.copy_from_slice(&self.regs[r as usize * 64..(r as usize + 1) * 64]);
                }
            }
            Src::Imm(v) => out[..w].fill(v),
            Src::Const(k) => out[..w].fill(crate::kernel::low32(ctx.consts[k as usize])),
            Src::Special(sp @ (Special::TidX | Special::TidY | Special::TidZ)) => tid_row(sp, ctx, &mut out[..w]),
            Src::Special(Special::LaneId) => {
                for (lane, o) in (0u32..).zip(&mut out[..w]) {
                    *o = lane;
                }
            }
            Src::Special(
                sp @ (Special::LanemaskEq
                | Special::LanemaskLt
                | Special::LanemaskLe
                | Special::LanemaskGt
                | Special::LanemaskGe),
            ) => {
                for (lane, o) in out[..w].iter_mut().enumerate() {
                    #[allow(
                        clippy::cast_possible_truncation,
                        reason = "a lane, below the warp size (at most 64)"
                    )]
                    let lane = lane as u32;
                    *o = special(sp, lane, ctx);
                }
            }
            // The same in every lane: the warp's and block's numbers, the shapes, W, the clock.
            Src::Special(sp) => out[..w].fill(special(sp, 0, ctx)),
        }
    }

    /// Operand `s` of every lane, 64 bits wide (a register's row and the next, or a 64-bit immediate) or 32
    /// (zero-extended), into `out`.
    #[inline(always)]
    pub fn fetch64(&self, s: Src, wide: bool, ctx: &LaneCtx, out: &mut [u64; 64]) {
        let w = ctx.w as usize;
        match s {
            Src::Reg(r) => {
                let s = self.stride;
                let at = r as usize * s;
                let lo = &self.regs[at..at + s];
                if wide {
                    let hi = &self.regs[at + s..at + 2 * s];
                    for ((o, &l), &h) in out.iter_mut().zip(lo).zip(hi) {
                        *o = u64::from(l) | u64::from(h) << 32;
                    }
                } else {
                    for (o, &l) in out.iter_mut().zip(lo) {
                        *o = u64::from(l);
                    }
                }
            }
            Src::Imm(v) => out[..w].fill(u64::from(v)),
            Src::Const(k) if wide => out[..w].fill(ctx.consts[k as usize]),
            Src::Const(k) => out[..w].fill(u64::from(crate::kernel::low32(ctx.consts[k as usize]))),
            Src::Special(Special::Clock64) => out[..w].fill(ctx.cycle),
            // (Every other special is 32 bits wide, zero-extended: its row as `fetch` makes it.)
            Src::Special(_) => {
                let mut row = [0u32; 64];
                self.fetch(s, ctx, &mut row);
                for (o, &v) in out[..w].iter_mut().zip(&row[..w]) {
                    *o = u64::from(v);
                }
            }
        }
    }

    /// Write the 64-bit (`wide`: this row and the next) or 32-bit `values` into register `d` of the lanes in
    /// `exec`.
    #[inline(always)]
    pub fn write_row64(&mut self, d: u16, wide: bool, w: usize, exec: u64, values: &[u64; 64]) {
        let s = self.stride;
        let at = d as usize * s;
        let rows = if wide { 2 } else { 1 };
        let (lo, hi) = self.regs[at..at + rows * s].split_at_mut(s);
        if exec.count_ones() as usize == w {
            for (l, &v) in lo.iter_mut().zip(values) {
                *l = crate::kernel::low32(v);
            }
            if wide {
                for (h, &v) in hi.iter_mut().zip(values) {
                    *h = crate::kernel::high32(v);
                }
            }
        } else {
            for_lanes(exec, |lane| {
                let v = values[lane as usize];
                lo[lane as usize] = crate::kernel::low32(v);
                if wide {
                    hi[lane as usize] = crate::kernel::high32(v);
                }
            });
        }
    }

    /// Write `values` into register `d` of the lanes in `exec` (the whole row at once when every lane executes).
    #[inline(always)]
    pub fn write_row(&mut self, d: u16, w: usize, exec: u64, values: &Row) {
        let s = self.stride;
        let row = &mut self.regs[d as usize * s..(d as usize + 1) * s];
        if exec.count_ones() as usize == w {
            // (Lanes past W are never read.)
            if s == 32 {
                row.copy_from_slice(&values[..32]);
            } else {
                row.copy_from_slice(values);
            }
        } else {
            for_lanes(exec, |lane| row[lane as usize] = values[lane as usize]);
        }
    }

    /// Register `d` of the first `w` lanes.
    #[inline]
    pub fn row(&self, d: u16, w: usize) -> &[u32] {
        &self.regs[d as usize * self.stride..d as usize * self.stride + w]
    }

    /// The values of `operands` (an instruction's value operands, [`crate::kernel::Described`]) in every lane,
    /// as its operand read sees them (before it writes): for the trace only.
    pub fn operand_rows(&self, d: &crate::kernel::Described, ctx: &LaneCtx) -> Vec<Vec<u64>> {
        d.operands
            .iter()
            .zip(&d.wide)
            .map(|(&s, &wide)| (0..ctx.w).map(|lane| self.read_at(s, wide, lane, ctx)).collect())
            .collect()
    }
}

/// A special register as one lane reads it.
#[inline]
#[allow(
    clippy::cast_possible_truncation,
    reason = "%clock is the cycle's low 32 bits, as PTX's %clock wraps"
)]
fn special(sp: Special, lane: u32, ctx: &LaneCtx) -> u32 {
    match sp {
        Special::LaneId => lane,
        // The thread's linear number in the block is warp · W + lane (warps are cut from the linear numbers,
        // x fastest, as CUDA forms them); its (x, y, z) index follows from the block's shape. (A 1-D shape
        // takes no division: the number is below x, y and z are 0.)
        Special::TidX => {
            let t = ctx.warp_in_block * ctx.w + lane;
            if t < ctx.ntid.x { t } else { t % ctx.ntid.x }
        }
        Special::TidY if ctx.ntid.y == 1 => 0,
        Special::TidY => (ctx.warp_in_block * ctx.w + lane) / ctx.ntid.x % ctx.ntid.y,
        Special::TidZ if ctx.ntid.z == 1 => 0,
        Special::TidZ => (ctx.warp_in_block * ctx.w + lane) / (ctx.ntid.x * ctx.ntid.y),
        Special::NtidX => ctx.ntid.x,
        Special::NtidY => ctx.ntid.y,
        Special::NtidZ => ctx.ntid.z,
        // Blocks likewise: the linear block number, x fastest.
        Special::CtaidX if ctx.block < ctx.nctaid.x => ctx.block,
        Special::CtaidX => ctx.block % ctx.nctaid.x,
        Special::CtaidY if ctx.nctaid.y == 1 => 0,
        Special::CtaidY => ctx.block / ctx.nctaid.x % ctx.nctaid.y,
        Special::CtaidZ if ctx.nctaid.z == 1 => 0,
        Special::CtaidZ => ctx.block / (ctx.nctaid.x * ctx.nctaid.y),
        Special::NctaidX => ctx.nctaid.x,
        Special::NctaidY => ctx.nctaid.y,
        Special::NctaidZ => ctx.nctaid.z,
        Special::WarpId => ctx.warp_in_block,
        Special::NWarpId => ctx.nwarps,
        Special::WarpSize => ctx.w,
        Special::Clock => ctx.cycle as u32,
        // (64 bits wide: read through `read_at`; as a 32-bit operand, the low half.)
        Special::Clock64 => ctx.cycle as u32,
        Special::SmId => ctx.sm,
        // Launch constants: the decoder makes them immediates.
        Special::NSmId | Special::DynamicSmemSize | Special::TotalSmemSize => 0,
        // 32-bit lane masks: lanes 32–63 of a 64-lane warp are not representable.
        Special::LanemaskEq => 1u32.checked_shl(lane).unwrap_or(0),
        Special::LanemaskLt => 1u32.checked_shl(lane).map(|b| b - 1).unwrap_or(u32::MAX),
        Special::LanemaskLe => 1u32
            .checked_shl(lane + 1)
            .map(|b| b.wrapping_sub(1))
            .unwrap_or(u32::MAX),
        Special::LanemaskGt => u32::MAX.checked_shl(lane + 1).unwrap_or(0),
        Special::LanemaskGe => u32::MAX.checked_shl(lane).unwrap_or(0),
    }
}

/// `%tid.x`, `%tid.y` or `%tid.z` of every lane of the warp, into `out`: the first lane's index by division,
/// then each next lane one step along x (wrapping into y, then z), so a row costs no division per lane; a 1-D
/// block's `%tid.x` is warp · W + lane.
#[inline]
fn tid_row(sp: Special, ctx: &LaneCtx, out: &mut [u32]) {
    let first = ctx.warp_in_block * ctx.w;
    let n = ctx.ntid;
    if n.y == 1 && n.z == 1 {
        match sp {
            Special::TidX => {
                for (t, o) in (first..).zip(out.iter_mut()) {
                    *o = t;
                }
            }
            _ => out.fill(0),
        }
        return;
    }
    let [mut x, mut y, mut z] = n.index(first);
    for o in out.iter_mut() {
        *o = match sp {
            Special::TidX => x,
            Special::TidY => y,
            _ => z,
        };
        x += 1;
        if x == n.x {
            x = 0;
            y += 1;
            if y == n.y {
                y = 0;
                z += 1;
            }
        }
    }
}

/// `f(lane)` for each lane in `mask`, lowest first.
#[inline]
pub(crate) fn for_lanes(mask: u64, mut f: impl FnMut(u32)) {
    let mut m = mask;
    while m != 0 {
        let lane = m.trailing_zeros();
        m &= m - 1;
        f(lane);
    }
}
