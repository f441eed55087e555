//! warpsim in the browser: one JSON request in, one JSON answer out ([`call`]), for the playground page's Web
//! Worker. The WebAssembly module exports three functions and imports one, with no generated glue:
//!
//! - `ws_input(len) -> ptr`: room for a request of `len` bytes (UTF-8 JSON), which the page writes there;
//! - `ws_call() -> ptr`: handles the request; the answer (UTF-8 JSON) is at `ptr`, `ws_output_len()` bytes long;
//! - `ws_progress(cycle, blocks_finished, blocks)` (imported from `env`): called after every epoch of a run, so the
//!   worker can post the page a progress report (a Stop button terminates the worker).
//!
//! Requests (`op`): `run` (a program's text, `kind` `s` or `ptx`, and its launch), `check` (a puzzle and an
//! answer), `list` (the shipped programs and the puzzles). Answers have `ok`; an error carries the rendered
//! diagnostic and each diagnostic's line and column, for the editor.

use serde_json::{Value, json};
use std::cell::RefCell;
use std::sync::Arc;
use warpsim::render;
use warpsim::{Config, Dim3, Launch, Machine, Progress, RunOptions, TraceBuffer};
use warpsim_isa::Program;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for a request of `len` bytes: where the page writes it.
#[unsafe(no_mangle)]
pub extern "C" fn ws_input(len: usize) -> *mut u8 {
    INPUT.with(|i| {
        let mut i = i.borrow_mut();
        i.clear();
        i.resize(len, 0);
        i.as_mut_ptr()
    })
}

/// Handle the request written at `ws_input`'s pointer; the answer's bytes are at the pointer returned.
#[unsafe(no_mangle)]
pub extern "C" fn ws_call() -> *const u8 {
    let request = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    let answer = call(&request);
    OUTPUT.with(|o| {
        let mut o = o.borrow_mut();
        *o = answer.into_bytes();
        o.as_ptr()
    })
}

/// The answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn ws_output_len() -> usize {
    OUTPUT.with(|o| o.borrow().len())
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
unsafe extern "C" {
    fn ws_progress(cycle: f64, blocks_finished: f64, blocks: f64);
}

#[allow(clippy::cast_precision_loss, reason = "counts shown in a progress bar")]
fn progress_to_page(p: Progress) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: an import of the page's, taking three numbers and returning nothing.
    unsafe {
        ws_progress(p.cycle as f64, p.blocks_finished as f64, p.blocks as f64);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = p;
}

/// The answer (JSON) to a request (JSON). A run tells the page how far it is (`ws_progress`).
pub fn call(request: &str) -> String {
    let answer = match serde_json::from_str::<Value>(request) {
        Err(e) => error(&format!("error: the request is not JSON: {e}")),
        Ok(r) => match r["op"].as_str() {
            Some("run") => run(&r),
            Some("check") => check(&r),
            Some("list") => list(),
            other => error(&format!("error: unknown op {other:?}")),
        },
    };
    answer.to_string()
}

/// An error answer: the rendered text and every `--> NAME:LINE:COL` it points at.
fn error(text: &str) -> Value {
    json!({ "ok": false, "error": text, "diagnostics": places(text) })
}

/// The places a rendered diagnostic points at (its `--> file:line:col` lines) with the error message before each.
fn places(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut message = String::new();
    for line in text.lines() {
        if let Some(m) = line.strip_prefix("error: ") {
            message = m.to_string();
        }
        if let Some(at) = line.trim_start().strip_prefix("--> ") {
            let mut parts = at.rsplitn(3, ':');
            let col = parts.next().and_then(|c| c.parse::<u64>().ok());
            let row = parts.next().and_then(|l| l.parse::<u64>().ok());
            let file = parts.next().unwrap_or_default();
            if let (Some(line), Some(column)) = (row, col) {
                out.push(json!({ "file": file, "line": line, "column": column, "message": message }));
            }
        }
    }
    out
}

/// The source the page sends is named this in diagnostics.
const EDITOR: &str = "editor";

fn dim(v: &Value) -> Result<Option<Dim3>, String> {
    v.as_str()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(Dim3::parse)
        .transpose()
}

