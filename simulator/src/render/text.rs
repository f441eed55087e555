//! The text trace: one entry per issued warp instruction (cycle, block, warp, pc, the lanes, the instruction as
//! written), what it did to each lane, and divergence and reconvergence as they happen.
//!
//! ```text
//!   cycle sch blk warp  pc  lanes     instruction
//!      44   0   0    0   3  ########  shfl.sync.bfly.b32 %other, %v, %off
//!                                     exchange: lane 0<->4, 1<->5, 2<->6, 3<->7
//!                                     %other = [8, 10, 12, 1000, 0, 2, 4, 6]
//! ```
//!
//! Every line keeps within a width (120 columns unless `sim run --width` or the terminal says otherwise). A list
//! of lanes that would not fit is written as one value where every lane holds it (`%off = 16 (all 32 lanes)`),
//! as a rule where an exchange follows one (`exchange: lane i <-> lane i ^ 16`), as a range for consecutive
//! elements, or in rows of 16, 8, 4, 2 or 1 lanes headed by their lane numbers; messages (and, in a narrow
//! terminal, an instruction) wrap at spaces. The lanes column is at most 32 lanes wide (16 or 8 in under 120 and
//! 100 columns): the rest of a wider warp's mask continues on the entry's next lines. The lane grid is split into
//! bands of lanes the same way. `--format json` keeps every lane's value.
//!
//! `sch` is the warp scheduler (sub-partition) that issued the instruction. Shared-memory accesses list the bank
//! of every lane and the conflict degree; barriers show each warp's arrival and the release.

use super::{MASK_COLUMNS, hex_mask, lane_cells, lane_mask, pairs, wrap, xor_rule};
use crate::kernel::{Kernel, Role};
use crate::run::RunOutput;
use crate::trace::{Event, Issue};
use std::fmt::Write as _;

/// Columns before the lanes column: cycle 7, sch 3, blk 3, warp 4, pc 3, with their separators.
pub const LANES_AT: usize = 7 + 1 + 3 + 1 + 3 + 1 + 4 + 1 + 3 + 2;

/// Lanes in one line of the trace's lanes column for a `w`-lane warp in `width` columns: the whole warp up to
/// [`MASK_COLUMNS`] lanes, fewer (16, then 8) where the lines would leave less than 44 columns for the
/// instruction; the rest of the mask continues on the entry's next lines.
pub fn mask_columns(w: u32, width: usize) -> usize {
    let mut cols = (w as usize).min(MASK_COLUMNS);
    while cols > 8 && LANES_AT + cols + 2 + 44 > width {
        cols /= 2;
    }
    cols
}

/// What every line of one trace shares: the kernel, the width to keep within, and the indent of the lines under
/// an entry (past the lanes column).
struct Layout<'k> {
    kernel: &'k Kernel,
    width: usize,
    /// Lanes in one line of the lanes column.
    cols: usize,
    pad: String,
}

