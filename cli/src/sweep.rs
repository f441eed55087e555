//! `sim sweep SPEC`: a grid of programs × parameters × machine configurations, one JSON line per run.
//!
//! The spec (JSON) names the axes; the rows are their product in a fixed order, numbered from 0. `--shard I/N`
//! runs the rows whose number is `I` modulo `N`, so that N machines (a Slurm array, Ray tasks) share a sweep and
//! the union of their lines is the unsharded sweep's. With `--out FILE`, lines are appended as rows finish and a
//! rerun skips the rows whose key the file already holds (a line cut short by a crash is dropped first).

use crate::{Failure, Policy, load_config, load_for, ptx};
use rayon::prelude::*;
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use warpsim::{Machine, NoTrace, RunOptions};
use warpsim_isa::Program;

/// The spec file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    /// Each program as a launches-file line: a shipped program's name or a file (relative to the spec), then the
    /// flags that launch it (`--grid`, `--block`, `--set`, `--buffer`, `--entry`, `--dynamic-shared`).
    programs: Vec<String>,
    /// Machine configurations: `hopper` (the built-in one) or a file (relative to the spec). Default: `hopper`.
    #[serde(default)]
    configs: Vec<String>,
    /// Warp-scheduling policies (`lrr`, `gto`). Default: each configuration's own.
    #[serde(default)]
    policies: Vec<String>,
    /// SM counts. Default: each configuration's own.
    #[serde(default)]
    sms: Vec<u32>,
    /// Warp sizes. Default: each configuration's own.
    #[serde(default)]
    warps: Vec<u32>,
    /// Program parameters: each name's values; every combination is a row (names in alphabetical order). A name
    /// applies to the programs that declare it (`.param`); the others run once for the other axes. A PTX kernel
    /// takes its scalar arguments in its launch line.
    #[serde(default)]
    set: BTreeMap<String, Vec<i64>>,
}

/// One row of the grid.
struct Row {
    index: usize,
    program: usize,
    config: Option<usize>,
    policy: Option<Policy>,
    sms: Option<u32>,
    warp: Option<u32>,
    set: Vec<(String, i64)>,
}

impl Row {
    /// What identifies the row in an output file, whatever its number.
    fn key(&self, spec: &Spec) -> String {
        let mut k = spec.programs[self.program].clone();
        if let Some(c) = self.config {
            let _ = write!(k, " | config={}", spec.configs[c]);
        }
        if let Some(p) = self.policy {
            let _ = write!(k, " | policy={}", policy_name(p));
        }
        if let Some(s) = self.sms {
            let _ = write!(k, " | sms={s}");
        }
        if let Some(w) = self.warp {
            let _ = write!(k, " | warp={w}");
        }
        for (name, v) in &self.set {
            let _ = write!(k, " | {name}={v}");
        }
        k
    }
}

fn policy_name(p: Policy) -> &'static str {
    match p {
        Policy::Lrr => "lrr",
        Policy::Gto => "gto",
    }
}

