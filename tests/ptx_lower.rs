//! PTX lowering (issue 21): what the lowering makes of PTX as nvcc and Numba emit it, and the instructions it
//! needed in warpsim's own ISA (a shuffle's `c` in a register).

use warpsim_tests::{run_text, u32s};

/// `shfl.sync` with PTX's `c` operand in a register, as nvcc computes it for `__shfl_down_sync(…, width)`:
/// each lane clamps with its own `c` (PTX's pseudo-code reads `cval` per thread).
#[test]
fn shuffle_c_operand_in_a_register_is_each_lanes_own() {
    let text = ".block 32
.warp_sizes 32
.buffer out u32[32]
.buffer ok u32[32]
.reg %l, %c, %d, %o
.pred %low, %q
        mov.u32 %l, %laneid
        setp.lt.u32 %low, %l, 16
        selp.u32 %c, 31, 23, %low
        shfl.sync.down.b32 %d|%q, %l, 1, %c, 0xffffffff
        st.global.u32 out[%l], %d
        selp.u32 %o, 1, 0, %q
        st.global.u32 ok[%l], %o
";
    let (out, _) = run_text(text, 32);
    let out = out.unwrap_or_else(|f| panic!("{}", f.message()));
    // Lanes below 16 clamp at lane 31, the others at lane 23: a lane reads lane + 1 when that is at most its clamp.
    let expect: Vec<u32> = (0..32).map(|l| if l < 23 { l + 1 } else { l }).collect();
    assert_eq!(u32s(&out, "out"), expect);
    let ok: Vec<u32> = (0..32).map(|l| u32::from(l < 23)).collect();
    assert_eq!(u32s(&out, "ok"), ok);
}

/// The printer writes a register `c` back as PTX does, and it assembles to the same program.
#[test]
fn shuffle_c_register_round_trips() {
    let text = ".block 32\n.warp_sizes 32\n.reg %l, %c, %d\n        mov.u32 %c, 0x1f\n        shfl.sync.bfly.b32 %d, %l, 1, %c, 0xffffffff\n";
    let p = warpsim_tests::assemble(text);
    let printed = warpsim_isa::print(&p);
    assert!(
        printed.contains("shfl.sync.bfly.b32 %d, %l, 1, %c, 4294967295"),
        "{printed}"
    );
    let again = warpsim_tests::assemble(&printed);
    assert!(p.equivalent(&again));
}

/// Every kernel of the PTX corpus (nvcc 13.5 at -O3 and -G, Numba) lowers, or is refused with an error that
/// names an unsupported instruction and points at docs/ptx.md: never another error, never a panic. The counts
/// are what runs today (docs/ptx.md lists what does not).
#[test]
fn the_corpus_lowers_or_names_what_is_not_supported() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/ptx");
    let mut lowered = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    for (dir, kind) in [("cuda", ".O3.ptx"), ("cuda", ".G.ptx"), ("numba", ".ptx")] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(kind))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let (module, sources) = warpsim_isa::ptx::parse(&path.display().to_string(), &text).expect("parses");
            for f in module.entries().filter(|f| f.body.is_some()) {
                let b = warpsim_isa::ptx::placeholder_bindings(f);
                let counts = lowered.entry(kind).or_default();
                match warpsim_isa::ptx::lower(&module, &sources, f, &b, &|_| None) {
                    Ok(p) => {
                        assert!(!p.instructions.is_empty());
                        assert!(
                            p.instructions
                                .iter()
                                .all(|i| i.origin.is_some() || kind == ".G.ptx" || i.text == "ret;")
                        );
                        counts.0 += 1;
                    }
                    Err(d) => {
                        let r = d.render(&sources, false);
                        let recursion = r.contains("calls itself (recursion)");
                        assert!(
                            recursion || r.contains("help: docs/ptx.md lists the PTX warpsim runs"),
                            "{}: {r}",
                            path.display()
                        );
                        counts.1 += 1;
                    }
                }
            }
        }
    }
    assert_eq!(lowered[".O3.ptx"], (78, 2), "nvcc -O3: lowered, refused");
    assert_eq!(lowered[".G.ptx"], (76, 4), "nvcc -G");
    assert_eq!(lowered[".ptx"], (41, 0), "Numba");
}

/// `atom.inc.u32` and `atom.dec.u32` (PTX: `inc` stores `old >= b ? 0 : old + 1`, `dec` stores `old == 0 || old > b
/// ? b : old - 1`; both return the old value): eight lanes in turn on one word of global and of shared memory.
#[test]
fn atomic_increment_and_decrement_wrap_as_ptx_defines() {
    let text = ".block 8
.warp_sizes 8..32
.buffer g u32[2]
.buffer olds u32[32]
.shared s u32[2]
.reg %l, %o, %t
.pred %p
        mov.u32 %l, %laneid
        setp.lt.u32 %p, %l, 8
        @!%p exit
        atom.global.inc.u32 %o, g[0], 4
        st.global.u32 olds[%l], %o
        atom.global.dec.u32 %o, g[1], 2
        add.u32 %t, %l, 8
        st.global.u32 olds[%t], %o
        atom.shared.inc.u32 %o, s[0], 4
        add.u32 %t, %l, 16
        st.global.u32 olds[%t], %o
        atom.shared.dec.u32 %o, s[1], 2
        add.u32 %t, %l, 24
        st.global.u32 olds[%t], %o
";
    let (out, _) = run_text(text, 8);
    let out = out.unwrap_or_else(|f| panic!("{}", f.message()));
    // Lanes in lane order: inc from 0 with limit 4 counts 0,1,2,3,4,0,1,2 and leaves 3; dec from 0 with
    // limit 2 gives 2 first (old == 0), then 1, 0, 2, 1, 0, 2, 1 and leaves 0.
    let inc = [0, 1, 2, 3, 4, 0, 1, 2];
    let dec = [0, 2, 1, 0, 2, 1, 0, 2];
    let want: Vec<u32> = inc.iter().chain(&dec).chain(&inc).chain(&dec).copied().collect();
    assert_eq!(u32s(&out, "olds"), want);
    assert_eq!(u32s(&out, "g"), [3, 1]);
}

