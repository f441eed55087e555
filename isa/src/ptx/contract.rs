//! ptxas's contraction of a multiplication and an addition into one fused multiply-add.
//!
//! PTX lets the assembler fuse `mul` and `add`/`sub` that carry no rounding modifier (PTX ISA, "Floating Point
//! Instructions": only `.rn` and the directed roundings forbid it), and ptxas does at its default optimisation
//! level, so that their results differ from two rounded operations in the last bits. What it fuses was read off its
//! SASS (nvcc 13.5's ptxas, sm_90) and checked on an H200 (`docs/ptx.md`, "Contraction"): an `add`/`sub` `.f32`
//! or `.f64` whose operand is the result of a `mul` of the same type and `.ftz`-ness (or of a `div.approx`/`div.full`
//! `.f32`, whose last instruction is an `FMUL`), the two in one basic block (other instructions, stores and
//! barriers between them do not matter; a label or a branch does), `add(c, a*b)` as well as `add(a*b, c)`, an
//! `add` under a guard as well. A product read by several additions is fused into each of them when every read of
//! it is such an addition (its `FMUL` then disappears), else into none; an addition of two products fuses one read
//! only there, else the first. A debug build (`-G`, ptxas `-O0`) fuses nothing.
//!
//! [`plan`] finds those pairs in a function body; the lowering then skips the `mul` and lowers the `add` as the fused
//! operation.

use super::ast::{Block, Instruction, OperandKind, Statement};
use crate::source::Span;
use std::collections::{HashMap, HashSet};

/// A fused pair: the multiplication whose result the addition at this place reads as operand `operand` (1 or 2).
#[derive(Clone, Debug)]
pub struct Fused {
    pub mul: Instruction,
    pub operand: usize,
}

/// What ptxas fuses in a function: each fused addition (by its span) and the multiplications it absorbed.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub fused: HashMap<Span, Fused>,
    pub absorbed: HashSet<Span>,
}

impl Plan {
    pub fn extend(&mut self, other: Plan) {
        self.fused.extend(other.fused);
        self.absorbed.extend(other.absorbed);
    }
}

/// The registers an operand names.
fn names<'a>(kind: &'a OperandKind, out: &mut Vec<&'a str>) {
    match kind {
        OperandKind::Name(n) | OperandKind::Offset(n, _) | OperandKind::Not(n) => out.push(&n.name),
        OperandKind::Pair(a, b) => {
            out.push(&a.name);
            out.push(&b.name);
        }
        OperandKind::Vector(v) | OperandKind::List(v) => v.iter().for_each(|o| names(&o.kind, out)),
        OperandKind::Address(a) => out.extend(a.base.iter().map(|b| b.name.as_str())),
        OperandKind::Int(_) | OperandKind::Float(_) => {}
    }
}

/// How many times each name is mentioned anywhere in the body (as a destination, a source, an address, a guard).
fn mentions<'a>(b: &'a Block, counts: &mut HashMap<&'a str, usize>) {
    for s in &b.statements {
        match s {
            Statement::Block(inner) => mentions(inner, counts),
            Statement::Instruction(i) => {
                let mut v = Vec::new();
                for o in &i.operands {
                    names(&o.kind, &mut v);
                }
                if let Some(g) = &i.guard {
                    v.push(&g.predicate.name);
                }
                for n in v {
                    *counts.entry(n).or_default() += 1;
                }
            }
            _ => {}
        }
    }
}

/// The type (`f32`, `f64`, or a 16-bit float type) and `.ftz` of a `mul`/`add`/`sub` ptxas may fuse: no rounding,
/// saturation or other modifier.
fn contractible(i: &Instruction) -> Option<(&'static str, bool)> {
    let mut ty = None;
    let mut ftz = false;
    for q in &i.qualifiers {
        match q.as_str() {
            "f32" => ty = Some("f32"),
            "f64" => ty = Some("f64"),
            // (ptxas fuses 16-bit float products and sums into `HFMA2` too.)
            "f16" => ty = Some("f16"),
            "f16x2" => ty = Some("f16x2"),
            "bf16" => ty = Some("bf16"),
            "bf16x2" => ty = Some("bf16x2"),
            "ftz" => ftz = true,
            _ => return None,
        }
    }
    Some((ty?, ftz))
}

