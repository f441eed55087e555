//! Hostile input to `sim`: every bad input is answered by a clear error and exit status 2, every fault of the
//! simulated program by one and exit status 1; never a panic or a backtrace, never a hang, never a large
//! allocation before the input is checked, and never an output file left half-written.
//!
//! docs/errors.md shows what `sim` says to each case here: the tests check that it shows exactly that (the
//! first line of stderr, and the exit status), so the page cannot drift from the program.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// A folder of its own for each test, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("warpsim-hostile-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path(name);
        std::fs::write(&path, contents).expect("write input");
        path
    }

    /// A file of `bytes` bytes that takes no disk space (sparse).
    fn sparse(&self, name: &str, bytes: u64) -> PathBuf {
        let path = self.path(name);
        std::fs::File::create(&path)
            .and_then(|f| f.set_len(bytes))
            .expect("sparse file");
        path
    }

    /// Every file and folder under the scratch folder, hidden ones (temporary files) included.
    fn listing(&self) -> Vec<String> {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for e in entries.flatten() {
                let path = e.path();
                out.push(path.strip_prefix(base).unwrap_or(&path).display().to_string());
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    walk(&path, base, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.0, &self.0, &mut out);
        out.sort();
        out
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn command(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sim"));
    c.current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE");
    c
}

/// Run `sim ARGS` in `dir`: its output and how long it took.
fn sim_in(dir: &Path, args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let o = command(dir).args(args).output().expect("run sim");
    (o, start.elapsed())
}

/// Run `sim ARGS` in `dir` with its address space capped at 256 MiB (`ulimit -v`): an input refused before
/// anything large is allocated is answered as without the cap; one that allocates first aborts. None where
/// there is no `sh`, or it cannot cap memory.
fn sim_capped(dir: &Path, args: &[&str]) -> Option<Output> {
    let o = Command::new("sh")
        .current_dir(dir)
        .args([
            "-c",
            "ulimit -v 262144 2>/dev/null || exit 99; exec \"$@\"",
            "sh",
            env!("CARGO_BIN_EXE_sim"),
        ])
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .output()
        .ok()?;
    // 99: this shell cannot cap memory.
    (o.status.code() != Some(99)).then_some(o)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// docs/errors.md.
fn errors_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/errors.md");
    match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(_) if printing() => String::new(),
        Err(e) => panic!("docs/errors.md: {e}"),
    }
}

/// With `WARPSIM_PRINT_ERRORS` set, the tests print docs/errors.md's rows from what `sim` said, instead of
/// checking that the page shows it: `WARPSIM_PRINT_ERRORS=1 cargo test -p warpsim-cli hostile:: -- --nocapture
/// --test-threads 1`.
fn printing() -> bool {
    std::env::var_os("WARPSIM_PRINT_ERRORS").is_some()
}

/// A table row of docs/errors.md: the command, the first line of stderr, the exit status.
fn row(args: &[&str], first: &str, code: i32) -> String {
    let shell: Vec<String> = args
        .iter()
        .map(|a| {
            if a.is_empty() || a.contains([' ', '"', '\'', '|']) {
                format!("'{a}'")
            } else {
                a.to_string()
            }
        })
        .collect();
    format!("| `sim {}` | `` {first} `` | {code} |", shell.join(" "))
}

/// Checks that docs/errors.md shows `first`, or prints its row.
fn documented(docs: &str, args: &[&str], first: &str, code: i32) {
    if printing() {
        println!("{}", row(args, first, code));
    } else {
        assert!(
            docs.contains(first),
            "docs/errors.md does not show what `sim {}` says:\n{first}",
            args.join(" ")
        );
    }
}

/// One bad input: `sim ARGS`, the exit status, and the first line of stderr, exactly.
struct Case {
    args: &'static [&'static str],
    code: i32,
    first: &'static str,
}

const fn case(args: &'static [&'static str], code: i32, first: &'static str) -> Case {
    Case { args, code, first }
}

/// The promises every error keeps: the exit status, the first line, no panic or backtrace.
fn check(label: &str, o: &Output, code: i32, first: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{label}: exit status; stderr:\n{err}");
    let line = err.lines().next().unwrap_or("");
    match first.strip_suffix('…') {
        // A line that lists what may change (every field of the configuration): its beginning.
        Some(start) => assert!(line.starts_with(start), "{label}: first line of stderr:\n{err}"),
        None => assert_eq!(line, first, "{label}: first line of stderr:\n{err}"),
    }
    for bad in ["panicked", "RUST_BACKTRACE", "internal error", "stack backtrace"] {
        assert!(!err.contains(bad), "{label}: `{bad}` in stderr:\n{err}");
    }
}

/// Run every case in `dir`: status, first line, quickly (no case runs a simulation of any length), nothing
/// written into the folder, the same answer with memory capped, and documented in docs/errors.md.
fn check_cases(dir: &Scratch, cases: &[Case]) {
    let docs = errors_md();
    for c in cases {
        let label = format!("sim {}", c.args.join(" "));
        let before = dir.listing();
        let (o, took) = sim_in(&dir.0, c.args);
        check(&label, &o, c.code, c.first);
        assert!(took < Duration::from_secs(20), "{label}: took {took:?}");
        assert_eq!(dir.listing(), before, "{label}: files appeared or vanished");
        if c.code == 2
            && let Some(capped) = sim_capped(&dir.0, c.args)
        {
            check(&format!("{label} (memory capped)"), &capped, c.code, c.first);
        }
        documented(&docs, c.args, c.first, c.code);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Source files

fn source_inputs(dir: &Scratch) {
    std::fs::create_dir_all(dir.path("folder")).expect("folder");
    dir.write(
        "garbage.s",
        [0x7f, b'E', b'L', b'F', 0x02, 0x01, 0x01, 0x00, 0xff, 0xfe, 0x80, 0x00],
    );
    dir.write("latin1.s", b".reg %v\n    mov.u32 %v, 1 // caf\xe9\n");
    dir.write("nul.s", [0u8; 64]);
    dir.write("escape.s", b".reg %v\n\x1b]0;owned\x07\x1b[2J\n");
    dir.write("include.s", ".include \"nothere.s\"\n    nop\n");
    dir.write("self.s", ".include \"self.s\"\n    nop\n");
    dir.sparse("huge.s", 100 << 20);
}

#[test]
fn source_files() {
    let dir = Scratch::new("source");
    source_inputs(&dir);
    check_cases(
        &dir,
        &[
            case(&["run", "missing.s"], 2, "error: no program or file named `missing.s`"),
            case(
                &["run", "no/such/folder/k.s"],
                2,
                "error: no program or file named `no/such/folder/k.s`",
            ),
            case(
                &["run", "folder"],
                2,
                "error: `folder` is a directory, not an assembly file",
            ),
            case(&["run", "/dev/zero"], 2, "error: `/dev/zero` is not a regular file"),
            case(
                &["run", "garbage.s"],
                2,
                "error: `garbage.s` is not UTF-8 text (invalid byte at offset 8); is it an assembly file?",
            ),
            case(
                &["run", "latin1.s"],
                2,
                "error: `latin1.s` is not UTF-8 text (invalid byte at offset 32); is it an assembly file?",
            ),
            case(&["run", "nul.s"], 2, "error: unexpected character `\\0`"),
            case(&["run", "escape.s"], 2, "error: unexpected character `\\u{1b}`"),
            case(
                &["run", "huge.s"],
                2,
                "error: `huge.s` is larger than 8388608 bytes, the limit for an assembly file",
            ),
            case(&["run", "include.s"], 2, "error: cannot include \"nothere.s\""),
            case(&["run", "self.s"], 2, "error: `self.s` includes itself"),
        ],
    );
}

#[test]
fn an_empty_file_is_an_empty_program() {
    let dir = Scratch::new("empty");
    dir.write("empty.s", "");
    let (o, _) = sim_in(&dir.0, &["run", "empty.s"]);
    check("sim run empty.s", &o, 0, "");
    assert!(text(&o.stdout).contains("warp instructions: 0"), "{}", text(&o.stdout));
}

#[test]
fn an_unreadable_file_is_one_line() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Scratch::new("unreadable");
    let path = dir.write("locked.s", "    nop\n");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).expect("chmod 000");
    // Root (or CAP_DAC_OVERRIDE) reads it anyway: then sim runs as `nobody` through setpriv, where there is one.
    let as_nobody = std::fs::read(&path).is_ok();
    let run = |args: &[&str]| -> Option<Output> {
        let mut c = if as_nobody {
            let mut c = Command::new("setpriv");
            c.args([
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                env!("CARGO_BIN_EXE_sim"),
            ]);
            c
        } else {
            Command::new(env!("CARGO_BIN_EXE_sim"))
        };
        let o = c.args(args).current_dir(&dir.0).env("NO_COLOR", "1").output().ok()?;
        // setpriv itself failed (no such user, no permission to change it).
        (!as_nobody || !text(&o.stderr).starts_with("setpriv")).then_some(o)
    };
    let Some(o) = run(&["run", "locked.s"]) else {
        eprintln!(
            "SKIPPED: this test runs with the right to read any file (as root?), where chmod 000 does not stop a read, \
             and `setpriv` cannot run sim as nobody"
        );
        return;
    };
    check(
        "sim run locked.s",
        &o,
        2,
        "error: cannot read `locked.s`: Permission denied (os error 13)",
    );
    documented(
        &errors_md(),
        &["run", "locked.s"],
        "error: cannot read `locked.s`: Permission denied (os error 13)",
        2,
    );
    let o = run(&["run", "pair_swap", "--config", "locked.s"]).expect("as before");
    check(
        "sim run pair_swap --config locked.s",
        &o,
        2,
        "error: cannot read config: `locked.s`: Permission denied (os error 13)",
    );
    documented(
        &errors_md(),
        &["run", "pair_swap", "--config", "locked.s"],
        "error: cannot read config: `locked.s`: Permission denied (os error 13)",
        2,
    );
}

