//! The fuzzers' harness: what `fuzz/fuzz_targets/{parse,run,generated}.rs` do with each input, here so that the
//! regression tests (`tests/fuzz_regressions.rs`) and the property tests run the very same code.
//!
//! A panic anywhere below is a bug ("no panic on user input"); so is a run that does not stay small. The
//! harness's own checks are assertions: a program that assembles must print to text that assembles again, to an
//! equivalent program, and printing is a fixed point.

use warpsim::render::text;
use warpsim::{Checks, Config, Launch, Limits, RunOptions, Schedule, SchedulerPolicy, TraceBuffer, programs};
use warpsim_isa::{Program, SourceFile};

/// The name the fuzzed source goes by (in diagnostics, and the program's name when it has no `.kernel`).
pub const NAME: &str = "fuzz.s";

/// The warp sizes the run target picks from.
pub const WARP_SIZES: [u32; 6] = [2, 4, 8, 16, 32, 64];

/// A run's cycle limit: enough for the shipped programs' default launches, small enough for thousands of runs a
/// second.
pub const MAX_CYCLES: u64 = 20_000;

/// Elements of global memory a fuzzed launch may declare, in all ([`Limits::buffer_elements`]).
pub const MAX_BUFFER_ELEMENTS: u64 = 1 << 16;

/// Trace events kept when a run is traced ([`TraceBuffer::with_limit`]); the text trace is rendered from them.
pub const MAX_TRACE_EVENTS: usize = 2_000;

/// Bytes → text as the CLI reads a file ([`warpsim_isa::decode_source`]: size limit, byte-order mark, UTF-8).
/// Bytes that are not UTF-8 are assembled anyway, with replacement characters, so that the assembler sees them.
pub fn source_text(bytes: &[u8]) -> String {
    match warpsim_isa::decode_source(NAME, bytes.to_vec()) {
        Ok(text) => text,
        Err(message) => {
            assert!(!message.contains('\n'), "a read error is one line: {message}");
            String::from_utf8_lossy(bytes).into_owned()
        }
    }
}

/// Assemble `text` as a shipped file would be: its `.include`s resolve among the shipped files only (never on
/// disk), so `.include "warp.s"` works and nothing else is read.
pub fn assemble_text(text: &str) -> Result<Program, String> {
    warpsim_isa::parse_file(SourceFile::embedded(NAME, text), &programs::Resolver).map_err(|e| {
        let rendered = e.render(false);
        assert!(!e.diagnostics.is_empty(), "an assembly error has a diagnostic");
        rendered
    })
}

/// The `parse` target: bytes → text → program; a program prints, and the printed text assembles to an
/// equivalent program that prints the same. Returns the program, or the rendered diagnostics.
pub fn parse(bytes: &[u8]) -> Result<Program, String> {
    let program = assemble_text(&source_text(bytes))?;
    let printed = warpsim_isa::print(&program);
    let again = assemble_text(&printed)
        .unwrap_or_else(|e| panic!("the printed program does not assemble:\n{e}\nprinted:\n{printed}"));
    assert!(program.equivalent(&again), "the printed program differs:\n{printed}");
    let reprinted = warpsim_isa::print(&again);
    assert_eq!(printed, reprinted, "printing is not a fixed point");
    Ok(program)
}

