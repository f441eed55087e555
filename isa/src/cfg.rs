//! Control-flow analysis: basic blocks, the control-flow graph, and reconvergence points.
//!
//! A SIMT machine runs both sides of a divergent branch one after the other and merges the lanes again at the
//! branch's **immediate post-dominator**: the first instruction that every path from the branch must reach.
//! This is what a reconvergence stack (GPGPU-Sim's IPDOM stack, pre-Volta NVIDIA hardware) uses. Post-dominators
//! are the dominators of the reversed graph rooted at a virtual exit node (`exit` instructions and falling off
//! the end lead there); petgraph's Cooper–Harvey–Kennedy algorithm computes them.

use crate::ast::{Op, Program};
use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};

/// A straight run of instructions entered only at the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasicBlock {
    /// First instruction.
    pub start: usize,
    /// One past the last instruction.
    pub end: usize,
    /// Successor blocks; `None` is the program's exit.
    pub successors: Vec<Option<usize>>,
}

#[derive(Clone, Debug)]
pub struct Cfg {
    pub blocks: Vec<BasicBlock>,
    /// For each instruction: the pc where lanes split by it reconverge (its block's immediate post-dominator);
    /// `None` when the paths only meet at exit. Meaningful for branches.
    pub reconvergence: Vec<Option<usize>>,
}

impl Cfg {
    pub fn reconvergence_pc(&self, branch_pc: usize) -> Option<usize> {
        self.reconvergence.get(branch_pc).copied().flatten()
    }
}

pub fn analyse(p: &Program) -> Cfg {
    let n = p.instructions.len();
    // Leaders: the first instruction, branch targets, and what follows a branch or exit.
    let mut leader = vec![false; n + 1];
    leader[0] = true;
    for (pc, inst) in p.instructions.iter().enumerate() {
        match inst.op {
            Op::Bra { target } => {
                leader[target] = true;
                leader[pc + 1] = true;
            }
            Op::Exit => leader[pc + 1] = true,
            _ => {}
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&pc| leader[pc]).collect();
    let mut block_of = vec![0usize; n];
    let mut blocks = Vec::with_capacity(starts.len());
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(n);
        block_of[start..end].fill(k);
        blocks.push(BasicBlock {
            start,
            end,
            successors: Vec::new(),
        });
    }
    let block_at = |pc: usize| if pc >= n { None } else { Some(block_of[pc]) };
    for b in &mut blocks {
        let last = &p.instructions[b.end - 1];
        let conditional = last.guard.is_some();
        b.successors = match last.op {
            // A branch to the program's end is an exit (for ptxas too: nvcc's early returns are branches to
            // the kernel's `ret`, and the lanes they take leave, as below).
            Op::Bra { target } if conditional && target >= n => vec![block_at(b.end)],
            Op::Bra { target } if conditional => vec![block_at(target), block_at(b.end)],
            Op::Bra { target } => vec![block_at(target)],
            // Lanes that exit leave every stack entry on their own; for reconvergence only the lanes that go on
            // matter, so a guarded exit keeps just its fall-through edge (else a join after it would no longer
            // post-dominate an enclosing branch).
            Op::Exit if conditional => vec![block_at(b.end)],
            Op::Exit => vec![None],
            _ => vec![block_at(b.end)],
        };
        b.successors.dedup();
    }
    // Reverse graph: node k is block k, the last node is the virtual exit.
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(blocks.len() + 1, blocks.len() * 2);
    let nodes: Vec<NodeIndex> = (0..=blocks.len()).map(|_| g.add_node(())).collect();
    let exit = nodes[blocks.len()];
    for (k, b) in blocks.iter().enumerate() {
        for s in &b.successors {
            let to = s.map(|s| nodes[s]).unwrap_or(exit);
            g.add_edge(to, nodes[k], ());
        }
    }
    let pdom = simple_fast(&g, exit);
    let mut reconvergence = vec![None; n];
    for (k, b) in blocks.iter().enumerate() {
        let ipdom = pdom
            .immediate_dominator(nodes[k])
            .filter(|&d| d != exit)
            .map(|d| blocks[d.index()].start);
        reconvergence[b.end - 1] = ipdom;
    }
    Cfg { blocks, reconvergence }
}
