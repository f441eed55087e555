//! PTX entries on the corpus of `programs/ptx` (`warpsim_isa::ptx::entry`): names, `find`, and the arguments
//! `describe` groups the `.param`s into, with their names from the `.cu`/`.py` source next to the `.ptx`.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};
use warpsim_isa::ElemTy;
use warpsim_isa::ptx::entry::{ArgKind, ArrayParams, Origin, Scalar, TypesFrom};
use warpsim_isa::ptx::{self, Address, Entry, Function, Module, OperandKind};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/ptx")
}

/// `dir/NAME.ptx` of the corpus, parsed.
fn load(name: &str) -> Module {
    let text = std::fs::read_to_string(corpus_dir().join(name)).expect("corpus file");
    ptx::parse(name, &text)
        .unwrap_or_else(|e| panic!("{name}:\n{}", e.render(false)))
        .0
}

/// The `.ptx` files of `programs/ptx/cuda` and `programs/ptx/numba`, as `dir/NAME.ptx`.
fn corpus_files() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["cuda", "numba"] {
        let mut names: Vec<String> = std::fs::read_dir(corpus_dir().join(dir))
            .expect("programs/ptx")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| Path::new(n).extension().is_some_and(|x| x == "ptx"))
            .collect();
        names.sort();
        out.extend(names.into_iter().map(|n| format!("{dir}/{n}")));
    }
    out
}

fn describe_with_source<'m>(m: &'m Module, f: &'m Function, file: &str) -> Entry<'m> {
    ptx::describe(m, f, &ptx::source_beside(&corpus_dir().join(file)))
}

/// `(name, type as spelled, kind, .params)` of an argument.
type Arg = (Option<String>, String, ArgKind, Range<usize>);

/// Every argument as an [`Arg`].
fn arguments(e: &Entry) -> Vec<Arg> {
    e.arguments
        .iter()
        .map(|a| (a.name.clone(), a.ty.clone(), a.kind.clone(), a.params.clone()))
        .collect()
}

fn arg(name: &str, ty: &str, kind: ArgKind, params: Range<usize>) -> Arg {
    (Some(name.to_string()), ty.to_string(), kind, params)
}

fn ptr(elem: Option<Scalar>, is_const: bool) -> ArgKind {
    ArgKind::Pointer { elem, is_const }
}

/// A pointee or array element of type `t`.
#[allow(clippy::unnecessary_wraps)]
fn el(t: ElemTy) -> Option<Scalar> {
    Some(Scalar::Elem(t))
}

fn scalar(t: ElemTy) -> ArgKind {
    ArgKind::Scalar(Scalar::Elem(t))
}

/// The indices of the `.param`s the kernel reads with `ld.param`.
fn params_read(f: &Function) -> BTreeSet<usize> {
    let mut read = BTreeSet::new();
    for i in f.body.as_ref().expect("body").instructions() {
        if i.opcode != "ld" || i.qualifiers.first().map(String::as_str) != Some("param") {
            continue;
        }
        if let Some(OperandKind::Address(Address { base: Some(b), .. })) = i.operands.get(1).map(|o| &o.kind) {
            read.extend(f.params.iter().position(|p| p.name.name == b.name));
        }
    }
    read
}

