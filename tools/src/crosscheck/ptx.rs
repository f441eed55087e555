//! PTX programs on the GPU: the program's own PTX (not a translation), loaded by the driver
//! (`cuModuleLoadData`), with two additions for the block clocks that the CUDA translation records too: a last
//! parameter `__warpsim_clocks` (per block the first start and last exit `%clock64`), the start read first
//! thing, and every `ret`/`exit` of the entry turned into a branch to one exit that records the end. As in the
//! translation, the lowest of the lanes that reach the exit together (they read the clock together) updates the
//! block's clocks, not every thread (thousands of atomics on one word would delay the block's warps still
//! running).

use serde::{Deserialize, Serialize};
use warpsim::kernel::Kernel;
use warpsim_isa::ptx::{self, Statement};
use warpsim_isa::{PtxArg, PtxSource, Value};

/// One kernel parameter as the GPU worker passes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LaunchArg {
    /// The device address of the launch's buffer of this index.
    Buffer(usize),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
}

/// A PTX program's GPU side: the instrumented module and its launch arguments.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PtxJob {
    pub text: String,
    pub entry: String,
    pub args: Vec<LaunchArg>,
}

/// The GPU side of a program lowered from PTX, with its parameters' values at this launch.
pub fn job(kernel: &Kernel, source: &PtxSource) -> Result<PtxJob, String> {
    let env = |name: &str| kernel.params.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    let mut args = Vec::with_capacity(source.args.len());
    for a in &source.args {
        args.push(match a {
            PtxArg::Buffer(k) => LaunchArg::Buffer(*k),
            PtxArg::Scalar { bits, float, value } => {
                let v = if *float {
                    value.eval_float(&env)
                } else {
                    value.eval(&env)
                }
                .map_err(|e| format!("a kernel argument: {}", e.message))?;
                #[allow(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "an argument of `bits` bits is the value's low bits, as C passes it"
                )]
                let raw = match (v, *bits) {
                    (Value::Float(x), 32) => u64::from((x as f32).to_bits()),
                    (Value::Float(x), _) => x.to_bits(),
                    (Value::Int(i), _) => i as u64,
                };
                #[allow(clippy::cast_possible_truncation, reason = "the low bits of the parameter's width")]
                match bits {
                    8 => LaunchArg::U8(raw as u8),
                    16 => LaunchArg::U16(raw as u16),
                    32 => LaunchArg::U32(raw as u32),
                    _ => LaunchArg::U64(raw),
                }
            }
        });
    }
    Ok(PtxJob {
        text: instrument(&source.text, &source.entry)?,
        entry: source.entry.clone(),
        args,
    })
}

