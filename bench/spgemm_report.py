#!/usr/bin/env python3
"""The SpGEMM suite's report: a Markdown table per run and the issue's targets, from the rows
araios-bench --spgemm wrote (kind "spgemm"; other rows in the files are ignored).

    python3 bench/spgemm_report.py RESULTS.jsonl [MORE.jsonl|.csv ...] [--out DIR] [--min-products 1e7]

Prints, per (device, backend, precision):
  - one line per product: its size, each implementation's time (median of one product from
    scratch), Araios's speedups, the peaks of memory, and whether two runs gave the same bits;
  - what failed, and any C that was not the product (such rows never count below);
then the targets, over the products of at least --min-products intermediate products:
  - geomean speedup of araios-fast, and of araios-deterministic, over the fastest cuSPARSE
    algorithm of each product (target 1.5x);
  - geomean of deterministic time / fast time (target <= 1.15);
  - Araios's peak memory against cuSPARSE ALG2's, product by product (target <=);
  - on the CPU, geomean speedup of Araios over Kokkos Kernels (target >= 1);
  - deterministic and accurate modes: the same bits in two runs and in the reuse numeric phase;
    and, across runs on different backends or devices, the same hash for the same product.
With matplotlib (Debian's python3-matplotlib), also writes PNGs of the speedups, the cost of
each mode and the memory ratios into --out (default: beside the first results file); without
it, says so.
Only the standard library otherwise.
"""

import argparse
import math
import os
import re
import sys
from collections import defaultdict

from result_rows import read_rows

TARGET_SPEEDUP_OVER_CUSPARSE = 1.5
TARGET_DETERMINISTIC_OVER_FAST = 1.15
TARGET_MEMORY_OVER_ALG2 = 1.0
TARGET_CPU_OVER_KOKKOS_KERNELS = 1.0
ARAIOS_MODES = ("fast", "deterministic", "accurate")


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fmt(v, digits=2, suffix=""):
    return "—" if v is None else f"{v:.{digits}f}{suffix}"


def ms(row):
    return "—" if not row or row.get("time_s") is None else f"{row['time_s'] * 1e3:.3g}"


def mb(v):
    return "—" if v is None else f"{v / 1e6:.0f}"


