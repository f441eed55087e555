//! Register rows of an untraced run: which rows a placed warp must zero, and which registers share a row.
//!
//! Compiled PTX names a fresh virtual register for nearly every value (nvcc's `%r1 … %r57`, `%rd1 … %rd9`), so
//! a warp's register file, a row per register, would be several times larger than the values it holds at any
//! moment; the simulator streams every SM's warps' registers through the host's caches each epoch, and a large
//! file makes that the bottleneck. An untraced run therefore executes a copy of the code whose registers share
//! rows where their lifetimes never overlap ([`coalesce`]), and whose registers that only hold a constant are
//! replaced by it ([`constants`]): the sanitizers, the statistics and the renderers keep the program's registers
//! ([`crate::kernel::DInstr::reads`] and `write` are not renamed), and so does the scoreboard, whose slots are
//! shared the same way but tagged with the register written (`scoreboard.rs`: the same cycles); only the operands
//! the executors read and write ([`DOp`]) name rows. A traced run executes the program's own registers (the
//! trace shows every lane of a register, also lanes that do not execute), so a trace shows exactly what the
//! untraced run computed in every executing lane, in the same cycles. A shuffle that reads a lane that does not
//! execute it reads that lane's register, which shared rows do not keep: the untraced run then starts again with
//! a row per register (`gpu.rs`).
//!
//! Both analyses run per lane over the control-flow graph: each lane follows a path of the graph (in lockstep
//! and under independent thread scheduling alike) and every instruction writes its destination in each lane
//! that executes it, unless a guard predicate leaves some out; so what holds on every path holds in every lane.

use crate::kernel::Wide;
use crate::kernel::{DBar, DInstr, DOp, Member, Src};
use smallvec::SmallVec;
use warpsim_isa::{Program, Special, Width};

/// Programs larger than this (registers × instructions) run with a row per register, every row zeroed at a
/// warp's placement: the analyses' bit sets take registers × instructions bits.
pub(crate) const MAX_COALESCED: usize = 1 << 26;
/// … or with more registers than this (the interference matrix takes registers² bits).
pub(crate) const MAX_COALESCED_REGS: usize = 8192;

/// A register: its first row and how many rows it takes (1, or 2 for a `.reg.b64`).
fn unit_of(program: &Program, row: u16) -> (u16, u16) {
    let wide = |r: usize| program.regs.get(r).is_some_and(|x| x.width == Width::W64);
    let r = usize::from(row);
    if wide(r) {
        (row, 2)
    } else if r > 0 && wide(r - 1) {
        // The high row of a 64-bit register.
        (row - 1, 2)
    } else {
        (row, 1)
    }
}

/// The control-flow successors of instruction `pc` (`n` = past the end).
fn successors(code: &[DInstr], pc: usize) -> SmallVec<[usize; 2]> {
    let i = &code[pc];
    match i.op {
        DOp::Exit if i.guard.is_none() => SmallVec::new(),
        DOp::Bra { target } if i.guard.is_none() => smallvec::smallvec![target as usize],
        DOp::Bra { target } => smallvec::smallvec![target as usize, pc + 1],
        _ => smallvec::smallvec![pc + 1],
    }
}

/// The registers an instruction reads (each as its first row).
fn uses(program: &Program, i: &DInstr) -> SmallVec<[u16; 4]> {
    i.reads.iter().map(|&r| unit_of(program, r).0).collect()
}

/// The registers an instruction writes in every lane that executes it (its first row), and whether the write
/// replaces the whole register (a guarded write leaves lanes out; a 32-bit write to a 64-bit register leaves
/// its high row).
fn defs(program: &Program, i: &DInstr) -> SmallVec<[(u16, bool); 2]> {
    let mut out = SmallVec::new();
    if let Some(d) = i.write {
        let (head, rows) = unit_of(program, d);
        let whole = i.guard.is_none() && (rows == 1 || (i.writes_wide() && head == d));
        out.push((head, whole));
    }
    if let Some(d) = i.write2 {
        let (head, rows) = unit_of(program, d);
        out.push((head, i.guard.is_none() && rows == 1));
    }
    out
}