impl Layout<'_> {
    fn w(&self) -> u32 {
        self.kernel.warp_size
    }

    /// `message` from the pad's column on, wrapped at spaces; every line after the first starts with the pad.
    fn message(&self, out: &mut String, message: &str) {
        for (k, line) in wrap(message, self.pad.len(), self.pad.len(), self.width)
            .iter()
            .enumerate()
        {
            if k > 0 {
                out.push_str(&self.pad);
            }
            let _ = writeln!(out, "{line}");
        }
    }

    /// A line under an entry: `message` from the pad on, wrapped.
    fn line(&self, out: &mut String, message: &str) {
        out.push_str(&self.pad);
        self.message(out, message);
    }

    /// An entry's first line: its columns, the first [`MASK_COLUMNS`] lanes of `mask` (blank for an entry of no
    /// lanes), and `message` wrapped under the pad.
    fn head(&self, out: &mut String, columns: &str, mask: &str, message: &str) {
        let lanes: String = mask.chars().take(self.cols).collect();
        let _ = write!(out, "{columns:<LANES_AT$}{lanes:<cols$}  ", cols = self.cols);
        self.message(out, message);
    }

    /// `label` and one cell per lane (`-` for a lane that does not execute): `label[a, b, …]` on one line when
    /// it fits; else `label N (all W lanes)` when every lane of the warp holds the same `N`; else rows of 16
    /// lanes (8, 4, 2 or 1 where more do not fit), each headed by its lanes' numbers.
    fn lane_rows(&self, out: &mut String, label: &str, cells: &[String], exec: u64) {
        let (pad, w) = (&self.pad, self.w());
        let one = format!("{pad}{label}[{}]", cells.join(", "));
        if one.chars().count() <= self.width {
            let _ = writeln!(out, "{one}");
            return;
        }
        if exec == super::all_lanes(w) && cells.iter().all(|c| *c == cells[0]) {
            // `%v = ` is followed by the value as it is; `load from in` gains a space.
            let sep = if label.ends_with(' ') { "" } else { " " };
            self.line(out, &format!("{label}{sep}{} (all {w} lanes)", cells[0]));
            return;
        }
        // `%v =` and `from lane:` head their rows as they are; `load from in` gains a comma.
        let head = match label.trim_end() {
            h if h.ends_with(['=', ':']) => h.to_string(),
            h => format!("{h},"),
        };
        let span_width = format!("{}-{}", w - 1, w - 1).len();
        let row = |from: usize, to: usize| {
            let span = if to - from == 1 {
                format!("lane {from}:")
            } else {
                format!("lanes {from}-{}:", to - 1)
            };
            format!(
                "{span:<width$} [{}]",
                cells[from..to].join(", "),
                width = span_width + 7
            )
        };
        // Rows beside the head (`%v = lanes 0-7: […]`), or under it, indented, where even one lane does not fit
        // beside it.
        let fits = |lead: usize, n: usize| {
            (0..cells.len())
                .step_by(n)
                .all(|s| pad.len() + lead + row(s, (s + n).min(cells.len())).chars().count() <= self.width)
        };
        let beside = head.chars().count() + 1;
        let (lead, per_row) = match [16, 8, 4, 2, 1].into_iter().find(|&n| fits(beside, n)) {
            Some(n) => (beside, n),
            None => {
                let _ = writeln!(out, "{pad}{head}");
                (2, [16, 8, 4, 2].into_iter().find(|&n| fits(2, n)).unwrap_or(1))
            }
        };
        // Rows where no lane executes are left out (the lanes column shows which lanes run).
        let mut first = lead == beside;
        for s in (0..cells.len()).step_by(per_row) {
            let e = (s + per_row).min(cells.len());
            if (s..e).all(|l| exec >> l & 1 == 0) {
                continue;
            }
            let start = if first { format!("{head} ") } else { " ".repeat(lead) };
            first = false;
            let _ = writeln!(out, "{pad}{start}{}", row(s, e));
        }
    }
}

/// A 64-lane warp's mask goes on two lines: the lanes after the first [`MASK_COLUMNS`] are written into the
/// lanes column of the entry's following lines (which leave it blank), with lines added where the entry has
/// fewer.
fn mask_rest(out: &mut String, entry_start: usize, mask: &str, cols: usize) {
    let chunks: Vec<String> = mask
        .chars()
        .collect::<Vec<_>>()
        .chunks(cols)
        .skip(1)
        .map(|c| c.iter().collect())
        .collect();
    if chunks.is_empty() {
        return;
    }
    let entry = out.split_off(entry_start);
    let mut lines: Vec<String> = entry.lines().map(str::to_string).collect();
    for (k, chunk) in chunks.iter().enumerate() {
        let at = k + 1;
        if at >= lines.len() {
            lines.push(" ".repeat(LANES_AT));
        }
        let line = &mut lines[at];
        let rest: String = line.chars().skip(LANES_AT + cols).collect();
        *line = format!("{:<LANES_AT$}{chunk:<cols$}{rest}", "").trim_end().to_string();
    }
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
}

/// Warps of a 2-D or 3-D block whose threads the header lists.
const HEADER_WARPS: u32 = 16;