#[test]
fn control_characters_in_a_file_never_reach_the_terminal() {
    let dir = Scratch::new("escape");
    source_inputs(&dir);
    dir.write(
        "comment.s",
        ".reg %v\n    mov.u32 %q, 1 // \x1b[31mred \u{9b}31m\r\n.include \"a\x1b[2Jb.s\"\n",
    );
    for file in ["escape.s", "comment.s"] {
        // CLICOLOR_FORCE keeps anstream from stripping escapes (as on a terminal); --color never keeps
        // warpsim's own styles out, so any control character in stderr would be the file's.
        let o = command(&dir.0)
            .args(["--color", "never", "check", file])
            .env("CLICOLOR_FORCE", "1")
            .output()
            .expect("run sim");
        assert_eq!(o.status.code(), Some(2));
        let err = text(&o.stderr);
        assert!(
            !err.chars().any(|c| c.is_control() && c != '\n'),
            "{file}: a control character reached stderr:\n{err:?}"
        );
    }
    let o = command(&dir.0)
        .args(["--color", "never", "check", "comment.s"])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .expect("run sim");
    let err = text(&o.stderr);
    // Shown as pictures in the source line, and escaped in messages.
    assert!(
        err.contains("2 |     mov.u32 %q, 1 // \u{241b}[31mred \u{fffd}31m\n"),
        "{err}"
    );
    assert!(err.contains("error: cannot include \"a\\u{1b}[2Jb.s\""), "{err}");
    // The caret stays under the token.
    assert!(err.contains("  |             ^^ not declared"), "{err}");
}

#[test]
fn thousands_of_registers_assemble_quickly_and_too_many_for_the_machine_are_refused() {
    let dir = Scratch::new("registers");
    // 63 x 1024 registers: a scan per declaration took minutes; a set takes milliseconds.
    let mut src = String::new();
    for k in 0..63 {
        let _ = writeln!(src, ".reg %r{k}_<1024>");
    }
    src.push_str("    mov.u32 %r0_0, 1\n");
    dir.write("many.s", &src);
    let (o, took) = sim_in(&dir.0, &["check", "many.s"]);
    check("sim check many.s", &o, 0, "");
    assert!(took < Duration::from_secs(20), "took {took:?}");
    // Their register files for a full machine would be 16 GiB: refused before any is made.
    dir.write("r1024.s", ".reg %r<1024>\n    mov.u32 %r0, 1\n");
    check_cases(
        &dir,
        &[case(
            &["run", "r1024.s", "--grid", "132", "--block", "1024"],
            2,
            "error: the program's 1024 registers take 256 KiB per warp; the 4224 warps resident at once would need 1056 MiB of registers, more than 1024 MiB",
        )],
    );
}

// ---------------------------------------------------------------------------------------------------------
// Launch and command-line flags

/// Everything sized by a program (buffers, their sum, shared memory) is checked before the first buffer is
/// allocated or initialised: a launch past the limit is refused at once, and as such under a 256 MiB cap.
#[test]
fn sizes_are_checked_before_any_buffer_is_allocated() {
    let dir = Scratch::new("sizes");
    dir.write(
        "twobuf.s",
        ".buffer a u32[(1 << 28) - 1] = i * 3 + 1\n.buffer b u32[2] = i\n    nop\n",
    );
    dir.write(
        "shared.s",
        ".buffer a u32[(1 << 28) - 1] = i * 3 + 1\n.shared s u32[1 << 20]\n    nop\n",
    );
    check_cases(
        &dir,
        &[
            case(
                &["run", "twobuf.s"],
                2,
                "error: the buffers together would hold more than 268435456 elements",
            ),
            case(
                &["run", "block_reduce", "--set", "n=268435456"],
                2,
                "error: the buffers together would hold more than 268435456 elements",
            ),
            case(
                &["run", "shared.s"],
                2,
                "error: shared array `s` would have 1048576 elements",
            ),
        ],
    );
    // The diagnostic points at the buffer past the limit.
    let (o, _) = sim_in(&dir.0, &["run", "twobuf.s"]);
    let err = text(&o.stderr);
    assert!(err.contains(" --> twobuf.s:2:15\n"), "{err}");
    assert!(
        err.contains("= help: global memory is limited to 1 GiB of 4-byte elements in all"),
        "{err}"
    );
}

/// A line of 8 MiB (the largest file) is refused as it is read: the lexer stops at its token limit, so the
/// error comes with a few megabytes of memory, under a 256 MiB cap as without; a statement past the
/// expression limit names the limit and what to do instead.
#[test]
fn huge_expressions_are_refused_while_they_are_read() {
    let dir = Scratch::new("expressions");
    let mut line = String::from(".buffer a u32[4] = 0, [0..] = [");
    while line.len() < (8 << 20) - 16 {
        line.push_str("1, ");
    }
    line.push_str("1]\n");
    dir.write("long.s", &line);
    let mut sum = String::from(".buffer b u32[4] = 1");
    while sum.len() < (8 << 20) - 16 {
        sum.push_str("+1");
    }
    sum.push('\n');
    dir.write("sum.s", &sum);
    let list: Vec<String> = (0..2000).map(|k| k.to_string()).collect();
    dir.write(
        "list.s",
        format!(".buffer c u32[2000] = 0, [0..] = [{}]\n", list.join(", ")),
    );
    dir.write(
        "deep.s",
        format!(".buffer d u32[4] = {}1{}\n", "(".repeat(100), ")".repeat(100)),
    );
    // Lines of 1,000 terms each, valid alone: 8 MiB of them (4,100 lines), or a macro of one invoked 60,000 times,
    // would be gigabytes of tokens and expression trees.
    let line = format!("    add.u32 %x, %x, 1{}\n", "+1".repeat(1000));
    dir.write(
        "many.s",
        format!(".reg %x\n{}", line.repeat(((8 << 20) - 100) / line.len())),
    );
    dir.write(
        "macro.s",
        format!(".reg %x\n.macro m\n{line}.endm\n{}", "    m\n".repeat(60_000)),
    );
    check_cases(
        &dir,
        &[
            case(
                &["run", "long.s"],
                2,
                "error: line too long: more than 131072 tokens, more than any statement can use",
            ),
            case(
                &["run", "sum.s"],
                2,
                "error: line too long: more than 131072 tokens, more than any statement can use",
            ),
            case(
                &["run", "list.s"],
                2,
                "error: more than 1024 expression terms in one statement",
            ),
            case(&["run", "deep.s"], 2, "error: expression nested more than 64 deep"),
            case(
                &["run", "many.s"],
                2,
                "error: the program has more than 1048576 tokens (macro expansions counted each time)",
            ),
            case(
                &["run", "macro.s"],
                2,
                "error: the program has more than 1048576 tokens (macro expansions counted each time)",
            ),
        ],
    );
    let help = "= help: a statement's expressions have at most 1024 terms in all, so a `.buffer` initialiser list \
                holds about 1024 values: compute the values with an expression in `i` (for example `.buffer a \
                u32[4096] = i * 3 + 1`), or store them from the program";
    for (file, at) in [("long.s", " --> long.s:1:196617\n"), ("list.s", " --> list.s:1:5051\n")] {
        let (o, _) = sim_in(&dir.0, &["run", file]);
        let err = text(&o.stderr);
        assert!(err.contains(at), "{file}: {err}");
        assert!(err.replace('\n', " ").contains(help), "{file}: {err}");
    }
}

