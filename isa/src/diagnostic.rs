//! Diagnostics in the style of rustc: `error: …`, `--> file:line:col`, the source line with a caret, a label,
//! and `help:`/`note:` footers. Rendering uses `annotate-snippets`, the renderer rustc itself uses.

use crate::source::{SourceMap, Span};
use annotate_snippets::{Level, Renderer, Snippet};
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

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

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
        let main = snippet(sources, self.span, level, &self.label);
        let mut message = level.title(&self.message).snippet(main.snippet);
        let mut note_snippets = Vec::new();
        for (text, span) in &self.notes {
            match span {
                Some(span) => note_snippets.push((text, snippet(sources, *span, Level::Note, ""))),
                None => message = message.footer(Level::Note.title(text)),
            }
        }
        if let Some(help) = &self.help {
            message = message.footer(Level::Help.title(help));
        }
        let _ = writeln!(out, "{}", renderer.render(message));
        for (text, s) in note_snippets {
            let note = Level::Note.title(text).snippet(s.snippet);
            let _ = writeln!(out, "{}", renderer.render(note));
        }
        out
    }
}

struct LineSnippet<'a> {
    snippet: Snippet<'a>,
}

/// A snippet of just the line(s) the span covers, so large files render quickly.
fn snippet<'a>(sources: &'a SourceMap, span: Span, level: Level, label: &'a str) -> LineSnippet<'a> {
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
    LineSnippet {
        snippet: Snippet::source(source)
            .line_start(line)
            .origin(&file.name)
            .fold(false)
            .annotation(level.span(start..end).label(label)),
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