#[test]
fn every_corpus_entry_is_described_with_types_and_names() {
    let files = corpus_files();
    assert_eq!(files.len(), 61 * 2 + 41);
    let mut entries = 0;
    for file in &files {
        let m = load(file);
        for f in m.entries() {
            entries += 1;
            let e = describe_with_source(&m, f, file);
            let what = format!("{file}: {}", e.name.display());
            assert_eq!(e.fallback, None, "{what}");
            // extern "C" kernels take their types from the source, mangled ones from their names.
            let want = if e.name.origin == Origin::Plain {
                TypesFrom::Source
            } else {
                TypesFrom::Signature
            };
            assert_eq!(e.types_from, want, "{what}");
            assert!(
                e.arguments.iter().all(|a| a.name.is_some()),
                "{what}: {:?}",
                e.arguments
            );
            let source = e.source.as_deref().unwrap_or_else(|| panic!("{what}: no source"));
            let stem = file.rsplit('/').next().unwrap().split('.').next().unwrap();
            assert_eq!(Path::new(source).file_stem().unwrap().to_str(), Some(stem), "{what}");
            // The arguments cover the .params in order, each exactly once.
            let mut next = 0;
            for (i, a) in e.arguments.iter().enumerate() {
                assert_eq!((a.index, a.params.start), (i, next), "{what}");
                assert!(a.params.end > a.params.start, "{what}");
                next = a.params.end;
            }
            assert_eq!(next, f.params.len(), "{what}");
            // Without the source: names are absent, and an extern "C" kernel falls back to the PTX types.
            let bare = ptx::describe(&m, f, &|_| None);
            assert!(bare.arguments.iter().all(|a| a.name.is_none()), "{what}");
            assert_eq!(bare.source, None);
            if e.name.origin == Origin::Plain {
                assert_eq!(bare.types_from, TypesFrom::Ptx, "{what}");
                assert_eq!(bare.arguments.len(), f.params.len(), "{what}");
            } else {
                assert_eq!(
                    arguments(&bare).into_iter().map(|a| a.2).collect::<Vec<_>>(),
                    arguments(&e).into_iter().map(|a| a.2).collect::<Vec<_>>(),
                    "{what}"
                );
            }
            // Every argument binds by its name, its position and its .params' names.
            for a in &e.arguments {
                let name = a.name.as_deref().unwrap();
                assert_eq!(e.argument(name).map(|b| b.index), Ok(a.index), "{what}: {name}");
                assert_eq!(e.argument(&a.index.to_string()).map(|b| b.index), Ok(a.index), "{what}");
                for p in &f.params[a.params.clone()] {
                    assert_eq!(e.argument(&p.name.name).map(|b| b.index), Ok(a.index), "{what}");
                }
            }
            // The short name finds it, unless several kernels of the module share it (w25's templates).
            let shared = m
                .entries()
                .filter(|g| ptx::entry::entry_name(g).short == e.name.short)
                .count();
            let found = ptx::find(&m, Some(&e.name.short));
            if shared == 1 {
                assert_eq!(found.map(|g| &g.name.name), Ok(&f.name.name), "{what}");
            } else {
                assert!(found.is_err(), "{what}");
            }
            assert_eq!(
                ptx::find(&m, Some(&f.name.name)).map(|g| &g.name.name),
                Ok(&f.name.name)
            );
        }
        if m.entries().count() == 1 {
            assert!(ptx::find(&m, None).is_ok(), "{file}");
        }
    }
    // One kernel per file, but for w25's three template instances, w40's, w42's, w43's and w44's two kernels,
    // w45's four, w46's seven and w47's five (at -O3 and -G).
    assert_eq!(entries, 61 * 2 + 2 * 2 + 4 * 2 + 3 * 2 + 6 * 2 + 4 * 2 + 41);
}

#[test]
fn mangled_cxx_kernel_at_o3_and_g() {
    use ElemTy as E;
    for file in ["cuda/p07_blocks2d.O3.ptx", "cuda/p07_blocks2d.G.ptx"] {
        let m = load(file);
        let f = ptx::find(&m, Some("map_blocks_2d")).expect("found");
        assert_eq!(f.name.name, "_Z13map_blocks_2dPfPKfi");
        let e = describe_with_source(&m, f, file);
        assert_eq!(
            e.name.demangled.as_deref(),
            Some("map_blocks_2d(float*, float const*, int)")
        );
        assert_eq!(
            arguments(&e),
            [
                arg("out", "float*", ptr(el(E::F32), false), 0..1),
                arg("a", "float const*", ptr(el(E::F32), true), 1..2),
                arg("size", "int", scalar(E::S32), 2..3),
            ]
        );
        assert_eq!(e.argument_list(), "  0 out: float*\n  1 a: float const*\n  2 size: int");
        assert_eq!(e.argument("_Z13map_blocks_2dPfPKfi_param_2").map(|a| a.index), Ok(2));
    }
}