#[test]
fn launch_flags() {
    let dir = Scratch::new("launch");
    dir.write("dyn.s", ".shared dyn u32[]\n    nop\n");
    dir.write("nodyn.s", "    nop\n");
    dir.write("tall.s", ".grid 2, 70000\n    nop\n");
    dir.write("four.s", ".block 2, 2, 2, 2\n    nop\n");
    check_cases(
        &dir,
        &[
            case(
                &["run", "tall.s"],
                2,
                "error: the grid's y is 70000; it must be a whole number from 1 to 65535",
            ),
            case(&["run", "four.s"], 2, "error: `.block` has at most three components"),
            case(
                &["run", "pair_swap", "--grid", "-1"],
                2,
                "error: invalid value '-1' for '--grid <SHAPE>': `-1` is not a whole number; a shape is 1 to 3 whole numbers separated by `x`, x first: `8`, `8x4` or `8x4x2`",
            ),
            case(
                &["run", "pair_swap", "--grid", "8x"],
                2,
                "error: invalid value '8x' for '--grid <SHAPE>': `8x` has no y component; a shape is 1 to 3 whole numbers separated by `x`, x first: `8`, `8x4` or `8x4x2`",
            ),
            case(
                &["run", "pair_swap", "--grid", "0x4"],
                2,
                "error: invalid value '0x4' for '--grid <SHAPE>': `0x4`: x is 0; every component of a shape is at least 1",
            ),
            case(
                &["run", "pair_swap", "--block", "2x2x2x2"],
                2,
                "error: invalid value '2x2x2x2' for '--block <SHAPE>': `2x2x2x2` has 4 components; a shape is 1 to 3 whole numbers separated by `x`, x first: `8`, `8x4` or `8x4x2`",
            ),
            case(
                &["run", "pair_swap", "--block", "8x4.5"],
                2,
                "error: invalid value '8x4.5' for '--block <SHAPE>': `4.5` is not a whole number; a shape is 1 to 3 whole numbers separated by `x`, x first: `8`, `8x4` or `8x4x2`",
            ),
            case(
                &["run", "pair_swap", "--grid", "1x65536"],
                2,
                "error: --grid 1x65536: y is 65536; at most 65535 (CUDA's limit in y)",
            ),
            case(
                &["run", "pair_swap", "--grid", "65536x65536"],
                2,
                "error: --grid 65536x65536 is 4294967296 blocks; at most 2147483647 in all",
            ),
            case(
                &["run", "pair_swap", "--block", "1x1x65"],
                2,
                "error: --block 1x1x65: z is 65; at most 64 (CUDA's limit in z)",
            ),
            case(
                &["run", "pair_swap", "--block", "64x32"],
                2,
                "error: --block 64x32 is 2048 threads; at most 1024 in all (the machine's limit per block)",
            ),
            case(
                &["run", "pair_swap", "--grid", "0"],
                2,
                "error: --grid 0 is out of range: 1 to 2147483647 blocks",
            ),
            case(
                &["run", "pair_swap", "--grid", "2147483648"],
                2,
                "error: --grid 2147483648 is out of range: 1 to 2147483647 blocks",
            ),
            case(
                &["run", "pair_swap", "--grid", "99999999999999999999"],
                2,
                "error: invalid value '99999999999999999999' for '--grid <SHAPE>': x `99999999999999999999` is too large (at most 4294967295); a shape is 1 to 3 whole numbers separated by `x`, x first: `8`, `8x4` or `8x4x2`",
            ),
            case(
                &["run", "pair_swap", "--block", "0"],
                2,
                "error: --block 0 is out of range: 1 to 1024 threads (the machine's limit per block)",
            ),
            case(
                &["run", "pair_swap", "--block", "4294967295"],
                2,
                "error: --block 4294967295 is out of range: 1 to 1024 threads (the machine's limit per block)",
            ),
            case(
                &["run", "pair_swap", "--warp", "abc"],
                2,
                "error: invalid value 'abc' for '--warp <W>': `abc` is not a warp size: a power of two from 2 to 64",
            ),
            case(
                &["run", "pair_swap", "--warp", "0"],
                2,
                "error: invalid value '0' for '--warp <W>': 0 is not a warp size: a power of two from 2 to 64 (2, 4, 8, 16, 32 or 64)",
            ),
            case(
                &["run", "pair_swap", "--warp", "12"],
                2,
                "error: invalid value '12' for '--warp <W>': 12 is not a warp size: a power of two from 2 to 64 (2, 4, 8, 16, 32 or 64)",
            ),
            case(
                &["run", "pair_swap", "--warp", "4294967296"],
                2,
                "error: invalid value '4294967296' for '--warp <W>': `4294967296` is not a warp size: a power of two from 2 to 64",
            ),
            case(
                &["run", "block_reduce", "--set", "n=1e12"],
                2,
                "error: the grid is 7812500000.9921875; it must be a whole number from 1 to 2147483647",
            ),
            case(
                &["run", "block_reduce", "--set", "n=99999999999999999999"],
                2,
                "error: `--set n=99999999999999999999`: `99999999999999999999` is out of range",
            ),
            case(
                &["run", "block_reduce", "--set", "n=two"],
                2,
                "error: `--set n=two`: `two` is not a number",
            ),
            case(
                &["run", "block_reduce", "--set", "n"],
                2,
                "error: `--set n`: expected NAME=VALUE",
            ),
            case(
                &["run", "block_reduce", "--set", "=5"],
                2,
                "error: `--set =5`: expected NAME=VALUE",
            ),
            case(
                &["run", "shfl_wrap", "--set", "ofset=1"],
                2,
                "error: `shfl_wrap` has no parameter `ofset`; did you mean `offset`?",
            ),
            case(
                &["run", "shfl_wrap", "--set", "zzz=1"],
                2,
                "error: `shfl_wrap` has no parameter `zzz`; its parameters are: offset",
            ),
            case(
                &["run", "dyn.s", "--dynamic-shared", "1073741824"],
                2,
                "error: `dyn` needs 1073741824 bytes of shared memory per block; the machine allows 232448 (config `max_shared_per_block`)",
            ),
            case(
                &["run", "dyn.s", "--dynamic-shared", "18"],
                2,
                "error: --dynamic-shared 18: the size is in bytes and must be a multiple of 4 (the element size)",
            ),
            case(
                &["run", "nodyn.s", "--dynamic-shared", "16"],
                2,
                "error: --dynamic-shared 16: `nodyn` declares no dynamic shared array (`.shared NAME TYPE[]`)",
            ),
            case(
                &["run", "pair_swap", "--max-cycles", "0"],
                2,
                "error: invalid value '0' for '--max-cycles <MAX_CYCLES>': 0 cycles would stop every run before it starts; the limit is 1 to 18446744073709551615 (default 100000000)",
            ),
            case(
                &["run", "pair_swap", "--max-cycles", "-1"],
                2,
                "error: invalid value '-1' for '--max-cycles <MAX_CYCLES>': expected a whole number of cycles from 1 to 18446744073709551615",
            ),
            case(
                &["run", "pair_swap", "--max-instructions", "0"],
                2,
                "error: invalid value '0' for '--max-instructions <N>': 0 instructions would stop every run before it starts; the limit is 1 to 18446744073709551615 (default 1000000000)",
            ),
            case(
                &["run", "pair_swap", "--schedule", "random", "--seed", "-1"],
                2,
                "error: invalid value '-1' for '--seed <N>': invalid digit found in string",
            ),
            case(
                &["run", "pair_swap", "--check", "bogus"],
                2,
                "error: invalid value 'bogus' for '--check <LIST>': unknown check `bogus`: the checks are race, init, shfl, sync, scheduling (or all), comma-separated",
            ),
            case(
                &["run", "pair_swap", "--threads", "0"],
                2,
                "error: --threads 0: there must be at least one thread",
            ),
            case(
                &["run", "pair_swap", "--threads", "100000"],
                2,
                "error: --threads 100000: at most 1024 host threads",
            ),
            case(
                &["run", "pair_swap", "--sms", "0"],
                2,
                "error: --sms 0: invalid configuration: `sms` must be 1 to 1024",
            ),
            case(
                &["run", "pair_swap", "--sms", "100000"],
                2,
                "error: --sms 100000: invalid configuration: `sms` must be 1 to 1024",
            ),
            case(
                &["run", "butterfly_mx"],
                2,
                "error: no program or file named `butterfly_mx`",
            ),
            case(
                &["show", "no_such_program"],
                2,
                "error: no program or file named `no_such_program`",
            ),
            case(
                &["run", "pair_swap", "--frobnicate"],
                2,
                "error: unexpected argument '--frobnicate' found",
            ),
            case(&["frobnicate"], 2, "error: unrecognized subcommand 'frobnicate'"),
            case(
                &["run"],
                2,
                "error: the following required arguments were not provided:",
            ),
            case(
                &["run", "pair_swap", "--trace-format", "svg", "x.svg"],
                2,
                "error: `--trace-format svg`: unknown trace format",
            ),
            case(
                &["run", "pair_swap", "--svg", "x.svg", "--steps", "0"],
                2,
                "error: `--steps 0`: expected a count or an inclusive range of exchange steps, counted from 1",
            ),
            case(
                &["run", "pair_swap", "--warps", "0-3"],
                2,
                "error: `--warps` chooses what `--svg` draws, and there is no `--svg FILE`",
            ),
            case(
                &["run", "pair_swap", "--max-trace-events", "18446744073709551615"],
                2,
                "error: invalid value '18446744073709551615' for '--max-trace-events <N>': at most 1000000 events \
                 are kept in memory (about 2 KB each; default 500000); --trace-file FILE streams a trace of any length",
            ),
            case(
                &["run", "pair_swap", "--max-trace-events", "1000001"],
                2,
                "error: invalid value '1000001' for '--max-trace-events <N>': at most 1000000 events are kept in \
                 memory (about 2 KB each; default 500000); --trace-file FILE streams a trace of any length",
            ),
            case(
                &["run", "pair_swap", "--max-trace-events", "-1"],
                2,
                "error: invalid value '-1' for '--max-trace-events <N>': expected a whole number of events from 0 \
                 to 1000000",
            ),
        ],
    );
    // The hints that come with them.
    let hints = [
        (&["run", "butterfly_mx"][..], "  help: did you mean `butterfly_max`?"),
        (
            &["run", "pair_swap", "--frobnicate"][..],
            "  tip: a similar argument exists: '--format'",
        ),
        (
            &["run", "block_reduce", "--set", "n=99999999999999999999"][..],
            "  help: integers are 64-bit (-9223372036854775808 to 9223372036854775807); floats must be finite",
        ),
    ];
    for (args, hint) in hints {
        let (o, _) = sim_in(&dir.0, args);
        assert!(text(&o.stderr).contains(hint), "sim {args:?}: {}", text(&o.stderr));
    }
}