/// A module variable's initialiser is laid out as the words it gives (the rest is the buffer's default, 0), so
/// a huge declared array costs nothing to lower; a 128-bit initialiser is refused, not a crash.
#[test]
fn variable_initialisers_are_laid_out_as_given() {
    let head = ".version 9.5\n.target sm_90\n.address_size 64\n";
    let body = ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, big;\n\tret;\n}\n";
    let text = format!("{head}.global .align 4 .b8 big[1099511627776] = {{1, 2, 3, 4, 5}};\n{body}");
    let (m, sources) = warpsim_isa::ptx::parse("k.ptx", &text).expect("parses");
    let f = m.entries().next().expect("entry");
    let p =
        warpsim_isa::ptx::lower(&m, &sources, f, &warpsim_isa::ptx::Bindings::default(), &|_| None).expect("lowers");
    let big = &p.buffers[0];
    assert_eq!(big.name, "big");
    assert_eq!(big.len.as_literal_int(), Some(1 << 38));
    let Some(warpsim_isa::Init { overrides, .. }) = &big.init else {
        panic!("an initialiser")
    };
    let [warpsim_isa::InitOverride::List { values, .. }] = &overrides[..] else {
        panic!("{overrides:?}")
    };
    let words: Vec<i64> = values.iter().map(|v| v.as_literal_int().unwrap()).collect();
    assert_eq!(words, [0x0403_0201, 5]);
    let text = format!(
        "{head}.global .align 16 .b128 wide = 1;\n{}",
        body.replace("big", "wide")
    );
    let (m, sources) = warpsim_isa::ptx::parse("k.ptx", &text).expect("parses");
    let f = m.entries().next().expect("entry");
    let e = warpsim_isa::ptx::lower(&m, &sources, f, &warpsim_isa::ptx::Bindings::default(), &|_| None)
        .expect_err("refused");
    assert!(e.render(&sources, false).contains("not supported"));
}

/// A kernel relaunched with new buffer contents (what the Python package does with a program's last kernel):
/// `Kernel::buffers_for` gives exactly the buffers a fresh load of that launch makes, contents that do not fit are
/// refused with the load's message, and the run on them gives the fresh load's values and cycles.
#[test]
fn a_kernels_buffers_for_new_contents_are_a_fresh_loads() {
    use warpsim::{Config, Contents, Dim3, Launch, Machine, NoTrace, RunOptions};
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../programs/ptx/numba/p06_blocks.map_blocks.ptx"
    );
    let args = warpsim::ptx::Arguments {
        entry: None,
        buffers: vec!["out=f32[300]".into(), "a=f32[300]".into()],
        sets: vec!["size=300".into()],
        syntax: warpsim::ptx::Syntax::Flags,
    };
    let program = warpsim::ptx::load(path, &args, false).expect("the corpus's map loads");
    let machine = Machine::new(Config::hopper()).expect("the default machine");
    let launch = |values: Vec<u32>| Launch {
        grid: Some(Dim3::new(3, 1, 1)),
        block: Some(Dim3::new(128, 1, 1)),
        set: vec![("size".to_string(), warpsim_isa::Value::Int(300))],
        contents: vec![Contents {
            buffer: "a".into(),
            data: values,
            origin: "the array".into(),
        }],
        ..Launch::default()
    };
    let floats = |k: u32| {
        (0..300u32)
            .map(|i| f32::from(u16::try_from((i * k) % 17).expect("below 17")))
            .map(f32::to_bits)
            .collect::<Vec<u32>>()
    };
    let mut first = machine.load(&program, &launch(floats(3))).expect("loads");
    let _ = first.take_buffers();
    let again = first.buffers_for(&launch(floats(5))).expect("the same shape");
    let mut fresh = machine.load(&program, &launch(floats(5))).expect("loads");
    let fresh_buffers = fresh.take_buffers();
    assert_eq!(again, fresh_buffers);
    let run = |kernel, memory| {
        let out = machine
            .run_on(kernel, memory, &RunOptions::default(), &mut NoTrace)
            .expect("runs");
        (out.cycles, out.buffers)
    };
    let (cycles, buffers) = run(&first, again);
    let (fresh_cycles, fresh_out) = run(&fresh, fresh_buffers);
    assert_eq!((cycles, &buffers), (fresh_cycles, &fresh_out));
    // out[i] = a[i] + 10 over the 300 threads that pass the guard.
    let want: Vec<u32> = floats(5)
        .iter()
        .map(|&x| (f32::from_bits(x) + 10.0).to_bits())
        .collect();
    assert_eq!(buffers[0].data, want);
    let short = first
        .buffers_for(&launch(vec![0; 299]))
        .expect_err("299 elements for 300");
    let fresh_short = machine
        .load(&program, &launch(vec![0; 299]))
        .expect_err("299 elements for 300");
    assert_eq!(short.render(&program, false), fresh_short.render(&program, false));
}

