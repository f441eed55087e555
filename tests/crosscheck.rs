//! The real-GPU cross-check, as far as it goes without a GPU: the CUDA translation (snapshots reviewed like
//! code), the random program generator (reproducible, and only programs the hardware defines), and the
//! comparison and reports. `gpu_agrees_with_warpsim` runs on a GPU: it skips itself, with a message, unless the
//! build has the `cuda` feature and a GPU is there, or `WARPSIM_REQUIRE_GPU=1` demands it.

use warpsim::{Launch, programs};
use warpsim_tools::crosscheck::{self, GpuRun};

fn cuda_of(name: &str) -> String {
    let program = programs::assemble(name).expect("shipped").expect("assembles");
    let case = crosscheck::prepare(&program, &Launch::default(), name).expect("prepares");
    warpsim_tools::emit_cuda::translation_unit(&case.cuda)
}

#[test]
fn emitted_cuda_matches_the_reviewed_snapshots() {
    for name in [
        "butterfly_max",
        "block_sum",
        "histogram_bin",
        "shfl_wrap",
        "warp_prefix_sum",
        "transpose",
    ] {
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("../traces/cuda");
        settings.set_prepend_module_to_snapshot(false);
        settings.set_omit_expression(true);
        settings.set_description(format!("sim emit-cuda {name}"));
        settings.bind(|| insta::assert_snapshot!(name, cuda_of(name)));
    }
}

#[test]
fn every_shipped_program_translates() {
    for name in programs::names() {
        let program = programs::assemble(name).expect("shipped").expect("assembles");
        let case = crosscheck::prepare(&program, &Launch::default(), name)
            .unwrap_or_else(|e| panic!("{name} cannot be cross-checked: {e}"));
        let body = &case.cuda.body;
        assert!(body.contains(&format!("__global__ void {name}(")), "{name}");
        // One statement per instruction, each commented with its pc and source.
        for pc in 0..case.kernel.code.len() {
            assert!(body.contains(&format!("// {pc:>3}: ")), "{name}: pc {pc} missing");
        }
        // Only block_sum has an f32 atomic (its `red.global.add.f32`).
        assert_eq!(body.contains("atomicAdd((float *)"), name == "block_sum", "{name}");
        assert!(
            !case.cuda.clock_buffers.iter().any(|&c| c),
            "{name} has no clock buffer"
        );
    }
}

#[test]
fn a_3d_launch_reads_cudas_indices_and_launches_with_dim3() {
    let src = "\
.grid 2, 3, 4
.block 8, 4, 2
.buffer out u32[32]
.reg %x
    mov.u32 %x, %tid.y
    mov.u32 %x, %tid.z
    mov.u32 %x, %ntid.z
    mov.u32 %x, %ctaid.y
    mov.u32 %x, %nctaid.z
    mov.u32 %x, %laneid
    mov.u32 %x, %warpid
    mov.u32 %x, %nwarpid
    st.global.u32 out[%laneid], %x
";
    let program = warpsim_isa::parse("three.s", src, &programs::Resolver).expect("assembles");
    let case = crosscheck::prepare(&program, &Launch::default(), "three").expect("prepares");
    let body = &case.cuda.body;
    for line in [
        "// warpsim program `three` at W = 32: grid 2x3x4, block 8x4x2.",
        "//   launch as three<<<dim3(2, 3, 4), dim3(8, 4, 2)>>>",
        "    const unsigned warpsim_tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);",
        "    const unsigned laneid = warpsim_tid % 32;",
        "    const unsigned tid_y = threadIdx.y;",
        "    const unsigned tid_z = threadIdx.z;",
        "    const unsigned ntid_z = blockDim.z;",
        "    const unsigned ctaid_y = blockIdx.y;",
        "    const unsigned nctaid_z = gridDim.z;",
        "    const unsigned warpid = warpsim_tid / 32;",
        "    const unsigned nwarpid = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;",
        "    unsigned long long *const warpsim_at = &warpsim_clocks[2 * (blockIdx.x + gridDim.x * (blockIdx.y + \
         gridDim.y * blockIdx.z))];",
    ] {
        assert!(body.lines().any(|l| l == line), "missing `{line}` in:\n{body}");
    }
    let job = crosscheck::LaunchJob::of(&case);
    assert_eq!((job.grid, job.block), ([2, 3, 4], [8, 4, 2]));
    // A 1-D launch reads threadIdx.x as before.
    let one = warpsim_isa::parse(
        "one.s",
        ".block 64\n.reg %x\n    mov.u32 %x, %laneid\n",
        &programs::Resolver,
    )
    .expect("assembles");
    let case = crosscheck::prepare(&one, &Launch::default(), "one").expect("prepares");
    assert!(
        case.cuda
            .body
            .contains("    const unsigned laneid = threadIdx.x % 32;\n")
    );
    assert!(!case.cuda.body.contains("warpsim_tid") && !case.cuda.body.contains("dim3"));
    assert_eq!(crosscheck::LaunchJob::of(&case).block, [64, 1, 1]);
}