// ---------------------------------------------------------------------------------------------------------
// Machine configuration

#[test]
fn machine_config() {
    let dir = Scratch::new("config");
    std::fs::create_dir_all(dir.path("folder")).expect("folder");
    let hopper = command(&dir.0).arg("config").output().expect("sim config");
    assert_eq!(hopper.status.code(), Some(0));
    let good: serde_json::Value = serde_json::from_slice(&hopper.stdout).expect("config JSON");
    let edited = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut c = good.clone();
        edit(&mut c);
        dir.write(name, serde_json::to_string_pretty(&c).expect("JSON"));
    };
    edited("sms0.json", &|c| c["sms"] = 0.into());
    // Read field by field: the first bad one is the error (the rest need not be there).
    dir.write("negative.json", "{\"name\": \"x\", \"sms\": -1}");
    dir.write("fraction.json", "{\"name\": \"x\", \"sms\": 1.5}");
    dir.write("string.json", "{\"name\": \"x\", \"sms\": \"4\"}");
    dir.write("typo.json", "{\"name\": \"x\", \"wrap_size\": 8}");
    edited("slots.json", &|c| {
        c["sms"] = 1024.into();
        c["max_warps_per_sm"] = 4096.into();
    });
    edited("l1.json", &|c| {
        c["sms"] = 1024.into();
        c["timing"]["memory"]["l1_shared_bytes"] = u32::MAX.into();
        c["timing"]["memory"]["line_bytes"] = 4096.into();
    });
    edited("shared.json", &|c| {
        c["sms"] = 1024.into();
        c["shared_per_sm"] = (1u32 << 30).into();
        c["max_shared_per_block"] = (1u32 << 30).into();
    });
    edited("latency.json", &|c| {
        c["timing"]["units"]["alu"]["latency"] = 2_000_000.into();
    });
    edited("interval.json", &|c| c["timing"]["units"]["alu"]["interval"] = 0.into());
    edited("line.json", &|c| c["timing"]["memory"]["line_bytes"] = 3.into());
    edited("sector.json", &|c| c["timing"]["memory"]["sector_bytes"] = 48.into());
    edited("unroll.json", &|c| c["timing"]["runtime_unroll"] = 1_000_000_000.into());
    edited("fill.json", &|c| c["timing"]["memory"]["fill_sector"] = u32::MAX.into());
    dir.write("garbage.json", [0xff, 0xfe, 0x00, 0x01]);
    dir.write("empty.json", "");
    dir.write("truncated.json", "{\"name\": \"hopper\", \"sms\": 4");
    dir.write("array.json", "[]");
    dir.sparse("huge.json", 100 << 20);
    let run = |config: &'static str| -> &'static [&'static str] {
        Box::leak(Box::new(["run", "pair_swap", "--config", config]))
    };
    check_cases(
        &dir,
        &[
            case(
                run("missing.json"),
                2,
                "error: cannot read config: `missing.json`: No such file or directory (os error 2)",
            ),
            case(
                run("folder"),
                2,
                "error: cannot read config: `folder` is a directory, not a configuration file",
            ),
            case(
                run("garbage.json"),
                2,
                "error: cannot read config: `garbage.json` is not UTF-8 text (invalid byte at offset 0); `sim config` prints a valid configuration (JSON)",
            ),
            case(
                run("huge.json"),
                2,
                "error: cannot read config: `huge.json` is larger than 1048576 bytes, the limit for a configuration file",
            ),
            case(
                run("empty.json"),
                2,
                "error: empty.json: invalid configuration: EOF while parsing a value at line 1 column 0",
            ),
            case(
                run("truncated.json"),
                2,
                "error: truncated.json: invalid configuration: EOF while parsing an object at line 1 column 27",
            ),
            case(
                run("array.json"),
                2,
                "error: array.json: invalid configuration: invalid length 0, expected struct Config with 12 elements at line 1 column 2",
            ),
            case(
                run("typo.json"),
                2,
                "error: typo.json: invalid configuration: unknown field `wrap_size`, expected one of `name`, `sms`, `warp_size`, …",
            ),
            case(
                run("negative.json"),
                2,
                "error: negative.json: invalid configuration: invalid value: integer `-1`, expected u32 at line 1 column 23",
            ),
            case(
                run("fraction.json"),
                2,
                "error: fraction.json: invalid configuration: invalid type: floating point `1.5`, expected u32 at line 1 column 24",
            ),
            case(
                run("string.json"),
                2,
                "error: string.json: invalid configuration: invalid type: string \"4\", expected u32 at line 1 column 24",
            ),
            case(
                run("sms0.json"),
                2,
                "error: sms0.json: invalid configuration: `sms` must be 1 to 1024",
            ),
            case(
                run("slots.json"),
                2,
                "error: slots.json: invalid configuration: `sms` x `max_warps_per_sm` (warp slots of the whole machine) must be at most 131072",
            ),
            case(
                run("l1.json"),
                2,
                "error: l1.json: invalid configuration: `sms` x L1 lines (`timing.memory.l1_shared_bytes` / `line_bytes`) must be at most 4194304",
            ),
            case(
                run("shared.json"),
                2,
                "error: shared.json: invalid configuration: `sms` x `shared_per_sm` (shared memory of the whole machine) must be at most 1 GiB",
            ),
            case(
                run("latency.json"),
                2,
                "error: latency.json: invalid configuration: `timing.units.alu`: latency and interval must be at most 1000000",
            ),
            case(
                run("interval.json"),
                2,
                "error: interval.json: invalid configuration: `timing.units.alu.interval` must be at least 1",
            ),
            case(
                run("line.json"),
                2,
                "error: line.json: invalid configuration: `timing.memory.line_bytes` must be a power of two from 4 to 4096",
            ),
            case(
                run("sector.json"),
                2,
                "error: sector.json: invalid configuration: `timing.memory.sector_bytes` must be a power of two from \
                 `line_bytes` / 64 to `line_bytes`",
            ),
            case(
                run("unroll.json"),
                2,
                "error: unroll.json: invalid configuration: `timing.runtime_unroll` must be at most 64 passes, \
                 `runtime_unroll_body` at most 100000 instructions",
            ),
            case(
                run("fill.json"),
                2,
                "error: fill.json: invalid configuration: `timing.memory.fill_sector` must be at most 100000 (hundredths \
                 of a cycle)",
            ),
        ],
    );
}

