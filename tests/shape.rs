//! 2-D and 3-D launches: the special registers of every thread against CUDA's numbering (x fastest; warps cut
//! from the linear thread number), the shapes' limits, and the directives and flags that give them.

use warpsim::{Config, Dim3, Launch, LoadError, RunOptions};
use warpsim_tests::assemble;

/// Every thread takes a slot with a global atomic (an order the special registers do not decide) and writes
/// what it reads there: its `%tid`, `%ntid`, `%ctaid`, `%nctaid` (x, y, z), `%warpid`, `%nwarpid`, `%laneid`.
const RECORD: usize = 15;
const SPECIALS: &str = "\
.param threads = 4096
.buffer next u32[1]
.buffer out u32[threads * 15]
.reg %slot, %v
        atom.global.add.u32 %slot, next[0], 1
        mul.lo.u32      %slot, %slot, 15
        st.global.u32   out[%slot], %tid.x
        st.global.u32   out[%slot + 1], %tid.y
        st.global.u32   out[%slot + 2], %tid.z
        st.global.u32   out[%slot + 3], %ntid.x
        st.global.u32   out[%slot + 4], %ntid.y
        st.global.u32   out[%slot + 5], %ntid.z
        st.global.u32   out[%slot + 6], %ctaid.x
        st.global.u32   out[%slot + 7], %ctaid.y
        st.global.u32   out[%slot + 8], %ctaid.z
        st.global.u32   out[%slot + 9], %nctaid.x
        st.global.u32   out[%slot + 10], %nctaid.y
        st.global.u32   out[%slot + 11], %nctaid.z
        st.global.u32   out[%slot + 12], %warpid
        st.global.u32   out[%slot + 13], %nwarpid
        st.global.u32   out[%slot + 14], %laneid
";

/// What CUDA says every thread of `grid` × `block` reads at warp size `w`: thread (x, y, z) has linear number
/// x + y·X + z·X·Y, is lane (linear % W) of warp (linear / W); blocks likewise.
fn expected(grid: [u32; 3], block: [u32; 3], w: u32) -> Vec<[u32; RECORD]> {
    let mut all = Vec::new();
    for bz in 0..grid[2] {
        for by in 0..grid[1] {
            for bx in 0..grid[0] {
                for z in 0..block[2] {
                    for y in 0..block[1] {
                        for x in 0..block[0] {
                            let linear = x + y * block[0] + z * block[0] * block[1];
                            let threads = block[0] * block[1] * block[2];
                            all.push([
                                x,
                                y,
                                z,
                                block[0],
                                block[1],
                                block[2],
                                bx,
                                by,
                                bz,
                                grid[0],
                                grid[1],
                                grid[2],
                                linear / w,
                                threads.div_ceil(w),
                                linear % w,
                            ]);
                        }
                    }
                }
            }
        }
    }
    all.sort_unstable();
    all
}

fn records(grid: Dim3, block: Dim3, w: u32) -> Vec<[u32; RECORD]> {
    let program = assemble(SPECIALS);
    let config = Config::hopper().with_warp_size(w);
    let threads = grid.count() * block.count();
    let launch = Launch {
        grid: Some(grid),
        block: Some(block),
        set: vec![(
            "threads".into(),
            warpsim_isa::Value::Int(i64::try_from(threads).expect("small")),
        )],
        ..Launch::default()
    };
    let kernel = warpsim::instantiate(&program, &config, &launch)
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(&program, false)));
    let out = warpsim::run(&kernel, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    assert_eq!(
        out.buffer("next").expect("next").data,
        [u32::try_from(threads).expect("small")]
    );
    let data = &out.buffer("out").expect("out").data;
    let mut all: Vec<[u32; RECORD]> = data.chunks(RECORD).map(|c| c.try_into().expect("a record")).collect();
    all.sort_unstable();
    all
}