#[test]
fn clock_buffers_are_found_through_registers() {
    let program = warpsim_tests::assemble(
        ".buffer cyc u32[1]\n.buffer out u32[W]\n.reg %t0, %t1, %d\n\
         mov.u32 %t0, %clock\n add.u32 %d, %laneid, 1\n mov.u32 %t1, %clock\n sub.u32 %d, %t1, %t0\n\
         st.global.u32 cyc[0], %d\n st.global.u32 out[%laneid], %laneid\n",
    );
    let case = crosscheck::prepare(&program, &Launch::default(), "clocked").expect("prepares");
    assert_eq!(case.cuda.clock_buffers, vec![true, false]);
    assert!(case.cuda.body.contains("r_t0 = clock32();"));
}

#[test]
fn register_member_masks_are_emitted_as_the_variable() {
    let program = warpsim_tests::assemble(
        ".buffer out u32[W]\n.reg %m, %r\n.pred %p\n\
         activemask.b32 %m\n shfl.sync.idx.b32 %r, %laneid, 0, mask=%m\n vote.sync.ballot.b32 %r, %p, %m\n\
         match.sync.any.b32 %r, %r, mask=%lanemask_le\n bar.warp.sync %m\n st.global.u32 out[%laneid], %r\n",
    );
    let case = crosscheck::prepare(&program, &Launch::default(), "masks").expect("prepares");
    let body = &case.cuda.body;
    for line in [
        "r_m = __activemask();",
        "r_r = shfl_idx(laneid, 0u, 0x001f, r_m);",
        "r_r = vote_ballot(r_m, p_p);",
        "__syncwarp(r_m);",
    ] {
        assert!(body.contains(line), "no `{line}` in\n{body}");
    }
    assert!(body.contains("r_r = match_any(lanemask_le, r_r);"), "{body}");
}

#[test]
fn random_programs_are_reproducible() {
    let a = warpsim_tools::random::generate(7, 3);
    let b = warpsim_tools::random::generate(7, 3);
    assert_eq!(a.source, b.source);
    assert_eq!(a.name, "random_7_3");
    assert_ne!(a.source, warpsim_tools::random::generate(7, 4).source);
    assert_ne!(a.source, warpsim_tools::random::generate(8, 3).source);
}

