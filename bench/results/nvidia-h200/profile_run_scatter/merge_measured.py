#!/usr/bin/env python3
"""Builds the measured times the picks replay reads (picks_probe.py): a run of every kernel, with the rows of later
runs put in place of its own where both have them (kernel, mode and matrix), times and, where given, conversions.

    python3 merge_measured.py BASE.csv OUT.csv [--times LATER.csv ...] [--convert LATER.csv ...]
"""
import csv
import sys


def main():
    base, out = sys.argv[1], sys.argv[2]
    rows = list(csv.DictReader(open(base)))
    index = {(r["matrix"], r["mode"], r["kernel"]): r for r in rows if r["library"] == "araios"}
    field = "time_s"
    for arg in sys.argv[3:]:
        if arg in ("--times", "--convert"):
            field = "time_s" if arg == "--times" else "convert_s"
            continue
        for r in csv.DictReader(open(arg)):
            if r["library"] != "araios" or not r["matrix"]:
                continue
            if field == "convert_s":  # a format's build is the same in every mode
                for mode in ("fast", "deterministic", "accurate"):
                    if (r["matrix"], mode, r["kernel"]) in index:
                        index[(r["matrix"], mode, r["kernel"])][field] = r[field]
            elif (r["matrix"], r["mode"], r["kernel"]) in index:
                index[(r["matrix"], r["mode"], r["kernel"])][field] = r[field]
    writer = csv.DictWriter(open(out, "w"), fieldnames=rows[0].keys())
    writer.writeheader()
    writer.writerows(rows)


if __name__ == "__main__":
    main()
