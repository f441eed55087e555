//! The fuzzers' findings and the fuzzers' properties, in the ordinary test suite.
//!
//! - Every input the fuzzers (`fuzz/`) found a bug with is kept in `fuzz/regressions/<target>/` and goes through
//!   the very harness the fuzz target runs (`warpsim_tests::fuzzing`): it must give an error or a result, not a
//!   panic, and the outcome recorded below.
//! - Short property tests: arbitrary bytes, and arbitrary lines of the assembly's own tokens, never make the
//!   assembler panic, and whatever assembles prints and assembles again to the same program (the harness asserts
//!   it).
//! - The `generated` target: any bytes choose a program of the random-program generator, which runs.
//! - `replay_corpora` (ignored: slow in a debug build) runs the committed corpora, `fuzz/corpus/<target>/`:
//!   `cargo test -p warpsim-tests --release --test fuzz_regressions -- --ignored`.

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use warpsim_tests::fuzzing::{self, Outcome};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// The files of `fuzz/<kind>/<target>/`, sorted.
fn inputs(kind: &str, target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = fuzz_dir().join(kind).join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (name, bytes)
        })
        .collect();
    files.sort();
    files
}

/// What each kept input of the parse target must give: a substring of the rendered error, or "" where it
/// assembles.
const PARSE: &[(&str, &str)] = &[
    // annotate-snippets counted each tab as four columns of indentation but none under the line, and panicked
    // on a long line (`attempt to subtract with overflow`); the caret was also misplaced after tabs.
    (
        "tabs-in-indentation-of-a-long-line",
        "2 | ...   mov.u32 %a, %nope // xxx",
    ),
    // The same with spaces the assembler does not take (line separator, no-break): now shown as `␣`.
    (
        "unicode-spaces-in-indentation-of-a-long-line",
        "unexpected character `\\u{2028}`\n --> fuzz.s:2:1",
    ),
    // `i%n` reads as `i % n`, but `2 %ntid.x` took a dotted name, which prints as `2 % ntid.x` and does not
    // assemble again (found by `token_lines_never_panic_and_print_back`).
    (
        "percent-then-dotted-name-in-an-expression",
        "expected a value, found `ntid.x`",
    ),
];

/// What each kept input of the run target must give: the outcome's kind and a substring of its message.
const RUN: &[(&str, &str, &str)] = &[
    // The run target's find, kept as found (an edited `conditional_max`): the annotate-snippets panic, under a
    // line indented with tabs and longer than the terminal. (Other changes to the assembler's diagnostics since
    // have moved the errors it gets off that line; the parse regression of the same name is the reproducer.)
    (
        "tabs-in-indentation-of-a-long-line",
        "assemble",
        "unexpected character `\\'`",
    ),
];

fn outcome_kind(o: &Outcome) -> (&'static str, &str) {
    match o {
        Outcome::Empty => ("empty", ""),
        Outcome::Assemble(m) => ("assemble", m),
        Outcome::Load(m) => ("load", m),
        Outcome::Fault(m) => ("fault", m),
        Outcome::Done { .. } => ("done", ""),
    }
}

#[test]
fn parse_regressions() {
    let files = inputs("regressions", "parse");
    for (name, bytes) in &files {
        let Some((_, expected)) = PARSE.iter().find(|(n, _)| n == name) else {
            panic!("fuzz/regressions/parse/{name} has no expected outcome in PARSE");
        };
        match fuzzing::parse(bytes) {
            Ok(_) => assert!(
                expected.is_empty(),
                "{name}: assembles; expected an error with `{expected}`"
            ),
            Err(e) => assert!(
                !expected.is_empty() && e.contains(expected),
                "{name}: expected `{expected}`, got:\n{e}"
            ),
        }
    }
    assert_eq!(files.len(), PARSE.len(), "every entry of PARSE has its file");
}

#[test]
fn run_regressions() {
    let files = inputs("regressions", "run");
    for (name, bytes) in &files {
        let Some((_, kind, expected)) = RUN.iter().find(|(n, ..)| n == name) else {
            panic!("fuzz/regressions/run/{name} has no expected outcome in RUN");
        };
        let outcome = fuzzing::run(bytes);
        let (got, message) = outcome_kind(&outcome);
        assert!(
            got == *kind && message.contains(expected),
            "{name}: expected {kind} with `{expected}`, got {outcome:?}"
        );
    }
    assert_eq!(files.len(), RUN.len(), "every entry of RUN has its file");
}

/// A span at the start of a line (the line limit's error) on a long indented line: annotate-snippets panicked on a
/// span left of the indentation (`attempt to subtract with overflow`); it now points at the line's text. (Made
/// here, not kept as a file: a megabyte of newlines.)
#[test]
fn line_limit_on_a_long_indented_line() {
    let text = format!(
        "{}{}mov.u32 %a, 1 // {}\n",
        "\n".repeat(1 << 20),
        " ".repeat(40),
        "x".repeat(300)
    );
    let e = fuzzing::parse(text.as_bytes()).unwrap_err();
    assert!(e.contains("the program has more than 1048576 source lines"), "{e}");
    assert!(e.contains("--> fuzz.s:1048577:41"), "{e}");
}