/// `I/N`.
pub(crate) fn shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{text}`: expected I/N with 0 ≤ I < N (`--shard 0/4` is the first of four shards)");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The spec's rows, in order: programs, then configurations, policies, SM counts, warp sizes, parameters.
fn rows(spec: &Spec, policies: &[Policy], loaded: &[Loaded]) -> Vec<Row> {
    fn axis<T: Copy>(values: &[T]) -> Vec<Option<T>> {
        if values.is_empty() {
            vec![None]
        } else {
            values.iter().copied().map(Some).collect()
        }
    }
    let configs: Vec<Option<usize>> = axis(&(0..spec.configs.len()).collect::<Vec<_>>());
    let mut out = Vec::new();
    for (program, l) in loaded.iter().enumerate() {
        let mut sets: Vec<Vec<(String, i64)>> = vec![Vec::new()];
        for (name, values) in &spec.set {
            if !l.program.params.iter().any(|p| p.name == *name) {
                continue;
            }
            sets = sets
                .iter()
                .flat_map(|s| {
                    values.iter().map(move |&v| {
                        let mut s = s.clone();
                        s.push((name.clone(), v));
                        s
                    })
                })
                .collect();
        }
        for &config in &configs {
            for &policy in &axis(policies) {
                for &sms in &axis(&spec.sms) {
                    for &warp in &axis(&spec.warps) {
                        for set in &sets {
                            out.push(Row {
                                index: out.len(),
                                program,
                                config,
                                policy,
                                sms,
                                warp,
                                set: set.clone(),
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// A loaded program line: the program and its launch.
struct Loaded {
    program: Program,
    launch: warpsim::Launch,
}

/// Read and check the spec: every program assembles and every configuration loads, before anything runs.
fn read_spec(path: &str, color: bool) -> Result<(Spec, Vec<Loaded>, Vec<Policy>), Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::input(format!("error: cannot read {path}: {e}")))?;
    let spec: Spec = serde_json::from_str(&text).map_err(|e| {
        Failure::input(format!(
            "error: {path}:{}:{}: {e}\n  help: a sweep spec is a JSON object with `programs` (a list of launch lines) \
             and optionally `configs`, `policies`, `sms`, `warps` and `set` (see `sim sweep --help`)",
            e.line(),
            e.column()
        ))
    })?;
    if spec.programs.is_empty() {
        return Err(Failure::input(format!(
            "error: {path}: `programs` is empty\n  help: name at least one program: \"programs\": [\"butterfly_max\"]"
        )));
    }
    let dir = Path::new(path).parent().map(Path::to_path_buf).unwrap_or_default();
    let mut loaded = Vec::new();
    for (k, line) in spec.programs.iter().enumerate() {
        let at = |m: String| Failure::input(format!("error: {path}: programs[{k}] (`{line}`): {m}"));
        let (file, shape) = ptx::launch_line(line).map_err(at)?;
        let file = resolve(&dir, &file);
        let program = load_for(&file, color, &shape).map_err(|f| at(f.message))?;
        let launch = shape.launch().map_err(|f| at(f.message))?;
        loaded.push(Loaded { program, launch });
    }
    let mut policies = Vec::new();
    for p in &spec.policies {
        policies.push(match p.as_str() {
            "lrr" => Policy::Lrr,
            "gto" => Policy::Gto,
            _ => {
                return Err(Failure::input(format!(
                    "error: {path}: unknown policy `{p}`\n  help: `lrr` (loose round robin) or `gto` (greedy then oldest)"
                )));
            }
        });
    }
    for c in &spec.configs {
        if c != "hopper" {
            load_config(Some(&resolve(&dir, c)), None, None)?;
        }
    }
    Ok((spec, loaded, policies))
}

/// A shipped program's name stays a name; a path is taken relative to the spec's folder.
fn resolve(dir: &Path, name: &str) -> String {
    let looks_like_path = name.contains('/') || name.contains('\\') || name.contains('.');
    if !looks_like_path || Path::new(name).is_absolute() {
        return name.to_string();
    }
    dir.join(name).to_string_lossy().into_owned()
}

/// Run one row: its JSON line.
fn run_row(spec: &Spec, dir: &Path, loaded: &[Loaded], row: &Row) -> Value {
    let mut line = json!({ "row": row.index, "key": row.key(spec) });
    let result = (|| -> Result<Value, (&'static str, String)> {
        let config = row.config.map(|c| &spec.configs[c]).filter(|c| *c != "hopper");
        let machine = load_config(config.map(|c| resolve(dir, c)).as_deref(), row.warp, row.policy)
            .map_err(|f| ("error", f.message))?;
        let machine = match row.sms {
            None => machine,
            Some(sms) => Machine::new(warpsim::Config {
                sms,
                ..machine.config().clone()
            })
            .map_err(|e| ("error", format!("error: sms {sms}: {e}")))?,
        };
        let l = &loaded[row.program];
        let mut launch = l.launch.clone();
        for (name, v) in &row.set {
            launch.set.retain(|(n, _)| n != name);
            launch.set.push((name.clone(), warpsim_isa::Value::Int(*v)));
        }
        let kernel = machine
            .load(&l.program, &launch)
            .map_err(|e| ("error", e.render(&l.program, false)))?;
        let options = RunOptions {
            threads: 1,
            ..RunOptions::default()
        };
        let out = machine
            .run(&kernel, &options, &mut NoTrace)
            .map_err(|f| ("fault", f.render(&kernel, false)))?;
        let mut digest = Sha256::new();
        for (decl, b) in kernel.program.buffers.iter().zip(&out.buffers) {
            digest.update(decl.name.as_bytes());
            digest.update((b.data.len() as u64).to_le_bytes());
            for w in &b.data {
                digest.update(w.to_le_bytes());
            }
        }
        let mut stats = warpsim::render::json::stats(&out);
        if let Some(s) = stats.as_object_mut() {
            s.remove("warps");
        }
        Ok(json!({
            "warp_size": kernel.warp_size,
            "sms": machine.config().sms,
            "cycles": out.cycles,
            "digest": format!("sha256:{:x}", digest.finalize()),
            "stats": stats,
        }))
    })();
    let map = line.as_object_mut().expect("an object");
    match result {
        Ok(Value::Object(fields)) => map.extend(fields),
        Ok(_) => {}
        Err((kind, message)) => {
            map.insert(kind.into(), Value::String(message));
        }
    }
    line
}

/// The keys an output file already holds; a last line cut short (no newline) is removed from the file first.
fn done_keys(out: &Path) -> Result<HashSet<String>, Failure> {
    let fail = |e: std::io::Error| Failure::input(format!("error: {}: {e}", out.display()));
    let Ok(text) = std::fs::read_to_string(out) else {
        return Ok(HashSet::new());
    };
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        let f = std::fs::OpenOptions::new().write(true).open(out).map_err(fail)?;
        f.set_len(whole as u64).map_err(fail)?;
    }
    let mut keys = HashSet::new();
    for (k, line) in text[..whole].lines().enumerate() {
        let v: Value = serde_json::from_str(line).map_err(|e| {
            Failure::input(format!(
                "error: {}:{}: not a line `sim sweep` writes: {e}\n  help: give a new --out file, or the one this \
                 sweep wrote",
                out.display(),
                k + 1
            ))
        })?;
        if let Some(key) = v["key"].as_str() {
            keys.insert(key.to_string());
        }
    }
    Ok(keys)
}

pub(crate) struct SweepArgs<'a> {
    pub spec: &'a str,
    pub shard: (usize, usize),
    pub out: Option<&'a str>,
    pub jobs: usize,
    pub color: bool,
}

/// `sim sweep`: returns the summary line for standard error, and whether every row ran without an error or fault.
pub(crate) fn sweep(args: &SweepArgs) -> Result<(String, bool), Failure> {
    let (spec, loaded, policies) = read_spec(args.spec, args.color)?;
    let dir: PathBuf = Path::new(args.spec).parent().map(Path::to_path_buf).unwrap_or_default();
    let all = rows(&spec, &policies, &loaded);
    let (i, n) = args.shard;
    let mine: Vec<&Row> = all.iter().filter(|r| r.index % n == i).collect();
    let done = match args.out {
        Some(out) => done_keys(Path::new(out))?,
        None => HashSet::new(),
    };
    let todo: Vec<&Row> = mine.iter().copied().filter(|r| !done.contains(&r.key(&spec))).collect();
    let mut sink: Box<dyn std::io::Write> = match args.out {
        Some(out) => Box::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(out)
                .map_err(|e| Failure::input(format!("error: cannot write {out}: {e}")))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs)
        .build()
        .map_err(|e| Failure::input(format!("error: no threads for the sweep: {e}")))?;
    let (mut failed, mut written) = (0usize, 0usize);
    // Rows run in batches on the pool; each batch's lines are written in row order as it finishes.
    'rows: for batch in todo.chunks(4 * args.jobs) {
        let lines: Vec<Value> = pool.install(|| batch.par_iter().map(|r| run_row(&spec, &dir, &loaded, r)).collect());
        for line in lines {
            match writeln!(sink, "{line}").and_then(|()| sink.flush()) {
                Ok(()) => {
                    written += 1;
                    failed += usize::from(line.get("error").is_some() || line.get("fault").is_some());
                }
                // (A closed pipe, `sim sweep s.json | head`, ends the sweep quietly.)
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break 'rows,
                Err(e) => return Err(Failure::input(format!("error: cannot write: {e}"))),
            }
        }
    }
    let summary = format!(
        "sweep {}: {} rows in all, {} in shard {i}/{n}, {} already written, {written} run, {failed} with an error or \
         fault",
        args.spec,
        all.len(),
        mine.len(),
        mine.len() - todo.len(),
    );
    Ok((summary, failed == 0))
}