#[test]
fn every_thread_reads_cudas_indices_for_its_shape_and_warp_size() {
    // (grid, block, warp sizes): 1-D, 2-D, 3-D; blocks that are and are not a multiple of W (partial warps).
    let cases: [([u32; 3], [u32; 3], &[u32]); 9] = [
        ([3, 1, 1], [40, 1, 1], &[8, 32]),
        ([2, 3, 1], [16, 16, 1], &[32, 64]),
        ([1, 1, 3], [5, 3, 2], &[4, 8, 32]),
        ([3, 2, 2], [3, 1, 7], &[2, 4, 16]),
        ([1, 2, 1], [1, 4, 1], &[2, 64]),
        ([2, 1, 1], [10, 10, 1], &[64, 16]),
        ([2, 2, 1], [7, 3, 3], &[8, 32]),
        ([1, 1, 1], [1, 1, 64], &[4, 32]),
        ([4, 1, 2], [33, 1, 1], &[32]),
    ];
    for (g, b, sizes) in cases {
        for &w in sizes {
            let got = records(Dim3::new(g[0], g[1], g[2]), Dim3::new(b[0], b[1], b[2]), w);
            assert_eq!(got, expected(g, b, w), "grid {g:?}, block {b:?}, W={w}");
        }
    }
}

#[test]
fn a_warp_of_a_2d_block_spans_rows_and_the_last_warp_is_partial() {
    // 12×5 threads at W = 16: four warps, the last with 12 lanes; warp 1 starts at (4, 1).
    let got = records(Dim3::x(1), Dim3::new(12, 5, 1), 16);
    let warp1: Vec<(u32, u32, u32)> = got.iter().filter(|r| r[12] == 1).map(|r| (r[14], r[0], r[1])).collect();
    let mut warp1 = warp1;
    warp1.sort_unstable();
    assert_eq!(warp1[0], (0, 4, 1));
    assert_eq!(warp1[7], (7, 11, 1));
    assert_eq!(warp1[8], (8, 0, 2));
    assert_eq!(warp1[15], (15, 7, 2));
    let last = got.iter().filter(|r| r[12] == 3).count();
    assert_eq!(last, 12);
    assert_eq!(got.iter().map(|r| r[14]).max(), Some(15));
}

fn load_error(text: &str, launch: &Launch) -> String {
    let program = assemble(text);
    match warpsim::instantiate(&program, &Config::hopper(), launch) {
        Ok(_) => panic!("{text} loads"),
        Err(e @ LoadError::Usage(_)) => e.render(&program, false),
        Err(e @ LoadError::Diagnostic(_)) => e.render(&program, false),
    }
}

#[test]
fn shapes_past_cudas_limits_are_refused_with_the_limit() {
    let plain = ".reg %x\n    mov.u32 %x, %tid.y\n";
    let shape = |g: Option<Dim3>, b: Option<Dim3>| Launch {
        grid: g,
        block: b,
        ..Launch::default()
    };
    let cases = [
        (
            shape(None, Some(Dim3::new(1, 1, 65))),
            "error: --block 1x1x65: z is 65; at most 64 (CUDA's limit in z)\n",
        ),
        (
            shape(None, Some(Dim3::new(32, 33, 1))),
            "error: --block 32x33 is 1056 threads; at most 1024 in all (the machine's limit per block)\n",
        ),
        (
            shape(None, Some(Dim3::x(1025))),
            "error: --block 1025 is out of range: 1 to 1024 threads (the machine's limit per block)\n",
        ),
        (
            shape(Some(Dim3::new(1, 65536, 1)), None),
            "error: --grid 1x65536: y is 65536; at most 65535 (CUDA's limit in y)\n",
        ),
        (
            shape(Some(Dim3::new(2, 1, 65536)), None),
            "error: --grid 2x1x65536: z is 65536; at most 65535 (CUDA's limit in z)\n",
        ),
        (
            shape(Some(Dim3::new(65535, 65535, 1)), None),
            "error: --grid 65535x65535 is 4294836225 blocks; at most 2147483647 in all\n",
        ),
        (
            shape(Some(Dim3::new(4, 0, 1)), None),
            "error: --grid 4x0x1: y is 0; every component of a shape is at least 1\n",
        ),
        (
            shape(Some(Dim3::x(0)), None),
            "error: --grid 0 is out of range: 1 to 2147483647 blocks\n",
        ),
    ];
    for (launch, message) in cases {
        assert_eq!(load_error(plain, &launch), message);
    }
    // Within every limit: the largest y and z of a grid, and of a block.
    for (g, b) in [
        (Dim3::new(1, 65535, 1), Dim3::x(1)),
        (Dim3::new(1, 1, 65535), Dim3::x(1)),
        (Dim3::x(1), Dim3::new(1, 1024, 1)),
        (Dim3::x(1), Dim3::new(16, 1, 64)),
    ] {
        let program = assemble(plain);
        let k = warpsim::instantiate(&program, &Config::hopper(), &shape(Some(g), Some(b))).expect("loads");
        assert_eq!((k.grid_dim, k.block_dim), (g, b));
        assert_eq!((u64::from(k.grid), u64::from(k.block)), (g.count(), b.count()));
    }
}

