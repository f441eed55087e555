//! Diagnostics in the style of rustc: `error: …`, `--> file:line:col`, the source line with a caret, a label,
//! and `help:`/`note:` footers. Rendering uses `annotate-snippets`, the renderer rustc itself uses.

use crate::source::{SourceMap, Span};
use annotate_snippets::{Level, Renderer, Snippet};
use std::borrow::Cow;
use std::fmt::Write as _;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in a program, with where it is and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// Short text under the caret.
    pub label: String,
    pub help: Option<String>,
    /// Extra context, e.g. "in this expansion of macro `warp_max`", with its own span.
    pub notes: Vec<(String, Option<Span>)>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            help: None,
            notes: Vec::new(),
        }
    }

    /// A warning: something that works but is likely wrong (rendered `warning: …`).
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }

    #[must_use]
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>, span: Option<Span>) -> Diagnostic {
        self.notes.push((note.into(), span));
        self
    }

    /// Render for a terminal; `color` adds ANSI styles.
    pub fn render(&self, sources: &SourceMap, color: bool) -> String {
        let renderer = if color { Renderer::styled() } else { Renderer::plain() };
        let mut out = String::new();
        let level = match self.severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        };
        // Everything shown comes from the program's text, or names from it: no control character (a terminal
        // escape in a hostile file) reaches the terminal.
        let (title, label) = (printable(&self.message), printable(&self.label));
        let main = snippet(sources, self.span);
        let mut message = level.title(&title).snippet(main.snippet(level, &label));
        let notes: Vec<(Cow<str>, Option<LineSnippet>)> = self
            .notes
            .iter()
            .map(|(text, span)| (printable(text), span.map(|s| snippet(sources, s))))
            .collect();
        for (text, s) in &notes {
            if s.is_none() {
                message = message.footer(Level::Note.title(text));
            }
        }
        let help = self.help.as_deref().map(printable);
        if let Some(help) = &help {
            message = message.footer(Level::Help.title(help));
        }
        let _ = writeln!(out, "{}", renderer.render(message));
        for (text, s) in &notes {
            if let Some(s) = s {
                let note = Level::Note.title(text).snippet(s.snippet(Level::Note, ""));
                let _ = writeln!(out, "{}", renderer.render(note));
            }
        }
        out
    }
}

/// Whether `c` is kept out of rendered text: control characters (C0 but tab and newline, DEL, C1), which
/// could move the cursor, recolour or retitle a terminal, or hide text (a carriage return).
fn hidden(c: char) -> bool {
    c.is_control() && c != '\t' && c != '\n'
}

/// `text` with each control character written as an escape (`\u{1b}`), as the lexer's messages write them.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether `c` is a space other than the ASCII one: a tab, or a no-break, ideographic, line-separator, … space.
/// annotate-snippets counts a tab as no column under the line but as four in the indentation it trims, and such
/// spaces as wide as Unicode says: the caret went in the wrong place and, on a long indented line, the renderer
/// panicked (`attempt to subtract with overflow` in its margin computation; found by fuzzing).
fn spacing(c: char) -> bool {
    c.is_whitespace() && c != ' ' && c != '\n' && !hidden(c)
}

/// A source line as shown under a diagnostic: each control character replaced by one visible character (its
/// Unicode control picture, `␛` for escape, or `�`), a tab by a space, any other space but the ASCII one by
/// `␣`, and the byte range `start..end` moved with the text. A trailing carriage return (a CRLF file) is dropped.
fn shown_line(line: &str, start: usize, end: usize) -> (Cow<'_, str>, usize, usize) {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if !line.chars().any(|c| hidden(c) || spacing(c)) {
        return (Cow::Borrowed(line), start.min(line.len()), end.min(line.len()));
    }
    let (mut out, mut new_start, mut new_end) = (String::with_capacity(line.len() + 8), None, None);
    for (k, c) in line.char_indices() {
        if k >= start && new_start.is_none() {
            new_start = Some(out.len());
        }
        if k >= end && new_end.is_none() {
            new_end = Some(out.len());
        }
        out.push(match c as u32 {
            // A multi-line span of a CRLF file: the line break is shown as it is.
            0x0d if line.as_bytes().get(k + 1) == Some(&b'\n') => continue,
            n @ 0..=0x1f if hidden(c) => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
            0x7f => '\u{2421}',
            _ if hidden(c) => '\u{fffd}',
            // A tab is one column (as the reported column counts it); any other space, which the assembler does
            // not take for one, is shown as `␣`.
            0x09 => ' ',
            _ if spacing(c) => '\u{2423}',
            _ => c,
        });
    }
    let len = out.len();
    (Cow::Owned(out), new_start.unwrap_or(len), new_end.unwrap_or(len))
}

