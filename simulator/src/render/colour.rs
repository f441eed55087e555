//! Colour for the text output in a terminal: the plain rendering (what `--trace` prints when piped, what the
//! snapshots hold) is highlighted line by line, so colour can never change the text itself. Stripping the ANSI
//! sequences from [`paint`]'s output gives its input back.
//!
//! Trace lines: the cycle dimmed, the lane mask coloured (`#` executes: green, `.` predicated off: yellow, `-`
//! inactive: dim), the mnemonic bold; exchanges cyan, divergence and reconvergence magenta, barriers blue,
//! undefined reads and faults red. The lane grid's step labels and arrows are cyan, its headings bold.

use anstyle::{AnsiColor, Style};

const DIM: Style = Style::new().dimmed();
const BOLD: Style = Style::new().bold();
const GREEN: Style = AnsiColor::Green.on_default();
const YELLOW: Style = AnsiColor::Yellow.on_default();
const CYAN: Style = AnsiColor::Cyan.on_default();
const MAGENTA: Style = AnsiColor::Magenta.on_default();
const BLUE: Style = AnsiColor::Blue.on_default();
const RED: Style = AnsiColor::Red.on_default().bold();

fn styled(out: &mut String, style: Style, text: &str) {
    if text.is_empty() {
        return;
    }
    out.push_str(&style.render().to_string());
    out.push_str(text);
    out.push_str(&style.render_reset().to_string());
}

/// The text output of `sim run` (header, trace, lane grid, summary) with ANSI colour, its trace's lanes column
/// `cols` lanes wide ([`super::text::mask_columns`]).
pub fn paint(text: &str, cols: usize) -> String {
    let w = cols;
    let lanes_at = super::text::LANES_AT;
    let mut out = String::with_capacity(text.len() * 2);
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        paint_line(&mut out, body, w, lanes_at);
        out.push_str(nl);
    }
    out
}

fn paint_line(out: &mut String, line: &str, w: usize, lanes_at: usize) {
    let trimmed = line.trim_start();
    let is_event = line.len() > lanes_at
        && line.is_char_boundary(7)
        && line[..7]
            .trim_start()
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
        && line[..7].trim().chars().all(|c| c.is_ascii_digit());
    if trimmed.starts_with("cycle sch")
        || trimmed.starts_with("Lane exchanges:")
        || trimmed.starts_with("lane ") && line.starts_with("lane")
        || trimmed.starts_with("cycles:")
    {
        styled(out, BOLD, line);
    } else if is_event && line.is_char_boundary(lanes_at) && line.is_char_boundary((lanes_at + w).min(line.len())) {
        let (cycle, rest) = line.split_at(7);
        styled(out, DIM, cycle);
        let lanes_end = lanes_at + w;
        let lanes = rest.get(lanes_at - 7..lanes_end - 7).unwrap_or("");
        let is_mask = !lanes.is_empty() && lanes.chars().all(|c| matches!(c, '#' | '.' | '-'));
        if !is_mask {
            // Launch, exit and barrier lines have no lane mask: their words from the first letter on.
            let style = if rest.contains("barrier ") { BLUE } else { DIM };
            let k = rest.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(rest.len());
            out.push_str(&rest[..k]);
            styled(out, style, &rest[k..]);
            return;
        }
        out.push_str(&rest[..lanes_at - 7]);
        // Runs of one lane state share one style.
        let mut run_start = 0;
        let bytes = lanes.as_bytes();
        for k in 1..=bytes.len() {
            if k == bytes.len() || bytes[k] != bytes[run_start] {
                styled(out, lane_style(bytes[run_start]), &lanes[run_start..k]);
                run_start = k;
            }
        }
        let tail = &rest[lanes_end - 7..];
        if tail.contains("diverge:") || tail.contains("reconverge:") {
            styled(out, MAGENTA, tail);
        } else {
            // The mnemonic (after any guard) bold.
            let start = tail.len() - tail.trim_start().len();
            let (lead, text) = tail.split_at(start);
            out.push_str(lead);
            let (guard, text) = match text.strip_prefix('@') {
                Some(_) => match text.find(' ') {
                    Some(k) => text.split_at(k + 1),
                    None => ("", text),
                },
                None => ("", text),
            };
            out.push_str(guard);
            let end = text.find(' ').unwrap_or(text.len());
            styled(out, BOLD, &text[..end]);
            out.push_str(&text[end..]);
        }
    } else if line.len() >= lanes_at + w
        && line.is_char_boundary(lanes_at)
        && line[..lanes_at].trim().is_empty()
        && line[lanes_at..].starts_with(['#', '.', '-'])
        && line.as_bytes()[lanes_at..lanes_at + w]
            .iter()
            .all(|b| matches!(b, b'#' | b'.' | b'-'))
    {
        // A 64-lane mask's second line, then whatever the entry has on that line.
        out.push_str(&line[..lanes_at]);
        let lanes = &line[lanes_at..lanes_at + w];
        let mut run_start = 0;
        let bytes = lanes.as_bytes();
        for k in 1..=bytes.len() {
            if k == bytes.len() || bytes[k] != bytes[run_start] {
                styled(out, lane_style(bytes[run_start]), &lanes[run_start..k]);
                run_start = k;
            }
        }
        paint_line(out, &line[lanes_at + w..], w, lanes_at);
    } else if trimmed.starts_with("exchange:") || trimmed.starts_with("step ") {
        let start = line.len() - trimmed.len();
        out.push_str(&line[..start]);
        styled(out, CYAN, trimmed);
    } else if trimmed.contains("undefined") || trimmed.starts_with("error") {
        styled(out, RED, line);
    } else if trimmed.starts_with("banks [") || trimmed.starts_with("load from") || trimmed.starts_with("store to") {
        styled(out, DIM, line);
    } else {
        out.push_str(line);
    }
}

/// A lane's state in a mask: executes (`#`) green, predicated off (`.`) yellow, inactive (`-`) dim.
fn lane_style(c: u8) -> Style {
    match c {
        b'#' => GREEN,
        b'.' => YELLOW,
        _ => DIM,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Remove ANSI escape sequences.
    fn strip(s: &str) -> String {
        let mut out = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    #[test]
    fn painting_adds_colour_and_changes_no_text() {
        let text = "\
butterfly_max: W=8, grid 1 x block 8 (1 warp per block)
  cycle sch blk warp  pc  lanes     instruction
      0       0  block 0 launched: 1 warp
    293   0   0    0   3  ####.---  shfl.sync.bfly.b32 %other, %v, %off
                                    exchange: lane 0<->4, 1<->5, 2<->6, 3<->7
    565       0    1  18            barrier 0: warp 1 arrives (1 of 4 warps)
cycles: 430   warp instructions: 19
";
        let painted = paint(text, 8);
        assert_ne!(painted, text);
        assert_eq!(strip(&painted), text);
        // The lane mask: executing lanes green, predicated-off yellow, inactive dim.
        assert!(painted.contains(&format!("{}####{}", GREEN.render(), GREEN.render_reset())));
        assert!(painted.contains(&format!("{}.{}", YELLOW.render(), YELLOW.render_reset())));
        assert!(painted.contains(&format!("{}shfl.sync.bfly.b32{}", BOLD.render(), BOLD.render_reset())));
        assert!(painted.contains(&format!("{}exchange: lane", CYAN.render())));
        assert!(painted.contains(&format!("{}barrier 0: warp 1", BLUE.render())));
    }
}
