//! Puzzles (`warpsim_tools::puzzle`, `programs/puzzles/`): every shipped reference passes its own check and every
//! stub fails it; wrong answers fail with the run, the value and the step where they depart; lockstep assumptions
//! and missing barriers are caught; puzzle files with mistakes are refused with the place.

use warpsim_tools::puzzle::{self, Puzzle, check, parse};

fn find_shipped(name: &str) -> Option<Puzzle> {
    puzzle::find(name).expect("the shipped puzzles parse")
}

fn assemble(text: &str) -> warpsim_isa::Program {
    warpsim_isa::parse("answer.s", text, &warpsim::programs::Resolver).expect("the answer assembles")
}

#[test]
fn every_reference_passes_and_every_stub_fails() {
    let all = puzzle::shipped().expect("every shipped puzzle file is a puzzle");
    assert_eq!(all.len(), 15);
    for p in all {
        let program = p.name.clone();
        let reference = warpsim::programs::assemble(&program)
            .expect("shipped")
            .expect("assembles");
        let v = check(&p, &reference, 1).expect("the puzzle is sound");
        assert!(v.passed(), "{}: the reference fails: {:?}", p.name, v.failure);
        assert_eq!(v.runs, puzzle::settings(&p).len());
        assert_eq!(v.runs, p.warp_sizes.len() * p.launches.len() * 8);
        let stub = assemble(&p.stub);
        let v = check(&p, &stub, 1).expect("the puzzle is sound");
        assert!(!v.passed(), "{}: the stub passes", p.name);
        assert_eq!(v.runs, 1, "{}: the stub fails the first run", p.name);
    }
}

#[test]
fn the_starting_file_is_the_task_then_the_stub_and_assembles() {
    let p = find_shipped("warp_prefix_sum").unwrap();
    let text = p.starting_file(true);
    assert!(text.starts_with("// Puzzle: Warp prefix sum (warp_prefix_sum)\n"));
    assert!(text.contains("// Hint: shfl.sync.up.b32 other|has"));
    assert!(!p.starting_file(false).contains("Hint:"));
    assert!(text.ends_with(p.stub.trim_start_matches('\n')));
    assemble(&text);
}

/// butterfly_max with shfl.down instead of shfl.bfly: right on the declared inputs (the maximum is in the last
/// lane, which every down-shift reaches), wrong on random ones.
#[test]
fn a_wrong_shuffle_fails_at_the_step_and_lane_where_it_departs() {
    let p = find_shipped("butterfly_max").unwrap();
    let answer = assemble(
        r"
.kernel butterfly_max
.param warps = 1
.grid warps
.block W
.buffer in  f32[warps * W] = 2 * (i % W), [len - 1] = 1000
.buffer out f32[warps * W]
.reg %tid, %v, %other, %off
.pred %more
        mad.lo.u32          %tid, %ctaid.x, %ntid.x, %tid.x
        ld.global.f32       %v, in[%tid]
        mov.u32             %off, (W / 2)
step:
        shfl.sync.down.b32  %other, %v, %off
        max.f32             %v, %v, %other
        shr.u32             %off, %off, 1
        setp.ne.u32         %more, %off, 0
        @%more bra          step
        st.global.f32       out[%tid], %v
",
    );
    let v = check(&p, &answer, 1).unwrap();
    let f = v.failure.expect("it fails");
    assert_eq!(
        v.runs, 5,
        "the declared inputs pass under every schedule; the first random inputs do not"
    );
    assert_eq!(
        f.setting,
        "W=4, a random schedule (seed 1), lockstep scheduling, random inputs (seed 4002)"
    );
    assert!(
        f.message
            .starts_with("`out[2]` is 23 where the reference gives 27 (2 of 4 elements differ)"),
        "{}",
        f.message
    );
    let d = f.departure.expect("a departure");
    assert_eq!(
        d,
        "exchange step 1 of block 0, warp 0: lane 2 receives -1 from `shfl.sync.down.b32 %other, %v, %off`; the \
         reference's step 1 (`shfl.sync.bfly.b32 %other, %v, %off`) gives it 24"
    );
}

#[test]
fn a_missing_barrier_fails_with_the_sanitizers_findings() {
    let p = find_shipped("block_reduce").unwrap();
    let text = warpsim::programs::source("block_reduce")
        .unwrap()
        .replace("        bar.sync            0\n", "");
    let v = check(&p, &assemble(&text), 1).unwrap();
    let f = v.failure.expect("it fails");
    assert_eq!(v.runs, 1);
    // In the first setting warp 0 reads the warp sums before warp 6 has stored its own (its loads' lines come
    // through the SM's fill port after the other warps'): the sanitizers find the unordered read, the late write
    // and the word read before anything wrote it.
    for finding in [
        "data race on shared memory: read-after-write hazard on `partial[1]`",
        "data race on shared memory: write-after-read hazard on `partial[6]`",
        "read of uninitialised shared memory `partial[6]`",
        "the sanitizers (--check all) found 3 problem(s)",
    ] {
        assert!(f.message.contains(finding), "{finding}: {}", f.message);
    }
}

