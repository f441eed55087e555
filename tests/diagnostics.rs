//! The assembler's and loader's diagnostics, as a person sees them: `file:line:col`, the line with a caret,
//! what was expected, a hint. Snapshots in `tests/snapshots/`.

use warpsim::{Config, Launch, programs};

fn assemble_errors(source: &str) -> String {
    match warpsim_isa::parse("kernel.s", source, &programs::Resolver) {
        Ok(_) => panic!("expected errors for:\n{source}"),
        Err(e) => e.render(false),
    }
}

fn load_error(source: &str, w: u32, set: &[(&str, warpsim_isa::Value)]) -> String {
    let p =
        warpsim_isa::parse("kernel.s", source, &programs::Resolver).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let launch = Launch {
        set: set.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        ..Launch::default()
    };
    match warpsim::instantiate(&p, &Config::hopper().with_warp_size(w), &launch) {
        Ok(_) => panic!("expected a load error"),
        Err(e) => e.render(&p, false),
    }
}

#[test]
fn misspelt_opcode_suggests_the_right_one() {
    let out = assemble_errors(".reg %v\n    shlf.bfly %v, %v, 1\n");
    assert!(out.contains("kernel.s:2:5"), "{out}");
    assert!(out.contains("did you mean `shfl.bfly`?"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn misspelt_modifier_suggests_the_right_one() {
    insta::assert_snapshot!(assemble_errors(".reg %v\n    shfl.sync.bfy.b32 %v, %v, 1\n"));
}

#[test]
fn undeclared_register_suggests_a_declared_one() {
    insta::assert_snapshot!(assemble_errors(".reg %value\n    add.f32 %value, %valeu, 1.0\n"));
}

#[test]
fn every_error_in_a_file_is_reported() {
    let src = "\
.kernel many_errors
.reg %a, %b
.pred %p
    mov.u32 %a, %tid.x
    add.f32 %a, %b
    setp.lt.u32 %a, %b, 3
    bra nowhere
    ld.global.f32 %a, inn[%a]
    mul.s32 %a, %b, 2.5
";
    let out = assemble_errors(src);
    assert!(out.contains("could not assemble: 5 errors"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn wrong_buffer_type_and_missing_rounding() {
    let src = "\
.buffer in f32[W]
.reg %a, %i
    ld.global.s32 %a, in[%i]
    cvt.s32.f32 %i, %a
";
    insta::assert_snapshot!(assemble_errors(src));
}

#[test]
fn directive_errors() {
    let src = "\
.kernal typo
.buffer out f64[W]
.warp_sizes 3..64
.param W = 3
";
    insta::assert_snapshot!(assemble_errors(src));
}

#[test]
fn macro_errors_point_into_the_macro_and_at_the_invocation() {
    let src = "\
.macro twice v
    add.u32 \\v, \\v, \\w
.endm
.reg %x
    twice %x
    twice %x, %x
";
    insta::assert_snapshot!(assemble_errors(src));
}

#[test]
fn unterminated_macro_and_bad_include() {
    insta::assert_snapshot!(assemble_errors(".include \"no_such_file.s\"\n.macro open a\n    nop\n"));
}

#[test]
fn lexer_errors() {
    insta::assert_snapshot!(assemble_errors(
        ".reg %v\n    mov.u32 %v, 12abc\n    mov.u32 %v, ?\n.desc \"never closed\n"
    ));
}

#[test]
fn shuffle_width_larger_than_the_warp_is_a_load_error() {
    let src = ".reg %v\n    shfl.sync.down.b32 %v, %v, 1, width=16\n";
    let out = load_error(src, 8, &[]);
    assert!(out.contains("kernel.s:2:41"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn buffer_initialiser_out_of_range_is_a_load_error() {
    insta::assert_snapshot!(load_error(".param k = 40\n.buffer in s32[W] = 0, [k] = 1\n", 32, &[]));
}

#[test]
fn unknown_parameter_from_the_command_line() {
    let out = load_error(
        ".param target_bin = 0\n",
        32,
        &[("target_bim", warpsim_isa::Value::Int(3))],
    );
    assert_eq!(
        out,
        "error: `kernel` has no parameter `target_bim`; did you mean `target_bin`?\n"
    );
}

#[test]
fn immediate_that_does_not_fit_32_bits() {
    insta::assert_snapshot!(load_error(
        ".param big = 1 << 40\n.reg %v\n    mov.u32 %v, big\n",
        32,
        &[]
    ));
}

#[test]
fn include_inside_a_macro_body_is_refused_clearly() {
    let out = assemble_errors(".macro m r\n.include \"warp.s\"\n    mov.u32 \\r, 0\n.endm\n.reg %a\n    m %a\n");
    assert!(out.contains("`.include` cannot stand inside a macro body"), "{out}");
    assert!(!out.contains("did you mean `.include`"), "{out}");
}

#[test]
fn conversion_rounding_messages_say_what_is_wrong() {
    insta::assert_snapshot!(assemble_errors(
        ".reg %a\n    cvt.f32.f32 %a, %a\n    cvt.rn.s32.f32 %a, %a\n"
    ));
}

#[test]
fn modifiers_that_do_not_fit_the_type_are_refused() {
    let out = assemble_errors(
        ".reg %a\n    mul.lo.f32 %a, %a, %a\n    add.rn.u32 %a, %a, 1\n    mad.lo.f32 %a, %a, %a, %a\n",
    );
    assert!(out.contains("`.lo` does not go with `.f32`"), "{out}");
    assert!(out.contains("write `mul.f32`"), "{out}");
    assert!(out.contains("`.rn` does not go with `.u32`"), "{out}");
    assert!(out.contains("could not assemble: 3 errors"), "{out}");
}

#[test]
fn warp_sizes_given_twice_is_an_error() {
    let out = assemble_errors(".warp_sizes 8..64\n.warp_sizes 16..64\n");
    assert!(out.contains("`.warp_sizes` given twice"), "{out}");
}

#[test]
fn unknown_names_in_offsets_widths_and_masks_are_assembly_errors() {
    let src = ".buffer b u32[W]\n.reg %v\n    ld.global.u32 %v, b[%v + off]\n    shfl.sync.up.b32 %v, %v, 1, width=wdth\n    shfl.sync.up.b32 %v, %v, 1, 0, msk\n";
    let out = assemble_errors(src);
    assert!(out.contains("could not assemble: 3 errors"), "{out}");
    for name in ["off", "wdth", "msk"] {
        assert!(out.contains(&format!("unknown name `{name}`")), "{out}");
    }
}

#[test]
fn the_element_index_is_not_available_in_an_override_index() {
    let out = load_error(".buffer b u32[8] = 0, [i + 1] = 5\n", 32, &[]);
    assert!(out.contains("unknown name `i`"), "{out}");
}

#[test]
fn deep_or_long_expressions_are_errors_not_stack_overflows() {
    let deep = format!(
        ".reg %x\n    mov.u32 %x, {}1{}\n",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    assert!(assemble_errors(&deep).contains("error: expression nested more than 64 deep"));
    let long = format!(".reg %x\n    mov.u32 %x, 0{}\n", " + 1".repeat(30_000));
    assert!(assemble_errors(&long).contains("error: more than 1024 expression terms in one statement"));
    // Past the line's token limit, the lexer stops: the tokens of an 8 MiB line are never all made.
    let huge = format!(".reg %x\n    mov.u32 %x, 0{}\n", "+1".repeat(100_000));
    assert!(
        assemble_errors(&huge)
            .contains("error: line too long: more than 131072 tokens, more than any statement can use")
    );
}

#[test]
fn exponential_macro_expansion_stops_at_the_statement_limit() {
    let bomb = ".macro m\n    m\n    m\n.endm\n    m\n";
    let out = assemble_errors(bomb);
    assert!(out.contains("statements") || out.contains("nested more than"), "{out}");
}

#[test]
fn suggestions_do_not_depend_on_hash_order() {
    let out = assemble_errors(".reg %v1, %v2, %v4, %v5\n    mov.u32 %v3, 0\n");
    assert!(out.contains("did you mean `%v1`?"), "{out}");
}

#[test]
fn shift_overflow_in_an_expression_is_an_error() {
    insta::assert_snapshot!(load_error(".reg %x\n    mov.u32 %x, (1 << 63) >> 62\n", 32, &[]));
}

#[test]
fn too_many_buffers_is_an_error() {
    let src: String = (0..65_536).map(|k| format!(".buffer b{k} u32[1]\n")).collect();
    assert!(assemble_errors(&src).contains("too many buffers and shared arrays"));
}

#[test]
fn macro_misuse_errors() {
    let src = ".macro m r\n    mov.u32 \\r, 0\n.endm\n.macro twice a, a\n.endm\n.reg %x\n.pred %p\n    @%p m %x\n";
    let out = assemble_errors(src);
    assert!(out.contains("macro parameter `a` is named twice"), "{out}");
    assert!(out.contains("a guard cannot stand before macro `m`"), "{out}");
    // Several labels may stand before an invocation.
    let ok = warpsim_isa::parse(
        "k.s",
        ".macro m r\n    mov.u32 \\r, 0\n.endm\n.reg %x\nx: y: m %x\n",
        &programs::Resolver,
    );
    assert!(ok.is_ok(), "{}", ok.err().map(|e| e.render(false)).unwrap_or_default());
}

#[test]
fn a_float_where_an_integer_operand_is_needed() {
    let out = load_error(
        ".param offset = 2\n.reg %x\n    add.s32 %x, %x, offset\n",
        32,
        &[("offset", warpsim_isa::Value::Float(0.5))],
    );
    assert!(
        out.contains("a `.s32` operand needs an integer, and this is 0.5"),
        "{out}"
    );
}

#[test]
fn the_error_count_is_capped() {
    let src = "x\n".repeat(1000);
    let out = assemble_errors(&src);
    assert!(
        out.contains("too many errors; stopped after 100"),
        "{}",
        &out[out.len().saturating_sub(300)..]
    );
    assert_eq!(out.matches("error: unknown opcode").count(), 100);
}