/// The `ptx` target: bytes → text (as the CLI reads a file) → the PTX parser (`warpsim_isa::ptx`). Every span of a
/// module it returns lies in the text; an error is one diagnostic whose span lies in the text, and it renders.
/// Then every kernel is described (`ptx::describe`), lowered with placeholder arguments (`ptx::lower`: a program,
/// or an error that renders), and a lowered program loaded and run for at most 2,000 cycles (a fault is fine, a
/// panic is not). Returns the module, or the rendered error.
pub fn ptx(bytes: &[u8]) -> Result<warpsim_isa::ptx::Module, String> {
    let text = source_text(bytes);
    let inside = |span: warpsim_isa::Span| span.start <= span.end && span.end as usize <= text.len();
    match warpsim_isa::ptx::parse(NAME_PTX, &text) {
        Ok((module, sources)) => {
            for f in module.functions() {
                assert!(inside(f.span) && inside(f.name.span), "{f:?}");
                let Some(body) = &f.body else { continue };
                for i in body.instructions() {
                    assert!(inside(i.span) && inside(i.opcode_span), "{i:?}");
                    assert!(i.operands.iter().all(|o| inside(o.span)), "{i:?}");
                }
            }
            for f in module.entries().filter(|f| f.body.is_some()) {
                let _ = warpsim_isa::ptx::describe(&module, f, &|_| None);
                let bindings = warpsim_isa::ptx::placeholder_bindings(f);
                match warpsim_isa::ptx::lower(&module, &sources, f, &bindings, &|_| None) {
                    Ok(program) => run_lowered(&program),
                    Err(d) => {
                        assert!(inside(d.span), "{d:?}");
                        let _ = d.render(&sources, false);
                    }
                }
            }
            Ok(module)
        }
        Err(e) => {
            assert_eq!(e.diagnostics.len(), 1, "one error");
            assert!(inside(e.diagnostics[0].span), "{:?}", e.diagnostics[0]);
            let rendered = e.render(false);
            assert!(rendered.contains(&format!("--> {NAME_PTX}:")), "{rendered}");
            Err(rendered)
        }
    }
}

/// A lowered PTX kernel on one block of 32 threads, at most 2,000 cycles.
fn run_lowered(program: &warpsim_isa::Program) {
    let config = warpsim::Config::hopper().with_warp_size(32);
    let launch = warpsim::Launch {
        grid: Some(warpsim::Dim3::new(1, 1, 1)),
        block: Some(warpsim::Dim3::new(32, 1, 1)),
        dynamic_shared: Some(64),
        ..warpsim::Launch::default()
    };
    let kernel = match warpsim::instantiate(program, &config, &launch) {
        Ok(k) => k,
        Err(e) => {
            let _ = e.render(program, false);
            return;
        }
    };
    let options = warpsim::RunOptions {
        max_cycles: 2_000,
        threads: 1,
        ..warpsim::RunOptions::default()
    };
    if let Err(f) = warpsim::run(&kernel, &config, &options, &mut warpsim::NoTrace) {
        let _ = f.render(&kernel, false);
    }
}

/// The name the `ptx` target's source goes by.
pub const NAME_PTX: &str = "fuzz.ptx";

/// How the run target launches, from the input's first byte.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// Bits 0-2: the warp size ([`WARP_SIZES`], modulo 6).
    pub warp_size: u32,
    /// Bit 3: one SM or two.
    pub sms: u32,
    /// Bit 4: record and render the trace.
    pub trace: bool,
    /// Bit 5: loose round robin or greedy-then-oldest.
    pub policy: SchedulerPolicy,
    /// Bit 6: every sanitizer on (`--check all`), its findings rendered.
    pub checks: Checks,
    /// Bit 7: a random schedule, seeded with the byte (`--schedule random --seed B`).
    pub schedule: Schedule,
}

impl Machine {
    pub fn from_byte(b: u8) -> Machine {
        Machine {
            warp_size: WARP_SIZES[(b & 7) as usize % WARP_SIZES.len()],
            sms: 1 + u32::from((b >> 3) & 1),
            trace: b & 0x10 != 0,
            policy: if b & 0x20 != 0 {
                SchedulerPolicy::GreedyThenOldest
            } else {
                SchedulerPolicy::LooseRoundRobin
            },
            checks: if b & 0x40 != 0 {
                Checks::all()
            } else {
                Checks::default()
            },
            schedule: if b & 0x80 != 0 {
                Schedule::Random { seed: u64::from(b) }
            } else {
                Schedule::Policy
            },
        }
    }

    pub fn config(&self) -> Config {
        let mut config = Config::hopper().with_warp_size(self.warp_size);
        config.sms = self.sms;
        config.scheduler_policy = self.policy;
        config
    }
}

/// What became of one input of the run target. The strings are the rendered messages.
#[derive(Debug)]
pub enum Outcome {
    /// No input at all (the first byte picks the machine).
    Empty,
    Assemble(String),
    Load(String),
    Fault(String),
    Done {
        cycles: u64,
    },
}