/// pair_swap through shared memory across diverged paths with no warp barrier: the even lanes' path writes first
/// and the odd lanes' path reads their words, which lockstep execution (the fallthrough path first) makes right;
/// independent thread scheduling does not (the paths interleave), and the checker runs both.
#[test]
fn a_lockstep_assumption_fails() {
    let p = find_shipped("pair_swap").unwrap();
    let answer = assemble(
        r"
.kernel pair_swap
.grid 1
.block W
.buffer in  f32[W] = i
.buffer out f32[W]
.shared tmp f32[W]
.reg %tid, %v, %w, %j
.pred %odd
        mov.u32             %tid, %tid.x
        ld.global.f32       %v, in[%tid]
        and.b32             %j, %tid, 1
        setp.ne.u32         %odd, %j, 0
        @%odd bra           ODD
        st.shared.f32       tmp[%tid], %v
        bra                 JOIN
ODD:
        st.shared.f32       tmp[%tid], %v
        sub.u32             %j, %tid, 1
        ld.shared.f32       %w, tmp[%j]
        st.global.f32       out[%tid], %w
JOIN:
        @%odd exit
        add.u32             %j, %tid, 1
        ld.shared.f32       %w, tmp[%j]
        st.global.f32       out[%tid], %w
",
    );
    // In lockstep alone it is right.
    let machine = warpsim::Machine::new(warpsim::Config::hopper().with_warp_size(8)).unwrap();
    let kernel = machine.load(&answer, &warpsim::Launch::default()).unwrap();
    let out = machine
        .run(&kernel, &warpsim::RunOptions::default(), &mut warpsim::NoTrace)
        .unwrap();
    let values: Vec<f32> = out
        .buffer("out")
        .unwrap()
        .data
        .iter()
        .map(|&b| f32::from_bits(b))
        .collect();
    assert_eq!(values, [1.0, 0.0, 3.0, 2.0, 5.0, 4.0, 7.0, 6.0]);
    // The race check sees the read on one path of a word the other path wrote, with nothing ordering them.
    let v = check(&p, &answer, 1).unwrap();
    let f = v.failure.expect("it fails");
    assert_eq!(v.runs, 1);
    assert!(
        f.message
            .contains("data race on shared memory: read-after-write hazard on `tmp[0]`"),
        "{}",
        f.message
    );
    assert!(
        f.message.contains("the lanes are on different paths of a branch"),
        "{}",
        f.message
    );
}

#[test]
fn answers_may_not_change_the_inputs() {
    // The answer's own initialiser of `in` is ignored: the puzzle's inputs are used.
    let p = find_shipped("pair_swap").unwrap();
    let text = warpsim::programs::source("pair_swap").unwrap().replace("= i", "= 7");
    assert!(check(&p, &assemble(&text), 1).unwrap().passed());
}

#[test]
fn a_missing_or_retyped_buffer_is_named() {
    let p = find_shipped("pair_swap").unwrap();
    let text = warpsim::programs::source("pair_swap").unwrap();
    let f = check(
        &p,
        &assemble(
            &text
                .replace("out f32[W]", "res f32[W]")
                .replace("out[%tid]", "res[%tid]"),
        ),
        1,
    )
    .unwrap()
    .failure
    .unwrap();
    assert_eq!(
        f.message,
        "the answer has no buffer `out` (declare it as the stub does)"
    );
    let retyped = text
        .replace("out f32[W]", "out u32[W]")
        .replace("st.global.f32       out", "st.global.b32       out");
    let f = check(&p, &assemble(&retyped), 1).unwrap().failure.unwrap();
    assert_eq!(f.message, "buffer `out` holds u32 in the answer, f32 in the puzzle");
}

#[test]
fn a_teachers_puzzle_file_with_its_own_reference() {
    let text = r#"
title = "Broadcast lane 0"
task = "Every lane writes lane 0's value."
hint = "shfl.sync.idx.b32 with lane 0."
compare = ["out"]
warp_sizes = [8, 16]
stub = """
.kernel b
.grid 1
.block W
.buffer in u32[W] = i + 5
.buffer out u32[W]
.reg %t, %v
        mov.u32 %t, %tid.x
        ld.global.u32 %v, in[%t]
        st.global.u32 out[%t], %v
"""
reference_source = """
.kernel b
.grid 1
.block W
.buffer in u32[W] = i + 5
.buffer out u32[W]
.reg %t, %v
        mov.u32 %t, %tid.x
        ld.global.u32 %v, in[%t]
        shfl.sync.idx.b32 %v, %v, 0
        st.global.u32 out[%t], %v
"""
"#;
    let p = parse("broadcast", text).unwrap();
    assert_eq!(puzzle::settings(&p).len(), 16);
    let stub = assemble(&p.stub);
    let f = check(&p, &stub, 1).unwrap().failure.unwrap();
    assert_eq!(
        f.message,
        "`out[1]` is 6 where the reference gives 5 (7 of 8 elements differ)"
    );
    assert_eq!(
        f.departure.as_deref(),
        Some(
            "the answer's warp 0 of block 0 makes 0 exchange steps; the reference makes a step 1 (`shfl.sync.idx.b32 %v, %v, 0`)"
        )
    );
}

#[test]
fn puzzle_files_with_mistakes_are_refused_with_the_place() {
    let e = parse("p", "title = \"x\"\ntask = 3\n").unwrap_err();
    assert!(e.starts_with("p: TOML parse error at line 2, column 8"), "{e}");
    let e = parse(
        "p",
        "title='t'\ntask='t'\nhint='h'\nstub='.kernel k'\nreference='no_such'\ncompare=['out']\n",
    )
    .unwrap_err();
    assert_eq!(
        e,
        "p: `reference = \"no_such\"` names no shipped program (`sim list` lists them)"
    );
    let e = parse(
        "p",
        "title='t'\ntask='t'\nhint='h'\nstub='.kernel k'\nreference='pair_swap'\ncompare=['nope']\n",
    )
    .unwrap_err();
    assert_eq!(e, "p: the reference has no buffer `nope` to compare");
    let e = parse(
        "p",
        "title='t'\ntask='t'\nhint='h'\nstub='.kernel k'\nreference='pair_swap'\ncompare=['out']\nwarp_sizes=[3]\n",
    )
    .unwrap_err();
    assert_eq!(e, "p: warp size 3 is not a power of two from 2 to 64");
}