pub fn header(kernel: &Kernel) -> String {
    let mut out = format!(
        "{}: W={}, grid {} x block {} ({} warp{} per block)\n",
        kernel.program.name,
        kernel.warp_size,
        kernel.grid_dim,
        kernel.block_dim,
        kernel.warps_per_block(),
        if kernel.warps_per_block() == 1 { "" } else { "s" }
    );
    // A 2-D or 3-D block: which thread (x,y[,z]) each lane is, the same in every block.
    if kernel.block_dim.rank() > 1 {
        let axes = if kernel.block_dim.rank() == 2 {
            "(x,y)"
        } else {
            "(x,y,z)"
        };
        let _ = writeln!(out, "threads {axes} of each warp's lanes (x fastest):");
        let warps = kernel.warps_per_block();
        for warp in 0..warps.min(HEADER_WARPS) {
            // Runs of lanes, as many to a line as fit in the narrowest width (`--width 80`).
            let lead = format!("  warp {warp}: ");
            let mut line = lead.clone();
            for (k, run) in super::warp_threads(kernel, warp).unwrap_or_default().iter().enumerate() {
                let more = k > 0;
                if more && line.chars().count() + 2 + run.chars().count() > super::MIN_WIDTH {
                    let _ = writeln!(out, "{line},");
                    line = " ".repeat(lead.len());
                } else if more {
                    line.push_str(", ");
                }
                line.push_str(run);
            }
            let _ = writeln!(out, "{line}");
        }
        if warps > HEADER_WARPS {
            let _ = writeln!(
                out,
                "  … {} more warps: lane k of warp w is the thread numbered w·{} + k",
                warps - HEADER_WARPS,
                kernel.warp_size
            );
        }
    }
    out
}

/// The whole detailed trace, its lines at most `width` columns where they can be (an instruction is never cut).
pub fn trace(kernel: &Kernel, events: &[Event], width: usize) -> String {
    let cols = mask_columns(kernel.warp_size, width);
    let l = Layout {
        kernel,
        width,
        cols,
        pad: " ".repeat(LANES_AT + cols + 2),
    };
    let mut out = String::new();
    let lanes = match cols {
        _ if kernel.warp_size as usize <= cols => "lanes".to_string(),
        32 => format!("lanes 0-31, then 32-{}", kernel.warp_size - 1),
        16 => "lanes (16/line)".into(),
        _ => "lanes".into(),
    };
    let _ = writeln!(
        out,
        "{:>7} {:>3} {:>3} {:>4} {:>3}  {lanes:<cols$}  instruction",
        "cycle", "sch", "blk", "warp", "pc"
    );
    for e in events {
        let start = out.len();
        let mask = match e {
            Event::BlockLaunch {
                cycle,
                block,
                warps,
                sm,
            } => {
                let _ = writeln!(
                    out,
                    "{cycle:>7}     {block:>3}  block {} launched on SM {sm}: {warps} warp{}",
                    kernel.block_name(*block),
                    if *warps == 1 { "" } else { "s" }
                );
                String::new()
            }
            Event::Issue(i) => issue(&mut out, &l, i),
            Event::Diverge {
                cycle,
                block,
                warp,
                pc,
                taken,
                fallthrough,
                target,
                reconverge,
                released,
            } => {
                let mask = lane_mask(kernel.warp_size, taken | fallthrough, *taken);
                let first = match *released {
                    0 => " (run first)",
                    r if r == *taken => "; the lanes branching leave a loop with a YIELD and run first, alone",
                    _ => "; the lanes falling through leave a loop with a YIELD and run first, alone",
                };
                l.head(
                    &mut out,
                    &format!("{cycle:>7}     {block:>3} {warp:>4} {pc:>3}"),
                    &mask,
                    &format!(
                        "diverge: {} branch to {}, {} fall through{first}; reconverge at {}",
                        count_lanes(*taken),
                        pc_name(kernel, *target),
                        count_lanes(*fallthrough),
                        pc_name(kernel, *reconverge)
                    ),
                );
                mask
            }
            Event::Reconverge {
                cycle,
                block,
                warp,
                pc,
                mask,
            } => {
                let lanes = lane_mask(kernel.warp_size, *mask, *mask);
                l.head(
                    &mut out,
                    &format!("{cycle:>7}     {block:>3} {warp:>4} {pc:>3}"),
                    &lanes,
                    &format!("reconverge: {}", count_lanes(*mask)),
                );
                lanes
            }
            Event::AtomicReturn {
                cycle,
                block,
                warp,
                pc,
                reg,
                lanes,
                values,
            } => {
                let mask = lane_mask(kernel.warp_size, *lanes, *lanes);
                l.head(
                    &mut out,
                    &format!("{cycle:>7}     {block:>3} {warp:>4} {pc:>3}"),
                    &mask,
                    "the atomic's old values arrive",
                );
                let ty = kernel.reg_types[*reg as usize];
                let label = format!("%{} = ", kernel.program.reg_name(warpsim_isa::Reg(*reg)));
                l.lane_rows(
                    &mut out,
                    &label,
                    &lane_cells(kernel.warp_size, ty, values, *lanes),
                    *lanes,
                );
                mask
            }
            Event::WarpExit { cycle, block, warp, .. } => {
                let _ = writeln!(
                    out,
                    "{cycle:>7}     {block:>3} {warp:>4}       warp {warp} of block {block} exited"
                );
                String::new()
            }
            Event::BarrierArrive {
                cycle,
                block,
                warp,
                pc,
                id,
                arrived,
                expected,
            } => {
                l.head(
                    &mut out,
                    &format!("{cycle:>7}     {block:>3} {warp:>4} {pc:>3}"),
                    "",
                    &format!("barrier {id}: warp {warp} arrives ({arrived} of {expected} warps)"),
                );
                String::new()
            }
            Event::BarrierRelease {
                cycle,
                block,
                id,
                warps,
                resume,
                result,
            } => {
                let list: Vec<String> = warps.iter().map(u32::to_string).collect();
                let reduction = match result {
                    crate::trace::BarrierResult::None => String::new(),
                    crate::trace::BarrierResult::Popc(n) => format!("; popc = {n}"),
                    crate::trace::BarrierResult::And(b) => format!("; and = {b}"),
                    crate::trace::BarrierResult::Or(b) => format!("; or = {b}"),
                };
                l.head(
                    &mut out,
                    &format!("{cycle:>7}     {block:>3}"),
                    "",
                    &format!(
                        "barrier {id}: released warp{} {}; {} resume at cycle {resume}{reduction}",
                        if warps.len() == 1 { "" } else { "s" },
                        list.join(", "),
                        if warps.len() == 1 { "it" } else { "they" }
                    ),
                );
                String::new()
            }
        };
        mask_rest(&mut out, start, &mask, cols);
    }
    out
}