#[test]
fn directives_give_shapes_and_their_errors_point_at_the_component() {
    let program = assemble(".param n = 3\n.grid n, 2 * n, 1\n.block W / 2, 4\n.reg %x\n    mov.u32 %x, %tid.z\n");
    let k = warpsim::instantiate(&program, &Config::hopper().with_warp_size(16), &Launch::default()).expect("loads");
    assert_eq!(
        (k.grid_dim, k.block_dim, k.grid, k.block),
        (Dim3::new(3, 6, 1), Dim3::new(8, 4, 1), 18, 32)
    );
    assert_eq!(k.warps_per_block(), 2);
    // A missing directive: one block of W threads, 1-D.
    let k = warpsim::instantiate(&assemble(".reg %x\n"), &Config::hopper(), &Launch::default()).expect("loads");
    assert_eq!((k.grid_dim, k.block_dim), (Dim3::x(1), Dim3::x(32)));

    let err = |text: &str| load_error(text, &Launch::default());
    assert_eq!(
        err(".grid 2, 70000\n"),
        "\
error: the grid's y is 70000; it must be a whole number from 1 to 65535
 --> test.s:1:10
  |
1 | .grid 2, 70000
  |          ^^^^^ evaluates out of range
  |
  = help: CUDA allows 2147483647 in x, 65535 in y and 65535 in z, and at most 2147483647 blocks in all
"
    );
    assert_eq!(
        err(".block 4, 4, W * 4\n"),
        "\
error: the block's z is 128; it must be a whole number from 1 to 64
 --> test.s:1:14
  |
1 | .block 4, 4, W * 4
  |              ^^^^^ evaluates out of range
  |
  = help: CUDA allows 1024 in x, 1024 in y and 64 in z, and at most 1024 threads in all
"
    );
    assert_eq!(
        err(".block 64, 32\n"),
        "\
error: the block is 64x32 = 2048 threads; at most 1024 in all
 --> test.s:1:8
  |
1 | .block 64, 32
  |        ^^^^^^ too large in all
  |
  = help: make one of the components smaller
"
    );
    assert_eq!(
        err(".block 0, 4\n"),
        "\
error: the block's x is 0; it must be a whole number from 1 to 1024
 --> test.s:1:8
  |
1 | .block 0, 4
  |        ^ evaluates out of range
  |
  = help: CUDA allows 1024 in x, 1024 in y and 64 in z, and at most 1024 threads in all
"
    );
    // 1-D directives keep their messages.
    assert!(err(".block 0\n").starts_with("error: the block size is 0; it must be a whole number from 1 to 1024\n"));
    assert!(err(".grid 0\n").starts_with("error: the grid is 0; it must be a whole number from 1 to 2147483647\n"));
}

#[test]
fn a_fourth_component_is_an_assembly_error() {
    let e = warpsim_isa::parse("t.s", ".block 2, 2, 2, 2\n", &warpsim::programs::Resolver).expect_err("four");
    assert_eq!(
        e.render(false),
        "\
error: `.block` has at most three components
 --> t.s:1:17
  |
1 | .block 2, 2, 2, 2
  |                 ^ a fourth component
  |
  = help: write `.block X`, `.block X, Y` or `.block X, Y, Z` (x, y, z as in CUDA's dim3)

error: could not assemble: 1 error
"
    );
}

fn kernel_of(text: &str, w: u32) -> (warpsim::Kernel, Config) {
    let program = assemble(text);
    let config = Config::hopper().with_warp_size(w);
    let kernel = warpsim::instantiate(&program, &config, &Launch::default())
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(&program, false)));
    (kernel, config)
}

