//! The text trace: one entry per issued warp instruction (cycle, block, warp, pc, the instruction as written,
//! the lanes), what it did to each lane, and divergence and reconvergence as they happen.
//!
//! ```text
//!   cycle sch blk warp  pc  lanes     instruction
//!      44   0   0    0   3  ########  shfl.sync.bfly.b32 %other, %v, %off
//!                                     exchange: lane 0<->4, 1<->5, 2<->6, 3<->7
//!                                     %other = [8, 10, 12, 1000, 0, 2, 4, 6]
//! ```
//!
//! A list of lanes that would make its line wider than 120 columns (W = 32, or long values) is written as one
//! value where every lane holds it (`%off = 16 (all 32 lanes)`), as a rule where an exchange follows one
//! (`exchange: lane i <-> lane i ^ 16`), as a range for consecutive elements, or in rows of 16, 8 or 4 lanes
//! headed by their lane numbers; the lane grid is split into bands of lanes the same way. `--format json` keeps
//! every lane's value.
//!
//! `sch` is the warp scheduler (sub-partition) that issued the instruction. Shared-memory accesses list the bank
//! of every lane and the conflict degree; barriers show each warp's arrival and the release.
//!
//! ```text
//! ```

use super::{WIDTH, hex_mask, lane_cells, lane_mask, pairs, xor_rule};
use crate::kernel::{DOp, Kernel};
use crate::sm::RunOutput;
use crate::trace::{Event, Issue};
use std::fmt::Write as _;

/// `label` and one cell per lane (`-` for a lane that does not execute): `label[a, b, …]` on one line when it
/// fits in [`WIDTH`]; else `label N (all W lanes)` when every lane of the warp holds the same `N`; else rows of
/// 16 lanes (8, or 4, where 16 do not fit), each headed by its lanes' numbers.
fn lane_rows(out: &mut String, pad: &str, label: &str, cells: &[String], exec: u64, w: u32) {
    let one = format!("{pad}{label}[{}]", cells.join(", "));
    if one.chars().count() <= WIDTH {
        let _ = writeln!(out, "{one}");
        return;
    }
    if exec == super::all_lanes(w) && cells.iter().all(|c| *c == cells[0]) {
        // `%v = ` is followed by the value as it is; `load from in` gains a space.
        let sep = if label.ends_with(' ') { "" } else { " " };
        let _ = writeln!(out, "{pad}{label}{sep}{} (all {w} lanes)", cells[0]);
        return;
    }
    // `%v =` and `from lane:` head their rows as they are; `load from in` gains a comma.
    let head = match label.trim_end() {
        h if h.ends_with(['=', ':']) => h.to_string(),
        h => format!("{h},"),
    };
    let span_width = format!("{}-{}", w - 1, w - 1).len();
    let row = |from: usize, to: usize| {
        let span = format!("{from}-{}:", to - 1);
        format!(
            "lanes {span:<width$} [{}]",
            cells[from..to].join(", "),
            width = span_width + 1
        )
    };
    let fits = |n: usize| {
        (0..cells.len())
            .step_by(n)
            .all(|s| pad.len() + head.len() + 1 + row(s, (s + n).min(cells.len())).chars().count() <= WIDTH)
    };
    let per_row = [16, 8].into_iter().find(|&n| fits(n)).unwrap_or(4);
    // Rows where no lane executes are left out (the lanes column shows which lanes run).
    let mut first = true;
    for s in (0..cells.len()).step_by(per_row) {
        let e = (s + per_row).min(cells.len());
        if (s..e).all(|l| exec >> l & 1 == 0) {
            continue;
        }
        let lead = if first {
            head.clone()
        } else {
            " ".repeat(head.chars().count())
        };
        first = false;
        let _ = writeln!(out, "{pad}{lead} {}", row(s, e));
    }
}

pub fn header(kernel: &Kernel) -> String {
    format!(
        "{}: W={}, grid {} x block {} ({} warp{} per block)\n",
        kernel.program.name,
        kernel.warp_size,
        kernel.grid,
        kernel.block,
        kernel.warps_per_block(),
        if kernel.warps_per_block() == 1 { "" } else { "s" }
    )
}

