//! Data files: a buffer's contents as the bytes of a file, both ways, in three formats: NumPy's `.npy`, raw
//! little-endian `.bin` (the elements one after the other) and `.json` (an array of numbers).
//!
//! Everything here works on byte slices and returns errors as values: it opens no file, so the CLI (`sim run
//! --input`/`--save`), an embedder (a Python package) and a page in a browser (wasm) share it. A buffer's
//! contents are [`crate::Buffer::data`]'s 32-bit words: an element of 4 bytes is one word; a wider element
//! would be several, the lowest first (its little-endian bytes, 4 at a time), which is how [`decode`] and
//! [`encode`] treat every element size, so a wider type is one row of [`DTYPES`] (and its JSON conversions).
//!
//! ```
//! use warpsim::data::{decode, encode, Format};
//! use warpsim_isa::ElemTy;
//! let npy = encode(Format::Npy, ElemTy::U32, &[1, 2, 3]);
//! assert_eq!(decode(Format::Npy, &npy, ElemTy::U32).unwrap(), vec![1, 2, 3]);
//! let json = decode(Format::Json, b"[[1.5, -2], [0.25, 3e38]]", ElemTy::F32).unwrap();
//! assert_eq!(json, [1.5f32, -2.0, 0.25, 3e38].map(f32::to_bits));
//! ```

use crate::kernel::to_elem;
use serde::de::{self, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use std::fmt;
use warpsim_isa::ElemTy;
use warpsim_isa::expr::Value;

/// A data file's format, chosen by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// NumPy's `.npy` (format versions 1 to 3): any shape, C or Fortran order, little- or big-endian.
    Npy,
    /// The elements' little-endian bytes, one after the other, and nothing else.
    Bin,
    /// A JSON array of numbers, arrays nested in it flattened in the order they are written.
    Json,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::Npy, Format::Bin, Format::Json];

    /// The extension, without its dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Npy => "npy",
            Format::Bin => "bin",
            Format::Json => "json",
        }
    }

    /// The format of a file named `path`, by its extension (in any case): `.npy`, `.bin` or `.json`.
    pub fn of_path(path: &str) -> Result<Format, DataError> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let ext = name
            .rsplit_once('.')
            .map(|(stem, ext)| (stem, ext.to_ascii_lowercase()));
        let found = match &ext {
            Some((stem, ext)) if !stem.is_empty() => {
                if let Some(f) = Format::ALL.into_iter().find(|f| f.extension() == ext) {
                    return Ok(f);
                }
                format!("`.{ext}` is not a data format warpsim reads or writes")
            }
            _ => format!("`{name}` has no extension to say its format"),
        };
        Err(DataError::new(found).with_help(
            "name the file `.npy` (NumPy's format), `.bin` (the elements' raw little-endian bytes) or `.json` (an \
             array of numbers)",
        ))
    }
}

/// Why bytes are not a buffer's contents: a message, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    pub message: String,
    pub help: Option<String>,
}

impl DataError {
    fn new(message: impl Into<String>) -> DataError {
        DataError {
            message: message.into(),
            help: None,
        }
    }

