//! The lane grid: the teaching view of a warp's data exchanges, lanes as columns and one row per step, like
//! the hand-drawn traces of GPU puzzle books.
//!
//! A step is a shuffle. The grid shows the value the warp starts from, then for each step where every lane
//! read from (`from`) and the registers that the following instructions computed from the exchanged values.
//! Pairwise exchanges (butterflies) are also spelt out per pair: `Lane 0<->4: max(0,8)=8`.

use super::{lane_cells, pairs, shuffle_label, value, xor_rule};
use crate::kernel::{Kernel, Role, Src};
use crate::trace::{Event, Issue};
use std::fmt::Write as _;

/// Warps drawn at most (the first ones in launch order).
pub const MAX_WARPS: usize = 4;

/// The lane grids of the first [`MAX_WARPS`] warps that exchange data, lines of at most `width` columns where
/// they can be (bands of lanes, the per-pair arithmetic spread over lines).
pub fn grid(kernel: &Kernel, events: &[Event], width: usize) -> String {
    // Group issues by (block, warp), in order of first appearance.
    let mut warps: Vec<((u32, u32), Vec<&Issue>)> = Vec::new();
    let mut index: std::collections::HashMap<(u32, u32), usize> = std::collections::HashMap::new();
    for e in events {
        if let Event::Issue(i) = e {
            let k = *index.entry((i.block, i.warp)).or_insert_with(|| {
                warps.push(((i.block, i.warp), Vec::new()));
                warps.len() - 1
            });
            warps[k].1.push(i);
        }
    }
    let with_shuffles: Vec<_> = warps
        .iter()
        .filter(|(_, v)| v.iter().any(|i| i.shuffle.is_some()))
        .collect();
    let mut out = String::new();
    if with_shuffles.is_empty() {
        return out;
    }
    for ((block, warp), issues) in with_shuffles.iter().take(MAX_WARPS) {
        let _ = writeln!(
            out,
            "\nLane exchanges: block {}, warp {warp} (W={})",
            kernel.block_name(*block),
            kernel.warp_size
        );
        // A 2-D or 3-D block: which thread each lane is (the lanes' columns below are lane numbers).
        if let Some(runs) = super::warp_threads(kernel, *warp) {
            for (k, line) in super::wrap(&format!("threads: {}", runs.join(", ")), 0, 9, width)
                .iter()
                .enumerate()
            {
                let _ = writeln!(out, "{}{line}", if k == 0 { "" } else { "         " });
            }
        }
        draw_warp(&mut out, kernel, issues, width);
    }
    if with_shuffles.len() > MAX_WARPS {
        let _ = writeln!(
            out,
            "\n({} more warps exchange data; the first {MAX_WARPS} are drawn)",
            with_shuffles.len() - MAX_WARPS
        );
    }
    out
}

/// A row's note: the text beside the whole warp, and what the first band shows instead when the warp is split
/// into bands of lanes; or, for a row without cells, the per-pair arithmetic (`Lane 0<->4: max(0,8)=8`), spread
/// over as few lines as fit.
enum Note {
    Beside { full: String, banded: String },
    Pairs(Vec<String>),
}