// ---------------------------------------------------------------------------------------------------------
// Output files

#[test]
fn output_paths_that_cannot_be_written_are_refused_before_the_run() {
    let dir = Scratch::new("outputs");
    std::fs::create_dir_all(dir.path("folder")).expect("folder");
    dir.write("notes.txt", "a file\n");
    std::os::unix::fs::symlink("nowhere/x.svg", dir.path("dangling.svg")).expect("symlink");
    let cases = [
        case(
            &["run", "pair_swap", "--svg", "dangling.svg"],
            2,
            "error: `--svg dangling.svg`: `dangling.svg` is a symbolic link to `nowhere/x.svg`, which does not exist",
        ),
        case(
            &["run", "pair_swap", "--svg", "folder"],
            2,
            "error: `--svg folder`: `folder` is a directory",
        ),
        case(
            &["run", "pair_swap", "--html", "folder/"],
            2,
            "error: `--html folder/`: `folder/` is a directory",
        ),
        case(
            &["run", "pair_swap", "--trace-format", "chrome", "folder"],
            2,
            "error: `--trace-format chrome folder`: `folder` is a directory",
        ),
        case(
            &["run", "pair_swap", "--trace-file", "folder"],
            2,
            "error: `--trace-file folder`: `folder` is a directory",
        ),
        case(
            &["run", "pair_swap", "--svg", ""],
            2,
            "error: `--svg` needs a file name",
        ),
        case(
            &["run", "pair_swap", "--svg", "notes.txt/x.svg"],
            2,
            "error: `--svg notes.txt/x.svg`: `notes.txt` is a file, not a folder",
        ),
        case(
            &["run", "pair_swap", "--html", "out.html", "--trace-file", "./out.html"],
            2,
            "error: `--html` and `--trace-file` both write `./out.html`",
        ),
    ];
    check_cases(&dir, &cases);
    for c in &cases {
        // Refused before the run: no output on stdout either.
        let (o, _) = sim_in(&dir.0, c.args);
        assert!(o.stdout.is_empty(), "sim {:?}: {}", c.args, text(&o.stdout));
    }
    // A missing folder is made.
    let (o, _) = sim_in(&dir.0, &["run", "pair_swap", "--svg", "new/sub/x.svg"]);
    check("--svg new/sub/x.svg", &o, 0, "wrote new/sub/x.svg");
    assert!(dir.path("new/sub/x.svg").is_file());
}

/// A `.npy` file (format 1.0) of `descr` elements, shape `shape`, with `data` after the header.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}").into_bytes();
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(b' ');
    }
    header.push(b'\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend(u16::try_from(header.len()).expect("short header").to_le_bytes());
    out.extend(header);
    out.extend_from_slice(data);
    out
}

/// Data files that are not a buffer's contents, and `--save` targets that cannot be written: refused before
/// the run, naming the flag, the file and what was expected; nothing written.
#[test]
fn data_files_that_do_not_fit_are_refused_before_the_run() {
    let dir = Scratch::new("data");
    std::fs::create_dir_all(dir.path("folder.npy")).expect("folder");
    let words = |n: u32| -> Vec<u8> { (0..n).flat_map(u32::to_le_bytes).collect() };
    dir.write("ok.npy", npy("<u4", "(128,)", &words(128)));
    dir.write("a1000.npy", npy("<u4", "(1000,)", &words(1000)));
    dir.write("int64.npy", npy("<i8", "(128,)", &[0; 8 * 128]));
    dir.write("float64.npy", npy("<f8", "(128,)", &[0; 8 * 128]));
    dir.write("truncated.npy", &npy("<u4", "(1000,)", &words(1000))[..1000]);
    dir.write("garbage.npy", [0x7f, b'E', b'L', b'F', 0x02, 0x01, 0x01, 0x00]);
    dir.write("odd.bin", [0u8; 510]);
    dir.write("big.json", "[1, 4294967296]");
    dir.write("half.json", "[0.5]");
    dir.write("object.json", "{\"in\": [1, 2]}");
    dir.write("broken.json", "[1, 2,");
    dir.sparse("huge.bin", 2 << 30);
    let input = |file: &'static str| -> &'static [&'static str] {
        Box::leak(Box::new(["run", "block_reduce", "--input", file]))
    };
    let cases = [
        case(
            input("in=data.txt"),
            2,
            "error: `--input in=data.txt`: `.txt` is not a data format warpsim reads or writes",
        ),
        case(
            input("in=data"),
            2,
            "error: `--input in=data`: `data` has no extension to say its format",
        ),
        case(input("in"), 2, "error: `--input in`: expected NAME=FILE"),
        case(
            input("in=missing.npy"),
            2,
            "error: `--input in=missing.npy`: cannot read `missing.npy`: No such file or directory (os error 2)",
        ),
        case(
            input("in=folder.npy"),
            2,
            "error: `--input in=folder.npy`: `folder.npy` is a directory, not a data file",
        ),
        case(
            input("inn=ok.npy"),
            2,
            "error: `--input inn=ok.npy`: `block_reduce` has no buffer `inn`; did you mean `in`?",
        ),
        case(
            input("in=a1000.npy"),
            2,
            "error: `a1000.npy` has 1000 elements, but buffer `in` is u32[n] with n = 128",
        ),
        case(
            input("in=int64.npy"),
            2,
            "error: `--input in=int64.npy`: the array holds int64 (`<i8`); a u32 buffer reads uint32 (`<u4`, or big-endian `>u4`)",
        ),
        case(
            input("in=float64.npy"),
            2,
            "error: `--input in=float64.npy`: the array holds float64 (`<f8`); a u32 buffer reads uint32 (`<u4`, or big-endian `>u4`)",
        ),
        case(
            input("in=truncated.npy"),
            2,
            "error: `--input in=truncated.npy`: the header says shape (1000,) (1000 elements of 4 bytes), but 872 bytes of data follow it",
        ),
        case(
            input("in=garbage.npy"),
            2,
            "error: `--input in=garbage.npy`: not a NumPy `.npy` file: magic not found for NPY file",
        ),
        case(
            input("in=odd.bin"),
            2,
            "error: `--input in=odd.bin`: 510 bytes is not a whole number of u32 elements (4 bytes each): 2 bytes left over",
        ),
        case(
            input("in=big.json"),
            2,
            "error: `--input in=big.json`: element 1: 4294967296 is out of range for a u32 buffer at line 1 column 14",
        ),
        case(
            input("in=half.json"),
            2,
            "error: `--input in=half.json`: element 0: 0.5 is not a whole number for a u32 buffer at line 1 column 4",
        ),
        case(
            input("in=object.json"),
            2,
            "error: `--input in=object.json`: invalid type: map, expected an array of numbers at line 1 column 1",
        ),
        case(
            input("in=broken.json"),
            2,
            "error: `--input in=broken.json`: EOF while parsing a value at line 1 column 6",
        ),
        case(
            input("in=huge.bin"),
            2,
            "error: `--input in=huge.bin`: `huge.bin` is 2147483648 bytes, more than the largest buffer's data (1074790400 bytes with room for a header)",
        ),
        case(
            &["run", "block_reduce", "--input", "in=ok.npy", "--input", "in=ok.npy"],
            2,
            "error: `--input in=ok.npy`: buffer `in` already starts from `ok.npy`",
        ),
        case(
            &["run", "block_reduce", "--save", "out=x.txt"],
            2,
            "error: `--save out=x.txt`: `.txt` is not a data format warpsim reads or writes",
        ),
        case(
            &["run", "block_reduce", "--save", "sums=x.npy"],
            2,
            "error: `--save sums=x.npy`: `block_reduce` has no buffer `sums`; its buffers are: in, out",
        ),
        case(
            &["run", "block_reduce", "--save", "out=folder.npy"],
            2,
            "error: `--save out=folder.npy`: `folder.npy` is a directory",
        ),
        case(
            &["run", "block_reduce", "--save", "out=x.npy", "--save", "in=./x.npy"],
            2,
            "error: `--save out=x.npy` and `--save in=./x.npy` both write `./x.npy`",
        ),
        case(
            &["bench", "block_reduce", "--input", "in=a1000.npy"],
            2,
            "error: `a1000.npy` has 1000 elements, but buffer `in` is u32[n] with n = 128",
        ),
    ];
    check_cases(&dir, &cases);
    // The length's hint: the `--set` that fits the file.
    let (o, _) = sim_in(&dir.0, input("in=a1000.npy"));
    assert!(
        text(&o.stderr).contains("help: run with `--set n=1000` to make the buffer as long as `a1000.npy`"),
        "{}",
        text(&o.stderr)
    );
    // The dtype's hint: the NumPy line that converts this file.
    let (o, _) = sim_in(&dir.0, input("in=int64.npy"));
    assert!(
        text(&o.stderr).contains("help: convert it in NumPy: `np.save(\"int64.npy\", a.astype(np.uint32))`"),
        "{}",
        text(&o.stderr)
    );
}

