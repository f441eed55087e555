//! The printer: a [`Program`] back to text. `parse(print(p))` is [`Program::equivalent`] to `p`.
//!
//! Output is canonical: full opcodes (`shfl.sync.bfly.b32`), one statement per line, labels on their own line,
//! macros already expanded.

#[allow(clippy::wildcard_imports, reason = "the printer prints nearly every type of the AST")]
use crate::ast::*;
use crate::expr::ConstExpr;
use std::fmt::Write as _;

/// A launch shape's components, x first: `8`, `8, 4` or `8, 4, 2`.
fn shape(dims: &[ConstExpr]) -> String {
    dims.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

pub fn print(p: &Program) -> String {
    let mut out = String::new();
    let _ = writeln!(out, ".kernel {}", p.name);
    if let Some(d) = &p.description {
        let _ = writeln!(out, ".desc \"{}\"", d.replace('\\', "\\\\").replace('"', "\\\""));
    }
    if let Some(s) = p.scheduling {
        let _ = writeln!(out, ".scheduling {}", s.name());
    }
    if p.warp_sizes != (2, 64) {
        let _ = writeln!(out, ".warp_sizes {}..{}", p.warp_sizes.0, p.warp_sizes.1);
    }
    for param in &p.params {
        let _ = writeln!(out, ".param {} = {}", param.name, param.default);
    }
    if let Some(g) = &p.grid {
        let _ = writeln!(out, ".grid {}", shape(g));
    }
    if let Some(b) = &p.block {
        let _ = writeln!(out, ".block {}", shape(b));
    }
    for b in &p.buffers {
        let _ = write!(out, ".buffer {} {}[{}]", b.name, b.elem.name(), b.len);
        if let Some(init) = &b.init {
            let _ = write!(out, " = {}", init.default);
            for o in &init.overrides {
                match o {
                    InitOverride::One { index, value } => {
                        let _ = write!(out, ", [{index}] = {value}");
                    }
                    InitOverride::List { start, end, values } => {
                        let vals: Vec<String> = values.iter().map(ToString::to_string).collect();
                        let end = end.as_ref().map(ToString::to_string).unwrap_or_default();
                        let _ = write!(out, ", [{start}..{end}] = [{}]", vals.join(", "));
                    }
                }
            }
        }
        out.push('\n');
    }
    for sh in &p.shared {
        match &sh.len {
            Some(len) => {
                let _ = writeln!(out, ".shared {} {}[{len}]", sh.name, sh.elem.name());
            }
            None => {
                let _ = writeln!(out, ".shared {} {}[]", sh.name, sh.elem.name());
            }
        }
    }
    if p.local_bytes != 0 {
        let _ = writeln!(out, ".local {}", p.local_bytes);
    }
    for r in &p.requires {
        let _ = writeln!(
            out,
            ".require {}, \"{}\"",
            r.cond,
            r.message.replace('\\', "\\\\").replace('"', "\\\"")
        );
    }
    // Registers in declaration order, a line per run of one width (a 64-bit register's second row is implied).
    let mut runs: Vec<(Width, Vec<String>)> = Vec::new();
    for r in p.regs.iter().filter(|r| r.width != Width::High) {
        match runs.last_mut() {
            Some((w, names)) if *w == r.width => names.push(format!("%{}", r.name)),
            _ => runs.push((r.width, vec![format!("%{}", r.name)])),
        }
    }
    for (w, names) in runs {
        let kw = if w == Width::W64 { ".reg.b64" } else { ".reg" };
        let _ = writeln!(out, "{kw} {}", names.join(", "));
    }
    if !p.preds.is_empty() {
        let names: Vec<String> = p.preds.iter().map(|r| format!("%{}", r.name)).collect();
        let _ = writeln!(out, ".pred {}", names.join(", "));
    }
    for (pc, inst) in p.instructions.iter().enumerate() {
        for (l, _) in p.labels.iter().filter(|(_, at)| *at == pc) {
            let _ = writeln!(out, "{l}:");
        }
        let _ = writeln!(out, "    {}", instruction(p, inst));
    }
    for (l, _) in p.labels.iter().filter(|(_, at)| *at == p.instructions.len()) {
        let _ = writeln!(out, "{l}:");
    }
    out
}

/// One instruction in canonical form.
pub fn instruction(p: &Program, inst: &Instruction) -> String {
    let mut s = String::new();
    if let Some(g) = inst.guard {
        let _ = write!(s, "@{}%{} ", if g.negated { "!" } else { "" }, p.pred_name(g.pred));
    }
    s.push_str(&op(p, &inst.op));
    s
}

fn operand(p: &Program, o: &Operand) -> String {
    match o {
        Operand::Reg(r) => format!("%{}", p.reg_name(*r)),
        Operand::Special(sp) => format!("%{}", sp.name()),
        Operand::Imm(e) => imm(e),
    }
}

/// Immediates print bare when they are a single literal or name, parenthesised otherwise.
fn imm(e: &ConstExpr) -> String {
    use crate::expr::ExprKind;
    match e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Var(_) | ExprKind::Call(..) => e.to_string(),
        ExprKind::Neg(ref inner) if matches!(inner.kind, ExprKind::Int(_) | ExprKind::Float(_)) => e.to_string(),
        _ => format!("({e})"),
    }
}