/// Every generated program assembles, runs without a fault, reads no lane the hardware leaves undefined, and
/// translates; together they use every instruction of the ISA (but `nop`), every atomic operation in both
/// spaces, every conversion rounding, every comparison, and the spellings of the warp operations' operands.
#[test]
fn random_programs_are_well_defined_and_cover_every_instruction() {
    let (mut shuffles, mut divergent, mut warps, mut f32_ops) = (0, 0, 0, 0);
    let mut forms = std::collections::BTreeSet::new();
    let mut text = String::new();
    for index in 0..400 {
        let case = crosscheck::random_case(11, index).unwrap_or_else(|r| panic!("{}: {:?}", r.name, r.error));
        assert_eq!(case.sim.stats.undefined_shuffle_reads, 0);
        shuffles += case.sim.stats.shuffles;
        divergent += case.sim.stats.divergent_branches;
        warps += case.sim.stats.warps;
        f32_ops += case.cuda.body.matches("F(").count();
        let source = warpsim_tools::random::generate(11, index).source;
        let program = warpsim_isa::parse("r.s", &source, &programs::Resolver).expect("assembles");
        for i in &program.instructions {
            let op = warpsim_isa::print::op(&program, &i.op);
            forms.insert(op.split_whitespace().next().unwrap_or_default().to_string());
        }
        text.push_str(&source);
    }
    assert!(shuffles > 800, "{shuffles}");
    assert!(divergent > 3000, "{divergent}");
    assert!(warps > 800, "{warps}");
    assert!(f32_ops > 1000, "{f32_ops}");
    let has = |prefix: &str| forms.iter().any(|f| f.starts_with(prefix));
    let mut missing = Vec::new();
    for ty in ["b32", "u32", "s32", "f32"] {
        for op in ["mov", "selp"] {
            missing.push(format!("{op}.{ty}"));
        }
    }
    for ty in ["u32", "s32"] {
        for op in [
            "add", "sub", "mul", "div", "rem", "min", "max", "mad", "shl", "shr", "and", "or", "xor", "not",
        ] {
            missing.push(format!("{op}.{ty}"));
        }
    }
    for op in ["add", "sub", "mul", "div", "min", "max", "mad", "fma", "neg", "abs"] {
        missing.push(format!("{op}.f32"));
    }
    missing.extend(
        [
            "neg.s32", "abs.s32", "and.b32", "xor.b32", "not.b32", "shl.b32", "shr.b32",
        ]
        .map(String::from),
    );
    for ty in ["u32", "s32", "f32"] {
        for cmp in ["eq", "ne", "lt", "le", "gt", "ge"] {
            missing.push(format!("setp.{cmp}.{ty}"));
        }
    }
    missing.extend(["setp.eq.b32", "setp.ne.b32"].map(String::from));
    for op in ["and", "or", "xor", "not"] {
        missing.push(format!("{op}.pred"));
    }
    for rnd in ["rni", "rzi", "rmi", "rpi"] {
        for to in ["s32", "u32", "f32"] {
            missing.push(format!("cvt.{rnd}.{to}.f32"));
        }
    }
    missing.extend(["cvt.rn.f32.s32", "cvt.rn.f32.u32", "cvt.u32.s32", "cvt.s32.u32"].map(String::from));
    for space in ["global", "shared"] {
        missing.push(format!("ld.{space}"));
        missing.push(format!("st.{space}"));
        missing.push(format!("red.{space}"));
    }
    for op in ["add", "min", "max", "exch", "cas", "and", "or", "xor"] {
        missing.push(format!("atom.global.{op}"));
        missing.push(format!("atom.shared.{op}"));
    }
    missing.extend(
        [
            "atom.global.add.f32",
            "atom.global.min.f32",
            "atom.global.max.f32",
            "atom.global.add.s32",
        ]
        .map(String::from),
    );
    for mode in ["idx", "up", "down", "bfly"] {
        missing.push(format!("shfl.sync.{mode}"));
    }
    for mode in ["all", "any", "uni", "ballot"] {
        missing.push(format!("vote.sync.{mode}"));
    }
    missing.extend(
        [
            "activemask",
            "match.sync.any",
            "match.sync.all",
            "bar.sync",
            "bar.red.popc",
            "bar.red.and",
            "bar.red.or",
            "bar.warp.sync",
            "bra",
            "exit",
        ]
        .map(String::from),
    );
    missing.retain(|f| !has(f));
    assert!(missing.is_empty(), "no random program uses {missing:?}");
    for spelling in [
        "width=1,",
        "width=16,",
        ", mask=0xff00ff00",
        ", 0x55555555",
        ", mask=%t1",
        ", %t0, %t1",
        "@!%p",
        "loop_",
        "else_",
    ] {
        assert!(text.contains(spelling), "no random program uses `{spelling}`");
    }
}