/// The four outputs of one run, into `dir`.
const OUTPUTS: [&str; 7] = [
    "--svg",
    "o/a.svg",
    "--html",
    "o/a.html",
    "--trace-file",
    "o/t.jsonl",
    "--trace-format",
];

fn with_outputs<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    v.extend(OUTPUTS);
    v.extend(["chrome", "o/c.json"]);
    v
}

#[test]
fn a_write_that_fails_midway_leaves_no_file() {
    let dir = Scratch::new("full");
    std::fs::create_dir_all(dir.path("o")).expect("o");
    // Files may grow to 16 KiB (`ulimit -f 32`, in 512-byte blocks). `sim` catches SIGXFSZ (the shell does not
    // ignore it here): a write past the limit fails with EFBIG, as on a full disk, after the first 16 KiB went
    // through.
    let limited = |args: &[&str]| {
        Command::new("sh")
            .current_dir(&dir.0)
            .args(["-c", "ulimit -f 32 && exec \"$@\"", "sh", env!("CARGO_BIN_EXE_sim")])
            .args(args)
            .env("NO_COLOR", "1")
            .env_remove("RUST_BACKTRACE")
            .output()
            .expect("sh")
    };
    let outputs = |o: &Output, code: i32| {
        let first = "error: cannot write `o/a.svg`: File too large (os error 27)";
        let err = text(&o.stderr);
        let from = err.find(first).unwrap_or_else(|| panic!("no `{first}` in:\n{err}"));
        check(
            "outputs past the file size limit",
            o,
            code,
            err.lines().next().unwrap_or(""),
        );
        let lines: Vec<&str> = err[from..].lines().collect();
        assert_eq!(
            lines,
            [
                first,
                "error: cannot write `o/a.html`: File too large (os error 27)",
                "error: cannot write `o/c.json`: File too large (os error 27)",
                "error: cannot write `o/t.jsonl`: File too large (os error 27)",
            ],
            "{err}"
        );
        documented(&errors_md(), &["run", "…", "--svg", "o/a.svg"], first, code);
        let left: Vec<String> = dir.listing().into_iter().filter(|f| f.starts_with("o/")).collect();
        assert!(left.is_empty(), "no file, whole or temporary, is left: {left:?}");
    };
    // A run that succeeds: its output, then why no file was written (status 2).
    let o = limited(&with_outputs(&["run", "block_reduce", "--set", "n=16384"]));
    outputs(&o, 2);
    assert!(text(&o.stdout).contains("cycles: "), "{}", text(&o.stdout));
    // A run that faults (at the cycle limit): the fault's message first, and its status.
    let o = limited(&with_outputs(&[
        "run",
        "block_reduce",
        "--set",
        "n=16384",
        "--max-cycles",
        "600",
    ]));
    outputs(&o, 1);
    assert!(
        text(&o.stderr).starts_with("error: the run passed the cycle limit (600 cycles)"),
        "{}",
        text(&o.stderr)
    );
}

/// Reads a FIFO on a thread of its own until the writers close it.
struct FifoReader {
    /// The FIFO opened for reading and writing (which never blocks on Linux), so the reader's open does not
    /// wait for `sim` and its read ends when this is closed, whatever `sim` did (never opened the FIFO, or
    /// replaced it with a file).
    keep: std::fs::File,
    thread: std::thread::JoinHandle<Vec<u8>>,
}

impl FifoReader {
    /// A FIFO at `path` (`mkfifo`), and a reader on it; None where there is no `mkfifo`.
    fn new(path: PathBuf) -> Option<FifoReader> {
        let made = Command::new("mkfifo").arg(&path).status().ok()?;
        assert!(made.success(), "mkfifo {}", path.display());
        let keep = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .expect("open the FIFO");
        let thread = std::thread::spawn(move || std::fs::read(&path).expect("read the FIFO"));
        Some(FifoReader { keep, thread })
    }

    /// What was written into the FIFO, once `sim` has exited.
    fn finish(self) -> Vec<u8> {
        drop(self.keep);
        self.thread.join().expect("reader")
    }
}

#[test]
fn outputs_into_fifos_devices_and_stdout_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let dir = Scratch::new("special");
    // FIFOs (a `>(…)` process substitution is one): every output written through them, nothing renamed.
    let Some(trace) = FifoReader::new(dir.path("trace.fifo")) else {
        eprintln!("skipped: no mkfifo");
        return;
    };
    let svg = FifoReader::new(dir.path("svg.fifo")).expect("mkfifo");
    let (o, _) = sim_in(
        &dir.0,
        &["run", "pair_swap", "--trace-file", "trace.fifo", "--svg", "svg.fifo"],
    );
    let (trace, svg) = (trace.finish(), svg.finish());
    check("FIFOs", &o, 0, "wrote svg.fifo");
    assert_eq!(dir.listing(), ["svg.fifo", "trace.fifo"], "no temporary file");
    for f in ["svg.fifo", "trace.fifo"] {
        let meta = std::fs::symlink_metadata(dir.path(f)).expect("metadata");
        assert!(meta.file_type().is_fifo(), "{f} is still a FIFO");
    }
    // The same bytes as into regular files.
    let (o, _) = sim_in(
        &dir.0,
        &["run", "pair_swap", "--trace-file", "o/t.jsonl", "--svg", "o/a.svg"],
    );
    check("regular files", &o, 0, "wrote o/a.svg");
    let read = |f: &str| std::fs::read(dir.path(f)).expect("read");
    assert!(text(&trace).lines().count() > 5, "{}", text(&trace));
    assert_eq!(text(&trace), text(&read("o/t.jsonl")), "the trace through the FIFO");
    assert_eq!(text(&svg), text(&read("o/a.svg")), "the SVG through the FIFO");
    std::fs::remove_dir_all(dir.path("o")).expect("rm o");

    // /dev/null takes everything and stays a device.
    let (o, _) = sim_in(
        &dir.0,
        &["run", "pair_swap", "--trace-file", "/dev/null", "--html", "x.html"],
    );
    check("/dev/null", &o, 0, "wrote x.html");
    let null = std::fs::metadata("/dev/null").expect("/dev/null");
    assert!(
        null.file_type().is_char_device(),
        "/dev/null is still a character device"
    );

    // /dev/stdout: the trace goes where standard output goes (here a pipe), before the run's output.
    let (o, _) = sim_in(&dir.0, &["run", "pair_swap", "--trace-file", "/dev/stdout"]);
    check("/dev/stdout", &o, 0, "");
    let out = text(&o.stdout);
    let first = out.lines().next().unwrap_or("");
    serde_json::from_str::<serde_json::Value>(first).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(out.contains("\ncycles: "), "{out}");

    // /dev/full: every write fails, and says so (exit status 2).
    let docs = errors_md();
    for flag in ["--svg", "--html", "--trace-file"] {
        let args = ["run", "pair_swap", flag, "/dev/full"];
        let (o, _) = sim_in(&dir.0, &args);
        let first = "error: cannot write `/dev/full`: No space left on device (os error 28)";
        check(&format!("{flag} /dev/full"), &o, 2, first);
        assert!(text(&o.stdout).contains("cycles: "), "the run's output still comes");
        if flag == "--svg" {
            documented(&docs, &args, first, 2);
        }
    }
    let args = ["run", "pair_swap", "--trace-format", "chrome", "/dev/full"];
    let (o, _) = sim_in(&dir.0, &args);
    check(
        "chrome /dev/full",
        &o,
        2,
        "error: cannot write `/dev/full`: No space left on device (os error 28)",
    );
    assert_eq!(dir.listing(), ["svg.fifo", "trace.fifo", "x.html"]);
}

