//! The JSON form of a run: one object with the program, launch shape, cycles, instruction counts, every
//! buffer's final contents (numbers), statistics, and with tracing the event list.
//!
//! f32 values are written as the exact binary64 value of the f32 (so they convert back bit for bit, `-0.0`
//! included); NaNs and infinities, which JSON numbers cannot hold, are written as a string of their bits,
//! `"0x7f800000"` for +inf, `"0x7fc00001"` for a NaN with its payload ([`f32_value`]), so every bit survives.
//! `docs/run.schema.json` describes the whole object. Lane masks are hex strings (`"0xff"`), lane 0 in the
//! lowest bit.

use super::hex_mask;
use crate::fault::Fault;
use crate::kernel::Buffer;
use crate::kernel::Kernel;
use crate::kernel::Role;
use crate::run::RunOutput;
use crate::trace::Event;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value, json};
use warpsim_isa::{ElemTy, Ty};

/// An f32 as JSON: its exact value as a number when it is finite, else (NaN, ±inf) the string `"0x…"` of its
/// eight hex digits of bits.
pub fn f32_value(bits: u32) -> Value {
    serde_json::Number::from_f64(f64::from(f32::from_bits(bits)))
        .filter(|_| f32::from_bits(bits).is_finite())
        .map(Value::Number)
        .unwrap_or_else(|| Value::String(format!("0x{bits:08x}")))
}

/// An f64 as JSON: its value as a number when it is finite (serde_json writes the shortest round-trip form),
/// else the string `"0x…"` of its sixteen hex digits of bits.
pub fn f64_value(bits: u64) -> Value {
    serde_json::Number::from_f64(f64::from_bits(bits))
        .map(Value::Number)
        .unwrap_or_else(|| Value::String(format!("0x{bits:016x}")))
}

/// A value of type `ty` (a 32-bit type's in the low half) as JSON. 64-bit integers are JSON numbers too: exact
/// in the text (a reader that parses numbers as doubles, like JavaScript, rounds those past 2^53).
fn number(ty: Ty, bits: u64) -> Value {
    let low = crate::kernel::low32(bits);
    match ty {
        Ty::F32 => f32_value(low),
        Ty::S32 => json!(low.cast_signed()),
        Ty::U32 | Ty::B32 => json!(low),
        Ty::F64 => f64_value(bits),
        Ty::S64 => json!(bits.cast_signed()),
        Ty::U64 | Ty::B64 => json!(bits),
    }
}

fn lanes(kernel: &Kernel, exec: u64, f: impl Fn(usize) -> Value) -> Value {
    Value::Array(
        (0..kernel.warp_size as usize)
            .map(|l| if exec >> l & 1 == 1 { f(l) } else { Value::Null })
            .collect(),
    )
}

pub fn buffers(kernel: &Kernel, data: &[crate::kernel::Buffer]) -> Value {
    let mut m = Map::new();
    for b in data {
        m.insert(
            b.name.clone(),
            Value::Array(b.elements().map(|v| number(b.elem.ty(), v)).collect()),
        );
    }
    let _ = kernel;
    Value::Object(m)
}

