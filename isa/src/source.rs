//! Source files and spans.
//!
//! Every token the assembler reads carries a [`Span`]: which file, which bytes. Spans survive macro expansion
//! and `.include`, so a diagnostic or a runtime fault can always point at the text a person wrote.

use std::fmt;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// Offsets past 4 GiB (text given to [`parse`](crate::parse) directly; files are read up to 8 MiB) saturate.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    /// The smallest span covering both (same file assumed; otherwise `self`).
    #[must_use]
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// One loaded source file.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The name shown in diagnostics: a path as the user gave it, or `programs/NAME.s` for a shipped program.
    pub name: String,
    pub text: String,
    /// Built into the program that assembles it (a shipped file), not read from disk.
    pub embedded: bool,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            name: name.into(),
            text,
            embedded: false,
            line_starts,
        }
    }

    /// A file built into the binary (its includes resolve among the built-in files).
    pub fn embedded(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            embedded: true,
            ..SourceFile::new(name, text)
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let end = offset.min(self.text.len());
        let col = self.text[start..end].chars().count() + 1;
        (line + 1, col)
    }

    /// The byte range of 1-based line `line`, without its newline (`None` past the last line).
    pub fn line_range(&self, line: usize) -> Option<(usize, usize)> {
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        let end = self.line_starts.get(line).map(|e| e - 1).unwrap_or(self.text.len());
        let text = &self.text[start..end];
        Some((start, start + text.trim_end_matches('\r').len()))
    }

    /// The text of 1-based line `line`, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line - 1];
        let end = self.line_starts.get(line).map(|e| e - 1).unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches('\r')
    }
}

/// All files of one assembly: the main file and its includes.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    pub fn add(&mut self, file: SourceFile) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).expect("fewer than 2^32 source files"));
        self.files.push(file);
        id
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        (0..).zip(&self.files).map(|(i, f)| (FileId(i), f))
    }

    /// `file:line:col` of the start of a span.
    pub fn location(&self, span: Span) -> Location<'_> {
        let file = self.file(span.file);
        let (line, col) = file.line_col(span.start as usize);
        Location {
            file: &file.name,
            line,
            col,
        }
    }

    /// The source text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        let text = &self.file(span.file).text;
        text.get(span.start as usize..span.end as usize).unwrap_or("")
    }
}

/// A printable `file:line:col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location<'a> {
    pub file: &'a str,
    pub line: usize,
    pub col: usize,
}

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}
