//! The PTX parser (`warpsim_isa::ptx`) on the corpus of `programs/ptx` (nvcc 13 and Numba output), on exact
//! structure of small kernels, on every literal and operand form, and on malformed input: errors with file, line
//! and column, never a panic.

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use warpsim_isa::ptx::{
    self, Address, FloatLit, Function, FunctionKind, InitValue, Initializer, Instruction, Linkage, Module, Operand,
    OperandKind, ScalarType, StateSpace, Statement,
};
use warpsim_isa::{AssembleError, SourceMap};
use warpsim_tests::fuzzing;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/ptx")
}

/// Every `.ptx` file of the corpus, as (path relative to `programs/ptx`, text).
fn corpus() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["cuda", "numba"] {
        let mut files: Vec<_> = std::fs::read_dir(corpus_dir().join(dir))
            .expect("programs/ptx")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
            .collect();
        files.sort();
        for f in files {
            let name = format!("{dir}/{}", f.file_name().expect("name").to_string_lossy());
            out.push((name, std::fs::read_to_string(&f).expect("read")));
        }
    }
    out
}

fn parse_ok(name: &str, text: &str) -> (Module, SourceMap) {
    ptx::parse(name, text).unwrap_or_else(|e| panic!("{name}:\n{}", e.render(false)))
}

fn corpus_file(name: &str) -> (Module, SourceMap) {
    let text = std::fs::read_to_string(corpus_dir().join(name)).expect("corpus file");
    parse_ok(name, &text)
}

fn entry<'m>(m: &'m Module, name: &str) -> &'m Function {
    m.function(name).unwrap_or_else(|| panic!("no function {name}"))
}

fn name(op: &Operand) -> &str {
    match &op.kind {
        OperandKind::Name(n) => &n.name,
        other => panic!("not a name: {other:?}"),
    }
}

/// The operands of an instruction written back as text (a compact view for exact comparisons).
fn show(op: &Operand) -> String {
    match &op.kind {
        OperandKind::Name(n) => n.name.clone(),
        OperandKind::Offset(n, o) => format!("{}{o:+}", n.name),
        OperandKind::Pair(a, b) => format!("{}|{}", a.name, b.name),
        OperandKind::Not(n) => format!("!{}", n.name),
        OperandKind::Int(v) => v.to_string(),
        OperandKind::Float(FloatLit::F32(b)) => format!("0f{b:08X}"),
        OperandKind::Float(FloatLit::F64(b)) => format!("0d{b:016X}"),
        OperandKind::Float(FloatLit::Decimal(v)) => format!("{v:?}"),
        OperandKind::Vector(v) => format!("{{{}}}", v.iter().map(show).collect::<Vec<_>>().join(", ")),
        OperandKind::List(v) => format!("({})", v.iter().map(show).collect::<Vec<_>>().join(", ")),
        OperandKind::Address(Address { base, offset }) => match base {
            Some(b) if *offset == 0 => format!("[{}]", b.name),
            Some(b) => format!("[{}{offset:+}]", b.name),
            None => format!("[{offset}]"),
        },
    }
}

fn show_instruction(i: &Instruction) -> String {
    let guard = i.guard.as_ref().map_or(String::new(), |g| {
        format!("@{}{} ", if g.negated { "!" } else { "" }, g.predicate.name)
    });
    let ops: Vec<String> = i.operands.iter().map(show).collect();
    let opcode = std::iter::once(i.opcode.as_str())
        .chain(i.qualifiers.iter().map(String::as_str))
        .collect::<Vec<_>>();
    format!("{guard}{} {}", opcode.join("."), ops.join(", "))
        .trim_end()
        .to_string()
}