/// [`RunOutput::lines`] with each instruction's text and source, the instructions with cycles only, by pc.
pub fn lines(kernel: &Kernel, out: &RunOutput) -> Value {
    Value::Array(
        out.lines
            .iter()
            .filter(|l| l.total() > 0)
            .map(|l| {
                let text = kernel
                    .program
                    .instructions
                    .get(l.pc as usize)
                    .map_or("", |i| i.text.trim());
                json!({
                    "pc": l.pc,
                    "source": super::text::source_of(kernel, l.pc as usize),
                    "instruction": text,
                    "issued": l.issued,
                    "operands": l.operands,
                    "bank_conflict": l.bank_conflict,
                    "unit_busy": l.unit_busy,
                    "control": l.control,
                    "barrier": l.barrier,
                    "not_selected": l.not_selected,
                    "total": l.total(),
                    "waited_on": l.waited_on.iter().map(|&(pc, cycles)| json!({"pc": pc, "cycles": cycles})).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}

pub fn stats(out: &RunOutput) -> Value {
    let s = &out.stats;
    #[allow(clippy::cast_precision_loss, reason = "a ratio of counts, printed as a float")]
    let ipc = if out.cycles == 0 {
        0.0
    } else {
        s.warp_instructions as f64 / out.cycles as f64
    };
    json!({
        "cycles": out.cycles,
        "warp_instructions": s.warp_instructions,
        "lane_instructions": s.lane_instructions,
        "ipc": ipc,
        "shuffles": s.shuffles,
        "undefined_shuffle_reads": s.undefined_shuffle_reads,
        "dead_instructions": s.dead_instructions,
        "divergent_branches": s.divergent_branches,
        "shared_accesses": s.shared_accesses,
        "bank_conflicts": s.bank_conflicts,
        "bank_conflict_cycles": s.bank_conflict_cycles,
        "atomics": s.atomics,
        "barriers": s.barriers,
        "l1_hits": s.l1_hits,
        "l1_misses": s.l1_misses,
        "warp_count": s.warps,
        "stalls": s.stalls,
        "warps": s.warp_stalls,
    })
}

/// The whole document as a JSON value. `result` is the run's output, or the fault that stopped it (`buffers` is
/// omitted then). For large buffers write a [`Document`] instead, which streams them.
pub fn document(kernel: &Kernel, result: Result<&RunOutput, &Fault>, events: Option<&[Event]>) -> Value {
    let mut doc = head(kernel, result, events);
    if let Ok(out) = result {
        doc.insert("buffers".into(), buffers(kernel, &out.buffers));
    }
    Value::Object(doc)
}

/// The document for writing: everything but the buffers and the trace as a map; the buffers serialised straight
/// from the run's memory (one element at a time), so a buffer of 2^28 elements does not become a tree of JSON
/// values, and the trace one event at a time, so a trace of a million events takes no memory beyond its events.
pub struct Document<'a> {
    kernel: &'a Kernel,
    head: Map<String, Value>,
    buffers: Option<&'a [Buffer]>,
    trace: Option<&'a [Event]>,
}

impl<'a> Document<'a> {
    pub fn new(kernel: &'a Kernel, result: Result<&'a RunOutput, &Fault>, events: Option<&'a [Event]>) -> Document<'a> {
        Document {
            kernel,
            head: head(kernel, result, None),
            buffers: result.ok().map(|out| out.buffers.as_slice()),
            trace: events,
        }
    }

    /// Record which sanitizers ran (`checks`), so that `findings` is there even when empty.
    pub fn note_checks(&mut self, checks: crate::check::Checks) {
        self.head.insert("checks".into(), json!(checks.names()));
        self.head.entry("findings").or_insert_with(|| json!([]));
    }

    /// Leave the buffers out (an embedder that hands them over as arrays).
    pub fn omit_buffers(&mut self) {
        self.buffers = None;
    }

    /// Record that the trace was cut short.
    pub fn note_dropped_events(&mut self, dropped: u64) {
        self.head.insert("trace_dropped_events".into(), json!(dropped));
    }
}

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        // Keys in order; `buffers` and `trace` go where a sorted map would put them.
        let mut lazy: Vec<&str> = Vec::new();
        if self.buffers.is_some() {
            lazy.push("buffers");
        }
        if self.trace.is_some() {
            lazy.push("trace");
        }
        let mut lazy = lazy.into_iter().peekable();
        let write_lazy = |map: &mut S::SerializeMap, name: &str| match name {
            "buffers" => map.serialize_entry("buffers", &BufferMap(self.buffers.unwrap_or(&[]))),
            _ => map.serialize_entry("trace", &Trace(self.kernel, self.trace.unwrap_or(&[]))),
        };
        for (key, value) in &self.head {
            while let Some(name) = lazy.next_if(|name| key.as_str() > *name) {
                write_lazy(&mut map, name)?;
            }
            map.serialize_entry(key, value)?;
        }
        for name in lazy {
            write_lazy(&mut map, name)?;
        }
        map.end()
    }
}

/// The trace, one event's JSON value at a time.
struct Trace<'a>(&'a Kernel, &'a [Event]);

impl Serialize for Trace<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.1.len()))?;
        for e in self.1 {
            seq.serialize_element(&event(self.0, e))?;
        }
        seq.end()
    }
}

struct BufferMap<'a>(&'a [Buffer]);