/// `NAME=VALUE` words (blank- or comma-separated) of the parameters field.
fn words(v: &Value) -> Vec<String> {
    v.as_str()
        .unwrap_or_default()
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn program_of(r: &Value) -> Result<Program, String> {
    let text = r["source"].as_str().unwrap_or_default();
    let ptx = r["kind"].as_str() == Some("ptx")
        || (r["kind"].as_str() != Some("s") && text.contains(".entry") && text.contains(".version"));
    if ptx {
        let args = warpsim::ptx::Arguments {
            entry: r["entry"].as_str().filter(|e| !e.is_empty()).map(str::to_string),
            buffers: words(&r["buffers"]),
            sets: words(&r["set"])
                .iter()
                .map(|w| w.split('=').next().unwrap_or_default().to_string() + "=")
                .collect(),
            syntax: warpsim::ptx::Syntax::Flags,
        };
        let sources: Vec<(String, String)> = r["sources"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                    .collect()
            })
            .unwrap_or_default();
        warpsim::ptx::load_text(EDITOR, text, &args, &sources, false)
    } else {
        warpsim_isa::parse(EDITOR, text, &warpsim::programs::Resolver).map_err(|e| e.render(false))
    }
}

fn parse_set(r: &Value) -> Result<Vec<(String, warpsim_isa::Value)>, String> {
    words(&r["set"])
        .iter()
        .map(|w| {
            let (name, value) = w
                .split_once('=')
                .ok_or_else(|| format!("error: parameter `{w}`: expected NAME=VALUE"))?;
            let v = warpsim::kernel::parse_value(value)
                .ok_or_else(|| format!("error: parameter `{w}`: `{value}` is not a number"))?;
            Ok((name.to_string(), v))
        })
        .collect()
}

/// The first elements of a buffer shown on the page.
const SHOWN: usize = 4096;

fn run(r: &Value) -> Value {
    match run_inner(r) {
        Ok(v) | Err(v) => v,
    }
}

fn run_inner(r: &Value) -> Result<Value, Value> {
    let fail = |m: String| error(&m);
    let program = program_of(r).map_err(&fail)?;
    let warp = r["warp"].as_u64().and_then(|w| u32::try_from(w).ok()).unwrap_or(32);
    let machine = Machine::new(Config::hopper().with_warp_size(warp)).map_err(|e| fail(format!("error: {e}")))?;
    let launch = Launch {
        grid: dim(&r["grid"]).map_err(|e| fail(format!("error: grid {e}")))?,
        block: dim(&r["block"]).map_err(|e| fail(format!("error: block {e}")))?,
        set: parse_set(r).map_err(fail)?,
        dynamic_shared: r["dynamic_shared"].as_u64().and_then(|d| u32::try_from(d).ok()),
        contents: Vec::new(),
    };
    let kernel = machine
        .load(&program, &launch)
        .map_err(|e| fail(e.render(&program, false)))?;
    let checks = match r["checks"].as_str().filter(|c| !c.is_empty()) {
        Some(c) => warpsim::Checks::parse(c).map_err(|e| fail(format!("error: checks: {e}")))?,
        None => warpsim::Checks::default(),
    };
    // The page's Stop button ends a long run (it terminates the worker); the limits end an endless one.
    let options = RunOptions {
        threads: 1,
        checks,
        profile: true,
        max_cycles: r["max_cycles"].as_u64().unwrap_or(RunOptions::default().max_cycles),
        max_instructions: r["max_instructions"]
            .as_u64()
            .unwrap_or(RunOptions::default().max_instructions),
        progress: Some(Arc::new(progress_to_page)),
        ..RunOptions::default()
    };
    let traced = r["trace"].as_bool().unwrap_or(true);
    let mut trace = TraceBuffer::with_limit(if traced { 200_000 } else { 0 });
    let result = if traced {
        machine.run(&kernel, &options, &mut trace)
    } else {
        machine.run(&kernel, &options, &mut warpsim::NoTrace)
    };
    let events = &trace.events;
    let picture = |banks: u32| {
        let opts = render::svg::SvgOptions {
            banks,
            ..render::svg::SvgOptions::default()
        };
        render::svg::diagram(&kernel, events, &opts).ok()
    };
    let banks = machine.config().shared_banks;
    let out = match result {
        Err(fault) => {
            let mut v = error(&fault.report(&kernel, false));
            v["fault"] = json!(fault.message());
            if traced {
                v["svg"] = json!(picture(banks));
                v["html"] = json!(render::html::stepper(
                    &kernel,
                    events,
                    Err(fault.message()),
                    trace.dropped,
                    banks,
                    &[]
                ));
            }
            return Err(v);
        }
        Ok(out) => out,
    };
    let buffers: Vec<Value> = out
        .buffers
        .iter()
        .map(|b| {
            let values: Vec<String> = (0..b.len().min(SHOWN))
                .map(|k| render::elem_value(b.elem, b.element(k)))
                .collect();
            json!({ "name": b.name, "elem": b.elem.name(), "len": b.len(), "values": values })
        })
        .collect();
    let findings: Vec<String> = out.findings.iter().map(|f| f.render(&kernel, false)).collect();
    let mut text = render::text::header(&kernel);
    // What the kernel's printf calls printed, as `sim run` shows it.
    text.push_str(&render::text::printed(&out));
    text.push_str(&render::text::summary(&out, 100));
    text.push_str(&render::text::stats(&out));
    text.push_str(&render::text::lines(&kernel, &out, None));
    Ok(json!({
        "ok": true,
        "program": kernel.program.name,
        "cycles": out.cycles,
        "warp_instructions": out.stats.warp_instructions,
        "lane_instructions": out.stats.lane_instructions,
        "buffers": buffers,
        "findings": findings,
        "diagnostics": findings.iter().flat_map(|f| places(f)).collect::<Vec<_>>(),
        "stats": text,
        "svg": if traced { picture(banks) } else { None },
        "html": traced.then(|| render::html::stepper(&kernel, events, Ok(out.cycles), trace.dropped, banks, &out.lines)),
        "dropped_events": trace.dropped,
    }))
}

