//! Pictures of a run as SVG, for people: the lane-exchange diagram and the shared-memory bank maps.
//!
//! **The lane-exchange diagram** draws each lane of the chosen warps as a horizontal line, time running left to
//! right, and one column per step that moves data between lanes:
//!
//! - a **shuffle**: an arrow from every source lane to the lane that reads it, the value sent at the arrow's
//!   tail and the value received at its head. A lane whose source was out of range keeps its own value: a grey
//!   ring, no arrow. A read that is undefined on hardware (inactive source, or outside the member mask) is a
//!   red arrow. Lanes that do not execute get no value;
//! - a **shared-memory load** that reads a word another lane stored: an arrow from the storing lane (in any
//!   drawn warp) to the loading lane;
//! - a **barrier** release: a bar across the block's drawn warps;
//! - a **divergent branch** (lanes that take it ▶, lanes that fall through ○) and the **reconvergence**.
//!
//! Between two exchanges of a warp, a box across the warp's lanes names the instructions that combined the
//! values (`max`, `add`, `add, sub`): those on the data path from the register the first exchange wrote to the
//! register the next one sends (or stores to shared memory, or the last column shows), found from the trace's
//! issues and the decoded code, for any program.
//!
//! Inactive lanes (split off by a branch, or exited) are drawn dashed. A last column shows the register the
//! last exchange sent, as the run left it.
//!
//! **Layout**: columns of different warps that touch different lanes share a position (several warps'
//! shuffles of one step side by side, vertically), so a picture of several warps is as wide as its busiest warp,
//! not as the sum of them; such a position is headed by its steps (`steps 1–4`) and each warp's part by a tag
//! (`step 3`). A picture still wider than a slide is cut into strips, one under the other, each with every
//! lane. The legend lists only what the picture uses.
//!
//! **Bank maps**: for a shared-memory access, a lanes × banks grid: a cell for each lane in the bank it hit (lanes
//! on one word share a colour: a broadcast), the number of distinct words under each bank, and the busiest
//! bank, whose count is the access's conflict degree.
//!
//! The output is a pure function of the kernel and the events: integer coordinates, no time stamps, no
//! randomness.

#![allow(
    clippy::cast_possible_wrap,
    reason = "pixel arithmetic over the counts of one picture (lanes, warps, columns, characters): far below i64::MAX"
)]

use super::{shuffle_label, value};
use crate::kernel::{Kernel, Role};
use crate::trace::{Event, Issue, MemoryTrace, ShuffleTrace};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// What to draw.
#[derive(Clone, Debug, Default)]
pub struct SvgOptions {
    /// The block (default: the first block in the trace).
    pub block: Option<u32>,
    /// Warps of that block (default: the first [`DEFAULT_WARPS`]).
    pub warps: Option<Vec<u32>>,
    /// Exchange steps `first..=last`, counted from 1 (default: the first [`DEFAULT_STEPS`]).
    pub steps: Option<(usize, usize)>,
    /// Shared-memory banks (for the bank maps' width).
    pub banks: u32,
}

pub const DEFAULT_WARPS: u32 = 4;
pub const DEFAULT_STEPS: usize = 64;
/// Bank maps drawn at most (one per shared-memory instruction, its worst execution).
pub const MAX_BANK_MAPS: usize = 8;
/// The slide a picture is laid out for (pixels): a diagram wider than this is cut into as many strips as make
/// the whole picture fit it best (the fewest when two fit as well).
pub const SLIDE: (i64, i64) = (1600, 1200);

/// XML text escape.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            _ => o.push(c),
        }
    }
    o
}

/// The mnemonic of an instruction's text, without guard and type suffixes: `@%p add.u32 %a, …` → `add`.
pub fn mnemonic(text: &str) -> &str {
    let mut words = text.split_whitespace();
    let mut first = words.next().unwrap_or("");
    if first.starts_with('@') {
        first = words.next().unwrap_or("");
    }
    first.split('.').next().unwrap_or(first)
}

/// The instructions of one warp between two of its exchanges that combined the values: on a data path from
/// register `start` (what the first exchange wrote) to one of `targets` (what the next exchange sends, what the
/// warp stores to shared memory for it, or what the last column shows). `window` is the warp's issues between
/// the two, in order; the answer is their positions, arithmetic only (moves, memory, shuffles and compares carry
/// values but do not combine them).
pub fn combining(kernel: &Kernel, window: &[&Issue], start: u16, targets: &[u16]) -> Vec<usize> {
    let n = window.len();
    let mut forward = vec![false; n];
    let mut tainted: BTreeSet<u16> = BTreeSet::from([start]);
    for (k, i) in window.iter().enumerate() {
        let d = &kernel.described[i.pc as usize];
        let Some(dst) = d.write else { continue };
        if i.exec == 0 {
            continue;
        }
        if d.reads.iter().any(|r| tainted.contains(r)) {
            tainted.insert(dst);
            forward[k] = true;
        } else if i.exec == i.active {
            // Overwritten in every lane by a value that does not come from the exchange.
            tainted.remove(&dst);
        }
    }
    let mut needed: BTreeSet<u16> = targets.iter().copied().collect();
    let mut backward = vec![false; n];
    for k in (0..n).rev() {
        let i = window[k];
        let d = &kernel.described[i.pc as usize];
        let Some(dst) = d.write else { continue };
        if i.exec == 0 || !needed.contains(&dst) {
            continue;
        }
        backward[k] = true;
        if i.exec == i.active {
            needed.remove(&dst);
        }
        needed.extend(d.reads.iter().copied());
    }
    (0..n)
        .filter(|&k| {
            forward[k] && backward[k] && matches!(kernel.described[window[k].pc as usize].role, Role::Combine { .. })
        })
        .collect()
}

/// A value sent or received by a lane, as shown beside it.
struct Label {
    warp: u32,
    lane: u32,
    text: String,
    class: &'static str,
}

struct Arrow {
    from: (u32, u32),
    to: (u32, u32),
    class: &'static str,
    title: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A shuffle or a shared-memory load that moved data: step number.
    Exchange(usize),
    Barrier,
    Branch,
    Merge,
    Final,
}

impl Kind {
    /// Columns that may share a position: exchanges with exchanges, branches with branches, merges with merges.
    fn class(self) -> u8 {
        match self {
            Kind::Exchange(_) => 0,
            Kind::Barrier => 1,
            Kind::Branch => 2,
            Kind::Merge => 3,
            Kind::Final => 4,
        }
    }
}

/// The instructions that combined a warp's values before a column.
struct Combine {
    warp: u32,
    text: String,
    title: String,
}

struct Column {
    kind: Kind,
    header: [String; 3],
    title: String,
    arrows: Vec<Arrow>,
    sent: Vec<Label>,
    received: Vec<Label>,
    /// Lanes marked in the middle of the column: (warp, lane, class).
    marks: Vec<(u32, u32, &'static str)>,
    /// Active lanes of every drawn warp while this column happens.
    active: Vec<u64>,
    /// Exchange steps of the run before this column (its own included for an exchange).
    ctx: usize,
    /// The warp it belongs to (the one that shuffles, loads, branches or merges); none for a barrier or the end.
    warp: Option<u32>,
    /// Its event in the trace (the end: past the last).
    event: usize,
    cycle: u64,
    /// A shared-memory load (its values sent are words stored earlier, not registers now), and the latest
    /// event that stored one of the words it draws.
    shared: bool,
    stored: usize,
    /// The register the exchange wrote, and for a shuffle the register it sent.
    wrote: Option<u16>,
    sends: Option<u16>,
    /// Drawn in the gap before the column.
    combine: Vec<Combine>,
}

impl Column {
    /// An empty column of `kind` at event `event` (cycle `cycle`) of `warp`, after `ctx` exchange steps, with
    /// the drawn warps' `active` lanes.
    #[allow(clippy::too_many_arguments)]
    fn new(
        kind: Kind,
        header: [String; 3],
        title: String,
        active: &[u64],
        ctx: usize,
        warp: Option<u32>,
        event: usize,
        cycle: u64,
    ) -> Column {
        Column {
            ctx,
            kind,
            header,
            title,
            arrows: Vec::new(),
            sent: Vec::new(),
            received: Vec::new(),
            marks: Vec::new(),
            active: active.to_vec(),
            warp,
            event,
            cycle,
            shared: false,
            stored: 0,
            wrote: None,
            sends: None,
            combine: Vec::new(),
        }
    }