impl Serialize for BufferMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for b in self.0 {
            map.serialize_entry(&b.name, &Elements(b))?;
        }
        map.end()
    }
}

struct Elements<'a>(&'a Buffer);

impl Serialize for Elements<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for bits in self.0.elements() {
            let low = crate::kernel::low32(bits);
            match self.0.elem {
                // Non-finite floats have no JSON number: their bits as a string, as `f32_value` writes them.
                ElemTy::F32 => {
                    let x = f32::from_bits(low);
                    if x.is_finite() {
                        seq.serialize_element(&f64::from(x))?;
                    } else {
                        seq.serialize_element(&format!("0x{low:08x}"))?;
                    }
                }
                ElemTy::S32 => seq.serialize_element(&low.cast_signed())?,
                ElemTy::U32 => seq.serialize_element(&low)?,
                ElemTy::F64 => {
                    let x = f64::from_bits(bits);
                    if x.is_finite() {
                        seq.serialize_element(&x)?;
                    } else {
                        seq.serialize_element(&format!("0x{bits:016x}"))?;
                    }
                }
                ElemTy::S64 => seq.serialize_element(&bits.cast_signed())?,
                ElemTy::U64 => seq.serialize_element(&bits)?,
            }
        }
        seq.end()
    }
}

/// For an instruction lowered from PTX, the CUDA or Python line it was compiled from: `p01_map.cu:5: out[i] = …`
/// (its text when the file was read).
pub(crate) fn origin_line(kernel: &Kernel, inst: &warpsim_isa::Instruction) -> Option<String> {
    let o = inst.origin.as_ref()?;
    Some(match o.span {
        Some(s) => format!("{}: {}", o.short(), kernel.program.sources.snippet(s).trim()),
        None => o.short(),
    })
}

/// The text and the `file:line:col` of the instruction at `pc`, if there is one.
fn instruction_at(kernel: &Kernel, pc: u32) -> (Option<String>, Option<String>) {
    let inst = kernel.program.instructions.get(pc as usize);
    (
        inst.map(|i| i.text.clone()),
        inst.map(|i| kernel.program.sources.location(i.span).to_string()),
    )
}

/// A sanitizer's finding as JSON: the check, the message, where (first occurrence), how often; for a race, both
/// accesses.
fn finding(kernel: &Kernel, f: &crate::check::Finding) -> Value {
    use crate::check::FindingKind;
    let at = |pc: u32| instruction_at(kernel, pc);
    let (text, loc) = at(f.pc);
    let mut v = json!({
        "check": f.check(),
        "message": f.message(),
        "block": f.block,
        "warp": f.warp,
        "lane": f.lane,
        "pc": f.pc,
        "cycle": f.cycle,
        "instruction": text,
        "location": loc,
        "count": f.count,
    });
    let access = |a: &crate::check::Access| {
        let (text, loc) = at(a.pc);
        json!({
            "block": a.block,
            "warp": a.warp,
            "lane": a.lane,
            "pc": a.pc,
            "cycle": a.cycle,
            "access": format!("{:?}", a.kind).to_lowercase(),
            "instruction": text,
            "location": loc,
        })
    };
    match &f.kind {
        FindingKind::Race {
            hazard,
            array,
            index,
            global,
            first,
            second,
        } => {
            v["hazard"] = json!(hazard.name());
            v["memory"] = json!(if *global { "global" } else { "shared" });
            v["array"] = json!(array);
            v["index"] = json!(index);
            // Shared: the byte in the block's shared memory; global: the byte in the buffer.
            v["address"] = if *global {
                json!(index * 4)
            } else {
                json!(crate::check::shared_byte(kernel, array, *index))
            };
            v["first"] = access(first);
            v["second"] = access(second);
        }
        FindingKind::UninitRegister { reg, lanes } => {
            v["register"] = json!(reg);
            v["lanes"] = json!(hex_mask(kernel.warp_size, *lanes));
        }
        FindingKind::UninitPredicate { pred, lanes } => {
            v["predicate"] = json!(pred);
            v["lanes"] = json!(hex_mask(kernel.warp_size, *lanes));
        }
        FindingKind::UninitShared { array, index, lanes } => {
            v["array"] = json!(array);
            v["index"] = json!(index);
            v["lanes"] = json!(hex_mask(kernel.warp_size, *lanes));
        }
        FindingKind::UndefinedShuffle { lanes, source, .. } => {
            v["lanes"] = json!(hex_mask(kernel.warp_size, *lanes));
            v["source"] = json!(source);
        }
        FindingKind::MemberMask { lanes, reason, .. } => {
            v["lanes"] = json!(hex_mask(kernel.warp_size, *lanes));
            v["reason"] = json!(match reason {
                crate::check::MaskReason::NotMember => "not_member",
                crate::check::MaskReason::Differ { .. } => "differ",
                crate::check::MaskReason::Absent => "absent",
            });
        }
    }
    v
}

