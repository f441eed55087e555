//! `programs/transpose.s`: a 2-D tiled transpose through a padded shared tile, on a 2-D grid of 2-D blocks.
//! Exact values for sizes that are and are not multiples of the tile, at several warp sizes; and the padding's
//! effect on bank conflicts, counted exactly.

use warpsim::Event;
use warpsim_tests::{run, run_traced, u32s};

/// `out` = `in`ᵀ, `in` being 0, 1, 2, … row by row: out[r·n + c] = in[c·n + r] = c·n + r.
fn transposed(n: u32) -> Vec<u32> {
    (0..n * n).map(|k| (k % n) * n + k / n).collect()
}

#[test]
fn transpose_gives_the_transposed_matrix_for_every_size_and_warp_size() {
    // (n, tile, rows): multiples of the tile and not; a matrix smaller than one tile; 1 × 1.
    for (n, tile, rows) in [
        (64, 32, 8),
        (80, 32, 8),
        (33, 32, 4),
        (5, 32, 8),
        (1, 32, 8),
        (100, 16, 4),
        (24, 8, 8),
    ] {
        for w in [2u32, 4, 8, 16, 32, 64] {
            let rows = rows.min(2 * i64::from(w));
            let out = run("transpose", w, &[("n", i64::from(n)), ("tile", tile), ("rows", rows)]);
            let got = u32s(&out, "out");
            assert_eq!(got, transposed(n), "n={n} tile={tile} rows={rows} W={w}");
            assert_eq!(u32s(&out, "in"), (0..n * n).collect::<Vec<_>>());
        }
    }
    // The default: an 80 × 80 matrix, 3 × 3 blocks of 32 × 8 threads; out[1] = in[80], out[80] = in[1].
    let out = run("transpose", 32, &[]);
    let got = u32s(&out, "out");
    assert_eq!(got.len(), 6400);
    assert_eq!((got[0], got[1], got[80], got[6399]), (0, 80, 1, 6399));
    assert_eq!(got, transposed(80));
}

/// Every shared load's and store's conflict degree, in issue order: (is a load, degree).
fn shared_degrees(events: &[Event]) -> Vec<(bool, u32)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Issue(i) => i.memory.as_ref().filter(|m| m.shared).map(|m| (!m.store, m.degree)),
            _ => None,
        })
        .collect()
}

#[test]
fn without_padding_reading_a_column_of_the_tile_is_a_32_way_bank_conflict() {
    // A 64 × 64 matrix at W = 32: 2 × 2 blocks of 32 × 8 threads (8 warps, each one row of the block), each
    // warp loads and stores 32 / 8 = 4 times. With rows of 32 words, the 32 words a warp reads from a column of
    // the tile are all in one bank: every one of the 4 × 8 × 4 = 128 loads is a 32-way conflict, costing
    // 31 × 2 cycles more. With rows of 33 words, tile[x][y] is in bank (x + y) % 32: every access is free.
    let (out, events) = run_traced("transpose", 32, &[("n", 64), ("pad", 0)]);
    assert_eq!(u32s(&out, "out"), transposed(64));
    let degrees = shared_degrees(&events);
    assert_eq!(degrees.len(), 256);
    assert_eq!(degrees.iter().filter(|(load, _)| !load).count(), 128);
    assert!(
        degrees.iter().all(|&(load, d)| d == if load { 32 } else { 1 }),
        "{degrees:?}"
    );
    assert_eq!(out.stats.shared_accesses, 256);
    assert_eq!(out.stats.bank_conflicts, 128);
    assert_eq!(out.stats.bank_conflict_cycles, 128 * 31 * 2);

    let (padded, events) = run_traced("transpose", 32, &[("n", 64), ("pad", 1)]);
    assert_eq!(u32s(&padded, "out"), transposed(64));
    assert!(shared_degrees(&events).iter().all(|&(_, d)| d == 1));
    assert_eq!(padded.stats.shared_accesses, 256);
    assert_eq!(padded.stats.bank_conflicts, 0);
    assert_eq!(padded.stats.bank_conflict_cycles, 0);
    // The same work, faster.
    assert_eq!(padded.stats.warp_instructions, out.stats.warp_instructions);
    assert!(padded.cycles < out.cycles, "{} vs {}", padded.cycles, out.cycles);
}

