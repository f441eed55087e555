#!/usr/bin/env python3
"""Which instructions does the GPU charge more than warpsim? A least-squares fit over random programs.

For a sample of the random programs of a saved cross-check run (`report.json` with `random.each`: index, GPU
cycles, warpsim cycles), runs each in warpsim with the per-instruction profile (`sim run --format json`,
`stats.lines`, and this build's cycles), counts the warp instructions it issued per instruction class and per warp, and fits
    GPU cycles - warpsim cycles  ~  sum over classes of beta_class x count_class  +  constant
by least squares. A class with a large positive beta is one the model under-prices (or one that stands for
something it leaves out); docs/timing.md quotes the result. Needs numpy.

    python3 calibration/analysis/fit_random.py crosscheck/h100-2026-11-27.json [--sim target/release/sim] [--sample 1200] [--config FILE]
"""
import argparse, collections, json, os, random, subprocess, tempfile

import numpy as np


def classify(text):
    words = text.split()
    op = words[1] if words[0].startswith("@") else words[0]
    base = op.split(".")[0]
    if base in ("ld", "st", "atom", "red"):
        return base + (".shared" if ".shared" in op else ".global")
    if base in ("add", "sub", "mul", "mad", "fma", "min", "max", "div", "rem", "setp", "cvt", "neg", "abs", "sqrt"):
        if ".f64" in op:
            return base + ".f64"
        if ".f32" in op:
            return base + ".f32"
        if "64" in op:
            return base + ".i64"
    return base


def main():
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("report")
    a.add_argument("--sim", default="target/release/sim")
    a.add_argument("--sample", type=int, default=1200)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--config", help="a machine configuration for warpsim (`sim run --config`)")
    args = a.parse_args()
    rep = json.load(open(args.report))
    seed = rep["random"]["seed"]
    each = [e for e in rep["random"]["each"] if e[1] >= 20]
    random.seed(args.seed)
    sample = random.sample(each, min(args.sample, len(each)))
    rows = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.s")
        for index, gpu, sim in sample:
            src = subprocess.run([args.sim, "random", "--seed", str(seed), "--index", str(index)],
                                 capture_output=True, text=True, check=True).stdout
            open(path, "w").write(src)
            extra = ["--config", args.config] if args.config else []
            out = subprocess.run([args.sim, "run", path, "--format", "json"] + extra, capture_output=True, text=True).stdout
            doc = json.loads(out)
            # This build's cycles (the saved run's are the model's when the GPU ran).
            sim = doc["cycles"]
            warps = doc["stats"]["warp_count"]
            counts = collections.Counter()
            for line in doc["stats"]["lines"]:
                counts[classify(line["instruction"])] += line["issued"]
            rows.append((gpu, sim, warps, counts))
    seen = collections.Counter(k for r in rows for k in r[3])
    keys = sorted(k for k, n in seen.items() if n >= 30)
    x = np.array([[r[3].get(k, 0) / r[2] for k in keys] + [1.0] for r in rows])
    y = np.array([r[0] - r[1] for r in rows], dtype=float)
    beta = np.linalg.lstsq(x, y, rcond=None)[0]
    fit = x @ beta
    r2 = 1 - ((y - fit) ** 2).sum() / ((y - y.mean()) ** 2).sum()
    print(f"{len(rows)} programs; mean GPU - warpsim {y.mean():.1f} cycles; R^2 {r2:.2f}")
    print(f"{'class':16} {'cycles each':>12} {'per warp':>9} {'share of the gap':>17}")
    order = np.argsort(-np.abs(beta[:-1] * x[:, :-1].mean(0)))
    for i in order[:20]:
        print(f"{keys[i]:16} {beta[i]:12.1f} {x[:, i].mean():9.2f} {beta[i] * x[:, i].mean():17.1f}")
    print(f"{'constant':16} {beta[-1]:12.1f}")


if __name__ == "__main__":
    main()
