//! The calibration suite: microbenchmarks in the ISA that mirror the rows of the measured Hopper table
//! (`calibration/h200.json`, figures from `calibration/measured/`), run on a configuration and compared row by
//! row.
//!
//! Each program times its region with `%clock` exactly as the CUDA microbenchmark does with `clock64()` and
//! stores the cycles in `cyc[0]`; the row's simulated figure is that divided by `per` (the operations timed).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use warpsim::Config;
use warpsim::NoTrace;
use warpsim::RunOptions;
use warpsim::programs;
use warpsim::run;
use warpsim::{Launch, instantiate};
use warpsim_isa::Value;

/// One measured row.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub name: String,
    /// The microbenchmark in `calibration/programs/`: `NAME.s`, or `NAME.ptx` for one that reads kernel
    /// parameters (its only entry, or `entry`).
    pub program: String,
    /// For PTX: the entry to run, where the file has several (`None`: its only one).
    #[serde(default)]
    pub entry: Option<String>,
    /// `--set` values for it (for PTX: its scalar arguments).
    #[serde(default)]
    pub set: BTreeMap<String, i64>,
    /// For PTX: its pointer arguments' buffers, as `sim run --buffer` takes them (`cyc=u32[3]`).
    #[serde(default)]
    pub buffers: Vec<String>,
    /// A difference of two runs, as measured: the cycles of the same microbenchmark with `set` overridden by these
    /// values are subtracted (a slow path less the fast one).
    #[serde(default)]
    pub less: Option<BTreeMap<String, i64>>,
    /// Operations its clock region times.
    pub per: u32,
    /// Measured with the buffers not in L2 at the launch (`timing.memory.buffers_in_l2` false for this row).
    #[serde(default)]
    pub cold: bool,
    /// Cycles per operation measured on the GPU.
    pub measured: f64,
    /// Where the figure comes from.
    pub source: String,
}

/// The measured table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub gpu: String,
    pub note: String,
    pub rows: Vec<Row>,
}

/// One row compared.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowResult {
    pub name: String,
    /// Cycles per operation in the simulator.
    pub simulated: f64,
    /// Cycles per operation on the GPU.
    pub measured: f64,
    /// (simulated − measured) / measured.
    pub error: f64,
    pub program: String,
    pub source: String,
}

/// The built-in table.
pub fn table() -> Table {
    serde_json::from_str(programs::calibration_table()).expect("calibration/h200.json is valid (tested)")
}

/// Run every row of `table` on `config` (its warp size is set to 32, the size the GPU measured).
pub fn run_table(table: &Table, config: &Config) -> Result<Vec<RowResult>, String> {
    let config = config.clone().with_warp_size(32);
    table.rows.iter().map(|row| run_row(row, &config)).collect()
}

fn run_row(row: &Row, config: &Config) -> Result<RowResult, String> {
    let mut cycles = f64::from(cycles_of(row, &row.set, config)?);
    if let Some(less) = &row.less {
        let mut set = row.set.clone();
        set.extend(less.iter().map(|(k, v)| (k.clone(), *v)));
        cycles -= f64::from(cycles_of(row, &set, config)?);
    }
    let simulated = cycles / f64::from(row.per);
    Ok(RowResult {
        name: row.name.clone(),
        simulated,
        measured: row.measured,
        error: (simulated - row.measured) / row.measured,
        program: row.program.clone(),
        source: row.source.clone(),
    })
}

/// `cyc[0]` of `row`'s microbenchmark run with `set` on `config`.
fn cycles_of(row: &Row, set: &BTreeMap<String, i64>, config: &Config) -> Result<u32, String> {
    let fail = |what: String| format!("calibration row `{}` ({}): {what}", row.name, row.program);
    let program = if let Some(text) = programs::calibration_file(&format!("{}.ptx", row.program)) {
        let args = warpsim::ptx::Arguments {
            entry: row.entry.clone(),
            buffers: row.buffers.clone(),
            sets: set.iter().map(|(k, v)| format!("{k}={v}")).collect(),
            syntax: warpsim::ptx::Syntax::Flags,
        };
        let name = format!("calibration/programs/{}.ptx", row.program);
        warpsim::ptx::load_text(&name, text, &args, &[], false).map_err(|e| fail(format!("does not load:\n{e}")))?
    } else if row.buffers.is_empty() {
        programs::assemble_calibration(&row.program)
            .ok_or_else(|| fail("no such microbenchmark".into()))?
            .map_err(|e| fail(format!("does not assemble:\n{}", e.render(false))))?
    } else {
        return Err(fail(
            "`buffers` binds a PTX microbenchmark's arguments; this one is not PTX".into(),
        ));
    };
    let launch = Launch {
        set: set.iter().map(|(k, v)| (k.clone(), Value::Int(*v))).collect(),
        ..Launch::default()
    };
    let mut cold = config.clone();
    cold.timing.memory.buffers_in_l2 = false;
    let config = if row.cold { &cold } else { config };
    let kernel = instantiate(&program, config, &launch)
        .map_err(|e| fail(format!("cannot launch on this machine:\n{}", e.render(&program, false))))?;
    let out = run(&kernel, config, &RunOptions::default(), &mut NoTrace).map_err(|f| fail(f.message()))?;
    out.buffer("cyc")
        .and_then(|b| b.data.first())
        .copied()
        .ok_or_else(|| fail("has no `cyc` buffer".into()))
}

/// `sim calibrate`: simulated against measured cycles, row by row.
pub fn report(machine: &str, gpu: &str, rows: &[RowResult]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "machine `{machine}` against {gpu} (cycles per operation):");
    let width = rows.iter().map(|r| r.name.chars().count()).max().unwrap_or(0);
    let _ = writeln!(
        s,
        "  {:<width$}  {:>9}  {:>9}  {:>7}",
        "row", "simulated", "measured", "error"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "  {:<width$}  {:>9.2}  {:>9.2}  {:>+6.1}%",
            r.name,
            r.simulated,
            r.measured,
            100.0 * r.error
        );
    }
    let worst = rows.iter().map(|r| r.error.abs()).fold(0.0, f64::max);
    let within = rows.iter().filter(|r| r.error.abs() <= 0.10).count();
    let _ = writeln!(
        s,
        "{within} of {} rows within 10%; largest error {:.1}%",
        rows.len(),
        100.0 * worst
    );
    s
}