#[test]
fn every_corpus_file_parses() {
    let files = corpus();
    // 61 CUDA files at -O3 and -G, 41 Numba kernels.
    assert_eq!(files.len(), 61 * 2 + 41);
    let mut instructions = 0;
    for (name, text) in &files {
        let (m, _) = parse_ok(name, text);
        let v = m.version.unwrap_or_else(|| panic!("{name}: no .version"));
        assert_eq!((v.major, v.minor), (9, 5), "{name}");
        let target: Vec<&str> = m.target.iter().map(|t| t.name.as_str()).collect();
        let want: &[&str] = if name.ends_with(".G.ptx") {
            &["sm_90", "debug"]
        } else {
            &["sm_90"]
        };
        assert_eq!(target, want, "{name}");
        assert_eq!(m.address_size.map(|a| a.0), Some(64), "{name}");
        // As many kernels as the text has `.entry` lines, each with a body.
        let written = text
            .lines()
            .filter(|l| l.split_whitespace().any(|w| w == ".entry"))
            .count();
        assert_eq!(m.entries().count(), written, "{name}");
        assert!(written >= 1, "{name}");
        // Every `.loc` names a file that a `.file` directive declares (nvcc puts them after the functions).
        for f in m.functions() {
            let Some(body) = &f.body else { continue };
            for i in body.instructions() {
                instructions += 1;
                if let Some(loc) = &i.loc {
                    assert!(
                        m.file_path(loc.file).is_some(),
                        "{name}: .loc {} has no .file",
                        loc.file
                    );
                }
            }
        }
        // -G adds DWARF sections; -O3 and Numba have none but .debug_str (with -lineinfo, for inlined names).
        let sections: Vec<&str> = m.sections.iter().map(|s| s.name.name.as_str()).collect();
        if name.ends_with(".G.ptx") {
            assert!(sections.contains(&".debug_info"), "{name}: {sections:?}");
        } else {
            assert!(sections.iter().all(|s| *s == ".debug_str"), "{name}: {sections:?}");
        }
    }
    // The count of the research's inventory (programs/ptx/README.md; a separate, regex-based reader), file by
    // file: 4.1 k instructions at -O3, 9.2 k at -G, 3.3 k from Numba, 1,484 in the three kernels added
    // since (w35-w37, counted by the same reader), w38's 134 (-O3) and 149 (-G) and w39's 157 and 73 (lines that
    // start with an opcode, counted by grep), w40's 576 and 1,121 and w41's 322 and 501 (lines that start with an
    // opcode, optionally guarded, and end a statement with `;`, or begin a `call`), w42's 6,385 and w43's 371, and
    // w44's, w45's and Numba's w04's 2,082, w46's 904, w47's 1,082 (both builds, as this parser counts them).
    assert_eq!(instructions, 32_001);
}

#[test]
fn map_kernel_exact_structure() {
    let (m, sources) = corpus_file("cuda/p01_map.O3.ptx");
    assert_eq!(m.items.len(), 1);
    let k = entry(&m, "map_add10");
    assert_eq!(k.kind, FunctionKind::Entry);
    assert_eq!(k.linkage, Some(Linkage::Visible));
    assert!(k.returns.is_empty() && k.performance.is_empty());
    let params: Vec<(&str, ScalarType, StateSpace)> = k
        .params
        .iter()
        .map(|p| (p.name.name.as_str(), p.ty.scalar, p.space))
        .collect();
    assert_eq!(
        params,
        [
            ("map_add10_param_0", ScalarType::U64, StateSpace::Param),
            ("map_add10_param_1", ScalarType::U64, StateSpace::Param)
        ]
    );
    let body = k.body.as_ref().expect("body");
    let regs: Vec<(ScalarType, &str, Option<u32>)> = body
        .statements
        .iter()
        .filter_map(|s| match s {
            Statement::Reg(r) => Some((r.ty.scalar, r.names[0].name.name.as_str(), r.names[0].count)),
            _ => None,
        })
        .collect();
    assert_eq!(
        regs,
        [
            (ScalarType::F32, "%f", Some(3)),
            (ScalarType::B32, "%r", Some(2)),
            (ScalarType::B64, "%rd", Some(8))
        ]
    );
    let code: Vec<String> = body.instructions().iter().map(|i| show_instruction(i)).collect();
    assert_eq!(
        code,
        [
            "ld.param.u64 %rd1, [map_add10_param_0]",
            "ld.param.u64 %rd2, [map_add10_param_1]",
            "cvta.to.global.u64 %rd3, %rd1",
            "cvta.to.global.u64 %rd4, %rd2",
            "mov.u32 %r1, %tid.x",
            "mul.wide.s32 %rd5, %r1, 4",
            "add.s64 %rd6, %rd4, %rd5",
            "ld.global.f32 %f1, [%rd6]",
            "add.f32 %f2, %f1, 0f41200000",
            "add.s64 %rd7, %rd3, %rd5",
            "st.global.f32 [%rd7], %f2",
            "ret",
        ]
    );
    let instructions = body.instructions();
    let st = instructions[10];
    assert_eq!(st.opcode, "st");
    assert_eq!(st.qualifiers, ["global", "f32"]);
    assert_eq!(sources.location(st.span).to_string(), "cuda/p01_map.O3.ptx:38:2");
    assert_eq!(sources.snippet(st.span), "st.global.f32 \t[%rd7], %f2;");
    assert_eq!(sources.snippet(st.opcode_span), "st.global.f32");
    assert_eq!(sources.snippet(st.operands[0].span), "[%rd7]");
    // Its `.loc 1 5 5` is line 5 of the kernel's .cu file: `out[i] = a[i] + 10.0f;`.
    let loc = st.loc.as_ref().expect(".loc");
    assert_eq!((loc.file, loc.line, loc.column), (1, 5, 5));
    let path = m.file_path(loc.file).expect(".file 1");
    assert!(path.ends_with("programs/ptx/cuda/p01_map.cu"), "{path}");
    let cu = std::fs::read_to_string(
        corpus_dir()
            .join("cuda")
            .join(Path::new(path).file_name().expect("name")),
    )
    .expect("the .cu");
    assert_eq!(
        cu.lines().nth(loc.line as usize - 1).map(str::trim),
        Some("out[i] = a[i] + 10.0f;")
    );
    // `ret` is at `.loc 1 6 1`; the first loads at the function's `.loc 1 2 0`.
    assert_eq!(instructions[11].loc.as_ref().map(|l| l.line), Some(6));
    assert_eq!(instructions[0].loc.as_ref().map(|l| (l.line, l.column)), Some((2, 0)));
    assert_eq!(m.files.len(), 1);
    assert_eq!(
        sources.location(m.files[0].span).to_string(),
        "cuda/p01_map.O3.ptx:44:2"
    );
}

