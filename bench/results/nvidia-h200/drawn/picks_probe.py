#!/usr/bin/env python3
"""Joins picks_probe's choices (TSV on stdin or a file) with a GPU run's measured times (CSV):
for each profile and product count, what its picks cost against the fastest kernel measured.

    python3 picks_probe.py picks.tsv drawn-31337.csv

Two ratios per pick. "fastest ÷ pick" compares the product alone, as araios-bench's auto_kernel
column does. "with builds" compares build + products x product, the quantity Auto minimises
for that product count: the measured build from CSR (convert_s) plus the products, against the
least such cost over the measured kernels. With 10^12 products the two agree.
"""
import collections
import csv
import math
import sys


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v))


def main():
    picks_path, measured_path = sys.argv[1], sys.argv[2]
    measured = {}
    for r in csv.DictReader(open(measured_path)):
        if r["library"] == "araios" and r["time_s"] and r["refused"] != "true" and not r["error"]:
            measured[(r["matrix"], r["mode"], r["kernel"])] = (float(r["time_s"]), float(r["convert_s"] or 0))
    ratios = collections.defaultdict(list)
    print("| matrix | mode | products | profile | pick | measured µs | fastest µs | fastest ÷ pick | with builds |")
    print("|---|---|--:|---|---|--:|--:|--:|--:|")
    for r in csv.DictReader(open(picks_path), delimiter="\t"):
        n = float(r["products"])
        candidates = {k: v for (m, mode, k), v in measured.items() if (m, mode) == (r["matrix"], r["mode"])}
        fastest = min(t for t, _ in candidates.values())
        cheapest = min(b + n * t for t, b in candidates.values())
        picked = candidates.get(r["kernel"])
        product = fastest / picked[0] if picked else float("nan")
        built = cheapest / (picked[1] + n * picked[0]) if picked else float("nan")
        ratios[(r["profile"], r["products"])].append((product, built))
        print(f"| {r['matrix']} | {r['mode']} | {r['products']} | {r['profile'].split('/')[-1]} | {r['kernel']} | "
              f"{picked[0] * 1e6 if picked else float('nan'):.1f} | {fastest * 1e6:.1f} | {product:.2f} | {built:.2f} |")
    print()
    for (profile, products), v in sorted(ratios.items()):
        ok = [x for x in v if not math.isnan(x[0])]
        product, built = [x[0] for x in ok], [x[1] for x in ok]
        print(f"{profile.split('/')[-1]:40} products {products:>13}: geomean fastest/pick {geomean(product):.3f}, "
              f"worst {min(product):.3f}, within 10 % {sum(x >= 0.9 for x in product)} of {len(ok)}; "
              f"with builds {geomean(built):.3f}, worst {min(built):.3f}, within 10 % {sum(x >= 0.9 for x in built)}")


if __name__ == "__main__":
    main()
