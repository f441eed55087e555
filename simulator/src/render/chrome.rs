//! The run as a Chrome trace-event file (the JSON that Perfetto and `chrome://tracing` open): one process per
//! block, and per warp a group of tracks:
//!
//! - `warp N`: its instructions, a slice from issue to completion each. Instructions overlap (the warp issues
//!   again before a long-latency result is back), and a track holds slices that do not, so an instruction that
//!   starts while the track is still busy goes to the warp's next track, `warp N (in flight 2)`, and so on:
//!   the number of tracks a warp needs is how many of its instructions were in flight at once;
//! - `warp N stalls`: why the warp did not issue, a slice per wait (`operands`, `barrier`, `not_selected`, …),
//!   and instant events for barrier arrivals and releases, branches that split the warp and its exit.
//!
//! Time: one cycle is one microsecond on the timeline (the format counts in µs).
//! Slices carry the pc, the source line, the instruction and the active lanes in `args`.

use super::hex_mask;
use crate::kernel::Kernel;
use crate::trace::Event;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Track ids within a block's process: warp `w` owns `w * STRIDE ..`; `+ 0` is its stall track.
const STRIDE: u64 = 1000;

/// One slice per wait on a warp's stall track.
fn stall_slices(out: &mut Vec<Value>, pid: u32, tid: u64, waits: &[crate::trace::Wait], args: &Value) {
    for wait in waits {
        out.push(json!({
            "ph": "X", "cat": "stall", "name": wait.reason.name(),
            "pid": pid, "tid": tid, "ts": wait.from, "dur": wait.to - wait.from, "args": args,
        }));
    }
}