#[test]
fn calls_span_lines_and_declare_params_in_nested_blocks() {
    let (m, sources) = corpus_file("cuda/w13_noinline_call.O3.ptx");
    let callee = entry(&m, "_Z11clamp_indexiii");
    assert_eq!(callee.kind, FunctionKind::Func);
    // IPO removed the constant argument: two parameters under a three-argument mangled name.
    assert_eq!(callee.params.len(), 2);
    assert_eq!(callee.returns.len(), 1);
    assert_eq!(callee.returns[0].name.name, "func_retval0");
    let kernel = m.entries().next().expect("an entry");
    let body = kernel.body.as_ref().expect("body");
    let call_block = body
        .statements
        .iter()
        .find_map(|s| match s {
            Statement::Block(b) => Some(b),
            _ => None,
        })
        .expect("a call block");
    let decls: Vec<String> = call_block
        .statements
        .iter()
        .filter_map(|s| match s {
            Statement::Reg(r) => Some(format!(".reg {}", r.names[0].name.name)),
            Statement::Var(v) => Some(format!("{} {}", v.space.directive(), v.name.name)),
            _ => None,
        })
        .collect();
    assert_eq!(
        decls,
        [
            ".reg temp_param_reg",
            ".param param0",
            ".param param1",
            ".param retval0"
        ]
    );
    let call = call_block
        .instructions()
        .into_iter()
        .find(|i| i.opcode == "call")
        .expect("call");
    assert_eq!(call.qualifiers, ["uni"]);
    assert_eq!(
        show_instruction(call),
        "call.uni (retval0), _Z11clamp_indexiii, (param0, param1)"
    );
    let start = sources.location(call.span);
    let (end_line, _) = sources.file(call.span.file).line_col(call.span.end as usize);
    assert_eq!((start.line, end_line), (94, 99));
    assert_eq!(name(&call.operands[1]), "_Z11clamp_indexiii");
}

#[test]
fn inlined_locations_and_debug_strings() {
    let (m, _) = corpus_file("cuda/w01_warp_butterfly.O3.ptx");
    assert_eq!(m.debug_string("$L__info_string0"), Some(&b"_Z11warp_allmaxf"[..]));
    assert_eq!(m.debug_string("$L__info_string2"), Some(&b"_Z11warp_allsumf"[..]));
    assert!(
        m.debug_string("$L__info_string1")
            .is_some_and(|s| s.starts_with(b"_ZN52_INTERNAL_") && s.ends_with(b"__shfl_xor_syncEjfii"))
    );
    assert!(
        m.file_path(2)
            .is_some_and(|p| p.ends_with("include/sm_30_intrinsics.hpp"))
    );
    let k = entry(&m, "warp_butterfly");
    let shfl = k
        .body
        .as_ref()
        .expect("body")
        .instructions()
        .into_iter()
        .find(|i| i.opcode == "shfl")
        .expect("shfl");
    assert_eq!(
        show_instruction(shfl),
        "shfl.sync.bfly.b32 %r10|%p4, %r6, %r8, %r7, %r9"
    );
    // The last `.loc` before it: line 448 of the header, inlined into warp_allmax at line 5 of the .cu.
    let loc = shfl.loc.as_ref().expect("loc");
    assert_eq!((loc.file, loc.line, loc.column), (2, 448, 9));
    assert_eq!(loc.inlined_at, Some((1, 5, 9)));
    let (label, offset) = loc.function_name.as_ref().expect("function_name");
    assert_eq!((label.name.as_str(), *offset), ("$L__info_string1", 0));
}

