//! Puzzles: a shipped teaching program turned into an exercise. A puzzle (a TOML file, `programs/puzzles/`) has a
//! task, a hint, a stub to start from and a reference program (a shipped program by name, or its own text); [`check`]
//! runs an answer against the reference at several warp sizes and launch shapes, under adversarial schedules and
//! both schedulings (lockstep and independent thread scheduling), with every sanitizer on, and says pass or fail:
//! for a wrong value, the first shuffle step and lane where the answer's lane grid departs from the reference's.
//!
//! ```toml
//! level = 1                        # optional: the place in the list (lower first)
//! title = "Pair swap"
//! task = """Every lane swaps its value with its neighbour's: out[i] = in[i ^ 1]."""
//! hint = """A butterfly shuffle of distance 1."""
//! reference = "pair_swap"          # a shipped program; or `reference_source = """…"""`
//! compare = ["out"]                # the buffers compared (the others are inputs)
//! warp_sizes = [4, 8, 32]          # optional (default 4, 8, 32)
//! random_inputs = true             # optional: after the declared inputs, seeded random ones (default true)
//! [[launch]]                       # optional (default: the program's own launch)
//! params = { warps = 2 }
//! stub = """ … """
//! ```

use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use warpsim::{Checks, Config, Contents, Dim3, Event, Launch, Machine, RunOptions, Schedule, TraceBuffer};
use warpsim_isa::{ElemTy, Program, Scheduling, Value};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/puzzles.rs"));
}

/// A launch the answer is checked under: grid and block in x, and parameter values.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaunchSpec {
    pub grid: Option<u32>,
    pub block: Option<u32>,
    #[serde(default)]
    pub params: BTreeMap<String, f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// The place in the list (lower first; then by name): the teaching order.
    level: Option<u32>,
    title: String,
    task: String,
    hint: String,
    stub: String,
    reference: Option<String>,
    reference_source: Option<String>,
    compare: Vec<String>,
    warp_sizes: Option<Vec<u32>>,
    random_inputs: Option<bool>,
    #[serde(default)]
    launch: Vec<LaunchSpec>,
}

/// A puzzle: what the learner sees (title, task, hint, stub) and what the checker uses.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub name: String,
    pub level: u32,
    pub title: String,
    pub task: String,
    pub hint: String,
    pub stub: String,
    /// The reference program's text (hidden from the learner: `show` never prints it).
    reference: String,
    pub compare: Vec<String>,
    pub warp_sizes: Vec<u32>,
    pub random_inputs: bool,
    pub launches: Vec<LaunchSpec>,
}

/// The shipped puzzles (every file of `programs/puzzles/`), by level, then name; or what is wrong with the first
/// file that is not a puzzle (a teacher's new file, built in: its name, the TOML place or the reason).
pub fn shipped() -> Result<Vec<Puzzle>, String> {
    let mut all = embedded::PUZZLES
        .iter()
        .map(|(name, text)| parse(name, text).map_err(|e| format!("programs/puzzles/{name}.toml: {e}")))
        .collect::<Result<Vec<Puzzle>, String>>()?;
    all.sort_by(|a, b| (a.level, &a.name).cmp(&(b.level, &b.name)));
    Ok(all)
}

/// The shipped puzzle `name` (`None`: no such puzzle), or what is wrong with the shipped files.
pub fn find(name: &str) -> Result<Option<Puzzle>, String> {
    Ok(shipped()?.into_iter().find(|p| p.name == name))
}

