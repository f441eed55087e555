//! The random-program generator (`warpsim-random`) covers the ISA: launch shapes of every rank, the shapes'
//! special registers in the index computations, and (with the 64-bit registers) the 64-bit instructions. Exact
//! tests of what it prints, and that what it prints assembles and runs at every warp size it draws.

use warpsim::{Config, FaultKind, Launch, SimError, programs};
use warpsim_tools::random::{Case, Src, Stmt, Target, seeded};

fn assemble(src: &str) -> warpsim_isa::Program {
    warpsim_isa::parse("case.s", src, &programs::Resolver)
        .unwrap_or_else(|e| panic!("does not assemble:\n{}\n{src}", e.render(false)))
}

/// The (x, y, z) of linear number `n` in `shape`, x fastest (CUDA's numbering), written here from the
/// definition.
fn unflatten(n: u32, shape: [u32; 3]) -> [u32; 3] {
    [n % shape[0], n / shape[0] % shape[1], n / (shape[0] * shape[1])]
}

/// The index of a special register in the generator's list (`Src::Special`).
fn special(name: &str) -> u8 {
    let names = [
        "%laneid",
        "%tid.x",
        "%tid.y",
        "%tid.z",
        "%ntid.x",
        "%ntid.y",
        "%ntid.z",
        "%ctaid.x",
        "%ctaid.y",
        "%ctaid.z",
        "%nctaid.x",
        "%nctaid.y",
        "%nctaid.z",
    ];
    u8::try_from(names.iter().position(|n| *n == name).expect("a special")).expect("small")
}

/// A 2-D or 3-D launch: every thread finds its own slots from the shapes' special registers (`%gid` is a
/// bijection onto 0 … threads - 1), and stores its `%tid` and `%ctaid`, which are the unflattened linear
/// numbers: the output buffer holds exactly those, thread by thread, with its inputs copied where nothing
/// overwrote them. Also with a partial last warp (15 threads in warps of 4) and at W = 2.
#[test]
fn shaped_launches_give_every_thread_its_own_slots_and_indices() {
    for (w, block_dim, grid_dim) in [
        (4, [3, 2, 2], [1, 2, 2]),
        (4, [5, 1, 3], [2, 1, 1]),
        (2, [1, 3, 2], [2, 2, 1]),
        (8, [8, 2, 1], [1, 1, 3]),
    ] {
        let block: u32 = block_dim.iter().product();
        let grid: u32 = grid_dim.iter().product();
        let warps = block.div_ceil(w);
        let mov = |d: u8, name: &str| Stmt::Mov {
            g: None,
            ty: 1,
            d,
            a: Src::Special(special(name)),
        };
        let case = Case {
            target: Target::Reference,
            w,
            warps,
            missing: warps * w - block,
            grid,
            block_dim,
            grid_dim,
            pool: vec![7, 0xdead_beef, 0x3f80_0000],
            wide: false,
            pool64: vec![],
            junk_mask_bits: false,
            body: vec![
                mov(0, "%tid.x"),
                mov(1, "%tid.y"),
                mov(2, "%tid.z"),
                mov(3, "%ctaid.x"),
                mov(4, "%ctaid.y"),
                // r5 keeps its input: the copy of `in` shows the slots line up.
            ],
        };
        let src = case.source();
        let program = assemble(&src);
        let out = warpsim::simulate(&program, &Config::hopper().with_warp_size(w), &Launch::default())
            .unwrap_or_else(|e| panic!("{block_dim:?} x {grid_dim:?} does not run: {e:?}\n{src}"));
        let buffer = |name: &str| &out.buffers.iter().find(|b| b.name == name).expect("buffer").data;
        let (input, output) = (buffer("in"), buffer("out"));
        for gid in 0..block * grid {
            let tid = unflatten(gid % block, block_dim);
            let ctaid = unflatten(gid / block, grid_dim);
            let g = gid as usize;
            let expected = [tid[0], tid[1], tid[2], ctaid[0], ctaid[1], input[g * 6 + 5]];
            assert_eq!(
                &output[g * 7..g * 7 + 6],
                &expected,
                "thread {gid} of {block_dim:?} x {grid_dim:?} at W = {w}"
            );
        }
    }
}