#[test]
fn compare_reports_the_first_differing_element_with_its_bits() {
    let program = programs::assemble("butterfly_max")
        .expect("shipped")
        .expect("assembles");
    let case = crosscheck::prepare(&program, &Launch::default(), "butterfly_max").expect("prepares");
    let same = GpuRun {
        buffers: case.sim.buffers.iter().map(|b| b.data.clone()).collect(),
        clocks: vec![(1000, 1180)],
        runs: Vec::new(),
    };
    let r = crosscheck::compare(&case, &same);
    assert!(r.matched);
    assert_eq!(r.gpu_cycles, Some(180));
    assert_eq!(r.sim_cycles, Some(case.sim_span));
    assert!(case.sim_span > 0 && case.sim_span <= case.sim.cycles);

    let mut other = same.clone();
    other.buffers[1][5] = (-0.0f32).to_bits();
    other.buffers[1][9] = 1.0f32.to_bits();
    let r = crosscheck::compare(&case, &other);
    assert!(!r.matched);
    let m = r.mismatch.clone().expect("a mismatch");
    assert_eq!((m.buffer.as_str(), m.index, m.differing), ("out", 5, 2));
    assert_eq!((m.sim.as_str(), m.sim_bits.as_str()), ("1000.0", "0x447a0000"));
    assert_eq!((m.gpu.as_str(), m.gpu_bits.as_str()), ("-0.0", "0x80000000"));

    let mut info = crosscheck::Report::new(&crosscheck::GpuInfo {
        name: "Test GPU".into(),
        driver: "1.0".into(),
        arch: "sm_90".into(),
        ptxas: None,
    });
    info.programs = vec![crosscheck::compare(&case, &same), r];
    assert!(!info.passed());
    let json: serde_json::Value = serde_json::from_str(&info.to_json()).expect("JSON");
    assert_eq!(json["gpu"], "Test GPU");
    assert_eq!(json["programs"][0]["match"], true);
    assert_eq!(json["programs"][1]["match"], false);
    assert_eq!(json["programs"][1]["mismatch"]["gpu_bits"], "0x80000000");
    let md = info.to_markdown();
    assert!(md.contains("| butterfly_max | 1 × 32 | yes | 180 |"), "{md}");
    assert!(
        md.contains("out[5]: warpsim 1000.0 (0x447a0000), GPU -0.0 (0x80000000); 2 elements differ"),
        "{md}"
    );
}

/// On a GPU: every shipped program and 200 random ones agree bit for bit.
#[test]
fn gpu_agrees_with_warpsim() {
    let required = std::env::var_os("WARPSIM_REQUIRE_GPU").is_some_and(|v| v == "1");
    #[cfg(not(feature = "cuda"))]
    {
        assert!(
            !required,
            "WARPSIM_REQUIRE_GPU=1, but the tests were built without `--features cuda`"
        );
        eprintln!("skipping gpu_agrees_with_warpsim: built without the `cuda` feature");
    }
    #[cfg(feature = "cuda")]
    {
        let mut gpu = match warpsim_tools::crosscheck::gpu::CudaGpu::open(None) {
            Ok(g) => g,
            Err(e) => {
                assert!(!required, "WARPSIM_REQUIRE_GPU=1, but: {e}");
                eprintln!("skipping gpu_agrees_with_warpsim: {e} (set WARPSIM_REQUIRE_GPU=1 to fail instead)");
                return;
            }
        };
        let mut cases: Vec<_> = programs::names()
            .into_iter()
            .map(|name| {
                let program = programs::assemble(name).expect("shipped").expect("assembles");
                crosscheck::prepare(&program, &Launch::default(), name).expect("prepares")
            })
            .collect();
        cases.extend((0..200).map(|i| crosscheck::random_case(99, i).expect("well defined")));
        for r in crosscheck::run_cases(&mut gpu, &cases) {
            assert!(r.matched, "{}: {:?} {:?}", r.name, r.mismatch, r.error);
        }
    }
}