#[test]
fn inline_asm_blocks_and_registers_without_percent() {
    let (m, _) = corpus_file("cuda/w33_half2_bf16.O3.ptx");
    let k = m.entries().next().expect("entry");
    let body = k.body.as_ref().expect("body");
    // `{.reg .f16 low;\n cvt.rn.f16.f32 low, %f1;\n mov.b32 %r6, {low,low};}`
    let block = body
        .statements
        .iter()
        .find_map(|s| match s {
            Statement::Block(b) if matches!(b.statements.first(), Some(Statement::Reg(r)) if r.names[0].name.name == "low") => Some(b),
            _ => None,
        })
        .expect("an inline-asm block declaring `low`");
    let Statement::Reg(reg) = &block.statements[0] else {
        unreachable!()
    };
    assert_eq!(reg.ty.scalar, ScalarType::F16);
    let code: Vec<String> = block.instructions().iter().map(|i| show_instruction(i)).collect();
    assert_eq!(code, ["cvt.rn.f16.f32 low, %f1", "mov.b32 %r6, {low, low}"]);
    // `{fma.rn.f16x2 %r7,%r8,%r9,%r6;\n}`: the brace glued to the instruction.
    assert!(
        body.instructions()
            .iter()
            .any(|i| show_instruction(i) == "fma.rn.f16x2 %r7, %r8, %r9, %r6")
    );

    let (g, _) = corpus_file("cuda/w22_coop_groups.G.ptx");
    let all: Vec<String> = g
        .functions()
        .filter_map(|f| f.body.as_ref())
        .flat_map(|b| b.instructions())
        .map(show_instruction)
        .collect();
    for want in [
        "mov.u32 start, %reserved_smem_offset_1",
        "cvt.u64.u32 extended, start",
        "cvta.shared.u64 %rd5, extended",
    ] {
        assert!(all.iter().any(|s| s == want), "{want}");
    }
}

#[test]
fn module_variables_and_launch_bounds() {
    let (m, _) = corpus_file("cuda/w23_atomics_misc.O3.ptx");
    let coeffs = m.variables().find(|v| v.name.name == "coeffs").expect("coeffs");
    assert_eq!(
        (coeffs.space, coeffs.align, coeffs.ty.scalar, coeffs.dims.as_slice()),
        (StateSpace::Const, Some(4), ScalarType::B8, &[Some(16)][..])
    );
    let Some(Initializer::List(bytes, _)) = &coeffs.init else {
        panic!("{:?}", coeffs.init)
    };
    let bytes: Vec<i128> = bytes
        .iter()
        .map(|b| match b {
            Initializer::Value(InitValue::Int(v), _) => *v,
            other => panic!("{other:?}"),
        })
        .collect();
    // 0.5f, 0.25f, 0.125f, 0.0625f as little-endian bytes.
    assert_eq!(bytes, [0, 0, 0, 63, 0, 0, 128, 62, 0, 0, 0, 62, 0, 0, 128, 61]);

    let (m, _) = corpus_file("cuda/w26_printf_assert.O3.ptx");
    let s = m.variables().find(|v| v.name.name == "$str$2").expect("$str$2");
    assert_eq!((s.space, s.dims.as_slice()), (StateSpace::Global, &[Some(52)][..]));
    let vprintf = entry(&m, "vprintf");
    assert_eq!(
        (vprintf.linkage, vprintf.body.is_none(), vprintf.params.len()),
        (Some(Linkage::Extern), true, 2)
    );

    let (m, _) = corpus_file("cuda/w34_launch_bounds.O3.ptx");
    let k = entry(&m, "saxpy_bounded");
    let perf: Vec<(&str, &[u64])> = k
        .performance
        .iter()
        .map(|p| (p.name.as_str(), p.values.as_slice()))
        .collect();
    assert_eq!(perf, [("maxntid", &[256, 1, 1][..]), ("minnctapersm", &[2][..])]);

    let (m, _) = corpus_file("numba/w02_misc.dyn_shared_reverse.ptx");
    let vars: Vec<(Option<Linkage>, StateSpace, Vec<Option<u64>>)> =
        m.variables().map(|v| (v.linkage, v.space, v.dims.clone())).collect();
    assert_eq!(
        vars,
        [
            (Some(Linkage::Common), StateSpace::Global, vec![]),
            (Some(Linkage::Extern), StateSpace::Shared, vec![None])
        ]
    );
    let k = m.entries().next().expect("entry");
    // A 1-D array argument is 7 `.param .u64`, then the int64 scalar.
    assert_eq!(k.params.len(), 8);
    assert!(k.params.iter().all(|p| p.ty.scalar == ScalarType::U64));

    let (m, _) = corpus_file("cuda/p09_pooling.O3.ptx");
    let all: Vec<String> = m
        .entries()
        .flat_map(|f| f.body.as_ref().expect("body").instructions())
        .map(show_instruction)
        .collect();
    assert!(all.iter().any(|s| s == "ld.shared.f32 %f7, [%r3-4]"), "{all:?}");
}

fn parse_text(text: &str) -> Module {
    let full = format!(".version 9.5\n.target sm_90\n.address_size 64\n{text}");
    parse_ok("t.ptx", &full).0
}

fn body_of(text: &str) -> Vec<String> {
    let m = parse_text(&format!(".visible .entry k()\n{{\n{text}\n}}\n"));
    m.entries()
        .next()
        .expect("k")
        .body
        .as_ref()
        .expect("body")
        .instructions()
        .into_iter()
        .map(show_instruction)
        .collect()
}

