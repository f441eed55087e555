//! Renderers: trace events and run results → text for people, JSON for programs. They read events and the
//! kernel (the program as launched); they never reach into simulator state.

pub mod chrome;
pub mod colour;
pub mod grid;
pub mod html;
pub mod json;
pub mod svg;
pub mod text;

use crate::kernel::{Kernel, Role, Src};
use crate::trace::{Event, Issue};
use std::collections::BTreeMap;
use warpsim_isa::{ElemTy, Ty};

/// A value as its type reads (a 32-bit type's in the low half): floats in Rust's shortest round-trip form
/// (`1000`, `3.3333333`).
pub fn value(ty: Ty, bits: u64) -> String {
    let low = crate::kernel::low32(bits);
    match ty {
        Ty::F32 => format!("{}", f32::from_bits(low)),
        Ty::S32 => format!("{}", low.cast_signed()),
        Ty::U32 | Ty::B32 => format!("{low}"),
        Ty::F64 => format!("{}", f64::from_bits(bits)),
        Ty::S64 => format!("{}", bits.cast_signed()),
        Ty::U64 | Ty::B64 => format!("{bits}"),
    }
}

/// One cell per lane: the value in executing lanes, `-` elsewhere.
pub fn lane_cells(w: u32, ty: Ty, values: &[u64], exec: u64) -> Vec<String> {
    (0..w)
        .map(|l| {
            if exec >> l & 1 == 1 {
                value(ty, values[l as usize])
            } else {
                "-".into()
            }
        })
        .collect()
}

pub fn elem_value(elem: ElemTy, bits: u64) -> String {
    value(elem.ty(), bits)
}

/// The lanes of a mask, lane 0 first: `#` in `mask`, `.` in `active` only, `-` outside both.
pub fn lane_mask(w: u32, active: u64, exec: u64) -> String {
    (0..w)
        .map(|l| {
            if exec >> l & 1 == 1 {
                '#'
            } else if active >> l & 1 == 1 {
                '.'
            } else {
                '-'
            }
        })
        .collect()
}

/// The widest line the text trace, the lane grid and the summary write by default (a 120-column terminal): wider
/// lists of lanes become rules, rows or bands of lanes, and long messages wrap. `sim run --width` (or the
/// terminal's width) chooses another.
pub const DEFAULT_WIDTH: usize = 120;

/// The narrowest `--width`: a classic terminal.
pub const MIN_WIDTH: usize = 80;

/// The most lanes drawn in one line of the trace's lanes column: a 64-lane warp's mask takes two lines of 32.
pub const MASK_COLUMNS: usize = 32;

/// `text` cut into lines of at most `width` characters at spaces (a word longer than a line stays whole); lines
/// after the first start with `indent` spaces.
pub fn wrap(text: &str, first: usize, indent: usize, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    let mut used = first;
    for word in text.split(' ') {
        let len = word.chars().count();
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && used + 1 + len > width {
            lines.push(String::new());
            used = indent;
        }
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() {
            line.push(' ');
            used += 1;
        }
        line.push_str(word);
        used += len;
    }
    lines
}

/// `k` such that every pair is `(a, a ^ k)` (a butterfly), when there is one.
pub fn xor_rule(pairs: &[(u32, u32)]) -> Option<u32> {
    let k = pairs.first().map(|(a, b)| a ^ b)?;
    pairs.iter().all(|(a, b)| a ^ b == k).then_some(k)
}

/// Every lane of a `w`-lane warp.
/// The thread lane `lane` of warp `warp` is in a 2-D or 3-D block: `(x,y)` or `(x,y,z)`; `None` for a 1-D block.
pub fn lane_thread(kernel: &Kernel, warp: u32, lane: u32) -> Option<String> {
    (kernel.block_dim.rank() > 1).then(|| kernel.block_dim.label(warp * kernel.warp_size + lane))
}

/// The threads the lanes of warp `warp` hold in a 2-D or 3-D block, as runs of consecutive x in one row:
/// `["lanes 0-3 = (4..7,1)", "lanes 4-7 = (0..3,2)"]` (x first, as `%tid.x`, `%tid.y`, `%tid.z`); `None` for a
/// 1-D block, whose lane k of warp w is thread w·W + k.
pub fn warp_threads(kernel: &Kernel, warp: u32) -> Option<Vec<String>> {
    let shape = kernel.block_dim;
    if shape.rank() == 1 {
        return None;
    }
    let w = kernel.warp_size;
    let first = warp * w;
    let lanes = kernel.block.saturating_sub(first).min(w);
    let name = |[x, y, z]: [u32; 3], x_end: u32| {
        let xs = if x_end == x {
            x.to_string()
        } else {
            format!("{x}..{x_end}")
        };
        if shape.rank() == 2 {
            format!("({xs},{y})")
        } else {
            format!("({xs},{y},{z})")
        }
    };
    let mut runs = Vec::new();
    let mut lane = 0;
    while lane < lanes {
        let start = shape.index(first + lane);
        // The run ends at the row's end or the warp's.
        let len = (shape.x - start[0]).min(lanes - lane);
        let last = lane + len - 1;
        let lanes_text = if len == 1 {
            format!("lane {lane}")
        } else {
            format!("lanes {lane}-{last}")
        };
        runs.push(format!("{lanes_text} = {}", name(start, start[0] + len - 1)));
        lane += len;
    }
    Some(runs)
}

