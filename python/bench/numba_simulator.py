"""warpsim against Numba's own CUDA simulator (NUMBA_ENABLE_CUDASIM=1) on the same Numba kernels, side by side.

    python python/bench/numba_simulator.py            # both, then the speed-ups (best launches, medians)
    python python/bench/numba_simulator.py --json     # the figures as JSON
    python python/bench/numba_simulator.py --size 65536 --kernels blocks_map   # another size, one kernel

Each kernel runs in a child process per simulator (Numba's simulator is chosen by an environment variable read at
import). Timed: the best of at least --repeat launches and of at least a second of them, after one warm-up launch
(which, for warpsim, compiles the kernel to PTX: Numba's simulator compiles nothing). Both results are checked
against NumPy.
"""

import argparse
import json
import os
import subprocess
import sys
import time

KERNELS = ["dot", "pooling", "blocks_map"]


def child(kernel_name: str, repeat: int, n: int) -> dict:
    import numpy as np

    # The kernels' module imports `cuda` from Numba (its simulator, under NUMBA_ENABLE_CUDASIM=1) or from warpsim.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import kernels

    tpb = kernels.TPB
    blocks = n // tpb
    rng = np.random.default_rng(1)
    a = rng.integers(-8, 8, n).astype(np.float32)
    b = rng.integers(-8, 8, n).astype(np.float32)
    if kernel_name == "dot":
        out = np.zeros(blocks, np.float32)
        args, want, k = (out, a, b, n), (a * b).reshape(blocks, tpb).sum(axis=1), kernels.dot
    elif kernel_name == "pooling":
        out = np.zeros(n, np.float32)
        ar = a.reshape(blocks, tpb)
        want = ar.copy()
        want[:, 1:] += ar[:, :-1]
        want[:, 2:] += ar[:, :-2]
        args, want, k = (out, a, n), want.ravel(), kernels.pooling
    else:
        out = np.zeros(n, np.float32)
        args, want, k = (out, a, n), a + 10, kernels.blocks_map
    t0 = time.perf_counter()
    k[blocks, tpb](*args)
    first = time.perf_counter() - t0
    # The best of at least `repeat` launches and of at least a second's worth (as `timeit`'s autorange): a launch of
    # a millisecond on a shared machine is timed often enough that one of them runs undisturbed.
    times = []
    while len(times) < repeat or sum(times) < 1.0:
        out[...] = 0
        t0 = time.perf_counter()
        k[blocks, tpb](*args)
        times.append(time.perf_counter() - t0)
    best, median = min(times), sorted(times)[len(times) // 2]
    assert np.array_equal(out, want), f"{kernel_name}: wrong result"
    return {
        "kernel": kernel_name,
        "threads": n,
        "first_s": first,
        "best_s": best,
        "median_s": median,
        "runs": len(times),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", action="store_true")
    p.add_argument("--child", help=argparse.SUPPRESS)
    p.add_argument("--kernels", default=",".join(KERNELS))
    p.add_argument("--size", type=int, default=4096, help="threads (a multiple of 256; default 4096)")
    args = p.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.repeat, args.size)))
        return
    rows = []
    for name in args.kernels.split(","):
        figures = {}
        for sim, env in (("numba_cudasim", {"NUMBA_ENABLE_CUDASIM": "1", "WARPSIM_BENCH": "0"}), ("warpsim", {"NUMBA_ENABLE_CUDASIM": "0", "WARPSIM_BENCH": "1"})):
            out = subprocess.run(
                [sys.executable, __file__, "--child", name, "--repeat", str(args.repeat), "--size", str(args.size)],
                env={**os.environ, **env},
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            figures[sim] = json.loads(out.strip().splitlines()[-1])
        row = {
            "kernel": name,
            "threads": figures["warpsim"]["threads"],
            "numba_cudasim_s": figures["numba_cudasim"]["best_s"],
            "warpsim_s": figures["warpsim"]["best_s"],
            "numba_cudasim_median_s": figures["numba_cudasim"]["median_s"],
            "warpsim_median_s": figures["warpsim"]["median_s"],
            "warpsim_launches": figures["warpsim"]["runs"],
            "warpsim_first_launch_s": figures["warpsim"]["first_s"],
        }
        row["speedup"] = row["numba_cudasim_s"] / row["warpsim_s"]
        row["speedup_median"] = row["numba_cudasim_median_s"] / row["warpsim_median_s"]
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"{'kernel':<12} {'threads':>7} {'Numba sim':>10} {'warpsim':>9} {'speed-up':>9}   "
        "medians: Numba sim, warpsim, speed-up  (warpsim launches timed; first launch, compile included)"
    )
    for r in rows:
        print(
            f"{r['kernel']:<12} {r['threads']:>7} {r['numba_cudasim_s']:>9.3f}s {r['warpsim_s'] * 1e3:>7.2f}ms "
            f"{r['speedup']:>8.0f}x   {r['numba_cudasim_median_s']:.3f} s, {r['warpsim_median_s'] * 1e3:.2f} ms, "
            f"{r['speedup_median']:.0f}x  ({r['warpsim_launches']}; {r['warpsim_first_launch_s']:.2f} s)"
        )

if __name__ == "__main__":
    main()