#[test]
fn literals_operands_and_guards() {
    let code = body_of(
        "\
        .reg .b64 %rd<3>; .reg .pred %p;
        mov.s64 %rd1, -9223372036854775808;
        mov.u64 %rd1, 18446744073709551615;
        mov.u32 %r1, 0x7fU;
        mov.u32 %r1, 0XFF;
        mov.u32 %r1, 017;
        mov.u32 %r1, 0b101;
        mov.u32 %r1, 0;
        mov.u32 %r1, 42U;
        mov.f64 %fd1, 0d3FF0000000000000;
        mov.f32 %f1, 0F3F800000;
        mov.f32 %f1, -0f3F800000;
        mov.f64 %fd1, 1.5;
        mov.f64 %fd1, 2.5e-3;
        @!%p bra $L__BB0_1;
        @%p ret;
        ld.global.u32 %r1, [42];
        ld.global.u32 %r1, [%rd1-8];
        ld.global.u32 %r1, [%rd1+-8];
        ld.global.u32 %r1, [sym+16];
        mov.u64 %rd1, sym+4;
        and.pred %p, !%p, %p;
        call f, ();
        call.uni (r), f, (a, 1);
        st.v4.f32 [%rd1], {%f1, _, 0f00000000, %f2};
        shfl.sync.idx.b32 %r1|%p, %r2, 0, 31, -1;
        isspacep.shared::cta %p, %rd1;
        ",
    );
    assert_eq!(
        code,
        [
            "mov.s64 %rd1, -9223372036854775808",
            "mov.u64 %rd1, 18446744073709551615",
            "mov.u32 %r1, 127",
            "mov.u32 %r1, 255",
            "mov.u32 %r1, 15",
            "mov.u32 %r1, 5",
            "mov.u32 %r1, 0",
            "mov.u32 %r1, 42",
            "mov.f64 %fd1, 0d3FF0000000000000",
            "mov.f32 %f1, 0f3F800000",
            "mov.f32 %f1, 0fBF800000",
            "mov.f64 %fd1, 1.5",
            "mov.f64 %fd1, 0.0025",
            "@!%p bra $L__BB0_1",
            "@%p ret",
            "ld.global.u32 %r1, [42]",
            "ld.global.u32 %r1, [%rd1-8]",
            "ld.global.u32 %r1, [%rd1-8]",
            "ld.global.u32 %r1, [sym+16]",
            "mov.u64 %rd1, sym+4",
            "and.pred %p, !%p, %p",
            "call f, ()",
            "call.uni (r), f, (a, 1)",
            "st.v4.f32 [%rd1], {%f1, _, 0f00000000, %f2}",
            "shfl.sync.idx.b32 %r1|%p, %r2, 0, 31, -1",
            "isspacep.shared::cta %p, %rd1",
        ]
    );
}

#[test]
fn jump_tables_and_call_prototypes() {
    let m = parse_text(
        "\
        .visible .entry k(.param .u32 k_param_0)
        {
            .reg .b32 %r<3>; .reg .b64 %rd<2>;
            tbl: .branchtargets L0, L1;
            brx.idx %r1, tbl;
        L0:
        L1:
            proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .align 8 .b8 _[16]) .noreturn;
            call (%r2), %rd1, (%r1, %r1), proto;
            ret;
        }
        ",
    );
    let body = m.entries().next().expect("k").body.as_ref().expect("body");
    let targets = body
        .statements
        .iter()
        .find_map(|s| match s {
            Statement::BranchTargets(t, _) => Some(t.iter().map(|l| l.name.as_str()).collect::<Vec<_>>()),
            _ => None,
        })
        .expect(".branchtargets");
    assert_eq!(targets, ["L0", "L1"]);
    let proto = body
        .statements
        .iter()
        .find_map(|s| match s {
            Statement::CallPrototype(p) => Some(p),
            _ => None,
        })
        .expect(".callprototype");
    assert_eq!((proto.returns.len(), proto.params.len(), proto.noreturn), (1, 2, true));
    assert_eq!(
        (proto.params[1].align, proto.params[1].dims.as_slice()),
        (Some(8), &[Some(16)][..])
    );
    let code: Vec<String> = body.instructions().into_iter().map(show_instruction).collect();
    assert_eq!(code, ["brx.idx %r1, tbl", "call (%r2), %rd1, (%r1, %r1), proto", "ret"]);
}

