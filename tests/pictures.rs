//! The pictures of a run: the lane-exchange SVG (with its bank maps), the Chrome trace-event timeline and the
//! stepper page's embedded trace. Exact structure is asserted here; the reviewed SVG and timeline snapshots
//! are in `traces/pictures/`.

use std::collections::BTreeMap;
use warpsim::render;
use warpsim::render::svg::SvgOptions;
use warpsim::{Config, Event, Kernel, Launch, RunOptions, RunOutput, programs};

fn traced(name: &str, w: u32, set: &[(&str, i64)]) -> (Kernel, Vec<Event>, RunOutput) {
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
    (kernel, events, out)
}

/// A program from text (for cases no shipped program has).
fn traced_source(source: &str, w: u32) -> (Kernel, Vec<Event>, RunOutput) {
    let program = warpsim_isa::parse("test.s", source, &programs::Resolver).expect("assembles");
    let config = Config::hopper().with_warp_size(w);
    let kernel = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
    let mut events: Vec<Event> = Vec::new();
    let out = warpsim::run(&kernel, &config, &RunOptions::default(), &mut events).expect("runs");
    (kernel, events, out)
}

fn svg(name: &str, w: u32, set: &[(&str, i64)], opts: SvgOptions) -> String {
    let (kernel, events, _) = traced(name, w, set);
    render::svg::diagram(&kernel, &events, &SvgOptions { banks: 32, ..opts }).expect("draws")
}

fn snapshot(file: &str, description: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("../traces/pictures");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(description);
    settings.bind(|| insta::assert_snapshot!(file, text));
}

/// The `title` of every element with this exact class, grouped by the element's x1 (its column).
fn arrows_by_column(svg: &str, class: &str) -> Vec<Vec<String>> {
    let mut columns: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    let open = format!(r#"<line class="{class}" x1=""#);
    for line in svg.lines().filter(|l| l.starts_with(&open)) {
        let x1: i64 = line[open.len()..]
            .split('"')
            .next()
            .expect("x1")
            .parse()
            .expect("a number");
        let title = line
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next())
            .expect("a title");
        columns.entry(x1).or_default().push(title.to_string());
    }
    columns.into_values().collect()
}