/// `text` with entry `entry` recording its block clocks into a new last parameter.
pub fn instrument(text: &str, entry: &str) -> Result<String, String> {
    let (module, sources) = ptx::parse("kernel.ptx", text).map_err(|e| e.render(false))?;
    let f = module
        .entries()
        .find(|e| e.name.name == entry)
        .ok_or_else(|| format!("no entry `{entry}`"))?;
    let body = f.body.as_ref().ok_or_else(|| format!("`{entry}` has no body"))?;
    let file = module.file;
    let _ = &sources;
    // (byte offset, text to insert, bytes replaced), applied from the end.
    let mut edits: Vec<(usize, String, usize)> = Vec::new();
    let clocks = ".param .u64 __warpsim_clocks";
    match f.params.last() {
        Some(p) => edits.push((p.span.end as usize, format!(",\n\t{clocks}"), 0)),
        None => {
            // `name()`: between the name and the body.
            let from = f.name.span.end as usize;
            let open = text[from..body.span.start as usize]
                .find('(')
                .ok_or("the entry's parameter list")?;
            let close = text[from + open..].find(')').ok_or("the entry's parameter list")?;
            edits.push((from + open + close, clocks.to_string(), 0));
        }
    }
    let open = body.span.start as usize;
    if text.as_bytes().get(open) != Some(&b'{') {
        return Err("the entry's body does not start with `{`".into());
    }
    edits.push((
        open + 1,
        "\n\t.reg .b64 %__ws<4>;\n\t.reg .b32 %__wr<6>;\n\t.reg .pred %__wp<1>;\n\tmov.u64 %__ws0, %clock64;\n".into(),
        0,
    ));
    let mut rets = Vec::new();
    body.visit(&mut |s| {
        if let Statement::Instruction(i) = s
            && matches!(i.opcode.as_str(), "ret" | "exit")
            && i.opcode_span.file == file
        {
            rets.push(i.opcode_span);
        }
    });
    for r in rets {
        edits.push((
            r.start as usize,
            "bra __warpsim_exit".into(),
            (r.end - r.start) as usize,
        ));
    }
    let close = body.span.end as usize - 1;
    if text.as_bytes().get(close) != Some(&b'}') {
        return Err("the entry's body does not end with `}`".into());
    }
    edits.push((
        close,
        "__warpsim_exit:\n\
         \tmov.u64 %__ws1, %clock64;\n\
         \tld.param.u64 %__ws2, [__warpsim_clocks];\n\
         \tcvta.to.global.u64 %__ws2, %__ws2;\n\
         \tmov.u32 %__wr0, %ctaid.z;\n\
         \tmov.u32 %__wr1, %nctaid.y;\n\
         \tmov.u32 %__wr2, %ctaid.y;\n\
         \tmad.lo.u32 %__wr0, %__wr0, %__wr1, %__wr2;\n\
         \tmov.u32 %__wr1, %nctaid.x;\n\
         \tmov.u32 %__wr2, %ctaid.x;\n\
         \tmad.lo.u32 %__wr0, %__wr0, %__wr1, %__wr2;\n\
         \tmul.wide.u32 %__ws3, %__wr0, 16;\n\
         \tadd.u64 %__ws2, %__ws2, %__ws3;\n\
         \tactivemask.b32 %__wr3;\n\
         \tmov.u32 %__wr4, %lanemask_lt;\n\
         \tand.b32 %__wr5, %__wr3, %__wr4;\n\
         \tsetp.eq.u32 %__wp0, %__wr5, 0;\n\
         \t@%__wp0 red.global.min.u64 [%__ws2], %__ws0;\n\
         \t@%__wp0 red.global.max.u64 [%__ws2+8], %__ws1;\n\
         \tret;\n"
            .into(),
        0,
    ));
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (at, insert, replaced) in edits {
        out.replace_range(at..at + replaced, &insert);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instrumented_entry_records_clocks_and_still_parses() {
        let text = ".version 9.5\n.target sm_90\n.address_size 64\n\
                    .visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\
                    \tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 ret;\n\tret;\n}\n";
        let out = instrument(text, "k").expect("instruments");
        assert!(
            out.contains(".param .u64 k_param_0,\n\t.param .u64 __warpsim_clocks\n)"),
            "{out}"
        );
        assert!(out.contains("@%p1 bra __warpsim_exit;"), "{out}");
        assert_eq!(out.matches("bra __warpsim_exit").count(), 2, "{out}");
        assert!(out.contains("__warpsim_exit:\n\tmov.u64 %__ws1, %clock64;"), "{out}");
        // The lowest lane of those at the exit updates the block's clocks.
        assert!(
            out.contains(
                "\tactivemask.b32 %__wr3;\n\tmov.u32 %__wr4, %lanemask_lt;\n\tand.b32 %__wr5, %__wr3, %__wr4;\n\
                 \tsetp.eq.u32 %__wp0, %__wr5, 0;\n\t@%__wp0 red.global.min.u64 [%__ws2], %__ws0;\n\
                 \t@%__wp0 red.global.max.u64 [%__ws2+8], %__ws1;\n\tret;"
            ),
            "{out}"
        );
        let (m, _) = ptx::parse("out.ptx", &out).expect("the instrumented PTX parses");
        let k = m.entries().next().expect("the entry");
        assert_eq!(k.params.len(), 2);
        assert_eq!(k.params[1].name.name, "__warpsim_clocks");
    }

    #[test]
    fn an_entry_without_parameters_gets_the_clock_parameter() {
        let text = ".version 9.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";
        let out = instrument(text, "k").expect("instruments");
        let (m, _) = ptx::parse("out.ptx", &out).expect("parses");
        assert_eq!(m.entries().next().expect("entry").params.len(), 1);
    }
}
