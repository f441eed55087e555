//! A launch's buffer contents (`Launch::contents`): they replace the initialiser exactly, and contents of the
//! wrong length, for no buffer or given twice are load errors that name the buffer and what it should be.

use warpsim::data::{Format, decode, encode};
use warpsim::{Config, Contents, Launch, LoadError, Machine, NoTrace, RunOptions, programs};

fn machine() -> Machine {
    Machine::new(Config::hopper().with_warp_size(32)).unwrap()
}

fn contents(buffer: &str, data: Vec<u32>) -> Contents {
    Contents {
        buffer: buffer.into(),
        data,
        origin: "`in.npy`".into(),
    }
}

fn launch(set: &[(&str, i64)], given: Vec<Contents>) -> Launch {
    Launch {
        set: set
            .iter()
            .map(|(n, v)| ((*n).to_string(), warpsim_isa::Value::Int(*v)))
            .collect(),
        contents: given,
        ..Launch::default()
    }
}

fn error(program: &warpsim_isa::Program, launch: &Launch) -> String {
    match machine().load(program, launch) {
        Ok(_) => panic!("loads"),
        Err(e) => e.render(program, false),
    }
}

/// block_reduce over contents given with the launch gives the same sums as the same values written by its
/// initialiser, and as the sums computed here.
#[test]
fn contents_replace_the_initialiser() {
    let program = programs::assemble("block_reduce").unwrap().unwrap();
    let m = machine();
    let values: Vec<u32> = (0..1000u32).map(|i| i * 7919 % 1009).collect();
    let given = m
        .load(&program, &launch(&[("n", 1000)], vec![contents("in", values.clone())]))
        .unwrap();
    assert_eq!(given.buffer("in").unwrap().data, values);
    let out = m.run(&given, &RunOptions::default(), &mut NoTrace).unwrap();
    let expected: Vec<u32> = values.chunks(128).map(|c| c.iter().sum()).collect();
    assert_eq!(out.buffer("out").unwrap().data, expected);
    // The initialiser `= i` and contents 0..n: the same kernel, bit for bit.
    let by_init = m.load(&program, &launch(&[("n", 1000)], vec![])).unwrap();
    let identity = m
        .load(
            &program,
            &launch(&[("n", 1000)], vec![contents("in", (0..1000).collect())]),
        )
        .unwrap();
    assert_eq!(by_init.buffers, identity.buffers);
    // Through the data formats: every format decodes to the same launch.
    for format in Format::ALL {
        let bytes = encode(format, warpsim_isa::ElemTy::U32, &values);
        let data = decode(format, &bytes, warpsim_isa::ElemTy::U32).unwrap();
        let k = m
            .load(&program, &launch(&[("n", 1000)], vec![contents("in", data)]))
            .unwrap();
        assert_eq!(k.buffer("in").unwrap().data, values, "{format:?}");
    }
}

#[test]
fn contents_of_the_wrong_length_name_the_buffer_and_the_fix() {
    let program = programs::assemble("block_reduce").unwrap().unwrap();
    let e = error(&program, &launch(&[("n", 1024)], vec![contents("in", vec![0; 1000])]));
    let first = e.lines().next().unwrap();
    assert_eq!(
        first,
        "error: `in.npy` has 1000 elements, but buffer `in` is u32[n] with n = 1024"
    );
    assert!(
        e.contains("help: run with `--set n=1000` to make the buffer as long as `in.npy`"),
        "{e}"
    );
    // A length of several parameters: what it is made of, no `--set` to guess.
    let e = error(&program, &launch(&[("n", 300)], vec![contents("out", vec![0; 2])]));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: `in.npy` has 2 elements, but buffer `out` is u32[(n + threads - 1) / threads] with n = 300, threads = 128"
    );
    assert!(e.contains("help: give exactly 3 elements"), "{e}");
    let literal = warpsim_isa::parse("lit", ".buffer a f32[4]\n    nop\n", &programs::Resolver).unwrap();
    let e = error(&literal, &launch(&[], vec![contents("a", vec![0; 5])]));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: `in.npy` has 5 elements, but buffer `a` is f32[4]"
    );
    let w = warpsim_isa::parse("w", ".buffer a s32[W * 2]\n    nop\n", &programs::Resolver).unwrap();
    let e = error(&w, &launch(&[], vec![contents("a", vec![])]));
    assert_eq!(
        e.lines().next().unwrap(),
        "error: `in.npy` has 0 elements, but buffer `a` is s32[W * 2] with 64 elements"
    );
}

#[test]
fn contents_for_no_buffer_or_twice_are_refused() {
    let program = programs::assemble("block_reduce").unwrap().unwrap();
    let usage = |l: &Launch| match machine().load(&program, l) {
        Err(LoadError::Usage(m)) => m,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        usage(&launch(&[], vec![contents("inn", vec![])])),
        "`in.npy`: `block_reduce` has no buffer `inn`; did you mean `in`?"
    );
    assert_eq!(
        usage(&launch(&[], vec![contents("zzz", vec![])])),
        "`in.npy`: `block_reduce` has no buffer `zzz`; its buffers are: in, out"
    );
    let twice = vec![
        contents("in", vec![0; 128]),
        Contents {
            origin: "`b.bin`".into(),
            ..contents("in", vec![0; 128])
        },
    ];
    assert_eq!(
        usage(&launch(&[], twice)),
        "buffer `in` is given two contents: `in.npy` and `b.bin`"
    );
}