/// PTX `text` (one kernel) lowered, its pointer parameters bound to `buffers` (as `sim run --buffer`).
fn ptx_program(text: &str, buffers: &[&str]) -> warpsim_isa::Program {
    let args = warpsim::ptx::Arguments {
        entry: None,
        buffers: buffers.iter().map(ToString::to_string).collect(),
        sets: Vec::new(),
        syntax: warpsim::ptx::Syntax::Flags,
    };
    warpsim::ptx::load_text("test.ptx", text, &args, &[], false).unwrap_or_else(|e| panic!("{e}"))
}

/// PTX `text` (one kernel) instantiated for one warp, its pointer parameters bound to `buffers` (as `sim run
/// --buffer`).
fn ptx_kernel(text: &str, buffers: &[&str]) -> warpsim::Kernel {
    use warpsim::{Config, Dim3, Launch};
    let program = ptx_program(text, buffers);
    let launch = Launch {
        grid: Some(Dim3::new(1, 1, 1)),
        block: Some(Dim3::new(32, 1, 1)),
        ..Launch::default()
    };
    warpsim::instantiate(&program, &Config::hopper(), &launch).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Run PTX `text` (one kernel) on one warp, its pointer parameters bound to `buffers` (as `sim run --buffer`).
fn run_ptx(text: &str, buffers: &[&str]) -> warpsim::RunOutput {
    let kernel = ptx_kernel(text, buffers);
    warpsim::run(
        &kernel,
        &warpsim::Config::hopper(),
        &warpsim::RunOptions::default(),
        &mut warpsim::NoTrace,
    )
    .unwrap_or_else(|f| panic!("{}", f.message()))
}

/// PTX's 32-bit load into a 64-bit register (`ld.global.u32 %rd, …`, nvcc's unsigned loads widened for 64-bit
/// sums) zero-extends and `ld.global.s32 %rd` sign-extends, whatever the register held; and loads of the
/// zero-extending kind in a row stay in flight together, as SASS's `LDG`s into one register each do: four
/// take about as long as one, where a conversion after each load (the PTX written that way) waits for each.
#[test]
fn a_32_bit_load_into_a_64_bit_register_is_extended_and_loads_in_a_row_overlap() {
    let kernel = |body: &str| {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u64 in)\n{{\n\
             .reg .b32 %r<8>;\n.reg .b64 %rd<16>;\n\
             ld.param.u64 %rd10, [out];\n ld.param.u64 %rd11, [in];\n\
             cvta.to.global.u64 %rd10, %rd10;\n cvta.to.global.u64 %rd11, %rd11;\n\
             mov.u32 %r0, %tid.x;\n mul.wide.u32 %rd12, %r0, 4;\n add.s64 %rd11, %rd11, %rd12;\n\
             mul.wide.u32 %rd12, %r0, 8;\n add.s64 %rd10, %rd10, %rd12;\n\
             mov.u64 %rd1, -1;\n mov.u64 %rd2, -1;\n mov.u64 %rd3, -1;\n mov.u64 %rd4, -1;\n\
             {body}\n\
             add.s64 %rd5, %rd1, %rd2;\n add.s64 %rd5, %rd5, %rd3;\n add.s64 %rd5, %rd5, %rd4;\n\
             st.global.u64 [%rd10], %rd5;\n ret;\n}}\n"
        )
    };
    // Thread t's k-th load reads in[32k + t] = 32k + t − 64 (a line of its own for each k): negative for the
    // first 64 words (as u32: near 2^32).
    let buffers = ["out=u64[32]", "in=s32[128]=i-64"];
    let word = |i: i64| i - 64;
    let unsigned = run_ptx(
        &kernel(
            "ld.global.u32 %rd1, [%rd11];\n ld.global.u32 %rd2, [%rd11+128];\n \
             ld.global.u32 %rd3, [%rd11+256];\n ld.global.u32 %rd4, [%rd11+384];",
        ),
        &buffers,
    );
    let signed = run_ptx(
        &kernel(
            "ld.global.s32 %rd1, [%rd11];\n ld.global.s32 %rd2, [%rd11+128];\n \
             ld.global.s32 %rd3, [%rd11+256];\n ld.global.s32 %rd4, [%rd11+384];",
        ),
        &buffers,
    );
    let converted = run_ptx(
        &kernel(
            "ld.global.u32 %r1, [%rd11];\n cvt.u64.u32 %rd1, %r1;\n ld.global.u32 %r2, [%rd11+128];\n \
             cvt.u64.u32 %rd2, %r2;\n ld.global.u32 %r3, [%rd11+256];\n cvt.u64.u32 %rd3, %r3;\n \
             ld.global.u32 %r4, [%rd11+384];\n cvt.u64.u32 %rd4, %r4;",
        ),
        &buffers,
    );
    let u64s = |out: &warpsim::RunOutput| -> Vec<u64> {
        let words = &out.buffers[0].data;
        words
            .chunks(2)
            .map(|w| u64::from(w[0]) | u64::from(w[1]) << 32)
            .collect()
    };
    // Each word's 32 bits, zero-extended; the signed sum's 64 bits.
    let bits = |v: i64| u64::try_from(v & 0xffff_ffff).expect("32 bits");
    let want_unsigned: Vec<u64> = (0..32).map(|t| (0..4).map(|k| bits(word(32 * k + t))).sum()).collect();
    let want_signed: Vec<u64> = (0..32)
        .map(|t| (0..4).map(|k| word(32 * k + t)).sum::<i64>().cast_unsigned())
        .collect();
    assert_eq!(u64s(&unsigned), want_unsigned);
    assert_eq!(u64s(&converted), want_unsigned);
    assert_eq!(u64s(&signed), want_signed);
    // The loads in a row share one round trip; converting after each load waits for each: three more.
    let latency = u64::from(warpsim::Config::hopper().timing.memory.l1_miss_latency);
    assert!(
        unsigned.cycles + 3 * latency / 2 < converted.cycles,
        "in a row {} cycles, converted one by one {} (L2 hit {latency})",
        unsigned.cycles,
        converted.cycles
    );
}