#[test]
fn template_instances() {
    use ElemTy as E;
    for file in ["cuda/w25_templated_reduce.O3.ptx", "cuda/w25_templated_reduce.G.ptx"] {
        let m = load(file);
        assert_eq!(
            ptx::find(&m, None).unwrap_err(),
            "the module has 3 kernels; choose one with --entry:\n  \
             reduce_sum<float, 256>  (void reduce_sum<float, 256>(float*, float const*, int, int*))\n  \
             reduce_sum<int, 128>  (void reduce_sum<int, 128>(int*, int const*, int, int*))\n  \
             reduce_sum<double, 256>  (void reduce_sum<double, 256>(double*, double const*, int, int*))"
        );
        assert_eq!(
            ptx::find(&m, Some("reduce_sum")).unwrap_err(),
            "`reduce_sum` names 3 kernels; give the full name, or the PTX name:\n  \
             reduce_sum<float, 256>  (void reduce_sum<float, 256>(float*, float const*, int, int*))\n  \
             reduce_sum<int, 128>  (void reduce_sum<int, 128>(int*, int const*, int, int*))\n  \
             reduce_sum<double, 256>  (void reduce_sum<double, 256>(double*, double const*, int, int*))"
        );
        assert_eq!(
            ptx::find(&m, Some("reduce_sums<int,128>")).unwrap_err(),
            "no kernel `reduce_sums<int,128>` in the module (did you mean `reduce_sum<int, 128>`?); its kernels:\n  \
             reduce_sum<float, 256>  (void reduce_sum<float, 256>(float*, float const*, int, int*))\n  \
             reduce_sum<int, 128>  (void reduce_sum<int, 128>(int*, int const*, int, int*))\n  \
             reduce_sum<double, 256>  (void reduce_sum<double, 256>(double*, double const*, int, int*))"
        );
        let f = ptx::find(&m, Some("reduce_sum<double,256>")).expect("found");
        assert_eq!(f.name.name, "_Z10reduce_sumIdLi256EEvPT_PKS0_iPi");
        let e = describe_with_source(&m, f, file);
        assert_eq!(
            (e.name.qualified.as_str(), e.name.last.as_str(), e.name.short.as_str()),
            ("reduce_sum<double, 256>", "reduce_sum<double, 256>", "reduce_sum")
        );
        // The names come from the template's definition (`T *out, const T *in, …`), the types from the name.
        assert_eq!(
            arguments(&e),
            [
                arg("out", "double*", ptr(el(E::F64), false), 0..1),
                arg("in", "double const*", ptr(el(E::F64), true), 1..2),
                arg("n", "int", scalar(E::S32), 2..3),
                arg("nonzero_blocks", "int*", ptr(el(E::S32), false), 3..4),
            ]
        );
    }
}

#[test]
fn extern_c_kernels_take_their_types_from_the_source() {
    use ElemTy as E;
    let cases: [(&str, Vec<Arg>); 5] = [
        // Structs, a vector type and small integer pointers.
        (
            "w27_struct_params",
            vec![
                arg("p", "Params", ArgKind::Bytes { size: 24, align: 8 }, 0..1),
                arg("r", "Rect", ArgKind::Bytes { size: 8, align: 2 }, 1..2),
                arg("mask", "unsigned char*", ptr(Some(Scalar::U8), false), 2..3),
                arg("weights", "const short*", ptr(Some(Scalar::S16), true), 3..4),
                arg("offset", "int2", ArgKind::Bytes { size: 8, align: 8 }, 4..5),
            ],
        ),
        // `__launch_bounds__(256, 2)` between the return type and the name; `__restrict__`.
        (
            "w34_launch_bounds",
            vec![
                arg("y", "float* __restrict__", ptr(el(E::F32), false), 0..1),
                arg("x", "const float* __restrict__", ptr(el(E::F32), true), 1..2),
                arg("a", "float", scalar(E::F32), 2..3),
                arg("n", "int", scalar(E::S32), 3..4),
            ],
        ),
        // A `__half` by value: two bytes.
        (
            "w21_half_math",
            vec![
                arg("y", "__half*", ptr(None, false), 0..1),
                arg("x", "const __half*", ptr(None, true), 1..2),
                arg("a", "__half", ArgKind::Bytes { size: 2, align: 2 }, 2..3),
                arg("sum32", "float*", ptr(el(E::F32), false), 3..4),
                arg("n", "int", scalar(E::S32), 4..5),
            ],
        ),
        // 64-bit integers.
        (
            "w10_sum_u64",
            vec![
                arg("total", "unsigned long long*", ptr(el(E::U64), false), 0..1),
                arg("in", "const unsigned int*", ptr(el(E::U32), true), 1..2),
                arg("n", "long long", scalar(E::S64), 2..3),
            ],
        ),
        // `volatile int *flag`.
        (
            "w30_memory_order",
            vec![
                arg("partial", "float*", ptr(el(E::F32), false), 0..1),
                arg("total", "float*", ptr(el(E::F32), false), 1..2),
                arg("in", "const float*", ptr(el(E::F32), true), 2..3),
                arg("n", "int", scalar(E::S32), 3..4),
                arg("flag", "volatile int*", ptr(el(E::S32), false), 4..5),
            ],
        ),
    ];
    for (stem, want) in cases {
        for opt in ["O3", "G"] {
            let file = format!("cuda/{stem}.{opt}.ptx");
            let m = load(&file);
            let e = describe_with_source(&m, ptx::find(&m, None).expect("one kernel"), &file);
            assert_eq!(e.types_from, TypesFrom::Source, "{file}");
            assert_eq!(arguments(&e), want, "{file}");
        }
    }
}