#[test]
fn the_conflict_degree_follows_the_lanes_a_warp_has_in_a_column() {
    // W = 8: a warp is 8 threads of one row, its column read 8 words in one bank (8-way) without padding.
    // W = 64: a warp is two rows of 32 threads; it reads two columns, 32 words in each of two banks (32-way);
    // with padding, lanes (x, y) and (x - 1, y + 1) share bank (x + y) % 32: a 2-way conflict. Its stores of
    // two row segments are 2-way too: tile[y][x] and tile[y + 1][x] (33 words later with padding: lanes x and
    // x - 1 of the next row) share a bank, padded or not.
    for (w, pad, load, store) in [
        (8u32, 0, 8u32, 1u32),
        (8, 1, 1, 1),
        (16, 0, 16, 1),
        (32, 0, 32, 1),
        (32, 1, 1, 1),
        (64, 0, 32, 2),
        (64, 1, 2, 2),
    ] {
        let (out, events) = run_traced("transpose", w, &[("n", 64), ("pad", pad)]);
        assert_eq!(u32s(&out, "out"), transposed(64), "W={w} pad={pad}");
        let degrees = shared_degrees(&events);
        let of = |loads: bool| -> Vec<u32> { degrees.iter().filter(|(l, _)| *l == loads).map(|&(_, d)| d).collect() };
        // 4 blocks × (256 / W warps) × 4 loads (and 4 stores) each.
        let count = 4 * (256 / w as usize) * 4;
        assert_eq!(of(true), vec![load; count], "W={w} pad={pad}");
        assert_eq!(of(false), vec![store; count], "W={w} pad={pad}");
        let conflicts = |d: u32| if d > 1 { count as u64 } else { 0 };
        assert_eq!(
            out.stats.bank_conflicts,
            conflicts(load) + conflicts(store),
            "W={w} pad={pad}"
        );
        assert_eq!(
            out.stats.bank_conflict_cycles,
            2 * (conflicts(load) * u64::from(load - 1) + conflicts(store) * u64::from(store - 1)),
            "W={w} pad={pad}"
        );
    }
}

#[test]
fn lanes_past_the_matrix_take_no_part_in_the_conflict() {
    // n = 40, pad 0, W = 32: blocks (0, 0), (1, 0), (0, 1), (1, 1); the second block column (by = 1) holds
    // columns 32..40 of `in`, so in the transposed store only 8 lanes (x = 0..8) of a warp are inside: an
    // 8-way conflict; rows past 40 have no lane inside (no access counted as a conflict).
    let (out, events) = run_traced("transpose", 32, &[("n", 40), ("pad", 0)]);
    assert_eq!(u32s(&out, "out"), transposed(40));
    let mut loads: Vec<u32> = shared_degrees(&events)
        .iter()
        .filter(|(l, _)| *l)
        .map(|&(_, d)| d)
        .collect();
    loads.sort_unstable();
    // Per block: 8 warps × 4 loads = 32 warp loads. Block (bx, by) reads tile rows ty + j for out rows
    // bx·32 + ty + j < 40 (all 32 for bx = 0, 8 for bx = 1) with x = by·32 + tx < 40 lanes (32 for by = 0,
    // 8 for by = 1); a load with no lane inside has degree 0.
    let mut expected = Vec::new();
    for bx in 0..2u32 {
        for by in 0..2u32 {
            let lanes = if by == 0 { 32 } else { 8 };
            for row in 0..32u32 {
                expected.push(if bx * 32 + row < 40 { lanes } else { 0 });
            }
        }
    }
    expected.sort_unstable();
    assert_eq!(loads, expected);
    assert_eq!(out.stats.bank_conflicts, 32 + 8 + 32 + 8);
    assert_eq!(out.stats.bank_conflict_cycles, 2 * (32 * 31 + 8 * 31 + 32 * 7 + 8 * 7));
}

#[test]
fn transpose_refuses_rows_that_do_not_divide_the_tile() {
    let program = warpsim::programs::assemble("transpose")
        .expect("shipped")
        .expect("assembles");
    let launch = warpsim::Launch {
        set: vec![("rows".into(), warpsim_isa::Value::Int(3))],
        ..warpsim::Launch::default()
    };
    let e = warpsim::instantiate(&program, &warpsim::Config::hopper(), &launch).expect_err("refused");
    let text = e.render(&program, false);
    assert!(
        text.starts_with(
            "error: rows must divide the tile: each thread moves tile / rows elements (W=32, tile=32, rows=3)\n"
        ),
        "{text}"
    );
}