pub fn all_lanes(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

/// `0x…` with as many hex digits as a warp of `w` lanes needs.
pub fn hex_mask(w: u32, mask: u64) -> String {
    format!("0x{:0width$x}", mask, width = (w as usize).div_ceil(4))
}

/// Is every executing lane part of a swap pair (a ↔ b)? Then the exchange can be shown as pairs.
pub fn pairs(sources: &[u32], exec: u64) -> Option<Vec<(u32, u32)>> {
    let mut out = Vec::new();
    #[allow(clippy::cast_possible_truncation, reason = "a source per lane of a warp, at most 64")]
    for lane in 0..sources.len() as u32 {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let s = sources[lane as usize];
        if s == lane || sources[s as usize] != lane || exec >> s & 1 == 0 {
            return None;
        }
        if lane < s {
            out.push((lane, s));
        }
    }
    if out.is_empty() { None } else { Some(out) }
}

/// An event that moves data between lanes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exchange {
    /// Numbered from 1 in trace order.
    pub step: u32,
    /// For a shared-memory load: every lane that reads a word another lane stored last, as (loading lane,
    /// storing warp, storing lane). Empty for a shuffle (its sources are in the event).
    pub from: Vec<(u32, u32, u32)>,
}

/// The events that move data between lanes (`None` for the others): every shuffle, and every shared-memory
/// load in which some lane reads a word that another lane of its block (in any warp) stored or atomically
/// updated last. The SVG diagram and the stepper number their steps with this.
pub fn exchanges(events: &[Event]) -> Vec<Option<Exchange>> {
    // The last lane to store each shared word: (block, array, index) → (warp, lane).
    let mut stored: BTreeMap<(u32, u16, u64), (u32, u32)> = BTreeMap::new();
    let mut step = 0;
    let mut out = vec![None; events.len()];
    for (k, e) in events.iter().enumerate() {
        let Event::Issue(i) = e else { continue };
        if i.shuffle.is_some() {
            step += 1;
            out[k] = Some(Exchange { step, from: Vec::new() });
            continue;
        }
        let Some(m) = i.memory.as_ref().filter(|m| m.shared) else {
            continue;
        };
        #[allow(clippy::cast_possible_truncation, reason = "at most 64")]
        let lanes = (0..m.index.len().min(64) as u32).filter(|l| i.exec >> l & 1 == 1);
        if m.store {
            for lane in lanes {
                stored.insert((i.block, m.buffer, m.index[lane as usize]), (i.warp, lane));
            }
            continue;
        }
        let from: Vec<(u32, u32, u32)> = lanes
            .filter_map(|lane| {
                let &(sw, sl) = stored.get(&(i.block, m.buffer, m.index[lane as usize]))?;
                ((sw, sl) != (i.warp, lane)).then_some((lane, sw, sl))
            })
            .collect();
        if !from.is_empty() {
            step += 1;
            out[k] = Some(Exchange { step, from });
        }
    }
    out
}

/// A shuffle as a short label, mode and amount: `bfly 4`, `up 1`, `idx lane-varying`.
pub fn shuffle_label(kernel: &Kernel, i: &Issue) -> String {
    let (mode, amount) = shuffle_amount(kernel, i);
    match (mode, amount) {
        (None, _) => String::new(),
        (Some(mode), Some(a)) => format!("{mode} {a}"),
        (Some(mode), None) => format!("{mode} lane-varying"),
    }
}

/// A shuffle's mode and its lane or amount operand, when every executing lane has the same (else `None`: it
/// varies by lane); no mode for an instruction that is not a shuffle.
pub fn shuffle_amount(kernel: &Kernel, i: &Issue) -> (Option<&'static str>, Option<i32>) {
    let Role::Shuffle { mode, amount, .. } = kernel.described[i.pc as usize].role else {
        return (None, None);
    };
    let amount = match amount {
        Src::Imm(v) => Some(v.cast_signed()),
        Src::Const(k) => Some(crate::kernel::low32(kernel.consts[k as usize]).cast_signed()),
        Src::Reg(_) | Src::Special(_) => {
            let vals: Vec<u32> = (0..kernel.warp_size)
                .filter(|l| i.exec >> l & 1 == 1)
                .map(|l| crate::kernel::low32(i.operands[1][l as usize]))
                .collect();
            if vals.windows(2).all(|p| p[0] == p[1]) && !vals.is_empty() {
                Some(vals[0].cast_signed())
            } else {
                None
            }
        }
    };
    (Some(mode.name()), amount)
}