/// A stand-in for `sim crosscheck-worker`, in bash: it speaks the worker's protocol (a device line, the job on
/// stdin, one answer per launch) and answers each launch with the buffers it was given, so a program that
/// writes nothing matches. A kernel whose name says so misbehaves: `stall` never answers (a kernel that never
/// finishes, seen from the parent), `hung` reports a hang as the real worker does, `dies` exits on stderr.
/// Every start appends a line to `log`.
fn fake_worker(dir: &std::path::Path) -> std::path::PathBuf {
    let script = dir.join("worker.sh");
    let log = dir.join("log");
    std::fs::write(
        &script,
        format!(
            r#"#!/usr/bin/env bash
echo '{{"Info":{{"name":"fake","driver":"0","arch":"sm_90"}}}}'
job=$(cat)
[ -z "$job" ] && exit 0
echo start >> '{log}'
echo '"Compiled"'
mapfile -t kernels < <(printf '%s' "$job" | grep -o '"kernel":"[^"]*"' | cut -d'"' -f4)
mapfile -t buffers < <(printf '%s' "$job" | grep -o '"buffers":\[\[[0-9,]*\]\]' | cut -d: -f2)
for i in "${{!kernels[@]}}"; do
  case "${{kernels[$i]}}" in
    *stall*) sleep 30; exit 0 ;;
    *hung*) echo "{{\"Hung\":{{\"index\":$i}}}}"; exit 3 ;;
    *dies*) echo "error: boom" >&2; exit 1 ;;
  esac
  echo "{{\"Ran\":{{\"index\":$i,\"run\":{{\"buffers\":${{buffers[$i]}},\"clocks\":[[0,100]]}}}}}}"
done
"#,
            log = log.display()
        ),
    )
    .unwrap();
    script
}

