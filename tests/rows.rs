//! Register rows of an untraced run (`simulator/src/rows.rs`): registers whose lifetimes never overlap share a
//! row, and the run gives what the traced run (a row per register) gives, in every buffer and cycle.

use warpsim::{Config, Kernel, Launch, RunOptions, RunOutput};
use warpsim_tests::u32s;

fn kernel(text: &str) -> Kernel {
    let program = warpsim_tests::assemble(text);
    warpsim::instantiate(&program, &Config::hopper().with_warp_size(8), &Launch::default())
        .unwrap_or_else(|e| panic!("does not load:\n{}", e.render(&program, false)))
}

/// Untraced (shared rows) and traced (a row per register): the same output, or the test fails.
fn both(k: &Kernel) -> RunOutput {
    let config = Config::hopper().with_warp_size(8);
    let quiet = warpsim::run(k, &config, &RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    let mut events = Vec::new();
    let traced = warpsim::run(k, &config, &RunOptions::default(), &mut events).expect("runs");
    assert_eq!(quiet, traced, "shared rows changed the run");
    quiet
}

#[test]
fn a_chain_of_temporaries_takes_one_row() {
    // Each value dies where the next is written: four registers, one row.
    let k = kernel(
        ".block 8\n.buffer out u32[8]\n.reg %a, %b, %c, %d\n\
         mov.u32 %a, %laneid\n add.u32 %b, %a, 10\n mul.lo.u32 %c, %b, 3\n add.u32 %d, %c, 1\n\
         st.global.u32 out[%laneid], %d\n",
    );
    assert_eq!((k.program.regs.len(), k.exec_rows), (4, 1));
    let out = both(&k);
    assert_eq!(
        u32s(&out, "out"),
        (0..8).map(|l| (l + 10) * 3 + 1).collect::<Vec<u32>>()
    );
}

#[test]
fn a_guarded_write_keeps_the_lanes_it_leaves_out() {
    // `%a` is written again only in lanes 0-3; the other lanes keep 5, so `%a` lives across `%b` and the two
    // cannot share a row (if they did, lanes 4-7 would store `%b`'s lane + 7).
    let k = kernel(
        ".block 8\n.buffer out u32[8]\n.reg %a, %b\n.pred %low\n\
         mov.u32 %a, 5\n setp.lt.u32 %low, %laneid, 4\n add.u32 %b, %laneid, 7\n st.global.u32 out[%laneid], %b\n\
         @%low mov.u32 %a, 1\n st.global.u32 out[%laneid], %a\n",
    );
    assert_eq!(k.exec_rows, 2);
    let out = both(&k);
    assert_eq!(u32s(&out, "out"), vec![1, 1, 1, 1, 5, 5, 5, 5]);
}

#[test]
fn a_register_live_around_a_loop_keeps_its_row() {
    // `%sum` lives around the loop while `%t` is written in it: two rows (and `%i`, a third).
    let k = kernel(
        ".block 8\n.buffer out u32[8]\n.reg %sum, %i, %t\n.pred %more\n\
         mov.u32 %sum, 0\n mov.u32 %i, 0\n\
         again:\n mul.lo.u32 %t, %i, %laneid\n add.u32 %sum, %sum, %t\n add.u32 %i, %i, 1\n\
         setp.lt.u32 %more, %i, 4\n @%more bra again\n st.global.u32 out[%laneid], %sum\n",
    );
    assert_eq!(k.exec_rows, 3);
    let out = both(&k);
    assert_eq!(u32s(&out, "out"), (0..8).map(|l| 6 * l).collect::<Vec<u32>>());
}

#[test]
fn late_atomic_results_keep_rows_of_their_own_and_shuffle_sources_share() {
    // `%old` receives a global atomic's old value at the epoch's commit, after later instructions have run: it
    // keeps a row of its own, though it is never read. `%x` dies at the shuffle that writes `%y`, which dies
    // where `%z` is written: the three share one row (other lanes read `%x` only while they execute the shuffle).
    let k = kernel(
        ".block 8\n.buffer out u32[8]\n.buffer count u32[1]\n.reg %x, %y, %old, %z\n\
         mul.lo.u32 %x, %laneid, 3\n shfl.sync.bfly.b32 %y, %x, 1\n atom.global.add.u32 %old, count[0], 1\n\
         add.u32 %z, %y, 100\n st.global.u32 out[%laneid], %z\n",
    );
    assert_eq!((k.program.regs.len(), k.exec_rows), (4, 2));
    let out = both(&k);
    assert_eq!(
        u32s(&out, "out"),
        (0..8u32).map(|l| (l ^ 1) * 3 + 100).collect::<Vec<u32>>()
    );
    assert_eq!(u32s(&out, "count"), vec![8]);
}

#[test]
fn a_shuffle_reading_a_lane_that_does_not_execute_it_runs_again_with_the_programs_registers() {
    // Lanes 4-7 go on alone and write `%z` (in `%x`'s row: `%x` is dead on their path) before lanes 0-3 read
    // lane 7's `%x`, which the hardware leaves undefined and warpsim defines as that lane's register: 21. The
    // untraced run notices the read and runs again with a row per register, so it answers 21, not `%z`'s 1007.
    let k = kernel(
        ".block 8\n.scheduling lockstep\n.buffer out u32[8]\n.reg %x, %y, %z\n.pred %low\n\
         mul.lo.u32 %x, %laneid, 3\n setp.lt.u32 %low, %laneid, 4\n @%low bra low\n\
         add.u32 %z, %laneid, 1000\n st.global.u32 out[%laneid], %z\n exit\n\
         low:\n shfl.sync.idx.b32 %y, %x, 7\n st.global.u32 out[%laneid], %y\n",
    );
    assert_eq!(k.exec_rows, 1);
    let out = both(&k);
    assert_eq!(u32s(&out, "out"), vec![21, 21, 21, 21, 1004, 1005, 1006, 1007]);
    assert_eq!(out.stats.undefined_shuffle_reads, 4);
}

#[test]
fn registers_holding_a_constant_take_no_row() {
    // `%n` (a launch parameter), `%t` (`%tid.x`) and `%k` (an immediate) are written once by a `mov` and read
    // where that write has happened: their readers read the constant itself, and only `%s` needs a row. A
    // register written twice (`%c`) is not a constant.
    let k = kernel(
        ".block 8\n.param n = 5\n.buffer out u32[8]\n.reg %n, %t, %k, %s, %c\n\
         mov.u32 %n, n\n mov.u32 %t, %tid.x\n mov.u32 %k, 40\n mov.u32 %c, 1\n add.u32 %c, %c, %t\n\
         mad.lo.u32 %s, %t, %k, %n\n add.u32 %s, %s, %c\n st.global.u32 out[%laneid], %s\n",
    );
    assert_eq!(k.exec_rows, 2);
    let out = both(&k);
    assert_eq!(
        u32s(&out, "out"),
        (0..8u32).map(|t| t * 40 + 5 + 1 + t).collect::<Vec<u32>>()
    );
}

#[test]
fn scoreboard_slots_keep_the_timing_of_a_slot_per_register() {
    // `%a`'s first load is never read and `%b` takes its slot while the load is still in flight; `%a`'s second
    // load must still wait for the first (write after write), and the else path's `%x` must wait for its load
    // though the then path wrote `%y` into its slot meanwhile. `both` compares every cycle and stall.
    let k = kernel(
        ".block 8\n.buffer in u32[16] = i\n.buffer out u32[16]\n.reg %a, %b, %x, %y\n.pred %low\n\
         ld.global.u32 %a, in[%laneid]\n add.u32 %b, %laneid, 1\n st.global.u32 out[%laneid], %b\n\
         ld.global.u32 %a, in[%laneid + 8]\n st.global.u32 out[%laneid + 8], %a\n\
         ld.global.u32 %x, in[%laneid]\n setp.lt.u32 %low, %laneid, 4\n @%low bra low\n\
         mul.lo.u32 %y, %laneid, 2\n st.global.u32 out[%laneid], %y\n exit\n\
         low:\n st.global.u32 out[%laneid], %x\n",
    );
    let slots = k.exec_slots.iter().max().map_or(0, |&s| usize::from(s) + 1);
    assert!(
        slots < k.program.regs.len(),
        "{slots} slots for {} registers",
        k.program.regs.len()
    );
    let out = both(&k);
    assert_eq!(
        u32s(&out, "out"),
        vec![0, 1, 2, 3, 8, 10, 12, 14, 8, 9, 10, 11, 12, 13, 14, 15]
    );
}

#[test]
fn a_64_bit_register_takes_two_rows_and_shares_them_only_with_another_64_bit_one() {
    let k = kernel(
        ".block 8\n.buffer out u64[8]\n.reg %w\n.reg.b64 %p, %q\n\
         cvt.u64.u32 %p, %laneid\n shl.b64 %q, %p, 33\n mov.u32 %w, %laneid\n add.u32 %w, %w, 1\n\
         st.global.u64 out[%w - 1], %q\n",
    );
    // `%p` dies where `%q` is written: one pair for both, and `%w`'s row.
    assert_eq!((k.program.regs.len(), k.exec_rows), (5, 3));
    let out = both(&k);
    let got: Vec<u64> = out.buffers[0]
        .data
        .chunks(2)
        .map(|c| u64::from(c[0]) | u64::from(c[1]) << 32)
        .collect();
    assert_eq!(got, (0..8u64).map(|l| l << 33).collect::<Vec<u64>>());
}

/// nvcc's PTX names a fresh register for nearly every value: `block_reduce` through nvcc (corpus w39) declares
/// 57 32-bit and 9 64-bit registers, and an untraced run keeps them in far fewer rows.
#[test]
fn nvcc_registers_share_rows() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/ptx/cuda/w39_block_reduce_shfl.O3.ptx");
    let text = std::fs::read_to_string(&path).unwrap();
    let (module, sources) = warpsim_isa::ptx::parse("w39.ptx", &text).expect("parses");
    let f = module.entries().next().expect("an entry");
    let b = warpsim_isa::ptx::placeholder_bindings(f);
    let program = warpsim_isa::ptx::lower(&module, &sources, f, &b, &|_| None).expect("lowers");
    let k = warpsim::instantiate(&program, &Config::hopper(), &Launch::default()).expect("loads");
    assert_eq!((k.program.regs.len(), k.exec_rows), (75, 6));
}