/// A puzzle file's text, named `name` in messages; the error says what is wrong, with the TOML parser's line and
/// column.
pub fn parse(name: &str, text: &str) -> Result<Puzzle, String> {
    let f: File = toml::from_str(text).map_err(|e| format!("{name}: {}", e.to_string().trim_end()))?;
    let reference = match (f.reference, f.reference_source) {
        (Some(program), None) => warpsim::programs::source(&program).map(str::to_string).ok_or_else(|| {
            format!("{name}: `reference = \"{program}\"` names no shipped program (`sim list` lists them)")
        })?,
        (None, Some(text)) => text,
        _ => {
            return Err(format!(
                "{name}: give the reference as `reference = \"PROGRAM\"` or `reference_source = \"\"\"…\"\"\"` (one of them)"
            ));
        }
    };
    let warp_sizes = f.warp_sizes.unwrap_or_else(|| vec![4, 8, 32]);
    if let Some(w) = warp_sizes
        .iter()
        .find(|w| !w.is_power_of_two() || !(2..=64).contains(*w))
    {
        return Err(format!("{name}: warp size {w} is not a power of two from 2 to 64"));
    }
    if f.compare.is_empty() {
        return Err(format!("{name}: `compare` names no buffer"));
    }
    let p = Puzzle {
        name: name.to_string(),
        level: f.level.unwrap_or(100),
        title: f.title,
        task: f.task.trim().to_string(),
        hint: f.hint.trim().to_string(),
        stub: f.stub,
        reference,
        compare: f.compare,
        warp_sizes,
        random_inputs: f.random_inputs.unwrap_or(true),
        launches: if f.launch.is_empty() {
            vec![LaunchSpec::default()]
        } else {
            f.launch
        },
    };
    // The reference must assemble and declare the compared buffers; the stub must assemble.
    let reference = p.reference_program()?;
    for b in &p.compare {
        if !reference.buffers.iter().any(|d| &d.name == b) {
            return Err(format!("{name}: the reference has no buffer `{b}` to compare"));
        }
    }
    assemble(&format!("{name} (stub)"), &p.stub).map_err(|e| format!("{name}: the stub does not assemble:\n{e}"))?;
    Ok(p)
}

fn assemble(label: &str, text: &str) -> Result<Program, String> {
    warpsim_isa::parse(label, text, &warpsim::programs::Resolver).map_err(|e| e.render(false))
}

impl Puzzle {
    fn reference_program(&self) -> Result<Program, String> {
        assemble(&format!("{} (reference)", self.name), &self.reference)
            .map_err(|e| format!("{}: the reference does not assemble:\n{e}", self.name))
    }

    /// The file a learner starts from: the task (and the hint, when asked for) as comments, then the stub.
    pub fn starting_file(&self, hint: bool) -> String {
        let mut out = format!("// Puzzle: {} ({})\n//\n", self.title, self.name);
        for line in self.task.lines() {
            let _ = writeln!(out, "// {line}");
        }
        if hint {
            out.push_str("//\n");
            for (k, line) in self.hint.lines().enumerate() {
                let _ = writeln!(out, "// {}{line}", if k == 0 { "Hint: " } else { "" });
            }
        }
        let _ = writeln!(
            out,
            "//\n// Check it: sim puzzle check {} FILE (warp sizes {}; every schedule; --check all)\n",
            self.name,
            self.warp_sizes
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        out.push_str(self.stub.trim_start_matches('\n'));
        out
    }
}

/// One configuration the answer runs under.
#[derive(Clone, Debug)]
pub struct Setting {
    pub warp_size: u32,
    pub launch: usize,
    pub schedule: Schedule,
    pub scheduling: Scheduling,
    /// Inputs: `None` the programs' declared initialisers, else this random seed.
    pub inputs: Option<u64>,
}

impl Setting {
    /// `W=8, launch 2 (grid 3), random schedule (seed 1), its, random inputs (seed 5)`.
    pub fn describe(&self, p: &Puzzle) -> String {
        let l = &p.launches[self.launch];
        let mut launch = Vec::new();
        if let Some(g) = l.grid {
            launch.push(format!("grid {g}"));
        }
        if let Some(b) = l.block {
            launch.push(format!("block {b}"));
        }
        launch.extend(l.params.iter().map(|(k, v)| format!("{k}={v}")));
        let schedule = match self.schedule {
            Schedule::Policy => "the default schedule".to_string(),
            Schedule::Reverse => "the reverse schedule".to_string(),
            Schedule::Random { seed } => format!("a random schedule (seed {seed})"),
        };
        format!(
            "W={}{}, {schedule}, {} scheduling, {}",
            self.warp_size,
            if launch.is_empty() {
                String::new()
            } else {
                format!(", {}", launch.join(", "))
            },
            self.scheduling.name(),
            match self.inputs {
                None => "the declared inputs".to_string(),
                Some(s) => format!("random inputs (seed {s})"),
            }
        )
    }
}

/// Why an answer failed.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The configuration, in words.
    pub setting: String,
    /// What went wrong, rendered (a fault, the sanitizers' findings, or the first wrong value).
    pub message: String,
    /// For a wrong value: where the answer's lane grid first departs from the reference's.
    pub departure: Option<String>,
}