#[test]
fn butterfly_at_w8_draws_three_steps_of_eight_arrows() {
    let s = svg("butterfly_max", 8, &[], SvgOptions::default());
    let columns = arrows_by_column(&s, "arrow");
    assert_eq!(columns.len(), 3, "{s}");
    for (k, (column, mask)) in columns.iter().zip([4u32, 2, 1]).enumerate() {
        assert_eq!(column.len(), 8, "step {}", k + 1);
        for lane in 0..8u32 {
            let src = lane ^ mask;
            assert!(
                column
                    .iter()
                    .any(|t| t.starts_with(&format!("lane {lane} reads lane {src}: "))),
                "step {}: lane {lane} should read lane {src}: {column:?}",
                k + 1
            );
        }
    }
    // The values beside the lanes: step 2 receives [12, 1000, 8, 10, …] and the run ends at 1000 everywhere.
    assert!(columns[1].iter().any(|t| t == "lane 0 reads lane 2: 12"));
    assert!(columns[1].iter().any(|t| t == "lane 2 reads lane 0: 8"));
    // 1000 is sent and received once in step 1, twice in step 2, four times in step 3; the end column has 8.
    assert_eq!(s.matches(">1000</text>").count(), 2 + 4 + 8 + 8);
    for header in ["step 1", "step 2", "step 3"] {
        assert!(s.contains(&format!(">{header}</text>")));
    }
    // A butterfly keeps no lane's own value and nothing diverges: the legend lists neither.
    assert_eq!(s.matches(r#"<circle class="own""#).count(), 0);
    for unused in [
        ">inactive lane</text>",
        ">barrier</text>",
        ">branch taken / falls through</text>",
    ] {
        assert!(!s.contains(unused), "{unused}");
    }
    // Between the exchanges (and before the end column), the `max` that combined the values: three boxes, each
    // naming pc 4, and the legend's key.
    let boxes: Vec<&str> = s
        .split(r#"<g class="combine"><title>"#)
        .skip(1)
        .map(|b| b.split("</title>").next().expect("a title"))
        .collect();
    assert_eq!(
        boxes,
        [
            "warp 0: what combined the values between step 1 and step 2:\npc 4: max.f32 %v, %v, %other",
            "warp 0: what combined the values between step 2 and step 3:\npc 4: max.f32 %v, %v, %other",
            "warp 0: what combined the values between step 3 and the end:\npc 4: max.f32 %v, %v, %other",
        ]
    );
    assert_eq!(s.matches(r#"text-anchor="middle">max</text></g>"#).count(), 3);
    assert!(s.contains("what combined the values between exchanges"));
    snapshot("butterfly_max@w8.svg", "sim run butterfly_max --warp 8 --svg b.svg", &s);
}

#[test]
fn out_of_range_lanes_keep_their_own_value() {
    // shfl.up by 2 in 16-lane segments: lanes 0, 1 (and 16, 17) have no source.
    let s = svg("shfl_up", 32, &[], SvgOptions::default());
    assert_eq!(
        s.matches(r#"<circle class="own" cx"#).count(),
        2 + 1,
        "2 lanes and the legend"
    );
    assert_eq!(arrows_by_column(&s, "arrow")[0].len(), 14);
    assert_eq!(s.matches(r#"<text class="val own""#).count(), 2);
}

#[test]
fn divergence_is_drawn_with_the_lanes_that_take_the_branch() {
    let s = svg("conditional_max", 8, &[], SvgOptions::default());
    assert!(s.contains(">branch</text>") && s.contains(">merge</text>"));
    // Odd lanes take the branch (they write the minimum), even lanes fall through.
    assert_eq!(
        s.matches(r#"<path class="taken" d="M"#).count(),
        4 + 1,
        "4 lanes and the legend"
    );
    assert_eq!(s.matches(r#"<circle class="fallthrough""#).count(), 4 + 1);
}

#[test]
fn a_2d_block_labels_each_lane_with_its_thread() {
    // transpose at W = 8 with 8 × 2 blocks: warp 1 is row y = 1.
    let s = svg(
        "transpose",
        8,
        &[("n", 8), ("tile", 8), ("rows", 2)],
        SvgOptions::default(),
    );
    for (lane, x, y) in [(0, 0, 0), (7, 7, 0)] {
        assert!(s.contains(&format!(">lane {lane} ({x},{y})</text>")), "lane {lane}");
    }
    assert!(s.contains(">lane 5 (5,1)</text>"), "warp 1, lane 5");
    // A 1-D block's lanes stay `lane k`.
    let one = svg("butterfly_max", 8, &[], SvgOptions::default());
    assert!(one.contains(">lane 7</text>") && !one.contains(">lane 7 ("));
    snapshot(
        "transpose@w8@n=8@tile=8@rows=2.svg",
        "sim run transpose --warp 8 --set n=8 --set tile=8 --set rows=2 --svg t.svg",
        &s,
    );
}

#[test]
fn block_program_draws_shared_memory_exchanges_barriers_and_bank_maps() {
    let set = [("threads", 32), ("target_bin", 1)];
    let s = svg("histogram_bin", 8, &set, SvgOptions::default());
    // Two `bar.sync 0` releases, as bars across the four warps (and one in the legend).
    assert_eq!(s.matches(r#"<rect class="barrier""#).count(), 2 + 1);
    // Through shared memory: warp 0's lanes 0..3 load the four warps' totals, stored by each warp's last lane
    // (warp 0's own lane 0 does not move data … lane 7 stored it); then every warp loads its offset from warp 0.
    let shared = arrows_by_column(&s, "arrow shared");
    // Two positions: warp 0's load of the totals, then the four warps' loads of their offsets side by side
    // (they touch different lanes, so they share one position instead of four).
    assert_eq!(shared.len(), 2, "{shared:?}");
    assert_eq!(shared[0].len(), 4);
    assert!(shared[0].iter().any(|t| t.starts_with("warp 3 lane 7 stored")));
    let mut offsets = shared[1].clone();
    offsets.sort();
    let mut expected: Vec<String> = Vec::new();
    for (warp, value) in [0u32, 0, 3, 11].into_iter().enumerate() {
        for lane in 0..8 {
            if (warp, lane) != (0, 0) {
                expected.push(format!(
                    "warp 0 lane {warp} stored {value} in offsets[{warp}]; warp {warp} lane {lane} loads it"
                ));
            }
        }
    }
    expected.sort();
    assert_eq!(offsets, expected);
    // Each warp's part of that shared position is tagged with its step.
    for step in 17..=20 {
        assert!(s.contains(&format!(">step {step}<title>")), "step {step}");
    }
    assert!(s.contains(">steps 17–20</text>"));
    // The picture fits a slide's width (it was 2,866 px wide when every column had a position of its own).
    let width: i64 = s
        .split(r#"width=""#)
        .nth(1)
        .and_then(|r| r.split('"').next())
        .expect("width")
        .parse()
        .expect("a number");
    assert!(width <= warpsim::render::svg::SLIDE.0 + 100, "{width}");
    assert_eq!(
        s.matches(r#"<g class="bankmap">"#).count(),
        4,
        "totals store/load, offsets store/load"
    );
    snapshot(
        "histogram_bin@w8@threads=32@target_bin=1.svg",
        "sim run histogram_bin --warp 8 --set threads=32 --set target_bin=1 --svg h.svg",
        &s,
    );
}

#[test]
fn warps_and_steps_choose_what_is_drawn() {
    let set = [("threads", 32), ("target_bin", 1)];
    let all = svg("histogram_bin", 8, &set, SvgOptions::default());
    let some = svg(
        "histogram_bin",
        8,
        &set,
        SvgOptions {
            warps: Some(vec![2]),
            steps: Some((5, 12)),
            ..SvgOptions::default()
        },
    );
    assert!(all.contains(">warp 3</text>"));
    assert!(some.contains(">warp 2</text>") && !some.contains(">warp 0</text>"));
    // Steps are numbered over the whole run: warp 2's among steps 5..=12, and nothing else.
    // The steps drawn: a position's header `step N`, or the tag of each warp's part of a shared position.
    let numbers = |svg: &str| -> Vec<usize> {
        let texts = |open: &str| -> Vec<String> {
            svg.split(open)
                .skip(1)
                .filter_map(|part| part.split_once('>')?.1.split('<').next().map(str::to_string))
                .collect()
        };
        let mut n: Vec<usize> = texts(r#"<text class="h1""#)
            .into_iter()
            .chain(texts(r#"<text class="tag""#))
            .filter_map(|t| t.strip_prefix("step ")?.parse().ok())
            .collect();
        n.sort_unstable();
        n
    };
    let drawn = numbers(&some);
    assert!(
        !drawn.is_empty() && drawn.iter().all(|n| (5..=12).contains(n)),
        "{drawn:?}"
    );
    let every = numbers(&all);
    assert_eq!(every, (1..=every.len()).collect::<Vec<_>>());
    assert!(some.contains("exchange steps 5 to 12 of"));
    let (kernel, events, _) = traced("histogram_bin", 8, &set);
    let bad = |opts: SvgOptions| render::svg::diagram(&kernel, &events, &SvgOptions { banks: 32, ..opts }).unwrap_err();
    assert!(
        bad(SvgOptions {
            warps: Some(vec![4]),
            ..SvgOptions::default()
        })
        .contains("has 4 warp(s) (0 to 3), not warp 4")
    );
    assert!(
        bad(SvgOptions {
            block: Some(1),
            ..SvgOptions::default()
        })
        .contains("the grid has 1 block(s)")
    );
    assert!(
        bad(SvgOptions {
            steps: Some((99, 100)),
            ..SvgOptions::default()
        })
        .contains("exchange step(s)")
    );
}

#[test]
fn the_same_run_draws_the_same_bytes() {
    let a = svg("block_reduce", 8, &[("n", 32), ("threads", 32)], SvgOptions::default());
    let b = svg("block_reduce", 8, &[("n", 32), ("threads", 32)], SvgOptions::default());
    assert_eq!(a, b);
}

/// The Chrome trace: valid JSON, a slice per issued instruction from issue to completion, slices on one track
/// never overlap, and every warp's stall slices add up to its stall breakdown.
#[test]
fn chrome_trace_has_a_slice_per_instruction_and_the_stalls() {
    // The last: every lane branches to the end of the program, so the warp retires without an `exit`, after a
    // control stall (carried by its exit event).
    let ends_in_a_branch = ".kernel ends\n.block W\n.buffer out u32[W]\n.reg %t\n.pred %p\n  mov.u32 %t, %tid.x\n  setp.ge.u32 %p, %t, 0\n  @%p bra done\n  st.global.u32 out[%t], %t\ndone:\n";
    let runs = [
        ("butterfly_max", traced("butterfly_max", 8, &[])),
        (
            "histogram_bin",
            traced("histogram_bin", 8, &[("threads", 32), ("target_bin", 1)]),
        ),
        ("block_reduce", traced("block_reduce", 32, &[])),
        ("ends_in_a_branch", traced_source(ends_in_a_branch, 8)),
    ];
    for (name, (kernel, events, out)) in runs {
        let text = render::chrome::chrome_trace(&kernel, &events);
        let doc: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let evs = doc["traceEvents"].as_array().expect("traceEvents");
        let slices: Vec<&serde_json::Value> = evs.iter().filter(|e| e["ph"] == "X").collect();
        let instructions: Vec<_> = slices.iter().filter(|e| e["cat"] == "instruction").collect();
        let issues: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::Issue(i) => Some(i),
                _ => None,
            })
            .collect();
        assert_eq!(instructions.len(), issues.len(), "{name}");
        for (s, i) in instructions.iter().zip(&issues) {
            assert_eq!(s["ts"], i.cycle);
            assert_eq!(s["dur"], i.complete.max(i.cycle + 1) - i.cycle);
            assert_eq!(s["pid"], i.block);
            assert_eq!(s["args"]["pc"], i.pc);
        }
        // No two slices on one track overlap (Perfetto needs nesting; these never nest).
        let mut tracks: BTreeMap<(u64, u64), Vec<(u64, u64)>> = BTreeMap::new();
        for s in &slices {
            let key = (s["pid"].as_u64().expect("pid"), s["tid"].as_u64().expect("tid"));
            let (ts, dur) = (s["ts"].as_u64().expect("ts"), s["dur"].as_u64().expect("dur"));
            tracks.entry(key).or_default().push((ts, ts + dur));
        }
        for (key, mut spans) in tracks {
            spans.sort_unstable();
            assert!(
                spans.windows(2).all(|p| p[0].1 <= p[1].0),
                "{name}: overlapping slices on track {key:?}"
            );
        }
        // Every track is named, and each warp has its own.
        let names: Vec<&str> = evs
            .iter()
            .filter(|e| e["name"] == "thread_name")
            .map(|e| e["args"]["name"].as_str().expect("a name"))
            .collect();
        for warp in 0..kernel.warps_per_block() {
            assert!(names.contains(&format!("warp {warp}").as_str()), "{name}: {names:?}");
            assert!(names.contains(&format!("warp {warp} stalls").as_str()));
        }
        // Stall slices per warp = the warp's stall breakdown (every waiting cycle before an issue).
        let mut stalls: BTreeMap<(u64, u64, String), u64> = BTreeMap::new();
        for s in slices.iter().filter(|e| e["cat"] == "stall") {
            let warp = s["tid"].as_u64().expect("tid") / 1000;
            let key = (
                s["pid"].as_u64().expect("pid"),
                warp,
                s["name"].as_str().expect("name").to_string(),
            );
            *stalls.entry(key).or_default() += s["dur"].as_u64().expect("dur");
        }
        for ws in &out.stats.warp_stalls {
            for (reason, cycles) in ws.stalls.parts() {
                if matches!(reason, "issued" | "not_launched" | "finished") {
                    continue;
                }
                let traced = stalls
                    .get(&(u64::from(ws.block), u64::from(ws.warp), reason.to_string()))
                    .copied()
                    .unwrap_or(0);
                assert_eq!(traced, cycles, "{name}: block {} warp {} {reason}", ws.block, ws.warp);
            }
        }
        assert!(!stalls.is_empty(), "{name}: no stalls at all");
        if name == "ends_in_a_branch" {
            assert!(stalls.contains_key(&(0, 0, "control".to_string())), "{stalls:?}");
        }
    }
    let (kernel, events, _) = traced("butterfly_max", 8, &[]);
    snapshot(
        "butterfly_max@w8.chrome.json",
        "sim run butterfly_max --warp 8 --trace-format chrome trace.json",
        &render::chrome::chrome_trace(&kernel, &events),
    );
}

/// A shared-memory store or atomic records each lane's word as the instruction left it (the stepper's shared
/// memory panel replays these): for a store, the value of the highest lane that stored to the word; for an
/// atomic, the word after every lane's update.
#[test]
fn shared_stores_and_atomics_record_the_words_they_left() {
    let (_, events, _) = traced("histogram_bin", 32, &[]);
    let mut stores = 0;
    for e in &events {
        let Event::Issue(i) = e else { continue };
        let Some(m) = &i.memory else { continue };
        if !(m.shared && m.store) {
            assert!(
                m.after.is_empty(),
                "pc {}: loads and global accesses record nothing",
                i.pc
            );
            continue;
        }
        for lane in (0..32).filter(|l| i.exec >> l & 1 == 1) {
            let last = (0..32)
                .filter(|&l| i.exec >> l & 1 == 1 && m.index[l] == m.index[lane])
                .max()
                .expect("the lane itself");
            assert_eq!(m.after[lane], i.operands[0][last], "pc {} lane {lane}", i.pc);
        }
        stores += 1;
    }
    // Four warps store their total, then warp 0 stores the four offsets.
    assert_eq!(stores, 5);
    // Shared atomics: every lane adds 1 to one word; each lane's word ends at the total.
    let text = ".kernel count\n.block W\n.shared hits u32[1]\n.buffer out u32[1]\n.reg %t\n  atom.shared.add.u32 %t, hits[0], 1\n  st.global.u32 out[0], %t\n";
    let (_, events, _) = traced_source(text, 8);
    let atom = events
        .iter()
        .find_map(|e| match e {
            Event::Issue(i) if i.memory.as_ref().is_some_and(|m| m.atomic) => Some(i),
            _ => None,
        })
        .expect("the atomic");
    assert_eq!(atom.memory.as_ref().expect("memory").after, vec![8; 8]);
}

/// The stepper page carries the whole trace, one entry per event, each the record of the trace's one schema
/// (what `--format json` and `--trace-file` write), with the exchange steps beside them, and nothing that could be
/// fetched.
#[test]
fn stepper_page_embeds_every_event() {
    let (kernel, events, out) = traced("histogram_bin", 32, &[]);
    let html = render::html::stepper(&kernel, &events, Ok(out.cycles), 0, 32, &out.lines);
    let start = html
        .find(r#"<script id="warpsim-data" type="application/json">"#)
        .expect("data")
        + 50;
    let end = start + html[start..].find("</script>").expect("end of data");
    let data: serde_json::Value = serde_json::from_str(&html[start..end]).expect("embedded JSON");
    assert_eq!(data["events"].as_array().expect("events").len(), events.len());
    for (k, e) in events.iter().enumerate() {
        let record: serde_json::Value =
            serde_json::from_str(&render::json::event_line(&kernel, e)).expect("a JSON record");
        assert_eq!(data["events"][k], record, "event {k}");
    }
    assert_eq!(data["cycles"], out.cycles);
    assert_eq!(data["w"], 32);
    let kinds: Vec<&str> = data["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["event"].as_str().expect("event"))
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == "barrier_release").count(), 2);
    assert_eq!(kinds.iter().filter(|k| **k == "barrier_arrive").count(), 8);
    assert_eq!(kinds.iter().filter(|k| **k == "warp_exit").count(), 4);
    // Exchange steps as the SVG numbers them: the shuffles and the shared-memory loads of other lanes' words.
    let exchange_steps = data["exchange_steps"].as_array().expect("exchange steps");
    assert_eq!(exchange_steps.len(), events.len());
    let steps: Vec<u64> = exchange_steps.iter().filter_map(serde_json::Value::as_u64).collect();
    assert_eq!(steps, (1..=steps.len() as u64).collect::<Vec<_>>());
    let shuffles = events
        .iter()
        .filter(|e| matches!(e, Event::Issue(i) if i.shuffle.is_some()))
        .count();
    assert_eq!(
        steps.len(),
        shuffles + 1 + 4,
        "warp 0's totals load, then each warp's offsets load"
    );
    // The shared arrays' layout (the panel's banks), and each shared store's words as it left them.
    assert_eq!(
        data["shared"],
        serde_json::json!([
            {"name": "totals", "offset": 0, "len": 4, "ty": "u32"},
            {"name": "offsets", "offset": 4, "len": 4, "ty": "u32"}
        ])
    );
    let afters = data["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["memory"]["after"].is_array())
        .count();
    assert_eq!(afters, 5);
    // The listing names each line by its file's name; the tooltip has the path.
    assert_eq!(data["listing"][0]["loc"], "histogram_bin.s:30");
    assert_eq!(data["listing"][0]["path"], "programs/histogram_bin.s:30");
    for needle in ["<link", "src=", "href=", "@import"] {
        assert!(!html.contains(needle), "{needle}");
    }
    assert!(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));
}

/// The diagram in the README is what warpsim draws today (`sim run butterfly_max --warp 8 --svg
/// docs/butterfly_max-w8.svg` regenerates it), and the stepper screenshot beside it is a PNG
/// (`WARPSIM_UPDATE_DOCS=1 cargo test -p warpsim --test browser` retakes it).
#[test]
fn docs_pictures_are_current() {
    let docs = format!("{}/../docs", env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(format!("{docs}/butterfly_max-w8.svg")).expect("docs SVG");
    assert_eq!(committed, svg("butterfly_max", 8, &[], SvgOptions::default()));
    let png = std::fs::read(format!("{docs}/stepper-butterfly_max-w8.png")).expect("docs screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let readme = std::fs::read_to_string(format!("{docs}/../README.md")).expect("README");
    assert!(readme.contains("docs/butterfly_max-w8.svg") && readme.contains("docs/stepper-butterfly_max-w8.png"));
}

/// Every picture draws any program: random generated programs (the generator's reference target: every warp
/// size, divergence, shared memory, barriers, faults on purpose), each traced to its end or its fault and drawn
/// as an SVG (every drawn warp, and one warp alone), a stepper page, a Chrome trace, a text trace and a lane
/// grid. A choice that draws nothing may be an error; nothing may panic, and what is drawn is well formed.
#[test]
fn every_picture_draws_any_generated_program() {
    let mut drawn = 0;
    let mut faulted = 0;
    for index in 0..300u64 {
        // SplitMix64 of the index: the generator's choices.
        let bytes: Vec<u8> = (0..96u64)
            .flat_map(|k| {
                let mut z = (index * 96 + k).wrapping_add(0x9e37_79b9_7f4a_7c15);
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                (z ^ (z >> 31)).to_le_bytes()
            })
            .collect();
        let case = warpsim_tools::random::from_bytes(warpsim_tools::random::Target::Reference, &bytes);
        let source = case.source();
        let program = warpsim_isa::parse("generated.s", &source, &programs::Resolver).expect("assembles");
        let config = Config::hopper().with_warp_size(case.w);
        let kernel = warpsim::instantiate(&program, &config, &Launch::default()).expect("loads");
        let options = RunOptions {
            max_cycles: 200_000,
            threads: 1,
            ..RunOptions::default()
        };
        let mut events: Vec<Event> = Vec::new();
        let result = warpsim::run(&kernel, &config, &options, &mut events);
        faulted += u32::from(result.is_err());
        let outcome = result.as_ref().map(|o| o.cycles).map_err(warpsim::Fault::message);
        for warps in [None, Some(vec![0])] {
            let opts = SvgOptions {
                banks: 32,
                warps,
                ..SvgOptions::default()
            };
            if let Ok(svg) = render::svg::diagram(&kernel, &events, &opts) {
                assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"), "{source}");
                drawn += 1;
            }
        }
        let html = render::html::stepper(&kernel, &events, outcome, 0, 32, &[]);
        assert!(html.ends_with("</html>\n"), "{source}");
        let chrome: serde_json::Value =
            serde_json::from_str(&render::chrome::chrome_trace(&kernel, &events)).expect("valid JSON");
        assert!(chrome["traceEvents"].is_array());
        let _ = render::text::trace(&kernel, &events, render::MIN_WIDTH);
        let _ = render::grid::grid(&kernel, &events, 120);
    }
    // The programs were varied enough to draw, and to fault.
    assert!(drawn > 300 && faulted > 0, "{drawn} pictures, {faulted} faults");
}
