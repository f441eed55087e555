#!/usr/bin/env python3
"""Print the control bits ptxas gave each instruction of some kernels of a `cuobjdump -sass` listing.

Usage: sass_control.py LISTING FUNCTION [FUNCTION ...]
       (FUNCTION: a mangled name as the listing's `Function :` lines give it)

An sm_90 instruction is 128 bits; cuobjdump prints it as two 64-bit words, the second on the line after the
instruction. Bits 105-127 (the second word's bits 41-63) are the scheduling controls ptxas sets:

  stall  (4 bits) cycles before the warp may issue its next instruction
  yield  (1 bit)
  wb, rb (3 bits each) the dependency scoreboard this instruction's result (wb) or source read (rb) releases;
         7: none
  wait   (6 bits) the scoreboards it waits for before it issues
  reuse  (4 bits) operand reuse flags

A fixed-latency result is covered by the stall counts between producer and consumer; a variable-latency one
(memory, shuffles) by a scoreboard. docs/timing.md ("Where the GPU's cycles go") reads loops of ubench28.cu this way.
"""
import re
import sys


def controls(listing, function):
    try:
        body = listing.split("Function : " + function + "\n")[1].split("Function :")[0]
    except IndexError:
        sys.exit(f"{function}: not in the listing")
    lines = body.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"\s+/\*([0-9a-f]{4})\*/\s+(.*?)\s*/\* (0x[0-9a-f]+) \*/", line)
        if not m or i + 1 >= len(lines):
            continue
        high = re.search(r"/\* (0x[0-9a-f]+) \*/", lines[i + 1])
        if not high:
            continue
        c = int(high.group(1), 16) >> 41
        text = m.group(2).strip()
        if text.startswith("NOP"):
            continue
        board = lambda b: "-" if b == 7 else str(b)
        yield (
            m.group(1),
            c & 15,
            (c >> 4) & 1,
            board((c >> 5) & 7),
            board((c >> 8) & 7),
            f"{(c >> 11) & 63:06b}",
            text,
        )


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    listing = open(sys.argv[1]).read()
    for function in sys.argv[2:]:
        print("==", function)
        for addr, stall, yld, wb, rb, wait, text in controls(listing, function):
            print(f"{addr} stall={stall:2d} yield={yld} wb={wb} rb={rb} wait={wait}  {text}")


if __name__ == "__main__":
    main()