    /// The drawn rows (warps, by position) it covers, first to last.
    fn rows(&self, row_of: &dyn Fn(u32) -> Option<usize>, all: usize) -> (usize, usize) {
        if matches!(self.kind, Kind::Barrier | Kind::Final) {
            return (0, all.saturating_sub(1));
        }
        let rows = self
            .arrows
            .iter()
            .flat_map(|a| [a.from.0, a.to.0])
            .chain(self.sent.iter().chain(&self.received).map(|l| l.warp))
            .chain(self.marks.iter().map(|m| m.0))
            .chain(self.warp)
            .filter_map(row_of);
        let (lo, hi) = rows.fold((usize::MAX, 0), |(lo, hi), r| (lo.min(r), hi.max(r)));
        if lo == usize::MAX { (0, 0) } else { (lo, hi) }
    }

    fn cells(labels: &[Label]) -> impl Iterator<Item = ((u32, u32), &str)> + '_ {
        labels.iter().map(|l| ((l.warp, l.lane), l.text.as_str()))
    }

    /// Can `self`, a shared-memory load, be drawn at the same position as `other`, one that came first,
    /// although they share warps: `other` is a shared-memory load too, the words `self` loads were all stored
    /// before it, no lane receives in both, and a lane sending in both sends the same word's value. (Left of a
    /// position is before, right is after: this keeps it so.)
    fn fits_beside(&self, other: &Column) -> bool {
        if !self.shared || !other.shared || self.stored >= other.event {
            return false;
        }
        let received: BTreeMap<(u32, u32), &str> = Column::cells(&other.received).collect();
        let sent: BTreeMap<(u32, u32), &str> = Column::cells(&other.sent).collect();
        Column::cells(&self.received).all(|(k, _)| !received.contains_key(&k))
            && Column::cells(&self.sent).all(|(k, t)| sent.get(&k).is_none_or(|&s| s == t))
    }
}

/// A position of the diagram: the columns drawn there (indices), its width and the gap before it.
struct Slot {
    cols: Vec<usize>,
    width: i64,
    gap: i64,
    header: [String; 3],
    title: String,
    /// Strip and x, once laid out.
    strip: usize,
    x: i64,
}

/// `1–4, 7, 9–10` from sorted numbers.
fn ranges(numbers: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < numbers.len() {
        let mut j = k;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        parts.push(if j == k {
            numbers[k].to_string()
        } else {
            format!("{}–{}", numbers[k], numbers[j])
        });
        k = j + 1;
    }
    parts.join(", ")
}

/// Text width estimates (monospace): 11 px (values, bold headers) and 10 px (second header lines).
fn text_w(s: &str) -> i64 {
    s.chars().count() as i64 * 7
}
fn small_w(s: &str) -> i64 {
    (s.chars().count() as i64 * 61 + 9) / 10
}

