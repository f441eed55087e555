//! The interactive trace stepper: one self-contained HTML file (`stepper.html`, with the run's trace put inside
//! as JSON). No network access: no external script, style, font or image, and a Content-Security-Policy that
//! forbids fetching anything.
//!
//! The page steps through the trace one event at a time, forward and back (buttons, a slider, the arrow keys,
//! Home and End), and shows the program listing with the current instruction highlighted, every lane's
//! registers and predicates in the current warp, the current exchange (shuffle arrows, or a shared-memory
//! access's bank map), the cycle, and every warp's state at that cycle: issuing, the reason it is stalled,
//! waiting at a barrier, not launched yet, or exited.
//!
//! The events are the records of the trace's one schema (`json::event`, as `--format json` and `--trace-file`
//! write them); the page reads them into its own form and formats values as the text trace does (an f32 as the
//! shortest decimal that reads back as it), so it shows what `--trace` prints.

use crate::kernel::Kernel;
use crate::profile::LineCycles;
use crate::trace::Event;
use serde_json::{Map, Value, json};

const TEMPLATE: &str = include_str!("stepper.html");
const DATA_SLOT: &str = "/*WARPSIM_DATA*/null";

/// Events a page holds at most (about 400 bytes each at W=32): a page a browser opens quickly. The rest are
/// counted as dropped, and the page says so.
pub const MAX_EVENTS: usize = 50_000;

/// The page for a run's events. `outcome` is the run's cycles, or the fault's message; `dropped`, events the
/// trace already left out; `banks`, the shared-memory banks (for the bank maps); `lines`, the run's cycles per
/// instruction (`RunOptions::profile`; empty: none shown), beside each instruction of the listing.
pub fn stepper(
    kernel: &Kernel,
    events: &[Event],
    outcome: Result<u64, String>,
    dropped: u64,
    banks: u32,
    lines: &[LineCycles],
) -> String {
    let kept = &events[..events.len().min(MAX_EVENTS)];
    let dropped = dropped + (events.len() - kept.len()) as u64;
    let data = data(kernel, kept, outcome, dropped, banks, lines);
    // Inside <script>, no `<` at all: neither `</script>` nor `<!--` can end or change the element.
    let text = data.to_string().replace('<', "\\u003c");
    TEMPLATE.replacen(DATA_SLOT, &text, 1)
}

/// An instruction's cycles as the listing shows them: the total, and what it is made of (a tooltip).
fn cost(l: &LineCycles, kernel: &Kernel) -> (u64, String) {
    let mut parts: Vec<String> = [
        ("issued", l.issued),
        ("operands", l.operands),
        ("bank conflict", l.bank_conflict),
        ("unit busy", l.unit_busy),
        ("control", l.control),
        ("barrier", l.barrier),
        ("not selected", l.not_selected),
    ]
    .iter()
    .filter(|p| p.1 > 0)
    .map(|(n, v)| format!("{n} {v}"))
    .collect();
    for &(pc, c) in l.waited_on.iter().take(3) {
        let text = kernel
            .program
            .instructions
            .get(pc as usize)
            .map_or("", |i| i.text.trim());
        parts.push(format!("waited {c} for pc {pc} ({text})"));
    }
    (
        l.total(),
        format!("cycles every warp spent at this instruction: {}", parts.join(" · ")),
    )
}

fn data(
    kernel: &Kernel,
    events: &[Event],
    outcome: Result<u64, String>,
    dropped: u64,
    banks: u32,
    lines: &[LineCycles],
) -> Value {
    let w = kernel.warp_size;
    let p = &kernel.program;
    let listing: Vec<Value> = p
        .instructions
        .iter()
        .enumerate()
        .map(|(pc, i)| {
            let loc = p.sources.location(i.span);
            // The file's name beside the line (the whole path in the tooltip), so the column stays narrow.
            let file = std::path::Path::new(loc.file)
                .file_name()
                .map_or_else(|| loc.file.to_string(), |f| f.to_string_lossy().into_owned());
            // A PTX instruction: its CUDA or Python line too.
            let (short, path) = match (&i.origin, super::json::origin_line(kernel, i)) {
                (Some(o), Some(line)) => (
                    format!("{file}:{} · {}", loc.line, o.short()),
                    format!("{}:{} ← {line}", loc.file, loc.line),
                ),
                _ => (format!("{file}:{}", loc.line), format!("{}:{}", loc.file, loc.line)),
            };
            match lines.get(pc).filter(|l| l.total() > 0) {
                Some(l) => {
                    let (total, why) = cost(l, kernel);
                    json!({"pc": pc, "text": i.text, "loc": short, "path": path, "cost": total, "why": why})
                }
                None => json!({"pc": pc, "text": i.text, "loc": short, "path": path}),
            }
        })
        .collect();
    let regs: Vec<String> = p.regs.iter().map(|r| format!("%{}", r.name)).collect();
    let preds: Vec<String> = p.preds.iter().map(|r| format!("%{}", r.name)).collect();
    // The events as the trace's one schema gives them (`json::event`), and beside them what the page adds: the
    // exchange step each event completes, if any.
    let evs: Vec<Value> = events.iter().map(|e| super::json::event(kernel, e)).collect();
    let steps: Vec<Value> = super::exchanges(events)
        .into_iter()
        .map(|x| x.map_or(Value::Null, |x| json!(x.step)))
        .collect();
    let reg_types: Vec<&str> = kernel.reg_types.iter().map(|t| t.name()).collect();
    let mut m = Map::new();
    m.insert("program".into(), json!(p.name));
    m.insert("w".into(), json!(w));
    m.insert("banks".into(), json!(banks));
    m.insert("grid".into(), json!(kernel.grid));
    m.insert("block".into(), json!(kernel.block));
    m.insert("grid_shape".into(), super::json::shape(kernel.grid_dim));
    m.insert("block_shape".into(), super::json::shape(kernel.block_dim));
    match outcome {
        Ok(c) => m.insert("cycles".into(), json!(c)),
        Err(f) => m.insert("fault".into(), json!(f)),
    };
    m.insert("dropped".into(), json!(dropped));
    m.insert("listing".into(), Value::Array(listing));
    m.insert("regs".into(), json!(regs));
    m.insert("preds".into(), json!(preds));
    m.insert(
        "shared".into(),
        Value::Array(
            kernel
                .shared
                .iter()
                .map(|s| json!({"name": s.name, "offset": s.offset, "len": s.len, "ty": s.elem.ty().name()}))
                .collect(),
        ),
    );
    m.insert(
        "buffers".into(),
        json!(kernel.buffers.iter().map(|b| b.name.clone()).collect::<Vec<_>>()),
    );
    m.insert("reg_types".into(), json!(reg_types));
    m.insert("events".into(), Value::Array(evs));
    m.insert("exchange_steps".into(), Value::Array(steps));
    Value::Object(m)
}