/// A product ptxas may fuse: a `mul` as [`contractible`], or a `div.approx`/`div.full` `.f32` (`.ftz` or not),
/// whose last instruction is an `FMUL` of the numerator and the denominator's reciprocal.
fn product(i: &Instruction) -> Option<(&'static str, bool)> {
    match i.opcode.as_str() {
        "mul" => contractible(i),
        "div" => {
            let q: Vec<&str> = i.qualifiers.iter().map(String::as_str).collect();
            let ftz = q.contains(&"ftz");
            let expected = 2 + usize::from(ftz);
            (q.len() == expected && q.contains(&"f32") && (q.contains(&"approx") || q.contains(&"full")))
                .then_some(("f32", ftz))
        }
        _ => None,
    }
}

fn dest(i: &Instruction) -> Option<&str> {
    match &i.operands.first()?.kind {
        OperandKind::Name(n) => Some(&n.name),
        _ => None,
    }
}

/// The pairs ptxas fuses in `body` (nothing for a debug build: the caller does not ask).
pub fn plan(body: &Block) -> Plan {
    let mut counts = HashMap::new();
    mentions(body, &mut counts);
    // A register declared in a nested block (nvcc's inline `asm` from `cuda_fp16.h` declares its temporaries so)
    // may shadow another of its name: no product of such a name is fused.
    let mut scoped = HashSet::new();
    for s in &body.statements {
        if let Statement::Block(inner) = s {
            declared(inner, &mut scoped);
        }
    }
    let mut plan = Plan::default();
    let mut run = Vec::new();
    segment(body, &counts, &scoped, &mut run, &mut plan);
    fuse(&run, &counts, &scoped, &mut plan);
    plan
}

/// The registers a block and the blocks in it declare.
fn declared<'a>(b: &'a Block, out: &mut HashSet<&'a str>) {
    for s in &b.statements {
        match s {
            Statement::Reg(r) => out.extend(r.names.iter().map(|n| n.name.name.as_str())),
            Statement::Block(inner) => declared(inner, out),
            _ => {}
        }
    }
}

/// The basic blocks of `b` (a nested `{ … }` is a scope, not a basic block: its instructions continue `run`), each
/// given to [`fuse`] where it ends.
fn segment<'a>(
    b: &'a Block,
    counts: &HashMap<&str, usize>,
    scoped: &HashSet<&str>,
    run: &mut Vec<&'a Instruction>,
    plan: &mut Plan,
) {
    for s in &b.statements {
        match s {
            Statement::Block(inner) => segment(inner, counts, scoped, run, plan),
            Statement::Label(_) => {
                fuse(run, counts, scoped, plan);
                run.clear();
            }
            Statement::Instruction(i) => {
                run.push(i);
                if matches!(i.opcode.as_str(), "bra" | "ret" | "exit" | "call" | "brx") {
                    fuse(run, counts, scoped, plan);
                    run.clear();
                }
            }
            _ => {}
        }
    }
}

/// A product in a basic block: its index, its reads as (addition's index, operand) or `None` once one of them cannot
/// fuse, and whether an operand of it was written since (a later read cannot be fused).
type Product = (usize, Option<Vec<(usize, usize)>>, bool);

