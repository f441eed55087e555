//! Data files through `sim`: `--input NAME=FILE` gives a buffer the contents of a `.npy`, `.bin` or `.json` file
//! (the same run as the same values written inline), `--save NAME=FILE` writes a buffer after the run (exactly
//! the expected bytes; nothing at all when the run fails), and every format reads back what it wrote.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A folder of its own for each test, removed at the end.
struct Dir(PathBuf);

impl Dir {
    fn new(test: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("warpsim-data-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Dir(dir)
    }

    fn write(&self, name: &str, contents: impl AsRef<[u8]>) {
        std::fs::write(self.0.join(name), contents).expect("write input");
    }

    fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.0.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// Every file in the folder, hidden ones (temporary files) included.
    fn listing(&self) -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(&self.0)
            .expect("listing")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        out.sort();
        out
    }

    fn sim(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_sim"))
            .current_dir(&self.0)
            .args(args)
            .env("NO_COLOR", "1")
            .env_remove("RUST_BACKTRACE")
            .output()
            .expect("run sim")
    }

    /// `sim ARGS`, which must succeed: its stdout.
    fn ok(&self, args: &[&str]) -> String {
        let o = self.sim(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "sim {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The bytes NumPy 2 writes for `np.save(f, a)` of a 1-D array of `n` elements of `descr` (format 1.0, the header
/// padded with spaces to a multiple of 64 bytes), with npyz's `(n, )` for NumPy's `(n,)`, which Python reads alike.
fn npy_header(descr: &str, n: usize) -> Vec<u8> {
    let dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({n}, ), }}");
    let mut header = dict.into_bytes();
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(b' ');
    }
    header.push(b'\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend(u16::try_from(header.len()).unwrap().to_le_bytes());
    out.extend(header);
    out
}

/// Copies `a` into `b` (f32, s32 or u32) and `a`'s sum by block into `s`: what it reads shows in its outputs.
fn copy_program(ty: &str, n: usize, init: &str) -> String {
    format!(
        ".param n = {n}\n.grid (n + 31) / 32\n.block 32\n.buffer a {ty}[n]{init}\n.buffer b {ty}[n]\n.reg %g, %v\n.pred %in\n\
         \x20   mad.lo.u32 %g, %ctaid.x, %ntid.x, %tid.x\n    setp.lt.u32 %in, %g, n\n    @!%in exit\n\
         \x20   ld.global.{ty} %v, a[%g]\n    st.global.{ty} b[%g], %v\n"
    )
}

/// The same values from a file as written inline give the same run: every buffer, cycle and statistic.
#[test]
fn a_file_gives_the_same_run_as_the_same_values_inline() {
    let dir = Dir::new("inline");
    let values: Vec<u32> = (0..100u32).map(|i| i * 7919 % 1013).collect();
    let list = values.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
    dir.write("inline.s", copy_program("u32", 100, &format!(" = 0, [0..] = [{list}]")));
    dir.write("plain.s", copy_program("u32", 100, " = i"));
    dir.write("v.bin", le(&values));
    dir.write("v.json", format!("[{list}]"));
    let inline = dir.ok(&["run", "inline.s", "--format", "json"]);
    let mut doc: serde_json::Value = serde_json::from_str(&inline).unwrap();
    assert_eq!(doc["buffers"]["b"], serde_json::json!(values));
    for file in ["v.bin", "v.json"] {
        let from_file = dir.ok(&["run", "plain.s", "--format", "json", "--input", &format!("a={file}")]);
        let mut other: serde_json::Value = serde_json::from_str(&from_file).unwrap();
        // The program's name is its file's, and so is the source of each instruction's cycles.
        doc["program"] = other["program"].clone();
        for d in [&mut doc, &mut other] {
            for l in d["stats"]["lines"].as_array_mut().expect("stats.lines") {
                l["source"] = serde_json::Value::Null;
            }
        }
        assert_eq!(other, doc, "{file}");
    }
}

/// `--save` writes exactly the bytes of each format; each reads back through `--input` to the same run.
#[test]
fn save_writes_exact_bytes_and_every_format_round_trips() {
    let dir = Dir::new("save");
    let f32s = [0.1f32, -0.0, 1e30, f32::MIN_POSITIVE, -2.5, 3.0].map(f32::to_bits);
    let cases: [(&str, Vec<u32>, &str, &str); 3] = [
        (
            "u32",
            vec![0, 1, u32::MAX, 0x8000_0000, 42, 7],
            "<u4",
            "[0,1,4294967295,2147483648,42,7]\n",
        ),
        (
            "s32",
            [0i32, -1, i32::MIN, i32::MAX, 42, -7].map(i32::cast_unsigned).to_vec(),
            "<i4",
            "[0,-1,-2147483648,2147483647,42,-7]\n",
        ),
        (
            "f32",
            f32s.to_vec(),
            "<f4",
            "[0.10000000149011612,-0.0,1.0000000150474662e+30,1.1754943508222875e-38,-2.5,3.0]\n",
        ),
    ];
    for (ty, values, descr, json) in cases {
        dir.write(&format!("{ty}.s"), copy_program(ty, 6, ""));
        dir.write("in.bin", le(&values));
        let program = format!("{ty}.s");
        dir.ok(&[
            "run",
            &program,
            "--input",
            "a=in.bin",
            "--save",
            "b=out.npy",
            "--save",
            "b=out.bin",
            "--save",
            "b=out.json",
        ]);
        let mut npy = npy_header(descr, 6);
        npy.extend(le(&values));
        assert_eq!(dir.read("out.npy"), npy, "{ty}");
        assert_eq!(dir.read("out.bin"), le(&values), "{ty}");
        assert_eq!(String::from_utf8(dir.read("out.json")).unwrap(), json, "{ty}");
        for format in ["npy", "bin", "json"] {
            let again = format!("again.{format}");
            dir.ok(&[
                "run",
                &program,
                "--input",
                &format!("a=out.{format}"),
                "--save",
                &format!("b={again}"),
            ]);
            assert_eq!(dir.read(&again), dir.read(&format!("out.{format}")), "{ty} {format}");
        }
    }
    assert!(dir.listing().iter().all(|f| !f.starts_with('.')), "{:?}", dir.listing());
}

/// A `.npy` of two dimensions in Fortran order and big-endian: the buffer holds the array row by row.
#[test]
fn npy_of_any_order_and_byte_order_is_read_row_major() {
    let dir = Dir::new("order");
    dir.write("copy.s", copy_program("u32", 6, ""));
    // a = [[0, 1, 2], [3, 4, 5]] as '>u4' in Fortran order: stored column by column, 0 3 1 4 2 5, big-endian.
    let dict = "{'descr': '>u4', 'fortran_order': True, 'shape': (2, 3), }";
    let mut header = format!("{dict:<117}").into_bytes();
    header.push(b'\n');
    let mut file = b"\x93NUMPY\x01\x00".to_vec();
    file.extend(u16::try_from(header.len()).unwrap().to_le_bytes());
    file.extend(header);
    file.extend([0u32, 3, 1, 4, 2, 5].iter().flat_map(|v| v.to_be_bytes()));
    dir.write("f.npy", file);
    dir.ok(&["run", "copy.s", "--input", "a=f.npy", "--save", "b=out.bin"]);
    assert_eq!(dir.read("out.bin"), le(&[0, 1, 2, 3, 4, 5]));
}

/// block_reduce over 2^16 elements from a `.npy` (512 blocks): every block's sum, exactly.
#[test]
fn a_large_input_runs_from_a_file() {
    let dir = Dir::new("large");
    let n = 1usize << 16;
    let values: Vec<u32> = (0..1u32 << 16).map(|i| i.wrapping_mul(2_654_435_761) >> 12).collect();
    let mut npy = npy_header("<u4", n);
    npy.extend(le(&values));
    dir.write("big.npy", &npy);
    dir.ok(&[
        "run",
        "block_reduce",
        "--set",
        "n=65536",
        "--input",
        "in=big.npy",
        "--save",
        "out=sums.npy",
    ]);
    let sums: Vec<u32> = values
        .chunks(128)
        .map(|c| c.iter().fold(0u32, |s, v| s.wrapping_add(*v)))
        .collect();
    let mut expected = npy_header("<u4", 512);
    expected.extend(le(&sums));
    assert_eq!(dir.read("sums.npy"), expected);
    // `sim bench` reads and saves the same way.
    dir.ok(&[
        "bench",
        "block_reduce",
        "--set",
        "n=65536",
        "--input",
        "in=big.npy",
        "--save",
        "out=bench.npy",
    ]);
    assert_eq!(dir.read("bench.npy"), expected);
}

/// A run that faults, or whose `--check` finds a problem, saves nothing: no file, no temporary file; a file of
/// the same name is left as it was.
#[test]
fn a_failed_run_saves_nothing() {
    let dir = Dir::new("fault");
    dir.write(
        "fault.s",
        ".buffer a u32[4] = i\n.buffer b u32[4]\n.block 32\n.reg %v\n    ld.global.u32 %v, a[%tid.x]\n    st.global.u32 b[%tid.x], %v\n",
    );
    dir.write("keep.npy", b"old contents");
    let before = dir.listing();
    let o = dir.sim(&["run", "fault.s", "--save", "b=new.npy", "--save", "a=keep.npy"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: out-of-bounds"), "{err}");
    assert!(!err.contains("wrote"), "{err}");
    assert_eq!(dir.listing(), before);
    assert_eq!(dir.read("keep.npy"), b"old contents");
    // A race found by --check: exit 1, nothing saved.
    dir.write(
        "race.s",
        ".buffer out u32[1]\n.shared s u32[1]\n.block 64\n.reg %v\n    st.shared.u32 s[0], %tid.x\n    ld.shared.u32 %v, s[0]\n    st.global.u32 out[0], %v\n",
    );
    let before = dir.listing();
    let o = dir.sim(&["run", "race.s", "--check", "race", "--save", "out=race.npy"]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(dir.listing(), before);
}