/// The `run` target: the first byte picks the machine ([`Machine::from_byte`]), the rest is the program, which is
/// assembled ([`parse`]), instantiated within [`MAX_BUFFER_ELEMENTS`] and run for at most [`MAX_CYCLES`] on one
/// host thread, traced or not. Every message is rendered.
pub fn run(bytes: &[u8]) -> Outcome {
    let Some((&first, source)) = bytes.split_first() else {
        return Outcome::Empty;
    };
    run_on(&Machine::from_byte(first), source)
}

/// The `generated` target: the first byte picks the machine as for [`run`] (but for the warp size, which is the
/// program's), the rest choose a program of the random-program generator ([`warpsim_tools::random::from_bytes`], the
/// reference target, seeded with a hash of the bytes). Every input is thus a well-formed program, which must
/// assemble and launch: the fuzzer explores the simulator rather than the assembler's errors. A fault may
/// happen (the generator writes a few on purpose); a panic may not.
pub fn generated(bytes: &[u8]) -> Outcome {
    let Some((&first, choices)) = bytes.split_first() else {
        return Outcome::Empty;
    };
    let case = warpsim_tools::random::from_bytes(warpsim_tools::random::Target::Reference, choices);
    let mut machine = Machine::from_byte(first);
    machine.warp_size = case.w;
    let source = case.source();
    let outcome = run_on(&machine, source.as_bytes());
    assert!(
        !matches!(outcome, Outcome::Assemble(_) | Outcome::Load(_)),
        "a generated program does not run: {outcome:?}\n{source}"
    );
    outcome
}

fn run_on(machine: &Machine, source: &[u8]) -> Outcome {
    let program = match parse(source) {
        Ok(p) => p,
        Err(e) => return Outcome::Assemble(e),
    };
    let config = machine.config();
    let limits = Limits {
        buffer_elements: MAX_BUFFER_ELEMENTS,
    };
    let kernel = match warpsim::instantiate_with(&program, &config, &Launch::default(), &limits) {
        Ok(k) => k,
        Err(e) => return Outcome::Load(e.render(&program, false)),
    };
    let options = RunOptions {
        max_cycles: MAX_CYCLES,
        threads: 1,
        checks: machine.checks,
        schedule: machine.schedule,
        ..RunOptions::default()
    };
    let result = if machine.trace {
        let mut trace = TraceBuffer::with_limit(MAX_TRACE_EVENTS);
        let result = warpsim::run(&kernel, &config, &options, &mut trace);
        let _ = text::trace(&kernel, &trace.events, warpsim::render::MIN_WIDTH);
        let _ = warpsim::render::grid::grid(&kernel, &trace.events, warpsim::render::MIN_WIDTH);
        // The pictures too (a run up to its fault included): an error for a choice that draws nothing is
        // fine, a panic is not.
        let opts = warpsim::render::svg::SvgOptions {
            banks: config.shared_banks,
            ..Default::default()
        };
        let _ = warpsim::render::svg::diagram(&kernel, &trace.events, &opts);
        let outcome = match &result {
            Ok(out) => Ok(out.cycles),
            Err(f) => Err(f.message()),
        };
        let _ =
            warpsim::render::html::stepper(&kernel, &trace.events, outcome, trace.dropped, config.shared_banks, &[]);
        let _ = warpsim::render::chrome::chrome_trace(&kernel, &trace.events);
        result
    } else {
        warpsim::run(&kernel, &config, &options, &mut warpsim::NoTrace)
    };
    let findings = match &result {
        Ok(out) => &out.findings,
        Err(fault) => &fault.findings,
    };
    assert!(machine.checks.any() || findings.is_empty(), "findings without a check");
    for f in findings {
        assert!(
            (f.pc as usize) < kernel.program.instructions.len(),
            "a finding outside the program: {f:?}"
        );
        let _ = f.render(&kernel, false);
    }
    let _ = text::checks(machine.checks, findings);
    match result {
        Ok(out) => {
            let _ = text::summary(&out, warpsim::render::MIN_WIDTH);
            Outcome::Done { cycles: out.cycles }
        }
        Err(fault) => Outcome::Fault(fault.render(&kernel, false)),
    }
}
