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
    // cannot share a row (if they did, lanes 4-7 would store `%b`'s 7).
    let k = kernel(
        ".block 8\n.buffer out u32[8]\n.reg %a, %b\n.pred %low\n\
         mov.u32 %a, 5\n setp.lt.u32 %low, %laneid, 4\n mov.u32 %b, 7\n st.global.u32 out[%laneid], %b\n\
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
fn shuffle_sources_and_late_atomic_results_keep_rows_of_their_own() {
    // `%x` is read by other lanes (a shuffle); `%old` receives a global atomic's old value at the epoch's commit,
    // after later instructions have run: neither shares a row, though `%old` is never read and `%x` dies at
    // the shuffle. `%y` and `%z` share one.
    let k = kernel(
        ".block 8\n.buffer out u32[8]\n.buffer count u32[1]\n.reg %x, %y, %old, %z\n\
         mul.lo.u32 %x, %laneid, 3\n shfl.sync.bfly.b32 %y, %x, 1\n atom.global.add.u32 %old, count[0], 1\n\
         add.u32 %z, %y, 100\n st.global.u32 out[%laneid], %z\n",
    );
    assert_eq!((k.program.regs.len(), k.exec_rows), (4, 3));
    let out = both(&k);
    assert_eq!(
        u32s(&out, "out"),
        (0..8u32).map(|l| (l ^ 1) * 3 + 100).collect::<Vec<u32>>()
    );
    assert_eq!(u32s(&out, "count"), vec![8]);
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
    assert_eq!((k.program.regs.len(), k.exec_rows), (75, 23));
}
