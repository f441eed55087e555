#!/bin/bash
# Cut points of block_sum and block_reduce, and the unrolled butterfly, against the GPU (one worker, L2 flushed).
S=${SIM:-target/release/sim}
C=calibration/measured/exit-clocks
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
for r in 1 2; do
  echo "== round $r"
  $S crosscheck --jobs 1 $C/bs_a.s $C/bs_b.s $C/bs_c.s $C/bs_d.s $C/bs_e.s $C/br_a.s $C/br_b.s $C/br_bu.s $C/br_c.s block_sum block_reduce butterfly_max warp_reduce_sum conditional_max 2>&1 | grep -vE "^$|^  " | head -30
  echo "== threads=64 round $r"
  $S crosscheck --jobs 1 --set threads=64 $C/bs_a.s $C/bs_b.s $C/bs_c.s $C/bs_d.s $C/bs_e.s 2>&1 | grep -vE "^$|^  " | head -30
  echo "== threads=1024 n=1024 round $r"
  $S crosscheck --jobs 1 --set threads=1024 --set n=1024 $C/bs_a.s $C/bs_b.s $C/bs_c.s $C/bs_d.s $C/bs_e.s 2>&1 | grep -vE "^$|^  " | head -30
done