/// Over 300 cases of each target: 1-D, 2-D and 3-D blocks and grids (a 2-D or 3-D block with a partial warp
/// among them), every shape within CUDA's limits and 128 threads, and every special register of the shapes
/// in some program.
#[test]
fn the_generator_draws_every_launch_rank_and_reads_every_shape_register() {
    for target in [Target::Reference, Target::Gpu] {
        let mut block_ranks = [0u32; 3];
        let mut grid_ranks = [0u32; 3];
        let mut shaped_partial = 0;
        let mut text = String::new();
        for index in 0..300 {
            let case = seeded(target, 17, index);
            let rank = |d: [u32; 3]| if d[2] > 1 { 2 } else { usize::from(d[1] > 1) };
            block_ranks[rank(case.block_dim)] += 1;
            grid_ranks[rank(case.grid_dim)] += 1;
            assert_eq!(case.block_dim.iter().product::<u32>(), case.block(), "{case:?}");
            assert_eq!(case.grid_dim.iter().product::<u32>(), case.grid, "{case:?}");
            assert!(case.threads() <= 128);
            assert!(case.block_dim[0] <= 1024 && case.block_dim[1] <= 1024 && case.block_dim[2] <= 64);
            if rank(case.block_dim) > 0 && case.missing > 0 {
                shaped_partial += 1;
            }
            text.push_str(&case.source());
        }
        assert!(
            block_ranks.iter().all(|&n| n >= 10),
            "{target:?} blocks by rank: {block_ranks:?}"
        );
        assert!(
            grid_ranks.iter().all(|&n| n >= 10),
            "{target:?} grids by rank: {grid_ranks:?}"
        );
        if target == Target::Reference {
            assert!(shaped_partial > 0, "no 2-D or 3-D block with a partial warp");
        }
        for reg in [
            "%tid.y",
            "%tid.z",
            "%ntid.y",
            "%ntid.z",
            "%ctaid.y",
            "%ctaid.z",
            "%nctaid.y",
            "%nctaid.z",
        ] {
            assert!(text.contains(reg), "{target:?}: no program reads {reg}");
        }
    }
}

/// Generated programs (the reference target) assemble, launch and run at every warp size the generator draws,
/// each to its end or to one of the faults it writes on purpose (a division by zero, an unchecked index or
/// offset, a `bar.warp.sync` naming lanes that do not run it).
#[test]
fn generated_programs_run_at_every_warp_size() {
    let mut sizes = std::collections::BTreeMap::new();
    for index in 0..240 {
        let case = seeded(Target::Reference, 23, index);
        let src = case.source();
        let program = assemble(&src);
        match warpsim::simulate(&program, &Config::hopper().with_warp_size(case.w), &Launch::default()) {
            Ok(_) => *sizes.entry(case.w).or_insert(0) += 1,
            Err(SimError::Fault(f)) => assert!(
                matches!(
                    f.kind,
                    FaultKind::DivideByZero
                        | FaultKind::OutOfBounds { .. }
                        | FaultKind::Misaligned { .. }
                        | FaultKind::WarpSyncDivergence { .. }
                ),
                "case {index} at W = {}: {}\n{src}",
                case.w,
                f.message()
            ),
            Err(SimError::Load(e)) => panic!("case {index} does not load: {}\n{src}", e.render(&program, false)),
        }
    }
    assert_eq!(
        sizes.keys().copied().collect::<Vec<_>>(),
        vec![2, 4, 8, 16, 32, 64],
        "runs by warp size: {sizes:?}"
    );
}

/// Every instruction form in `count` programs of `target` (opcode, modifiers and type, as warpsim prints them),
/// and the programs' text.
fn forms(target: Target, seed: u64, count: u64) -> (std::collections::BTreeSet<String>, String) {
    let mut forms = std::collections::BTreeSet::new();
    let mut text = String::new();
    for index in 0..count {
        let source = seeded(target, seed, index).source();
        let program = assemble(&source);
        for i in &program.instructions {
            let op = warpsim_isa::print::op(&program, &i.op);
            forms.insert(op.split_whitespace().next().unwrap_or_default().to_string());
        }
        text.push_str(&source);
    }
    (forms, text)
}

/// The 64-bit instruction forms the generator writes: every one occurs in 1500 programs of each target.
fn add(want: &mut Vec<String>, v: &[&str]) {
    want.extend(v.iter().map(|s| (*s).to_string()));
}

