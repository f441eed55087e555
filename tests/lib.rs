//! Shared helpers for warpsim's end-to-end tests: running shipped programs, and host-side reference
//! implementations of every program, written directly in Rust from the algorithm's description (not from the
//! simulator), with f32 operations in the same order so results compare bit for bit.

use warpsim::{Config, Launch, RunOutput, programs};
use warpsim_isa::Value;

pub mod fuzzing;

/// The default configuration with every instruction timed as written (`timing.dead_code` off): for the tests of one
/// mechanism whose small programs leave the results they time unread, which the compiler would remove.
pub fn as_written() -> Config {
    let mut c = Config::hopper();
    c.timing.dead_code = false;
    c
}

/// Warp sizes a test sweeps.
pub const WARP_SIZES: [u32; 6] = [2, 4, 8, 16, 32, 64];

/// Run a shipped program by name at warp size `w` with `--set` overrides.
pub fn run(name: &str, w: u32, set: &[(&str, i64)]) -> RunOutput {
    let (program, launch) = load(name, set);
    let config = Config::hopper().with_warp_size(w);
    match warpsim::simulate(&program, &config, &launch) {
        Ok(out) => out,
        Err(warpsim::SimError::Load(e)) => panic!("{name} at W={w} does not load:\n{}", e.render(&program, false)),
        Err(warpsim::SimError::Fault(f)) => panic!("{name} at W={w} faults: {}", f.message()),
    }
}

pub fn load(name: &str, set: &[(&str, i64)]) -> (warpsim_isa::Program, Launch) {
    let program = programs::assemble(name)
        .unwrap_or_else(|| panic!("no shipped program {name}"))
        .unwrap_or_else(|e| panic!("{name} does not assemble:\n{}", e.render(false)));
    let launch = Launch {
        set: set.iter().map(|(n, v)| (n.to_string(), Value::Int(*v))).collect(),
        ..Launch::default()
    };
    (program, launch)
}

/// Assemble a program from text (for tests that write their own kernels).
pub fn assemble(text: &str) -> warpsim_isa::Program {
    warpsim_isa::parse("test.s", text, &programs::Resolver).unwrap_or_else(|e| panic!("{}", e.render(false)))
}

/// Run a program from text at warp size `w`, with its trace; a fault is returned, not a panic.
pub fn run_text(text: &str, w: u32) -> (Result<RunOutput, warpsim::Fault>, Vec<warpsim::Event>) {
    let program = assemble(text);
    let config = Config::hopper().with_warp_size(w);
    let kernel = warpsim::instantiate(&program, &config, &Launch::default())
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(&program, false)));
    let mut events = Vec::new();
    let out = warpsim::run(&kernel, &config, &warpsim::RunOptions::default(), &mut events);
    (out, events)
}

/// Run a shipped program with its trace events.
pub fn run_traced(name: &str, w: u32, set: &[(&str, i64)]) -> (RunOutput, Vec<warpsim::Event>) {
    let (program, launch) = load(name, set);
    let config = Config::hopper().with_warp_size(w);
    let kernel = warpsim::instantiate(&program, &config, &launch)
        .unwrap_or_else(|e| panic!("{name} at W={w} does not load:\n{}", e.render(&program, false)));
    let mut events = Vec::new();
    match warpsim::run(&kernel, &config, &warpsim::RunOptions::default(), &mut events) {
        Ok(out) => (out, events),
        Err(f) => panic!("{name} at W={w} faults: {}", f.message()),
    }
}

pub fn u32s(out: &RunOutput, buffer: &str) -> Vec<u32> {
    out.buffer(buffer).expect("buffer").data.clone()
}

/// Warp sizes at which the program launches with its default parameters (its `.warp_sizes` and `.require`s).
pub fn supported_warp_sizes(name: &str) -> Vec<u32> {
    let p = programs::assemble(name).expect("shipped").expect("assembles");
    WARP_SIZES
        .into_iter()
        .filter(|&w| warpsim::instantiate(&p, &Config::hopper().with_warp_size(w), &Launch::default()).is_ok())
        .collect()
}

pub fn f32s(out: &RunOutput, buffer: &str) -> Vec<f32> {
    out.buffer(buffer)
        .expect("buffer")
        .data
        .iter()
        .map(|&b| f32::from_bits(b))
        .collect()
}

pub fn i32s(out: &RunOutput, buffer: &str) -> Vec<i32> {
    out.buffer(buffer)
        .expect("buffer")
        .data
        .iter()
        .map(|&b| b.cast_signed())
        .collect()
}

/// Compare f32 vectors bit for bit, reporting the first difference.
pub fn assert_bits_eq(actual: &[f32], expected: &[f32], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: length");
    for (k, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            a.to_bits() == e.to_bits(),
            "{what}: element {k}: simulated {a} ({:#010x}), reference {e} ({:#010x})",
            a.to_bits(),
            e.to_bits()
        );
    }
}

/// Host references, one per program. `w` is the warp size.
pub mod reference {
    /// `v[l] = f(v[l], v[src(l)])` for all lanes at once (every lane reads before any writes).
    fn exchange(v: &[f32], src: impl Fn(usize) -> usize, f: impl Fn(f32, f32) -> f32) -> Vec<f32> {
        (0..v.len()).map(|l| f(v[l], v[src(l)])).collect()
    }

