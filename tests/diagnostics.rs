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