def slug(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "unnamed"


def ok(r):
    """A measurement that ran and whose C was the product: the only ones that count."""
    return r.get("status") == "ok" and (r.get("time_s") or 0) > 0


def bits(r):
    """Same bits in two runs (and in the reuse numeric phase, where there is one)."""
    if r is None or r.get("same_bits") is None:
        return "—"
    same = r["same_bits"] and r.get("reuse_same_bits") is not False
    return "yes" if same else "**no**"


class Product:
    """One product of one run: every implementation's row."""

    def __init__(self, first):
        self.matrix, self.product = first["matrix"], first.get("product")
        self.info = first
        self.rows = {}

    def add(self, r):
        self.rows[r["implementation"]] = r
        if r.get("nnz_c") is not None:
            self.info = r

    def get(self, name):
        r = self.rows.get(name)
        return r if r and ok(r) else None

    def fastest(self, library):
        rs = [r for r in self.rows.values() if r.get("library") == library and ok(r)]
        return min(rs, key=lambda r: r["time_s"]) if rs else None

    def products(self):
        return self.info.get("products") or 0


class Group:
    """The rows of one (device, backend, precision)."""

    def __init__(self, key):
        self.device, self.backend, self.precision = key
        self.products = {}

    def add(self, r):
        key = (r["matrix"], r.get("product"))
        if key not in self.products:
            self.products[key] = Product(r)
        self.products[key].add(r)

    def label(self):
        return f"{self.device} — {self.backend}, {self.precision}"

    def large(self, min_products):
        return [p for p in self.products.values() if p.products() >= min_products]

    def has(self, library):
        return any(r.get("library") == library for p in self.products.values() for r in p.rows.values())


def group_rows(rows):
    groups = {}
    for r in rows:
        if not r.get("implementation"):
            continue  # a matrix the reader refused or the limit skipped: no implementation ran
        key = (r.get("device") or "?", r.get("backend") or "?", r.get("precision") or "?")
        groups.setdefault(key, Group(key)).add(r)
    return groups


def speedups(group, min_products, mode, baseline):
    """(product, speedup) of araios-<mode> over the fastest row of `baseline` (a library)."""
    out = []
    for p in group.large(min_products):
        a, b = p.get(f"araios-{mode}"), p.fastest(baseline)
        if a and b:
            out.append((p, b["time_s"] / a["time_s"]))
    return out


def mode_ratios(group, min_products):
    out = []
    for p in group.large(min_products):
        f, d = p.get("araios-fast"), p.get("araios-deterministic")
        if f and d:
            out.append((p, d["time_s"] / f["time_s"]))
    return out


def memory_ratios(group, min_products, mode):
    """(product, araios-<mode> peak / cusparse-alg2 peak)."""
    out = []
    for p in group.large(min_products):
        a, c = p.get(f"araios-{mode}"), p.get("cusparse-alg2")
        if a and c and a.get("peak_bytes") and c.get("peak_bytes"):
            out.append((p, a["peak_bytes"] / c["peak_bytes"]))
    return out


def product_table(group, lines):
    names = [f"araios-{m}" for m in ARAIOS_MODES if any(f"araios-{m}" in p.rows for p in group.products.values())]
    cusparse = group.has("cusparse")
    kk = group.has("kokkos-kernels")
    head = ["matrix", "product", "rows", "nnz(A)", "products", "nnz(C)"] + [f"{n[7:]} ms" for n in names]
    if cusparse:
        head += ["best cuSPARSE ms", "fast / cuSPARSE", "det / cuSPARSE"]
    if kk:
        head += ["Kokkos Kernels ms", "fast / KK"]
    head += ["det / fast", "fast peak MB", "det peak MB"]
    if cusparse:
        head += ["ALG2 peak MB"]
    short = {"araios-fast": "fast", "araios-deterministic": "det", "araios-accurate": "acc"}
    head += ["same bits (" + "/".join(short[n] for n in names) + ")"]
    if cusparse:
        head += ["same bits (ALG1/2/3)"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "|".join("---" if i < 2 else "--:" for i in range(len(head))) + "|")
    for p in sorted(group.products.values(), key=lambda p: -p.products()):
        i = p.info
        cells = [p.matrix, p.product or "—", f"{i.get('rows') or 0:,}", f"{i.get('nnz_a') or 0:,}",
                 f"{p.products():.3g}", f"{i['nnz_c']:,}" if i.get("nnz_c") is not None else "—"]
        cells += [ms(p.get(n)) for n in names]
        f, d = p.get("araios-fast"), p.get("araios-deterministic")
        if cusparse:
            c = p.fastest("cusparse")
            cells += [f"{ms(c)} ({c['implementation'][-4:]})" if c else "—",
                      fmt(c["time_s"] / f["time_s"] if c and f else None, suffix="x"),
                      fmt(c["time_s"] / d["time_s"] if c and d else None, suffix="x")]
        if kk:
            k = p.get("kokkos-kernels")
            cells += [ms(k), fmt(k["time_s"] / f["time_s"] if k and f else None, suffix="x")]
        cells += [fmt(d["time_s"] / f["time_s"] if f and d else None),
                  mb(f.get("peak_bytes") if f else None), mb(d.get("peak_bytes") if d else None)]
        if cusparse:
            a2 = p.get("cusparse-alg2")
            cells += [mb(a2.get("peak_bytes") if a2 else None)]
        cells += ["/".join(bits(p.rows.get(n)) for n in names)]
        if cusparse:
            cells += ["/".join(bits(p.rows.get(f"cusparse-alg{k}")) for k in (1, 2, 3))]
        lines.append("| " + " | ".join(cells) + " |")


def cross_run_hashes(groups):
    """For each product measured in more than one group (another backend, device or run), whether
    the deterministic and accurate rows agree on C's hash: (mode, agreeing, compared, disagreeing)."""
    out = []
    for mode in ("deterministic", "accurate"):
        by_product = defaultdict(dict)
        for g in groups.values():
            for p in g.products.values():
                r = p.get(f"araios-{mode}")
                if r and r.get("hash"):
                    by_product[(p.matrix, p.product, g.precision)][(g.device, g.backend)] = r["hash"]
        compared = {k: v for k, v in by_product.items() if len(v) > 1}
        differ = sorted(f"{k[0]} ({k[2]})" for k, v in compared.items() if len(set(v.values())) > 1)
        out.append((mode, len(compared) - len(differ), len(compared), differ))
    return out


def report(rows, groups, paths, min_products):
    lines = ["## SpGEMM benchmark\n"]
    devices = sorted({g.device for g in groups.values()})
    dates = sorted({r.get("date") for r in rows if r.get("date")})
    commits = sorted({r.get("commit") for r in rows if r.get("commit")})
    lines.append(f"- devices: {', '.join(devices) or '—'}")
    lines.append(f"- date: {dates[0] if dates else '—'}" + (f" to {dates[-1]}" if len(dates) > 1 else ""))
    lines.append(f"- commit: {', '.join(commits) or '—'}")
    lines.append(f"- results: {', '.join(os.path.basename(p) for p in paths)}")
    lines.append(f"- targets over the products of at least {min_products:.0e} intermediate products "
                 "(`--min-products`); times are medians of one product from scratch (symbolic + numeric)")
    by_status = defaultdict(int)
    for r in rows:
        by_status[r.get("status") or "?"] += 1
    lines.append("- rows: " + ", ".join(f"{n} {s}" for s, n in sorted(by_status.items())))
    failed = [r for r in rows if r.get("status") == "failed"]
    wrong = [r for r in rows if r.get("status") == "wrong"]
    for what, rs in (("failed", failed), ("wrong results (excluded)", wrong)):
        for r in rs:
            lines.append(f"- {what}: {r.get('implementation')} on {r['matrix']} ({r.get('backend')}, "
                         f"{r.get('precision')}): {r.get('error')}")
    for r in rows:
        if r.get("status") in ("refused", "skipped"):
            lines.append(f"- {r['status']}: {r['matrix']}: {r.get('error') or r.get('note')}")

    targets = []
    for key in sorted(groups):
        g = groups[key]
        lines.append(f"\n### {g.label()}\n")
        product_table(g, lines)
        lines.append("")
        gpu = g.has("cusparse")
        if gpu:
            for mode in ("fast", "deterministic"):
                s = speedups(g, min_products, mode, "cusparse")
                gm = geomean([v for _, v in s])
                targets.append((f"araios-{mode} ≥ {TARGET_SPEEDUP_OVER_CUSPARSE}x the fastest cuSPARSE algorithm "
                                f"(geomean, {len(s)} products; {g.label()})", fmt(gm, suffix="x"),
                                None if gm is None else gm >= TARGET_SPEEDUP_OVER_CUSPARSE))
        m = mode_ratios(g, min_products)
        gm = geomean([v for _, v in m])
        targets.append((f"deterministic / fast time ≤ {TARGET_DETERMINISTIC_OVER_FAST} (geomean, {len(m)} products; "
                        f"{g.label()})", fmt(gm), None if gm is None else gm <= TARGET_DETERMINISTIC_OVER_FAST))
        if gpu:
            for mode in ("fast", "deterministic"):
                mr = memory_ratios(g, min_products, mode)
                if not mr:
                    targets.append((f"araios-{mode} peak memory ≤ cuSPARSE ALG2's ({g.label()})",
                                    "not measured (no ALG2 or Araios peaks)", None))
                    continue
                met = sum(1 for _, v in mr if v <= TARGET_MEMORY_OVER_ALG2)
                worst = max(mr, key=lambda x: x[1])
                targets.append((f"araios-{mode} peak memory ≤ cuSPARSE ALG2's, per product ({g.label()})",
                                f"{met} of {len(mr)}; geomean {fmt(geomean([v for _, v in mr]))}x, "
                                f"worst {fmt(worst[1])}x ({worst[0].matrix})", met == len(mr)))
        if g.has("kokkos-kernels"):
            for mode in ("fast", "deterministic"):
                s = speedups(g, min_products, mode, "kokkos-kernels")
                gm = geomean([v for _, v in s])
                targets.append((f"araios-{mode} ≥ Kokkos Kernels (geomean speedup, {len(s)} products; {g.label()})",
                                fmt(gm, suffix="x"), None if gm is None else gm >= TARGET_CPU_OVER_KOKKOS_KERNELS))
        for mode in ("deterministic", "accurate"):
            rs = [p.rows[f"araios-{mode}"] for p in g.products.values()
                  if f"araios-{mode}" in p.rows and p.rows[f"araios-{mode}"].get("same_bits") is not None]
            if rs:
                same = sum(1 for r in rs if r["same_bits"] and r.get("reuse_same_bits") is not False)
                targets.append((f"araios-{mode}: same bits in two runs and after reuse ({g.label()})",
                                f"{same} of {len(rs)}", same == len(rs)))
    if not any(g.has("cusparse") for g in groups.values()):
        targets.append(("Araios ≥ 1.5x the fastest cuSPARSE algorithm; peak memory ≤ ALG2's",
                        "not measured (no cuSPARSE rows: run the cuda build)", None))
    if not any(g.has("kokkos-kernels") for g in groups.values()):
        targets.append(("CPU: Araios ≥ Kokkos Kernels", "not measured (no kokkos-kernels rows: "
                        "scripts/setup.sh --kokkos-kernels, then reconfigure the openmp preset)", None))
    for mode, agree, compared, differ in cross_run_hashes(groups):
        if compared:
            targets.append((f"araios-{mode}: the same hash across backends/devices/runs for the same product",
                            f"{agree} of {compared}" + (f" (differ: {', '.join(differ)})" if differ else ""),
                            agree == compared))

    lines.append("\n### Targets\n")
    lines.append("| target | measured | met |")
    lines.append("|---|--:|---|")
    for name, value, met in targets:
        lines.append(f"| {name} | {value} | {'yes' if met else ('—' if met is None else '**no**')} |")
    lines.append("\nSpeedup = the other's time / Araios's time, both one product from scratch; only rows whose C "
                 "passed the check (status ok) count. Peaks: Araios's SpgemmStats::peakBytes, cuSPARSE's buffers "
                 "and C (see bench/README.md).")
    return "\n".join(lines)


def plots(groups, out, min_products):
    try:
        import matplotlib
    except ImportError:
        print("spgemm_report.py: no matplotlib here, so no plots (Debian: apt-get install python3-matplotlib)",
              file=sys.stderr)
        return []
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

    written = []
    for g in groups.values():
        for baseline, name, target in (("cusparse", "fastest cuSPARSE", TARGET_SPEEDUP_OVER_CUSPARSE),
                                       ("kokkos-kernels", "Kokkos Kernels", TARGET_CPU_OVER_KOKKOS_KERNELS)):
            series = {mode: dict((p.matrix, v) for p, v in speedups(g, 0, mode, baseline))
                      for mode in ("fast", "deterministic")}
            ms_ = sorted(set(series["fast"]) | set(series["deterministic"]),
                         key=lambda m: -next(p.products() for p in g.products.values() if p.matrix == m))
            if not ms_:
                continue
            fig, ax = plt.subplots(figsize=(max(7, 0.45 * len(ms_) + 2), 4.5))
            for i, (mode, colour) in enumerate((("fast", "tab:blue"), ("deterministic", "tab:green"))):
                ax.bar([x + (i - 0.5) * 0.4 for x in range(len(ms_))], [series[mode].get(m, 0) for m in ms_],
                       width=0.4, color=colour, label=f"araios-{mode}")
            ax.axhline(1.0, color="k", linewidth=0.8)
            ax.axhline(target, color="k", linestyle=":", label=f"target {target}x (geomean)")
            small = [i for i, m in enumerate(ms_)
                     if next(p.products() for p in g.products.values() if p.matrix == m) < min_products]
            if small:
                ax.axvspan(min(small) - 0.5, max(small) + 0.5, color="0.92", zorder=0,
                           label=f"< {min_products:.0e} products (not in the target)")
            ax.set_yscale("log")
            # Plain numbers on the log axis (1.5, not 1.5 x 10^0), at 1, 2 and 5 of each decade.
            ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.yaxis.set_major_formatter(FormatStrFormatter("%.3g"))
            ax.yaxis.set_minor_formatter(NullFormatter())
            ax.set_xticks(range(len(ms_)))
            ax.set_xticklabels(ms_, rotation=60, ha="right", fontsize=7)
            ax.set_ylabel(f"speedup over {name}")
            ax.set_title(f"SpGEMM: Araios over {name} (products by size, largest left)\n{g.label()}", fontsize=9)
            ax.legend(fontsize=7)
            fig.tight_layout()
            path = os.path.join(out, slug(f"spgemm-speedup-{baseline}-{g.backend}-{g.precision}") + ".png")
            fig.savefig(path, dpi=110)
            plt.close(fig)
            written.append(path)
        # The cost of each mode: its time over fast mode's, per product (every run has these).
        ordered = sorted(g.products.values(), key=lambda p: -p.products())
        ratios = {mode: [(p.get(f"araios-{mode}")["time_s"] / p.get("araios-fast")["time_s"])
                         if p.get(f"araios-{mode}") and p.get("araios-fast") else 0 for p in ordered]
                  for mode in ("deterministic", "accurate")}
        if ordered and any(v for vs in ratios.values() for v in vs):
            fig, ax = plt.subplots(figsize=(max(7, 0.4 * len(ordered) + 2), 4.5))
            for i, (mode, colour) in enumerate((("deterministic", "tab:green"), ("accurate", "tab:purple"))):
                ax.bar([x + (i - 0.5) * 0.4 for x in range(len(ordered))], ratios[mode], width=0.4, color=colour,
                       label=f"araios-{mode}")
            ax.axhline(1.0, color="k", linewidth=0.8)
            ax.axhline(TARGET_DETERMINISTIC_OVER_FAST, color="k", linestyle=":",
                       label=f"target {TARGET_DETERMINISTIC_OVER_FAST} (deterministic, geomean)")
            small = [i for i, p in enumerate(ordered) if p.products() < min_products]
            if small:
                ax.axvspan(min(small) - 0.5, max(small) + 0.5, color="0.92", zorder=0,
                           label=f"< {min_products:.0e} products (not in the target)")
            ax.set_xticks(range(len(ordered)))
            ax.set_xticklabels([p.matrix for p in ordered], rotation=60, ha="right", fontsize=7)
            ax.set_ylabel("time / araios-fast time")
            ax.set_title(f"SpGEMM: the cost of each mode (products by size, largest left)\n{g.label()}", fontsize=9)
            ax.legend(fontsize=7)
            fig.tight_layout()
            path = os.path.join(out, slug(f"spgemm-modes-{g.backend}-{g.precision}") + ".png")
            fig.savefig(path, dpi=110)
            plt.close(fig)
            written.append(path)
        mr = {mode: dict((p.matrix, v) for p, v in memory_ratios(g, 0, mode)) for mode in ARAIOS_MODES}
        ms_ = sorted(set().union(*mr.values()))
        if ms_:
            fig, ax = plt.subplots(figsize=(max(7, 0.45 * len(ms_) + 2), 4.5))
            width = 0.8 / len(ARAIOS_MODES)
            for i, mode in enumerate(ARAIOS_MODES):
                ax.bar([x + (i - 1) * width for x in range(len(ms_))], [mr[mode].get(m, 0) for m in ms_], width=width,
                       label=f"araios-{mode}")
            ax.axhline(TARGET_MEMORY_OVER_ALG2, color="k", linestyle=":", label="target: ≤ ALG2's peak")
            ax.set_xticks(range(len(ms_)))
            ax.set_xticklabels(ms_, rotation=60, ha="right", fontsize=7)
            ax.set_ylabel("peak memory / cuSPARSE ALG2 peak")
            ax.set_title(f"SpGEMM peak memory against cuSPARSE ALG2\n{g.label()}", fontsize=9)
            ax.legend(fontsize=7)
            fig.tight_layout()
            path = os.path.join(out, slug(f"spgemm-memory-{g.backend}-{g.precision}") + ".png")
            fig.savefig(path, dpi=110)
            plt.close(fig)
            written.append(path)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+", help="araios-bench --spgemm outputs (.jsonl or .csv, or .xz of either)")
    parser.add_argument("--out", help="folder for the PNGs (default: beside the first results file)")
    parser.add_argument("--min-products", type=float, default=1e7,
                        help="judge the targets on the products of at least this many intermediate products")
    parser.add_argument("--no-plots", action="store_true", help="print the report only")
    args = parser.parse_args()
    rows = read_rows(args.results, "spgemm_report.py", kind="spgemm")
    if not rows:
        print("spgemm_report.py: no SpGEMM rows (kind \"spgemm\") in " + ", ".join(args.results), file=sys.stderr)
        return 1
    groups = group_rows(rows)
    print(report(rows, groups, args.results, args.min_products))
    if not args.no_plots:
        out = args.out or os.path.dirname(os.path.abspath(args.results[0]))
        os.makedirs(out, exist_ok=True)
        for path in plots(groups, out, args.min_products):
            print(f"spgemm_report.py: wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