/// A launch shape as `[x, y, z]`.
pub(crate) fn shape(d: crate::kernel::Dim3) -> Value {
    json!([d.x, d.y, d.z])
}

fn head(kernel: &Kernel, result: Result<&RunOutput, &Fault>, events: Option<&[Event]>) -> Map<String, Value> {
    let mut doc = Map::new();
    doc.insert("program".into(), json!(kernel.program.name));
    doc.insert("warp_size".into(), json!(kernel.warp_size));
    doc.insert("grid".into(), json!(kernel.grid));
    doc.insert("block".into(), json!(kernel.block));
    doc.insert("grid_shape".into(), shape(kernel.grid_dim));
    doc.insert("block_shape".into(), shape(kernel.block_dim));
    let params: Map<String, Value> = kernel
        .params
        .iter()
        .map(|(n, v)| {
            let v = match v {
                warpsim_isa::Value::Int(i) => json!(i),
                warpsim_isa::Value::Float(f) => json!(f),
            };
            (n.clone(), v)
        })
        .collect();
    doc.insert("params".into(), Value::Object(params));
    match result {
        Ok(out) => {
            doc.insert("cycles".into(), json!(out.cycles));
            doc.insert("instructions".into(), json!(out.stats.warp_instructions));
            doc.insert("lane_instructions".into(), json!(out.stats.lane_instructions));
            let mut st = stats(out);
            if !out.lines.is_empty()
                && let Value::Object(m) = &mut st
            {
                m.insert("lines".into(), lines(kernel, out));
            }
            doc.insert("stats".into(), st);
            if !out.printed.is_empty() {
                doc.insert("printed".into(), json!(out.printed));
            }
        }
        Err(f) => {
            let (text, loc) = instruction_at(kernel, f.pc);
            doc.insert(
                "fault".into(),
                json!({
                    "message": f.message(),
                    "block": f.block,
                    "warp": f.warp,
                    "lane": f.lane,
                    "pc": f.pc,
                    "cycle": f.cycle,
                    "instruction": text,
                    "location": loc,
                }),
            );
        }
    }
    let found = match result {
        Ok(out) => &out.findings,
        Err(f) => &f.findings,
    };
    if !found.is_empty() {
        doc.insert(
            "findings".into(),
            Value::Array(found.iter().map(|f| finding(kernel, f)).collect()),
        );
    }
    if let Ok(RunOutput { unordered: Some(u), .. }) = result {
        let at = |pc: u32| {
            kernel.program.instructions.get(pc as usize).map(|i| {
                let loc = kernel.program.sources.location(i.span);
                (i.text.clone(), format!("{}:{}:{}", loc.file, loc.line, loc.col))
            })
        };
        let (load, load_at) = at(u.pc).unzip();
        let (store, store_at) = at(u.writer_pc).unzip();
        doc.insert(
            "unordered_read".into(),
            json!({
                "block": u.block, "warp": u.warp, "lane": u.lane, "pc": u.pc, "cycle": u.cycle,
                "instruction": load, "location": load_at,
                "array": u.array, "index": u.index,
                "writer_warp": u.writer_warp, "writer_pc": u.writer_pc,
                "writer_instruction": store, "writer_location": store_at,
            }),
        );
    }
    if let Some(events) = events {
        doc.insert(
            "trace".into(),
            Value::Array(events.iter().map(|e| event(kernel, e)).collect()),
        );
    }
    doc
}

fn stalls(waits: &[crate::trace::Wait]) -> Value {
    Value::Array(
        waits
            .iter()
            .map(|x| json!({"reason": x.reason.name(), "from": x.from, "to": x.to}))
            .collect(),
    )
}

