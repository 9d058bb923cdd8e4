#!/usr/bin/env python3
"""Joins picks_probe's choices (TSV on stdin or a file) with a GPU run's measured times (CSV):
for each profile and product count, what its picks cost against the fastest kernel measured.

    python3 picks_probe.py picks.tsv drawn-31337.csv
"""
import collections
import csv
import math
import sys


def main():
    picks_path, measured_path = sys.argv[1], sys.argv[2]
    measured = {}
    for r in csv.DictReader(open(measured_path)):
        if r["library"] == "araios" and r["time_s"] and r["refused"] != "true" and not r["error"]:
            measured[(r["matrix"], r["mode"], r["kernel"])] = float(r["time_s"])
    best = collections.defaultdict(lambda: math.inf)
    for (m, mode, _), t in measured.items():
        best[(m, mode)] = min(best[(m, mode)], t)
    ratios = collections.defaultdict(list)
    print("| matrix | mode | products | profile | pick | measured µs | fastest µs | fastest ÷ pick |")
    print("|---|---|--:|---|---|--:|--:|--:|")
    for r in csv.DictReader(open(picks_path), delimiter="\t"):
        key = (r["matrix"], r["mode"])
        t = measured.get((r["matrix"], r["mode"], r["kernel"]))
        ratio = best[key] / t if t else float("nan")
        ratios[(r["profile"], r["products"])].append(ratio)
        print(f"| {r['matrix']} | {r['mode']} | {r['products']} | {r['profile'].split('/')[-1]} | {r['kernel']} | "
              f"{t * 1e6 if t else float('nan'):.1f} | {best[key] * 1e6:.1f} | {ratio:.2f} |")
    print()
    for (profile, products), v in sorted(ratios.items()):
        ok = [x for x in v if not math.isnan(x)]
        gm = math.exp(sum(map(math.log, ok)) / len(ok))
        print(f"{profile.split('/')[-1]:40} products {products:>13}: geomean fastest/pick {gm:.3f}, "
              f"worst {min(ok):.3f}, within 10 % {sum(x >= 0.9 for x in ok)} of {len(ok)}")


if __name__ == "__main__":
    main()