/// The fusions in one basic block `run`. A product is fused into every addition that reads it, or into none: ptxas
/// removes a multiplication only where all its uses absorb it. Each addition absorbs one product: a product read only
/// there, its first operand's before its second's; then, in the order they are defined, products read several times
/// whose every use is a free addition.
fn fuse(run: &[&Instruction], counts: &HashMap<&str, usize>, scoped: &HashSet<&str>, plan: &mut Plan) {
    // Each product (index in `run`) → its uses as (addition's index, operand), or None when one of them cannot fuse.
    let mut products: HashMap<&str, Product> = HashMap::new();
    for (j, i) in run.iter().enumerate() {
        let kind = contractible(i);
        // Operand 0 is what most instructions write (a register, a pair, a vector of them); a store's is an address.
        let writes = usize::from(!matches!(i.opcode.as_str(), "st" | "red"));
        // This instruction's reads of products.
        let mut reads = Vec::new();
        for (k, o) in i.operands.iter().enumerate().skip(writes) {
            let mut v = Vec::new();
            names(&o.kind, &mut v);
            reads.extend(v.into_iter().map(|n| (k, n)));
        }
        if let Some(g) = &i.guard {
            reads.push((usize::MAX, g.predicate.name.as_str()));
        }
        let addition = matches!(i.opcode.as_str(), "add" | "sub") && kind.is_some() && i.operands.len() == 3;
        for &(k, n) in &reads {
            let Some((def, uses, closed)) = products.get_mut(n) else {
                continue;
            };
            let fusable = addition
                && !*closed
                && (k == 1 || k == 2)
                && product(run[*def]) == kind
                && reads.iter().filter(|(_, m)| *m == n).count() == 1;
            match uses {
                Some(u) if fusable => u.push((j, k)),
                _ => *uses = None,
            }
        }
        // An instruction that writes a product's operand: later reads cannot be fused.
        let mut written = Vec::new();
        for o in i.operands.iter().take(writes) {
            names(&o.kind, &mut written);
        }
        for (def, _, closed) in products.values_mut() {
            *closed |= run[*def].operands[1..].iter().any(|o| {
                let mut v = Vec::new();
                names(&o.kind, &mut v);
                v.iter().any(|n| written.contains(n))
            });
        }
        if i.guard.is_none()
            && product(i).is_some()
            && i.operands.len() == 3
            && let Some(d) = dest(i)
            && !scoped.contains(d)
        {
            products.insert(d, (j, Some(Vec::new()), false));
        }
    }
    // Products read here as often as anywhere in the function, every read a fusable addition.
    let mut eligible: Vec<(usize, Vec<(usize, usize)>)> = products
        .into_iter()
        .filter_map(|(name, (def, uses, _))| {
            let uses = uses?;
            (!uses.is_empty() && counts.get(name) == Some(&(uses.len() + 1))).then_some((def, uses))
        })
        .collect();
    eligible.sort_by_key(|(def, _)| *def);
    let mut taken: HashMap<usize, (usize, usize)> = HashMap::new();
    // Products read once: each addition its first operand's, else its second's.
    let mut single: Vec<&(usize, Vec<(usize, usize)>)> = eligible.iter().filter(|(_, u)| u.len() == 1).collect();
    single.sort_by_key(|(_, u)| u[0]);
    for (def, uses) in single {
        let (j, k) = uses[0];
        taken.entry(j).or_insert((*def, k));
    }
    for (def, uses) in eligible.iter().filter(|(_, u)| u.len() > 1) {
        if uses.iter().all(|(j, _)| !taken.contains_key(j)) {
            for &(j, k) in uses {
                taken.insert(j, (*def, k));
            }
        }
    }
    for (j, (def, k)) in taken {
        plan.absorbed.insert(run[def].span);
        plan.fused.insert(
            run[j].span,
            Fused {
                mul: run[def].clone(),
                operand: k,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fused additions of `body` (by their destination) and the product each absorbed (by its destination).
    fn fused(body: &str) -> Vec<(String, String)> {
        let text = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n.reg .f32 %f<40>;\n\
             .reg .pred %p<4>;\n.reg .b64 %rd<4>;\n{body}\nret;\n}}\n"
        );
        let (module, _) = crate::ptx::parse("k.ptx", &text).expect("parses");
        let plan = plan(module.entries().next().expect("k").body.as_ref().expect("a body"));
        let name = |i: &Instruction| match &i.operands[0].kind {
            OperandKind::Name(n) => n.name.clone(),
            _ => String::new(),
        };
        let body = module
            .entries()
            .next()
            .expect("k")
            .body
            .as_ref()
            .expect("a body")
            .instructions();
        let mut out: Vec<(String, String)> = body
            .iter()
            .filter_map(|i| plan.fused.get(&i.span).map(|f| (name(i), name(&f.mul))))
            .collect();
        out.sort();
        assert_eq!(
            plan.absorbed.len(),
            out.iter().map(|(_, m)| m).collect::<HashSet<_>>().len()
        );
        out
    }

    /// What ptxas 13.5 fused in `programs/ptx/cuda/w44_contraction.cu`'s `products` (its SASS): a product read
    /// once is taken first; a product read by two additions only, in both; a product also read by an addition that
    /// fused another operand, in none.
    #[test]
    fn products_are_fused_into_all_their_additions_or_none() {
        let body = "mul.f32 %f10, %f1, %f2;\nmul.f32 %f11, %f3, %f4;\nsub.f32 %f12, %f10, %f11;\n\
                    mul.f32 %f13, %f1, %f4;\nmul.f32 %f14, %f2, %f3;\nadd.f32 %f15, %f13, %f14;\n\
                    sub.f32 %f16, %f3, %f10;\nsub.f32 %f19, %f13, %f14;\n\
                    mul.f32 %f20, %f1, %f3;\nst.global.f32 [%f30], %f20;\nadd.f32 %f21, %f20, %f4;";
        let want = [("%f12", "%f11"), ("%f15", "%f13"), ("%f19", "%f13")];
        assert_eq!(fused(body), want.map(|(a, m)| (a.to_string(), m.to_string())));
    }

    /// 16-bit floats fuse as f32s do, across the `{ … }` scopes `cuda_fp16.h` wraps each operation in (ptxas 13.5 made
    /// `HFMA2` and `HFMA2.BF16_V2` of `w47_half.cu`'s); a product in a register a nested scope declares does not (it
    /// may shadow another of its name), nor a product of another 16-bit type.
    #[test]
    fn sixteen_bit_floats_fuse_across_scopes() {
        let body = ".reg .b16 %rs<10>;
{mul.f16 %rs1,%rs2,%rs3;
}
{add.f16 %rs4,%rs1,%rs5;
}
                    {.reg .b16 t;
mul.bf16 t,%rs2,%rs3;
add.bf16 %rs6,t,%rs5;
}
                    mul.f16x2 %f1, %f2, %f3;
sub.f16x2 %f4, %f5, %f1;
                    mul.bf16 %rs7, %rs2, %rs3;
add.f16 %rs8, %rs7, %rs5;";
        let want = [("%f4", "%f1"), ("%rs4", "%rs1")];
        assert_eq!(fused(body), want.map(|(a, m)| (a.to_string(), m.to_string())));
    }

    /// Of two products read once, the first operand's; across a label, a guarded product, mixed `.ftz`, or a
    /// product whose operand is written before the addition (by a register or a vector destination): none.
    #[test]
    fn the_first_operand_and_only_in_one_basic_block() {
        let body = "mul.f32 %f10, %f1, %f2;\nmul.f32 %f11, %f3, %f4;\nadd.f32 %f12, %f10, %f11;\n\
                    mul.f32 %f13, %f1, %f4;\nL1:\nadd.f32 %f14, %f13, %f2;\n\
                    @%p1 mul.f32 %f15, %f1, %f4;\nadd.f32 %f16, %f15, %f2;\n\
                    mul.ftz.f32 %f17, %f1, %f4;\nadd.f32 %f18, %f17, %f2;\n\
                    mul.f32 %f20, %f5, %f4;\nadd.f32 %f5, %f1, %f1;\nadd.f32 %f21, %f20, %f2;\n\
                    div.approx.ftz.f32 %f22, %f1, %f2;\nsub.ftz.f32 %f23, %f3, %f22;\n\
                    mul.f32 %f24, %f6, %f4;\nmov.b64 {%f6, %f7}, %rd1;\nadd.f32 %f25, %f24, %f2;";
        let want = [("%f12", "%f10"), ("%f23", "%f22")];
        assert_eq!(fused(body), want.map(|(a, m)| (a.to_string(), m.to_string())));
    }
}
