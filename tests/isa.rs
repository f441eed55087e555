//! The assembler, printer and control-flow analysis on the shipped programs and small cases.

use warpsim::programs;
use warpsim_isa::{Op, cfg, parse, print};

#[test]
fn printer_round_trips_every_shipped_program() {
    for name in programs::names() {
        let p = programs::assemble(name).expect("shipped").expect("assembles");
        let text = print(&p);
        let again = parse("printed.s", &text, &programs::Resolver)
            .unwrap_or_else(|e| panic!("{name}: printed text does not assemble:\n{}\n{text}", e.render(false)));
        assert!(p.equivalent(&again), "{name}: printed program differs:\n{text}");
        // Printing is a fixed point.
        assert_eq!(print(&again), text, "{name}");
    }
}

#[test]
fn printer_round_trips_every_operand_form() {
    let src = "\
.kernel forms
.desc \"all \\\"forms\\\"\"
.warp_sizes 8..32
.param k = -3
.grid (W + 1) / 2
.block max(W, 16)
.buffer a f32[2 * W] = (i % 80) / 100.0, [0] = 1.5, [1..3] = [2, -4], [5..] = [7, 8]
.buffer b u32[W]
.reg %x, %y, %r<3>
.pred %p, %q
top:
    @!%p add.s32 %x, %y, -7
    mad.lo.u32 %r0, %r1, %r2, 0x10
    fma.rn.f32 %x, %x, 2.5e-3, %y
    fma.rm.f32 %x, %x, 2.5e-3, %y
    add.rz.f32 %x, %x, %y
    sqrt.rp.f32 %x, %x
    rcp.rz.f32 %x, %y
    copysign.f32 %x, %y, %x
    add.cc.u32 %x|%p, %x, %y
    addc.cc.u32 %y|%p, %y, 3, %p
    subc.s32 %x, %x, %y, %p
    mad.lo.cc.u32 %r0|%q, %r1, %r2, %x
    madc.hi.u32 %r1, %r1, %r2, 0, %q
    setp.ge.f32 %p, %x, 1.0
    and.pred %q, !%p, %q
    not.pred %q, %q
    selp.u32 %y, 1, 0, %q
    cvt.rmi.s32.f32 %y, %x
    cvt.rn.f32.u32 %x, %y
    cvt.s32.u32 %y, %y
    ld.global.f32 %x, a[%y + 1]
    ld.global.b32 %x, [a + %y]
    st.global.u32 b[3], 7
    st.global.u32 [b], %y
    shfl.sync.up.b32 %x|%p, %y, 1, width=8, mask=0xff
    shfl.sync.idx.b32 %x, %y, %laneid, 0x1f, 0xffffffff
    shfl.sync.bfly.b32 %x, %y, (W / 2)
    shr.s32 %x, %x, k + 4
    @%p bra top
    exit
";
    let p = parse("forms.s", src, &programs::Resolver).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let text = print(&p);
    let again =
        parse("printed.s", &text, &programs::Resolver).unwrap_or_else(|e| panic!("{}\n{text}", e.render(false)));
    assert!(p.equivalent(&again), "{text}");
    assert_eq!(print(&again), text);
}

#[test]
fn printer_round_trips_launch_shapes_and_every_special() {
    let specials: Vec<String> = warpsim_isa::Special::ALL
        .iter()
        .map(|s| {
            // (`%clock64` is 64 bits wide.)
            if s.wide() {
                format!("    mov.u64 %xd, %{}\n", s.name())
            } else {
                format!("    mov.u32 %x, %{}\n", s.name())
            }
        })
        .collect();
    for (grid, block, printed) in [
        ("4", "W", ".grid 4\n.block W\n"),
        ("n, 2", "16, W / 8", ".grid n, 2\n.block 16, W / 8\n"),
        ("2,3,n+1", "8,4,2", ".grid 2, 3, n + 1\n.block 8, 4, 2\n"),
    ] {
        let src = format!(
            ".param n = 3\n.grid {grid}\n.block {block}\n.reg %x\n.reg.b64 %xd\n{}",
            specials.concat()
        );
        let p = parse("shapes.s", &src, &programs::Resolver).unwrap_or_else(|e| panic!("{}", e.render(false)));
        let text = print(&p);
        let again =
            parse("printed.s", &text, &programs::Resolver).unwrap_or_else(|e| panic!("{}\n{text}", e.render(false)));
        assert!(p.equivalent(&again), "{text}");
        assert_eq!(print(&again), text);
        // The components are printed x first, separated by `, `; every special register by its PTX name.
        assert!(text.contains(printed), "{text}");
        for s in warpsim_isa::Special::ALL {
            let (ty, d) = if s.wide() { ("u64", "xd") } else { ("u32", "x") };
            assert!(text.contains(&format!("mov.{ty} %{d}, %{}\n", s.name())), "{text}");
        }
    }
    // Different shapes are different programs.
    let a = parse("a.s", ".grid 4, 2\n", &programs::Resolver).expect("assembles");
    let b = parse("b.s", ".grid 4\n", &programs::Resolver).expect("assembles");
    let c = parse("c.s", ".grid 4, 2, 1\n", &programs::Resolver).expect("assembles");
    assert!(!a.equivalent(&b));
    assert!(!a.equivalent(&c));
}

