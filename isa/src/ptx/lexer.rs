//! The PTX lexer: the whole text into tokens, on demand. PTX is free-form (statements end with `;`, a `call`
//! may span several lines), so unlike the ISA's line lexer this one ignores line breaks.
//!
//! A token is its kind and its byte range; its text is read from the source when needed, so lexing allocates
//! nothing. Words run dots together (`ld.global.f32`, `%tid.x`, `.reg`, `isspacep.shared::cluster`), as the ISA's
//! lexer does: the parser splits an opcode from its qualifiers.

use crate::diagnostic::Diagnostic;
use crate::source::{FileId, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// An identifier, directive or dotted word: `ld.global.f32`, `.reg`, `%r1`, `%tid.x`, `$L__BB0_2`, `_`.
    Word,
    /// A number as written (`42`, `0x1F`, `0f3F800000`, `1.5e3`, `9.5`); the parser reads its value.
    Number,
    /// A string literal with its quotes.
    Str,
    Comma,
    Semi,
    Colon,
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Plus,
    Minus,
    Lt,
    Gt,
    Pipe,
    Bang,
    At,
    Eq,
    Eof,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokKind,
    pub start: u32,
    pub end: u32,
}

/// Whether `c` may start an identifier: PTX's `[a-zA-Z]` and `[_$%]` (followed by more), plus `.` for
/// directives.
fn word_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%'
}

fn word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

pub struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    file: FileId,
}

impl<'a> Lexer<'a> {
    pub fn new(file: FileId, text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            file,
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    /// Skip blanks and comments; an unterminated `/*` is an error.
    fn skip_trivia(&mut self) -> Result<(), Diagnostic> {
        let b = self.bytes;
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if b.get(self.pos) == Some(&b'/') {
                match b.get(self.pos + 1) {
                    Some(b'/') => {
                        self.pos = b[self.pos..]
                            .iter()
                            .position(|&c| c == b'\n')
                            .map_or(b.len(), |k| self.pos + k);
                        continue;
                    }
                    Some(b'*') => {
                        let start = self.pos;
                        match self.text[self.pos + 2..].find("*/") {
                            Some(k) => self.pos += 2 + k + 2,
                            None => {
                                return Err(Diagnostic::error(self.span(start, start + 2), "unterminated comment")
                                    .with_label("this `/*` is never closed")
                                    .with_help("close the comment with `*/`"));
                            }
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            return Ok(());
        }
    }

    /// The next token (`Eof` at the end, forever).
    pub fn next_token(&mut self) -> Result<Token, Diagnostic> {
        self.skip_trivia()?;
        let b = self.bytes;
        let start = self.pos;
        let tok = |kind, end: usize| Token {
            kind,
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        };
        let Some(&c) = b.get(start) else {
            return Ok(tok(TokKind::Eof, start));
        };
        // A word: identifiers, `%` registers, `.directives`, and dotted words. A dot continues the word only
        // when a word character follows it.
        if word_start(c) || (c == b'.' && b.get(start + 1).is_some_and(|&d| word_char(d))) {
            let mut j = start + 1;
            loop {
                if j < b.len() && (word_char(b[j]) || (b[j] == b'.' && b.get(j + 1).is_some_and(|&d| word_char(d)))) {
                    j += 1;
                } else if b.get(j..j + 2) == Some(b"::") && b.get(j + 2).is_some_and(|&d| word_char(d)) {
                    // A qualifier with a sub-qualifier: `.shared::cluster`, `.L2::cache_hint`.
                    j += 3;
                } else {
                    break;
                }
            }
            if c == b'%' && j == start + 1 {
                return Err(Diagnostic::error(self.span(start, start + 1), "`%` without a name")
                    .with_label("expected a register name after `%`")
                    .with_help("registers are written `%r1`, `%rd2`, `%p3`; special registers `%tid.x`"));
            }
            self.pos = j;
            return Ok(tok(TokKind::Word, j));
        }
        if c.is_ascii_digit() {
            let j = self.number_end(start);
            self.pos = j;
            return Ok(tok(TokKind::Number, j));
        }
        if c == b'"' {
            let mut j = start + 1;
            while j < b.len() && b[j] != b'"' && b[j] != b'\n' {
                j += if b[j] == b'\\' && j + 1 < b.len() && b[j + 1] != b'\n' {
                    2
                } else {
                    1
                };
            }
            if b.get(j) != Some(&b'"') {
                return Err(Diagnostic::error(self.span(start, j), "unterminated string")
                    .with_label("this string is never closed")
                    .with_help("close the string with `\"` on the same line"));
            }
            self.pos = j + 1;
            return Ok(tok(TokKind::Str, j + 1));
        }
        let kind = match c {
            b',' => TokKind::Comma,
            b';' => TokKind::Semi,
            b':' => TokKind::Colon,
            b'[' => TokKind::LBracket,
            b']' => TokKind::RBracket,
            b'(' => TokKind::LParen,
            b')' => TokKind::RParen,
            b'{' => TokKind::LBrace,
            b'}' => TokKind::RBrace,
            b'+' => TokKind::Plus,
            b'-' => TokKind::Minus,
            b'<' => TokKind::Lt,
            b'>' => TokKind::Gt,
            b'|' => TokKind::Pipe,
            b'!' => TokKind::Bang,
            b'@' => TokKind::At,
            b'=' => TokKind::Eq,
            _ => {
                let ch = self.text[start..].chars().next().unwrap_or('?');
                return Err(Diagnostic::error(
                    self.span(start, start + ch.len_utf8()),
                    format!("unexpected character `{}`", ch.escape_debug()),
                )
                .with_label("not part of PTX syntax")
                .with_help("PTX statements end with `;`, comments start with `//` or `/*`; see docs/ptx.md"));
            }
        };
        self.pos = start + 1;
        Ok(tok(kind, start + 1))
    }

    /// The end of a number starting at `i`: hex, binary and float-bit forms run over letters and digits; a
    /// decimal may have a fraction and an exponent with its sign. Whatever word characters follow are part of
    /// it (and make it invalid, which the parser reports with the whole text).
    fn number_end(&self, i: usize) -> usize {
        let b = self.bytes;
        let mut j = i;
        let prefixed = b[i] == b'0'
            && b.get(i + 1)
                .is_some_and(|c| matches!(c, b'x' | b'X' | b'b' | b'B' | b'f' | b'F' | b'd' | b'D'));
        if !prefixed {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
                j += 1;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
            } else if b.get(j) == Some(&b'.') && !b.get(j + 1).is_some_and(|&c| word_char(c)) {
                // `1.` is a float.
                j += 1;
            }
            if matches!(b.get(j), Some(b'e' | b'E')) {
                let mut k = j + 1;
                if matches!(b.get(k), Some(b'+' | b'-')) {
                    k += 1;
                }
                if b.get(k).is_some_and(u8::is_ascii_digit) {
                    j = k;
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                }
            }
        }
        while j < b.len() && word_char(b[j]) {
            j += 1;
        }
        j
    }

    /// The text of a token.
    pub fn text(&self, t: Token) -> &'a str {
        &self.text[t.start as usize..t.end as usize]
    }
}