fn wide_forms() -> Vec<String> {
    let mut want: Vec<String> = Vec::new();
    add(&mut want, &["mov.b64", "mov.u64", "mov.s64", "mov.f64"]);
    for ty in ["u64", "s64"] {
        for op in [
            "add", "sub", "mul", "min", "max", "div", "rem", "mul.hi", "mad", "mad.hi", "shl", "shr",
        ] {
            want.push(format!("{op}.{ty}"));
        }
    }
    add(
        &mut want,
        &[
            "and.b64", "or.b64", "xor.b64", "and.u64", "or.s64", "xor.s64", "not.b64", "not.u64", "not.s64", "shl.b64",
            "shr.b64", "neg.s64", "abs.s64",
        ],
    );
    add(
        &mut want,
        &[
            "mul.wide.u32",
            "mul.wide.s32",
            "mad.wide.u32",
            "mad.wide.s32",
            "mul.hi.u32",
            "mul.hi.s32",
            "mad.hi.u32",
            "mad.hi.s32",
        ],
    );
    add(
        &mut want,
        &[
            "add.f64",
            "sub.f64",
            "mul.f64",
            "div.f64",
            "min.f64",
            "max.f64",
            "fma.f64",
            "mad.f64",
            "neg.f64",
            "abs.f64",
            "sqrt.rn.f64",
            "sqrt.rn.f32",
        ],
    );
    for ty in ["u64", "s64", "f64"] {
        for cmp in ["eq", "ne", "lt", "le", "gt", "ge"] {
            want.push(format!("setp.{cmp}.{ty}"));
        }
    }
    add(
        &mut want,
        &[
            "setp.eq.b64",
            "setp.ne.b64",
            "selp.b64",
            "selp.u64",
            "selp.s64",
            "selp.f64",
        ],
    );
    for rnd in ["rni", "rzi", "rmi", "rpi"] {
        for (to, from) in [
            ("f64", "f64"),
            ("s64", "f64"),
            ("u64", "f64"),
            ("s64", "f32"),
            ("u64", "f32"),
            ("s32", "f64"),
            ("u32", "f64"),
        ] {
            want.push(format!("cvt.{rnd}.{to}.{from}"));
        }
    }
    for rnd in ["rn", "rz", "rm", "rp"] {
        for (to, from) in [
            ("f64", "s64"),
            ("f64", "u64"),
            ("f64", "s32"),
            ("f64", "u32"),
            ("f32", "f64"),
            ("f32", "s64"),
            ("f32", "u64"),
        ] {
            want.push(format!("cvt.{rnd}.{to}.{from}"));
        }
    }
    for rnd in ["rz", "rm", "rp"] {
        want.push(format!("cvt.{rnd}.f32.s32"));
        want.push(format!("cvt.{rnd}.f32.u32"));
    }
    add(
        &mut want,
        &[
            "cvt.u64.s64",
            "cvt.s64.u64",
            "cvt.u64.u32",
            "cvt.u64.s32",
            "cvt.s64.u32",
            "cvt.s64.s32",
            "cvt.f64.f32",
            "cvt.u32.u64",
            "cvt.s32.s64",
            "cvt.u32.s64",
            "cvt.s32.u64",
        ],
    );
    add(
        &mut want,
        &[
            "ld.global.u64",
            "ld.global.b64",
            "ld.global.f64",
            "ld.shared.u64",
            "ld.shared.b64",
            "st.global.u64",
            "st.global.b64",
            "st.shared.b64",
        ],
    );
    for space in ["global", "shared"] {
        for op in [
            "add.u64", "min.u64", "max.u64", "exch.b64", "cas.b64", "and.b64", "or.b64", "xor.b64", "cas.u64",
        ] {
            want.push(format!("atom.{space}.{op}"));
        }
        for op in ["add.u64", "min.u64", "max.u64", "and.b64", "or.b64", "xor.b64"] {
            want.push(format!("red.{space}.{op}"));
        }
    }
    add(
        &mut want,
        &[
            "atom.global.min.s64",
            "atom.global.max.s64",
            "atom.global.add.f64",
            "atom.global.exch.f64",
            "red.global.min.s64",
            "red.global.max.s64",
            "red.global.add.f64",
        ],
    );
    want
}

/// Over 1500 programs of each target the generator writes every 64-bit instruction form it knows (and the
/// 64-bit shuffles as two 32-bit shuffles between a `mov.b64` unpack and pack), and on a GPU no f64 operation
/// with two operands that may both be NaN (each such operand but one goes through a `setp.eq.f64` and `selp.f64`
/// first).
#[test]
fn the_generator_writes_every_64_bit_instruction() {
    for target in [Target::Gpu, Target::Reference] {
        let (forms, text) = forms(target, 29, 1500);
        let missing: Vec<String> = wide_forms().into_iter().filter(|f| !forms.contains(f)).collect();
        assert!(missing.is_empty(), "{target:?}: no program uses {missing:?}");
        for spelling in [
            "mov.b64 {%h0, %h1}, %w",
            "shfl.sync.bfly.b32 %h0, %h0, ",
            "shfl.sync.idx.b32 %h1|%p",
            "mov.b64 %w0, {%h0, %h1}",
            "mov.b64 {%r",
            "setp.eq.u64 %e, %w",
            "selp.u64 %wt0, 7, %w",
        ] {
            assert!(text.contains(spelling), "{target:?}: no program has `{spelling}`");
        }
        let guarded = text.matches("setp.eq.f64 %e,").count();
        if target == Target::Gpu {
            assert!(guarded > 100, "{guarded} f64 operands made numbers");
            // Every f64 operation on two or three registers keeps at most one of them as it is.
            for line in text.lines().map(str::trim) {
                // Without its guard: the instruction and its operands, the destination first.
                let op = if line.starts_with('@') {
                    line.split_once(' ').map_or(line, |(_, rest)| rest)
                } else {
                    line
                };
                let name = op.split_whitespace().next().unwrap_or("");
                let arithmetic = ["add.", "sub.", "mul.", "div.", "min.", "max.", "fma.", "mad."]
                    .iter()
                    .any(|o| name.starts_with(o));
                if arithmetic && name.rsplit('.').next() == Some("f64") {
                    let registers = op.matches("%w").count() - op.matches("%wt").count();
                    assert!(registers <= 2, "`{line}` keeps more than one possibly-NaN operand");
                }
            }
        } else {
            assert_eq!(guarded, 0, "the reference target makes no operand a number");
        }
    }
}
