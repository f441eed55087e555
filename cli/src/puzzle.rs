//! `sim puzzle list|show|check`: the shipped teaching programs as exercises (`warpsim_tools::puzzle`).

use super::Failure;
use std::fmt::Write as _;
use std::path::Path;
use warpsim_tools::puzzle::{self, Puzzle};

/// `sim puzzle …`
#[derive(clap::Subcommand)]
pub(crate) enum PuzzleCommand {
    /// List the puzzles.
    List,
    /// Print a puzzle's starting file: its task as comments, then the stub to complete
    /// (`sim puzzle show butterfly_max > answer.s`).
    Show {
        /// A puzzle's name (see `sim puzzle list`) or a puzzle file (`.toml`).
        puzzle: String,
        /// Add the hint.
        #[arg(long)]
        hint: bool,
    },
    /// Check an answer: run it against the puzzle's hidden reference at several warp sizes and launches, under
    /// the default, reverse and random schedules, in lockstep and with independent thread scheduling, with
    /// every sanitizer (`--check all`). Exit status 0 when it passes, 1 when it fails.
    Check {
        /// A puzzle's name or a puzzle file (`.toml`).
        puzzle: String,
        /// The answer: an assembly file.
        answer: String,
        /// Host threads for each run (the verdict does not depend on them; default: all cores).
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
}

/// A shipped puzzle by name, or a puzzle file.
fn find(name: &str) -> Result<Puzzle, Failure> {
    if Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"))
    {
        let text =
            std::fs::read_to_string(name).map_err(|e| Failure::input(format!("error: cannot read `{name}`: {e}")))?;
        let stem = Path::new(name)
            .file_stem()
            .map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned());
        return puzzle::parse(&stem, &text).map_err(|e| Failure::input(format!("error: {name}: {e}")));
    }
    let all = shipped()?;
    all.iter().find(|p| p.name == name).cloned().ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
        let hint = warpsim_isa::diagnostic::closest(name, names.iter().copied())
            .map(|s| format!("did you mean `{s}`?"))
            .unwrap_or_else(|| "`sim puzzle list` lists them; a puzzle file ends in `.toml`".into());
        Failure::input(format!("error: no puzzle named `{name}`\n  help: {hint}"))
    })
}

/// The shipped puzzles, or the error that a broken file among them is.
fn shipped() -> Result<Vec<Puzzle>, Failure> {
    puzzle::shipped().map_err(|e| Failure::input(format!("error: {e}")))
}

pub(crate) fn command(c: &PuzzleCommand, color: bool) -> Result<String, Failure> {
    match c {
        PuzzleCommand::List => {
            let all = shipped()?;
            let width = all.iter().map(|p| p.name.len()).max().unwrap_or(0);
            let mut out = String::new();
            for p in all {
                let _ = writeln!(out, "{:<width$}  {}", p.name, p.title);
            }
            out.push_str("\n`sim puzzle show NAME > answer.s` gives a puzzle's task and stub; `sim puzzle check NAME answer.s` checks it.\n");
            Ok(out)
        }
        PuzzleCommand::Show { puzzle, hint } => Ok(find(puzzle)?.starting_file(*hint)),
        PuzzleCommand::Check {
            puzzle,
            answer,
            threads,
        } => {
            let p = find(puzzle)?;
            let text =
                warpsim_isa::read_source(Path::new(answer)).map_err(|e| Failure::input(format!("error: {e}")))?;
            let program = warpsim_isa::parse(answer, &text, &warpsim::programs::Resolver)
                .map_err(|e| Failure::input(e.render(color)))?;
            let verdict = puzzle::check(&p, &program, *threads).map_err(|e| Failure::input(format!("error: {e}")))?;
            match verdict.failure {
                None => Ok(format!(
                    "pass: {} ({}): the same `{}` as the reference in all {} runs (warp sizes {}; default, reverse and random schedules; lockstep and independent thread scheduling; --check all)\n",
                    p.name,
                    p.title,
                    p.compare.join("`, `"),
                    verdict.runs,
                    p.warp_sizes.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                )),
                Some(f) => {
                    let mut m = format!(
                        "fail: {} ({}), run {} under {}:\n{}",
                        p.name,
                        p.title,
                        verdict.runs,
                        f.setting,
                        f.message.trim_end()
                    );
                    if let Some(d) = f.departure {
                        let _ = write!(m, "\n  where it departs: {d}");
                    }
                    Err(Failure {
                        message: m + "\n",
                        code: 1,
                    })
                }
            }
        }
    }
}
