#!/usr/bin/env python3
"""How well the performance model predicts, from an araios-bench --model run.

    python3 bench/model_report.py RESULTS.jsonl [MORE.jsonl|.csv ...] [--min-nnz 1000000] [--markdown]
                                  [--picks OTHER.jsonl ...]

Reads the Araios kernels' rows that were measured (no refusal, no error, within the error bound)
and carry the model's columns (predicted_s, auto_kernel), and prints, per backend and device:

1. the prediction error per kernel and mode: rows, mean |pred - meas| / meas, its median and
   90th percentile, and the bias (geometric mean of pred / meas: above 1 the model predicts
   slower than measured), over the rows of at least --min-nnz stored entries and over all rows;
2. Kernel::Auto against the oracle per matrix, mode and precision: the fastest measured Araios
   kernel, the kernel auto chose and its measured time; then the fraction of those where auto's
   kernel is within 10% of the oracle, and auto's geometric-mean performance relative to the
   oracle (geomean of oracle time / auto time; 1 is the oracle's). A matrix whose auto kernel
   was not measured (filtered out with --kernels, or refused) is counted apart.

--picks scores another profile's choices on the same timings: auto's kernel per matrix, mode and
precision is taken from those runs (araios-bench --model --profile OTHER, which may time a single
kernel, since every Araios row carries auto_kernel) instead of from RESULTS.

Only the standard library: it runs wherever araios-bench's outputs are.
"""

import argparse
import math
import sys
from collections import defaultdict

from result_rows import read_rows, usual_product

WITHIN = 1.10  # "within 10% of the oracle"


def measured(r):
    """An Araios row that ran, gave a result within the error bound, and has a time."""
    return (r.get("library") == "araios" and not r.get("refused") and not r.get("error")
            and (r.get("time_s") or 0) > 0 and r.get("within_error_bound") is not False)