/// Registers other lanes read (a shuffle's or a `match`'s operand, from lanes that may not have written it),
/// and registers written after their instruction (a global atomic's old value arrives at the epoch's commit):
/// these keep rows of their own.
fn private(program: &Program, code: &[DInstr]) -> Vec<bool> {
    let mut out = vec![false; program.regs.len()];
    for i in code {
        if let Some(d) = i.returns_at_commit() {
            out[usize::from(unit_of(program, d).0)] = true;
        }
    }
    out
}

/// A bit set over registers.
#[derive(Clone, PartialEq)]
struct Set(Vec<u64>);

impl Set {
    fn new(n: usize) -> Set {
        Set(vec![0; n.div_ceil(64)])
    }
    fn has(&self, r: u16) -> bool {
        self.0[usize::from(r) / 64] >> (r % 64) & 1 == 1
    }
    fn add(&mut self, r: u16) {
        self.0[usize::from(r) / 64] |= 1 << (r % 64);
    }
    fn remove(&mut self, r: u16) {
        self.0[usize::from(r) / 64] &= !(1 << (r % 64));
    }
    fn union(&mut self, o: &Set) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
    fn meets(&self, o: &Set) -> bool {
        self.0.iter().zip(&o.0).any(|(a, b)| a & b != 0)
    }
    #[allow(clippy::cast_possible_truncation, reason = "register rows are u16")]
    fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(k, &w)| {
            (0..64)
                .filter(move |b| w >> b & 1 == 1)
                .map(move |b| (k * 64 + b) as u16)
        })
    }
}

/// The registers written on every path to each pc, in every lane that reaches it (a forward "definitely
/// written" analysis; a pc no path reaches: every register).
fn written(program: &Program, code: &[DInstr]) -> Vec<Set> {
    let n = code.len();
    let units = program.regs.len();
    let mut known = vec![Set(vec![u64::MAX; units.div_ceil(64)]); n + 1];
    known[0] = Set::new(units);
    let mut reached = vec![false; n + 1];
    reached[0] = true;
    let mut changed = true;
    while changed {
        changed = false;
        for pc in 0..n {
            if !reached[pc] {
                continue;
            }
            let mut out = known[pc].clone();
            for (d, whole) in defs(program, &code[pc]) {
                if whole {
                    out.add(d);
                }
            }
            for to in successors(code, pc) {
                let at = &mut known[to];
                for (k, o) in at.0.iter_mut().zip(&out.0) {
                    let m = *k & o;
                    changed |= m != *k;
                    *k = m;
                }
                if !reached[to] {
                    reached[to] = true;
                    changed = true;
                }
            }
        }
    }
    known
}