#[test]
fn module_forms() {
    let m = parse_text(
        "\
        /* a block
           comment */
        .file 1 \"dir/a \\\"b\\\".cu\", 1700000000, 1234
        .global .align 8 .u64 counter = -1;
        .global .f32 half = 0f3F000000;
        .global .u64 where = generic(counter)+8;
        .const .v2 .u32 pair[2][2] = {{1, 2}, {3, 4}};
        .pragma \"nounroll\";
        .func (.param .b32 func_retval0) f(.param .b32 f_param_0);
        .weak .func (.param .align 2 .b8 func_retval0[2]) g(.param .u64 .ptr .global .align 16 g_param_0) .noreturn
        {
            .local .align 16 .b8 __local_depot0[32];
            .reg .b32 low, high, %r<4>;
            .loc 1 7 3
            $L__BB0_1:
            { { .pragma \"nounroll\"; ret; } }
        }
        .visible .entry k() .reqntid 128 .maxnreg 32 { exit; }
        ",
    );
    assert_eq!(m.file_path(1), Some("dir/a \"b\".cu"));
    assert_eq!(
        (m.files[0].timestamp, m.files[0].size),
        (Some(1_700_000_000), Some(1234))
    );
    let vars: Vec<(&str, Option<InitValue>)> = m
        .variables()
        .map(|v| {
            let init = match &v.init {
                Some(Initializer::Value(x, _)) => Some(x.clone()),
                _ => None,
            };
            (v.name.name.as_str(), init)
        })
        .collect();
    assert_eq!(vars.len(), 4);
    assert_eq!(vars[0].1, Some(InitValue::Int(-1)));
    assert_eq!(vars[1].1, Some(InitValue::Float(FloatLit::F32(0x3F00_0000))));
    assert!(matches!(&vars[2].1, Some(InitValue::Generic(n, 8)) if n.name == "counter"));
    let pair = m.variables().nth(3).expect("pair");
    assert_eq!(
        (pair.ty.vector, pair.dims.as_slice()),
        (Some(2), &[Some(2), Some(2)][..])
    );
    assert!(
        matches!(&pair.init, Some(Initializer::List(rows, _)) if rows.len() == 2 && matches!(&rows[1], Initializer::List(r, _) if r.len() == 2))
    );
    assert!(
        m.items
            .iter()
            .any(|i| matches!(i, ptx::Item::Pragma(p) if p.values == ["nounroll"]))
    );
    let f = m.functions().next().expect("f");
    assert!(f.body.is_none() && f.linkage.is_none());
    let g = entry(&m, "g");
    assert_eq!(g.linkage, Some(Linkage::Weak));
    assert!(g.noreturn);
    assert_eq!(
        (g.returns[0].align, g.returns[0].dims.as_slice()),
        (Some(2), &[Some(2)][..])
    );
    let ptr = g.params[0].ptr.expect(".ptr");
    assert_eq!((ptr.space, ptr.align), (Some(StateSpace::Global), Some(16)));
    let body = g.body.as_ref().expect("body");
    let kinds: Vec<&str> = body
        .statements
        .iter()
        .map(|s| match s {
            Statement::Var(_) => "var",
            Statement::Reg(_) => "reg",
            Statement::Loc(_) => "loc",
            Statement::Label(_) => "label",
            Statement::Block(_) => "block",
            Statement::Pragma(_) => "pragma",
            Statement::Instruction(_) => "instruction",
            Statement::BranchTargets(..) => "branchtargets",
            Statement::CallPrototype(_) => "callprototype",
        })
        .collect();
    assert_eq!(kinds, ["var", "reg", "loc", "label", "block"]);
    let Statement::Reg(r) = &body.statements[1] else {
        unreachable!()
    };
    let names: Vec<(&str, Option<u32>)> = r.names.iter().map(|n| (n.name.name.as_str(), n.count)).collect();
    assert_eq!(names, [("low", None), ("high", None), ("%r", Some(4))]);
    // The `.loc` reaches into nested blocks.
    assert_eq!(body.instructions()[0].loc.as_ref().map(|l| l.line), Some(7));
    let k = entry(&m, "k");
    let perf: Vec<(&str, &[u64])> = k
        .performance
        .iter()
        .map(|p| (p.name.as_str(), p.values.as_slice()))
        .collect();
    assert_eq!(perf, [("reqntid", &[128][..]), ("maxnreg", &[32][..])]);
    // A `.loc` does not carry over into the next function.
    assert!(k.body.as_ref().expect("body").instructions()[0].loc.is_none());
}

/// The first error of `text`, as `file:line:col: message`, and the rendered diagnostic.
fn error_of(text: &str) -> (String, String) {
    let e: AssembleError = match ptx::parse("bad.ptx", text) {
        Ok(_) => panic!("parsed:\n{text}"),
        Err(e) => e,
    };
    assert_eq!(e.diagnostics.len(), 1);
    let d = &e.diagnostics[0];
    let rendered = e.render(false);
    assert!(d.help.is_some(), "no hint: {rendered}");
    (format!("{}: {}", e.sources.location(d.span), d.message), rendered)
}

#[test]
fn malformed_input_gives_exact_locations() {
    let head = ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n";
    let cases: &[(&str, &str)] = &[
        // A missing `;` is reported right after the statement it should end.
        (
            "\tadd.s32 %r1, %r2, %r3\n\tret;\n}\n",
            "bad.ptx:6:23: expected `;` after the instruction `add.s32`, found `ret`",
        ),
        (
            "\t.foo %r1;\n}\n",
            "bad.ptx:6:2: expected an instruction, a label or a body directive, found `.foo`",
        ),
        (
            "\tmov.f32 %f1, 0f3F80;\n}\n",
            "bad.ptx:6:15: invalid number `0f3F80`: `0f` is followed by exactly 8 hex digits",
        ),
        (
            "\tmov.u64 %rd1, 18446744073709551616;\n}\n",
            "bad.ptx:6:16: invalid number `18446744073709551616`: larger than 64 bits",
        ),
        (
            "\tmov.s64 %rd1, -9223372036854775809;\n}\n",
            "bad.ptx:6:16: invalid number `-9223372036854775809`: below the smallest 64-bit integer, -9223372036854775808",
        ),
        (
            "\tmov.u32 %r1, 09;\n}\n",
            "bad.ptx:6:15: invalid number `09`: a number starting with 0 is octal: digits 0-7",
        ),
        (
            "\tld.global.u32 %r1, [%rd1+%rd2];\n}\n",
            "bad.ptx:6:27: expected an offset, found `%rd2`",
        ),
        (
            "\tld.global.u32 %r1, [%rd1;\n}\n",
            "bad.ptx:6:26: expected `]`, found `;`",
        ),
        ("\tmov.u32 %r1, % r2;\n}\n", "bad.ptx:6:15: `%` without a name"),
        ("\tmov.u32 %r1, #2;\n}\n", "bad.ptx:6:15: unexpected character `#`"),
        ("\t@!1 bra L;\n}\n", "bad.ptx:6:4: expected a predicate, found `1`"),
        (
            "\t.reg .b32 %r<x>;\n}\n",
            "bad.ptx:6:15: expected a register count, found `x`",
        ),
        ("\t.reg %r;\n}\n", "bad.ptx:6:7: expected a register type, found `%r`"),
        ("\t.loc 1 2;\n}\n", "bad.ptx:6:10: expected a column number, found `;`"),
        (
            "\tmov.u32 %r1, 1 /* never closed\n}\n",
            "bad.ptx:6:17: unterminated comment",
        ),
        // The file ends inside the body: the unclosed `{` is named.
        ("\tret;\n", "bad.ptx:5:1: unclosed `{`"),
        (
            "\tcall.uni (retval0), f, (param0\n\t;\n}\n",
            "bad.ptx:7:2: expected `,` or `)`, found `;`",
        ),
    ];
    for (body, want) in cases {
        let (got, rendered) = error_of(&format!("{head}{body}"));
        assert_eq!(&got, want, "\n{rendered}");
        let location = want.split(": ").next().expect("location");
        assert!(rendered.contains(&format!("--> {location}")), "{rendered}");
    }
    let module_cases: &[(&str, &str)] = &[
        (
            ".version 9\n",
            "bad.ptx:1:10: expected a version `MAJOR.MINOR`, found `9`",
        ),
        (
            ".version 9.5\n.target\n",
            "bad.ptx:2:8: expected a target such as `sm_90`, found the end of the file",
        ),
        (
            ".version 9.5\n.target\n.address_size 64\n",
            "bad.ptx:3:1: expected a target such as `sm_90`, found `.address_size`",
        ),
        (
            ".visible .global .u32;\n",
            "bad.ptx:1:22: expected a variable name, found `;`",
        ),
        (
            ".global .u32 x\n.global .u32 y;\n",
            "bad.ptx:1:15: expected `;` after the variable declaration, found `.global`",
        ),
        (
            ".visible .visible .entry k() {}\n",
            "bad.ptx:1:10: a second linkage directive `.visible`",
        ),
        (
            ".entry k(.param .u64 a .param .u64 b) {}\n",
            "bad.ptx:1:24: expected `,` or `)`, found `.param`",
        ),
        (
            ".entry k(.param .q64 a) {}\n",
            "bad.ptx:1:17: expected a parameter type or attribute, found `.q64`",
        ),
        (
            ".entry k() .maxntid 256 ret;\n",
            "bad.ptx:1:25: expected `{` (a body) or `;` (a declaration), found `ret`",
        ),
        (".file 1 \"a.cu\n", "bad.ptx:1:9: unterminated string"),
        (
            ".section .debug_str {\n$L__info_string0:\n.b8 65,0\n",
            "bad.ptx:1:21: unclosed section",
        ),
        (
            "mov.u32 %r1, 1;\n",
            "bad.ptx:1:1: expected a module directive, found `mov.u32`",
        ),
    ];
    for (text, want) in module_cases {
        let (got, rendered) = error_of(text);
        assert_eq!(&got, want, "\n{rendered}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let text = format!(".entry k()\n{}{}", "{".repeat(depth), "}".repeat(depth));
    let (got, _) = error_of(&text);
    assert_eq!(
        got,
        format!(
            "bad.ptx:2:{}: nested more than {} levels deep",
            ptx::MAX_DEPTH + 1,
            ptx::MAX_DEPTH
        )
    );
    let init = format!(".global .u32 x[1] = {};", "{".repeat(depth));
    let (got, _) = error_of(&init);
    assert!(
        got.ends_with(&format!("nested more than {} levels deep", ptx::MAX_DEPTH)),
        "{got}"
    );
    // At the limit it parses.
    let ok = format!(
        ".entry k()\n{}ret;{}",
        "{".repeat(ptx::MAX_DEPTH),
        "}".repeat(ptx::MAX_DEPTH)
    );
    assert!(ptx::parse("ok.ptx", &ok).is_ok());
}

/// A small deterministic generator (SplitMix64), for the mutations below.
struct Mix(u64);

impl Mix {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        usize::try_from((z ^ (z >> 31)) % n as u64).expect("fits")
    }
}

/// The `ptx` fuzz target's harness: no panic; an error located in the text and rendered; whether it parsed.
fn parse_or_locate(text: &str) -> bool {
    fuzzing::ptx(text.as_bytes()).is_ok()
}

#[test]
fn truncated_and_mutated_corpus_files_never_panic() {
    let files = corpus();
    let picks = [
        "cuda/w13_noinline_call.O3.ptx",
        "cuda/w33_half2_bf16.O3.ptx",
        "cuda/p09_pooling.G.ptx",
        "numba/w03_more.hello.ptx",
    ];
    let mut rng = Mix(21);
    let (mut failures, mut total) = (0, 0);
    for pick in picks {
        let text = &files.iter().find(|(n, _)| n == pick).expect(pick).1;
        // Truncated at 200 places: inside a function body, an error.
        for k in 0..200 {
            let mut cut = text.len() * k / 200;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            total += 1;
            if !parse_or_locate(&text[..cut]) {
                failures += 1;
            }
        }
        // 300 single mutations: a byte deleted, duplicated or replaced by a punctuation character.
        let bytes = text.as_bytes();
        for _ in 0..300 {
            let at = rng.next(bytes.len());
            let mut m = bytes.to_vec();
            match rng.next(3) {
                0 => {
                    m.remove(at);
                }
                1 => m.insert(at, bytes[at]),
                _ => m[at] = b"{}[]();,.%@!|+-:\"/*0x"[rng.next(21)],
            }
            total += 1;
            if !parse_or_locate(&String::from_utf8_lossy(&m)) {
                failures += 1;
            }
        }
    }
    // Most cuts and mutations break the text (a count that depends only on the fixed seed and corpus).
    assert!(failures > total / 2, "{failures} of {total}");
}

#[test]
fn docs_examples_parse() {
    let path = "docs/ptx.md";
    let markdown = std::fs::read_to_string(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).expect("docs/ptx.md");
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (k, line) in markdown.lines().enumerate() {
        match current.as_mut() {
            None if line.trim_end() == "```ptx" => current = Some((k + 2, String::new())),
            None => {}
            Some(_) if line.trim_end() == "```" => blocks.push(current.take().expect("open block")),
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    assert!(!blocks.is_empty());
    for (line, text) in blocks {
        let (m, _) = parse_ok(&format!("{path}:{line}.ptx"), &text);
        let k = m.entries().next().expect("an entry");
        assert_eq!(k.body.as_ref().expect("body").instructions().len(), 12);
        assert_eq!(m.file_path(1), Some("/home/me/scale.cu"));
    }
}

/// PTX's own tokens in arbitrary order, after a valid header, so that the parser gets past the module level.
fn token_soup() -> impl Strategy<Value = String> {
    const TOKENS: &[&str] = &[
        ".visible",
        ".entry",
        ".func",
        "k",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ",",
        ";",
        ":",
        "@",
        "!",
        "|",
        "+",
        "-",
        "<",
        ">",
        "=",
        ".reg",
        ".b32",
        ".u64",
        ".pred",
        ".param",
        ".shared",
        ".align",
        "4",
        "%r<4>",
        "%r1",
        "%p1",
        "%tid.x",
        "add.s32",
        "ld.global.f32",
        "bra",
        "$L__BB0_1",
        "ret",
        ".loc",
        "1",
        "0f3F800000",
        "0d3FF0000000000000",
        "-9223372036854775808",
        "0x1F",
        "\"s\"",
        ".file",
        ".section",
        ".debug_str",
        ".b8",
        "_",
        "call.uni",
        "function_name",
        "inlined_at",
        "generic",
        ".pragma",
        "//c\n",
        "/*c*/",
        "\n",
    ];
    prop::collection::vec(prop::sample::select(TOKENS), 0..80)
        .prop_map(|t| format!(".version 9.5\n.target sm_90\n.address_size 64\n{}", t.join(" ")))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn bytes_never_panic_the_ptx_parser(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        let _ = fuzzing::ptx(&bytes);
    }

    #[test]
    fn ptx_tokens_never_panic_the_parser(text in token_soup()) {
        let _ = fuzzing::ptx(text.as_bytes());
    }
}