fn check(r: &Value) -> Value {
    let name = r["puzzle"].as_str().unwrap_or_default();
    let p = match warpsim_tools::puzzle::find(name) {
        Ok(Some(p)) => p,
        Ok(None) => return error(&format!("error: no puzzle named `{name}`")),
        Err(e) => return error(&format!("error: {e}")),
    };
    let text = r["source"].as_str().unwrap_or_default();
    let program = match warpsim_isa::parse(EDITOR, text, &warpsim::programs::Resolver) {
        Ok(p) => p,
        Err(e) => return error(&e.render(false)),
    };
    match warpsim_tools::puzzle::check(&p, &program, 1) {
        Err(e) => error(&format!("error: {e}")),
        Ok(v) => match v.failure {
            None => json!({ "ok": true, "passed": true, "runs": v.runs,
                "text": format!("pass: the same `{}` as the reference in all {} runs", p.compare.join("`, `"), v.runs) }),
            Some(f) => json!({ "ok": true, "passed": false, "runs": v.runs, "setting": f.setting,
                "message": f.message, "departure": f.departure, "diagnostics": places(&f.message),
                "text": format!("fail: run {} under {}:\n{}{}", v.runs, f.setting, f.message.trim_end(),
                    f.departure.as_ref().map(|d| format!("\nwhere it departs: {d}")).unwrap_or_default()) }),
        },
    }
}

fn list() -> Value {
    // (One assembly each gives the description and the warp sizes.)
    let programs: Vec<Value> = warpsim::programs::names()
        .into_iter()
        .map(|n| {
            let p = warpsim::programs::assemble(n).and_then(Result::ok);
            json!({ "name": n, "source": warpsim::programs::source(n).unwrap_or_default(),
                "description": p.as_ref().and_then(|p| p.description.clone()).unwrap_or_default(),
                "warp_sizes": p.map(|p| vec![p.warp_sizes.0, p.warp_sizes.1]) })
        })
        .collect();
    let puzzles = match warpsim_tools::puzzle::shipped() {
        Ok(p) => p,
        Err(e) => return error(&format!("error: {e}")),
    };
    let puzzles: Vec<Value> = puzzles
        .into_iter()
        .map(|p| {
            json!({ "name": p.name, "title": p.title, "task": p.task, "hint": p.hint,
            "start": p.starting_file(false), "warp_sizes": p.warp_sizes })
        })
        .collect();
    json!({ "ok": true, "programs": programs, "puzzles": puzzles })
}