#[test]
#[ignore = "slow in a debug build: run with --release -- --ignored"]
fn replay_corpora() {
    let parse = inputs("corpus", "parse");
    let run = inputs("corpus", "run");
    assert!(!parse.is_empty() && !run.is_empty(), "the corpora are in fuzz/corpus/");
    for (_, bytes) in &parse {
        let _ = fuzzing::parse(bytes);
    }
    for (_, bytes) in &run {
        let _ = fuzzing::run(bytes);
    }
    for (_, bytes) in &inputs("corpus", "ptx") {
        let _ = fuzzing::ptx(bytes);
    }
}

/// Mnemonics with their suffixes (and a macro of `warp.s`).
const INSTRUCTIONS: &[&str] = &[
    "mov.u32",
    "mov.b32",
    "add.u32",
    "add.f32",
    "sub.s32",
    "mul.lo.u32",
    "mad.lo.u32",
    "div.u32",
    "rem.s32",
    "min.f32",
    "max.u32",
    "neg.s32",
    "abs.f32",
    "not.b32",
    "and.b32",
    "or.b32",
    "xor.b32",
    "shl.b32",
    "shr.u32",
    "shr.s32",
    "fma.rn.f32",
    "setp.lt.u32",
    "setp.eq.s32",
    "setp.ne.f32",
    "selp.u32",
    "cvt.f32.u32",
    "cvt.rzi.s32.f32",
    "ld.global.u32",
    "ld.shared.f32",
    "st.global.u32",
    "st.shared.u32",
    "shfl.sync.bfly.b32",
    "shfl.sync.down.b32",
    "shfl.sync.up.b32",
    "shfl.sync.idx.b32",
    "bra",
    "bra.uni",
    "exit",
    "nop",
    "atom.global.add.u32",
    "atom.shared.cas.b32",
    "red.global.add.u32",
    "bar.sync",
    "bar.red.popc.u32",
    "barrier.sync",
    "vote.sync.ballot.b32",
    "vote.sync.any.pred",
    "activemask.b32",
    "match.any.sync.b32",
    "bfly_sum_u32",
];

/// Registers (declared by [`HEADER`] or special), memory operands, numbers and expressions.
const OPERANDS: &[&str] = &[
    "%a",
    "%b",
    "%c",
    "%p",
    "%q",
    "@%p",
    "@!%q",
    "%laneid",
    "%tid.x",
    "%ctaid.x",
    "%ntid.x",
    "%warpid",
    "%nwarpid",
    "%clock",
    "out",
    "out[%a]",
    "out[%a + 4]",
    "sh[%b]",
    "0",
    "1",
    "-1",
    "31",
    "0x10",
    "0xffffffff",
    "4294967296",
    "1.5",
    "-0.0",
    "1e39",
    "W",
    "n",
    "i",
    "len",
    "(W / 2)",
    "(n - 1) * W",
    "min(W, 4)",
    "1 << 40",
    "n % 0",
];

/// Directives and their arguments, labels, macro parameters, punctuation.
const OTHER: &[&str] = &[
    ".kernel",
    ".desc",
    ".warp_sizes",
    ".grid",
    ".block",
    ".param",
    ".buffer",
    ".shared",
    ".require",
    ".reg",
    ".pred",
    ".macro",
    ".endm",
    ".include",
    "\"warp.s\"",
    "\"fuzz.s\"",
    "\"a message\"",
    "u32",
    "f32",
    "s32",
    "u32[W]",
    "f32[n]",
    "[]",
    "2..64",
    "= i",
    "= { 0: 1 }",
    "top:",
    "top",
    "m",
    "\\x",
    "x",
    ",",
    ":",
    "=",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "+",
    "-",
    "*",
    "/",
    "%",
    "..",
    "//",
    "\"",
    "\\",
    "\t",
    "é",
];

/// Declarations that make the token lines' registers, predicates, buffers and parameter exist, so that those
/// lines reach the instruction checks.
const HEADER: &str = ".kernel k\n.param n = 4\n.buffer out u32[W]\n.shared sh u32[W]\n.reg %a, %b, %c\n.pred %p, %q\n";