#[test]
fn shorthand_and_canonical_shuffles_are_the_same_instruction() {
    let a = parse("same.s", ".reg %v\n    shfl.bfly %v, %v, 1\n", &programs::Resolver).expect("assembles");
    let b = parse(
        "same.s",
        ".reg %v\n    shfl.sync.bfly.b32 %v, %v, 1\n",
        &programs::Resolver,
    )
    .expect("assembles");
    assert!(a.equivalent(&b));
}

fn reconvergence(src: &str) -> Vec<(usize, Option<usize>)> {
    let p = parse("cfg.s", src, &programs::Resolver).unwrap_or_else(|e| panic!("{}", e.render(false)));
    let g = cfg::analyse(&p);
    p.instructions
        .iter()
        .enumerate()
        .filter(|(_, i)| matches!(i.op, Op::Bra { .. }) && i.guard.is_some())
        .map(|(pc, _)| (pc, g.reconvergence_pc(pc)))
        .collect()
}

#[test]
fn if_then_reconverges_after_the_then_block() {
    let src = ".reg %v\n.pred %p\n    @%p bra skip\n    add.u32 %v, %v, 1\nskip:\n    add.u32 %v, %v, 2\n";
    assert_eq!(reconvergence(src), vec![(0, Some(2))]);
}

#[test]
fn if_else_reconverges_at_the_join() {
    let src = "\
.reg %v
.pred %p
    @%p bra else
    add.u32 %v, %v, 1
    bra join
else:
    add.u32 %v, %v, 2
join:
    nop
";
    assert_eq!(reconvergence(src), vec![(0, Some(4))]);
}

#[test]
fn loop_back_edge_reconverges_after_the_loop() {
    let src = ".reg %v\n.pred %p\ntop:\n    add.u32 %v, %v, 1\n    @%p bra top\n    nop\n";
    assert_eq!(reconvergence(src), vec![(1, Some(2))]);
}

#[test]
fn paths_that_only_meet_at_exit_reconverge_at_exit() {
    let src = ".reg %v\n.pred %p\n    @%p bra other\n    exit\nother:\n    add.u32 %v, %v, 1\n";
    assert_eq!(reconvergence(src), vec![(0, None)]);
}

#[test]
fn nested_ifs_reconverge_innermost_first() {
    let src = "\
.reg %v
.pred %p, %q
    @%p bra outer_end
    @%q bra inner_end
    add.u32 %v, %v, 1
inner_end:
    add.u32 %v, %v, 2
outer_end:
    nop
";
    assert_eq!(reconvergence(src), vec![(0, Some(4)), (1, Some(3))]);
}

#[test]
fn macro_labels_are_local_to_each_expansion() {
    let src = "\
.macro spin r
again:
    sub.u32 \\r, \\r, 1
    setp.ne.u32 %p, \\r, 0
    @%p bra again
.endm
.reg %a, %b
.pred %p
    spin %a
    spin %b
";
    let p = parse("m.s", src, &programs::Resolver).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(p.instructions.len(), 6);
    let targets: Vec<usize> = p
        .instructions
        .iter()
        .filter_map(|i| match i.op {
            Op::Bra { target } => Some(target),
            _ => None,
        })
        .collect();
    assert_eq!(targets, vec![0, 3], "each expansion loops on its own label");
    assert_eq!(p.instructions[1].text, "setp.ne.u32 %p, %a, 0");
    assert_eq!(p.instructions[4].text, "setp.ne.u32 %p, %b, 0");
}

#[test]
fn shipped_programs_include_the_shipped_macro_library() {
    let p = programs::assemble("butterfly_max")
        .expect("shipped")
        .expect("assembles");
    let files: Vec<String> = p.sources.files().map(|(_, f)| f.name.clone()).collect();
    assert_eq!(files, vec!["programs/butterfly_max.s", "programs/warp.s"]);
}