/// ptxas unrolls a PTX loop of loads (their passes' loads issued together, `timing.runtime_unroll`) unless a
/// `.pragma "nounroll"` stands in it, as nvcc writes in the remainder loops of its own unrolling.
#[test]
fn a_nounroll_pragma_keeps_a_ptx_loop_one_pass_at_a_time() {
    use warpsim::kernel::sched::UNROLLED;
    let kernel = |pragma: &str| {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u64 in)\n{{\n\
             .reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<16>;\n\
             ld.param.u64 %rd10, [out];\n ld.param.u64 %rd11, [in];\n\
             cvta.to.global.u64 %rd10, %rd10;\n cvta.to.global.u64 %rd11, %rd11;\n\
             mov.u32 %r0, %tid.x;\n mov.u32 %r1, 0;\n mov.u32 %r2, 0;\n\
             $L_loop:\n {pragma}\n mul.wide.u32 %rd12, %r0, 4;\n add.s64 %rd13, %rd11, %rd12;\n\
             ld.global.u32 %r3, [%rd13];\n add.s32 %r1, %r1, %r3;\n add.s32 %r0, %r0, 32;\n\
             setp.lt.u32 %p1, %r0, 512;\n @%p1 bra $L_loop;\n\
             mov.u32 %r0, %tid.x;\n mul.wide.u32 %rd12, %r0, 4;\n add.s64 %rd10, %rd10, %rd12;\n\
             st.global.u32 [%rd10], %r1;\n ret;\n}}\n"
        )
    };
    let buffers = ["out=u32[32]", "in=u32[512]=i"];
    let flags = |text: &str| {
        let k = ptx_kernel(text, &buffers);
        k.code.iter().filter(|i| i.sched & UNROLLED != 0).count()
    };
    let (unrolled, kept) = (kernel(""), kernel(".pragma \"nounroll\";"));
    assert_eq!((flags(&unrolled), flags(&kept)), (1, 0));
    // The same sums either way; 16 passes take four round trips unrolled, sixteen kept.
    let (a, b) = (run_ptx(&unrolled, &buffers), run_ptx(&kept, &buffers));
    let want: Vec<u32> = (0..32).map(|t| (0..16).map(|k| 32 * k + t).sum()).collect();
    assert_eq!((&a.buffers[0].data, &b.buffers[0].data), (&want, &want));
    let latency = u64::from(warpsim::Config::hopper().timing.memory.l1_miss_latency);
    assert!(
        a.cycles + 10 * latency < b.cycles,
        "unrolled {} cycles, kept {}",
        a.cycles,
        b.cycles
    );
}