/// Lines that assemble after [`HEADER`].
const GOOD_LINES: &[&str] = &[
    "top:",
    "mov.u32 %a, %laneid",
    "add.u32 %a, %a, 1",
    "mad.lo.u32 %b, %ctaid.x, %ntid.x, %tid.x",
    "shfl.sync.bfly.b32 %b, %a, 1",
    "shfl.sync.down.b32 %c, %b, (W / 2)",
    "setp.lt.u32 %p, %a, W",
    "@%p bra top",
    "@!%q exit",
    "ld.global.u32 %c, out[%a]",
    "st.global.u32 out[%laneid], %c",
    "st.shared.u32 sh[%laneid], %b",
    "bar.sync 0",
    "cvt.f32.u32 %c, %a",
    "atom.global.add.u32 %b, out[0], 1",
    "vote.sync.ballot.b32 %a, %p",
    "bfly_sum_u32 %a, %b, %c, %p",
    ".include \"warp.s\"",
    ".param m = n * 2",
    ".buffer more f32[n] = i * 0.5",
    ".grid 2",
    ".block 2 * W",
];

/// A line that assembles, or one with a token replaced, inserted or dropped; an instruction as it is written (a
/// mnemonic, then operands separated by commas); or any run of tokens.
fn token_line() -> impl Strategy<Value = String> {
    let tokens: Vec<&str> = [INSTRUCTIONS, OPERANDS, OTHER].concat();
    let good = prop::sample::select(GOOD_LINES).prop_map(str::to_string);
    let edited = (
        prop::sample::select(GOOD_LINES),
        any::<prop::sample::Index>(),
        prop::sample::select(tokens.clone()),
        0..3u8,
    )
        .prop_map(|(line, at, token, how)| {
            let mut words: Vec<&str> = line.split(' ').collect();
            let i = at.index(words.len());
            match how {
                0 => words[i] = token,
                1 => words.insert(i, token),
                _ => drop(words.remove(i)),
            }
            words.join(" ")
        });
    let soup = prop::collection::vec(prop::sample::select(tokens), 0..7).prop_map(|t| t.join(" "));
    let instruction = (
        prop::sample::select(INSTRUCTIONS),
        prop::collection::vec(prop::sample::select(OPERANDS), 0..4),
    )
        .prop_map(|(m, ops)| format!("{m} {}", ops.join(", ")));
    prop_oneof![6 => good, 2 => edited, 1 => instruction, 1 => soup]
}

fn token_program() -> impl Strategy<Value = String> {
    let line = token_line();
    (any::<bool>(), prop::collection::vec(line, 0..8)).prop_map(|(header, lines)| {
        let body = lines.join("\n");
        if header { format!("{HEADER}{body}\n") } else { body }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn bytes_never_panic_the_assembler(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = fuzzing::parse(&bytes);
    }

    #[test]
    fn token_lines_never_panic_and_print_back(text in token_program()) {
        let _ = fuzzing::parse(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// The `generated` target: any bytes are a program that assembles, launches and runs (or faults) without a
    /// panic.
    #[test]
    fn generated_programs_run_from_any_bytes(bytes in prop::collection::vec(any::<u8>(), 1..2048)) {
        let outcome = fuzzing::generated(&bytes);
        prop_assert!(matches!(outcome, Outcome::Done { .. } | Outcome::Fault(_)), "{:?}", outcome);
    }
}

/// The `generated` target's bytes choose the program: the same bytes give the same program, other bytes another,
/// and a byte of machine and nothing else is still a program that runs.
#[test]
fn generated_inputs_are_programs() {
    use warpsim_tools::random::{Target, from_bytes};
    let bytes: Vec<u8> = (0..600u32).map(|k| (k * 37 % 251) as u8).collect();
    assert_eq!(
        from_bytes(Target::Reference, &bytes).source(),
        from_bytes(Target::Reference, &bytes).source()
    );
    assert_ne!(
        from_bytes(Target::Reference, &bytes).source(),
        from_bytes(Target::Reference, &bytes[1..]).source()
    );
    for input in [&[0u8][..], &[0x5f], &bytes] {
        let outcome = fuzzing::generated(input);
        assert!(
            matches!(outcome, Outcome::Done { .. } | Outcome::Fault(_)),
            "{outcome:?}"
        );
    }
}

/// The token programs' header is valid, so the token lines after it reach the instruction checks.
#[test]
fn header_assembles() {
    let text = format!("{HEADER}mov.u32 %a, %laneid\nshfl.sync.bfly.b32 %b, %a, 1\n@%p st.global.u32 out[%a], %b\n");
    if let Err(e) = fuzzing::parse(text.as_bytes()) {
        panic!("{e}");
    }
}

/// Every shipped program goes through both harnesses: it assembles and prints back, and runs to the end at
/// W = 32 on one SM (first byte 4) within the fuzzers' limits.
#[test]
fn shipped_programs_pass_the_harness() {
    for name in warpsim::programs::names() {
        let text = warpsim::programs::source(name).unwrap();
        if let Err(e) = fuzzing::parse(text.as_bytes()) {
            panic!("{name}: {e}");
        }
        let input = [&[4u8][..], text.as_bytes()].concat();
        let outcome = fuzzing::run(&input);
        assert!(matches!(outcome, Outcome::Done { .. }), "{name}: {outcome:?}");
    }
}