#[test]
fn a_fault_in_a_2d_launch_names_the_block_and_thread_indices() {
    // Thread (1,1) of block (1,1) stores past the end of `b`: block 3, warp 1 (threads 4-7 at W = 4), lane 1.
    let text = "\
.grid 2, 2
.block 4, 2
.buffer b u32[4]
.reg %x
.pred %p, %q
    setp.eq.u32 %p, %tid.x, 1
    setp.eq.u32 %q, %tid.y, 1
    and.pred %p, %p, %q
    setp.eq.u32 %q, %ctaid.x, 1
    and.pred %p, %p, %q
    setp.eq.u32 %q, %ctaid.y, 1
    and.pred %p, %p, %q
    selp.u32 %x, 100, 0, %p
    st.global.u32 b[%x], 7
";
    let (kernel, config) = kernel_of(text, 4);
    let fault = warpsim::run(&kernel, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect_err("faults");
    let report = fault.render(&kernel, false);
    assert!(
        report.contains("= note: in block 3 = (1,1), warp 1, lane 1 (thread 5 = (1,1)), pc 8, cycle "),
        "{report}"
    );
    // A fault in a 1-D launch reads as before: no indices.
    let text = ".grid 4\n.block 8\n.buffer b u32[4]\n.reg %x\n.pred %p\n    setp.eq.u32 %p, %tid.x, 5\n    \
                selp.u32 %x, 100, 0, %p\n    st.global.u32 b[%x], 7\n";
    let (kernel, config) = kernel_of(text, 4);
    let fault = warpsim::run(&kernel, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect_err("faults");
    assert_eq!((fault.warp, fault.lane), (1, Some(1)));
    let report = fault.render(&kernel, false);
    let note = format!(
        "= note: in block {}, warp 1, lane 1 (thread 5), pc 2, cycle ",
        fault.block
    );
    assert!(report.contains(&note), "{report}");
}

#[test]
fn the_text_header_lists_the_threads_of_each_warp_of_a_2d_or_3d_block() {
    let (kernel, _) = kernel_of(".grid 3, 2\n.block 12, 5\n.reg %x\n", 16);
    assert_eq!(
        warpsim::render::text::header(&kernel),
        "\
test: W=16, grid 3x2 x block 12x5 (4 warps per block)
threads (x,y) of each warp's lanes (x fastest):
  warp 0: lanes 0-11 = (0..11,0), lanes 12-15 = (0..3,1)
  warp 1: lanes 0-7 = (4..11,1), lanes 8-15 = (0..7,2)
  warp 2: lanes 0-3 = (8..11,2), lanes 4-15 = (0..11,3)
  warp 3: lanes 0-11 = (0..11,4)
"
    );
    let (kernel, _) = kernel_of(".block 3, 1, 2\n.reg %x\n", 4);
    assert_eq!(
        warpsim::render::text::header(&kernel),
        "\
test: W=4, grid 1 x block 3x1x2 (2 warps per block)
threads (x,y,z) of each warp's lanes (x fastest):
  warp 0: lanes 0-2 = (0..2,0,0), lane 3 = (0,0,1)
  warp 1: lanes 0-1 = (1..2,0,1)
"
    );
    // 1-D: the one line as before.
    let (kernel, _) = kernel_of(".grid 2\n.block 40\n.reg %x\n", 8);
    assert_eq!(
        warpsim::render::text::header(&kernel),
        "test: W=8, grid 2 x block 40 (5 warps per block)\n"
    );
}

#[test]
fn a_race_in_a_2d_launch_names_the_block_and_thread_indices() {
    // Thread (0,1) (warp 1, lane 0 at W = 4) stores s[0]; the threads of row 0 (warp 0) read it, no barrier.
    let text = "\
.grid 1, 2
.block 4, 2
.shared s u32[4]
.reg %v
.pred %p, %q
    setp.eq.u32 %p, %tid.y, 1
    setp.eq.u32 %q, %tid.x, 0
    and.pred %p, %p, %q
    @%p st.shared.u32 s[0], 7
    ld.shared.u32 %v, s[0]
";
    let (kernel, config) = kernel_of(text, 4);
    let options = RunOptions {
        checks: warpsim::Checks {
            race: true,
            ..warpsim::Checks::default()
        },
        ..RunOptions::default()
    };
    let out = warpsim::run(&kernel, &config, &options, &mut warpsim::NoTrace).expect("runs");
    let reports: Vec<String> = out.findings.iter().map(|f| f.render(&kernel, false)).collect();
    // One finding (the same pair of instructions in both blocks: 2 times in all), naming both sides with the
    // block's and the threads' indices: warp 0's lanes read first (the last of them, lane 3, is named).
    assert_eq!(reports.len(), 1, "{reports:#?}");
    let report = &reports[0];
    assert!(
        report.contains("then: block 0 = (0,0), warp 1, lane 0 (thread 4 = (0,1)) wrote it at cycle "),
        "{report}"
    );
    assert!(
        report.contains("first: block 0 = (0,0), warp 0, lane 3 (thread 3 = (3,0)) read it at cycle "),
        "{report}"
    );
    assert!(report.contains("(2 times in all)"), "{report}");
}

#[test]
fn the_lane_grid_of_a_2d_block_names_each_warps_threads() {
    let (kernel, config) = kernel_of(
        ".grid 1, 2\n.block 2, 4\n.reg %v\n    shfl.sync.bfly.b32 %v, %laneid, 1\n",
        4,
    );
    let mut events = Vec::new();
    warpsim::run(&kernel, &config, &RunOptions::default(), &mut events).expect("runs");
    let grid = warpsim::render::grid::grid(&kernel, &events, 120);
    assert!(
        grid.contains(
            "\nLane exchanges: block 1 = (0,1), warp 1 (W=4)\nthreads: lanes 0-1 = (0..1,2), lanes 2-3 = (0..1,3)\n"
        ),
        "{grid}"
    );
}

#[test]
fn a_whole_warps_access_names_its_first_faulting_lane_traced_or_not() {
    // Lanes 0-31 of one warp (the row-at-a-time locate of `lsu::locate_lanes`): the first lane past the end, below
    // the start or misaligned is the fault, as lane by lane (a traced run) finds it.
    for (address, lane) in [
        // Lanes 16 and up past the end of `b` (32 words).
        ("mad.lo.u32 %x, %tid.x, 2, 0\n    ld.global.u32 %y, b[%x]", 16),
        // A byte offset: lane 9's is misaligned (4 × 9 + 2).
        (
            "mad.lo.u32 %x, %tid.x, 4, 0\n    setp.eq.u32 %p, %tid.x, 9\n    @%p add.u32 %x, %x, 2\n    ld.global.u32 %y, [b + %x]",
            9,
        ),
        // Below the start for lanes 2 and up (1 - lane).
        ("sub.u32 %x, 1, %tid.x\n    st.global.u32 b[%x], 7", 2),
        // Shared memory: lane 31 alone past the end.
        ("add.u32 %x, %tid.x, 1\n    ld.shared.u32 %y, s[%x]", 31),
    ] {
        let text = format!(
            ".grid 1\n.block 32\n.buffer b u32[32]\n.shared s u32[32]\n.reg %x, %y\n.pred %p\n    {address}\n    st.global.u32 b[0], %y\n"
        );
        let (kernel, config) = kernel_of(&text, 32);
        let untraced =
            warpsim::run(&kernel, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect_err("faults");
        let mut events = Vec::new();
        let traced = warpsim::run(&kernel, &config, &RunOptions::default(), &mut events).expect_err("faults");
        assert_eq!(untraced.lane, Some(lane), "{address}: {:?}", untraced.kind);
        assert_eq!((traced.lane, traced.kind), (untraced.lane, untraced.kind), "{address}");
    }
}