#[test]
fn numba_arrays_and_scalars() {
    use ElemTy as E;
    let array = |elem: Option<Scalar>, ndim: usize, at: usize| {
        let count = 5 + 2 * ndim;
        (
            ArgKind::Array {
                elem,
                ndim,
                layout: "C".into(),
                mutable: true,
                params: ArrayParams {
                    meminfo: at,
                    parent: at + 1,
                    nitems: at + 2,
                    itemsize: at + 3,
                    data: at + 4,
                    shape: at + 5..at + 5 + ndim,
                    strides: at + 5 + ndim..at + count,
                },
            },
            at..at + count,
        )
    };
    let f32_2d = "Array<float, 2, C, mutable, aligned>";
    // Two 2-D arrays and a Python int.
    let m = load("numba/p04_map2d.map_2d.ptx");
    let f = ptx::find(&m, Some("map_2d")).expect("found");
    let e = describe_with_source(&m, f, "numba/p04_map2d.map_2d.ptx");
    let (out, out_params) = array(el(E::F32), 2, 0);
    let (a, a_params) = array(el(E::F32), 2, 9);
    assert_eq!(
        arguments(&e),
        [
            arg("out", f32_2d, out, out_params),
            arg("a", f32_2d, a, a_params),
            arg("size", "long long", scalar(E::S64), 18..19),
        ]
    );
    // The kernel reads the data pointers and the shapes (C layout: no strides), and the scalar.
    assert_eq!(params_read(f), BTreeSet::from([4, 5, 6, 13, 14, 15, 18]));
    assert_eq!(e.argument("size").map(|a| a.params.clone()), Ok(18..19));
    assert_eq!(
        ptx::find(&m, Some("map2d")).unwrap_err(),
        "no kernel `map2d` in the module (did you mean `map_2d`?); its kernels:\n  \
         map_2d  (p04_map2d::map_2d(Array<float, 2, C, mutable, aligned>, Array<float, 2, C, mutable, aligned>, long long))"
    );

    // 1-D arrays and an int32.
    let m = load("numba/p03_guard.map_guard.ptx");
    let e = describe_with_source(&m, ptx::find(&m, None).expect("one"), "numba/p03_guard.map_guard.ptx");
    let f32_1d = "Array<float, 1, C, mutable, aligned>";
    let (out, out_params) = array(el(E::F32), 1, 0);
    let (a, a_params) = array(el(E::F32), 1, 7);
    assert_eq!(
        arguments(&e),
        [
            arg("out", f32_1d, out, out_params),
            arg("a", f32_1d, a, a_params),
            arg("size", "int", scalar(E::S32), 14..15),
        ]
    );

    // bool, float64 and a tuple of two float64.
    let file = "numba/w03_more.flags_scalars.ptx";
    let m = load(file);
    let e = describe_with_source(&m, ptx::find(&m, Some("flags_scalars")).expect("one"), file);
    let f64_1d = "Array<double, 1, C, mutable, aligned>";
    let (out, out_params) = array(el(E::F64), 1, 0);
    let (a, a_params) = array(el(E::F64), 1, 7);
    assert_eq!(
        arguments(&e),
        [
            arg("out", f64_1d, out, out_params),
            arg("a", f64_1d, a, a_params),
            arg("negate", "bool", ArgKind::Scalar(Scalar::Bool), 14..15),
            arg("scale", "double", scalar(E::F64), 15..16),
            arg(
                "shift",
                "UniTuple<double, 2>",
                ArgKind::Tuple(vec![Scalar::Elem(E::F64); 2]),
                16..18
            ),
        ]
    );

    // Arrays of 8- and 16-bit integers.
    let file = "numba/w03_more.small_ints.ptx";
    let m = load(file);
    let e = describe_with_source(&m, ptx::find(&m, None).expect("one"), file);
    let elems: Vec<_> = e
        .arguments
        .iter()
        .map(|a| match &a.kind {
            ArgKind::Array { elem, .. } => (a.name.clone().unwrap(), *elem),
            k => panic!("{k:?}"),
        })
        .collect();
    assert_eq!(
        elems,
        [
            ("out".to_string(), Some(Scalar::S16)),
            ("a".to_string(), Some(Scalar::U8)),
            ("b".to_string(), Some(Scalar::S16))
        ]
    );
}