/// The registers an untraced run need not hold: each is written by one instruction only, an unguarded `mov` of
/// a value that stays the same while the warp runs (an immediate, a launch constant, a special register other
/// than the clocks, or another such register), and read only by its own lane where that write has happened
/// on every path. `constants(..)[r]` is the operand that replaces register `r` (its first row) in the
/// instructions that read it; the `mov` itself then executes as a `nop` (with the same timing: the scoreboard
/// and the statistics keep the program's registers). nvcc's PTX names such a register for every kernel
/// parameter, block dimension and shuffle operand, and keeps most of them live for the whole kernel.
pub(crate) fn constants(program: &Program, code: &[DInstr], consts: &[u64]) -> Vec<Option<Src>> {
    let units = program.regs.len();
    let private = private(program, code);
    let known = written(program, code);
    // Each register's one defining instruction (None: never written, or written by several).
    let mut def: Vec<Option<Option<usize>>> = vec![None; units];
    for (pc, i) in code.iter().enumerate() {
        for (d, _) in defs(program, i) {
            let x = &mut def[usize::from(d)];
            *x = if x.is_none() { Some(Some(pc)) } else { Some(None) };
        }
    }
    // Candidates: what their `mov` reads.
    let mut value: Vec<Option<Src>> = vec![None; units];
    for r in 0..units {
        let Some(Some(pc)) = def[r] else { continue };
        let i = &code[pc];
        #[allow(clippy::cast_possible_truncation, reason = "register rows are u16")]
        let (head, width) = unit_of(program, r as u16);
        if usize::from(head) != r || private[r] || i.guard.is_some() || i.write2.is_some() {
            continue;
        }
        value[r] = match (i.op, width) {
            (DOp::Mov { d, a }, 1) if d == head => match a {
                Src::Imm(_) | Src::Reg(_) => Some(a),
                Src::Const(k) => Some(Src::Imm(crate::kernel::low32(consts[k as usize]))),
                Src::Special(sp) if !matches!(sp, Special::Clock | Special::Clock64) => Some(a),
                Src::Special(_) => None,
            },
            (
                DOp::Wide {
                    f: Wide::Mov,
                    d,
                    a: a @ (Src::Imm(_) | Src::Const(_) | Src::Reg(_)),
                    ..
                },
                2,
            ) if d == head => Some(a),
            _ => None,
        };
    }
    // Every read is by the register's first row, where its write has happened on every path.
    let mut bad = vec![false; units];
    for (pc, i) in code.iter().enumerate() {
        for &x in &i.reads {
            let (head, _) = unit_of(program, x);
            if head != x || !known[pc].has(head) {
                bad[usize::from(head)] = true;
            }
        }
    }
    // A copy of another register is a constant if that one is, of the same width (resolved to the end of the
    // chain; a cycle of copies is none).
    (0..units)
        .map(|r| {
            #[allow(clippy::cast_possible_truncation, reason = "register rows are u16")]
            let width = unit_of(program, r as u16).1;
            let mut at = r;
            for _ in 0..=units {
                if bad[at] {
                    return None;
                }
                match value[at] {
                    Some(Src::Reg(x)) if unit_of(program, x) == (x, width) => at = usize::from(x),
                    Some(Src::Reg(_)) | None => return None,
                    v => return v,
                }
            }
            None
        })
        .collect()
}

/// Whether an instruction reads or writes the high row of a 64-bit register by itself.
pub(crate) fn names_high_rows(program: &Program, code: &[DInstr]) -> bool {
    let high = |r: u16| unit_of(program, r).0 != r;
    code.iter()
        .any(|i| i.reads.iter().any(|&r| high(r)) || i.write.is_some_and(high) || i.write2.is_some_and(high))
}

/// `code` for the row analyses and the untraced run once the [`constants`] are substituted: their reads go,
/// and their `mov`s write nothing (`nop`; the program's registers in `reads` and `write` stay for the
/// scoreboard, see [`without_constants`]).
pub(crate) fn substitute(code: &[DInstr], constants: &[Option<Src>]) -> Vec<DInstr> {
    code.iter()
        .map(|i| {
            if let Some(d) = i.write
                && constants[usize::from(d)].is_some()
            {
                return DInstr {
                    op: DOp::Nop,
                    ..i.clone()
                };
            }
            let op = map_op(i.op, &|d| d, &mut |x| match x {
                Src::Reg(r) => constants[usize::from(r)].unwrap_or(x),
                x => x,
            });
            DInstr { op, ..i.clone() }
        })
        .collect()
}

/// `code` as the row analyses see it once the [`constants`] are substituted: their reads and writes gone.
pub(crate) fn without_constants(code: &[DInstr], constants: &[Option<Src>]) -> Vec<DInstr> {
    code.iter()
        .map(|i| DInstr {
            reads: i
                .reads
                .iter()
                .copied()
                .filter(|&r| constants[usize::from(r)].is_none())
                .collect(),
            write: i.write.filter(|&d| constants[usize::from(d)].is_none()),
            ..i.clone()
        })
        .collect()
}

/// The register rows some lane may read before it has written them, or that another lane reads: a forward
/// "definitely written" analysis. These must start at zero; the others need not be cleared when a warp is
/// placed. (Rows of the program's registers.)
pub(crate) fn read_before_written(program: &Program, code: &[DInstr]) -> Vec<u16> {
    let known = written(program, code);
    let mut forced = private(program, code);
    for (pc, i) in code.iter().enumerate() {
        for r in uses(program, i) {
            if !known[pc].has(r) {
                forced[usize::from(r)] = true;
            }
        }
        // A partial write keeps the register's other lanes (or its high row): they must hold something defined.
        for (d, whole) in defs(program, i) {
            if !whole && !known[pc].has(d) {
                forced[usize::from(d)] = true;
            }
        }
    }
    let mut rows = Vec::new();
    for (r, f) in forced.iter().enumerate() {
        if *f && program.regs.get(r).is_some() {
            #[allow(clippy::cast_possible_truncation, reason = "register rows are u16")]
            let (head, width) = unit_of(program, r as u16);
            if usize::from(head) == r {
                rows.extend(head..head + width);
            }
        }
    }
    rows
}

