#!/usr/bin/env python3
"""The model's predicted product against the measured one, kernel by kernel: predicted-SUITE.tsv (picks_probe --all)
joined with the replay's measured times (v-SUITE.csv, built as this folder's README says).

    python3 model_errors.py DIR_OF_MEASURED_CSVS [KERNEL...]

Prints, per kernel, the geomean of predicted / measured over both modes and every suite, its range, and the mean of
|log ratio|; then, for the kernels named, each matrix's ratio in Fast mode, smallest first.
"""
import collections
import csv
import glob
import math
import os
import sys


def main():
    measured_dir, named = sys.argv[1], set(sys.argv[2:])
    here = os.path.dirname(os.path.abspath(__file__))
    ratios, rows = collections.defaultdict(list), []
    for path in sorted(glob.glob(os.path.join(here, "predicted-*.tsv"))):
        suite = os.path.basename(path)[len("predicted-"):-len(".tsv")]
        measured = {}
        for r in csv.DictReader(open(os.path.join(measured_dir, f"v-{suite}.csv"))):
            if r["library"] == "araios" and r["time_s"] and r["refused"] != "true" and not r["error"]:
                measured[(r["matrix"], r["mode"], r["kernel"])] = float(r["time_s"])
        for r in csv.DictReader(open(path), delimiter="\t"):
            key = (r["matrix"], r["mode"], r["kernel"])
            if key in measured:
                ratio = float(r["predicted_s"]) / measured[key]
                ratios[r["kernel"]].append(ratio)
                rows.append((r["matrix"], r["mode"], r["kernel"], float(r["predicted_s"]) * 1e6, measured[key] * 1e6, ratio))
    print("| kernel | n | geomean predicted ÷ measured | range | mean abs log |")
    print("|---|--:|--:|---|--:|")
    for kernel, v in sorted(ratios.items()):
        geomean = math.exp(sum(map(math.log, v)) / len(v))
        spread = sum(abs(math.log(x)) for x in v) / len(v)
        print(f"| {kernel} | {len(v)} | {geomean:.2f} | {min(v):.2f}–{max(v):.2f} | {spread:.2f} |")
    if named:
        print("\n| matrix | kernel | predicted µs | measured µs | ratio |\n|---|---|--:|--:|--:|")
        for m, mode, kernel, p, t, ratio in sorted(rows, key=lambda r: r[5]):
            if kernel in named and mode == "fast":
                print(f"| {m} | {kernel} | {p:.1f} | {t:.1f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