fn draw_warp(out: &mut String, kernel: &Kernel, issues: &[&Issue], width: usize) {
    let w = kernel.warp_size;
    // Column width: the widest value shown.
    let mut cell = 4usize;
    let mut rows: Vec<(String, Vec<String>, Option<Note>)> = Vec::new();
    let reg = |r: u16| format!("%{}", kernel.program.reg_name(warpsim_isa::Reg(r)));
    let mut step = 0;
    let mut first = true;
    let mut k = 0;
    while k < issues.len() {
        let i = issues[k];
        let described = &kernel.described[i.pc as usize];
        let (Some(s), Role::Shuffle { sent, .. }, Some(d)) = (&i.shuffle, described.role, described.write) else {
            k += 1;
            continue;
        };
        if first {
            if let Some(r) = sent {
                let ty = kernel.reg_types[r as usize];
                rows.push((
                    format!("initial {}", reg(r)),
                    lane_cells(w, ty, &i.operands[0], i.exec),
                    None,
                ));
            }
            first = false;
        }
        step += 1;
        let pair_list = pairs(&s.sources, i.exec);
        let note = pair_list.as_ref().map(|p| {
            let l: Vec<String> = p.iter().map(|(x, y)| format!("{x}<->{y}")).collect();
            Note::Beside {
                full: format!("lane {}", l.join(", ")),
                banded: match xor_rule(p) {
                    Some(k) => format!("lane i <-> i ^ {k}"),
                    None => "pairs of lanes (see the trace above)".into(),
                },
            }
        });
        rows.push((
            format!("step {step}: shfl.{}", shuffle_label(kernel, i)),
            (0..w)
                .map(|l| {
                    if i.exec >> l & 1 == 0 {
                        "-".into()
                    } else if s.in_range >> l & 1 == 0 {
                        "own".into()
                    } else {
                        format!("<{}", s.sources[l as usize])
                    }
                })
                .collect(),
            note,
        ));
        if let Some((r, vals)) = &i.write {
            let ty = kernel.reg_types[*r as usize];
            rows.push((format!("  = {}", reg(*r)), lane_cells(w, ty, vals, i.exec), None));
        }
        // The instructions after the shuffle, up to the next shuffle, that read its result.
        let mut j = k + 1;
        let mut live = vec![d];
        while j < issues.len() && issues[j].shuffle.is_none() {
            let c = issues[j];
            let role = kernel.described[c.pc as usize].role;
            // (What carries or combines the values: moves, arithmetic, compares, stores.)
            let carries = matches!(
                role,
                Role::Move | Role::Combine { .. } | Role::Compare | Role::Store { .. }
            );
            let reads_live = carries
                && kernel.described[c.pc as usize]
                    .operands
                    .iter()
                    .any(|s| matches!(s, Src::Reg(r) if live.contains(r)));
            if let (true, Some((r, vals))) = (reads_live, &c.write) {
                let ty = kernel.reg_types[*r as usize];
                rows.push((
                    format!("  {}", kernel.program.instructions[c.pc as usize].text),
                    lane_cells(w, ty, vals, c.exec),
                    None,
                ));
                if let (Some(p), Role::Combine { name: Some(name) }) = (&pair_list, role) {
                    // Book style, one entry per pair from the lower lane's side (laid out by `spread`).
                    let a = &c.operands[0];
                    let b = &c.operands[1];
                    let entries: Vec<String> = p
                        .iter()
                        .map(|&(x, y)| {
                            format!(
                                "Lane {x}<->{y}: {name}({},{})={}",
                                value(ty, a[x as usize]),
                                value(ty, b[x as usize]),
                                value(ty, vals[x as usize])
                            )
                        })
                        .collect();
                    rows.push((String::new(), Vec::new(), Some(Note::Pairs(entries))));
                }
                live.push(*r);
            }
            j += 1;
        }
        k = j;
    }
    for (_, cells, _) in &rows {
        for c in cells {
            cell = cell.max(c.chars().count() + 1);
        }
    }
    let label_width = rows.iter().map(|(l, _, _)| l.chars().count()).max().unwrap_or(0).max(4);
    // Lanes per band: the whole warp when it fits in `width` columns, else the most (a power of two) that do
    // (one lane a band for the widest values, f64s in a narrow terminal).
    let mut band = w as usize;
    while band > 1 && label_width + 1 + band * cell > width {
        band /= 2;
    }
    let bands = (w as usize).div_ceil(band);
    for b in 0..bands {
        let lanes = b * band..((b + 1) * band).min(w as usize);
        if b > 0 {
            out.push('\n');
        }
        let _ = write!(out, "{:<label_width$} ", "lane");
        for l in lanes.clone() {
            let _ = write!(out, "{l:>cell$}");
        }
        out.push('\n');
        for (label, cells, note) in &rows {
            if cells.is_empty() {
                // The per-pair arithmetic, once (with the first band).
                if let (0, Some(Note::Pairs(entries))) = (b, note) {
                    let room = width.saturating_sub(label_width + 3);
                    for line in spread(entries, room).iter().flat_map(|l| cut(l, room)) {
                        let _ = writeln!(out, "{:<label_width$}   {line}", "");
                    }
                }
                continue;
            }
            let _ = write!(out, "{label:<label_width$} ");
            for c in &cells[lanes.clone()] {
                let _ = write!(out, "{c:>cell$}");
            }
            // A row's note (the pairs of an exchange) beside the whole warp; in bands, under the row in the
            // first band, as a rule when it is one.
            // A note beside the row when it fits there; else under the row, once, the full list where that fits.
            let row_end = label_width + 1 + lanes.len() * cell;
            match note {
                Some(Note::Beside { full, .. }) if bands == 1 && row_end + 3 + full.chars().count() <= width => {
                    let _ = writeln!(out, "   {full}");
                }
                Some(Note::Beside { full, banded }) if b == 0 => {
                    let text = if label_width + 3 + full.chars().count() <= width {
                        full
                    } else {
                        banded
                    };
                    let _ = writeln!(out, "\n{:<label_width$}   {text}", "");
                }
                _ => out.push('\n'),
            }
        }
    }
}

/// `entries` joined by three spaces on as few lines of at most `room` columns as they fit, the same number on
/// every line but the last (one per line where even two do not fit).
fn spread(entries: &[String], room: usize) -> Vec<String> {
    let n = entries.len();
    let per_line = (1..=n)
        .map(|lines| n.div_ceil(lines))
        .find(|&per| {
            entries
                .chunks(per)
                .all(|c| c.iter().map(|e| e.chars().count()).sum::<usize>() + 3 * (c.len() - 1) <= room)
        })
        .unwrap_or(1);
    entries.chunks(per_line.max(1)).map(|c| c.join("   ")).collect()
}

/// `line` in pieces of at most `room` columns (one piece when it fits): each cut after the last `,`, `(` or `=`
/// that keeps the piece within `room` (long 64-bit values in a narrow terminal), else at `room`.
fn cut(line: &str, room: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut rest: Vec<char> = line.chars().collect();
    while rest.len() > room.max(8) {
        let limit = room.max(8);
        let at = rest[..limit]
            .iter()
            .rposition(|c| matches!(c, ',' | '(' | '='))
            .map_or(limit, |k| k + 1);
        pieces.push(rest[..at].iter().collect());
        rest.drain(..at);
    }
    pieces.push(rest.into_iter().collect());
    pieces
}