/// Rows for an untraced run: `row[r]` is the row of the program's register row `r`, and the rows in all. Two
/// registers share a row when neither is live where the other is written (a backward liveness analysis; a
/// partial write keeps its register live), and both are of one width.
pub(crate) fn coalesce(program: &Program, code: &[DInstr]) -> (Vec<u16>, usize) {
    let n = code.len();
    let units = program.regs.len();
    // Live registers after each instruction.
    let mut live_in = vec![Set::new(units); n + 1];
    // (One scratch set, cleared for each instruction: no allocation per instruction and pass.)
    let mut live = Set::new(units);
    let mut changed = true;
    while changed {
        changed = false;
        for pc in (0..n).rev() {
            live.0.fill(0);
            for s in successors(code, pc) {
                live.union(&live_in[s]);
            }
            for (d, whole) in defs(program, &code[pc]) {
                if whole {
                    live.remove(d);
                }
            }
            for r in uses(program, &code[pc]) {
                live.add(r);
            }
            for (d, whole) in defs(program, &code[pc]) {
                if !whole {
                    live.add(d);
                }
            }
            if live.0 != live_in[pc].0 {
                live_in[pc].0.copy_from_slice(&live.0);
                changed = true;
            }
        }
    }
    // Interference: a register written while another is live after the write; registers live at the start
    // (read before written: zeroed rows) with each other.
    let mut clash = vec![Set::new(units); units];
    let edge = |a: u16, b: u16, clash: &mut Vec<Set>| {
        if a != b {
            clash[usize::from(a)].add(b);
            clash[usize::from(b)].add(a);
        }
    };
    let mut out = Set::new(units);
    for pc in 0..n {
        out.0.fill(0);
        for s in successors(code, pc) {
            out.union(&live_in[s]);
        }
        let written = defs(program, &code[pc]);
        for &(d, _) in &written {
            for x in out.iter() {
                edge(d, x, &mut clash);
            }
            for &(e, _) in &written {
                edge(d, e, &mut clash);
            }
        }
    }
    let entry: Vec<u16> = live_in[0].iter().collect();
    for &a in &entry {
        for &b in &entry {
            edge(a, b, &mut clash);
        }
    }
    let private = private(program, code);
    // Greedy, registers in the order the code first names them (for straight-line code, where lifetimes are
    // intervals, that takes no more rows than registers are ever live at once): each takes the first row group
    // of its width none of whose registers clash with it.
    let mut order: Vec<(usize, u16, u16)> = Vec::new(); // (first pc, first row, width)
    let mut seen = vec![false; units];
    for (pc, i) in code.iter().enumerate() {
        let named = defs(program, i).into_iter().map(|(d, _)| d).chain(uses(program, i));
        for head in named {
            if !seen[usize::from(head)] {
                seen[usize::from(head)] = true;
                order.push((pc, head, unit_of(program, head).1));
            }
        }
    }
    // Registers the code never names (declared, unused) come last.
    let mut r = 0usize;
    while r < units {
        #[allow(clippy::cast_possible_truncation, reason = "register rows are u16")]
        let (head, width) = unit_of(program, r as u16);
        if !seen[usize::from(head)] {
            order.push((usize::MAX, head, width));
        }
        r += usize::from(width);
    }
    let mut row = vec![0u16; units];
    let mut groups: Vec<(u16, u16, Set, bool)> = Vec::new(); // (first row, width, members, private)
    let mut next = 0usize;
    for &(_, head, width) in &order {
        let h = usize::from(head);
        let own = private[h];
        let found = if own {
            None
        } else {
            groups
                .iter_mut()
                .find(|(_, w, members, p)| *w == width && !*p && !members.meets(&clash[h]))
        };
        let first = match found {
            Some((first, _, members, _)) => {
                members.add(head);
                *first
            }
            None => {
                let mut members = Set::new(units);
                members.add(head);
                #[allow(clippy::cast_possible_truncation, reason = "no more rows than the program's (u16)")]
                let first = next as u16;
                groups.push((first, width, members, own));
                next += usize::from(width);
                first
            }
        };
        for k in 0..width {
            row[h + usize::from(k)] = first + k;
        }
    }
    (row, next)
}