    fn with_help(mut self, help: impl Into<String>) -> DataError {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(h) = &self.help {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for DataError {}

/// A buffer element type as data files hold it.
pub struct Dtype {
    pub elem: ElemTy,
    /// NumPy's type code without the byte order (`u4`: `<u4` little-endian, `>u4` big-endian in a `.npy`).
    pub numpy: &'static str,
    /// NumPy's name for it (`uint32`).
    pub numpy_name: &'static str,
    /// Bytes per element: a multiple of 4, each 4 one word of [`crate::Buffer::data`], the lowest first.
    pub size: usize,
    /// A JSON number as the element's bits (in the low `size` bytes), by the rule of the program's initialisers
    /// ([`crate::kernel`]'s `to_elem`); `None`: it does not fit.
    from_value: fn(Value) -> Option<u64>,
    /// The element's bits as a JSON value.
    to_json: fn(u64) -> serde_json::Value,
}

#[allow(
    clippy::cast_possible_truncation,
    reason = "a 4-byte element's bits are the low 32 bits"
)]
fn low32(bits: u64) -> u32 {
    bits as u32
}

/// Every buffer element type, one row each: what a `.npy` must hold for it, its size, its JSON conversions.
pub const DTYPES: &[Dtype] = &[
    Dtype {
        elem: ElemTy::U32,
        numpy: "u4",
        numpy_name: "uint32",
        size: 4,
        from_value: |v| to_elem(v, ElemTy::U32),
        to_json: |bits| serde_json::json!(low32(bits)),
    },
    Dtype {
        elem: ElemTy::S32,
        numpy: "i4",
        numpy_name: "int32",
        size: 4,
        from_value: |v| to_elem(v, ElemTy::S32),
        to_json: |bits| serde_json::json!(low32(bits).cast_signed()),
    },
    Dtype {
        elem: ElemTy::F32,
        numpy: "f4",
        numpy_name: "float32",
        size: 4,
        from_value: |v| to_elem(v, ElemTy::F32),
        // Finite values exactly (as `--format json` writes them); NaN and infinities as their bits, `"0x7fc00000"`.
        to_json: |bits| crate::render::json::f32_value(low32(bits)),
    },
    Dtype {
        elem: ElemTy::U64,
        numpy: "u8",
        numpy_name: "uint64",
        size: 8,
        from_value: |v| to_elem(v, ElemTy::U64),
        to_json: |bits| serde_json::json!(bits),
    },
    Dtype {
        elem: ElemTy::S64,
        numpy: "i8",
        numpy_name: "int64",
        size: 8,
        from_value: |v| to_elem(v, ElemTy::S64),
        to_json: |bits| serde_json::json!(bits.cast_signed()),
    },
    Dtype {
        elem: ElemTy::F64,
        numpy: "f8",
        numpy_name: "float64",
        size: 8,
        from_value: |v| to_elem(v, ElemTy::F64),
        // As `--format json` writes them: finite values as numbers, NaN and infinities as `"0x…"` (16 digits).
        to_json: crate::render::json::f64_value,
    },
];

/// The row of [`DTYPES`] for `elem`.
pub fn dtype(elem: ElemTy) -> &'static Dtype {
    DTYPES
        .iter()
        .find(|d| d.elem == elem)
        .expect("every element type has a row in DTYPES")
}

/// The words of `bytes` read as `elem`s in `format`: every element, in order (a `.npy` of several dimensions
/// in row-major order, as NumPy's `a.ravel()`, whatever its file's order).
pub fn decode(format: Format, bytes: &[u8], elem: ElemTy) -> Result<Vec<u32>, DataError> {
    let d = dtype(elem);
    match format {
        Format::Bin => {
            if !bytes.len().is_multiple_of(d.size) {
                return Err(DataError::new(format!(
                    "{} bytes is not a whole number of {} elements ({} bytes each): {} bytes left over",
                    bytes.len(),
                    elem.name(),
                    d.size,
                    bytes.len() % d.size
                ))
                .with_help(format!(
                    "a `.bin` file holds the elements' little-endian bytes and nothing else (NumPy: \
                     `a.astype(np.{}).tofile(\"FILE.bin\")`)",
                    d.numpy_name
                )));
            }
            Ok(words(bytes, d.size, false))
        }
        Format::Npy => decode_npy(bytes, d),
        Format::Json => decode_json(bytes, d),
    }
}

