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