impl Member {
    fn map(self, s: &mut dyn FnMut(Src) -> Src) -> Member {
        match self {
            Member::Reg(x) => Member::Reg(s(x)),
            m @ Member::Lanes(_) => m,
        }
    }
}

/// `op` with its register rows renamed by `row` (predicates stay).
pub(crate) fn rename(op: DOp, row: &[u16]) -> DOp {
    map_op(op, &|d| row[usize::from(d)], &mut |x| match x {
        Src::Reg(r) => Src::Reg(row[usize::from(r)]),
        x => x,
    })
}

/// `op` with each register it writes mapped by `r` and each source operand by `s` (predicates stay).
fn map_op(op: DOp, r: &dyn Fn(u16) -> u16, s: &mut dyn FnMut(Src) -> Src) -> DOp {
    let addr = |mut a: crate::kernel::DAddr, s: &mut dyn FnMut(Src) -> Src| {
        a.base = a.base.map(s);
        a
    };
    match op {
        DOp::Mov { d, a } => DOp::Mov { d: r(d), a: s(a) },
        DOp::Un { f, d, a } => DOp::Un { f, d: r(d), a: s(a) },
        DOp::Bin { f, d, a, b } => DOp::Bin {
            f,
            d: r(d),
            a: s(a),
            b: s(b),
        },
        DOp::Tern { f, d, a, b, c } => DOp::Tern {
            f,
            d: r(d),
            a: s(a),
            b: s(b),
            c: s(c),
        },
        DOp::Setp { cmp, class, p, a, b } => DOp::Setp {
            cmp,
            class,
            p,
            a: s(a),
            b: s(b),
        },
        DOp::PredLogic { .. } | DOp::Bra { .. } | DOp::Exit | DOp::Nop => op,
        DOp::Selp { d, a, b, p } => DOp::Selp {
            d: r(d),
            a: s(a),
            b: s(b),
            p,
        },
        DOp::Cvt { f, d, a } => DOp::Cvt { f, d: r(d), a: s(a) },
        DOp::Wide { f, d, a, b, c } => DOp::Wide {
            f,
            d: r(d),
            a: s(a),
            b: s(b),
            c: s(c),
        },
        DOp::Carry {
            f,
            signed,
            wide,
            d,
            a,
            b,
            c,
            cin,
            cout,
        } => DOp::Carry {
            f,
            signed,
            wide,
            d: r(d),
            a: s(a),
            b: s(b),
            c: s(c),
            cin,
            cout,
        },
        DOp::Setp64 { cmp, class, p, a, b } => DOp::Setp64 {
            cmp,
            class,
            p,
            a: s(a),
            b: s(b),
        },
        DOp::Selp64 { d, a, b, p } => DOp::Selp64 {
            d: r(d),
            a: s(a),
            b: s(b),
            p,
        },
        DOp::Unpack { lo, hi, a } => DOp::Unpack {
            lo: r(lo),
            hi: r(hi),
            a: s(a),
        },
        DOp::Bfi {
            wide,
            d,
            a,
            b,
            pos,
            len,
        } => DOp::Bfi {
            wide,
            d: r(d),
            a: s(a),
            b: s(b),
            pos: s(pos),
            len: s(len),
        },
        DOp::Ld { d, addr: a } => DOp::Ld {
            d: r(d),
            addr: addr(a, s),
        },
        DOp::St { addr: a, a: v } => DOp::St {
            addr: addr(a, s),
            a: s(v),
        },
        DOp::Shfl {
            mode,
            d,
            p,
            a,
            b,
            clamp,
            segmask,
            from,
            member,
        } => DOp::Shfl {
            mode,
            d: r(d),
            p,
            a: s(a),
            b: s(b),
            clamp,
            segmask,
            from: from.map(&mut *s),
            member: member.map(s),
        },
        DOp::Atom { f, d, addr: a, b, c } => DOp::Atom {
            f,
            d: d.map(r),
            addr: addr(a, s),
            b: s(b),
            c: c.map(&mut *s),
        },
        DOp::Bar { kind, id, count, pred } => DOp::Bar {
            kind: match kind {
                DBar::Popc(d) => DBar::Popc(r(d)),
                k => k,
            },
            id: s(id),
            count: count.map(&mut *s),
            pred,
        },
        DOp::BarWarp { mask } => DOp::BarWarp { mask: mask.map(s) },
        DOp::Vote { mode, d, a, mask } => DOp::Vote {
            mode,
            // (`vote.ballot` writes a register; the other modes a predicate.)
            d: if mode == warpsim_isa::VoteMode::Ballot { r(d) } else { d },
            a,
            mask: mask.map(s),
        },
        DOp::Activemask { d } => DOp::Activemask { d: r(d) },
        DOp::Printf { d, fmt, args } => DOp::Printf {
            d: r(d),
            fmt: s(fmt),
            args: s(args),
        },
        DOp::AssertFail {
            message,
            file,
            line,
            function,
        } => DOp::AssertFail {
            message: s(message),
            file: s(file),
            line: s(line),
            function: s(function),
        },
        DOp::Match { all, d, p, a, mask } => DOp::Match {
            all,
            d: r(d),
            p,
            a: s(a),
            mask: mask.map(s),
        },
        DOp::Redux { op, signed, d, a, mask } => DOp::Redux {
            op,
            signed,
            d: r(d),
            a: s(a),
            mask: mask.map(s),
        },
    }
}