/// `1 lane`, `3 lanes`.
fn count_lanes(mask: u64) -> String {
    match mask.count_ones() {
        1 => "1 lane".into(),
        n => format!("{n} lanes"),
    }
}

fn pc_name(kernel: &Kernel, pc: u32) -> String {
    if pc as usize >= kernel.described.len() {
        return "exit".into();
    }
    match kernel.program.labels.iter().find(|(_, at)| *at == pc as usize) {
        Some((l, _)) => format!("pc {pc} ({l})"),
        None => format!("pc {pc}"),
    }
}

/// An issued instruction's entry; returns its lane mask (all of it: [`mask_rest`] writes what the first line
/// does not hold).
fn issue(out: &mut String, l: &Layout, i: &Issue) -> String {
    let kernel = l.kernel;
    let pad = l.pad.as_str();
    let inst = &kernel.program.instructions[i.pc as usize];
    let d = &kernel.described[i.pc as usize];
    let mask = lane_mask(kernel.warp_size, i.active, i.exec);
    l.head(
        out,
        &format!(
            "{:>7} {:>3} {:>3} {:>4} {:>3}",
            i.cycle, i.scheduler, i.block, i.warp, i.pc
        ),
        &mask,
        &inst.text,
    );
    if let Some(o) = &inst.origin {
        // The CUDA or Python line the PTX instruction was compiled from.
        let code = o.span.map(|s| kernel.program.sources.snippet(s).trim()).unwrap_or("");
        l.line(out, &format!("from {}: {code}", o.short()));
    }
    if i.exec == 0 {
        l.line(out, "(no lane executes: predicate false everywhere)");
        return mask;
    }
    let dead = kernel.is_dead(i.pc);
    if dead {
        l.line(out, "(dead code: the compiler removes it)");
    }
    if let Some(s) = &i.shuffle {
        match pairs(&s.sources, i.exec) {
            Some(p) => {
                let list: Vec<String> = p.iter().map(|(a, b)| format!("{a}<->{b}")).collect();
                let line = format!("{pad}exchange: lane {}", list.join(", "));
                match xor_rule(&p) {
                    _ if line.chars().count() <= l.width => {
                        let _ = writeln!(out, "{line}");
                    }
                    Some(k) => {
                        let lanes = if i.exec == super::all_lanes(kernel.warp_size) {
                            format!("all {} lanes", kernel.warp_size)
                        } else {
                            format!("the {} executing lanes", i.exec.count_ones())
                        };
                        l.line(out, &format!("exchange: lane i <-> lane i ^ {k} ({lanes})"));
                    }
                    None => {
                        let lead = "exchange: lane ";
                        let at = pad.len() + lead.len();
                        for (k, part) in wrap(&list.join(", "), at, at, l.width).iter().enumerate() {
                            let lead = if k == 0 {
                                lead.to_string()
                            } else {
                                " ".repeat(lead.len())
                            };
                            let _ = writeln!(out, "{pad}{lead}{part}");
                        }
                    }
                }
            }
            None => {
                let items: Vec<String> = (0..kernel.warp_size)
                    .map(|l| {
                        if i.exec >> l & 1 == 0 {
                            "-".into()
                        } else if s.in_range >> l & 1 == 0 {
                            "own".into()
                        } else {
                            format!("{}", s.sources[l as usize])
                        }
                    })
                    .collect();
                l.lane_rows(out, "from lane: ", &items, i.exec);
            }
        }
        if s.undefined != 0 {
            let member = s.member;
            let lanes: Vec<String> = (0..kernel.warp_size)
                .filter(|l| s.undefined >> l & 1 == 1)
                .map(|l| {
                    let src = s.sources[l as usize];
                    let why = if member >> l & 1 == 0 {
                        format!("lane {l} is outside the member mask")
                    } else if i.exec >> src & 1 == 0 {
                        format!("lane {src} does not execute")
                    } else {
                        format!("lane {src} is outside the member mask")
                    };
                    format!("{l}<-{src} ({why})")
                })
                .collect();
            l.line(out, &format!("undefined on hardware: {}", lanes.join(", ")));
        }
    }
    if let Some(m) = &i.memory {
        let local_name = "local memory".to_string();
        let (buf, elem) = if m.local {
            (&local_name, warpsim_isa::ElemTy::U32)
        } else if m.shared {
            let a = &kernel.shared[m.buffer as usize];
            (&a.name, a.elem)
        } else {
            let b = &kernel.buffers[m.buffer as usize];
            (&b.name, b.elem)
        };
        let per_lane = |f: &dyn Fn(usize) -> String| -> Vec<String> {
            (0..kernel.warp_size as usize)
                .map(|l| if i.exec >> l & 1 == 1 { f(l) } else { "-".into() })
                .collect::<Vec<_>>()
        };
        let buf = if m.shared {
            format!("shared array {buf}")
        } else {
            buf.clone()
        };
        // (An 8- or 16-bit access counts its indices in bytes or halves.)
        let narrow = kernel.code.get(i.pc as usize).and_then(|d| match d.op {
            crate::kernel::DOp::Ld { addr, .. } | crate::kernel::DOp::St { addr, .. } => addr.narrow,
            _ => None,
        });
        let (what, units) = match (m.atomic, m.store, narrow.map(|n| n.bytes)) {
            (true, ..) => ("atomic on", "elements"),
            (false, true, Some(1)) => ("byte store to", "bytes"),
            (false, false, Some(1)) => ("byte load from", "bytes"),
            (false, true, Some(_)) => ("16-bit store to", "halves"),
            (false, false, Some(_)) => ("16-bit load from", "halves"),
            (false, true, None) => ("store to", "elements"),
            (false, false, None) => ("load from", "elements"),
        };
        let indices = per_lane(&|l| m.index[l].to_string());
        let full = i.exec == super::all_lanes(kernel.warp_size);
        let consecutive = full && (0..kernel.warp_size as usize).all(|l| m.index[l] == m.index[0] + l as u64);
        let one = format!("{pad}{what} {buf}[{}]", indices.join(", "));
        if consecutive && one.chars().count() > l.width {
            l.line(
                out,
                &format!(
                    "{what} {buf}[{} + lane]: {units} {} to {}, one per lane",
                    m.index[0],
                    m.index[0],
                    m.index[0] + u64::from(kernel.warp_size) - 1
                ),
            );
        } else {
            l.lane_rows(out, &format!("{what} {buf}"), &indices, i.exec);
        }
        if m.shared && dead {
            // Removed by the compiler: no bank is reached.
            l.lane_rows(out, "banks ", &per_lane(&|l| m.banks[l].to_string()), i.exec);
        } else if m.shared {
            let banks = per_lane(&|l| m.banks[l].to_string());
            let one = format!("{pad}banks [{}]: conflict degree ", banks.join(", "));
            let degree_at = if one.chars().count() + 2 > l.width {
                l.lane_rows(out, "banks ", &banks, i.exec);
                String::new()
            } else {
                format!("banks [{}]: ", banks.join(", "))
            };
            l.line(
                out,
                &format!(
                    "{degree_at}conflict degree {}{}",
                    m.degree,
                    if m.degree > 1 {
                        let replays = m.degree - 1;
                        format!(
                            " ({}-way: {replays} replay{})",
                            m.degree,
                            if replays == 1 { "" } else { "s" }
                        )
                    } else {
                        String::new()
                    }
                ),
            );
        }
        if m.atomic && m.same_address > 1 {
            l.line(out, &format!("{} lanes on one address: serialised", m.same_address));
        }
        if m.store
            && let Some(vals) = i.operands.first()
        {
            l.lane_rows(
                out,
                "values = ",
                &lane_cells(kernel.warp_size, elem.ty(), vals, i.exec),
                i.exec,
            );
        }
    }
    if let Some((r, vals)) = &i.write {
        let ty = kernel.reg_types[*r as usize];
        let label = format!("%{} = ", kernel.program.reg_name(warpsim_isa::Reg(*r)));
        l.lane_rows(out, &label, &lane_cells(kernel.warp_size, ty, vals, i.exec), i.exec);
    }
    if let Some((p, set)) = &i.pred_write {
        let name = kernel.program.pred_name(warpsim_isa::Pred(*p));
        let lanes = lane_mask(kernel.warp_size, i.exec, set & i.exec);
        let hex = hex_mask(kernel.warp_size, set & i.exec);
        let one = format!("{pad}%{name} = {lanes} ({hex})");
        if one.chars().count() <= l.width {
            let _ = writeln!(out, "{one}");
        } else {
            // `#` where the predicate is set, in rows of 32 lanes (16 or 8 where 32 do not fit).
            let _ = writeln!(out, "{pad}%{name} = {hex}");
            let chars: Vec<char> = lanes.chars().collect();
            let n = [MASK_COLUMNS, 16]
                .into_iter()
                .find(|n| pad.len() + 2 + 13 + n <= l.width)
                .unwrap_or(8);
            for (k, row) in chars.chunks(n).enumerate() {
                let from = k * n;
                let span = format!("lanes {from}-{}:", from + row.len() - 1);
                let _ = writeln!(out, "{pad}  {span:<13}{}", row.iter().collect::<String>());
            }
        }
    }
    if let Role::Branch { target } = d.role
        && i.exec == i.active
    {
        l.line(out, &format!("branch taken to {}", pc_name(kernel, target)));
    }
    mask
}