/// `words` (a buffer's contents, elements of type `elem`) as the bytes of a file in `format`: a `.npy` of one
/// dimension, little-endian, that NumPy loads with the element's dtype (`np.load` gives `uint32` for a u32
/// buffer); the bare little-endian bytes; or a JSON array (f32 values exactly, NaN and infinities as the string
/// of their bits, as `sim run --format json` writes them), which [`decode`] reads back bit for bit.
pub fn encode(format: Format, elem: ElemTy, words: &[u32]) -> Vec<u8> {
    let d = dtype(elem);
    let bytes = || words.iter().flat_map(|w| w.to_le_bytes());
    match format {
        Format::Bin => bytes().collect(),
        Format::Npy => {
            use npyz::WriterBuilder;
            let count = (words.len() * 4 / d.size) as u64;
            let mut out = Vec::with_capacity(words.len() * 4 + 128);
            let dtype = npyz::DType::Plain(format!("<{}", d.numpy).parse().expect("a valid NumPy type string"));
            let header = npyz::WriteOptions::new_header_only()
                .dtype(dtype)
                .shape(&[count])
                .writer(&mut out)
                .write_header_only();
            header.expect("writing into a Vec cannot fail");
            out.extend(bytes());
            out
        }
        Format::Json => {
            let mut out = Vec::with_capacity(words.len() * 12 + 2);
            out.push(b'[');
            let all: Vec<u8> = bytes().collect();
            for (k, e) in all.chunks_exact(d.size).enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                let mut le = [0u8; 8];
                le[..d.size.min(8)].copy_from_slice(&e[..d.size.min(8)]);
                let v = (d.to_json)(u64::from_le_bytes(le));
                serde_json::to_writer(&mut out, &v).expect("writing into a Vec cannot fail");
            }
            out.extend_from_slice(b"]\n");
            out
        }
    }
}

/// Elements of `size` bytes (little-endian, or big-endian when `swap`) as words, each element's lowest first.
fn words(bytes: &[u8], size: usize, swap: bool) -> Vec<u32> {
    if !swap {
        return bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
    }
    let mut out = Vec::with_capacity(bytes.len() / 4);
    let mut le = [0u8; 16];
    for e in bytes.chunks_exact(size) {
        for (k, b) in e.iter().rev().enumerate() {
            le[k] = *b;
        }
        out.extend(
            le[..size]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
    }
    out
}

/// NumPy's name of a type code (`<i8` → `int64`), for messages.
fn numpy_name(t: &npyz::TypeStr) -> String {
    use npyz::TypeChar;
    let bits = t.size_field() * 8;
    match t.type_char() {
        TypeChar::Int => format!("int{bits}"),
        TypeChar::Uint => format!("uint{bits}"),
        TypeChar::Float => format!("float{bits}"),
        TypeChar::Complex => format!("complex{bits}"),
        TypeChar::Bool => "bool".into(),
        _ => format!("`{t}`"),
    }
}

fn decode_npy(bytes: &[u8], d: &Dtype) -> Result<Vec<u32>, DataError> {
    use npyz::{DType, Endianness, Order};
    let mut rest = bytes;
    let header = npyz::NpyHeader::from_reader(&mut rest).map_err(|e| {
        DataError::new(format!("not a NumPy `.npy` file: {e}"))
            .with_help("write it with NumPy's `np.save`, or name a raw little-endian file `.bin`")
    })?;
    let wanted = format!("`<{}`", d.numpy);
    let t = match header.dtype() {
        DType::Plain(t) => t,
        other => {
            return Err(DataError::new(format!(
                "the array holds records (dtype `{}`), not numbers; a {} buffer reads {} ({wanted})",
                other.descr(),
                d.elem.name(),
                d.numpy_name
            )));
        }
    };
    let fits = format!("{}{}", t.type_char(), t.size_field()) == d.numpy;
    if !fits {
        return Err(DataError::new(format!(
            "the array holds {} (`{t}`); a {} buffer reads {} ({wanted}, or big-endian `>{}`)",
            numpy_name(&t),
            d.elem.name(),
            d.numpy_name,
            d.numpy,
        ))
        .with_help(format!(
            "convert it in NumPy: `np.save(\"FILE.npy\", a.astype(np.{}))`",
            d.numpy_name
        )));
    }
    let shape = header.shape().to_vec();
    let count = shape.iter().try_fold(1u64, |n, &s| n.checked_mul(s));
    let data_bytes = count.and_then(|n| n.checked_mul(d.size as u64));
    if data_bytes != Some(rest.len() as u64) {
        return Err(DataError::new(format!(
            "the header says shape {} ({} elements of {} bytes), but {} bytes of data follow it",
            shape_text(&shape),
            count.map_or_else(|| "too many".into(), |n| n.to_string()),
            d.size,
            rest.len()
        ))
        .with_help("the file is truncated or damaged: write it again with `np.save`"));
    }
    let swap = t.endianness() == Endianness::Big;
    let data = words(rest, d.size, swap);
    if header.order() == Order::Fortran && shape.len() > 1 {
        return Ok(fortran_to_c(&data, &shape, d.size / 4));
    }
    Ok(data)
}

/// `(3, 4)`, `(5,)`, `()`: a shape as NumPy prints it.
fn shape_text(shape: &[u64]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Elements of `wpe` words stored in Fortran order (the first index fastest) for `shape`, in C order (the last
/// index fastest). One pass over the output, the source offset kept up to date as the index counts up.
fn fortran_to_c(data: &[u32], shape: &[u64], wpe: usize) -> Vec<u32> {
    #[allow(
        clippy::cast_possible_truncation,
        reason = "the shape's product is the number of elements in memory, a usize"
    )]
    let dims: Vec<usize> = shape.iter().map(|&s| s as usize).collect();
    // Fortran strides, in elements: dimension k moves by the product of the dimensions before it.
    let mut strides = vec![1usize; dims.len()];
    for k in 1..dims.len() {
        strides[k] = strides[k - 1] * dims[k - 1];
    }
    let mut out = Vec::with_capacity(data.len());
    if data.is_empty() {
        return out;
    }
    let mut index = vec![0usize; dims.len()];
    let mut at = 0usize;
    loop {
        out.extend_from_slice(&data[at * wpe..(at + 1) * wpe]);
        // Count up in C order: the last index first.
        let mut k = dims.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            index[k] += 1;
            at += strides[k];
            if index[k] < dims[k] {
                break;
            }
            at -= strides[k] * dims[k];
            index[k] = 0;
        }
    }
}