/// The instructions the compiler removes as dead code (`timing.dead_code`, [`crate::kernel::sched::DEAD`]):
/// those with no effect but their results (not a store, an atomic, a barrier, a branch, an exit, a `printf` or
/// a clock read) whose results no instruction that stays reads on any path before they are overwritten or the
/// lanes exit ("faint" code: an instruction that only feeds dead ones is dead too), and the comparisons the
/// compiler folds to a constant (below; their predicate is still written). A branch or `exit` whose
/// guard the instruction before it computed from constants the compiler knows (`%laneid` against an immediate,
/// at warp size `w`; a register compared with itself) goes one way only, as after nvcc's folding: the random
/// programs' `setp.lt.u32 %q, %laneid, 32; @%q exit` leaves every value before it unread. Empty (nothing dead)
/// past the analyses' size limits.
pub(crate) fn dead(program: &Program, code: &[DInstr], w: u32) -> Vec<bool> {
    use crate::kernel::Unit;
    let n = code.len();
    let units = program.regs.len();
    let preds = program.preds.len();
    if units > MAX_COALESCED_REGS || (units + preds) * n > MAX_COALESCED {
        return Vec::new();
    }
    let removable = |i: &DInstr| {
        !matches!(
            i.op,
            DOp::St { .. }
                | DOp::Atom { .. }
                | DOp::Bar { .. }
                | DOp::BarWarp { .. }
                | DOp::Printf { .. }
                | DOp::AssertFail { .. }
                | DOp::Bra { .. }
                | DOp::Exit
                | DOp::Nop
        ) && i.unit != Unit::Clock
            && (i.write.is_some() || i.write2.is_some() || i.pred_write.is_some())
    };
    // Where control goes, with the guards the compiler knows followed one way.
    let next = |pc: usize| -> SmallVec<[usize; 2]> {
        let i = &code[pc];
        let known = match i.guard {
            Some((p, neg)) if pc > 0 && i.sched & crate::kernel::sched::LEADER == 0 => {
                known_predicate(&code[pc - 1], p, w).map(|v| v != neg)
            }
            _ => None,
        };
        match (i.op, known) {
            (DOp::Exit, Some(true)) => SmallVec::new(),
            (DOp::Exit | DOp::Bra { .. }, Some(false)) => smallvec::smallvec![pc + 1],
            (DOp::Bra { target }, Some(true)) => smallvec::smallvec![target as usize],
            _ => successors(code, pc),
        }
    };
    // A comparison the compiler folds to a constant reads nothing (its predicate is still written).
    let folded = |i: &DInstr| i.pred_write.is_some_and(|p| known_predicate(i, p, w).is_some());
    // Rounds of liveness, each counting the reads of the instructions not yet found dead, until a round finds
    // no more (an instruction whose only readers are dead is dead in the next round).
    let mut dead = vec![false; n];
    let mut live_in = vec![(Set::new(units), Set::new(preds)); n + 1];
    let (mut regs, mut ps) = (Set::new(units), Set::new(preds));
    loop {
        for l in &mut live_in {
            l.0.0.fill(0);
            l.1.0.fill(0);
        }
        let mut changed = true;
        while changed {
            changed = false;
            for pc in (0..n).rev() {
                regs.0.fill(0);
                ps.0.fill(0);
                for s in next(pc) {
                    regs.union(&live_in[s].0);
                    ps.union(&live_in[s].1);
                }
                let i = &code[pc];
                if !dead[pc] {
                    for (d, whole) in defs(program, i) {
                        if whole {
                            regs.remove(d);
                        }
                    }
                    if let Some(p) = i.pred_write
                        && i.guard.is_none()
                    {
                        ps.remove(p);
                    }
                    for r in uses(program, i) {
                        regs.add(r);
                    }
                    for &p in &i.pred_reads {
                        ps.add(p);
                    }
                }
                if regs.0 != live_in[pc].0.0 || ps.0 != live_in[pc].1.0 {
                    live_in[pc].0.0.copy_from_slice(&regs.0);
                    live_in[pc].1.0.copy_from_slice(&ps.0);
                    changed = true;
                }
            }
        }
        let mut more = false;
        for pc in 0..n {
            let i = &code[pc];
            if dead[pc] || !removable(i) {
                continue;
            }
            regs.0.fill(0);
            ps.0.fill(0);
            for s in next(pc) {
                regs.union(&live_in[s].0);
                ps.union(&live_in[s].1);
            }
            let read_later =
                defs(program, i).iter().any(|&(d, _)| regs.has(d)) || i.pred_write.is_some_and(|p| ps.has(p));
            if !read_later || folded(i) {
                dead[pc] = true;
                more = true;
            }
        }
        if !more {
            return dead;
        }
    }
}