/// PTX's directed roundings (`.rz`, `.rm`, `.rp` of `add`, `sub`, `mul`, `div`, `fma`, `sqrt`, `rcp`, as CUDA's
/// `__fadd_rz` … `__drcp_ru` and nvcc's `expf`, `log1pf`, `roundf` emit them) and `copysign` give the exact
/// result's neighbour in the rounding's direction, bit for bit; the values are worked out by hand below (the GPU's
/// own, on thousands of operands each, are `programs/ptx/gpu/w40_directed_rounding.*.gpu.json`).
#[test]
fn directed_roundings_and_copysign_give_the_exact_results_neighbour() {
    use std::fmt::Write as _;
    let body = [
        // 1 + 2^-30: 1 towards zero, the next float up towards +inf.
        "add.rz.f32 %f3, %f1, %f2;",
        "add.rp.f32 %f3, %f1, %f2;",
        // 1 - 1 is -0 rounded towards -inf, +0 otherwise.
        "sub.rm.f32 %f3, %f1, %f1;",
        "sub.rz.f32 %f3, %f1, %f1;",
        // 1/3: 0x3eaaaaab to nearest, which is above; towards zero one below.
        "div.rz.f32 %f3, %f1, %f4;",
        "div.rp.f32 %f3, %f1, %f4;",
        // The largest float doubled: the largest towards zero, infinity upwards.
        "mul.rz.f32 %f3, %f5, %f6;",
        "mul.rp.f32 %f3, %f5, %f6;",
        // sqrt(2) = 1.41421356…: 0x3fb504f3 is below it.
        "sqrt.rm.f32 %f3, %f6;",
        "sqrt.rp.f32 %f3, %f6;",
        // 3 * (1/3 rounded down) - 1 is negative; rounded towards zero and up it is the same tiny value.
        "fma.rm.f32 %f3, %f4, %f7, %f8;",
        "rcp.rz.f32 %f3, %f4;",
        // b with a's sign.
        "copysign.f32 %f3, %f8, %f6;",
    ];
    let mut text = String::from(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u64 out64)\n{\n\
         .reg .f32 %f<10>;\n.reg .f64 %fd<8>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n\
         ld.param.u64 %rd2, [out64];\n cvta.to.global.u64 %rd2, %rd2;\n\
         mov.f32 %f1, 0f3F800000;\n mov.f32 %f2, 0f30800000;\n mov.f32 %f4, 0f40400000;\n\
         mov.f32 %f5, 0f7F7FFFFF;\n mov.f32 %f6, 0f40000000;\n mov.f32 %f7, 0f3EAAAAAA;\n mov.f32 %f8, 0fBF800000;\n",
    );
    for (k, line) in body.iter().enumerate() {
        let _ = write!(text, " {line}\n st.global.f32 [%rd1+{}], %f3;\n", 4 * k);
    }
    let body64 = [
        "sqrt.rz.f64 %fd3, %fd1;",
        "sqrt.rp.f64 %fd3, %fd1;",
        "rcp.rz.f64 %fd3, %fd2;",
        "rcp.rp.f64 %fd3, %fd2;",
        "add.rm.f64 %fd3, %fd1, %fd4;",
        "copysign.f64 %fd3, %fd4, %fd1;",
    ];
    text +=
        " mov.f64 %fd1, 0d4000000000000000;\n mov.f64 %fd2, 0d4008000000000000;\n mov.f64 %fd4, 0dC000000000000000;\n";
    for (k, line) in body64.iter().enumerate() {
        let _ = write!(text, " {line}\n st.global.f64 [%rd2+{}], %fd3;\n", 8 * k);
    }
    text += " ret;\n}\n";
    let out = run_ptx(&text, &["out=u32[13]", "out64=u64[6]"]);
    assert_eq!(
        out.buffers[0].data,
        [
            0x3f80_0000,
            0x3f80_0001,
            0x8000_0000,
            0x0000_0000,
            0x3eaa_aaaa,
            0x3eaa_aaab,
            0x7f7f_ffff,
            0x7f80_0000,
            0x3fb5_04f3,
            0x3fb5_04f4,
            // 3 * 0x3eaaaaaa - 1 = -2^-24 exactly: no rounding at all.
            0xb380_0000,
            0x3eaa_aaaa,
            0xc000_0000,
        ]
    );
    // f64 words as two u32s each, low first.
    let words: Vec<u64> = out.buffers[1]
        .data
        .chunks(2)
        .map(|w| u64::from(w[0]) | u64::from(w[1]) << 32)
        .collect();
    assert_eq!(
        words,
        [
            0x3ff6_a09e_667f_3bcc,
            0x3ff6_a09e_667f_3bcd,
            0x3fd5_5555_5555_5555,
            0x3fd5_5555_5555_5556,
            0x8000_0000_0000_0000,
            0xc000_0000_0000_0000,
        ]
    );
}

/// PTX's carry chain (`add.cc`, `addc`, `sub.cc`, `subc`, `mad.lo.cc`, `madc.hi`, as nvcc's f64 `sin` and `cos`
/// write their extended-precision products): the flag carries from one instruction to the next, a borrow for
/// `sub`; values worked out by hand.
#[test]
fn the_carry_chain_carries_from_one_instruction_to_the_next() {
    use std::fmt::Write as _;
    let body = [
        // 0xffffffff + 1 = 0, carry 1; then 0 + 0 + 1.
        "add.cc.u32 %r3, %r1, 1;",
        "addc.u32 %r3, 0, 0;",
        // 0 - 1 = 0xffffffff, borrow 1; then 5 - (2 + 1).
        "sub.cc.u32 %r3, 0, 1;",
        "subc.u32 %r3, 5, 2;",
        // A carry in and out: 0xffffffff + 0 + 1 = 0, carry 1; 7 + 1 + 1.
        "add.cc.u32 %r3, %r1, 1;",
        "addc.cc.u32 %r3, %r1, 0;",
        "addc.u32 %r3, 7, 1;",
        // 0xffffffff^2 = 0xfffffffe_00000001: its low half + 5, no carry; its high half + 1 + 0.
        "mad.lo.cc.u32 %r3, %r1, %r1, 5;",
        "madc.hi.u32 %r3, %r1, %r1, 1;",
        // The low half + 0xffffffff carries: 1 + 0xffffffff = 0, carry 1; the high half + 0 + 1.
        "mad.lo.cc.u32 %r3, %r1, %r1, %r1;",
        "madc.hi.u32 %r3, %r1, %r1, 0;",
        // The signed high half of -1 * -1 (= 1) is 0: 0 + 0xffffffff, no carry; then 3 + 4 + 0.
        "mad.hi.cc.s32 %r3, %r1, %r1, %r1;",
        "addc.u32 %r3, 3, 4;",
    ];
    let mut text = String::from(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u64 out64)\n{\n\
         .reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n\
         ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n\
         ld.param.u64 %rd2, [out64];\n cvta.to.global.u64 %rd2, %rd2;\n\
         mov.u32 %r1, -1;\n",
    );
    for (k, line) in body.iter().enumerate() {
        let _ = write!(text, " {line}\n st.global.u32 [%rd1+{}], %r3;\n", 4 * k);
    }
    // 64 bits: 0xffff_ffff_ffff_ffff + 2 = 1, carry 1; then 0 + 0 + 1.
    text += " mov.u64 %rd3, -1;\n add.cc.u64 %rd4, %rd3, 2;\n st.global.u64 [%rd2], %rd4;\n\
             addc.u64 %rd4, 0, 0;\n st.global.u64 [%rd2+8], %rd4;\n ret;\n}\n";
    let out = run_ptx(&text, &["out=u32[13]", "out64=u64[2]"]);
    assert_eq!(
        out.buffers[0].data,
        [
            0,
            1,
            0xffff_ffff,
            2,
            0,
            0,
            9,
            6,
            0xffff_ffff,
            0,
            0xffff_ffff,
            0xffff_ffff,
            7
        ]
    );
    assert_eq!(out.buffers[1].data, [1, 0, 1, 0]);
}