#[test]
fn a_symbolic_link_is_followed_and_its_target_replaced() {
    let dir = Scratch::new("symlink");
    std::fs::create_dir_all(dir.path("real")).expect("real");
    dir.write("real/target.svg", "old\n");
    dir.write("real/t.jsonl", "old\n");
    std::os::unix::fs::symlink("real/target.svg", dir.path("link.svg")).expect("symlink");
    std::os::unix::fs::symlink("real/t.jsonl", dir.path("link.jsonl")).expect("symlink");
    let (o, _) = sim_in(
        &dir.0,
        &["run", "pair_swap", "--svg", "link.svg", "--trace-file", "link.jsonl"],
    );
    check("symbolic links", &o, 0, "wrote link.svg");
    for link in ["link.svg", "link.jsonl"] {
        let meta = std::fs::symlink_metadata(dir.path(link)).expect("link");
        assert!(meta.file_type().is_symlink(), "{link} is still a link");
    }
    let svg = std::fs::read_to_string(dir.path("real/target.svg")).expect("target");
    assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
    let trace = std::fs::read_to_string(dir.path("real/t.jsonl")).expect("target");
    for line in trace.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("a JSON line");
    }
    assert_eq!(
        dir.listing(),
        ["link.jsonl", "link.svg", "real", "real/t.jsonl", "real/target.svg"],
        "no temporary file"
    );
}

/// `sim` on a long traced run into `t.jsonl`, in `dir`, with `shell` (a `sh -c` script that ends with
/// `exec "$@"`) around it.
fn long_traced_run(dir: &Scratch, shell: &str, n: &str) -> std::process::Child {
    Command::new("sh")
        .current_dir(&dir.0)
        .args(["-c", shell, "sh", env!("CARGO_BIN_EXE_sim")])
        .args(["run", "block_reduce", "--set", n, "--trace-file", "t.jsonl"])
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn sim")
}

#[test]
fn a_signal_during_a_streamed_trace_leaves_no_file() {
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = Scratch::new(&format!("signal-{signal}"));
        let mut child = long_traced_run(&dir, "exec \"$@\"", "n=16777216");
        let tmp = format!(".t.jsonl.{}.tmp", child.id());
        // The temporary file appears once the run starts.
        let start = Instant::now();
        while !dir.listing().contains(&tmp) {
            if start.elapsed() > Duration::from_secs(120) || child.try_wait().expect("wait").is_some() {
                let _ = child.kill();
                let o = child.wait_with_output().expect("sim");
                panic!("no {tmp} appeared: {:?}\n{}", dir.listing(), text(&o.stderr));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let kill = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .expect("kill");
        assert!(kill.success(), "kill -{signal}");
        let o = child.wait_with_output().expect("sim");
        assert_eq!(o.status.code(), Some(code), "SIG{signal}: {}", text(&o.stderr));
        assert_eq!(dir.listing(), Vec::<String>::new(), "SIG{signal}: no file is left");
        let err = text(&o.stderr);
        for bad in ["panicked", "internal error", "stack backtrace"] {
            assert!(!err.contains(bad), "{err}");
        }
    }
}

#[test]
fn a_streamed_trace_past_the_file_size_limit_is_reported_and_removed() {
    let dir = Scratch::new("xfsz");
    // No `trap '' XFSZ`: `sim` itself keeps SIGXFSZ from killing it. 100 blocks of 512 bytes.
    let child = long_traced_run(&dir, "ulimit -f 100 && exec \"$@\"", "n=65536");
    let o = child.wait_with_output().expect("sim");
    check(
        "--trace-file past ulimit -f",
        &o,
        2,
        "error: cannot write `t.jsonl`: File too large (os error 27)",
    );
    assert_eq!(dir.listing(), Vec::<String>::new(), "no file is left");
}

#[test]
fn a_faulting_run_writes_every_file_whole() {
    let dir = Scratch::new("faulting");
    dir.write("oob.s", FAULTS[0].1);
    let (o, _) = sim_in(&dir.0, &with_outputs(&["run", "oob.s", "--warp", "8"]));
    check("faulting run with outputs", &o, 1, "wrote o/a.svg");
    let err = text(&o.stderr);
    assert!(err.contains(FAULTS[0].2), "{err}");
    assert_eq!(
        dir.listing(),
        ["o", "o/a.html", "o/a.svg", "o/c.json", "o/t.jsonl", "oob.s"],
        "every file, and no temporary one"
    );
    let read = |f: &str| std::fs::read_to_string(dir.path(f)).expect("read");
    assert!(read("o/a.svg").trim_end().ends_with("</svg>"));
    assert!(read("o/a.html").trim_end().ends_with("</html>"));
    serde_json::from_str::<serde_json::Value>(&read("o/c.json")).expect("whole chrome trace");
    for line in read("o/t.jsonl").lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("whole JSON lines");
    }
}

// ---------------------------------------------------------------------------------------------------------
// Faults of the simulated program: exit status 1, the message names the instruction.