/// The value of predicate `p` after `setter` runs, where the compiler knows it: an unguarded comparison of
/// `%laneid` with an immediate that comes out the same in every lane of a warp of `w`, or of a register with
/// itself ([`self_comparison`]).
fn known_predicate(setter: &DInstr, p: u16, w: u32) -> Option<bool> {
    use crate::kernel::CmpClass;
    if let Some((q, v)) = self_comparison(setter) {
        return (q == p).then_some(v);
    }
    let DOp::Setp {
        cmp,
        class: class @ (CmpClass::Unsigned | CmpClass::Signed),
        p: q,
        a: Src::Special(Special::LaneId),
        b: Src::Imm(k),
    } = setter.op
    else {
        return None;
    };
    if q != p || setter.guard.is_some() {
        return None;
    }
    let holds = |lane: u32| crate::alu::compare(cmp, class, lane, k);
    (0..w).all(|l| holds(l) == holds(0)).then(|| holds(0))
}

/// The predicate an unguarded comparison of a register with itself writes, and its value, which nvcc folds:
/// integers compare equal; floats are not less or greater (NaN leaves the other comparisons unknown).
pub(crate) fn self_comparison(setter: &DInstr) -> Option<(u16, bool)> {
    use crate::kernel::CmpClass;
    use warpsim_isa::ast::Cmp;
    let DOp::Setp {
        cmp,
        class,
        p,
        a: Src::Reg(a),
        b: Src::Reg(b),
    } = setter.op
    else {
        return None;
    };
    if a != b || setter.guard.is_some() {
        return None;
    }
    let value = match (cmp, class) {
        (Cmp::Eq | Cmp::Le | Cmp::Ge, CmpClass::Signed | CmpClass::Unsigned) => true,
        (Cmp::Ne | Cmp::Lt | Cmp::Gt, CmpClass::Signed | CmpClass::Unsigned) => false,
        (Cmp::Lt | Cmp::Gt, CmpClass::Float | CmpClass::FloatFtz) => false,
        _ => return None,
    };
    Some((p, value))
}