fn pred_operand(p: &Program, o: PredOperand) -> String {
    format!("{}%{}", if o.negated { "!" } else { "" }, p.pred_name(o.pred))
}

/// An access's state-space qualifier with its dot (`.global`); none for a generic access.
fn space(s: Space) -> String {
    if s == Space::Generic {
        String::new()
    } else {
        format!(".{}", s.name())
    }
}

fn address(p: &Program, a: &Address) -> String {
    let name = match (a.mode, a.space) {
        (AddrMode::Flat, _) => "",
        (_, Space::Shared) => p.shared[a.buffer].name.as_str(),
        _ => p.buffers[a.buffer].name.as_str(),
    };
    let mut inner = String::new();
    if let Some(b) = &a.base {
        inner.push_str(&operand(p, b));
    }
    if let Some(d) = &a.disp {
        if a.base.is_some() {
            inner.push_str(" + ");
        }
        inner.push_str(&imm(d));
    }
    match a.mode {
        AddrMode::Element => format!("{name}[{inner}]"),
        AddrMode::Byte if inner.is_empty() => format!("[{name}]"),
        AddrMode::Byte => format!("[{name} + {inner}]"),
        AddrMode::Flat => format!("[{inner}]"),
    }
}

pub fn op(p: &Program, op: &Op) -> String {
    let o = |x: &Operand| operand(p, x);
    let r = |x: &Reg| format!("%{}", p.reg_name(*x));
    let pr = |x: &Pred| format!("%{}", p.pred_name(*x));
    match op {
        Op::Mov { ty, d, a } => format!("mov.{} {}, {}", ty.name(), r(d), o(a)),
        Op::Unary { op, ty, d, a } => {
            let m = match op {
                UnaryOp::Neg => "neg",
                UnaryOp::Abs => "abs",
                UnaryOp::Not => "not",
                UnaryOp::Sqrt => "sqrt.rn",
                UnaryOp::Popc => "popc",
                UnaryOp::Clz => "clz",
                UnaryOp::Brev => "brev",
                UnaryOp::Bfind => "bfind",
                UnaryOp::BfindShift => "bfind.shiftamt",
            };
            format!("{m}.{} {}, {}", ty.name(), r(d), o(a))
        }
        Op::Binary { op, ty, d, a, b } => format!("{}.{} {}, {}, {}", binary_name(*op), ty.name(), r(d), o(a), o(b)),
        Op::Ternary { op, ty, d, a, b, c } => {
            if let Some(name) = op.dot_name() {
                let lut = if let TernaryOp::Lop3(lut) = op {
                    format!(", 0x{lut:02x}")
                } else {
                    String::new()
                };
                return format!("{name} {}, {}, {}, {}{lut}", r(d), o(a), o(b), o(c));
            }
            let m = match op {
                TernaryOp::Mad => "mad",
                TernaryOp::Fma => "fma",
                TernaryOp::MadHi => "mad.hi",
                TernaryOp::MadWide => "mad.wide",
                TernaryOp::Bfe => "bfe",
                TernaryOp::Prmt => "prmt",
                TernaryOp::Fns => "fns",
                TernaryOp::Dp4a { .. } | TernaryOp::Dp2a { .. } | TernaryOp::Lop3(_) => unreachable!("named above"),
            };
            format!("{m}.{} {}, {}, {}, {}", ty.name(), r(d), o(a), o(b), o(c))
        }
        Op::Rounded {
            op,
            rounding,
            ftz,
            ty,
            d,
            a,
            b,
            c,
        } => {
            let rounding = if op.rounds() {
                format!(".{}", rounding.name())
            } else {
                String::new()
            };
            let ftz = if *ftz { ".ftz" } else { "" };
            let tys = if *op == RoundedOp::Flush {
                format!("{}.{}", ty.name(), ty.name())
            } else {
                ty.name().to_string()
            };
            let mut text = format!("{}{rounding}{ftz}.{tys} {}, {}", op.name(), r(d), o(a));
            for x in b.iter().chain(c.iter()) {
                let _ = write!(text, ", {}", o(x));
            }
            text
        }
        Op::Approx {
            op,
            ftz,
            ty,
            d,
            a,
            b,
            c,
        } => {
            let ftz = if *ftz { ".ftz" } else { "" };
            let mut text = format!("{}{ftz}.{} {}, {}", op.name(), ty.name(), r(d), o(a));
            for x in b.iter().chain(c.iter()) {
                let _ = write!(text, ", {}", o(x));
            }
            text
        }
        Op::Half {
            op,
            bf16,
            x2,
            d,
            a,
            b,
            c,
        } => {
            let ty = format!("{}{}", if *bf16 { "bf16" } else { "f16" }, if *x2 { "x2" } else { "" });
            let head = match op {
                HalfOp::FromF32 => format!("cvt.rn.{ty}.f32"),
                HalfOp::ToF32 => format!("cvt.f32.{ty}"),
                HalfOp::Fma => format!("fma.rn.{ty}"),
                _ => {
                    let name = HalfOp::ARITHMETIC.iter().find(|(_, h)| h == op).map_or("?", |(n, _)| n);
                    format!("{name}.{ty}")
                }
            };
            let mut text = format!("{head} {}, {}", r(d), o(a));
            for x in b.iter().chain(c.iter()) {
                let _ = write!(text, ", {}", o(x));
            }
            text
        }
        Op::Carry {
            op,
            ty,
            d,
            a,
            b,
            c,
            cin,
            cout,
        } => {
            let (plain, with_carry) = op.names();
            let mut text = format!(
                "{}{}.{} {}",
                if cin.is_some() { with_carry } else { plain },
                if cout.is_some() { ".cc" } else { "" },
                ty.name(),
                r(d)
            );
            if let Some(q) = cout {
                let _ = write!(text, "|{}", pr(q));
            }
            let _ = write!(text, ", {}, {}", o(a), o(b));
            if let Some(x) = c {
                let _ = write!(text, ", {}", o(x));
            }
            if let Some(q) = cin {
                let _ = write!(text, ", {}", pr(q));
            }
            text
        }
        Op::Setp {
            cmp,
            ftz,
            ty,
            p: pd,
            a,
            b,
        } => {
            let ftz = if *ftz { ".ftz" } else { "" };
            format!("setp.{}{ftz}.{} {}, {}, {}", cmp.name(), ty.name(), pr(pd), o(a), o(b))
        }
        Op::PredLogic { op, d, a, b } => {
            let m = match op {
                PredLogicOp::And => "and",
                PredLogicOp::Or => "or",
                PredLogicOp::Xor => "xor",
                PredLogicOp::Not => "not",
            };
            match b {
                Some(b) => format!("{m}.pred {}, {}, {}", pr(d), pred_operand(p, *a), pred_operand(p, *b)),
                None => format!("{m}.pred {}, {}", pr(d), pred_operand(p, *a)),
            }
        }
        Op::Selp { ty, d, a, b, p: pp } => format!("selp.{} {}, {}, {}, {}", ty.name(), r(d), o(a), o(b), pr(pp)),
        Op::Cvt {
            rounding,
            to,
            from,
            d,
            a,
        } => {
            let exact = (to.is_int() && from.is_int()) || (*to == Ty::F64 && *from == Ty::F32);
            let rnd = if exact {
                String::new()
            } else {
                format!(".{}", rounding.name())
            };
            format!("cvt{rnd}.{}.{} {}, {}", to.name(), from.name(), r(d), o(a))
        }
        Op::Ld { ty, d, addr, narrow } => format!(
            "ld{}.{} {}, {}",
            space(addr.space),
            narrow.map_or(ty.name(), Narrow::name),
            r(d),
            address(p, addr)
        ),
        Op::St { ty, addr, a, narrow } => format!(
            "st{}.{} {}, {}",
            space(addr.space),
            narrow.map_or(ty.name(), Narrow::name),
            address(p, addr),
            o(a)
        ),
        Op::Atom { op, ty, d, addr, b, c } => {
            let head = format!(
                "{}{}.{}.{}",
                if d.is_some() { "atom" } else { "red" },
                space(addr.space),
                op.name(),
                ty.name()
            );
            let mut s = match d {
                Some(d) => format!("{head} {}, {}, {}", r(d), address(p, addr), o(b)),
                None => format!("{head} {}, {}", address(p, addr), o(b)),
            };
            if let Some(c) = c {
                let _ = write!(s, ", {}", o(c));
            }
            s
        }
        Op::Bar { kind, id, count, pred } => {
            let mut s = match kind {
                BarKind::Sync => format!("bar.sync {}", o(id)),
                BarKind::Arrive => format!("bar.arrive {}", o(id)),
                BarKind::Popc(d) => format!("bar.red.popc.u32 {}, {}", r(d), o(id)),
                BarKind::And(d) => format!("bar.red.and.pred {}, {}", pr(d), o(id)),
                BarKind::Or(d) => format!("bar.red.or.pred {}, {}", pr(d), o(id)),
            };
            if let Some(count) = count {
                let _ = write!(s, ", {}", o(count));
            }
            if let Some(q) = pred {
                let _ = write!(s, ", {}", pred_operand(p, *q));
            }
            s
        }
        Op::BarWarp { mask } => match mask {
            Some(m) => format!("bar.warp.sync {}", o(m)),
            None => "bar.warp.sync".into(),
        },
        Op::Vote {
            mode,
            d_pred,
            d_reg,
            a,
            mask,
        } => {
            let mut s = match (d_pred, d_reg) {
                (_, Some(d)) => format!("vote.sync.{}.b32 {}, {}", mode.name(), r(d), pred_operand(p, *a)),
                (Some(d), _) => format!("vote.sync.{}.pred {}, {}", mode.name(), pr(d), pred_operand(p, *a)),
                (None, None) => format!("vote.sync.{}", mode.name()),
            };
            if let Some(m) = mask {
                let _ = write!(s, ", {}", o(m));
            }
            s
        }
        Op::Activemask { d } => format!("activemask.b32 {}", r(d)),
        Op::Redux { op, ty, d, a, mask } => {
            let mut s = format!("redux.sync.{}.{} {}, {}", op.name(), ty.name(), r(d), o(a));
            if let Some(m) = mask {
                let _ = write!(s, ", {}", o(m));
            }
            s
        }
        Op::Match { all, d, p: pd, a, mask } => {
            let mut s = format!("match.sync.{}.b32 {}", if *all { "all" } else { "any" }, r(d));
            if let Some(pd) = pd {
                let _ = write!(s, "|{}", pr(pd));
            }
            let _ = write!(s, ", {}", o(a));
            if let Some(m) = mask {
                let _ = write!(s, ", {}", o(m));
            }
            s
        }
        Op::Shfl {
            mode,
            d,
            p: pd,
            a,
            b,
            segment,
            mask,
        } => {
            let mut s = format!("shfl.sync.{}.b32 {}", mode.name(), r(d));
            if let Some(pd) = pd {
                let _ = write!(s, "|{}", pr(pd));
            }
            let _ = write!(s, ", {}, {}", o(a), o(b));
            match segment {
                Some(ShflSegment::Raw(c)) => {
                    let m = mask.as_ref().map(o).unwrap_or_else(|| "0xffffffff".into());
                    let _ = write!(s, ", {}, {m}", imm(c));
                }
                Some(ShflSegment::Reg(c)) => {
                    let m = mask.as_ref().map(o).unwrap_or_else(|| "0xffffffff".into());
                    let _ = write!(s, ", {}, {m}", o(c));
                }
                Some(ShflSegment::Width(w)) => {
                    let _ = write!(s, ", width={}", imm(w));
                    if let Some(m) = mask {
                        let _ = write!(s, ", mask={}", o(m));
                    }
                }
                None => {
                    if let Some(m) = mask {
                        let _ = write!(s, ", mask={}", o(m));
                    }
                }
            }
            s
        }
        Op::Bfi { ty, d, a, b, pos, len } => {
            format!("bfi.{} {}, {}, {}, {}, {}", ty.name(), r(d), o(a), o(b), o(pos), o(len))
        }
        Op::Pack { d, lo, hi } => format!("mov.b64 {}, {{{}, {}}}", r(d), o(lo), o(hi)),
        Op::Unpack { lo, hi, a } => format!("mov.b64 {{{}, {}}}, {}", r(lo), r(hi), o(a)),
        Op::Bra { target } => {
            let name = p
                .labels
                .iter()
                .find(|(_, at)| at == target)
                .map(|(l, _)| l.clone())
                .unwrap_or_else(|| format!("{target}"));
            format!("bra {name}")
        }
        Op::Exit => "exit".into(),
        Op::Printf { d, fmt, args } => format!("vprintf {}, {}, {}", r(d), o(fmt), o(args)),
        Op::AssertFail {
            message,
            file,
            line,
            function,
        } => format!("assertfail {}, {}, {}, {}", o(message), o(file), o(line), o(function)),
        Op::Nop => "nop".into(),
    }
}

pub fn binary_name(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "add",
        BinaryOp::Sub => "sub",
        BinaryOp::Mul => "mul",
        BinaryOp::Div => "div",
        BinaryOp::Rem => "rem",
        BinaryOp::Min => "min",
        BinaryOp::Max => "max",
        BinaryOp::And => "and",
        BinaryOp::Or => "or",
        BinaryOp::Xor => "xor",
        BinaryOp::Shl => "shl",
        BinaryOp::Shr => "shr",
        BinaryOp::MulHi => "mul.hi",
        BinaryOp::MulWide => "mul.wide",
        BinaryOp::CopySign => "copysign",
    }
}