/// The Chrome trace-event JSON of a run (one document; events in a fixed order).
pub fn chrome_trace(kernel: &Kernel, events: &[Event]) -> String {
    let w = kernel.warp_size;
    let mut out: Vec<Value> = Vec::new();
    // Per (block, warp): when each of its in-flight tracks is free again.
    let mut tracks: BTreeMap<(u32, u32), Vec<u64>> = BTreeMap::new();
    let stall_track = |warp: u32| u64::from(warp) * STRIDE;
    for e in events {
        match e {
            Event::BlockLaunch {
                cycle,
                block,
                warps,
                sm,
            } => {
                out.push(json!({"ph": "M", "name": "process_name", "pid": block, "args": {"name": format!("block {block} (SM {sm})")}}));
                out.push(json!({"ph": "M", "name": "process_sort_index", "pid": block, "args": {"sort_index": block}}));
                for warp in 0..*warps {
                    let tid = stall_track(warp);
                    out.push(json!({"ph": "M", "name": "thread_name", "pid": block, "tid": tid + 1, "args": {"name": format!("warp {warp}")}}));
                    out.push(json!({"ph": "M", "name": "thread_sort_index", "pid": block, "tid": tid + 1, "args": {"sort_index": tid + 1}}));
                    out.push(json!({"ph": "M", "name": "thread_name", "pid": block, "tid": tid, "args": {"name": format!("warp {warp} stalls")}}));
                    out.push(json!({"ph": "M", "name": "thread_sort_index", "pid": block, "tid": tid, "args": {"sort_index": tid + STRIDE - 1}}));
                }
                out.push(json!({"ph": "i", "s": "p", "name": "block launched", "pid": block, "tid": 0, "ts": cycle, "args": {"warps": warps}}));
            }
            Event::Issue(i) => {
                stall_slices(
                    &mut out,
                    i.block,
                    stall_track(i.warp),
                    &i.waits,
                    &json!({"before_pc": i.pc}),
                );
                let free = tracks.entry((i.block, i.warp)).or_default();
                let end = i.complete.max(i.cycle + 1);
                let k = match free.iter().position(|&f| f <= i.cycle) {
                    Some(k) => k,
                    None => {
                        free.push(0);
                        let k = free.len() - 1;
                        if k > 0 {
                            let tid = stall_track(i.warp) + 1 + k as u64;
                            out.push(json!({"ph": "M", "name": "thread_name", "pid": i.block, "tid": tid, "args": {"name": format!("warp {} (in flight {})", i.warp, k + 1)}}));
                            out.push(json!({"ph": "M", "name": "thread_sort_index", "pid": i.block, "tid": tid, "args": {"sort_index": tid}}));
                        }
                        k
                    }
                };
                free[k] = end;
                let inst = &kernel.program.instructions[i.pc as usize];
                let mnemonic = inst.text.split_whitespace().find(|t| !t.starts_with('@')).unwrap_or("");
                out.push(json!({
                    "ph": "X", "cat": "instruction", "name": mnemonic,
                    "pid": i.block, "tid": stall_track(i.warp) + 1 + k as u64,
                    "ts": i.cycle, "dur": end - i.cycle,
                    "args": {
                        "pc": i.pc,
                        "instruction": inst.text,
                        "source": kernel.program.sources.location(inst.span).to_string(),
                        "issue": i.cycle,
                        "complete": i.complete,
                        "scheduler": i.scheduler,
                        "active": hex_mask(w, i.active),
                        "exec": hex_mask(w, i.exec),
                    },
                }));
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
                ..
            } => {
                out.push(json!({
                    "ph": "i", "s": "t", "cat": "control", "name": "diverge",
                    "pid": block, "tid": stall_track(*warp), "ts": cycle,
                    "args": {"pc": pc, "taken": hex_mask(w, *taken), "fallthrough": hex_mask(w, *fallthrough), "target": target, "reconverge": reconverge},
                }));
            }
            Event::Reconverge {
                cycle,
                block,
                warp,
                pc,
                mask,
            } => {
                out.push(json!({
                    "ph": "i", "s": "t", "cat": "control", "name": "reconverge",
                    "pid": block, "tid": stall_track(*warp), "ts": cycle,
                    "args": {"pc": pc, "lanes": hex_mask(w, *mask)},
                }));
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
                out.push(json!({
                    "ph": "i", "s": "t", "cat": "barrier", "name": format!("arrive bar {id}"),
                    "pid": block, "tid": stall_track(*warp), "ts": cycle,
                    "args": {"pc": pc, "arrived": arrived, "expected": expected},
                }));
            }
            Event::BarrierRelease {
                cycle,
                block,
                id,
                warps,
                resume,
                ..
            } => {
                out.push(json!({
                    "ph": "i", "s": "p", "cat": "barrier", "name": format!("release bar {id}"),
                    "pid": block, "tid": 0, "ts": cycle,
                    "args": {"warps": warps, "resume": resume},
                }));
            }
            Event::AtomicReturn {
                cycle,
                block,
                warp,
                pc,
                reg,
                ..
            } => {
                out.push(json!({
                    "ph": "i", "s": "t", "cat": "memory", "name": "atomic returns",
                    "pid": block, "tid": stall_track(*warp), "ts": cycle,
                    "args": {"pc": pc, "register": format!("%{}", kernel.program.reg_name(warpsim_isa::Reg(*reg)))},
                }));
            }
            Event::WarpExit {
                cycle,
                block,
                warp,
                waits,
            } => {
                stall_slices(&mut out, *block, stall_track(*warp), waits, &json!({"before": "exit"}));
                out.push(json!({
                    "ph": "i", "s": "t", "cat": "control", "name": "exit",
                    "pid": block, "tid": stall_track(*warp), "ts": cycle,
                }));
            }
        }
    }
    // One event per line: readable, and diffs well.
    let other = json!({
        "program": kernel.program.name,
        "warp_size": w,
        "grid": kernel.grid,
        "block": kernel.block,
        "time_unit": "1 us on the timeline = 1 cycle",
    });
    let mut text = format!("{{\"otherData\":{other},\"traceEvents\":[\n");
    for (k, e) in out.iter().enumerate() {
        text.push_str(&e.to_string());
        text.push_str(if k + 1 < out.len() { ",\n" } else { "\n" });
    }
    text.push_str("]}\n");
    text
}