    /// `i` as f32, as the programs' values are: lane numbers and small input values, integers far below 2^24,
    /// which f32 holds exactly.
    #[allow(
        clippy::cast_precision_loss,
        reason = "lane numbers and small input values, far below 2^24: exact in f32"
    )]
    fn float(i: usize) -> f32 {
        i as f32
    }

    /// Offsets W/2, W/4, …, 1.
    fn halvings(w: usize) -> impl Iterator<Item = usize> {
        std::iter::successors(Some(w / 2), |&o| (o > 1).then_some(o / 2)).filter(|&o| o > 0)
    }

    pub fn pair_swap(w: usize) -> Vec<f32> {
        (0..w).map(|i| float(i ^ 1)).collect()
    }

    pub fn butterfly_max(w: usize) -> Vec<f32> {
        let mut v: Vec<f32> = (0..w)
            .map(|i| if i == w - 1 { 1000.0 } else { 2.0 * float(i) })
            .collect();
        for off in halvings(w) {
            v = exchange(&v, |l| l ^ off, f32::max);
        }
        v
    }

    pub fn conditional_max_input(w: usize) -> Vec<f32> {
        let head = [3.0, 1.0, 7.0, 2.0, 9.0, 4.0, 8.0, 5.0, 6.0];
        (0..2 * w)
            .map(|i| if i < head.len() { head[i] } else { float(i % 10) })
            .collect()
    }

    pub fn conditional_max(w: usize) -> Vec<f32> {
        let input = conditional_max_input(w);
        let mut out = Vec::new();
        for block in input.chunks(w) {
            let mut hi = block.to_vec();
            let mut lo = block.to_vec();
            for off in halvings(w) {
                hi = exchange(&hi, |l| l ^ off, f32::max);
                lo = exchange(&lo, |l| l ^ off, f32::min);
            }
            out.extend((0..w).map(|l| if l % 2 == 0 { hi[l] } else { lo[l] }));
        }
        out
    }

    pub fn neighbor_difference(w: usize) -> Vec<f32> {
        let v: Vec<f32> = (0..w).map(|i| float(i * i)).collect();
        (0..w).map(|l| if l < w - 1 { v[l + 1] - v[l] } else { 0.0 }).collect()
    }

    #[allow(
        clippy::manual_midpoint,
        reason = "the program's f32 add, then divide, each rounded; f32::midpoint rounds once"
    )]
    pub fn moving_average(w: usize, size: usize) -> Vec<f32> {
        let input: Vec<f32> = (0..size).map(|i| float((i + 1) * (i + 2) / 2)).collect();
        (0..size)
            .map(|gi| {
                let lane = gi % w;
                let v = input[gi];
                // shfl.down past the end of the warp returns the lane's own value.
                let n1 = if lane + 1 < w && gi + 1 < size {
                    input[gi + 1]
                } else {
                    v
                };
                let n2 = if lane + 2 < w && gi + 2 < size {
                    input[gi + 2]
                } else {
                    v
                };
                if lane + 2 < w && gi + 2 < size {
                    (v + n1 + n2) / 3.0
                } else if lane + 1 < w && gi + 1 < size {
                    (v + n1) / 2.0
                } else {
                    v
                }
            })
            .collect()
    }

    pub fn warp_reduce_sum(w: usize) -> Vec<f32> {
        let mut v: Vec<f32> = (0..w).map(float).collect();
        for off in halvings(w) {
            v = exchange(&v, |l| if l + off < w { l + off } else { l }, |a, b| a + b);
        }
        v
    }

    pub fn warp_prefix_sum(w: usize) -> Vec<f32> {
        let mut v: Vec<f32> = (0..w).map(|i| float(i + 1)).collect();
        let mut d = 1;
        while d < w {
            v = (0..w).map(|l| if l >= d { v[l] + v[l - d] } else { v[l] }).collect();
            d *= 2;
        }
        v
    }

    /// block_reduce: one sum per block of `threads` over `in[i] = i`, `i < n`.
    pub fn block_reduce(n: u64, threads: u64) -> Vec<u32> {
        (0..n.div_ceil(threads))
            .map(|b| {
                (b * threads..((b + 1) * threads).min(n))
                    .map(|i| u32::try_from(i).expect("an index of a u32 buffer"))
                    .fold(0u32, u32::wrapping_add)
            })
            .collect()
    }

    /// block_sum: the sum of x = 1 .. n (exact while the sums stay below 2^24).
    #[allow(
        clippy::cast_precision_loss,
        reason = "the sum rounded to f32 as the program's result is; the tests keep it exact"
    )]
    pub fn block_sum(n: u64) -> f32 {
        (n * (n + 1) / 2) as f32
    }

    /// dot_product: a[i] = i, b[i] = 2i over `threads` (exact: every partial sum is an integer below 2^24).
    #[allow(
        clippy::cast_precision_loss,
        reason = "the sum rounded to f32 as the program's result is; the tests keep it exact"
    )]
    pub fn dot_product(threads: u64) -> f32 {
        (0..threads).map(|i| 2 * i * i).sum::<u64>() as f32
    }

    /// histogram_bin: the values of bin `target` in thread order, over `threads` inputs (i % 80) / 100.
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        reason = "as the program computes: the initialiser's (i % 80) / 100 in f64 stored as f32, and the bin, \
                  floor(v * 8) of a value in 0..1, as s32"
    )]
    pub fn histogram_bin(threads: usize, target: i32) -> Vec<f32> {
        (0..threads)
            .map(|i| ((i % 80) as f64 / 100.0) as f32)
            .filter(|&v| ((v * 8.0).floor() as i32).clamp(0, 7) == target)
            .collect()
    }

    /// The 16-thread shuffle demos: `src(t)` is the thread read, or `None` to keep the own value.
    pub fn demo(src: impl Fn(i64) -> Option<i64>) -> Vec<i32> {
        (0..16)
            .map(|t| i32::try_from(src(t).unwrap_or(t)).expect("a thread of 16"))
            .collect()
    }
}