#[cfg(test)]
mod tests {
    use super::call;
    use serde_json::{Value, json};

    fn ask(request: &Value) -> Value {
        serde_json::from_str(&call(&request.to_string())).expect("JSON")
    }

    #[test]
    fn a_run_gives_the_buffers_cycles_and_pictures_of_the_library() {
        let source = warpsim::programs::source("butterfly_max").unwrap();
        let a = ask(&json!({ "op": "run", "source": source, "kind": "s", "warp": 8, "trace": true }));
        assert_eq!(a["ok"], true, "{a}");
        let program = warpsim::programs::assemble("butterfly_max").unwrap().unwrap();
        let native = warpsim::simulate(
            &program,
            &warpsim::Config::hopper().with_warp_size(8),
            &warpsim::Launch::default(),
        )
        .unwrap();
        assert_eq!(a["cycles"], native.cycles);
        assert_eq!(a["buffers"][1]["name"], "out");
        assert_eq!(a["buffers"][1]["values"], json!(vec!["1000"; 8]));
        assert!(a["svg"].as_str().unwrap().starts_with("<svg"));
        assert!(a["html"].as_str().unwrap().contains("<html"));
    }

    #[test]
    fn an_error_names_its_line_and_column_in_the_editor() {
        let a = ask(&json!({ "op": "run", "source": ".kernel k\n.block W\n    add.u32 %x, 1, 2\n", "warp": 8 }));
        assert_eq!(a["ok"], false);
        assert_eq!(
            a["diagnostics"],
            json!([{ "file": "editor", "line": 3, "column": 13, "message": "unknown register `%x`" }])
        );
        assert!(a["error"].as_str().unwrap().contains("--> editor:3:13"));
        let a = ask(&json!({ "op": "run", "source": ".kernel k\n.block W\n", "grid": "2x0" }));
        assert_eq!(
            a["error"],
            "error: grid `2x0`: y is 0; every component of a shape is at least 1"
        );
        assert_eq!(
            ask(&json!({ "op": "nope" }))["error"],
            "error: unknown op Some(\"nope\")"
        );
    }

    #[test]
    fn a_kernels_printf_is_shown_before_the_summary() {
        let source = include_str!("../../programs/ptx/cuda/w26_printf_assert.O3.ptx");
        let a = ask(&json!({ "op": "run", "source": source, "kind": "ptx", "block": "2",
            "buffers": "0=s32[2]=i*3", "set": "1=2", "trace": false }));
        assert_eq!(a["ok"], true, "{a}");
        let stats = a["stats"].as_str().unwrap();
        let lines = "Hello from block 0, thread 0: data[0] = 0 (0.000000)\nHello from block 0, thread 1: data[1] = 3 (1.500000)\ncycles:";
        assert!(stats.contains(lines), "{stats}");
    }

    #[test]
    fn a_fault_keeps_the_trace_up_to_it() {
        let a = ask(&json!({ "op": "run", "warp": 4, "source":
            ".kernel k\n.block W\n.buffer out u32[2]\n.reg %t\n    mov.u32 %t, %tid.x\n    st.global.u32 out[%t], %t\n" }));
        assert_eq!(a["ok"], false);
        assert_eq!(
            a["fault"],
            "out-of-bounds store to `out`: element 2, but `out` has 2 elements (0..2)"
        );
        assert_eq!(a["diagnostics"][0]["line"], 6);
        assert!(a["html"].as_str().unwrap().contains("<html"));
    }

    #[test]
    fn puzzles_are_listed_and_checked() {
        let list = ask(&json!({ "op": "list" }));
        assert_eq!(list["puzzles"][0]["name"], "pair_swap");
        let start = list["puzzles"][0]["start"].as_str().unwrap();
        let a = ask(&json!({ "op": "check", "puzzle": "pair_swap", "source": start }));
        assert_eq!(a["passed"], false);
        assert_eq!(a["runs"], 1);
        let answer = warpsim::programs::source("pair_swap").unwrap();
        let a = ask(&json!({ "op": "check", "puzzle": "pair_swap", "source": answer }));
        assert_eq!(a["passed"], true, "{a}");
        assert_eq!(a["runs"], 24);
    }
}