/// A span that starts in the indentation of a line with text on it (the line limit's error points at a line's start)
/// starts at the text instead: annotate-snippets panics on a long line whose span starts left of its
/// indentation (`attempt to subtract with overflow`).
fn past_indentation(text: &str, start: usize, end: usize) -> (usize, usize) {
    let first = text.split('\n').next().unwrap_or("");
    let indent = first.len() - first.trim_start().len();
    if start < indent && indent < first.len() {
        (indent, end.max(indent))
    } else {
        (start, end)
    }
}

/// The line(s) a span covers, ready to render.
struct LineSnippet<'a> {
    source: Cow<'a, str>,
    line: usize,
    origin: Cow<'a, str>,
    range: std::ops::Range<usize>,
}

impl LineSnippet<'_> {
    fn snippet<'s>(&'s self, level: Level, label: &'s str) -> Snippet<'s> {
        Snippet::source(&self.source)
            .line_start(self.line)
            .origin(&self.origin)
            .fold(false)
            .annotation(level.span(self.range.clone()).label(label))
    }
}

/// A snippet of just the line(s) the span covers, so large files render quickly.
fn snippet(sources: &SourceMap, span: Span) -> LineSnippet<'_> {
    let file = sources.file(span.file);
    let (line, _) = file.line_col(span.start as usize);
    let (end_line, _) = file.line_col(span.end as usize);
    let text = &file.text;
    let line_start = text[..(span.start as usize).min(text.len())]
        .rfind('\n')
        .map(|i| i + 1)
        .unwrap_or(0);
    let line_end = text[(span.end as usize).min(text.len())..]
        .find('\n')
        .map(|i| i + span.end as usize)
        .unwrap_or(text.len());
    let _ = end_line;
    let source = &text[line_start..line_end];
    let start = (span.start as usize).saturating_sub(line_start).min(source.len());
    let mut end = (span.end as usize).saturating_sub(line_start).min(source.len());
    if end <= start {
        // An empty span (e.g. "expected an operand" at the end of a line): point at one column.
        end = start;
    }
    let (source, start, end) = shown_line(source, start, end);
    let (start, end) = past_indentation(&source, start, end);
    LineSnippet {
        source,
        line,
        origin: printable(&file.name),
        range: start..end,
    }
}

/// Render a list of diagnostics, followed by a summary line like rustc's.
pub fn render_all(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&d.render(sources, color));
        out.push('\n');
    }
    let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
    if errors > 1 {
        let _ = writeln!(out, "error: could not assemble: {errors} errors");
    } else if errors == 1 {
        let _ = writeln!(out, "error: could not assemble: 1 error");
    }
    out
}

/// The closest candidate to `word` by edit distance, if it is close enough to be a plausible typo. Ties go to
/// the candidate of the most similar length, so a transposition (`shlf` → `shfl`) beats a deletion (`shl`),
/// then to the first by name, so the answer never depends on the order of the candidates.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = word.chars().count();
    let mut best: Option<(&str, (usize, usize, &str))> = None;
    for c in candidates {
        let d = strsim::damerau_levenshtein(word, c);
        let clen = c.chars().count();
        let limit = (len.max(clen) / 3).max(1);
        let key = (d, len.abs_diff(clen), c);
        if d <= limit && best.is_none_or(|(_, bk)| key < bk) {
            best = Some((c, key));
        }
    }
    best.map(|(c, _)| c)
}
