//! The lexer: one source line at a time into tokens with spans.
//!
//! The ISA is line-oriented like PTX: one label, directive or instruction per line, `//` starts a comment and a
//! trailing `;` is allowed. Identifiers may contain dots (`shfl.sync.bfly.b32`, `%tid.x`), so an opcode and its
//! modifiers arrive as one token and the parser splits them.

use crate::source::{FileId, Span};

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// Identifier or dotted word: `add.f32`, `.kernel`, `loop`, `in`.
    Ident(String),
    /// `%name`: a register, predicate or special register.
    Reg(String),
    /// `\name`: a macro parameter inside a macro body.
    MacroArg(String),
    Int(i64),
    Float(f64),
    Str(String),
    Comma,
    Colon,
    LBracket,
    RBracket,
    LParen,
    RParen,
    /// `{` and `}`: the halves of a 64-bit value in `mov.b64`.
    LBrace,
    RBrace,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Pipe,
    Amp,
    Caret,
    Tilde,
    Shl,
    Shr,
    At,
    Bang,
    Eq,
    DotDot,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
}

impl Tok {
    /// How the token reads in a message ("expected `,`, found `]`").
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Reg(s) => format!("`%{s}`"),
            Tok::MacroArg(s) => format!("`\\{s}`"),
            Tok::Int(i) => format!("`{i}`"),
            Tok::Float(f) => format!("`{f}`"),
            Tok::Str(s) => format!("\"{s}\""),
            other => format!("`{}`", other.punct()),
        }
    }

    fn punct(&self) -> &'static str {
        match self {
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::Pipe => "|",
            Tok::Amp => "&",
            Tok::Caret => "^",
            Tok::Tilde => "~",
            Tok::Shl => "<<",
            Tok::Shr => ">>",
            Tok::At => "@",
            Tok::Bang => "!",
            Tok::Eq => "=",
            Tok::DotDot => "..",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::Le => "<=",
            Tok::Ge => ">=",
            Tok::EqEq => "==",
            Tok::Ne => "!=",
            _ => "?",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// A lexing error: the span of the offending character and what went wrong.
#[derive(Clone, Debug)]
pub struct LexError {
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
}

fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Most tokens on one line: more than any statement can use (every register the assembler allows, 65,535,
/// listed on one `.reg` line; an expression has at most 1,024 terms). Lexing stops there, so a hostile line
/// (8 MiB of `1+1+…`) costs a few megabytes of tokens, not hundreds.
pub const MAX_LINE_TOKENS: usize = 1 << 17;

/// Lex one line. `base` is the byte offset of the line in its file; the result excludes the comment.
pub fn lex_line(file: FileId, line: &str, base: usize) -> Result<Vec<Token>, LexError> {
    let b = line.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    let span = |s: usize, e: usize| Span::new(file, base + s, base + e);
    while i < b.len() {
        let c = b[i];
        if c == b' ' || c == b'\t' || c == b'\r' || c == b';' {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            break;
        }
        if c == b'#' {
            break;
        }
        if toks.len() >= MAX_LINE_TOKENS {
            let end = line[i..].chars().next().map_or(i, |ch| i + ch.len_utf8());
            return Err(LexError {
                span: span(i, end),
                message: format!("line too long: more than {MAX_LINE_TOKENS} tokens, more than any statement can use"),
                help: Some(format!(
                    "a statement's expressions have at most {} terms in all, so a `.buffer` initialiser list holds \
                     about {} values: compute the values with an expression in `i` (for example \
                     `.buffer a u32[4096] = i * 3 + 1`), or store them from the program",
                    crate::parser::MAX_EXPR_NODES,
                    crate::parser::MAX_EXPR_NODES
                )),
            });
        }
        let start = i;
        // A dotted word: identifiers, opcodes, directives. A dot continues the word only when a word character
        // follows, so `0..9` and `i..n` lex as ranges.
        let word = |mut j: usize| {
            while j < b.len() {
                let continues = ident_char(b[j]) || (b[j] == b'.' && j + 1 < b.len() && ident_char(b[j + 1]));
                if !continues {
                    break;
                }
                j += 1;
            }
            j
        };
        if ident_start(c) || (c == b'.' && i + 1 < b.len() && ident_start(b[i + 1])) {
            let j = word(i + 1);
            toks.push(Token {
                tok: Tok::Ident(line[i..j].to_string()),
                span: span(i, j),
            });
            i = j;
            continue;
        }
        if c == b'%' && i + 1 < b.len() && ident_start(b[i + 1]) {
            let j = word(i + 1);
            toks.push(Token {
                tok: Tok::Reg(line[i + 1..j].to_string()),
                span: span(i, j),
            });
            i = j;
            continue;
        }
        if c == b'\\' && i + 1 < b.len() && ident_start(b[i + 1]) {
            let mut j = i + 1;
            while j < b.len() && ident_char(b[j]) {
                j += 1;
            }
            toks.push(Token {
                tok: Tok::MacroArg(line[i + 1..j].to_string()),
                span: span(i, j),
            });
            i = j;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let (tok, j) = lex_number(line, i).map_err(|message| LexError {
                span: span(i, number_end(b, i)),
                message,
                help: None,
            })?;
            toks.push(Token { tok, span: span(i, j) });
            i = j;
            continue;
        }
        if c == b'"' {
            let mut j = i + 1;
            let mut s = String::new();
            let mut closed = false;
            let chars: Vec<(usize, char)> = line[j..].char_indices().collect();
            let mut k = 0;
            while k < chars.len() {
                let (off, ch) = chars[k];
                if ch == '"' {
                    j = i + 1 + off + 1;
                    closed = true;
                    break;
                }
                if ch == '\\' && k + 1 < chars.len() {
                    s.push(chars[k + 1].1);
                    k += 2;
                    continue;
                }
                s.push(ch);
                k += 1;
            }
            if !closed {
                return Err(LexError {
                    span: span(i, line.len()),
                    message: "unterminated string".into(),
                    help: Some("close the string with `\"` on the same line".into()),
                });
            }
            toks.push(Token {
                tok: Tok::Str(s),
                span: span(i, j),
            });
            i = j;
            continue;
        }
        // Bytes, not a str slice: the next character may be several bytes long.
        let two = b.get(i..i + 2).unwrap_or(b"");
        let (tok, len) = match two {
            b"<<" => (Tok::Shl, 2),
            b">>" => (Tok::Shr, 2),
            b".." => (Tok::DotDot, 2),
            b"<=" => (Tok::Le, 2),
            b">=" => (Tok::Ge, 2),
            b"==" => (Tok::EqEq, 2),
            b"!=" => (Tok::Ne, 2),
            _ => {
                let t = match c {
                    b',' => Tok::Comma,
                    b':' => Tok::Colon,
                    b'[' => Tok::LBracket,
                    b']' => Tok::RBracket,
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    b'{' => Tok::LBrace,
                    b'}' => Tok::RBrace,
                    b'+' => Tok::Plus,
                    b'-' => Tok::Minus,
                    b'*' => Tok::Star,
                    b'/' => Tok::Slash,
                    b'%' => Tok::Percent,
                    b'|' => Tok::Pipe,
                    b'&' => Tok::Amp,
                    b'^' => Tok::Caret,
                    b'~' => Tok::Tilde,
                    b'@' => Tok::At,
                    b'!' => Tok::Bang,
                    b'=' => Tok::Eq,
                    b'<' => Tok::Lt,
                    b'>' => Tok::Gt,
                    _ => {
                        let ch = line[i..].chars().next().unwrap_or('?');
                        return Err(LexError {
                            span: span(i, i + ch.len_utf8()),
                            message: format!("unexpected character `{}`", ch.escape_debug()),
                            help: Some("registers start with `%`, comments with `//`; see docs/ISA.md".into()),
                        });
                    }
                };
                (t, 1)
            }
        };
        toks.push(Token {
            tok,
            span: span(start, start + len),
        });
        i += len;
    }
    Ok(toks)
}

fn number_end(b: &[u8], mut j: usize) -> usize {
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'.') {
        if b[j] == b'.' && b.get(j + 1) == Some(&b'.') {
            break;
        }
        j += 1;
    }
    j
}

fn lex_number(line: &str, i: usize) -> Result<(Tok, usize), String> {
    let b = line.as_bytes();
    let rest = &line[i..];
    if rest.starts_with("0x") || rest.starts_with("0X") || rest.starts_with("0b") || rest.starts_with("0B") {
        let radix = if rest.as_bytes()[1].eq_ignore_ascii_case(&b'x') {
            16
        } else {
            2
        };
        let mut j = i + 2;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
            j += 1;
        }
        let digits: String = line[i + 2..j].chars().filter(|&c| c != '_').collect();
        // A bit pattern up to 64 bits: `0x8000000000000000` and above are the i64 with those bits (a 64-bit
        // operand takes them as written; a 32-bit one finds the value out of its range).
        return u64::from_str_radix(&digits, radix)
            .map(|v| (Tok::Int(v.cast_signed()), j))
            .map_err(|_| format!("invalid number `{}`", &line[i..j]));
    }
    let mut j = i;
    let mut is_float = false;
    while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'_') {
        j += 1;
    }
    if j < b.len() && b[j] == b'.' && b.get(j + 1) != Some(&b'.') {
        is_float = true;
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
    }
    if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
        let mut k = j + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            is_float = true;
            j = k;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
        }
    }
    if j < b.len() && (ident_char(b[j])) {
        let end = number_end(b, i);
        return Err(format!("invalid number `{}`", &line[i..end]));
    }
    let text: String = line[i..j].chars().filter(|&c| c != '_').collect();
    if is_float {
        text.parse::<f64>()
            .map(|v| (Tok::Float(v), j))
            .map_err(|_| format!("invalid number `{text}`"))
    } else {
        text.parse::<i64>()
            .map(|v| (Tok::Int(v), j))
            .map_err(|_| format!("integer `{text}` is too large"))
    }
}
