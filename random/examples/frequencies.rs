//! How often each instruction and each edge operand occurs in generated programs: the table of
//! `docs/random.md`.
//!
//! `cargo run --release -p warpsim-random --example frequencies -- [PROGRAMS] [SEED]` (default 2000 programs of
//! seed 1) prints, for each target, the share of programs that contain each instruction form (opcode with its
//! modifiers and type, operands dropped) and its share of all instructions, then the share of programs whose
//! inputs hold each kind of edge value, and its share of all input values.

use std::collections::BTreeMap;
use warpsim_isa::{FsResolver, parse, print};
use warpsim_random::{Target, seeded};

/// A kind of edge value: its name, and whether bits are of that kind.
type Edge = (&'static str, fn(u32) -> bool);

/// The edge operands the ISA reference states semantics for, as bit patterns of the input values.
const EDGES: [Edge; 9] = [
    ("0x80000000: INT_MIN, and -0.0", |v| v == 0x8000_0000),
    ("0x7fffffff: INT_MAX (a NaN as f32)", |v| v == 0x7fff_ffff),
    ("0xffffffff: -1 (a NaN as f32)", |v| v == 0xffff_ffff),
    ("32 to 63: a shift count of 32 or more", |v| (32..64).contains(&v)),
    ("0: a zero divisor (forced non-zero where it would fault)", |v| v == 0),
    ("±inf", |v| v & 0x7fff_ffff == 0x7f80_0000),
    ("NaN (any payload, either sign)", |v| f32::from_bits(v).is_nan()),
    ("a denormal", |v| v & 0x7f80_0000 == 0 && v & 0x007f_ffff != 0),
    ("an f32 outside the s32 range (|x| ≥ 2^31, not NaN)", |v| {
        let f = f32::from_bits(v);
        !f.is_nan() && f.abs() >= 2_147_483_648.0
    }),
];

#[allow(
    clippy::cast_precision_loss,
    reason = "shares of counts far below 2^52, printed to two decimals"
)]
fn main() {
    let mut args = std::env::args().skip(1);
    let programs: u64 = args.next().map_or(2000, |a| a.parse().expect("PROGRAMS is a number"));
    let seed: u64 = args.next().map_or(1, |a| a.parse().expect("SEED is a number"));
    for target in [Target::Gpu, Target::Reference] {
        // form → (programs containing it, instructions)
        let mut forms: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        let mut edges = vec![0u64; EDGES.len()];
        let mut values = vec![0u64; EDGES.len()];
        let mut pooled = 0u64;
        let mut total = 0u64;
        for index in 0..programs {
            let case = seeded(target, seed, index);
            let text = case.program("frequencies", "");
            let program = parse("frequencies.s", &text, &FsResolver).expect("a generated program assembles");
            let mut in_program = BTreeMap::new();
            for inst in &program.instructions {
                let op = print::op(&program, &inst.op);
                let form = op.split_whitespace().next().unwrap_or_default().to_string();
                *in_program.entry(form).or_insert(0u64) += 1;
                total += 1;
            }
            for (form, n) in in_program {
                let e = forms.entry(form).or_default();
                e.0 += 1;
                e.1 += n;
            }
            for (k, (_, is)) in EDGES.iter().enumerate() {
                let n = case.pool.iter().filter(|&&v| is(v)).count() as u64;
                values[k] += n;
                edges[k] += u64::from(n > 0);
            }
            pooled += case.pool.len() as u64;
        }
        println!("## {target:?}: {programs} programs of seed {seed}, {total} instructions\n");
        println!("| instruction | programs | instructions |");
        println!("|---|---:|---:|");
        for (form, (p, n)) in &forms {
            println!(
                "| `{form}` | {:.1}% | {:.2}% |",
                100.0 * *p as f64 / programs as f64,
                100.0 * *n as f64 / total as f64
            );
        }
        println!("\n| edge value among the inputs | programs | input values |");
        println!("|---|---:|---:|");
        for (k, (name, _)) in EDGES.iter().enumerate() {
            println!(
                "| {name} | {:.1}% | {:.2}% |",
                100.0 * edges[k] as f64 / programs as f64,
                100.0 * values[k] as f64 / pooled as f64
            );
        }
        println!();
    }
}
