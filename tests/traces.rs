//! Reviewed snapshots of traces, in `traces/` at the repository root. A change in what a program does, or in
//! how traces read, changes a snapshot and fails this test until the new snapshot is reviewed
//! (`cargo insta review`). In CI (`CI=true`) a missing or changed snapshot fails.

use warpsim::render;
use warpsim::{Config, Event, Launch, RunOptions, programs};

/// The text a user sees for `sim run NAME --warp W --set … --trace` (piped: 120 columns), as the CLI builds it.
fn text_trace(name: &str, w: u32, set: &[(&str, i64)]) -> String {
    text_trace_in(name, w, set, render::DEFAULT_WIDTH)
}

/// … with `--width COLUMNS`.
fn text_trace_in(name: &str, w: u32, set: &[(&str, i64)], width: usize) -> String {
    let program = programs::assemble(name).expect("shipped").expect("assembles");
    let config = Config::hopper().with_warp_size(w);
    let launch = Launch {
        set: set
            .iter()
            .map(|(n, v)| (n.to_string(), warpsim_isa::Value::Int(*v)))
            .collect(),
        ..Launch::default()
    };
    let kernel = warpsim::instantiate(&program, &config, &launch).expect("loads");
    let mut events: Vec<Event> = Vec::new();
    let out = warpsim::run(&kernel, &config, &RunOptions::default(), &mut events).expect("runs");
    let mut text = render::text::header(&kernel);
    text.push_str(&render::text::trace(&kernel, &events, width));
    text.push_str(&render::grid::grid(&kernel, &events, width));
    text.push('\n');
    text.push_str(&render::text::summary(&out, width));
    text
}

fn json_trace(name: &str, w: u32) -> serde_json::Value {
    let program = programs::assemble(name).expect("shipped").expect("assembles");
    let config = Config::hopper().with_warp_size(w);
    let kernel = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
    let mut events: Vec<Event> = Vec::new();
    let out = warpsim::run(&kernel, &config, &RunOptions::default(), &mut events).expect("runs");
    render::json::document(&kernel, Ok(&out), Some(&events))
}

fn snapshot(name: &str, w: u32, set: &[(&str, i64)]) {
    let sets: String = set.iter().map(|(n, v)| format!(" --set {n}={v}")).collect();
    let file: String = set.iter().map(|(n, v)| format!("@{n}={v}")).collect();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../traces");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(format!("sim run {name} --warp {w}{sets} --trace"));
    settings.bind(|| insta::assert_snapshot!(format!("{name}@w{w}{file}"), text_trace(name, w, set)));
}

/// Every warp-level program at W=8 (W=16 for the 16-thread demos, which need it) …
#[test]
fn text_traces_at_the_smallest_teaching_width() {
    for name in programs::names() {
        let p = programs::assemble(name).expect("shipped").expect("assembles");
        if p.shared.is_empty() {
            snapshot(name, p.warp_sizes.0.max(8), &[]);
        }
    }
}

/// … and at W=32 where the trace stays short.
#[test]
fn text_traces_at_w32() {
    for name in [
        "pair_swap",
        "neighbor_difference",
        "butterfly_max",
        "shfl_wrap",
        "shfl_xor_array",
    ] {
        snapshot(name, 32, &[]);
    }
}

/// The headline command at W = 64: the lanes column two lines of 32, rows of lanes, everything in 120 columns.
#[test]
fn text_trace_at_w64() {
    snapshot("butterfly_max", 64, &[]);
}

/// Every line of every shipped program's trace, at every warp size it runs at, fits the width asked for.
#[test]
fn every_trace_line_fits_its_width() {
    for name in programs::names() {
        let p = programs::assemble(name).expect("shipped").expect("assembles");
        // The warp sizes at which the program loads with its default launch.
        let sizes = [8, 16, 32, 64].into_iter().filter(|&w| {
            let config = Config::hopper().with_warp_size(w);
            warpsim::instantiate(&p, &config, &Launch::default()).is_ok()
        });
        for w in sizes {
            for width in [render::MIN_WIDTH, 100, render::DEFAULT_WIDTH] {
                let t = text_trace_in(name, w, &[], width);
                for line in t.lines() {
                    assert!(
                        line.chars().count() <= width,
                        "{name} at W={w}, --width {width}: a line of {} columns:\n{line}",
                        line.chars().count()
                    );
                }
            }
        }
    }
}

#[test]
fn four_lane_conditional_max_trace() {
    snapshot("conditional_max", 4, &[]);
}