def percentile(values, q):
    """Linear interpolation between the closest ranks (q in [0, 1])."""
    values = sorted(values)
    if not values:
        return None
    position = q * (len(values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def pct(v):
    return "—" if v is None else f"{100 * v:.1f}%"


def num(v, digits=3):
    return "—" if v is None else f"{v:.{digits}f}"


def seconds(s):
    if s is None:
        return "—"
    if s >= 1:
        return f"{s:.3g} s"
    if s >= 1e-3:
        return f"{s * 1e3:.3g} ms"
    return f"{s * 1e6:.3g} us"


def print_table(header, rows, markdown):
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for r in rows:
            print("| " + " | ".join(str(c) for c in r) + " |")
    else:
        widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
        for r in [header] + rows:
            print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    print()


def heading(text, markdown, level=2):
    print(("#" * level + " " + text) if markdown else text)
    print()


def error_stats(rows):
    errors = [abs(r["predicted_s"] - r["time_s"]) / r["time_s"] for r in rows]
    if not errors:
        return [0, "—", "—", "—", "—"]
    return [len(errors), pct(sum(errors) / len(errors)), pct(percentile(errors, 0.5)), pct(percentile(errors, 0.9)),
            num(geomean([r["predicted_s"] / r["time_s"] for r in rows]), 2)]


def prediction_errors(rows, min_nnz, markdown):
    by_kernel = defaultdict(list)
    order = []
    for r in rows:
        key = (r["kernel"], r["mode"])
        if key not in by_kernel:
            order.append(key)
        by_kernel[key].append(r)
    header = ["kernel", "mode",
              f"n (nnz >= {min_nnz:,.0f})", "mean", "median", "p90", "bias",
              "n (all)", "mean", "median", "p90", "bias"]
    table = []
    for key in order:
        group = by_kernel[key]
        large = [r for r in group if (r.get("nnz") or 0) >= min_nnz]
        table.append(list(key) + error_stats(large) + error_stats(group))
    everything = ["all", ""] + error_stats([r for r in rows if (r.get("nnz") or 0) >= min_nnz]) + error_stats(rows)
    table.append(everything)
    heading("Prediction error |pred - meas| / meas per kernel and mode (bias: geomean of pred / meas)", markdown, 3)
    print_table(header, table, markdown)


def auto_picks(rows):
    """Auto's kernel per (backend, device, matrix, mode, precision), from any row that carries it."""
    picks = {}
    for r in rows:
        if r.get("library") == "araios" and r.get("auto_kernel"):
            picks.setdefault(pick_key(r), r["auto_kernel"])
    return picks


def pick_key(r):
    return (r.get("backend"), r.get("device"), r["matrix"], r["mode"], r["precision"])


def auto_versus_oracle(rows, min_nnz, markdown, picks=None):
    groups = defaultdict(list)
    order = []
    for r in rows:
        key = (r["matrix"], r["mode"], r["precision"])
        if key not in groups:
            order.append(key)
        groups[key].append(r)
    table = []
    outcomes = []  # (nnz, oracle time / auto time or None when auto's kernel was not measured)
    for key in order:
        group = groups[key]
        oracle = min(group, key=lambda r: r["time_s"])
        if picks is None:
            auto_name = next((r.get("auto_kernel") for r in group if r.get("auto_kernel")), None)
        else:
            auto_name = picks.get(pick_key(group[0]))
        auto = next((r for r in group if r["kernel"] == auto_name), None)
        ratio = oracle["time_s"] / auto["time_s"] if auto else None
        nnz = int(oracle.get("nnz") or 0)
        outcomes.append((nnz, ratio))
        table.append([key[0], key[1], key[2], f"{nnz:,}", oracle["kernel"], seconds(oracle["time_s"]),
                      auto_name or "—", seconds(auto["time_s"]) if auto else "not measured",
                      num(ratio, 2), "yes" if ratio is not None and 1 / ratio <= WITHIN else "no"])
    heading("Auto against the oracle (the fastest measured Araios kernel) per matrix, mode and precision", markdown, 3)
    print_table(["matrix", "mode", "precision", "nnz", "oracle", "oracle time", "auto", "auto time",
                 "oracle / auto", "within 10%"], table, markdown)

    def summary(label, chosen):
        scored = [ratio for _, ratio in chosen if ratio is not None]
        missing = len(chosen) - len(scored)
        within = sum(1 for ratio in scored if 1 / ratio <= WITHIN)
        line = (f"{label}: auto within 10% of the oracle on {within} of {len(scored)} "
                f"({pct(within / len(scored)) if scored else '—'}); "
                f"geomean oracle / auto {num(geomean(scored), 3)}")
        if missing:
            line += f"; {missing} with auto's kernel not measured"
        print(("- " if markdown else "  ") + line)

    summary("all matrices", outcomes)
    summary(f"nnz >= {min_nnz:,.0f}", [o for o in outcomes if o[0] >= min_nnz])
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", help="araios-bench --model outputs (.jsonl or .csv)")
    parser.add_argument("--min-nnz", type=float, default=1e6,
                        help="stored entries a matrix needs to count in the large-matrix columns (default 1e6)")
    parser.add_argument("--markdown", action="store_true", help="Markdown tables instead of aligned text")
    parser.add_argument("--picks", nargs="+", metavar="RUN",
                        help="take auto's choices from these araios-bench --model runs (another profile's) "
                             "and score them on the timings of RESULTS")
    args = parser.parse_args()
    picks = auto_picks([r for r in read_rows(args.picks, "model_report", kind="spmv") if usual_product(r)]) if args.picks else None
    if picks is not None and not picks:
        sys.exit("model_report: no row of the --picks runs carries auto_kernel; expected araios-bench --model outputs")

    rows = [r for r in read_rows(args.results, "model_report", kind="spmv") if measured(r) and usual_product(r)]
    with_model = [r for r in rows if r.get("predicted_s") is not None]
    if not with_model:
        sys.exit("model_report: no measured Araios row has predicted_s; expected the output of araios-bench --model")
    by_backend = defaultdict(list)
    for r in with_model:
        by_backend[(r.get("backend") or "?", r.get("device") or "?")].append(r)
    for (backend, device), group in by_backend.items():
        heading(f"Model on {backend}, {device}: {len(group)} measured rows", args.markdown)
        prediction_errors(group, args.min_nnz, args.markdown)
        auto_versus_oracle(group, args.min_nnz, args.markdown, picks)
    if len(with_model) < len(rows):
        print(f"({len(rows) - len(with_model)} measured Araios rows without the model's columns were left out)")


if __name__ == "__main__":
    main()