/// (file, source, first line of stderr at `--warp 8`)
const FAULTS: [(&str, &str, &str); 19] = [
    (
        "oob_global.s",
        "// Lanes 6 and 7 read past the end of `in`.
.buffer in f32[W]
.reg %i, %v
        add.u32         %i, %laneid, 2
        ld.global.f32   %v, in[%i]
",
        "error: out-of-bounds load from `in`: element 8, but `in` has 8 elements (0..8)",
    ),
    (
        "oob_shared.s",
        "// Lane 0 stores to element -1 of a shared array.
.shared s u32[W]
.reg %i
        sub.s32         %i, %laneid, 1
        st.shared.u32   s[%i], %laneid
",
        "error: out-of-bounds store to shared array `s`: element -1, but `s` has 8 elements (0..8)",
    ),
    (
        "misaligned.s",
        "// A byte offset that is not a multiple of 4.
.buffer out u32[W]
.reg %off
        mul.lo.u32      %off, %laneid, 2
        st.global.u32   [out + %off], %laneid
",
        "error: misaligned store to `out`: byte offset 2 is not a multiple of 4",
    ),
    (
        "div0.s",
        "// Lane 0 divides by zero.
.reg %a
        div.u32         %a, 1, %laneid
",
        "error: integer division by zero",
    ),
    (
        "barrier_divergence.s",
        "// Lanes 0-3 of each warp branch past the barrier; lanes 4-7 reach it.
.block 64
.pred %lo
        setp.lt.u32     %lo, %laneid, 4
        @%lo bra        skip
        bar.sync        0
skip:
        exit
",
        "error: barrier divergence: lanes 4-7 of the warp reached the barrier but lanes 0-3 did not",
    ),
    (
        "deadlock.s",
        "// Warp 0 waits at barrier 0, the other warps at barrier 1: neither completes.
.block 64
.pred %w0
        setp.eq.u32     %w0, %warpid, 0
        @%w0 bra        first
        bar.sync        1
        exit
first:
        bar.sync        0
",
        "error: deadlock: no warp can proceed; 8 warps wait at barriers:",
    ),
    (
        "warpsync.s",
        "// bar.warp.sync names every lane, on a path only lanes 0-3 take.
.pred %low
        setp.lt.u32     %low, %laneid, 4
        @!%low bra      done
        bar.warp.sync
done:
        exit
",
        "error: bar.warp.sync: lanes 4-7 named in the mask are not converged here",
    ),
    (
        "its_deadlock.s",
        "// Under independent thread scheduling, lanes 0-3 skip the bar.warp.sync that names them.
.scheduling its
.pred %low
        setp.lt.u32     %low, %laneid, 4
        @%low bra       skip
        bar.warp.sync
skip:
        exit
",
        "error: warp-synchronous deadlock: every path of the warp waits, and lanes 0-3 named in their member masks never arrive:",
    ),
    (
        "its_mismatch.s",
        "// Under independent thread scheduling, the two halves of the warp wait at different kinds of shuffle.
.scheduling its
.reg %v
.pred %low
        setp.lt.u32         %low, %laneid, 4
        @%low bra           low
        shfl.sync.bfly.b32  %v, %laneid, 1
        exit
low:
        shfl.sync.idx.b32   %v, %laneid, 1
",
        "error: independent thread scheduling: lanes 0-3 wait at pc 4, a warp-synchronous instruction that is not the same operation with the same qualifiers and member mask: they can never meet",
    ),
    (
        "bad_barrier.s",
        "// A barrier id from a register, outside 0..15.
.block 64
.reg %id
        mov.u32         %id, 16
        bar.sync        %id
",
        "error: barrier id 16 is out of range (0 to 15)",
    ),
    (
        "bad_count.s",
        "// A barrier thread count that is not a multiple of the warp size.
.block 64
        bar.sync        0, 12
",
        "error: barrier thread count 12 is not a positive multiple of the warp size (8)",
    ),
    (
        "spin.s",
        "// An endless loop (run with --max-cycles 100000).
top:
        bra             top
",
        "error: the run passed the cycle limit (100000 cycles)",
    ),
    (
        "null.s",
        "// A null pointer: a global load through address 0.
.reg %v
.reg.b64 %rd
        mov.b64         %rd, 0
        ld.global.u32   %v, [%rd]
",
        "error: load from address 0x0000000000000000 (a null pointer): it is in no buffer",
    ),
    (
        "flat_oob.s",
        "// Lanes 6 and 7 read past the end of `in` through a pointer.
.buffer in f32[W]
.reg %f
.reg.b64 %rd, %off
        mul.wide.u32    %off, %laneid, 4
        mov.b64         %rd, in
        add.s64         %rd, %rd, %off
        ld.global.f32   %f, [%rd + 8]
",
        "error: out-of-bounds load from `in`: element 8, but `in` has 8 elements (0..8)",
    ),
    (
        "no_window.s",
        "// A generic address in no buffer and in neither window.
.buffer out u32[W]
.reg.b64 %rd
        mov.b64         %rd, out
        add.s64         %rd, %rd, 0x100000000000000
        st.u32          [%rd], %laneid
",
        "error: store to address 0x0100000100000000: it is in no buffer, nor in the shared or the local window",
    ),
    (
        "shared_range.s",
        "// A shared offset past the block's shared memory (32 bytes at W=8).
.shared s u32[W]
.reg %a
        shl.b32         %a, %laneid, 3
        st.shared.u32   [%a], %laneid
",
        "error: out-of-bounds store to shared memory: bytes 32..36, but the block's shared memory has 32 bytes",
    ),
    (
        "local_misaligned.s",
        "// A local offset that is not a multiple of the access size.
.local 64
.reg %a, %v
        shl.b32         %a, %laneid, 1
        ld.local.u32    %v, [%a]
",
        "error: misaligned load from local memory: byte offset 2 is not a multiple of 4",
    ),
    (
        "mixed.s",
        "// The lanes of one generic load reach a buffer and shared memory.
.buffer in u32[W]
.shared s u32[W]
.reg %v
.reg.b64 %rd
.pred %odd
        mov.b64         %rd, in
        and.b32         %v, %laneid, 1
        setp.eq.u32     %odd, %v, 1
        @%odd mov.b64   %rd, 0x1000000000000
        ld.u32          %v, [%rd]
",
        "error: the lanes of one access reach different buffers or state spaces (lane 0: buffer `in`; this lane: shared memory): not supported",
    ),
    (
        "local_atomic.s",
        "// An atomic through a generic address in local memory.
.local 4
.reg %v
.reg.b64 %rd
        mov.b64         %rd, 0x1000100000000
        atom.add.u32    %v, [%rd], 1
",
        "error: atomic on local memory: PTX defines atomics on global and shared memory only",
    ),
];

#[test]
fn faults_of_the_simulated_program_exit_1_with_the_instruction() {
    let dir = Scratch::new("faults");
    let docs = errors_md();
    for (file, source, first) in FAULTS {
        dir.write(file, source);
        let (o, took) = sim_in(&dir.0, &["run", file, "--warp", "8", "--max-cycles", "100000"]);
        check(file, &o, 1, first);
        assert!(took < Duration::from_secs(60), "{file}: took {took:?}");
        let err = text(&o.stderr);
        assert!(
            err.contains(&format!(" --> {file}:")),
            "{file}: no source location:\n{err}"
        );
        assert!(err.contains("= note: in block "), "{file}: no block, warp, pc:\n{err}");
        documented(&docs, &["run", file, "--warp", "8"], first, 1);
        if printing() {
            println!("```s\n{source}```");
        } else {
            assert!(
                docs.contains(source),
                "docs/errors.md does not show {file} as it is here:\n{source}"
            );
        }
    }
}

/// The `--check` examples of docs/errors.md: the program as the page shows it, the first line of stderr.
const FINDINGS: [(&str, &str, &str); 4] = [
    (
        "uninit.s",
        "init",
        "error: read of uninitialised register `%v` (lanes 4-7 never wrote it)",
    ),
    (
        "unzeroed.s",
        "init",
        "error: read of uninitialised shared memory `count[0]` (by lanes 0-7; no thread of the block wrote it)",
    ),
    (
        "shfl_inactive.s",
        "shfl",
        "error: undefined shuffle read: lane 4 reads lane 0, which does not execute it (lanes 4-7 in all)",
    ),
    (
        "mask_absent.s",
        "sync",
        "error: member mask: it names lanes 4-7 that do not execute the instruction (on another path or guarded off): on sm_70 and later the lanes that execute it would wait for them",
    ),
];

/// The source of example `file` as docs/errors.md shows it (the `s` block after its name).
fn example_source(docs: &str, file: &str) -> String {
    let at = docs
        .find(&format!("`{file}`\n\n```s\n"))
        .unwrap_or_else(|| panic!("docs/errors.md shows no `{file}`"));
    let body = &docs[at..];
    let start = body.find("```s\n").expect("code block") + 5;
    let end = start + body[start..].find("```").expect("end of code block");
    body[start..end].to_string()
}

#[test]
fn check_findings_and_the_instruction_limit_exit_1_as_documented() {
    let dir = Scratch::new("findings");
    let docs = errors_md();
    for (file, check_name, first) in FINDINGS {
        dir.write(file, example_source(&docs, file));
        let (o, _) = sim_in(&dir.0, &["run", file, "--warp", "8", "--check", check_name]);
        check(file, &o, 1, first);
        assert!(
            text(&o.stdout).contains(&format!("check {check_name}: 1 problem found")),
            "{file}: {}",
            text(&o.stdout)
        );
        documented(&docs, &["run", file, "--warp", "8", "--check", check_name], first, 1);
    }
    // block_reduce without its barrier.
    let (shown, _) = sim_in(&dir.0, &["show", "block_reduce"]);
    let nobar: String = text(&shown.stdout)
        .lines()
        .filter(|l| l.trim() != "bar.sync            0")
        .map(|l| format!("{l}\n"))
        .collect();
    dir.write("nobar.s", nobar);
    let (o, _) = sim_in(&dir.0, &["run", "nobar.s", "--check", "race"]);
    let first =
        "error: data race on shared memory: read-after-write hazard on `partial[1]` between threads no barrier orders";
    check("nobar.s", &o, 1, first);
    documented(&docs, &["run", "nobar.s", "--check", "race"], first, 1);
    // The instruction limit on spin.s.
    dir.write("spin.s", example_source(&docs, "spin.s"));
    let (o, _) = sim_in(&dir.0, &["run", "spin.s", "--warp", "8", "--max-instructions", "1000"]);
    let first =
        "error: the run passed the instruction limit (1000 warp instructions): 1005 issued; this warp issued the most";
    check("spin.s", &o, 1, first);
    documented(
        &docs,
        &["run", "spin.s", "--warp", "8", "--max-instructions", "1000"],
        first,
        1,
    );
}