/// The block-level programs with 32-thread blocks at W=8: four warps, every barrier, bank map and atomic in
/// view.
#[test]
fn block_program_traces_with_four_warps_of_eight() {
    snapshot("block_reduce", 8, &[("n", 32), ("threads", 32)]);
    snapshot("block_sum", 8, &[("n", 40), ("threads", 32)]);
    snapshot("dot_product", 8, &[("threads", 32)]);
    snapshot("histogram_bin", 8, &[("threads", 32), ("target_bin", 1)]);
}

/// A 2-D launch: `transpose` of a 6 × 6 matrix in 2 × 2 blocks of 4 × 2 threads at W = 4 (two warps a block):
/// the header lists each warp's threads (x,y), block launches name their (x,y).
#[test]
fn transpose_trace_names_blocks_and_threads_by_x_and_y() {
    snapshot("transpose", 4, &[("n", 6), ("tile", 4), ("rows", 2)]);
    let t = text_trace("transpose", 4, &[("n", 6), ("tile", 4), ("rows", 2)]);
    assert!(t.starts_with(
        "transpose: W=4, grid 2x2 x block 4x2 (2 warps per block)\n\
         threads (x,y) of each warp's lanes (x fastest):\n  \
         warp 0: lanes 0-3 = (0..3,0)\n  \
         warp 1: lanes 0-3 = (0..3,1)\n"
    ));
    assert!(t.contains("block 3 = (1,1) launched on SM 3: 2 warps"), "{t}");
}

#[test]
fn json_trace_of_the_8_lane_butterfly() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../traces");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description("sim run butterfly_max --warp 8 --trace --format json");
    settings.bind(|| insta::assert_json_snapshot!("butterfly_max@w8.json", json_trace("butterfly_max", 8)));
}

#[test]
fn butterfly_trace_shows_the_books_three_steps() {
    // The acceptance story, asserted directly as well as through the snapshot.
    let t = text_trace("butterfly_max", 8, &[]);
    for step in [
        "exchange: lane 0<->4, 1<->5, 2<->6, 3<->7",
        "%v = [8, 10, 12, 1000, 8, 10, 12, 1000]",
        "exchange: lane 0<->2, 1<->3, 4<->6, 5<->7",
        "%v = [12, 1000, 12, 1000, 12, 1000, 12, 1000]",
        "exchange: lane 0<->1, 2<->3, 4<->5, 6<->7",
        "%v = [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]",
        "Lane 0<->4: max(0,8)=8",
    ] {
        assert!(t.contains(step), "trace lacks `{step}`:\n{t}");
    }
    let order: Vec<usize> = ["lane 0<->4", "lane 0<->2", "lane 0<->1"]
        .iter()
        .map(|s| t.find(s).expect("step"))
        .collect();
    assert!(order.windows(2).all(|p| p[0] < p[1]), "steps out of order");
}

/// Independent thread scheduling: the producer and consumer halves of a warp take turns on their own paths,
/// meet at `bar.warp.sync`s at different pcs, and exchange at two different shuffles (warp_pipeline).
#[test]
fn text_trace_of_paths_taking_turns() {
    snapshot("warp_pipeline", 4, &[("warps", 1), ("blocks", 1), ("rounds", 2)]);
}

/// An 8- or 16-bit access's trace counts its indices in its own units (`byte store to out[0, 1, …]`, and at 32 lanes
/// `byte store to out[0 + lane]: bytes 0 to 31`).
#[test]
fn a_byte_access_is_traced_in_bytes() {
    let program = warpsim_tests::assemble(
        ".buffer pix u32[W / 4] = 0x04030201 * (i + 1)\n.buffer out u32[W / 2]\n.reg %v, %o\n\
         ld.global.u8 %v, [pix + %laneid]\n st.global.u8 [out + %laneid], %v\n\
         shl.b32 %o, %laneid, 1\n st.global.u16 [out + %o], %v\n",
    );
    let trace = |w: u32| {
        let config = Config::hopper().with_warp_size(w);
        let kernel = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
        let mut events: Vec<Event> = Vec::new();
        warpsim::run(&kernel, &config, &RunOptions::default(), &mut events).expect("runs");
        render::text::trace(&kernel, &events, 120)
    };
    let (eight, all) = (trace(8), trace(32));
    for line in [
        "byte load from pix[0, 1, 2, 3, 4, 5, 6, 7]",
        "byte store to out[0, 1, 2, 3, 4, 5, 6, 7]",
        "16-bit store to out[0, 1, 2, 3, 4, 5, 6, 7]",
    ] {
        assert!(eight.contains(line), "{line}\n{eight}");
    }
    for line in [
        "byte load from pix[0 + lane]: bytes 0 to 31, one per lane",
        "byte store to out[0 + lane]: bytes 0 to 31, one per lane",
        "16-bit store to out[0 + lane]: halves 0 to 31, one per lane",
    ] {
        assert!(all.contains(line), "{line}\n{all}");
    }
}