/// The checker's verdict.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// Configurations run (all of them when the answer passes).
    pub runs: usize,
    pub failure: Option<Failure>,
}

impl Verdict {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// Every setting of `p`, in the order they are checked: for each warp size and launch, the declared inputs under the
/// default schedule first, then random inputs, under the default, reverse and two random schedules, each in lockstep
/// and with independent thread scheduling.
pub fn settings(p: &Puzzle) -> Vec<Setting> {
    let schedules = [
        Schedule::Policy,
        Schedule::Reverse,
        Schedule::Random { seed: 1 },
        Schedule::Random { seed: 2 },
    ];
    let mut out = Vec::new();
    for &warp_size in &p.warp_sizes {
        for launch in 0..p.launches.len() {
            for (k, &schedule) in schedules.iter().enumerate() {
                for scheduling in [Scheduling::Lockstep, Scheduling::Its] {
                    let inputs = (p.random_inputs && k > 0)
                        .then(|| u64::from(warp_size) * 1000 + (launch as u64) * 10 + k as u64);
                    out.push(Setting {
                        warp_size,
                        launch,
                        schedule,
                        scheduling,
                        inputs,
                    });
                }
            }
        }
    }
    out
}

/// SplitMix64: the random inputs' stream.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `len` random elements of `elem` as buffer words: small integers (exact in any order of summation), non-negative
/// for unsigned types.
fn random_words(elem: ElemTy, len: usize, seed: u64) -> Vec<u32> {
    let mut s = seed;
    let mut out = Vec::with_capacity(len * elem.words());
    for _ in 0..len {
        #[allow(clippy::cast_possible_wrap, reason = "below 64")]
        let r = (splitmix(&mut s) % 64) as i64;
        let signed = r - 32;
        let bits: u64 = match elem {
            ElemTy::U32 | ElemTy::U64 => r.cast_unsigned(),
            ElemTy::S32 => u64::from(i32::try_from(signed).unwrap_or(0).cast_unsigned()),
            ElemTy::S64 => signed.cast_unsigned(),
            #[allow(clippy::cast_precision_loss, reason = "below 64 in magnitude")]
            ElemTy::F32 => u64::from((signed as f32).to_bits()),
            #[allow(clippy::cast_precision_loss, reason = "below 64 in magnitude")]
            ElemTy::F64 => (signed as f64).to_bits(),
        };
        #[allow(clippy::cast_possible_truncation, reason = "the low and high words")]
        {
            out.push(bits as u32);
            if elem.words() == 2 {
                out.push((bits >> 32) as u32);
            }
        }
    }
    out
}

fn launch_of(spec: &LaunchSpec, contents: Vec<Contents>) -> Launch {
    Launch {
        grid: spec.grid.map(|g| Dim3::new(g, 1, 1)),
        block: spec.block.map(|b| Dim3::new(b, 1, 1)),
        set: spec
            .params
            .iter()
            .map(|(k, &v)| {
                #[allow(clippy::cast_possible_truncation, reason = "an integral value in range")]
                let v = if v.fract() == 0.0 && v.abs() < 9e15 {
                    Value::Int(v as i64)
                } else {
                    Value::Float(v)
                };
                (k.clone(), v)
            })
            .collect(),
        dynamic_shared: None,
        contents,
    }
}

/// Check `answer` against puzzle `p` (`threads`: host threads for each run; results do not depend on it). The
/// error is a problem with the puzzle itself (its reference faults).
pub fn check(p: &Puzzle, answer: &Program, threads: usize) -> Result<Verdict, String> {
    let reference = p.reference_program()?;
    let all = settings(p);
    for (k, s) in all.iter().enumerate() {
        if let Some(failure) = check_one(p, &reference, answer, s, threads)? {
            return Ok(Verdict {
                runs: k + 1,
                failure: Some(failure),
            });
        }
    }
    Ok(Verdict {
        runs: all.len(),
        failure: None,
    })
}

fn check_one(
    p: &Puzzle,
    reference: &Program,
    answer: &Program,
    s: &Setting,
    threads: usize,
) -> Result<Option<Failure>, String> {
    let setting = s.describe(p);
    let fail = |message: String| Failure {
        setting: setting.clone(),
        message,
        departure: None,
    };
    let machine = Machine::new(Config::hopper().with_warp_size(s.warp_size))?;
    let spec = &p.launches[s.launch];
    // The reference's inputs: its initialisers, or random words of its input buffers' sizes.
    let mut kernel = machine.load(reference, &launch_of(spec, Vec::new())).map_err(|e| {
        format!(
            "{}: the reference cannot launch under {setting}:\n{}",
            p.name,
            e.render(reference, false)
        )
    })?;
    let inputs: Vec<Contents> = kernel
        .buffers
        .iter()
        .enumerate()
        .filter(|(_, b)| !p.compare.contains(&b.name))
        .map(|(k, b)| Contents {
            buffer: b.name.clone(),
            data: match s.inputs {
                Some(seed) => random_words(b.elem, b.len(), seed.wrapping_mul(31).wrapping_add(k as u64)),
                None => b.data.clone(),
            },
            origin: "the puzzle's inputs".into(),
        })
        .collect();
    if s.inputs.is_some() {
        kernel = machine
            .load(reference, &launch_of(spec, inputs.clone()))
            .map_err(|e| e.render(reference, false))?;
    }
    let plain = RunOptions {
        threads,
        ..RunOptions::default()
    };
    let want = machine.run(&kernel, &plain, &mut warpsim::NoTrace).map_err(|f| {
        format!(
            "{}: the reference faults under {setting}:\n{}",
            p.name,
            f.render(&kernel, false)
        )
    })?;
    // The answer: the same inputs (its own initialisers are not used), every check, the setting's schedule.
    for name in &p.compare {
        let theirs = kernel
            .buffers
            .iter()
            .find(|b| &b.name == name)
            .expect("checked at parse");
        match answer.buffers.iter().find(|b| &b.name == name) {
            None => {
                return Ok(Some(fail(format!(
                    "the answer has no buffer `{name}` (declare it as the stub does)"
                ))));
            }
            Some(b) if b.elem != theirs.elem => {
                return Ok(Some(fail(format!(
                    "buffer `{name}` holds {} in the answer, {} in the puzzle",
                    b.elem.name(),
                    theirs.elem.name()
                ))));
            }
            Some(_) => {}
        }
    }
    let mut given = Vec::new();
    for c in &inputs {
        if answer.buffers.iter().any(|b| b.name == c.buffer) {
            given.push(c.clone());
        }
    }
    let mine = match machine.load(answer, &launch_of(spec, given)) {
        Ok(k) => k,
        Err(e) => return Ok(Some(fail(e.render(answer, false)))),
    };
    let options = RunOptions {
        threads,
        checks: Checks::all(),
        schedule: s.schedule,
        scheduling: Some(s.scheduling),
        ..RunOptions::default()
    };
    let got = match machine.run(&mine, &options, &mut warpsim::NoTrace) {
        Ok(out) => out,
        Err(fault) => return Ok(Some(fail(fault.report(&mine, false)))),
    };
    if !got.findings.is_empty() {
        let m: String = got.findings.iter().map(|f| f.render(&mine, false) + "\n").collect();
        return Ok(Some(fail(format!(
            "{m}the sanitizers (--check all) found {} problem(s)",
            got.findings.len()
        ))));
    }
    for name in &p.compare {
        let (a, b) = (
            want.buffer(name).expect("the reference's"),
            got.buffer(name).expect("checked above"),
        );
        if a.len() != b.len() {
            return Ok(Some(fail(format!(
                "buffer `{name}` has {} elements in the answer, {} in the puzzle",
                b.len(),
                a.len()
            ))));
        }
        if let Some(k) = (0..a.len()).find(|&k| a.element(k) != b.element(k)) {
            let wrong = (0..a.len()).filter(|&k| a.element(k) != b.element(k)).count();
            let message = format!(
                "`{name}[{k}]` is {} where the reference gives {} ({wrong} of {} elements differ)",
                warpsim::render::elem_value(a.elem, b.element(k)),
                warpsim::render::elem_value(a.elem, a.element(k)),
                a.len()
            );
            let departure = departure(&machine, &kernel, &mine, a.elem, threads);
            return Ok(Some(Failure {
                setting,
                message,
                departure,
            }));
        }
    }
    Ok(None)
}

/// The exchange steps (shuffles) of block 0's warp 0: each one's instruction text and every executing lane's
/// received value.
fn steps(machine: &Machine, kernel: &warpsim::Kernel, threads: usize) -> Vec<(String, u64, Vec<u64>)> {
    let mut trace = TraceBuffer::with_limit(200_000);
    let options = RunOptions {
        threads,
        ..RunOptions::default()
    };
    let _ = machine.run(kernel, &options, &mut trace);
    trace
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Issue(i) if i.block == 0 && i.warp == 0 && i.shuffle.is_some() => {
                let values = i.write.as_ref().map(|(_, v)| v.clone()).unwrap_or_default();
                let text = kernel.program.instructions[i.pc as usize].text.clone();
                Some((text, i.exec, values))
            }
            _ => None,
        })
        .collect()
}