fn decode_json(bytes: &[u8], d: &'static Dtype) -> Result<Vec<u32>, DataError> {
    let mut out = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let parsed = de.deserialize_any(Top { out: &mut out, d }).and_then(|()| de.end());
    parsed.map_err(|e| {
        DataError::new(format!("{e}")).with_help(format!(
            "a `.json` input is an array of numbers (arrays in it are flattened in order), each fitting {}; f32 \
             bits may be written as a string, `\"0x7fc00000\"`",
            d.elem.name()
        ))
    })?;
    Ok(out)
}

/// The JSON document: an array.
struct Top<'a> {
    out: &'a mut Vec<u32>,
    d: &'static Dtype,
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of numbers")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        Items {
            out: self.out,
            d: self.d,
        }
        .visit_seq(seq)
    }
}

/// An element of the array: a number, a string of bits, or an array (flattened).
struct Items<'a> {
    out: &'a mut Vec<u32>,
    d: &'static Dtype,
}

impl Items<'_> {
    fn push<E: de::Error>(&mut self, v: Value, bits: Option<u64>) -> Result<(), E> {
        let k = self.out.len() * 4 / self.d.size;
        let Some(bits) = bits.or_else(|| (self.d.from_value)(v)) else {
            let why = match v {
                Value::Float(_) => "is not a whole number",
                Value::Int(_) => "is out of range",
            };
            return Err(E::custom(format!(
                "element {k}: {v} {why} for a {} buffer",
                self.d.elem.name()
            )));
        };
        let le = bits.to_le_bytes();
        let mut le16 = [0u8; 16];
        le16[..8].copy_from_slice(&le);
        self.out.extend(
            le16[..self.d.size]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Items<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a number (an element of a {} buffer) or an array",
            self.d.elem.name()
        )
    }
    fn visit_i64<E: de::Error>(mut self, v: i64) -> Result<(), E> {
        self.push(Value::Int(v), None)
    }
    fn visit_u64<E: de::Error>(mut self, v: u64) -> Result<(), E> {
        match i64::try_from(v) {
            Ok(i) => self.push(Value::Int(i), None),
            // Past i64: no integer element holds it; an f32 takes its nearest value.
            #[allow(clippy::cast_precision_loss, reason = "the nearest float is the point")]
            Err(_) => self.push(Value::Float(v as f64), None),
        }
    }
    fn visit_f64<E: de::Error>(mut self, v: f64) -> Result<(), E> {
        self.push(Value::Float(v), None)
    }
    fn visit_str<E: de::Error>(mut self, s: &str) -> Result<(), E> {
        let digits = s.strip_prefix("0x").filter(|h| h.len() == self.d.size * 2);
        match digits.and_then(|h| u64::from_str_radix(h, 16).ok()) {
            Some(bits) => self.push(Value::Int(0), Some(bits)),
            None => Err(E::custom(format!(
                "element {}: the string {s:?} is not a number; a string holds an element's bits: `0x` and {} hex \
                 digits",
                self.out.len() * 4 / self.d.size,
                self.d.size * 2
            ))),
        }
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(Items {
                out: &mut *self.out,
                d: self.d,
            })?
            .is_some()
        {}
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_extension() {
        assert_eq!(Format::of_path("a/b.NPY"), Ok(Format::Npy));
        assert_eq!(Format::of_path("x.bin"), Ok(Format::Bin));
        assert_eq!(Format::of_path("dir.v2/x.json"), Ok(Format::Json));
        assert_eq!(
            Format::of_path("x.txt").unwrap_err().message,
            "`.txt` is not a data format warpsim reads or writes"
        );
        assert_eq!(
            Format::of_path("dir.npy/x").unwrap_err().message,
            "`x` has no extension to say its format"
        );
        assert_eq!(
            Format::of_path(".npy").unwrap_err().message,
            "`.npy` has no extension to say its format"
        );
    }

    /// NumPy's own bytes for `np.save(f, np.array([1, 2, 3], dtype=np.uint32))` (NumPy 2.x, format 1.0): the
    /// header padded with spaces to 128 bytes, ending in a newline.
    fn numpy_u32_123() -> Vec<u8> {
        let dict = "{'descr': '<u4', 'fortran_order': False, 'shape': (3,), }";
        let mut header = format!("{dict:<117}").into_bytes();
        header.push(b'\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend(u16::try_from(header.len()).unwrap().to_le_bytes());
        out.extend(header);
        for v in [1u32, 2, 3] {
            out.extend(v.to_le_bytes());
        }
        out
    }

    #[test]
    fn npy_is_written_as_numpy_writes_it() {
        let ours = encode(Format::Npy, ElemTy::U32, &[1, 2, 3]);
        assert_eq!(ours.len(), 128 + 12);
        assert_eq!(&ours[..10], b"\x93NUMPY\x01\x00\x76\x00");
        let header = std::str::from_utf8(&ours[10..128]).unwrap();
        // npyz writes the tuple as `(3, )`, which Python reads as `(3,)`.
        assert_eq!(
            header.trim_end(),
            "{'descr': '<u4', 'fortran_order': False, 'shape': (3, ), }"
        );
        assert!(header.ends_with('\n'));
        assert_eq!(&ours[128..], &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
        assert_eq!(decode(Format::Npy, &numpy_u32_123(), ElemTy::U32), Ok(vec![1, 2, 3]));
        let f = encode(Format::Npy, ElemTy::F32, &[0.5f32.to_bits()]);
        assert!(
            std::str::from_utf8(&f[10..f.len() - 4])
                .unwrap()
                .contains("'descr': '<f4'")
        );
        let s = encode(Format::Npy, ElemTy::S32, &[]);
        assert!(
            std::str::from_utf8(&s[10..])
                .unwrap()
                .contains("'descr': '<i4', 'fortran_order': False, 'shape': (0, )")
        );
        assert_eq!(decode(Format::Npy, &s, ElemTy::S32), Ok(vec![]));
    }

    fn npy(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> Vec<u8> {
        let mut header = format!(
            "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}",
            if fortran { "True" } else { "False" }
        )
        .into_bytes();
        while (10 + header.len() + 1) % 64 != 0 {
            header.push(b' ');
        }
        header.push(b'\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend(u16::try_from(header.len()).unwrap().to_le_bytes());
        out.extend(header);
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn npy_big_endian_and_fortran_order() {
        let be: Vec<u8> = [1u32, 0x0102_0304].iter().flat_map(|v| v.to_be_bytes()).collect();
        assert_eq!(
            decode(Format::Npy, &npy(">u4", false, "(2,)", &be), ElemTy::U32),
            Ok(vec![1, 0x0102_0304])
        );
        // a = [[0, 1, 2], [3, 4, 5]] stored column by column: 0 3 1 4 2 5; the buffer is a.ravel().
        let f: Vec<u8> = [0i32, 3, 1, 4, 2, 5].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(
            decode(Format::Npy, &npy("<i4", true, "(2, 3)", &f), ElemTy::S32),
            Ok(vec![0, 1, 2, 3, 4, 5])
        );
        // Three dimensions (2, 2, 2): element [i][j][k] at i + 2j + 4k in the file.
        let f: Vec<u8> = (0..8u32)
            .map(|at| {
                let (i, j, k) = (at % 2, at / 2 % 2, at / 4);
                i * 4 + j * 2 + k
            })
            .flat_map(u32::to_le_bytes)
            .collect();
        assert_eq!(
            decode(Format::Npy, &npy("<u4", true, "(2, 2, 2)", &f), ElemTy::U32),
            Ok((0..8).collect::<Vec<_>>())
        );
        // C order of two dimensions: as stored.
        let c: Vec<u8> = (0..6u32).flat_map(u32::to_le_bytes).collect();
        assert_eq!(
            decode(Format::Npy, &npy("<u4", false, "(3, 2)", &c), ElemTy::U32),
            Ok((0..6).collect::<Vec<_>>())
        );
        // A scalar (shape ()) is one element.
        assert_eq!(
            decode(Format::Npy, &npy("<f4", false, "()", &2f32.to_le_bytes()), ElemTy::F32),
            Ok(vec![2f32.to_bits()])
        );
    }

    #[test]
    fn npy_errors() {
        let e = decode(Format::Npy, &npy("<i8", false, "(1,)", &[0; 8]), ElemTy::U32).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the array holds int64 (`<i8`); a u32 buffer reads uint32 (`<u4`, or big-endian `>u4`)\n  help: convert it \
             in NumPy: `np.save(\"FILE.npy\", a.astype(np.uint32))`"
        );
        let e = decode(Format::Npy, &npy("<f4", false, "(1,)", &[0; 4]), ElemTy::S32).unwrap_err();
        assert_eq!(
            e.message,
            "the array holds float32 (`<f4`); a s32 buffer reads int32 (`<i4`, or big-endian `>i4`)"
        );
        let e = decode(Format::Npy, &npy("<u4", false, "(3,)", &[0; 8]), ElemTy::U32).unwrap_err();
        assert_eq!(
            e.message,
            "the header says shape (3,) (3 elements of 4 bytes), but 8 bytes of data follow it"
        );
        let e = decode(Format::Npy, b"[1, 2]", ElemTy::U32).unwrap_err();
        assert!(e.message.starts_with("not a NumPy `.npy` file: "), "{e}");
        let e = decode(Format::Npy, &npy("|b1", false, "(1,)", &[1]), ElemTy::U32).unwrap_err();
        assert_eq!(
            e.message,
            "the array holds bool (`|b1`); a u32 buffer reads uint32 (`<u4`, or big-endian `>u4`)"
        );
    }

    #[test]
    fn bin_is_the_bare_bytes() {
        let words = [1u32, 0xdead_beef, 7];
        let b = encode(Format::Bin, ElemTy::U32, &words);
        assert_eq!(b, [1, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde, 7, 0, 0, 0]);
        assert_eq!(decode(Format::Bin, &b, ElemTy::U32), Ok(words.to_vec()));
        assert_eq!(decode(Format::Bin, &[], ElemTy::F32), Ok(vec![]));
        let e = decode(Format::Bin, &[0; 10], ElemTy::S32).unwrap_err();
        assert_eq!(
            e.message,
            "10 bytes is not a whole number of s32 elements (4 bytes each): 2 bytes left over"
        );
    }

    #[test]
    fn json_follows_the_initialisers_rules() {
        // Nested arrays flattened in order; integers exactly; f32 to nearest, as `.buffer x f32[..] = 0.1`.
        assert_eq!(
            decode(Format::Json, b" [[1, 2], [], [[3]], 4294967295] ", ElemTy::U32),
            Ok(vec![1, 2, 3, u32::MAX])
        );
        assert_eq!(
            decode(Format::Json, b"[-2147483648, 2147483647, -1]", ElemTy::S32),
            Ok(vec![0x8000_0000, 0x7fff_ffff, u32::MAX])
        );
        assert_eq!(
            decode(
                Format::Json,
                b"[0.1, 16777217, -0.0, 1e39, \"0x7fc00001\", 18446744073709551615]",
                ElemTy::F32
            ),
            Ok(vec![
                0.1f32.to_bits(),
                16_777_216f32.to_bits(),
                (-0.0f32).to_bits(),
                f32::INFINITY.to_bits(),
                0x7fc0_0001,
                1.844_674_4e19_f32.to_bits()
            ])
        );
        let err = |text: &[u8], elem| decode(Format::Json, text, elem).unwrap_err().message;
        assert_eq!(
            err(b"[1, 4294967296]", ElemTy::U32),
            "element 1: 4294967296 is out of range for a u32 buffer at line 1 column 14"
        );
        assert_eq!(
            err(b"[-1]", ElemTy::U32),
            "element 0: -1 is out of range for a u32 buffer at line 1 column 3"
        );
        assert_eq!(
            err(b"[[0], 1.5]", ElemTy::S32),
            "element 1: 1.5 is not a whole number for a s32 buffer at line 1 column 9"
        );
        assert_eq!(
            err(b"[1.0]", ElemTy::U32),
            "element 0: 1.0 is not a whole number for a u32 buffer at line 1 column 4"
        );
        assert_eq!(
            err(b"{\"a\": 1}", ElemTy::U32),
            "invalid type: map, expected an array of numbers at line 1 column 1"
        );
        assert_eq!(
            err(b"7", ElemTy::U32),
            "invalid type: integer `7`, expected an array of numbers at line 1 column 1"
        );
        assert_eq!(
            err(b"[1, null]", ElemTy::U32),
            "invalid type: null, expected a number (an element of a u32 buffer) or an array at line 1 column 8"
        );
        assert_eq!(
            err(b"[1, 2", ElemTy::U32),
            "EOF while parsing a list at line 1 column 5"
        );
        assert_eq!(err(b"[1] [2]", ElemTy::U32), "trailing characters at line 1 column 5");
        assert_eq!(
            err(b"[\"0x1\"]", ElemTy::F32),
            "element 0: the string \"0x1\" is not a number; a string holds an element's bits: `0x` and 8 hex digits at line 1 column 6"
        );
    }

    #[test]
    fn every_format_round_trips_bit_for_bit() {
        let f32s: Vec<u32> = [
            0.1f32,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e-45,
            f32::MAX,
        ]
        .iter()
        .map(|v| v.to_bits())
        .chain([0x7fc0_1234, 0xffff_ffff])
        .collect();
        let cases: [(ElemTy, Vec<u32>); 3] = [
            (ElemTy::F32, f32s),
            (ElemTy::S32, vec![0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff]),
            (ElemTy::U32, vec![0, 1, u32::MAX, 0x8000_0000, 12345]),
        ];
        for (elem, words) in cases {
            for format in Format::ALL {
                let bytes = encode(format, elem, &words);
                assert_eq!(decode(format, &bytes, elem), Ok(words.clone()), "{format:?} {elem:?}");
            }
        }
        assert_eq!(
            String::from_utf8(encode(
                Format::Json,
                ElemTy::F32,
                &[0.1f32.to_bits(), f32::NAN.to_bits(), 2f32.to_bits()]
            ))
            .unwrap(),
            "[0.10000000149011612,\"0x7fc00000\",2.0]\n"
        );
        assert_eq!(
            String::from_utf8(encode(Format::Json, ElemTy::S32, &[u32::MAX, 5])).unwrap(),
            "[-1,5]\n"
        );
    }
}
