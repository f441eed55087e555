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
//! Values are formatted here, as the text trace formats them, so the page shows exactly what `--trace` prints.

use super::{lane_mask, value};
use crate::kernel::Kernel;
use crate::trace::Event;
use serde_json::{Map, Value, json};
use warpsim_isa::ElemTy;

const TEMPLATE: &str = include_str!("stepper.html");
const DATA_SLOT: &str = "/*WARPSIM_DATA*/null";

/// Events a page holds at most (about 200 bytes each at W=32): a page a browser opens quickly. The rest are
/// counted as dropped, and the page says so.
pub const MAX_EVENTS: usize = 50_000;

/// The page for a run's events. `outcome` is the run's cycles, or the fault's message; `dropped`, events the
/// trace already left out; `banks`, the shared-memory banks (for the bank maps).
pub fn stepper(kernel: &Kernel, events: &[Event], outcome: Result<u64, String>, dropped: u64, banks: u32) -> String {
    let kept = &events[..events.len().min(MAX_EVENTS)];
    let dropped = dropped + (events.len() - kept.len()) as u64;
    let data = data(kernel, kept, outcome, dropped, banks);
    // Inside <script>, no `<` at all: neither `</script>` nor `<!--` can end or change the element.
    let text = data.to_string().replace('<', "\\u003c");
    TEMPLATE.replacen(DATA_SLOT, &text, 1)
}

fn mask_bits(w: u32, mask: u64) -> String {
    (0..w).map(|l| if mask >> l & 1 == 1 { '1' } else { '0' }).collect()
}

fn data(kernel: &Kernel, events: &[Event], outcome: Result<u64, String>, dropped: u64, banks: u32) -> Value {
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
            json!({"pc": pc, "text": i.text, "loc": format!("{file}:{}", loc.line), "path": format!("{}:{}", loc.file, loc.line)})
        })
        .collect();
    let regs: Vec<String> = p.regs.iter().map(|r| format!("%{}", r.name)).collect();
    let preds: Vec<String> = p.preds.iter().map(|r| format!("%{}", r.name)).collect();
    let evs: Vec<Value> = events
        .iter()
        .zip(super::exchanges(events))
        .map(|(e, x)| {
            let mut v = event(kernel, w, e);
            if let Some(x) = x {
                v["x"] = json!(x.step);
            }
            v
        })
        .collect();
    let mut m = Map::new();
    m.insert("program".into(), json!(p.name));
    m.insert("w".into(), json!(w));
    m.insert("banks".into(), json!(banks));
    m.insert("grid".into(), json!(kernel.grid));
    m.insert("block".into(), json!(kernel.block));
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
                .map(|s| json!({"name": s.name, "offset": s.offset, "len": s.len, "ty": elem_name(s.elem)}))
                .collect(),
        ),
    );
    m.insert(
        "buffers".into(),
        json!(kernel.buffers.iter().map(|b| b.name.clone()).collect::<Vec<_>>()),
    );
    m.insert("events".into(), Value::Array(evs));
    Value::Object(m)
}

fn elem_ty(e: ElemTy) -> warpsim_isa::Ty {
    match e {
        ElemTy::F32 => warpsim_isa::Ty::F32,
        ElemTy::S32 => warpsim_isa::Ty::S32,
        ElemTy::U32 => warpsim_isa::Ty::U32,
    }
}

fn elem_name(e: ElemTy) -> &'static str {
    match e {
        ElemTy::F32 => "f32",
        ElemTy::S32 => "s32",
        ElemTy::U32 => "u32",
    }
}

fn waits_json(waits: &[crate::trace::Wait]) -> Value {
    Value::Array(waits.iter().map(|x| json!([x.reason.name(), x.from, x.to])).collect())
}