/// Where the answer's lane grid first departs from the reference's: the first shuffle step of block 0's warp 0
/// at which a lane receives another value (or that one of them lacks), run under the default schedule. Values are
/// shown as `elem`s, the compared buffer's type.
fn departure(
    machine: &Machine,
    reference: &warpsim::Kernel,
    answer: &warpsim::Kernel,
    elem: ElemTy,
    threads: usize,
) -> Option<String> {
    let want = steps(machine, reference, threads);
    let got = steps(machine, answer, threads);
    let elem = |bits: u64| warpsim::render::elem_value(elem, bits);
    for k in 0..want.len().max(got.len()) {
        match (want.get(k), got.get(k)) {
            (Some((wt, wm, wv)), Some((gt, gm, gv))) => {
                for lane in 0..wv.len().max(gv.len()) {
                    let w = (wm >> lane & 1 == 1).then(|| wv.get(lane)).flatten();
                    let g = (gm >> lane & 1 == 1).then(|| gv.get(lane)).flatten();
                    if w != g {
                        let show = |v: Option<&u64>| {
                            v.map_or("nothing (the lane does not execute it)".to_string(), |&b| elem(b))
                        };
                        return Some(format!(
                            "exchange step {} of block 0, warp 0: lane {lane} receives {} from `{gt}`; the reference's step {} (`{wt}`) gives it {}",
                            k + 1,
                            show(g),
                            k + 1,
                            show(w)
                        ));
                    }
                }
            }
            (Some((wt, _, _)), None) => {
                return Some(format!(
                    "the answer's warp 0 of block 0 makes {} exchange step{}; the reference makes a step {} (`{wt}`)",
                    got.len(),
                    if got.len() == 1 { "" } else { "s" },
                    k + 1
                ));
            }
            (None, Some((gt, _, _))) => {
                return Some(format!(
                    "the answer's warp 0 of block 0 makes an exchange step {} (`{gt}`) that the reference does not ({} steps)",
                    k + 1,
                    want.len()
                ));
            }
            (None, None) => {}
        }
    }
    None
}