/// One event as a record of the trace's schema (`docs/run.schema.json`): the one serialisation of events, which
/// `--format json`, `--trace-file` and the stepper page (`html.rs`) all use.
pub(crate) fn event(kernel: &Kernel, e: &Event) -> Value {
    let w = kernel.warp_size;
    match e {
        Event::BlockLaunch {
            cycle,
            block,
            warps,
            sm,
        } => {
            json!({"event": "block_launch", "cycle": cycle, "block": block, "warps": warps, "sm": sm})
        }
        Event::WarpExit {
            cycle,
            block,
            warp,
            waits,
        } => {
            let mut v = json!({"event": "warp_exit", "cycle": cycle, "block": block, "warp": warp});
            if !waits.is_empty() {
                v["stalls"] = stalls(waits);
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
            released,
        } => {
            let mut v = json!({
                "event": "diverge", "cycle": cycle, "block": block, "warp": warp, "pc": pc,
                "taken": hex_mask(w, *taken), "fallthrough": hex_mask(w, *fallthrough),
                "target": target, "reconverge": reconverge,
            });
            // (Only where a `YIELD` released lanes, which run first: other splits keep their shape.)
            if *released != 0 {
                v["released"] = json!(hex_mask(w, *released));
            }
            v
        }
        Event::BarrierArrive {
            cycle,
            block,
            warp,
            pc,
            id,
            arrived,
            expected,
        } => json!({
            "event": "barrier_arrive", "cycle": cycle, "block": block, "warp": warp, "pc": pc,
            "barrier": id, "arrived": arrived, "expected": expected,
        }),
        Event::BarrierRelease {
            cycle,
            block,
            id,
            warps,
            resume,
            result,
        } => {
            let mut v = json!({
                "event": "barrier_release", "cycle": cycle, "block": block, "barrier": id, "warps": warps, "resume": resume,
            });
            match result {
                crate::trace::BarrierResult::None => {}
                crate::trace::BarrierResult::Popc(n) => v["popc"] = json!(n),
                crate::trace::BarrierResult::And(b) => v["and"] = json!(b),
                crate::trace::BarrierResult::Or(b) => v["or"] = json!(b),
            }
            v
        }
        Event::Reconverge {
            cycle,
            block,
            warp,
            pc,
            mask,
        } => json!({
            "event": "reconverge", "cycle": cycle, "block": block, "warp": warp, "pc": pc, "mask": hex_mask(w, *mask),
        }),
        Event::AtomicReturn {
            cycle,
            block,
            warp,
            pc,
            reg,
            lanes: returned,
            values,
        } => {
            let ty = kernel.reg_types[*reg as usize];
            json!({
                "event": "atomic_return", "cycle": cycle, "block": block, "warp": warp, "pc": pc,
                "register": format!("%{}", kernel.program.reg_name(warpsim_isa::Reg(*reg))),
                "lanes": hex_mask(w, *returned),
                "values": lanes(kernel, *returned, |l| number(ty, values[l])),
            })
        }
        Event::Issue(i) => {
            let mut m = Map::new();
            m.insert("event".into(), json!("issue"));
            m.insert("cycle".into(), json!(i.cycle));
            m.insert("scheduler".into(), json!(i.scheduler));
            m.insert("block".into(), json!(i.block));
            m.insert("warp".into(), json!(i.warp));
            m.insert("pc".into(), json!(i.pc));
            let inst = &kernel.program.instructions[i.pc as usize];
            m.insert("instruction".into(), json!(inst.text));
            if let Some(source) = origin_line(kernel, inst) {
                m.insert("source".into(), json!(source));
            }
            m.insert("complete".into(), json!(i.complete));
            if kernel.is_dead(i.pc) {
                m.insert("dead".into(), json!(true));
            }
            if !i.waits.is_empty() {
                m.insert("stalls".into(), stalls(&i.waits));
            }
            m.insert("active".into(), json!(hex_mask(w, i.active)));
            m.insert("exec".into(), json!(hex_mask(w, i.exec)));
            if let Some((r, vals)) = &i.write {
                let ty = kernel.reg_types[*r as usize];
                m.insert(
                    "write".into(),
                    json!({
                        "register": format!("%{}", kernel.program.reg_name(warpsim_isa::Reg(*r))),
                        "values": lanes(kernel, i.exec, |l| number(ty, vals[l])),
                    }),
                );
            }
            if let Some((p, mask)) = &i.pred_write {
                m.insert(
                    "predicate".into(),
                    json!({
                        "register": format!("%{}", kernel.program.pred_name(warpsim_isa::Pred(*p))),
                        "lanes": hex_mask(w, mask & i.exec),
                    }),
                );
            }
            if let Some(s) = &i.shuffle {
                let mut shuffle = json!({
                    "sources": lanes(kernel, i.exec, |l| json!(s.sources[l])),
                    "in_range": hex_mask(w, s.in_range),
                    "undefined": hex_mask(w, s.undefined),
                });
                if let Role::Shuffle { mode, sent, .. } = kernel.described[i.pc as usize].role {
                    let (_, amount) = super::shuffle_amount(kernel, i);
                    shuffle["mode"] = json!(mode.name());
                    shuffle["amount"] = amount.map_or_else(|| json!("lane-varying"), |a| json!(a));
                    // What each executing lane sends: its value of the shuffled operand (a register's, named).
                    let ty = sent.map_or(Ty::U32, |r| kernel.reg_types[r as usize]);
                    if let Some(r) = sent {
                        shuffle["register"] = json!(format!("%{}", kernel.program.reg_name(warpsim_isa::Reg(r))));
                    }
                    shuffle["sent"] = lanes(kernel, i.exec, |l| number(ty, i.operands[0][l]));
                }
                m.insert("shuffle".into(), shuffle);
            }
            if let Some(mem) = &i.memory {
                let name = if mem.local {
                    ""
                } else if mem.shared {
                    &kernel.shared[mem.buffer as usize].name
                } else {
                    &kernel.buffers[mem.buffer as usize].name
                };
                let mut obj = json!({
                    "space": if mem.local { "local" } else if mem.shared { "shared" } else { "global" },
                    "buffer": name,
                    "store": mem.store,
                    "atomic": mem.atomic,
                    "index": lanes(kernel, i.exec, |l| json!(mem.index[l])),
                });
                if mem.shared {
                    obj["banks"] = lanes(kernel, i.exec, |l| json!(mem.banks[l]));
                    obj["conflict_degree"] = json!(mem.degree);
                }
                if mem.atomic {
                    obj["same_address_lanes"] = json!(mem.same_address);
                }
                if !mem.after.is_empty() {
                    // A shared store's or atomic's words as it left them.
                    let ty = kernel.shared[mem.buffer as usize].elem.ty();
                    obj["after"] = lanes(kernel, i.exec, |l| number(ty, mem.after[l]));
                }
                m.insert("memory".into(), obj);
            }
            Value::Object(m)
        }
    }
}

/// One event as one line of JSON (no newline): the records of `--trace-file`, and of `--format json`'s
/// `trace` array.
pub fn event_line(kernel: &Kernel, e: &Event) -> String {
    event(kernel, e).to_string()
}

/// A trace sink that writes every event as a line of JSON as it arrives (`--trace-file`): the trace of a run of
/// any length in constant memory. The first write error is kept and stops further writes.
pub struct JsonLines<'k, W: std::io::Write> {
    kernel: &'k Kernel,
    out: W,
    pub events: u64,
    pub error: Option<std::io::Error>,
}

impl<'k, W: std::io::Write> JsonLines<'k, W> {
    pub fn new(kernel: &'k Kernel, out: W) -> JsonLines<'k, W> {
        JsonLines {
            kernel,
            out,
            events: 0,
            error: None,
        }
    }

    /// Flush and hand back the writer, or the first error.
    pub fn finish(mut self) -> std::io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: std::io::Write> crate::trace::TraceSink for JsonLines<'_, W> {
    const ENABLED: bool = true;
    fn event(&mut self, e: Event) {
        if self.error.is_some() {
            return;
        }
        let r = serde_json::to_writer(&mut self.out, &event(self.kernel, &e))
            .map_err(std::io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"));
        match r {
            Ok(()) => self.events += 1,
            Err(e) => self.error = Some(e),
        }
    }
}