fn event(kernel: &Kernel, w: u32, e: &Event) -> Value {
    match e {
        Event::BlockLaunch {
            cycle,
            block,
            warps,
            sm,
        } => {
            json!({"k": "launch", "c": cycle, "b": block, "n": warps, "sm": sm})
        }
        Event::WarpExit {
            cycle,
            block,
            warp,
            waits,
        } => {
            let mut v = json!({"k": "exit", "c": cycle, "b": block, "w": warp});
            if !waits.is_empty() {
                v["waits"] = waits_json(waits);
            }
            v
        }
        Event::Diverge {
            cycle,
            block,
            warp,
            pc,
            taken,
            fallthrough,
            target,
            reconverge,
        } => json!({
            "k": "diverge", "c": cycle, "b": block, "w": warp, "pc": pc,
            "taken": mask_bits(w, *taken), "ft": mask_bits(w, *fallthrough), "target": target, "reconv": reconverge,
        }),
        Event::Reconverge {
            cycle,
            block,
            warp,
            pc,
            mask,
        } => json!({"k": "reconverge", "c": cycle, "b": block, "w": warp, "pc": pc, "mask": mask_bits(w, *mask)}),
        Event::BarrierArrive {
            cycle,
            block,
            warp,
            pc,
            id,
            arrived,
            expected,
        } => json!({
            "k": "arrive", "c": cycle, "b": block, "w": warp, "pc": pc, "id": id, "arrived": arrived, "expected": expected,
        }),
        Event::BarrierRelease {
            cycle,
            block,
            id,
            warps,
            resume,
            ..
        } => json!({"k": "release", "c": cycle, "b": block, "id": id, "warps": warps, "resume": resume}),
        Event::AtomicReturn {
            cycle,
            block,
            warp,
            pc,
            reg,
            lanes,
            values,
        } => {
            let ty = kernel.reg_types[*reg as usize];
            let v: Vec<Value> = (0..w as usize)
                .map(|l| {
                    if lanes >> l & 1 == 1 {
                        json!(value(ty, values[l]))
                    } else {
                        Value::Null
                    }
                })
                .collect();
            json!({"k": "return", "c": cycle, "b": block, "w": warp, "pc": pc, "r": reg, "v": v})
        }
        Event::Issue(i) => {
            let mut m = Map::new();
            m.insert("k".into(), json!("issue"));
            m.insert("c".into(), json!(i.cycle));
            m.insert("done".into(), json!(i.complete));
            m.insert("b".into(), json!(i.block));
            m.insert("w".into(), json!(i.warp));
            m.insert("pc".into(), json!(i.pc));
            m.insert("s".into(), json!(i.scheduler));
            m.insert("lanes".into(), json!(lane_mask(w, i.active, i.exec)));
            let cells = |ty, vals: &[u32]| -> Value {
                Value::Array(
                    (0..w as usize)
                        .map(|l| {
                            if i.exec >> l & 1 == 1 {
                                json!(value(ty, vals[l]))
                            } else {
                                Value::Null
                            }
                        })
                        .collect(),
                )
            };
            if let Some((r, vals)) = &i.write {
                m.insert("r".into(), json!(r));
                m.insert("v".into(), cells(kernel.reg_types[*r as usize], vals));
            }
            if let Some((p, mask)) = &i.pred_write {
                m.insert("p".into(), json!(p));
                m.insert("pv".into(), json!(mask_bits(w, *mask)));
            }
            if let Some(s) = &i.shuffle {
                let ty = match kernel.described[i.pc as usize].role {
                    crate::kernel::Role::Shuffle { sent: Some(r), .. } => kernel.reg_types[r as usize],
                    _ => warpsim_isa::Ty::U32,
                };
                let sent: Vec<String> = (0..w as usize).map(|l| value(ty, i.operands[0][l])).collect();
                m.insert(
                    "sh".into(),
                    json!({
                        "src": s.sources, "ok": mask_bits(w, s.in_range), "ud": mask_bits(w, s.undefined), "sent": sent,
                        "label": super::shuffle_label(kernel, i),
                    }),
                );
            }
            if let Some(mem) = &i.memory {
                let name = if mem.shared {
                    &kernel.shared[mem.buffer as usize].name
                } else {
                    &kernel.buffers[mem.buffer as usize].name
                };
                let op = if mem.atomic {
                    "atomic"
                } else if mem.store {
                    "store"
                } else {
                    "load"
                };
                let idx: Vec<Value> = (0..w as usize)
                    .map(|l| {
                        if i.exec >> l & 1 == 1 {
                            json!(mem.index[l])
                        } else {
                            Value::Null
                        }
                    })
                    .collect();
                let mut o =
                    json!({"space": if mem.shared { "shared" } else { "global" }, "buf": name, "op": op, "idx": idx});
                if mem.shared {
                    o["bank"] = json!(mem.banks);
                    o["deg"] = json!(mem.degree);
                    if !mem.after.is_empty() {
                        let ty = elem_ty(kernel.shared[mem.buffer as usize].elem);
                        o["after"] = cells(ty, &mem.after);
                    }
                }
                m.insert("mem".into(), o);
            }
            if !i.waits.is_empty() {
                m.insert("waits".into(), waits_json(&i.waits));
            }
            Value::Object(m)
        }
    }
}