/// The line that says which sanitizers ran and what they found (the findings themselves go to stderr).
pub fn checks(checks: crate::check::Checks, findings: &[crate::check::Finding]) -> String {
    let names = checks.names();
    if findings.is_empty() {
        return format!("check {names}: no problems found\n");
    }
    let mut by_check: Vec<(&str, usize)> = Vec::new();
    for f in findings {
        match by_check.iter_mut().find(|(c, _)| *c == f.check()) {
            Some((_, n)) => *n += 1,
            None => by_check.push((f.check(), 1)),
        }
    }
    let parts: Vec<String> = by_check.iter().map(|(c, n)| format!("{c} {n}")).collect();
    format!(
        "check {names}: {} problem{} found ({}); see below\n",
        findings.len(),
        if findings.len() == 1 { "" } else { "s" },
        parts.join(", ")
    )
}

/// What the run's `printf`s printed, as the GPU's program would print it (its calls in order, one after the
/// other), ending with a newline; empty when nothing was printed.
pub fn printed(out: &RunOutput) -> String {
    let mut s: String = out.printed.iter().map(|p| p.text.as_str()).collect();
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// A run's result for people: cycles, counts and every buffer (its first 64 elements), lines of at most `width`
/// columns where they can be (a buffer's values continue under its first value).
pub fn summary(out: &RunOutput, width: usize) -> String {
    let mut s = String::new();
    let st = &out.stats;
    counters(
        &mut s,
        &[
            format!("cycles: {}", out.cycles),
            format!("warp instructions: {}", st.warp_instructions),
            format!("lane instructions: {}", st.lane_instructions),
            format!("shuffles: {}", st.shuffles),
            format!("divergent branches: {}", st.divergent_branches),
        ],
        width,
    );
    if st.shared_accesses > 0 || st.atomics > 0 || st.barriers > 0 {
        counters(
            &mut s,
            &[
                format!("shared accesses: {}", st.shared_accesses),
                format!(
                    "bank conflicts: {} (+{} cycles)",
                    st.bank_conflicts, st.bank_conflict_cycles
                ),
                format!("atomics: {}", st.atomics),
                format!("barriers: {}", st.barriers),
            ],
            width,
        );
    }
    if st.undefined_shuffle_reads > 0 {
        let warning = format!(
            "warning: {} shuffle lane read{} undefined on hardware (a source lane that does not execute, or a lane \
             outside the member mask; `--trace` shows which)",
            st.undefined_shuffle_reads,
            if st.undefined_shuffle_reads == 1 {
                " is"
            } else {
                "s are"
            }
        );
        for line in wrap(&warning, 0, 9, width)
            .iter()
            .enumerate()
            .map(|(k, l)| if k == 0 { l.clone() } else { format!("{:9}{l}", "") })
        {
            let _ = writeln!(s, "{line}");
        }
    }
    let name_width = out.buffers.iter().map(|b| b.name.len()).max().unwrap_or(0);
    for b in &out.buffers {
        const SHOW: usize = 64;
        let mut vals: Vec<String> = b.elements().take(SHOW).map(|v| super::elem_value(b.elem, v)).collect();
        if b.len() > SHOW {
            vals.push(format!("… ({} more)", b.len() - SHOW));
        }
        let head = format!("{:<name_width$} {}[{}] = [", b.name, b.elem.name(), b.len());
        let at = head.chars().count();
        // One value never splits across lines: `… (n more)` is one item.
        let mut line = head;
        let mut used = at;
        for (k, v) in vals.iter().enumerate() {
            let item = if k + 1 < vals.len() {
                format!("{v},")
            } else {
                format!("{v}]")
            };
            let len = item.chars().count();
            if k > 0 && used + 1 + len > width {
                let _ = writeln!(s, "{line}");
                line = " ".repeat(at);
                used = at;
            } else if k > 0 {
                line.push(' ');
                used += 1;
            }
            line.push_str(&item);
            used += len;
        }
        if vals.is_empty() {
            line.push(']');
        }
        let _ = writeln!(s, "{line}");
    }
    s
}

/// `name: value` counters three spaces apart, a new line where the next would pass `width`.
fn counters(s: &mut String, parts: &[String], width: usize) {
    let mut line = String::new();
    for p in parts {
        if !line.is_empty() && line.chars().count() + 3 + p.chars().count() > width {
            let _ = writeln!(s, "{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push_str("   ");
        }
        line.push_str(p);
    }
    let _ = writeln!(s, "{line}");
}

/// `--stats`: IPC, counts, and where every warp's cycles went.
pub fn stats(out: &RunOutput) -> String {
    const SHOW: usize = 16;
    let st = &out.stats;
    let mut s = String::new();
    #[allow(clippy::cast_precision_loss, reason = "a ratio of counts, printed to 3 decimals")]
    let ipc = if out.cycles == 0 {
        0.0
    } else {
        st.warp_instructions as f64 / out.cycles as f64
    };
    let _ = writeln!(s, "\nstatistics:");
    let _ = writeln!(
        s,
        "  cycles {}   warp instructions {}   lane instructions {}   IPC {ipc:.3} (warp instructions per cycle)",
        out.cycles, st.warp_instructions, st.lane_instructions
    );
    let _ = writeln!(
        s,
        "  shuffles {}   divergent branches {}   bank-conflict extra cycles {}   L1 lines hit {} / missed {}",
        st.shuffles, st.divergent_branches, st.bank_conflict_cycles, st.l1_hits, st.l1_misses
    );
    if st.dead_instructions > 0 {
        let _ = writeln!(
            s,
            "  dead code {} warp instruction{} (results never read: removed by the compiler, timed as issue slots)",
            st.dead_instructions,
            if st.dead_instructions == 1 { "" } else { "s" },
        );
    }
    let total = st.stalls.total();
    let _ = writeln!(
        s,
        "  stall breakdown, summed over {} warp{} ({} x {} cycles = {total}):",
        st.warps,
        if st.warps == 1 { "" } else { "s" },
        st.warps,
        out.cycles
    );
    for (name, v) in st.stalls.parts() {
        #[allow(clippy::cast_precision_loss, reason = "a share of cycles, printed to one decimal")]
        let pct = if total == 0 {
            0.0
        } else {
            100.0 * v as f64 / total as f64
        };
        let _ = writeln!(s, "    {name:<14}{v:>12}  {pct:5.1}%");
    }
    let _ = writeln!(s, "    {:<14}{total:>12}", "total");
    if !st.warp_stalls.is_empty() {
        let _ = writeln!(s, "  per warp (cycles):");
        let names = st.stalls.parts().map(|(n, _)| n);
        let _ = write!(s, "    {:>5} {:>4}", "block", "warp");
        for n in names {
            let _ = write!(s, " {n:>13}");
        }
        let _ = writeln!(s, " {:>10}", "total");
        for ws in st.warp_stalls.iter().take(SHOW) {
            let _ = write!(s, "    {:>5} {:>4}", ws.block, ws.warp);
            for (_, v) in ws.stalls.parts() {
                let _ = write!(s, " {v:>13}");
            }
            let _ = writeln!(s, " {:>10}", ws.stalls.total());
        }
        let shown = SHOW.min(st.warp_stalls.len()) as u64;
        if st.warps > shown {
            let _ = writeln!(
                s,
                "    … {} more warps (`--format json` lists the first {} under stats.warps)",
                st.warps - shown,
                crate::run::WARP_STALLS_KEPT
            );
        }
    }
    s
}

/// Where an instruction comes from: the CUDA or Python line of a PTX instruction, else its line in the program.
pub fn source_of(kernel: &Kernel, pc: usize) -> String {
    let Some(inst) = kernel.program.instructions.get(pc) else {
        return String::new();
    };
    if let Some(o) = &inst.origin {
        return o.short();
    }
    let at = kernel.program.sources.location(inst.expanded_from.unwrap_or(inst.span));
    let name = at.file.rsplit(['/', '\\']).next().unwrap_or(at.file);
    format!("{name}:{}", at.line)
}

/// `--stats`' cost per instruction ([`RunOutput::lines`]): every warp's cycles, each given to the instruction that
/// caused it, the instructions costing the most first, with the instructions their operand waits were for;
/// `known_error` says how far the model's cycles are from a GPU's.
pub fn lines(kernel: &Kernel, out: &RunOutput, known_error: Option<&str>) -> String {
    const SHOW: usize = 20;
    let mut s = String::new();
    let mut rows: Vec<&crate::LineCycles> = out.lines.iter().filter(|l| l.total() > 0).collect();
    if rows.is_empty() {
        return s;
    }
    let all: u64 = rows.iter().map(|l| l.total()).sum();
    rows.sort_by_key(|l| (std::cmp::Reverse(l.total()), l.pc));
    let _ = writeln!(
        s,
        "  cycles by instruction (each warp's cycles given to the instruction that caused them; the {} costliest):",
        SHOW.min(rows.len())
    );
    let _ = writeln!(
        s,
        "    {:>4}  {:<20} {:>8} {:>9} {:>8} {:>9} {:>8} {:>8} {:>9} {:>9} {:>6}  instruction",
        "pc",
        "source",
        "issued",
        "operands",
        "conflict",
        "unit_busy",
        "control",
        "barrier",
        "not_sel",
        "total",
        "share"
    );
    let text = |pc: u32| {
        kernel
            .program
            .instructions
            .get(pc as usize)
            .map_or("", |i| i.text.trim())
            .to_string()
    };
    for l in rows.iter().take(SHOW) {
        #[allow(clippy::cast_precision_loss, reason = "a share of cycles, printed to one decimal")]
        let share = 100.0 * l.total() as f64 / all as f64;
        let _ = writeln!(
            s,
            "    {:>4}  {:<20} {:>8} {:>9} {:>8} {:>9} {:>8} {:>8} {:>9} {:>9} {:>5.1}%  {}",
            l.pc,
            source_of(kernel, l.pc as usize),
            l.issued,
            l.operands,
            l.bank_conflict,
            l.unit_busy,
            l.control,
            l.barrier,
            l.not_selected,
            l.total(),
            share,
            text(l.pc)
        );
        for &(from, c) in l.waited_on.iter().take(3) {
            let _ = writeln!(
                s,
                "    {:>4}  {:<20} waited {c} cycle{} for the result of pc {from} ({}): {}",
                "",
                "",
                if c == 1 { "" } else { "s" },
                source_of(kernel, from as usize),
                text(from)
            );
        }
    }
    if rows.len() > SHOW {
        let _ = writeln!(
            s,
            "    … {} more instructions (`--format json`: stats.lines)",
            rows.len() - SHOW
        );
    }
    let _ = writeln!(
        s,
        "    {all} cycles at instructions; the rest of warps x cycles is before their block was placed or after they exited"
    );
    if let Some(e) = known_error {
        let _ = writeln!(s, "  {e}");
    }
    s
}