#[test]
fn an_include_cycle_is_an_error_not_a_hang() {
    let dir = std::env::temp_dir().join(format!("warpsim-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("a.s"), ".include \"b.s\"\n").expect("write");
    std::fs::write(dir.join("b.s"), ".include \"a.s\"\n").expect("write");
    let main = dir.join("a.s");
    let text = std::fs::read_to_string(&main).expect("read");
    let err = parse(&main.display().to_string(), &text, &programs::Resolver).expect_err("cycle");
    let out = err.render(false);
    assert!(out.contains("includes itself"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn macro_local_labels_do_not_rename_buffers_of_the_same_name() {
    let src = "\
.buffer out u32[W]
.macro put r
out: st.global.u32 out[%laneid], \\r
a: b: nop
    bra b
.endm
.reg %x
    put %x
    put %x
";
    let p = parse("m.s", src, &programs::Resolver).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(p.instructions.len(), 6);
    let labels: Vec<&str> = p.labels.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels, vec!["out$1", "a$1", "b$1", "out$2", "a$2", "b$2"]);
    assert!(matches!(p.instructions[2].op, Op::Bra { target: 1 }));
    assert!(matches!(p.instructions[5].op, Op::Bra { target: 4 }));
}

#[test]
fn a_user_file_under_a_programs_directory_includes_its_neighbour() {
    let dir = std::env::temp_dir()
        .join(format!("warpsim-user-{}", std::process::id()))
        .join("programs");
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("mylib.s"), ".macro zero r\n    mov.u32 \\r, 0\n.endm\n").expect("write");
    std::fs::write(dir.join("user.s"), ".include \"mylib.s\"\n.reg %a\n    zero %a\n").expect("write");
    // The path a user would type from the parent directory.
    let cwd_relative = "programs/user.s";
    let full = dir.join("user.s");
    let text = std::fs::read_to_string(&full).expect("read");
    let name = full.display().to_string();
    let p = parse(&name, &text, &programs::Resolver).unwrap_or_else(|e| panic!("{}", e.render(false)));
    assert_eq!(p.instructions.len(), 1);
    // And a name that merely starts with `programs/` is not mistaken for a shipped file.
    let p2 = warpsim_isa::parse_file(
        warpsim_isa::SourceFile::new(cwd_relative, text),
        &ProgramsRelativeTo(dir.clone()),
    );
    assert!(p2.is_ok(), "{}", p2.err().map(|e| e.render(false)).unwrap_or_default());
    std::fs::remove_dir_all(dir.parent().expect("parent")).ok();
}

/// The shipped resolver, run as if the current directory were `dir`'s parent.
struct ProgramsRelativeTo(std::path::PathBuf);

impl warpsim_isa::IncludeResolver for ProgramsRelativeTo {
    fn resolve(&self, from: &warpsim_isa::SourceFile, path: &str) -> Result<warpsim_isa::SourceFile, String> {
        let parent = self.0.parent().expect("parent");
        let rebased = warpsim_isa::SourceFile::new(parent.join(&from.name).display().to_string(), "");
        programs::Resolver.resolve(&rebased, path)
    }
}

#[test]
fn a_guarded_exit_inside_a_branch_does_not_move_its_reconvergence_point() {
    let src = "\
.reg %v
.pred %odd, %last
    @%odd bra other
    mov.u32 %v, 100
    bra join
other:
    @%last exit
    mov.u32 %v, 200
join:
    nop
";
    assert_eq!(reconvergence(src), vec![(0, Some(5))]);
}

#[test]
fn a_loop_with_a_guarded_branch_to_the_end_in_it_reconverges_after_the_loop() {
    // A branch to the end of the program is an exit: the lanes it takes leave, so the loop's own branch still
    // reconverges after the loop (ptxas's `EXIT`, where a join at the end would keep the lanes apart to the end).
    let src = "\
.reg %v
.pred %p, %q
top:
    @%q bra done
    add.u32 %v, %v, 1
    @%p bra top
    add.u32 %v, %v, 2
done:
";
    assert_eq!(reconvergence(src), vec![(0, Some(1)), (2, Some(3))]);
    // An unguarded branch to the end, on one path of an if, leaves the paths meeting only at the exit.
    let src = ".reg %v\n.pred %p\n    @%p bra other\n    bra done\nother:\n    add.u32 %v, %v, 1\ndone:\n";
    assert_eq!(reconvergence(src), vec![(0, None)]);
}

#[test]
fn include_cycles_through_dot_paths_are_cycles() {
    let dir = std::env::temp_dir()
        .join(format!("warpsim-dot-{}", std::process::id()))
        .join("d");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("x.s"), ".include \"../d/./x.s\"\n").expect("write");
    let main = dir.join("x.s");
    let text = std::fs::read_to_string(&main).expect("read");
    let err = parse(&main.display().to_string(), &text, &programs::Resolver).expect_err("cycle");
    assert!(err.render(false).contains("includes itself"), "{}", err.render(false));
    std::fs::remove_dir_all(dir.parent().expect("parent")).ok();
}