/// The whole detailed trace.
pub fn trace(kernel: &Kernel, events: &[Event]) -> String {
    let w = kernel.warp_size as usize;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>7} {:>3} {:>3} {:>4} {:>3}  {:<w$}  instruction",
        "cycle", "sch", "blk", "warp", "pc", "lanes"
    );
    let pad = " ".repeat(7 + 1 + 3 + 1 + 3 + 1 + 4 + 1 + 3 + 2 + w + 2);
    for e in events {
        match e {
            Event::BlockLaunch {
                cycle,
                block,
                warps,
                sm,
            } => {
                let _ = writeln!(
                    out,
                    "{cycle:>7}     {block:>3}  block {block} launched on SM {sm}: {warps} warp{}",
                    if *warps == 1 { "" } else { "s" }
                );
            }
            Event::Issue(i) => issue(&mut out, kernel, i, &pad),
            Event::Diverge {
                cycle,
                block,
                warp,
                pc,
                taken,
                fallthrough,
                target,
                reconverge,
            } => {
                let _ = writeln!(
                    out,
                    "{cycle:>7}     {block:>3} {warp:>4} {pc:>3}  {}  diverge: {} branch to {}, {} fall through (run first); reconverge at {}",
                    lane_mask(kernel.warp_size, taken | fallthrough, *taken),
                    count_lanes(*taken),
                    pc_name(kernel, *target),
                    count_lanes(*fallthrough),
                    pc_name(kernel, *reconverge)
                );
            }
            Event::Reconverge {
                cycle,
                block,
                warp,
                pc,
                mask,
            } => {
                let _ = writeln!(
                    out,
                    "{cycle:>7}     {block:>3} {warp:>4} {pc:>3}  {}  reconverge: {}",
                    lane_mask(kernel.warp_size, *mask, *mask),
                    count_lanes(*mask)
                );
            }
            Event::WarpExit { cycle, block, warp, .. } => {
                let _ = writeln!(
                    out,
                    "{cycle:>7}     {block:>3} {warp:>4}       warp {warp} of block {block} exited"
                );
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
                let _ = writeln!(
                    out,
                    "{cycle:>7}     {block:>3} {warp:>4} {pc:>3}  {:w$}  barrier {id}: warp {warp} arrives ({arrived} of {expected} warps)",
                    ""
                );
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
                let _ = writeln!(
                    out,
                    "{cycle:>7}     {block:>3}            {:w$}  barrier {id}: released warp{} {}; {} resume at cycle {resume}{reduction}",
                    "",
                    if warps.len() == 1 { "" } else { "s" },
                    list.join(", "),
                    if warps.len() == 1 { "it" } else { "they" }
                );
            }
        }
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
    if pc as usize >= kernel.code.len() {
        return "exit".into();
    }
    match kernel.program.labels.iter().find(|(_, at)| *at == pc as usize) {
        Some((l, _)) => format!("pc {pc} ({l})"),
        None => format!("pc {pc}"),
    }
}