/// PTX `neg.f64` as the GPU computes it (ptxas makes it a `DADD` of its negation, whose NaN propagation ignores
/// the negation): every number negated, zeros included, but a NaN kept with its sign.
#[test]
fn ptx_neg_f64_negates_numbers_and_keeps_a_nans_sign() {
    use std::fmt::Write as _;
    let inputs: [u64; 6] = [
        0x3ff8_0000_0000_0000,
        0x0000_0000_0000_0000,
        0x8000_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x0000_0000_0000_0001,
        0xfff8_0000_0000_0000,
    ];
    let mut text = String::from(
        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\
         .reg .f64 %fd<4>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n",
    );
    for (k, x) in inputs.iter().enumerate() {
        let _ = write!(
            text,
            " mov.f64 %fd1, 0d{x:016X};\n neg.f64 %fd2, %fd1;\n st.global.f64 [%rd1+{}], %fd2;\n",
            8 * k
        );
    }
    text += " ret;\n}\n";
    let out = run_ptx(&text, &["out=u64[6]"]);
    let words: Vec<u64> = out.buffers[0]
        .data
        .chunks(2)
        .map(|w| u64::from(w[0]) | u64::from(w[1]) << 32)
        .collect();
    assert_eq!(
        words,
        [
            0xbff8_0000_0000_0000,
            0x8000_0000_0000_0000,
            0x0000_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            0x8000_0000_0000_0001,
            0xfff8_0000_0000_0000,
        ]
    );
}

