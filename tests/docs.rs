//! The documentation's examples are real: every ```s block in README.md and docs/ISA.md assembles and
//! launches at W=32 (the ISA reference's claim that each instruction and directive has a working example).

use warpsim::{Config, Launch, programs};

fn s_blocks(markdown: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (k, line) in markdown.lines().enumerate() {
        match current.as_mut() {
            None if line.trim_end() == "```s" => current = Some((k + 2, String::new())),
            None => {}
            Some(_) if line.trim_end() == "```" => blocks.push(current.take().expect("open block")),
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    assert!(current.is_none(), "unclosed ```s block");
    blocks
}

fn check_file(path: &str, at_least: usize) {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    let markdown = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"));
    let blocks = s_blocks(&markdown);
    assert!(blocks.len() >= at_least, "{path}: only {} ```s blocks", blocks.len());
    for (line, text) in blocks {
        let name = format!("{path}:{line}.s");
        let program = warpsim_isa::parse(&name, &text, &programs::Resolver)
            .unwrap_or_else(|e| panic!("example at {path}:{line} does not assemble:\n{}", e.render(false)));
        if let Err(e) = warpsim::instantiate(&program, &Config::hopper(), &Launch::default()) {
            panic!(
                "example at {path}:{line} does not launch at W=32:\n{}",
                e.render(&program, false)
            );
        }
    }
}

#[test]
fn readme_examples_assemble() {
    check_file("README.md", 1);
}

#[test]
fn isa_reference_examples_assemble() {
    // One example at least per instruction family and directive.
    check_file("docs/ISA.md", 30);
}