fn issue(out: &mut String, kernel: &Kernel, i: &Issue, pad: &str) {
    let inst = &kernel.program.instructions[i.pc as usize];
    let d = &kernel.code[i.pc as usize];
    let _ = writeln!(
        out,
        "{:>7} {:>3} {:>3} {:>4} {:>3}  {}  {}",
        i.cycle,
        i.scheduler,
        i.block,
        i.warp,
        i.pc,
        lane_mask(kernel.warp_size, i.active, i.exec),
        inst.text
    );
    if i.exec == 0 {
        let _ = writeln!(out, "{pad}(no lane executes: predicate false everywhere)");
        return;
    }
    if let Some(s) = &i.shuffle {
        match pairs(&s.sources, i.exec) {
            Some(p) => {
                let list: Vec<String> = p.iter().map(|(a, b)| format!("{a}<->{b}")).collect();
                let line = format!("{pad}exchange: lane {}", list.join(", "));
                match xor_rule(&p) {
                    Some(k) if line.chars().count() > WIDTH => {
                        let lanes = if i.exec == super::all_lanes(kernel.warp_size) {
                            format!("all {} lanes", kernel.warp_size)
                        } else {
                            format!("the {} executing lanes", i.exec.count_ones())
                        };
                        let _ = writeln!(out, "{pad}exchange: lane i <-> lane i ^ {k} ({lanes})");
                    }
                    _ if line.chars().count() > WIDTH => {
                        for (k, chunk) in list.chunks(8).enumerate() {
                            let lead = if k == 0 { "exchange: lane" } else { "              " };
                            let _ = writeln!(out, "{pad}{lead} {}", chunk.join(", "));
                        }
                    }
                    _ => {
                        let _ = writeln!(out, "{line}");
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
                lane_rows(out, pad, "from lane: ", &items, i.exec, kernel.warp_size);
            }
        }
        if s.undefined != 0 {
            let member = match d.op {
                DOp::Shfl { member, .. } => member,
                _ => u64::MAX,
            };
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
            let _ = writeln!(out, "{pad}undefined on hardware: {}", lanes.join(", "));
        }
    }
    if let Some(m) = &i.memory {
        let (buf, elem) = if m.shared {
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
            buf.to_string()
        };
        let what = match (m.atomic, m.store) {
            (true, _) => "atomic on",
            (false, true) => "store to",
            (false, false) => "load from",
        };
        let indices = per_lane(&|l| m.index[l].to_string());
        let full = i.exec == super::all_lanes(kernel.warp_size);
        let consecutive = full && (0..kernel.warp_size as usize).all(|l| m.index[l] == m.index[0] + l as u64);
        let one = format!("{pad}{what} {buf}[{}]", indices.join(", "));
        if consecutive && one.chars().count() > WIDTH {
            let _ = writeln!(
                out,
                "{pad}{what} {buf}[{} + lane]: elements {} to {}, one per lane",
                m.index[0],
                m.index[0],
                m.index[0] + u64::from(kernel.warp_size) - 1
            );
        } else {
            lane_rows(out, pad, &format!("{what} {buf}"), &indices, i.exec, kernel.warp_size);
        }
        if m.shared {
            let banks = per_lane(&|l| m.banks[l].to_string());
            let one = format!("{pad}banks [{}]: conflict degree ", banks.join(", "));
            let degree_at = if one.chars().count() + 2 > WIDTH {
                lane_rows(out, pad, "banks ", &banks, i.exec, kernel.warp_size);
                String::new()
            } else {
                format!("banks [{}]: ", banks.join(", "))
            };
            let _ = writeln!(
                out,
                "{pad}{degree_at}conflict degree {}{}",
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
            );
        }
        if m.atomic && m.same_address > 1 {
            let _ = writeln!(out, "{pad}{} lanes on one address: serialised", m.same_address);
        }
        if m.store
            && let Some(vals) = i.operands.first()
        {
            lane_rows(
                out,
                pad,
                "values = ",
                &lane_cells(kernel.warp_size, elem.ty(), vals, i.exec),
                i.exec,
                kernel.warp_size,
            );
        }
    }
    if let Some((r, vals)) = &i.write {
        let ty = kernel.reg_types[*r as usize];
        let label = format!("%{} = ", kernel.program.reg_name(warpsim_isa::Reg(*r)));
        lane_rows(
            out,
            pad,
            &label,
            &lane_cells(kernel.warp_size, ty, vals, i.exec),
            i.exec,
            kernel.warp_size,
        );
    }
    if let Some((p, mask)) = &i.pred_write {
        let _ = writeln!(
            out,
            "{pad}%{} = {} ({})",
            kernel.program.pred_name(warpsim_isa::Pred(*p)),
            lane_mask(kernel.warp_size, i.exec, mask & i.exec),
            hex_mask(kernel.warp_size, mask & i.exec)
        );
    }
    if let DOp::Bra { target } = d.op
        && i.exec == i.active
    {
        let _ = writeln!(out, "{pad}branch taken to {}", pc_name(kernel, target));
    }
}

/// A run's result for people: cycles, counts and every buffer.
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

pub fn summary(kernel: &Kernel, out: &RunOutput) -> String {
    let mut s = String::new();
    let st = &out.stats;
    let _ = writeln!(
        s,
        "cycles: {}   warp instructions: {}   lane instructions: {}   shuffles: {}   divergent branches: {}",
        out.cycles, st.warp_instructions, st.lane_instructions, st.shuffles, st.divergent_branches
    );
    if st.shared_accesses > 0 || st.atomics > 0 || st.barriers > 0 {
        let _ = writeln!(
            s,
            "shared accesses: {}   bank conflicts: {} (+{} cycles)   atomics: {}   barriers: {}",
            st.shared_accesses, st.bank_conflicts, st.bank_conflict_cycles, st.atomics, st.barriers
        );
    }
    if st.undefined_shuffle_reads > 0 {
        let _ = writeln!(
            s,
            "warning: {} shuffle lane read{} undefined on hardware (a source lane that does not execute, or a lane outside the member mask; `--trace` shows which)",
            st.undefined_shuffle_reads,
            if st.undefined_shuffle_reads == 1 {
                " is"
            } else {
                "s are"
            }
        );
    }
    let width = out.buffers.iter().map(|b| b.name.len()).max().unwrap_or(0);
    for b in &out.buffers {
        const SHOW: usize = 64;
        let vals: Vec<String> = b
            .data
            .iter()
            .take(SHOW)
            .map(|&v| super::elem_value(b.elem, v))
            .collect();
        let more = if b.data.len() > SHOW {
            format!(", … ({} more)", b.data.len() - SHOW)
        } else {
            String::new()
        };
        let _ = writeln!(
            s,
            "{:<width$} {}[{}] = [{}{more}]",
            b.name,
            b.elem.name(),
            b.data.len(),
            vals.join(", ")
        );
    }
    let _ = kernel;
    s
}

/// `--stats`: IPC, counts, and where every warp's cycles went.
pub fn stats(out: &RunOutput) -> String {
    let st = &out.stats;
    let mut s = String::new();
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
        let pct = if total == 0 {
            0.0
        } else {
            100.0 * v as f64 / total as f64
        };
        let _ = writeln!(s, "    {name:<14}{v:>12}  {pct:5.1}%");
    }
    let _ = writeln!(s, "    {:<14}{total:>12}", "total");
    const SHOW: usize = 16;
    if !st.warp_stalls.is_empty() {
        let _ = writeln!(s, "  per warp (cycles):");
        let names = st.stalls.parts().map(|(n, _)| n);
        let _ = write!(s, "    {:>5} {:>4}", "block", "warp");
        for n in names {
            let _ = write!(s, " {:>13}", n);
        }
        let _ = writeln!(s, " {:>10}", "total");
        for ws in st.warp_stalls.iter().take(SHOW) {
            let _ = write!(s, "    {:>5} {:>4}", ws.block, ws.warp);
            for (_, v) in ws.stalls.parts() {
                let _ = write!(s, " {v:>13}");
            }
            let _ = writeln!(s, " {:>10}", ws.stalls.total());
        }
        if st.warps as usize > SHOW.min(st.warp_stalls.len()) {
            let _ = writeln!(
                s,
                "    … {} more warps (`--format json` lists the first {} under stats.warps)",
                st.warps as usize - SHOW.min(st.warp_stalls.len()),
                crate::sm::WARP_STALLS_KEPT
            );
        }
    }
    s
}

/// `sim calibrate`: simulated against measured cycles, row by row.
pub fn calibration(machine: &str, gpu: &str, rows: &[crate::calibrate::RowResult]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "machine `{machine}` against {gpu} (cycles per operation):");
    let width = rows.iter().map(|r| r.name.chars().count()).max().unwrap_or(0);
    let _ = writeln!(
        s,
        "  {:<width$}  {:>9}  {:>9}  {:>7}",
        "row", "simulated", "measured", "error"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "  {:<width$}  {:>9.2}  {:>9.2}  {:>+6.1}%",
            r.name,
            r.simulated,
            r.measured,
            100.0 * r.error
        );
    }
    let worst = rows.iter().map(|r| r.error.abs()).fold(0.0, f64::max);
    let within = rows.iter().filter(|r| r.error.abs() <= 0.10).count();
    let _ = writeln!(
        s,
        "{within} of {} rows within 10%; largest error {:.1}%",
        rows.len(),
        100.0 * worst
    );
    s
}