/// A kernel of straight-line f32 instructions on registers `%f1`..`%f9` set from `inits` (bits), each line's `%f0`
/// stored to `out[k]`; `target` is `sm_90` or `sm_90, debug`.
fn f32_lines(target: &str, inits: &[u32], lines: &[&str]) -> Vec<u32> {
    use std::fmt::Write as _;
    let mut text = format!(
        ".version 8.0\n.target {target}\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n\
         .reg .f32 %f<20>;\n.reg .f64 %fd<4>;\n.reg .pred %p<4>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    );
    for (k, v) in inits.iter().enumerate() {
        let _ = writeln!(text, " mov.b32 %f{}, {v};", k + 1);
    }
    for (k, line) in lines.iter().enumerate() {
        let _ = write!(text, " {line}\n st.global.f32 [%rd1+{}], %f0;\n", 4 * k);
    }
    text += " ret;\n}\n";
    run_ptx(&text, &[&format!("out=u32[{}]", lines.len())]).buffers[0]
        .data
        .clone()
}

/// PTX's `.ftz` forms (`-use_fast_math`) flush subnormal operands and results as the H200 does: the result rounded
/// to 24 bits as if the exponent were unbounded, then flushed below 2^-126 (`crosscheck/edges/edges_ftz.s` checks
/// 23,552 results on the GPU; these are worked out by hand).
#[test]
fn ftz_forms_flush_subnormals_as_the_gpu_does() {
    let inits = [
        0x0d7f_ffff, // %f1 = 2^-100·(1 - 2^-24)
        0x3280_0000, // %f2 = 2^-26
        0x0d7f_fffe, // %f3 = 2^-100·(1 - 2^-23)
        0x3280_0001, // %f4 = 2^-26·(1 + 2^-23)
        0x00c0_0000, // %f5 = 1.5·2^-126
        0x0080_0000, // %f6 = 2^-126
        0xffc0_0001, // %f7 = a NaN with a payload
        0x8000_0005, // %f8 = a negative subnormal
        0x0000_0000, // %f9 = +0
    ];
    let out = f32_lines(
        "sm_90",
        &inits,
        &[
            // 2^-126 - 2^-150: IEEE's subnormal rounding ties to 2^-126; at 24 bits it is exact, and flushed.
            "mul.ftz.f32 %f0, %f1, %f2;",
            "mul.f32 %f0, %f1, %f2;",
            // 2^-126·(1 - 2^-46) rounds to 2^-126 at 24 bits: kept.
            "mul.ftz.f32 %f0, %f3, %f4;",
            // The quotient 2^-126 - 2^-150, as the product.
            "div.rn.ftz.f32 %f0, %f1, 0f4C800000;",
            // 1.5·2^-126 - 2^-126 = 2^-127, and its negative.
            "sub.ftz.f32 %f0, %f5, %f6;",
            "sub.ftz.f32 %f0, %f6, %f5;",
            "sub.f32 %f0, %f5, %f6;",
            // abs and neg with .ftz are FADD.FTZ: a NaN becomes the canonical NaN; the plain forms flip bits.
            "abs.ftz.f32 %f0, %f7;",
            "abs.f32 %f0, %f7;",
            "neg.ftz.f32 %f0, %f8;",
            // min of -subnormal (a -0) and +0 is -0; the flush alone keeps the sign.
            "min.ftz.f32 %f0, %f8, %f9;",
            "cvt.ftz.f32.f32 %f0, %f8;",
            // A subnormal equals 0 with .ftz, not without.
            "setp.eq.ftz.f32 %p1, %f8, %f9; selp.f32 %f0, 0f3F800000, 0f00000000, %p1;",
            "setp.eq.f32 %p1, %f8, %f9; selp.f32 %f0, 0f3F800000, 0f00000000, %p1;",
            // f64 to f32: 2^-126 - 2^-151 is at ptxas's threshold (kept: rounds to 2^-126); just below it, flushed.
            "mov.f64 %fd1, 0d380FFFFFF0000000; cvt.rn.ftz.f32.f64 %f0, %fd1;",
            "mov.f64 %fd1, 0d380FFFFFEFFFFFFF; cvt.rn.ftz.f32.f64 %f0, %fd1;",
            "mov.f64 %fd1, 0d380FFFFFEFFFFFFF; cvt.rn.f32.f64 %f0, %fd1;",
            // Towards zero: below 2^-126 is flushed, whatever the distance.
            "mov.f64 %fd1, 0dB80FFFFFFFFFFFFF; cvt.rz.ftz.f32.f64 %f0, %fd1;",
            // A subnormal f32 to f64 is a zero.
            "cvt.ftz.f64.f32 %fd2, %f8; cvt.rn.f32.f64 %f0, %fd2;",
        ],
    );
    assert_eq!(
        out,
        [
            0x0000_0000,
            0x0080_0000,
            0x0080_0000,
            0x0000_0000,
            0x0000_0000,
            0x8000_0000,
            0x0040_0000,
            0x7fff_ffff,
            0x7fc0_0001,
            0x0000_0000,
            0x8000_0000,
            0x8000_0000,
            0x3f80_0000,
            0x0000_0000,
            0x0080_0000,
            0x0000_0000,
            0x0080_0000,
            0x8000_0000,
            0x8000_0000,
        ]
    );
}

/// ptxas fuses a `mul` (or a `div.approx`) and the `add`/`sub` that alone reads it into one FFMA at -O3 (docs/ptx.md,
/// "Contraction"): (1 + 2^-12)^2 - 1 is 2^-11 + 2^-24 fused, 2^-11 after the product's rounding (a tie to even). A
/// product also stored, one read across a label, and a debug build stay apart.
#[test]
fn ptxas_contraction_of_a_product_and_a_sum_is_modelled() {
    let inits = [0x3f80_0800, 0x3f80_0000, 0x4040_0000]; // 1 + 2^-12, 1, 3
    // (Each product its own register: nvcc's PTX writes each register once, and a register written twice is not
    // fused.)
    let lines = [
        "mul.f32 %f11, %f1, %f1; sub.f32 %f0, %f11, %f2;",
        // c - a*b: fma(-a, b, c).
        "mul.f32 %f12, %f1, %f1; sub.f32 %f0, %f2, %f12;",
        "mul.f32 %f13, %f1, %f1; st.global.f32 [%rd1+20], %f13; sub.f32 %f0, %f13, %f2;",
        "mul.f32 %f14, %f1, %f1; bra L1; L1: sub.f32 %f0, %f14, %f2;",
        "mul.rn.f32 %f15, %f1, %f1; sub.f32 %f0, %f15, %f2;",
        // A quotient read twice by one addition.
        "div.approx.f32 %f16, %f1, %f3; add.f32 %f0, %f16, %f16;",
    ];
    let fused = f32_lines("sm_90", &inits, &lines);
    let debug = f32_lines("sm_90, debug", &inits, &lines);
    assert_eq!(
        fused[..5],
        [0x3a00_0400, 0xba00_0400, 0x3a00_0000, 0x3a00_0000, 0x3a00_0000]
    );
    assert_eq!(
        debug[..5],
        [0x3a00_0000, 0xba00_0000, 0x3a00_0000, 0x3a00_0000, 0x3a00_0000]
    );
    assert_eq!(fused[5], debug[5]);
}

/// `%envreg1` and `%envreg2` (the grid's workspace, which CUDA's `cg::this_grid()` reads in a debug build) read 0,
/// as an H200 gives them in a launch that is not cooperative; the other `%envreg`s hold the driver's own values and
/// are refused by name.
#[test]
fn the_grid_workspace_registers_read_zero_and_the_other_envregs_are_refused() {
    let kernel = |reg: &str| {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n\
             .reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n\
             mov.u32 %r1, 7;\n mov.u32 %r1, {reg};\n st.global.u32 [%rd1], %r1;\n ret;\n}}\n"
        )
    };
    for reg in ["%envreg1", "%envreg2"] {
        assert_eq!(run_ptx(&kernel(reg), &["out=u32[1]"]).buffers[0].data, [0], "{reg}");
    }
    let args = warpsim::ptx::Arguments {
        entry: None,
        buffers: vec!["out=u32[1]".into()],
        sets: Vec::new(),
        syntax: warpsim::ptx::Syntax::Flags,
    };
    let e = warpsim::ptx::load_text("test.ptx", &kernel("%envreg0"), &args, &[], false).unwrap_err();
    assert!(e.contains("`%envreg0` is neither a declared register"), "{e}");
}

