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
//! Inactive lanes (split off by a branch, or exited) are drawn dashed. A last column shows the register the
//! last exchange sent, as the run left it.
//!
//! **Bank maps**: for a shared-memory access, a lanes × banks grid: a cell for each lane in the bank it hit (lanes
//! on one word share a colour: a broadcast), the number of distinct words under each bank, and the busiest
//! bank, whose count is the access's conflict degree.
//!
//! The output is a pure function of the kernel and the events: integer coordinates, no time stamps, no
//! randomness.

use super::{shuffle_label, value};
use crate::kernel::{DOp, Kernel, Src};
use crate::trace::{Event, Issue};
use std::collections::BTreeMap;
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

pub const DEFAULT_WARPS: usize = 4;
pub const DEFAULT_STEPS: usize = 64;
/// Bank maps drawn at most (one per shared-memory instruction, its worst execution).
pub const MAX_BANK_MAPS: usize = 8;

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

enum Kind {
    /// A shuffle or a shared-memory load that moved data: step number.
    Exchange(usize),
    Barrier,
    Branch,
    Merge,
    Final,
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
        None => (0..wpb.min(DEFAULT_WARPS as u32)).collect(),
    };
    // Lanes that exist in each warp (the last warp of a block may be partial).
    let lanes_of = |warp: u32| -> u64 {
        let n = kernel.block.saturating_sub(warp * w).min(w);
        if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
    };
    let row_of = |warp: u32| warps.iter().position(|&x| x == warp);
    let reg = |r: u16| format!("%{}", kernel.program.reg_name(warpsim_isa::Reg(r)));
    let ty_of = |r: u16| kernel.reg_types[r as usize];

    // Walk the trace once: the columns, and the shared-memory accesses for the bank maps.
    let mut active: Vec<u64> = warps.iter().map(|&x| lanes_of(x)).collect();
    let mut columns: Vec<Column> = Vec::new();
    let mut shared_accesses: Vec<&Issue> = Vec::new();
    // Per drawn warp: the register the last exchange sent, and its latest values.
    let mut last_sent: Vec<Option<u16>> = vec![None; warps.len()];
    let mut latest: BTreeMap<(usize, u16), (Vec<u32>, u64)> = BTreeMap::new();
    // Exchange steps are numbered over the whole run (as the stepper numbers them).
    let exchanges = super::exchanges(events);
    let total_steps = exchanges.iter().flatten().map(|x| x.step).max().unwrap_or(0) as usize;
    // Exchanges so far, at each event.
    let mut seen = 0usize;
    let new_column = |kind: Kind, header: [String; 3], title: String, active: &[u64], ctx: usize| Column {
        ctx,
        kind,
        header,
        title,
        arrows: Vec::new(),
        sent: Vec::new(),
        received: Vec::new(),
        marks: Vec::new(),
        active: active.to_vec(),
    };
    for (e, exchange) in events.iter().zip(&exchanges) {
        let step = exchange.as_ref().map_or(0, |x| x.step as usize);
        seen = seen.max(step);
        match e {
            Event::Issue(i) if i.block == block => {
                if let (Some(m), Some(x)) = (&i.memory, exchange)
                    && m.shared
                {
                    // A load that reads other lanes' stores: from the drawn ones, arrows.
                    if row_of(i.warp).is_some() {
                        let mut col = None::<Column>;
                        for &(lane, sw, sl) in &x.from {
                            if row_of(sw).is_none() {
                                continue;
                            }
                            let c = col.get_or_insert_with(|| {
                                let text = &kernel.program.instructions[i.pc as usize].text;
                                new_column(
                                    Kind::Exchange(step),
                                    [
                                        format!("step {step}"),
                                        format!("ld.shared {}", kernel.shared[m.buffer as usize].name),
                                        format!("cycle {}", i.cycle),
                                    ],
                                    format!("pc {}: {text} (warp {})", i.pc, i.warp),
                                    &active,
                                    step,
                                )
                            });
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
                        if let Some(c) = col {
                            columns.push(c);
                        }
                    }
                }
                if i.memory.as_ref().is_some_and(|m| m.shared) && row_of(i.warp).is_some() {
                    shared_accesses.push(i);
                }
                let Some(row) = row_of(i.warp) else { continue };
                active[row] = i.active;
                if let (Some(s), DOp::Shfl { a, .. }) = (&i.shuffle, kernel.code[i.pc as usize].op) {
                    let text = &kernel.program.instructions[i.pc as usize].text;
                    let mut c = new_column(
                        Kind::Exchange(step),
                        [
                            format!("step {step}"),
                            format!("shfl.{}", shuffle_label(kernel, i)),
                            format!("cycle {}", i.cycle),
                        ],
                        format!("pc {}: {text} (warp {})", i.pc, i.warp),
                        &active,
                        step,
                    );
                    let ty = match a {
                        Src::Reg(r) => ty_of(r),
                        _ => warpsim_isa::Ty::U32,
                    };
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
                        if lanes_of(i.warp) >> src & 1 == 0 {
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
                    if let Src::Reg(r) = a {
                        last_sent[row] = Some(r);
                        latest.insert((row, r), (i.operands[0].clone(), i.active));
                    }
                    columns.push(c);
                }
                if let Some((r, vals)) = &i.write {
                    let entry = latest.entry((row, *r)).or_insert_with(|| (vals.clone(), 0));
                    for (lane, (dst, &v)) in entry.0.iter_mut().zip(vals).enumerate() {
                        if i.exec >> lane & 1 == 1 {
                            *dst = v;
                        }
                    }
                    entry.1 |= i.exec;
                }
            }
            Event::Diverge {
                block: b,
                warp,
                pc,
                taken,
                fallthrough,
                target,
                reconverge,
                cycle,
            } if *b == block => {
                if row_of(*warp).is_none() {
                    continue;
                }
                let mut c = new_column(
                    Kind::Branch,
                    ["branch".into(), format!("w{warp} pc {pc}"), format!("cycle {cycle}")],
                    format!(
                        "warp {warp} splits at pc {pc}: ▶ lanes take the branch to pc {target}, ○ lanes fall through; they meet again at pc {reconverge}"
                    ),
                    &active,
                    seen,
                );
                for lane in 0..w {
                    if taken >> lane & 1 == 1 {
                        c.marks.push((*warp, lane, "taken"));
                    } else if fallthrough >> lane & 1 == 1 {
                        c.marks.push((*warp, lane, "fallthrough"));
                    }
                }
                columns.push(c);
            }
            Event::Reconverge {
                block: b,
                warp,
                pc,
                mask,
                cycle,
            } if *b == block => {
                let Some(row) = row_of(*warp) else { continue };
                active[row] = *mask;
                let mut c = new_column(
                    Kind::Merge,
                    ["merge".into(), format!("w{warp} pc {pc}"), format!("cycle {cycle}")],
                    format!("warp {warp}'s split lanes run together again at pc {pc}"),
                    &active,
                    seen,
                );
                for lane in 0..w {
                    if mask >> lane & 1 == 1 {
                        c.marks.push((*warp, lane, "merge"));
                    }
                }
                columns.push(c);
            }
            Event::BarrierRelease {
                block: b,
                id,
                warps: released,
                cycle,
                ..
            } if *b == block => {
                columns.push(new_column(
                    Kind::Barrier,
                    ["barrier".into(), format!("bar {id}"), format!("cycle {cycle}")],
                    format!("barrier {id} releases warps {released:?} at cycle {cycle}"),
                    &active,
                    seen,
                ));
            }
            Event::WarpExit { block: b, warp, .. } if *b == block => {
                if let Some(row) = row_of(*warp) {
                    active[row] = 0;
                }
            }
            _ => {}
        }
    }
    // The chosen steps, with the barriers, branches and merges between them.
    let (first, last) = match opts.steps {
        Some((first, last)) if first == 0 || first > last || first > total_steps => {
            return Err(format!(
                "--steps {first}-{last}: the run has {total_steps} exchange step(s), numbered from 1"
            ));
        }
        Some(range) => range,
        None => (1, DEFAULT_STEPS),
    };
    let last = last.min(total_steps);
    columns.retain(|c| match c.kind {
        Kind::Exchange(s) => (first..=last).contains(&s),
        _ => first - 1 <= c.ctx && c.ctx <= last,
    });
    let drawn_steps = columns.iter().filter(|c| matches!(c.kind, Kind::Exchange(_))).count();
    // The last column: the register each warp's last exchange sent, as the run left it.
    let mut fin = new_column(
        Kind::Final,
        ["end".into(), String::new(), String::new()],
        "the register each warp's last exchange sent, at the end of the trace".into(),
        &active,
        seen,
    );
    let mut fin_regs = Vec::new();
    for (row, &warp) in warps.iter().enumerate() {
        if let Some(r) = last_sent[row]
            && let Some((vals, seen)) = latest.get(&(row, r))
        {
            if !fin_regs.contains(&reg(r)) {
                fin_regs.push(reg(r));
            }
            for lane in 0..w {
                if seen >> lane & 1 == 1 {
                    fin.received.push(Label {
                        warp,
                        lane,
                        text: value(ty_of(r), vals[lane as usize]),
                        class: "val",
                    });
                }
            }
        }
    }
    fin.header[1] = fin_regs.join(" ");
    let all_steps_shown = first == 1 && last == total_steps;
    if all_steps_shown && drawn_steps > 0 && !fin.received.is_empty() {
        columns.push(fin);
    }

    // Layout.
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
    let arrow_w = 70i64;
    let left = 84i64;
    let top = 104i64;
    let gap = 14i64;
    let warp_gap = 18i64;
    let y_of = |warp: u32, lane: u32| -> i64 {
        let r = row_of(warp).unwrap_or(0) as i64;
        top + r * (w as i64 * row_h + warp_gap) + lane as i64 * row_h + row_h / 2
    };
    let diagram_bottom = top + warps.len() as i64 * (w as i64 * row_h + warp_gap) - warp_gap;
    let mut xs = Vec::with_capacity(columns.len());
    let mut x = left + 8;
    for c in &columns {
        let width = match c.kind {
            Kind::Exchange(_) => vw + arrow_w + vw,
            Kind::Barrier => 24,
            Kind::Branch | Kind::Merge => 64,
            Kind::Final => vw + 20,
        };
        xs.push((x, width));
        x += width + gap;
    }
    let diagram_right = x + 8;

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
    let banks = opts.banks.max(1) as i64;
    let cell = if w <= 16 { 12i64 } else { 9i64 };
    let map_w = 56 + banks * cell + 10;
    let map_h = 58 + w as i64 * cell + 28;
    let per_row = ((diagram_right.max(700) - 20) / (map_w + 20)).max(1);
    let legend_y = diagram_bottom + 40;
    let maps_y = legend_y + 60;
    let map_rows = (maps.len() as i64 + per_row - 1) / per_row;
    let height = if maps.is_empty() {
        legend_y + 40
    } else {
        maps_y + 24 + map_rows * (map_h + 20)
    };
    let width = diagram_right
        .max(per_row.min(maps.len().max(1) as i64) * (map_w + 20) + 20)
        .max(840);

    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="11">"#
    );
    o.push_str(STYLE);
    let title = format!(
        "{}: W={w}, block {block}, warp{} {}",
        kernel.program.name,
        if warps.len() == 1 { "" } else { "s" },
        list(&warps)
    );
    let _ = writeln!(o, r#"<title>{}</title>"#, esc(&title));
    let _ = writeln!(o, r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##);
    let _ = writeln!(o, r#"<text class="title" x="12" y="22">{}</text>"#, esc(&title));
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
    let _ = writeln!(o, r#"<text class="sub" x="12" y="40">{}</text>"#, esc(&subtitle));

    // Column headers.
    for (c, &(cx, cw)) in columns.iter().zip(&xs) {
        let mid = cx + cw / 2;
        let _ = write!(o, r#"<g class="header"><title>{}</title>"#, esc(&c.title));
        for (k, line) in c.header.iter().enumerate() {
            if !line.is_empty() {
                let class = if k == 0 { "h1" } else { "h2" };
                let _ = write!(
                    o,
                    r#"<text class="{class}" x="{mid}" y="{}" text-anchor="middle">{}</text>"#,
                    58 + 13 * k as i64,
                    esc(line)
                );
            }
        }
        o.push_str("</g>\n");
    }

    // Lane lines: solid while the lane is active, dashed while it is not, merged along the run; up to the last
    // column (the values of the `end` column stand on their own).
    let lines_end = match (columns.last(), xs.last()) {
        (Some(c), Some(&(x, _))) if matches!(c.kind, Kind::Final) => x - 4,
        (_, Some(&(x, w))) => x + w,
        _ => left,
    };
    for (row, &warp) in warps.iter().enumerate() {
        let exists = lanes_of(warp);
        let wy = y_of(warp, 0) - row_h / 2;
        let _ = writeln!(o, r#"<text class="warp" x="12" y="{}">warp {warp}</text>"#, wy - 3);
        for lane in 0..w {
            if exists >> lane & 1 == 0 {
                continue;
            }
            let y = y_of(warp, lane);
            let _ = writeln!(
                o,
                r#"<text class="lane" x="{}" y="{}" text-anchor="end">lane {lane}</text>"#,
                left - 4,
                y + 4
            );
            let mut seg_start = left;
            let mut seg_active = columns.first().map(|c| c.active[row] >> lane & 1 == 1).unwrap_or(true);
            for (c, &(cx, _)) in columns.iter().zip(&xs) {
                let a = c.active[row] >> lane & 1 == 1;
                if a != seg_active {
                    line_segment(&mut o, seg_start, cx, y, seg_active);
                    seg_start = cx;
                    seg_active = a;
                }
            }
            line_segment(&mut o, seg_start, lines_end, y, seg_active);
        }
    }

    // Columns.
    for (c, &(cx, cw)) in columns.iter().zip(&xs) {
        match c.kind {
            Kind::Barrier => {
                let y0 = top - 6;
                let _ = writeln!(
                    o,
                    r#"<rect class="barrier" x="{}" y="{y0}" width="8" height="{}"><title>{}</title></rect>"#,
                    cx + cw / 2 - 4,
                    diagram_bottom - y0 + 6,
                    esc(&c.title)
                );
            }
            Kind::Exchange(_) | Kind::Final => {
                let xa = cx + vw;
                let xb = cx + vw + arrow_w;
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
                let rx = if matches!(c.kind, Kind::Final) { cx + 4 } else { xb + 4 };
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
                        (xa + xb) / 2,
                        y_of(warp, lane)
                    );
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
                        }
                        "fallthrough" => {
                            let _ = writeln!(o, r#"<circle class="fallthrough" cx="{mx}" cy="{y}" r="5"/>"#);
                        }
                        _ => {
                            let _ = writeln!(
                                o,
                                r#"<rect class="merge" x="{}" y="{}" width="8" height="8" transform="rotate(45 {mx} {y})"/>"#,
                                mx - 4,
                                y - 4
                            );
                        }
                    }
                }
            }
        }
    }

    // Legend.
    let ly = legend_y;
    let _ = writeln!(
        o,
        r#"<g class="legend"><line class="arrow key" x1="12" y1="{ly}" x2="48" y2="{ly}" marker-end="url(#head)"/><text x="54" y="{}">shuffle: lane reads lane</text>"#,
        ly + 4
    );
    let _ = writeln!(
        o,
        r#"<line class="arrow shared key" x1="230" y1="{ly}" x2="266" y2="{ly}" marker-end="url(#head-green)"/><text x="272" y="{}">through shared memory</text>"#,
        ly + 4
    );
    let _ = writeln!(
        o,
        r#"<line class="arrow undefined key" x1="440" y1="{ly}" x2="476" y2="{ly}" marker-end="url(#head-red)"/><text x="482" y="{}">undefined read</text>"#,
        ly + 4
    );
    let ly2 = ly + 20;
    let _ = writeln!(
        o,
        r#"<circle class="own" cx="18" cy="{ly2}" r="5"/><text x="30" y="{}">source out of range: keeps its own value</text>"#,
        ly2 + 4
    );
    let _ = writeln!(
        o,
        r#"<line class="lane-off" x1="330" y1="{ly2}" x2="366" y2="{ly2}"/><text x="372" y="{}">inactive lane</text>"#,
        ly2 + 4
    );
    let _ = writeln!(
        o,
        r#"<rect class="barrier" x="478" y="{}" width="8" height="14"/><text x="492" y="{}">barrier</text>"#,
        ly2 - 7,
        ly2 + 4
    );
    let _ = writeln!(
        o,
        r#"<path class="taken" d="M 556 {} L 567 {ly2} L 556 {} Z"/><circle class="fallthrough" cx="580" cy="{ly2}" r="5"/><text x="592" y="{}">branch taken / falls through</text></g>"#,
        ly2 - 6,
        ly2 + 6,
        ly2 + 4
    );

    // Bank maps.
    if !maps.is_empty() {
        let _ = writeln!(
            o,
            r#"<text class="title" x="12" y="{}">Shared-memory bank maps (lanes × banks; the busiest bank's word count is the conflict degree)</text>"#,
            maps_y
        );
        for (k, i) in maps.iter().enumerate() {
            let mx = 12 + (k as i64 % per_row) * (map_w + 20);
            let my = maps_y + 16 + (k as i64 / per_row) * (map_h + 20);
            bank_map(&mut o, kernel, i, mx, my, banks as u32, cell);
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

fn line_segment(o: &mut String, x0: i64, x1: i64, y: i64, active: bool) {
    if x1 > x0 {
        let class = if active { "lane-on" } else { "lane-off" };
        let _ = writeln!(o, r#"<line class="{class}" x1="{x0}" y1="{y}" x2="{x1}" y2="{y}"/>"#);
    }
}

fn list(warps: &[u32]) -> String {
    warps.iter().map(|w| w.to_string()).collect::<Vec<_>>().join(", ")
}

/// Fill colours for the distinct words under one bank (a broadcast shares a colour).
const WORD_COLOURS: [&str; 6] = ["#4c8bf5", "#f28b30", "#34a853", "#a142f4", "#e8453c", "#12b5cb"];

/// One bank map: lanes as rows, banks as columns.
pub fn bank_map(o: &mut String, kernel: &Kernel, i: &Issue, x: i64, y: i64, banks: u32, cell: i64) {
    let Some(m) = &i.memory else { return };
    let w = kernel.warp_size;
    let name = &kernel.shared[m.buffer as usize].name;
    let text = &kernel.program.instructions[i.pc as usize].text;
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
        r#"<g class="bankmap"><text class="h1" x="{x}" y="{}">pc {} {}</text>"#,
        y + 12,
        i.pc,
        esc(text)
    );
    let _ = writeln!(
        o,
        r#"<text class="sub" x="{x}" y="{}">block {} warp {}, cycle {}: {} of {name}, conflict degree {}</text>"#,
        y + 26,
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
    );
    for b in (0..banks).step_by(4) {
        let _ = write!(
            o,
            r#"<text class="tick" x="{}" y="{}" text-anchor="middle">{b}</text>"#,
            gx + b as i64 * cell + cell / 2,
            gy - 4
        );
    }
    o.push('\n');
    for lane in 0..w {
        let ly = gy + lane as i64 * cell;
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
            banks as i64 * cell
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
                gx + b as i64 * cell,
                WORD_COLOURS[k % WORD_COLOURS.len()],
                m.index[lane as usize]
            );
        }
        o.push('\n');
    }
    // Words per bank; the busiest bank(s) in red.
    let cy = gy + w as i64 * cell + 14;
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
</style>
"##;