/// Numba never reads an array's `meminfo`, `parent` or `itemsize` in a kernel: every `.param` the corpus reads
/// is a data pointer, a shape, a stride, an element count or a scalar (a check of the descriptor layout).
#[test]
fn numba_kernels_read_only_data_shape_strides_nitems_and_scalars() {
    let mut data_read = 0;
    for file in corpus_files().iter().filter(|f| f.starts_with("numba/")) {
        let m = load(file);
        let f = ptx::find(&m, None).expect("one kernel");
        let e = describe_with_source(&m, f, file);
        let read = params_read(f);
        for a in &e.arguments {
            if let ArgKind::Array { params: p, .. } = &a.kind {
                for never in [p.meminfo, p.parent, p.itemsize] {
                    assert!(
                        !read.contains(&never),
                        "{file}: {} reads .param {never}",
                        e.name.display()
                    );
                }
                data_read += usize::from(read.contains(&p.data));
            }
        }
    }
    // The data pointers of the 39 kernels' arrays (each kernel reads at least one).
    assert!(data_read >= 39, "{data_read}");
}

/// A source cut anywhere (an unfinished edit, a file of another version) gives names that match or none, never a
/// panic; types from a mangled name do not depend on it.
#[test]
fn truncated_sources_never_panic() {
    for (file, source) in [
        ("cuda/w34_launch_bounds.O3.ptx", "w34_launch_bounds.cu"),
        ("cuda/w25_templated_reduce.G.ptx", "w25_templated_reduce.cu"),
        ("cuda/w27_struct_params.O3.ptx", "w27_struct_params.cu"),
        ("numba/w03_more.flags_scalars.ptx", "w03_more.py"),
    ] {
        let dir = file.split('/').next().unwrap();
        let text = std::fs::read_to_string(corpus_dir().join(dir).join(source)).expect("source");
        let m = load(file);
        let f = m.entries().next().expect("entry");
        let full = describe_with_source(&m, f, file);
        let full_names: Vec<_> = full.arguments.iter().map(|a| a.name.clone()).collect();
        let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        for &cut in &cuts {
            let part = &text[..cut];
            let e = ptx::describe(&m, f, &|_| Some(part.to_string()));
            let names: Vec<_> = e.arguments.iter().map(|a| a.name.clone()).collect();
            // All the names of the whole source, or none (a prefix may end inside the parameter list).
            let none = names.iter().all(Option::is_none);
            assert!(none || names == full_names, "{file} cut at {cut}: {names:?}");
            if e.name.origin != Origin::Plain {
                assert_eq!(e.types_from, TypesFrom::Signature, "{file} cut at {cut}");
            }
        }
    }
}

/// `source_beside`: the file of that name beside the `.ptx`, else the path as written (relative to the `.ptx`).
#[test]
fn sources_beside_the_ptx_or_as_written() {
    let dir = std::env::temp_dir().join(format!("warpsim-ptx-entry-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("src")).expect("temp dir");
    let ptx_text = |file: &str| {
        format!(
            ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{{\n\
             .loc 1 1 1\nret;\n}}\n.file 1 \"{file}\"\n"
        )
    };
    let names = |ptx_file: &str| {
        let path = dir.join(ptx_file);
        let m = ptx::parse(ptx_file, &std::fs::read_to_string(&path).expect("ptx"))
            .expect("parses")
            .0;
        let e = ptx::describe(&m, ptx::find(&m, None).expect("k"), &ptx::source_beside(&path));
        (e.arguments[0].name.clone(), e.source)
    };
    // Beside the .ptx, by file name (the directory written does not exist).
    std::fs::write(dir.join("a.ptx"), ptx_text("/nowhere/else/a.cu")).expect("write");
    std::fs::write(dir.join("a.cu"), "extern \"C\" __global__ void k(float *beside) {}").expect("write");
    assert_eq!(
        names("a.ptx"),
        (Some("beside".into()), Some("/nowhere/else/a.cu".into()))
    );
    // As written, relative to the .ptx.
    std::fs::write(dir.join("b.ptx"), ptx_text("src/b.cu")).expect("write");
    std::fs::write(
        dir.join("src/b.cu"),
        "extern \"C\" __global__ void k(float *written) {}",
    )
    .expect("write");
    assert_eq!(names("b.ptx"), (Some("written".into()), Some("src/b.cu".into())));
    // Neither: no names.
    std::fs::write(dir.join("c.ptx"), ptx_text("/nowhere/c.cu")).expect("write");
    assert_eq!(names("c.ptx"), (None, None));
    // A directory of that name is not a source.
    std::fs::create_dir_all(dir.join("d.cu")).expect("dir");
    std::fs::write(dir.join("d.ptx"), ptx_text("d.cu")).expect("write");
    assert_eq!(names("d.ptx"), (None, None));
    std::fs::remove_dir_all(&dir).expect("clean up");
}