#[test]
fn a_kernel_that_hangs_or_kills_its_worker_is_reported_by_name_and_the_batch_goes_on() {
    use std::time::Duration;
    use warpsim_tools::crosscheck::isolated::Workers;
    let dir = std::env::temp_dir().join(format!("warpsim-fake-worker-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let script = fake_worker(&dir);
    // A program that reads its buffer and writes nothing: the fake's echo is the right answer.
    let source = ".kernel reader\n.warp_sizes 32\n.grid 1\n.block 32\n.buffer a u32[32] = i * 3\n.reg %v\n\n        ld.global.u32 %v, a[%tid.x]\n";
    let program = warpsim_isa::parse("reader.s", source, &warpsim::programs::Resolver).expect("assembles");
    let names = ["ok_0", "stall_1", "ok_2", "hung_3", "ok_4", "dies_5", "ok_6"];
    let cases: Vec<_> = names
        .iter()
        .map(|n| crosscheck::prepare(&program, &warpsim::Launch::default(), n).expect("prepares"))
        .collect();
    let workers = Workers {
        command: vec!["bash".into(), script.into_os_string()],
        parallel: 2,
        compile_timeout: Duration::from_secs(20),
        launch_timeout: Duration::from_secs(1),
    };
    assert_eq!(workers.info().expect("the fake answers").name, "fake");
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let reports = workers.run(&cases, &|done| {
        calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(done.len(), names.len());
    });
    let verdicts: Vec<(bool, Option<&str>, Option<&str>)> = reports
        .iter()
        .map(|r| (r.matched, r.hang.as_deref(), r.error.as_deref()))
        .collect();
    assert_eq!(
        verdicts,
        vec![
            (true, None, None),
            (false, Some("gpu"), Some("hangs on the GPU: did not finish within 10 s")),
            (true, None, None),
            (false, Some("gpu"), Some("hangs on the GPU: did not finish within 10 s")),
            (true, None, None),
            (false, None, Some("the GPU worker died: boom")),
            (true, None, None),
        ]
    );
    // One module: a worker for it, and a fresh one after each of the three that went wrong.
    let starts = std::fs::read_to_string(dir.join("log")).unwrap().lines().count();
    assert_eq!(starts, 4);
    assert_eq!(calls.into_inner(), 1);
    let summary = crosscheck::random_report(1, &reports);
    assert_eq!((summary.mismatches, summary.hangs, summary.errors), (0, 2, 1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_program_that_loops_in_warpsim_is_reported_as_a_hang() {
    let source = ".kernel spin\n.warp_sizes 32\n.grid 1\n.block 32\n\nloop:\n        bra loop\n";
    let program = warpsim_isa::parse("spin.s", source, &warpsim::programs::Resolver).expect("assembles");
    let err = crosscheck::prepare(&program, &warpsim::Launch::default(), "spin").unwrap_err();
    assert!(err.starts_with("hangs in warpsim: "), "{err}");
    let r = crosscheck::ProgramReport::failed("spin", err);
    assert_eq!(r.hang.as_deref(), Some("warpsim"));
}

/// The programs whose cross-check once failed (`crosscheck/regressions/`) and the edge-operand programs
/// (`crosscheck/edges/`), kept with the values an H100 computed for them (`*.gpu.json`, written by
/// `sim crosscheck --save-buffers`): warpsim must give the same bits, and the translation must keep what fixed
/// them.
#[test]
fn the_programs_that_once_differed_from_the_gpu_give_its_values() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../crosscheck");
    let mut seen = 0;
    let mut files: Vec<_> = ["regressions", "edges"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).unwrap().map(|e| e.unwrap().path()))
        .collect();
    files.sort();
    for path in files.iter().filter(|p| p.extension().is_some_and(|e| e == "s")) {
        let source = std::fs::read_to_string(path).unwrap();
        let program =
            warpsim_isa::parse(&path.display().to_string(), &source, &warpsim::programs::Resolver).expect("assembles");
        let case = crosscheck::prepare(&program, &warpsim::Launch::default(), "k").expect("prepares");
        let gpu: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path.with_extension("gpu.json")).unwrap()).unwrap();
        for b in &case.sim.buffers {
            let want: Vec<u32> = gpu["buffers"][&b.name]
                .as_array()
                .unwrap_or_else(|| panic!("{}: no buffer {}", path.display(), b.name))
                .iter()
                .map(|v| u32::try_from(v.as_u64().unwrap()).unwrap())
                .collect();
            assert_eq!(b.data, want, "{}: buffer {}", path.display(), b.name);
        }
        // What fixed them: abs.s32 through a zero ptxas cannot see, and member masks the same way.
        if source.contains("abs.s32") {
            assert!(case.cuda.body.contains("abs_s32(") && case.cuda.body.contains(") ^ warpsim_zero"));
        }
        assert!(!case.cuda.body.contains(", 0xffffffff)"), "a constant member mask");
        // A guarded instruction that translates to several statements is guarded as a whole (random 6294: a
        // guarded `mov.b64 {lo, hi}` once wrote its high half unguarded).
        for line in case.cuda.body.lines().filter(|l| l.trim_start().starts_with("if (")) {
            let stmt = line.split(" // ").next().unwrap_or(line);
            assert!(
                stmt.matches(';').count() <= 1 || stmt.contains(") {"),
                "{}: a guard that covers one statement of several: {line}",
                path.display()
            );
        }
        // A 32-bit integer operand of a 64-bit operation reaches ptxas through the opaque zero (random 4217:
        // ptxas widened an f32-written shift amount with F2I).
        if source.contains("shl.b64") || source.contains("shl.s64") {
            assert!(case.cuda.body.contains(" ^ warpsim_zero)))"), "{}", path.display());
        }
        seen += 1;
    }
    // 14 regressions and edge programs, edges_arrive (named barriers), edges_redux, edges_fns, edges_carry,
    // edges_sfu, edges_ftz, edges_dot, edges_narrow and edges_half.
    assert_eq!(seen, 23);
}

/// Contents given with the launch (`sim crosscheck --input`) reach both machines: the simulation runs on them
/// and the GPU's launch starts from them.
#[test]
fn launch_contents_reach_the_simulation_and_the_gpu_job() {
    let program = programs::assemble("block_reduce").expect("shipped").expect("assembles");
    let values: Vec<u32> = (0..256u32).map(|i| i * 31 % 97).collect();
    let launch = Launch {
        set: vec![("n".into(), warpsim_isa::Value::Int(256))],
        contents: vec![warpsim::Contents {
            buffer: "in".into(),
            data: values.clone(),
            origin: "the values".into(),
        }],
        ..Launch::default()
    };
    let case = crosscheck::prepare(&program, &launch, "block_reduce_0").expect("prepares");
    let job = crosscheck::LaunchJob::of(&case);
    assert_eq!(job.buffers[0], values);
    let sums: Vec<u32> = values.chunks(128).map(|c| c.iter().sum()).collect();
    assert_eq!(case.sim.buffer("out").expect("out").data, sums);
}
