#!/usr/bin/env python3
"""Before/after table of the team carveout (README.md): for each matrix, kernel and mode, the
median time with Kokkos 3.x's cache preference (ARAIOS_CUDA_TEAM_CARVEOUT=kokkos, *-before.csv)
and with the library's carveout (*-after.csv), their ratio, and whether y's hash is the same.

Usage: python3 compare.py SUITE-SEED [...]   (default: drawn-8086 unseen-4242)
"""
import csv
import math
import sys
from collections import defaultdict


def rows(path):
    with open(path, newline="") as f:
        return {(r["matrix"], r["kernel"], r["mode"]): r for r in csv.DictReader(f)
                if r["library"] in ("araios", "cusparse") and r["time_s"]}


def us(r):
    return float(r["time_s"]) * 1e6


def compare(name):
    after, before = rows(f"{name}-after.csv"), rows(f"{name}-before.csv")
    print(f"### {name}\n")
    print("| matrix | nnz | best cuSPARSE µs | kernel | mode | before µs | after µs | before / after | y |")
    print("|---|--:|--:|---|---|--:|--:|--:|---|")
    ratios = defaultdict(list)
    for matrix in sorted({k[0] for k in after}):
        baselines = [us(r) for k, r in after.items() if k[0] == matrix and r["library"] == "cusparse"]
        best = f"{min(baselines):.1f}" if baselines else ""
        for key in sorted(k for k in after if k[0] == matrix and after[k]["library"] == "araios"):
            a, b = after[key], before.get(key)
            if b is None:
                continue
            ratio = us(b) / us(a)
            ratios[key[1:]].append(ratio)
            same = "same bits" if a["y_hash"] == b["y_hash"] else "differs (atomics)" if key[2] == "fast" else "DIFFERS"
            print(f"| {matrix} | {a['nnz']} | {best} | {key[1]} | {key[2]} | {us(b):.1f} | {us(a):.1f} | "
                  f"{ratio:.2f} | {same} |")
            best = ""
    print("\n| kernel | mode | geomean before / after | min | max |")
    print("|---|---|--:|--:|--:|")
    for (kernel, mode), v in sorted(ratios.items()):
        g = math.exp(sum(map(math.log, v)) / len(v))
        print(f"| {kernel} | {mode} | {g:.2f} | {min(v):.2f} | {max(v):.2f} |")
    print()


for name in sys.argv[1:] or ["drawn-8086", "unseen-4242"]:
    compare(name)