/// The lane-exchange diagram (and bank maps) of a run, or why the choice of block, warps or steps is empty.
pub fn diagram(kernel: &Kernel, events: &[Event], opts: &SvgOptions) -> Result<String, String> {
    let w = kernel.warp_size;
    let wpb = kernel.warps_per_block();
    let first_block = events.iter().find_map(|e| match e {
        Event::BlockLaunch { block, .. } => Some(*block),
        _ => None,
    });
    let block = match (opts.block, first_block) {
        (Some(b), _) if b >= kernel.grid => {
            return Err(format!(
                "--block {b}: the grid has {} block(s), numbered from 0",
                kernel.grid
            ));
        }
        (Some(b), _) => b,
        (None, Some(b)) => b,
        (None, None) => return Err("the trace is empty: nothing ran".into()),
    };
    let warps: Vec<u32> = match &opts.warps {
        Some(list) => {
            if let Some(bad) = list.iter().find(|&&x| x >= wpb) {
                return Err(format!(
                    "--warps: block {block} has {wpb} warp(s) (0 to {}), not warp {bad}",
                    wpb - 1
                ));
            }
            let mut l = list.clone();
            l.sort_unstable();
            l.dedup();
            l
        }
        None => (0..wpb.min(DEFAULT_WARPS)).collect(),
    };
    // Lanes that exist in each warp (the last warp of a block may be partial).
    let lanes_of = |warp: u32| lanes_in(kernel, warp);
    let row_of = |warp: u32| warps.iter().position(|&x| x == warp);

    // Walk the trace once: the columns of the chosen steps, and what the rest needs.
    let Walk {
        mut columns,
        shared_accesses,
        issues_of,
        last_sent,
        total_steps,
        drawn_steps,
        all_steps_shown,
        first,
        last,
    } = walk(kernel, events, block, &warps, opts.steps)?;

    // What combined each warp's values between its exchanges (and before the end column).
    combine_boxes(kernel, &mut columns, &warps, &issues_of, &last_sent);

    // Sizes.
    let row_h: i64 = if w <= 16 { 20 } else { 14 };
    let char_w = 7i64;
    let max_chars = columns
        .iter()
        .flat_map(|c| c.sent.iter().chain(&c.received))
        .map(|l| l.text.chars().count())
        .max()
        .unwrap_or(1)
        .max(2) as i64;
    let vw = max_chars * char_w + 6;
    let arrow_w = 56i64;
    // Room for the lane labels: `lane 31`, or `lane 31 (15,1)` in a 2-D block, `lane 31 (7,1,1)` in a 3-D one.
    let left = match kernel.block_dim.rank() {
        1 => 84i64,
        2 => 140,
        _ => 160,
    };
    let gap = 14i64;
    let warp_gap = 18i64;
    let band_h = i64::from(w) * row_h + warp_gap;
    let all_bands_h = warps.len() as i64 * band_h - warp_gap;
    // Strip `s`'s first lane row starts at `top + s * strip_pitch`; its headers are above it.
    let top = 104i64;
    let strip_pitch = all_bands_h + 84;
    let natural = |k: Kind| match k {
        Kind::Exchange(_) => vw + arrow_w + vw,
        Kind::Barrier => 24,
        Kind::Branch | Kind::Merge => 52,
        Kind::Final => vw + 20,
    };

    // Positions, and their headers, widths and gaps.
    let (mut slots, slot_of) = positions(&columns, &row_of, warps.len(), gap);
    size_positions(&mut slots, &columns, gap, natural);

    // Strips: as many as make the picture fit the slide best.
    let cell = if w <= 16 { 12i64 } else { 9i64 };
    // Bank maps: each shared-memory instruction of the drawn warps, its worst execution.
    let mut worst: BTreeMap<u32, &Issue> = BTreeMap::new();
    for i in &shared_accesses {
        let m = i.memory.as_ref().expect("a shared access");
        match worst.get(&i.pc) {
            Some(prev) if prev.memory.as_ref().map(|p| p.degree).unwrap_or(0) >= m.degree => {}
            _ => {
                worst.insert(i.pc, i);
            }
        }
    }
    let maps: Vec<&Issue> = worst.values().copied().take(MAX_BANK_MAPS).collect();
    let map_w = maps
        .iter()
        .map(|i| bank_map_width(kernel, i, opts.banks.max(1), cell))
        .max()
        .unwrap_or(0);
    let map_h = 58 + i64::from(w) * cell + 28;
    // Lay the positions out in strips no wider than `limit`: each strip's positions, its right edge.
    let lay_out = |slots: &mut [Slot], limit: i64| -> (usize, i64) {
        let mut strip = 0usize;
        let mut x = left - gap + 8;
        let mut right = left + 16;
        let mut empty = true;
        for slot in slots.iter_mut() {
            if !empty && x + slot.gap + slot.width + 8 > limit {
                strip += 1;
                x = left - gap + 8;
            }
            x += slot.gap;
            slot.strip = strip;
            slot.x = x;
            x += slot.width;
            right = right.max(x + 8);
            empty = false;
        }
        (strip + 1, right)
    };
    let picture = |strips: usize, right: i64| -> (i64, i64, i64) {
        let per_row = ((right.max(700) - 20) / (map_w + 20)).max(1);
        let map_rows = (maps.len() as i64 + per_row - 1) / per_row;
        let width = right
            .max(per_row.min(maps.len().max(1) as i64) * (map_w + 20) + 20)
            .max(640);
        let legend_y = top + (strips as i64 - 1) * strip_pitch + all_bands_h + 40;
        let maps_y = legend_y + 20 * 2 + 20;
        let height = if maps.is_empty() {
            maps_y - 20
        } else {
            maps_y + 24 + map_rows * (map_h + 20)
        };
        (width, height, per_row)
    };
    let total: i64 = slots.iter().map(|s| s.gap + s.width).sum::<i64>() + left + 16;
    let widest = slots.iter().map(|s| s.gap + s.width).max().unwrap_or(0) + left + 16;
    let mut best: Option<(i64, usize, i64)> = None;
    for k in 1..=slots.len().clamp(1, 16) {
        let limit = ((total + k as i64 - 1) / k as i64).max(widest);
        let (strips, right) = lay_out(&mut slots, limit);
        let (width, height, _) = picture(strips, right);
        let score = (width * SLIDE.1).max(height * SLIDE.0);
        if best.is_none_or(|(b, n, _)| score < b || (score == b && strips < n)) {
            best = Some((score, strips, limit));
        }
        if strips < k {
            break;
        }
    }
    let limit = best.map_or(i64::MAX, |b| b.2);
    let (strips, diagram_right) = lay_out(&mut slots, limit);
    let (width, _, per_row) = picture(strips, diagram_right);
    let title = format!(
        "{}: W={w}, block {block}, warp{} {}",
        kernel.program.name,
        if warps.len() == 1 { "" } else { "s" },
        list(&warps)
    );
    let subtitle = if drawn_steps == 0 {
        format!(
            "no step moves data between the lanes of block {block}, warp(s) {} (no shuffle, and no shared-memory load of another lane's store)",
            list(&warps)
        )
    } else if all_steps_shown {
        format!("{drawn_steps} exchange step(s)")
    } else {
        format!("exchange steps {first} to {last} of {total_steps} (--steps chooses)")
    };
    let subtitle = if strips > 1 {
        format!("{subtitle}, in {strips} strips (each continues the one above)")
    } else {
        subtitle
    };
    let width = width.max(text_w(&subtitle) + 24).max(text_w(&title) * 5 / 4 + 24);
    let strip_top = |s: usize| top + s as i64 * strip_pitch;
    let y_in = |s: usize, warp: u32, lane: u32| -> i64 {
        let r = row_of(warp).unwrap_or(0) as i64;
        strip_top(s) + r * band_h + i64::from(lane) * row_h + row_h / 2
    };
    let legend_y = strip_top(strips - 1) + all_bands_h + 40;
    let mut o = String::new();

    // What the legend needs.
    let mut used: BTreeSet<&'static str> = BTreeSet::new();

    // Position headers.
    for slot in &slots {
        let mid = slot.x + slot.width / 2;
        let base = strip_top(slot.strip);
        let _ = write!(o, r#"<g class="header"><title>{}</title>"#, esc(&slot.title));
        for (k, line) in slot.header.iter().enumerate() {
            if !line.is_empty() {
                let class = if k == 0 { "h1" } else { "h2" };
                let _ = write!(
                    o,
                    r#"<text class="{class}" x="{mid}" y="{}" text-anchor="middle">{}</text>"#,
                    base - 46 + 13 * k as i64,
                    esc(line)
                );
            }
        }
        o.push_str("</g>\n");
    }

    // Lane lines: solid while the lane is active, dashed while it is not, merged along the run; up to the last
    // column (the values of the `end` column stand on their own). A warp's activity is sampled at its own
    // columns, and after its last one at any later position (where it may have exited).
    let samples: Vec<Vec<(usize, u64)>> = (0..warps.len())
        .map(|row| {
            let mut own_last: Option<(usize, usize)> = None; // (column, slot)
            let mut out: Vec<(usize, u64)> = Vec::new();
            for (ci, c) in columns.iter().enumerate() {
                let (lo, hi) = c.rows(&row_of, warps.len());
                if (lo..=hi).contains(&row) && c.kind != Kind::Final {
                    out.push((slot_of[ci], c.active[row]));
                    own_last = Some((ci, slot_of[ci]));
                }
            }
            let (after, mut at) = own_last.map_or((0, 0), |(ci, s)| (ci + 1, s));
            for (ci, c) in columns.iter().enumerate().skip(after) {
                if slot_of[ci] > at || (own_last.is_none() && out.is_empty()) {
                    at = slot_of[ci];
                    out.push((at, c.active[row]));
                }
            }
            out.sort_by_key(|s| s.0);
            out
        })
        .collect();
    let active_at = |row: usize, slot: usize| -> u64 {
        let s = &samples[row];
        s.iter()
            .take_while(|x| x.0 <= slot)
            .last()
            .or(s.first())
            .map_or(u64::MAX, |x| x.1)
    };
    for strip in 0..strips {
        let in_strip: Vec<usize> = (0..slots.len()).filter(|&s| slots[s].strip == strip).collect();
        let end = match in_strip.last() {
            Some(&s) if slots[s].cols.iter().any(|&c| columns[c].kind == Kind::Final) => slots[s].x - 4,
            Some(&s) => slots[s].x + slots[s].width,
            None => left,
        };
        for (row, &warp) in warps.iter().enumerate() {
            let exists = lanes_of(warp);
            let wy = y_in(strip, warp, 0) - row_h / 2;
            let _ = writeln!(o, r#"<text class="warp" x="12" y="{}">warp {warp}</text>"#, wy - 3);
            for lane in 0..w {
                if exists >> lane & 1 == 0 {
                    continue;
                }
                let y = y_in(strip, warp, lane);
                let thread = super::lane_thread(kernel, warp, lane)
                    .map(|t| format!(" {t}"))
                    .unwrap_or_default();
                let _ = writeln!(
                    o,
                    r#"<text class="lane" x="{}" y="{}" text-anchor="end">lane {lane}{thread}</text>"#,
                    left - 4,
                    y + 4
                );
                let mut seg_start = left;
                let mut seg_active = in_strip
                    .first()
                    .map(|&s| active_at(row, s) >> lane & 1 == 1)
                    .unwrap_or(true);
                for &s in &in_strip {
                    let a = active_at(row, s) >> lane & 1 == 1;
                    if a != seg_active {
                        line_segment(&mut o, seg_start, slots[s].x, y, seg_active, &mut used);
                        seg_start = slots[s].x;
                        seg_active = a;
                    }
                }
                line_segment(&mut o, seg_start, end, y, seg_active, &mut used);
            }
        }
    }

    // Columns.
    let geometry = Geometry {
        row_h,
        w,
        vw,
        arrow_w,
        all_bands_h,
    };
    for (ci, c) in columns.iter().enumerate() {
        let slot = &slots[slot_of[ci]];
        let strip = slot.strip;
        draw_column(
            &mut o,
            c,
            slot,
            &geometry,
            &natural,
            &|warp, lane| y_in(strip, warp, lane),
            strip_top(strip),
            &mut used,
        );
    }

    // Where a position holds several warps' columns, a tag above each warp's part (on top of the arrows).
    for slot in &slots {
        let mid = slot.x + slot.width / 2;
        if slot.cols.len() > 1 {
            for &ci in &slot.cols {
                let c = &columns[ci];
                if let (Kind::Exchange(s), Some(warp)) = (c.kind, c.warp) {
                    let _ = writeln!(
                        o,
                        r#"<text class="tag" x="{mid}" y="{}" text-anchor="middle">step {s}<title>{}</title></text>"#,
                        y_in(slot.strip, warp, 0) - row_h / 2 - 4,
                        esc(&c.title)
                    );
                }
            }
        }
    }

    // The legend (the symbols this picture uses, left to right, wrapping at the picture's width) and the bank
    // maps below it decide the height.
    let rows = legend(&mut String::new(), &used, legend_y, width);
    let maps_y = legend_y + 20 * rows + 20;
    let map_rows = (maps.len() as i64 + per_row - 1) / per_row;
    let height = if maps.is_empty() {
        maps_y - 20
    } else {
        maps_y + 24 + map_rows * (map_h + 20)
    };
    let body = o;
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="11">"#
    );
    o.push_str(STYLE);
    let _ = writeln!(o, r"<title>{}</title>", esc(&title));
    let _ = writeln!(o, r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##);
    let _ = writeln!(o, r#"<text class="title" x="12" y="22">{}</text>"#, esc(&title));
    let _ = writeln!(o, r#"<text class="sub" x="12" y="40">{}</text>"#, esc(&subtitle));
    o.push_str(&body);

    legend(&mut o, &used, legend_y, width);

    // Bank maps.
    if !maps.is_empty() {
        let _ = writeln!(
            o,
            r#"<text class="title" x="12" y="{maps_y}">Shared-memory bank maps (lanes × banks; the busiest bank's word count is the conflict degree)</text>"#
        );
        for (k, i) in maps.iter().enumerate() {
            let mx = 12 + (k as i64 % per_row) * (map_w + 20);
            let my = maps_y + 16 + (k as i64 / per_row) * (map_h + 20);
            bank_map(&mut o, kernel, i, mx, my, opts.banks.max(1), cell);
        }
        if worst.len() > MAX_BANK_MAPS {
            let _ = writeln!(
                o,
                r#"<text class="sub" x="12" y="{}">({} more shared-memory instructions are not drawn)</text>"#,
                height - 6,
                worst.len() - MAX_BANK_MAPS
            );
        }
    }
    o.push_str("</svg>\n");
    Ok(o)
}

/// Lanes that exist in warp `warp` of a block (the last warp of a block may be partial).
fn lanes_in(kernel: &Kernel, warp: u32) -> u64 {
    let w = kernel.warp_size;
    let n = kernel.block.saturating_sub(warp * w).min(w);
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// The column of a shared-memory load in which lanes read words other lanes stored (`x`), with an arrow from
/// each drawn storing lane (the store event of each word in `stored_at`); none if no storing lane is drawn.
#[allow(clippy::too_many_arguments)]
fn shared_load_column(
    kernel: &Kernel,
    (k, i): (usize, &Issue),
    m: &MemoryTrace,
    x: &super::Exchange,
    step: usize,
    active: &[u64],
    row_of: &dyn Fn(u32) -> Option<usize>,
    stored_at: &BTreeMap<(u16, u64), usize>,
) -> Option<Column> {
    let ty_of = |r: u16| kernel.reg_types[r as usize];
    let mut col = None::<Column>;
    for &(lane, sw, sl) in &x.from {
        if row_of(sw).is_none() {
            continue;
        }
        let c = col.get_or_insert_with(|| {
            let text = &kernel.program.instructions[i.pc as usize].text;
            let mut c = Column::new(
                Kind::Exchange(step),
                [
                    format!("step {step}"),
                    format!("ld.shared {}", kernel.shared[m.buffer as usize].name),
                    format!("cycle {}", i.cycle),
                ],
                format!("pc {}: {text} (warp {})", i.pc, i.warp),
                active,
                step,
                Some(i.warp),
                k,
                i.cycle,
            );
            c.shared = true;
            c.wrote = i.write.as_ref().map(|(r, _)| *r);
            c
        });
        let at = stored_at.get(&(m.buffer, m.index[lane as usize])).copied();
        c.stored = c.stored.max(at.unwrap_or(0));
        // The value moved: what the load read.
        let v = match &i.write {
            Some((r, vals)) => value(ty_of(*r), vals[lane as usize]),
            None => String::new(),
        };
        c.arrows.push(Arrow {
            from: (sw, sl),
            to: (i.warp, lane),
            class: "arrow shared",
            title: format!(
                "warp {sw} lane {sl} stored {v} in {}[{}]; warp {} lane {lane} loads it",
                kernel.shared[m.buffer as usize].name, m.index[lane as usize], i.warp
            ),
        });
        if !c.sent.iter().any(|l| (l.warp, l.lane) == (sw, sl)) {
            c.sent.push(Label {
                warp: sw,
                lane: sl,
                text: v.clone(),
                class: "val",
            });
        }
        c.received.push(Label {
            warp: i.warp,
            lane,
            text: v,
            class: "val",
        });
    }
    col
}

/// The column of a shuffle: an arrow from each executing lane's source, the values sent and received, a ring
/// for a lane whose source is out of range, a red arrow for an undefined read.
fn shuffle_column(
    kernel: &Kernel,
    (k, i): (usize, &Issue),
    s: &ShuffleTrace,
    sent: Option<u16>,
    step: usize,
    active: &[u64],
) -> Column {
    let w = kernel.warp_size;
    let ty_of = |r: u16| kernel.reg_types[r as usize];
    let text = &kernel.program.instructions[i.pc as usize].text;
    let mut c = Column::new(
        Kind::Exchange(step),
        [
            format!("step {step}"),
            format!("shfl.{}", shuffle_label(kernel, i)),
            format!("cycle {}", i.cycle),
        ],
        format!("pc {}: {text} (warp {})", i.pc, i.warp),
        active,
        step,
        Some(i.warp),
        k,
        i.cycle,
    );
    c.wrote = i.write.as_ref().map(|(r, _)| *r);
    c.sends = sent;
    let ty = sent.map(ty_of).unwrap_or(warpsim_isa::Ty::U32);
    let received = i.write.as_ref().map(|(_, v)| v.as_slice());
    for lane in 0..w {
        if i.exec >> lane & 1 == 0 {
            continue;
        }
        let src = s.sources[lane as usize];
        let got = received.map(|v| value(ty, v[lane as usize])).unwrap_or_default();
        if s.in_range >> lane & 1 == 0 {
            c.marks.push((i.warp, lane, "own"));
            c.received.push(Label {
                warp: i.warp,
                lane,
                text: got,
                class: "val own",
            });
            continue;
        }
        let undefined = s.undefined >> lane & 1 == 1;
        if lanes_in(kernel, i.warp) >> src & 1 == 0 {
            // A lane past the end of a partial warp: no line to draw from.
            c.received.push(Label {
                warp: i.warp,
                lane,
                text: got,
                class: "val undefined",
            });
            continue;
        }
        c.arrows.push(Arrow {
            from: (i.warp, src),
            to: (i.warp, lane),
            class: if undefined { "arrow undefined" } else { "arrow" },
            title: format!(
                "lane {lane} reads lane {src}: {got}{}",
                if undefined {
                    " (undefined on hardware: the source lane is inactive or outside the member mask)"
                } else {
                    ""
                }
            ),
        });
        if !c.sent.iter().any(|l| l.lane == src) {
            c.sent.push(Label {
                warp: i.warp,
                lane: src,
                text: value(ty, i.operands[0][src as usize]),
                class: "val",
            });
        }
        c.received.push(Label {
            warp: i.warp,
            lane,
            text: got,
            class: if undefined { "val undefined" } else { "val" },
        });
    }
    c
}

/// What walking the trace gives the diagram.
struct Walk<'e> {
    /// The columns of the chosen steps, with the barriers, branches and merges between them, and the end column
    /// when every step is shown.
    columns: Vec<Column>,
    /// The drawn warps' shared-memory accesses (for the bank maps).
    shared_accesses: Vec<&'e Issue>,
    /// Per drawn warp: its issues (event index, issue) and the register its last exchange sent.
    issues_of: Vec<Vec<(usize, &'e Issue)>>,
    last_sent: Vec<Option<u16>>,
    total_steps: usize,
    drawn_steps: usize,
    all_steps_shown: bool,
    first: usize,
    last: usize,
}

/// Walk the trace once for block `block`'s drawn `warps`: a column for every exchange (a shuffle, or a shared
/// load of words other lanes stored), barrier release, divergent branch and reconvergence, each with every drawn
/// warp's active lanes at that moment; keep the `steps` chosen (exchange steps are numbered over the whole run,
/// as the stepper numbers them).
fn walk<'e>(
    kernel: &Kernel,
    events: &'e [Event],
    block: u32,
    warps: &[u32],
    steps: Option<(usize, usize)>,
) -> Result<Walk<'e>, String> {
    let mut walker = Walker::new(kernel, warps);
    // Exchange steps are numbered over the whole run (as the stepper numbers them).
    let exchanges = super::exchanges(events);
    let total_steps = exchanges.iter().flatten().map(|x| x.step).max().unwrap_or(0) as usize;
    for (k, (e, exchange)) in events.iter().zip(&exchanges).enumerate() {
        let step = exchange.as_ref().map_or(0, |x| x.step as usize);
        walker.seen = walker.seen.max(step);
        match e {
            Event::Issue(i) if i.block == block => walker.issue(k, i, exchange.as_ref(), step),
            Event::Diverge {
                block: b,
                warp,
                pc,
                taken,
                fallthrough,
                target,
                reconverge,
                cycle,
                ..
            } if *b == block => walker.branch(k, *warp, *pc, *cycle, (*taken, *fallthrough), (*target, *reconverge)),
            Event::Reconverge {
                block: b,
                warp,
                pc,
                mask,
                cycle,
            } if *b == block => walker.merge(k, *warp, *pc, *mask, *cycle),
            Event::BarrierRelease {
                block: b,
                id,
                warps: released,
                cycle,
                ..
            } if *b == block => walker.barrier(k, *id, released, *cycle),
            Event::WarpExit { block: b, warp, .. } if *b == block => walker.exit(*warp),
            _ => {}
        }
    }
    let (first, last) = chosen_steps(steps, total_steps)?;
    let mut columns = std::mem::take(&mut walker.columns);
    // The chosen steps, with the barriers, branches and merges between them.
    columns.retain(|c| match c.kind {
        Kind::Exchange(s) => (first..=last).contains(&s),
        _ => first - 1 <= c.ctx && c.ctx <= last,
    });
    let drawn_steps = columns.iter().filter(|c| matches!(c.kind, Kind::Exchange(_))).count();
    let fin = walker.final_column(events);
    let all_steps_shown = first == 1 && last == total_steps;
    if all_steps_shown && drawn_steps > 0 && !fin.received.is_empty() {
        columns.push(fin);
    }
    Ok(Walk {
        columns,
        shared_accesses: walker.shared_accesses,
        issues_of: walker.issues_of,
        last_sent: walker.last_sent,
        total_steps,
        drawn_steps,
        all_steps_shown,
        first,
        last,
    })
}

/// The exchange steps to draw, `first..=last` (`last` cut to the run's `total_steps`): the `--steps` asked
/// for, or the first [`DEFAULT_STEPS`]; an error for a range that names no step of the run.
fn chosen_steps(steps: Option<(usize, usize)>, total_steps: usize) -> Result<(usize, usize), String> {
    let (first, last) = match steps {
        Some((first, last)) if first == 0 || first > last || first > total_steps => {
            return Err(format!(
                "--steps {first}-{last}: the run has {total_steps} exchange step(s), numbered from 1"
            ));
        }
        Some(range) => range,
        None => (1, DEFAULT_STEPS),
    };
    Ok((first, last.min(total_steps)))
}

/// The walk's state as it goes through the trace: the drawn warps' active lanes and latest values, where each
/// shared word was stored, and the columns so far.
struct Walker<'k, 'e> {
    kernel: &'k Kernel,
    warps: &'k [u32],
    active: Vec<u64>,
    columns: Vec<Column>,
    shared_accesses: Vec<&'e Issue>,
    /// Per drawn warp: its issues (event index, issue) and the register the last exchange sent.
    issues_of: Vec<Vec<(usize, &'e Issue)>>,
    last_sent: Vec<Option<u16>>,
    /// The latest values of each drawn warp's registers: (row, register) → (values, lanes written).
    latest: BTreeMap<(usize, u16), (Vec<u64>, u64)>,
    /// The event that last stored each shared word of the block: (array, index) → event.
    stored_at: BTreeMap<(u16, u64), usize>,
    /// Exchanges so far, at the current event.
    seen: usize,
}

impl<'k, 'e> Walker<'k, 'e> {
    /// Before the first event: every lane of the drawn `warps` active, nothing seen.
    fn new(kernel: &'k Kernel, warps: &'k [u32]) -> Self {
        Walker {
            kernel,
            warps,
            active: warps.iter().map(|&x| lanes_in(kernel, x)).collect(),
            columns: Vec::new(),
            shared_accesses: Vec::new(),
            issues_of: vec![Vec::new(); warps.len()],
            last_sent: vec![None; warps.len()],
            latest: BTreeMap::new(),
            stored_at: BTreeMap::new(),
            seen: 0,
        }
    }

    /// The drawn row of `warp`, if it is drawn.
    fn row_of(&self, warp: u32) -> Option<usize> {
        self.warps.iter().position(|&x| x == warp)
    }

    /// A column of `kind` for event `k` at `cycle`, with the drawn warps' active lanes now.
    fn column(
        &self,
        kind: Kind,
        header: [String; 3],
        title: String,
        warp: Option<u32>,
        k: usize,
        cycle: u64,
    ) -> Column {
        Column::new(kind, header, title, &self.active, self.seen, warp, k, cycle)
    }

    /// An issue of the block (event `k`, exchange step `step` if it is one): its shared-memory side, then for a
    /// drawn warp its active lanes, its shuffle's column and its latest values.
    fn issue(&mut self, k: usize, i: &'e Issue, exchange: Option<&super::Exchange>, step: usize) {
        self.shared_memory(k, i, exchange, step);
        let Some(row) = self.row_of(i.warp) else { return };
        self.issues_of[row].push((k, i));
        self.active[row] = i.active;
        if let (Some(s), Role::Shuffle { sent, .. }) = (&i.shuffle, self.kernel.described[i.pc as usize].role) {
            self.columns
                .push(shuffle_column(self.kernel, (k, i), s, sent, step, &self.active));
            if let Some(r) = sent {
                self.last_sent[row] = Some(r);
                self.latest.insert((row, r), (i.operands[0].clone(), i.active));
            }
        }
        if let Some((r, vals)) = &i.write {
            let entry = self.latest.entry((row, *r)).or_insert_with(|| (vals.clone(), 0));
            for (lane, (dst, &v)) in entry.0.iter_mut().zip(vals).enumerate() {
                if i.exec >> lane & 1 == 1 {
                    *dst = v;
                }
            }
            entry.1 |= i.exec;
        }
    }

    /// An issue's shared-memory side: a drawn warp's load of other lanes' stores is a column, a store records
    /// the words it wrote, and a drawn warp's access is kept for the bank maps.
    fn shared_memory(&mut self, k: usize, i: &'e Issue, exchange: Option<&super::Exchange>, step: usize) {
        let Some(m) = i.memory.as_ref().filter(|m| m.shared) else {
            return;
        };
        let warps = self.warps;
        let row_of = |warp: u32| warps.iter().position(|&x| x == warp);
        if let Some(x) = exchange
            && row_of(i.warp).is_some()
            && let Some(c) = shared_load_column(self.kernel, (k, i), m, x, step, &self.active, &row_of, &self.stored_at)
        {
            // A load that reads other lanes' stores: from the drawn ones, arrows.
            self.columns.push(c);
        }
        if m.store {
            for lane in (0..self.kernel.warp_size).filter(|l| i.exec >> l & 1 == 1) {
                self.stored_at.insert((m.buffer, m.index[lane as usize]), k);
            }
        }
        if row_of(i.warp).is_some() {
            self.shared_accesses.push(i);
        }
    }

    /// A drawn warp's divergent branch (event `k`): a column marking the lanes that take it (▶) and those that
    /// fall through (○).
    fn branch(
        &mut self,
        k: usize,
        warp: u32,
        pc: u32,
        cycle: u64,
        (taken, fallthrough): (u64, u64),
        (target, reconverge): (u32, u32),
    ) {
        if self.row_of(warp).is_none() {
            return;
        }
        let mut c = self.column(
            Kind::Branch,
            ["branch".into(), format!("w{warp} pc {pc}"), format!("cycle {cycle}")],
            format!(
                "warp {warp} splits at pc {pc}: ▶ lanes take the branch to pc {target}, ○ lanes fall through; they meet again at pc {reconverge}"
            ),
            Some(warp),
            k,
            cycle,
        );
        for lane in 0..self.kernel.warp_size {
            if taken >> lane & 1 == 1 {
                c.marks.push((warp, lane, "taken"));
            } else if fallthrough >> lane & 1 == 1 {
                c.marks.push((warp, lane, "fallthrough"));
            }
        }
        self.columns.push(c);
    }

    /// A drawn warp's reconvergence (event `k`): its `mask` lanes active again, and a column marking them.
    fn merge(&mut self, k: usize, warp: u32, pc: u32, mask: u64, cycle: u64) {
        let Some(row) = self.row_of(warp) else { return };
        self.active[row] = mask;
        let mut c = self.column(
            Kind::Merge,
            ["merge".into(), format!("w{warp} pc {pc}"), format!("cycle {cycle}")],
            format!("warp {warp}'s split lanes run together again at pc {pc}"),
            Some(warp),
            k,
            cycle,
        );
        for lane in 0..self.kernel.warp_size {
            if mask >> lane & 1 == 1 {
                c.marks.push((warp, lane, "merge"));
            }
        }
        self.columns.push(c);
    }

    /// Barrier `id` releasing the block's `released` warps (event `k`): a column across every drawn warp.
    fn barrier(&mut self, k: usize, id: u32, released: &[u32], cycle: u64) {
        let c = self.column(
            Kind::Barrier,
            ["barrier".into(), format!("bar {id}"), format!("cycle {cycle}")],
            format!("barrier {id} releases warps {released:?} at cycle {cycle}"),
            None,
            k,
            cycle,
        );
        self.columns.push(c);
    }

    /// A drawn warp exited: none of its lanes is active from here on.
    fn exit(&mut self, warp: u32) {
        if let Some(row) = self.row_of(warp) {
            self.active[row] = 0;
        }
    }

    /// The last column: the register each warp's last exchange sent, as the run left it.
    fn final_column(&self, events: &[Event]) -> Column {
        let w = self.kernel.warp_size;
        let reg = |r: u16| format!("%{}", self.kernel.program.reg_name(warpsim_isa::Reg(r)));
        let end_cycle = events.last().map_or(0, Event::cycle);
        let mut fin = self.column(
            Kind::Final,
            ["end".into(), String::new(), String::new()],
            "the register each warp's last exchange sent, at the end of the trace".into(),
            None,
            events.len(),
            end_cycle,
        );
        let mut fin_regs = Vec::new();
        for (row, &warp) in self.warps.iter().enumerate() {
            if let Some(r) = self.last_sent[row]
                && let Some((vals, seen)) = self.latest.get(&(row, r))
            {
                if !fin_regs.contains(&reg(r)) {
                    fin_regs.push(reg(r));
                }
                for lane in 0..w {
                    if seen >> lane & 1 == 1 {
                        fin.received.push(Label {
                            warp,
                            lane,
                            text: value(self.kernel.reg_types[r as usize], vals[lane as usize]),
                            class: "val",
                        });
                    }
                }
            }
        }
        fin.header[1] = fin_regs.join(" ");
        fin
    }
}

/// Each column's position: the first after the last position of every drawn warp (row) it covers, among
/// positions of its own kind; an exchange may join the position before if no lane's values clash
/// ([`Column::fits_beside`]). The positions (columns in each) and each column's position.
fn positions(
    columns: &[Column],
    row_of: &dyn Fn(u32) -> Option<usize>,
    rows: usize,
    gap: i64,
) -> (Vec<Slot>, Vec<usize>) {
    let mut slots: Vec<Slot> = Vec::new();
    let mut slot_of: Vec<usize> = vec![0; columns.len()];
    let mut next_free: Vec<usize> = vec![0; rows.max(1)];
    for (ci, c) in columns.iter().enumerate() {
        let (lo, hi) = c.rows(row_of, rows);
        let s = next_free[lo..=hi].iter().copied().max().unwrap_or(0);
        let joins_previous = s > 0 && slots[s - 1].cols.iter().all(|&o| c.fits_beside(&columns[o]));
        let mut target = if joins_previous { s - 1 } else { s };
        while target < slots.len()
            && slots[target]
                .cols
                .iter()
                .any(|&o| columns[o].kind.class() != c.kind.class() || c.kind.class() == 4)
        {
            target += 1;
        }
        if target == slots.len() {
            slots.push(Slot {
                cols: Vec::new(),
                width: 0,
                gap,
                header: Default::default(),
                title: String::new(),
                strip: 0,
                x: 0,
            });
        }
        slots[target].cols.push(ci);
        slot_of[ci] = target;
        for f in &mut next_free[lo..=hi] {
            *f = target + 1;
        }
    }
    (slots, slot_of)
}

/// Each position's headers (one column's, or the steps, operations and cycles of several), tooltip, width (its
/// columns' `natural` width, or its headers') and the gap before it (room for the combining boxes).
fn size_positions(slots: &mut [Slot], columns: &[Column], gap: i64, natural: impl Fn(Kind) -> i64) {
    for slot in slots.iter_mut() {
        let cols: Vec<&Column> = slot.cols.iter().map(|&k| &columns[k]).collect();
        let kind = cols[0].kind;
        slot.header = if cols.len() == 1 {
            cols[0].header.clone()
        } else {
            let mut ops: Vec<&str> = Vec::new();
            for c in &cols {
                if !ops.contains(&c.header[1].as_str()) {
                    ops.push(&c.header[1]);
                }
            }
            let lo = cols.iter().map(|c| c.cycle).min().unwrap_or(0);
            let hi = cols.iter().map(|c| c.cycle).max().unwrap_or(0);
            let mut steps: Vec<usize> = cols
                .iter()
                .filter_map(|c| match c.kind {
                    Kind::Exchange(s) => Some(s),
                    _ => None,
                })
                .collect();
            steps.sort_unstable();
            [
                match kind {
                    Kind::Exchange(_) => format!("steps {}", ranges(&steps)),
                    _ => cols[0].header[0].clone(),
                },
                ops.join(" / "),
                if lo == hi {
                    format!("cycle {lo}")
                } else {
                    format!("cycles {lo}–{hi}")
                },
            ]
        };
        slot.title = cols.iter().map(|c| c.title.as_str()).collect::<Vec<_>>().join("\n");
        let header_w = slot
            .header
            .iter()
            .enumerate()
            .map(|(k, h)| if k == 0 { text_w(h) } else { small_w(h) } + 6)
            .max()
            .unwrap_or(0);
        slot.width = natural(kind).max(header_w);
        let boxes = cols.iter().flat_map(|c| &c.combine).map(|b| text_w(&b.text) + 8).max();
        if let Some(b) = boxes {
            slot.gap = gap.max(b + 8);
        }
    }
}

/// The sizes a column is drawn with: a lane row's height, the lanes per warp, a value's width, an arrow's width,
/// and the height of the drawn warps' bands.
struct Geometry {
    row_h: i64,
    w: u32,
    vw: i64,
    arrow_w: i64,
    all_bands_h: i64,
}

/// Draw column `c` at its position `slot`: the combining boxes in the gap before it, then the barrier bar, the
/// arrows and values of an exchange (or the end column's values), or the branch and merge marks. `y_of` is a
/// lane's row in the column's strip, which starts at `strip_top`; `used` collects the legend's entries.
#[allow(clippy::too_many_arguments)]
fn draw_column(
    o: &mut String,
    c: &Column,
    slot: &Slot,
    g: &Geometry,
    natural: &dyn Fn(Kind) -> i64,
    y_of: &dyn Fn(u32, u32) -> i64,
    strip_top: i64,
    used: &mut BTreeSet<&'static str>,
) {
    let Geometry {
        row_h,
        w,
        vw,
        arrow_w,
        all_bands_h,
    } = *g;
    let (cx, cw) = (slot.x, slot.width);
    // The combining instructions, in the gap before the column, across each warp's lanes.
    for b in &c.combine {
        let bw = text_w(&b.text) + 8;
        let x0 = cx - slot.gap + (slot.gap - bw) / 2;
        let y0 = y_of(b.warp, 0) - row_h / 2 + 2;
        let y1 = y_of(b.warp, w - 1) + row_h / 2 - 2;
        let _ = writeln!(
            o,
            r#"<g class="combine"><title>{}</title><rect x="{x0}" y="{y0}" width="{bw}" height="{}" rx="4"/><text x="{}" y="{}" text-anchor="middle">{}</text></g>"#,
            esc(&b.title),
            y1 - y0,
            x0 + bw / 2,
            i64::midpoint(y0, y1) + 4,
            esc(&b.text)
        );
        used.insert("combine");
    }
    match c.kind {
        Kind::Barrier => {
            let y0 = strip_top - 6;
            let _ = writeln!(
                o,
                r#"<rect class="barrier" x="{}" y="{y0}" width="8" height="{}"><title>{}</title></rect>"#,
                cx + cw / 2 - 4,
                all_bands_h + 12,
                esc(&c.title)
            );
            used.insert("barrier");
        }
        Kind::Exchange(_) | Kind::Final => {
            let pad = if c.kind == Kind::Final {
                0
            } else {
                (cw - natural(c.kind)) / 2
            };
            let xa = cx + pad + vw;
            let xb = cx + pad + vw + arrow_w;
            for a in &c.arrows {
                let (y0, y1) = (y_of(a.from.0, a.from.1), y_of(a.to.0, a.to.1));
                let _ = writeln!(
                    o,
                    r#"<line class="{}" x1="{xa}" y1="{y0}" x2="{}" y2="{y1}" marker-end="url(#{})"><title>{}</title></line>"#,
                    a.class,
                    xb - 2,
                    if a.class == "arrow undefined" {
                        "head-red"
                    } else if a.class == "arrow shared" {
                        "head-green"
                    } else {
                        "head"
                    },
                    esc(&a.title)
                );
                used.insert(a.class);
            }
            for l in &c.sent {
                let _ = writeln!(
                    o,
                    r#"<text class="{}" x="{}" y="{}" text-anchor="end">{}</text>"#,
                    l.class,
                    xa - 4,
                    y_of(l.warp, l.lane) - 3,
                    esc(&l.text)
                );
            }
            let rx = if c.kind == Kind::Final { cx + 4 } else { xb + 4 };
            for l in &c.received {
                let _ = writeln!(
                    o,
                    r#"<text class="{}" x="{rx}" y="{}">{}</text>"#,
                    l.class,
                    y_of(l.warp, l.lane) - 3,
                    esc(&l.text)
                );
            }
            for &(warp, lane, class) in &c.marks {
                let _ = writeln!(
                    o,
                    r#"<circle class="{class}" cx="{}" cy="{}" r="5"><title>lane {lane}: source out of range, keeps its own value</title></circle>"#,
                    i64::midpoint(xa, xb),
                    y_of(warp, lane)
                );
                used.insert("own");
            }
        }
        Kind::Branch | Kind::Merge => {
            let mx = cx + cw / 2;
            for &(warp, lane, class) in &c.marks {
                let y = y_of(warp, lane);
                match class {
                    "taken" => {
                        let _ = writeln!(
                            o,
                            r#"<path class="taken" d="M {} {} L {} {y} L {} {} Z"/>"#,
                            mx - 5,
                            y - 6,
                            mx + 6,
                            mx - 5,
                            y + 6
                        );
                        used.insert("branch");
                    }
                    "fallthrough" => {
                        let _ = writeln!(o, r#"<circle class="fallthrough" cx="{mx}" cy="{y}" r="5"/>"#);
                        used.insert("branch");
                    }
                    _ => {
                        let _ = writeln!(
                            o,
                            r#"<rect class="merge" x="{}" y="{}" width="8" height="8" transform="rotate(45 {mx} {y})"/>"#,
                            mx - 4,
                            y - 4
                        );
                        used.insert("merge");
                    }
                }
            }
        }
    }
}

/// The boxes of "what combined the values": for each drawn warp, between two of its exchange columns (and
/// between its last exchange and the end column), the arithmetic on the data path ([`combining`]) among its
/// issues in between, named in the later column's `combine`.
fn combine_boxes(
    kernel: &Kernel,
    columns: &mut [Column],
    warps: &[u32],
    issues_of: &[Vec<(usize, &Issue)>],
    last_sent: &[Option<u16>],
) {
    for (row, &warp) in warps.iter().enumerate() {
        let mine: Vec<usize> = columns
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c.kind, Kind::Exchange(_)) && c.warp == Some(warp))
            .map(|(k, _)| k)
            .collect();
        let end = columns.iter().position(|c| c.kind == Kind::Final);
        let mut pairs: Vec<(usize, usize)> = mine.windows(2).map(|p| (p[0], p[1])).collect();
        if let (Some(&a), Some(end)) = (mine.last(), end)
            && last_sent[row].is_some()
        {
            pairs.push((a, end));
        }
        for (a, b) in pairs {
            let Some(start) = columns[a].wrote else { continue };
            let (from, to) = (columns[a].event, columns[b].event);
            let window: Vec<&Issue> = issues_of[row]
                .iter()
                .filter(|(k, _)| from < *k && *k < to)
                .map(|&(_, i)| i)
                .collect();
            let targets: Vec<u16> = match columns[b].kind {
                Kind::Final => last_sent[row].into_iter().collect(),
                _ if columns[b].shared => window
                    .iter()
                    .filter_map(|i| match kernel.described[i.pc as usize].role {
                        Role::Store {
                            shared: true,
                            value: Some(r),
                        } if i.exec != 0 => Some(r),
                        _ => None,
                    })
                    .collect(),
                _ => columns[b].sends.into_iter().collect(),
            };
            let ops = combining(kernel, &window, start, &targets);
            if ops.is_empty() {
                continue;
            }
            let mut names: Vec<&str> = Vec::new();
            let mut lines: Vec<(u32, usize)> = Vec::new();
            for &k in &ops {
                let pc = window[k].pc;
                let name = mnemonic(&kernel.program.instructions[pc as usize].text);
                if !names.contains(&name) {
                    names.push(name);
                }
                match lines.iter_mut().find(|(p, _)| *p == pc) {
                    Some((_, n)) => *n += 1,
                    None => lines.push((pc, 1)),
                }
            }
            let text = if names.len() > 3 {
                format!("{}, …", names[..3].join(", "))
            } else {
                names.join(", ")
            };
            let step_name = |c: &Column| match c.kind {
                Kind::Exchange(s) => format!("step {s}"),
                _ => "the end".into(),
            };
            let mut title = format!(
                "warp {warp}: what combined the values between {} and {}:",
                step_name(&columns[a]),
                step_name(&columns[b])
            );
            for (pc, n) in lines {
                let _ = write!(
                    title,
                    "\npc {pc}: {}{}",
                    kernel.program.instructions[pc as usize].text,
                    if n > 1 { format!(" (×{n})") } else { String::new() }
                );
            }
            columns[b].combine.push(Combine { warp, text, title });
        }
    }
}

/// The legend's entries: (what the picture must use, the symbol's SVG at x = 0 and y = 0, its width, the text).
const LEGEND: [(&str, &str, i64, &str); 9] = [
    (
        "arrow",
        r#"<line class="arrow key" x1="0" y1="0" x2="36" y2="0" marker-end="url(#head)"/>"#,
        42,
        "shuffle: lane reads lane",
    ),
    (
        "arrow shared",
        r#"<line class="arrow shared key" x1="0" y1="0" x2="36" y2="0" marker-end="url(#head-green)"/>"#,
        42,
        "through shared memory",
    ),
    (
        "arrow undefined",
        r#"<line class="arrow undefined key" x1="0" y1="0" x2="36" y2="0" marker-end="url(#head-red)"/>"#,
        42,
        "undefined read",
    ),
    (
        "combine",
        r#"<rect class="combine key" x="0" y="-8" width="30" height="16" rx="4"/>"#,
        36,
        "what combined the values between exchanges",
    ),
    (
        "own",
        r#"<circle class="own" cx="6" cy="0" r="5"/>"#,
        18,
        "source out of range: keeps its own value",
    ),
    (
        "lane-off",
        r#"<line class="lane-off" x1="0" y1="0" x2="36" y2="0"/>"#,
        42,
        "inactive lane",
    ),
    (
        "barrier",
        r#"<rect class="barrier" x="0" y="-7" width="8" height="14"/>"#,
        14,
        "barrier",
    ),
    (
        "branch",
        r#"<path class="taken" d="M 0 -6 L 11 0 L 0 6 Z"/><circle class="fallthrough" cx="24" cy="0" r="5"/>"#,
        36,
        "branch taken / falls through",
    ),
    (
        "merge",
        r#"<rect class="merge" x="2" y="-4" width="8" height="8" transform="rotate(45 6 0)"/>"#,
        18,
        "split lanes merge",
    ),
];

/// Writes the legend; returns its rows.
fn legend(o: &mut String, used: &BTreeSet<&'static str>, y: i64, width: i64) -> i64 {
    let entries: Vec<_> = LEGEND.iter().filter(|e| used.contains(e.0)).collect();
    if entries.is_empty() {
        return 0;
    }
    let top = y;
    o.push_str(r#"<g class="legend">"#);
    let (mut x, mut y) = (12i64, y);
    for (_, symbol, sw, text) in entries {
        let w = sw + text_w(text) + 28;
        if x > 12 && x + w > width - 12 {
            x = 12;
            y += 20;
        }
        let _ = write!(
            o,
            r#"<g transform="translate({x} {y})">{symbol}<text x="{sw}" y="4">{text}</text></g>"#
        );
        x += w;
    }
    o.push_str("</g>\n");
    (y - top) / 20 + 1
}

fn line_segment(o: &mut String, x0: i64, x1: i64, y: i64, active: bool, used: &mut BTreeSet<&'static str>) {
    if x1 > x0 {
        let class = if active { "lane-on" } else { "lane-off" };
        if !active {
            used.insert("lane-off");
        }
        let _ = writeln!(o, r#"<line class="{class}" x1="{x0}" y1="{y}" x2="{x1}" y2="{y}"/>"#);
    }
}
fn list(warps: &[u32]) -> String {
    warps
        .iter()
        .map(std::string::ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Fill colours for the distinct words under one bank (a broadcast shares a colour).
const WORD_COLOURS: [&str; 6] = ["#4c8bf5", "#f28b30", "#34a853", "#a142f4", "#e8453c", "#12b5cb"];

/// A bank map's two heading lines: the instruction, and what it did.
fn bank_map_heading(kernel: &Kernel, i: &Issue) -> (String, String) {
    let Some(m) = &i.memory else {
        return Default::default();
    };
    let name = &kernel.shared[m.buffer as usize].name;
    let text = &kernel.program.instructions[i.pc as usize].text;
    (
        format!("pc {} {text}", i.pc),
        format!(
            "block {} warp {}, cycle {}: {} of {name}, conflict degree {}",
            i.block,
            i.warp,
            i.cycle,
            if m.atomic {
                "atomic"
            } else if m.store {
                "store"
            } else {
                "load"
            },
            m.degree
        ),
    )
}

/// The width a bank map takes: its grid, or its heading where that is wider.
fn bank_map_width(kernel: &Kernel, i: &Issue, banks: u32, cell: i64) -> i64 {
    let (a, b) = bank_map_heading(kernel, i);
    (56 + i64::from(banks) * cell + 10)
        .max(text_w(&a) + 8)
        .max(text_w(&b) + 8)
}

/// One bank map: lanes as rows, banks as columns.
pub fn bank_map(o: &mut String, kernel: &Kernel, i: &Issue, x: i64, y: i64, banks: u32, cell: i64) {
    let Some(m) = &i.memory else { return };
    let w = kernel.warp_size;
    let name = &kernel.shared[m.buffer as usize].name;
    let (line1, line2) = bank_map_heading(kernel, i);
    // Distinct words per bank, in lane order.
    let mut words: Vec<Vec<u64>> = vec![Vec::new(); banks as usize];
    for lane in 0..w {
        if i.exec >> lane & 1 == 1 {
            let b = (m.banks[lane as usize] % banks) as usize;
            let word = m.index[lane as usize];
            if !words[b].contains(&word) {
                words[b].push(word);
            }
        }
    }
    let busiest = words.iter().map(Vec::len).max().unwrap_or(0);
    let gx = x + 56;
    let gy = y + 44;
    let _ = writeln!(
        o,
        r#"<g class="bankmap"><text class="h1" x="{x}" y="{}">{}</text>"#,
        y + 12,
        esc(&line1)
    );
    let _ = writeln!(o, r#"<text class="sub" x="{x}" y="{}">{}</text>"#, y + 26, esc(&line2));
    for b in (0..banks).step_by(4) {
        let _ = write!(
            o,
            r#"<text class="tick" x="{}" y="{}" text-anchor="middle">{b}</text>"#,
            gx + i64::from(b) * cell + cell / 2,
            gy - 4
        );
    }
    o.push('\n');
    for lane in 0..w {
        let ly = gy + i64::from(lane) * cell;
        if lane % 4 == 0 || w <= 16 {
            let _ = write!(
                o,
                r#"<text class="tick" x="{}" y="{}" text-anchor="end">lane {lane}</text>"#,
                gx - 4,
                ly + cell - 2
            );
        }
        let _ = write!(
            o,
            r#"<rect class="grid" x="{gx}" y="{ly}" width="{}" height="{cell}"/>"#,
            i64::from(banks) * cell
        );
        if i.exec >> lane & 1 == 1 {
            let b = m.banks[lane as usize] % banks;
            let k = words[b as usize]
                .iter()
                .position(|&x| x == m.index[lane as usize])
                .unwrap_or(0);
            let _ = write!(
                o,
                r#"<rect x="{}" y="{ly}" width="{cell}" height="{cell}" fill="{}"><title>lane {lane}: {name}[{}] in bank {b}</title></rect>"#,
                gx + i64::from(b) * cell,
                WORD_COLOURS[k % WORD_COLOURS.len()],
                m.index[lane as usize]
            );
        }
        o.push('\n');
    }
    // Words per bank; the busiest bank(s) in red.
    let cy = gy + i64::from(w) * cell + 14;
    let _ = write!(
        o,
        r#"<text class="tick" x="{}" y="{cy}" text-anchor="end">words</text>"#,
        gx - 4
    );
    for (b, ws) in words.iter().enumerate() {
        if !ws.is_empty() {
            let class = if ws.len() == busiest && busiest > 1 {
                "tick busiest"
            } else {
                "tick"
            };
            let _ = write!(
                o,
                r#"<text class="{class}" x="{}" y="{cy}" text-anchor="middle">{}</text>"#,
                gx + b as i64 * cell + cell / 2,
                ws.len()
            );
        }
    }
    o.push_str("</g>\n");
}

const STYLE: &str = r##"<defs>
<marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#1f6feb"/></marker>
<marker id="head-green" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#1a7f37"/></marker>
<marker id="head-red" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#cf222e"/></marker>
</defs>
<style>
.title { font-size: 14px; font-weight: bold; fill: #1f2328; }
.sub { fill: #57606a; }
.h1 { font-weight: bold; fill: #1f2328; }
.h2 { fill: #57606a; font-size: 10px; }
.warp { font-weight: bold; fill: #1f2328; }
.lane { fill: #57606a; font-size: 10px; }
.lane-on { stroke: #8c959f; stroke-width: 1; }
.lane-off { stroke: #d0d7de; stroke-width: 1; stroke-dasharray: 3 3; }
.arrow { stroke: #1f6feb; stroke-width: 1.4; }
.arrow.shared { stroke: #1a7f37; }
.arrow.undefined { stroke: #cf222e; stroke-dasharray: 4 2; }
.val { fill: #1f2328; }
.val.own { fill: #8c959f; font-style: italic; }
.val.undefined { fill: #cf222e; }
.own { fill: none; stroke: #8c959f; stroke-width: 1.5; }
.barrier { fill: #444c56; }
.taken { fill: #bc4c00; }
.fallthrough { fill: none; stroke: #bc4c00; stroke-width: 1.5; }
.merge { fill: #8250df; }
.grid { fill: #f6f8fa; stroke: #d0d7de; stroke-width: 0.5; }
.tick { fill: #57606a; font-size: 9px; }
.tick.busiest { fill: #cf222e; font-weight: bold; }
.tag { fill: #57606a; font-size: 9px; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; }
.combine rect { fill: #fff8c5; fill-opacity: 0.9; stroke: #d4a72c; stroke-width: 1; }
.combine text { fill: #7d4e00; font-weight: bold; }
.legend .combine { fill: #fff8c5; stroke: #d4a72c; }
</style>
"##;