/// 8- and 16-bit loads and stores as PTX defines them, one access each: `ld.s8` into a 16-bit register keeps the
/// sign in 16 bits, `ld.u8`/`ld.s16` into 32-bit registers extend by their type, `st.u8` of a 32-bit register
/// and `st.u16` of a 64-bit one store the low bytes (the rest of each word kept), `.v4.u8`/`.v2.u16` vectors,
/// and `mov.b32` packing and unpacking 16-bit halves; and the 16-bit mask of the `ld.s8` waits where its register
/// is next used, not right after the load (the load after it issues first).
#[test]
fn eight_and_sixteen_bit_loads_and_stores_move_their_bytes() {
    let text = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .visible .entry k(.param .u64 out, .param .u64 in)\n{\n\
        .reg .b16 %rs<8>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<16>;\n\
        ld.param.u64 %rd10, [out];\n ld.param.u64 %rd11, [in];\n\
        mov.u32 %r0, %tid.x;\n cvt.u64.u32 %rd1, %r0;\n add.s64 %rd2, %rd11, %rd1;\n\
        ld.global.s8 %rs1, [%rd2];\n ld.global.u8 %rs2, [%rd2+32];\n\
        cvt.s32.s16 %r1, %rs1;\n cvt.u32.u16 %r2, %rs2;\n\
        mul.wide.u32 %rd3, %r0, 2;\n add.s64 %rd4, %rd11, %rd3;\n ld.global.s16 %r3, [%rd4];\n\
        mov.b32 %r4, {%rs1, %rs2};\n mov.b32 {%rs3, %rs4}, %r3;\n\
        mul.wide.u32 %rd5, %r0, 32;\n add.s64 %rd6, %rd10, %rd5;\n\
        st.global.u32 [%rd6], %r1;\n st.global.u32 [%rd6+4], %r2;\n st.global.u32 [%rd6+8], %r3;\n\
        st.global.u32 [%rd6+12], %r4;\n\
        st.global.v4.u8 [%rd6+16], {%rs1, %rs2, %rs3, %rs4};\n\
        st.global.v2.u16 [%rd6+20], {%rs4, %rs3};\n\
        mov.u32 %r5, 0x11223344;\n st.global.u32 [%rd6+24], %r5;\n st.global.u32 [%rd6+28], %r5;\n\
        st.global.u8 [%rd6+25], %r3;\n cvt.s64.s32 %rd7, %r3;\n st.global.u16 [%rd6+30], %rd7;\n\
        ret;\n}\n";
    // in: bytes 0..127 of i * 37 + 200 (mod 256); the halves are pairs of them, little-endian.
    let buffers = [
        "out=u32[256]",
        "in=u32[32]=(((4*i)*37+200)%256)+(((4*i+1)*37+200)%256)*256+(((4*i+2)*37+200)%256)*65536+(((4*i+3)*37+200)%256)*16777216",
    ];
    let out = run_ptx(text, &buffers);
    let byte = |k: u32| (k * 37 + 200) % 256;
    let words = &out.buffers[0].data;
    for t in 0..32u32 {
        let s8 = u8::try_from(byte(t)).expect("a byte").cast_signed();
        let u8v = byte(t + 32);
        let s16 = u16::try_from(byte(2 * t) | byte(2 * t + 1) << 8).expect("16 bits");
        let rs1 = u32::from(i16::from(s8).cast_unsigned());
        let r3 = i32::from(s16.cast_signed()).cast_unsigned();
        let w = &words[8 * t as usize..8 * t as usize + 8];
        assert_eq!(w[0], i32::from(s8).cast_unsigned(), "thread {t}: ld.s8");
        assert_eq!(w[1], u8v, "thread {t}: ld.u8");
        assert_eq!(w[2], r3, "thread {t}: ld.s16");
        assert_eq!(w[3], rs1 | u8v << 16, "thread {t}: mov.b32 {{%rs1, %rs2}}");
        let (rs3, rs4) = (r3 & 0xffff, r3 >> 16);
        let low = |v: u32| v & 0xff;
        assert_eq!(
            w[4],
            low(rs1) | low(u8v) << 8 | low(rs3) << 16 | low(rs4) << 24,
            "thread {t}: st.v4.u8"
        );
        assert_eq!(w[5], rs4 | rs3 << 16, "thread {t}: st.v2.u16");
        assert_eq!(
            w[6],
            0x1122_3344 & !0xff00 | low(r3) << 8,
            "thread {t}: st.u8 of a 32-bit register"
        );
        assert_eq!(
            w[7],
            0x3344 | (r3 & 0xffff) << 16,
            "thread {t}: st.u16 of a 64-bit register"
        );
    }
    // The `ld.s8`'s mask (`and.b32 %rs1, %rs1, 65535`) comes after the next load.
    let printed = warpsim_isa::print(&ptx_program(text, &buffers));
    let texts: Vec<&str> = printed.lines().collect();
    let at = |what: &str| {
        texts
            .iter()
            .position(|t| t.contains(what))
            .unwrap_or_else(|| panic!("{what}: {texts:?}"))
    };
    assert!(at("ld.global.s8") < at("ld.global.u8"), "{texts:?}");
    assert!(at("ld.global.u8") < at("and.b32"), "{texts:?}");
}
