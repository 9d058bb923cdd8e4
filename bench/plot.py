#!/usr/bin/env python3
"""Plots and a Markdown summary of araios-bench results.

    python3 bench/plot.py RESULTS.jsonl [MORE.jsonl|.csv ...] --out bench/results/<device>/

Reads the SpMV rows araios-bench wrote (JSON lines or CSV, same columns; the SpGEMM rows of
araios-bench --spgemm, kind "spgemm", are left to spgemm_report.py), writes PNGs into --out,
and prints the summary (device, date, commit, geomean speedups, best kernel per matrix class,
the targets met or missed) as Markdown on stdout, for the README.

Only Python's standard library and matplotlib (Agg backend: no display needed). On this
machine use Debian's interpreter, /usr/bin/python3, which has python3-matplotlib.

What counts: a measurement takes part in "best" and in every ratio only if it ran (no
`refused`, no `error`) and its result lay within the rounding-error bound
(`within_error_bound`): a fast wrong kernel cannot win. Wrong results are listed instead.
"""

import argparse
import math
import os
import re
import sys
from collections import defaultdict

from result_rows import read_rows, usual_product

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

KERNEL_LIBRARIES = ("araios", "cusparse", "openmp-loop", "kokkos-kernels")
BASELINES = ("cusparse", "openmp-loop", "kokkos-kernels")
# The benchmark's targets (bench/NOTES.md).
TARGET_SPEEDUP_OVER_CUSPARSE = 1.3
TARGET_FRACTION = {"stencil": 0.85, "fem-like": 0.85, "power-law": 0.6}
TARGET_DETERMINISTIC_OVER_FAST = 0.9
TARGET_CPU_OVER_KOKKOS_KERNELS = 1.2
CLASS_ORDER = ["stencil", "fem-like", "graph", "power-law", "random", "other"]
CLASS_COLOURS = {"stencil": "tab:blue", "fem-like": "tab:green", "graph": "tab:olive",
                 "power-law": "tab:red", "random": "tab:purple", "other": "tab:gray"}


# ----------------------------------------------------------------------------- reading



def usable(r):
    """A kernel measurement that ran and gave a result within the error bound."""
    return (r.get("library") in KERNEL_LIBRARIES and not r.get("refused") and not r.get("error")
            and r.get("time_s") and r.get("within_error_bound") is True)


def geomean(values):
    values = [v for v in values if v and v > 0]
    if not values:
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def fmt(v, digits=2):
    return "—" if v is None else f"{v:.{digits}f}"


def slug(text):
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "unnamed"


# ----------------------------------------------------------------------------- grouping

class Group:
    """The rows of one (device, backend, precision): one run's worth of comparable numbers."""

    def __init__(self, device, backend, precision):
        self.device, self.backend, self.precision = device, backend, precision
        self.by_matrix = defaultdict(list)  # matrix -> usable kernel rows
        self.classes = {}
        self.copy_gbps = None

    def add(self, r):
        self.by_matrix[r["matrix"]].append(r)
        self.classes[r["matrix"]] = r.get("class") or "other"
        if r.get("copy_gbps"):
            self.copy_gbps = r["copy_gbps"]

    def matrices(self):
        return sorted(self.by_matrix, key=lambda m: (CLASS_ORDER.index(self.classes[m])
                                                     if self.classes[m] in CLASS_ORDER else 99, m))

    def best(self, matrix, libraries, mode=None, kernels=None):
        rows = [r for r in self.by_matrix[matrix] if r["library"] in libraries
                and (mode is None or (r.get("mode") or "fast") == mode)
                and (kernels is None or r["kernel"] in kernels)]
        return min(rows, key=lambda r: r["time_s"]) if rows else None

    def label(self):
        return f"{self.backend}, {self.precision}"


def group_rows(rows):
    groups = {}
    for r in rows:
        if not usable(r):
            continue
        key = (r.get("device"), r.get("backend"), r.get("precision"))
        if key not in groups:
            groups[key] = Group(*key)
        groups[key].add(r)
    return groups


# ----------------------------------------------------------------------------- plots

def plot_per_matrix(group, out):
    folder = os.path.join(out, "per_matrix", slug(f"{group.backend}-{group.precision}"))
    os.makedirs(folder, exist_ok=True)
    for m in group.matrices():
        rows = sorted(group.by_matrix[m], key=lambda r: (r["library"] != "araios", r["kernel"]))
        fig, ax = plt.subplots(figsize=(max(6, 0.45 * len(rows) + 2), 4))
        colours = ["tab:blue" if r["library"] == "araios" else "0.55" for r in rows]
        ax.bar(range(len(rows)), [r["gbps"] for r in rows], color=colours)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels([r["kernel"] for r in rows], rotation=60, ha="right", fontsize=8)
        if group.copy_gbps:
            ax.axhline(group.copy_gbps, color="k", linestyle="--", linewidth=1, label="copy bandwidth")
            ax.legend(fontsize=8)
        ax.set_ylabel("effective GB/s")
        ax.set_title(f"{m} ({group.classes[m]}): {group.label()} — Araios blue, baselines grey", fontsize=9)
        fig.tight_layout()
        fig.savefig(os.path.join(folder, slug(m) + ".png"), dpi=110)
        plt.close(fig)


def plot_best_gbps(group, out):
    ms = group.matrices()
    ara = [group.best(m, ("araios",)) for m in ms]
    base = [group.best(m, BASELINES) for m in ms]
    fig, ax = plt.subplots(figsize=(max(8, 0.32 * len(ms) + 2), 4.5))
    xs = range(len(ms))
    ax.bar([x - 0.2 for x in xs], [r["gbps"] if r else 0 for r in ara], width=0.4, label="best Araios kernel")
    ax.bar([x + 0.2 for x in xs], [r["gbps"] if r else 0 for r in base], width=0.4, color="0.55",
           label="best baseline (" + "/".join(sorted({r["library"] for r in base if r})) + ")")
    if group.copy_gbps:
        ax.axhline(group.copy_gbps, color="k", linestyle="--", linewidth=1, label="copy bandwidth")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(ms, rotation=70, ha="right", fontsize=7)
    ax.set_ylabel("effective GB/s")
    ax.set_title(f"Achieved bandwidth per matrix\n{group.device} ({group.label()})", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, slug(f"gbps-{group.backend}-{group.precision}") + ".png"), dpi=110)
    plt.close(fig)


def plot_roofline(group, out):
    """Roofline style: achieved GFLOP/s against arithmetic intensity (2 nnz / bytes), under the
    memory roof copy_gbps x intensity. SpMV sits far left of any compute roof, so only the memory
    roof is drawn; a point's height over the roof's is its fraction of copy bandwidth."""
    if not group.copy_gbps:
        return
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    intensities = []
    for m in group.matrices():
        for libs, marker in ((("araios",), "o"), (BASELINES, "x")):
            r = group.best(m, libs)
            if not r:
                continue
            ai = 2.0 * r["nnz"] / r["bytes"]
            intensities.append(ai)
            ax.scatter(ai, r["gflops"], marker=marker, color=CLASS_COLOURS.get(group.classes[m], "tab:gray"), s=22)
    if intensities:
        lo, hi = min(intensities) * 0.8, max(intensities) * 1.25
        ax.plot([lo, hi], [group.copy_gbps * lo, group.copy_gbps * hi], "k--", linewidth=1,
                label=f"copy roof {group.copy_gbps:.0f} GB/s")
    for cls, colour in CLASS_COLOURS.items():
        if cls in group.classes.values():
            ax.scatter([], [], color=colour, label=cls, s=22)
    ax.scatter([], [], marker="o", color="k", label="best Araios", s=22)
    ax.scatter([], [], marker="x", color="k", label="best baseline", s=22)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (flop / byte moved)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(f"Roofline (memory roof = measured copy)\n{group.device} ({group.label()})", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, slug(f"roofline-{group.backend}-{group.precision}") + ".png"), dpi=110)
    plt.close(fig)


def plot_fraction(group, out):
    ms = group.matrices()
    best = [group.best(m, ("araios",)) for m in ms]
    fig, ax = plt.subplots(figsize=(max(8, 0.3 * len(ms) + 2), 4.5))
    ax.bar(range(len(ms)), [r["fraction_of_copy"] if r and r.get("fraction_of_copy") else 0 for r in best],
           color=[CLASS_COLOURS.get(group.classes[m], "tab:gray") for m in ms])
    for cls, target in TARGET_FRACTION.items():
        idx = [i for i, m in enumerate(ms) if group.classes[m] == cls]
        if idx and group.precision == "double":
            ax.hlines(target, min(idx) - 0.4, max(idx) + 0.4, colors="k", linestyles=":",
                      label=f"target {cls} {target}")
    ax.axhline(1.0, color="k", linewidth=0.8)
    ax.set_xticks(range(len(ms)))
    ax.set_xticklabels(ms, rotation=70, ha="right", fontsize=7)
    ax.set_ylabel("fraction of copy bandwidth")
    ax.set_title(f"Best Araios kernel, fraction of copy bandwidth\n{group.device} ({group.label()})", fontsize=9)
    handles, _ = ax.get_legend_handles_labels()
    if handles:
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, slug(f"fraction-{group.backend}-{group.precision}") + ".png"), dpi=110)
    plt.close(fig)


def speedups(group, baseline_libraries):
    """matrix -> (best Araios row, best baseline row, speedup = baseline time / Araios time)."""
    out = {}
    for m in group.matrices():
        a, b = group.best(m, ("araios",)), group.best(m, baseline_libraries)
        if a and b:
            out[m] = (a, b, b["time_s"] / a["time_s"])
    return out


def plot_speedup(group, baseline_libraries, name, target, out):
    s = speedups(group, baseline_libraries)
    if not s:
        return
    ms = list(s)
    fig, ax = plt.subplots(figsize=(max(8, 0.3 * len(ms) + 2), 4.5))
    ax.bar(range(len(ms)), [s[m][2] for m in ms], color=[CLASS_COLOURS.get(group.classes[m], "tab:gray") for m in ms])
    ax.axhline(1.0, color="k", linewidth=0.8)
    if target:
        ax.axhline(target, color="k", linestyle=":", label=f"target {target}x (geomean)")
        ax.legend(fontsize=8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(ms)))
    ax.set_xticklabels(ms, rotation=70, ha="right", fontsize=7)
    ax.set_ylabel(f"speedup over best {name}")
    ax.set_title(f"Best Araios kernel over best {name}\n{group.device} ({group.label()})", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(out, slug(f"speedup-{name}-{group.backend}-{group.precision}") + ".png"), dpi=110)
    plt.close(fig)


def plot_modes(group, out):
    """Deterministic and accurate modes over fast mode, per matrix: only if the rows have modes
    other than fast (the mode column; all rows are fast until the modes exist)."""
    modes = sorted({(r.get("mode") or "fast") for rows in group.by_matrix.values() for r in rows} - {"fast"})
    if not modes:
        return False
    ms = group.matrices()
    fig, ax = plt.subplots(figsize=(max(8, 0.3 * len(ms) + 2), 4.5))
    width = 0.8 / len(modes)
    for i, mode in enumerate(modes):
        ratios = []
        for m in ms:
            fast, other = group.best(m, ("araios",), "fast"), group.best(m, ("araios",), mode)
            ratios.append(fast["time_s"] / other["time_s"] if fast and other else 0)
        ax.bar([x + (i - (len(modes) - 1) / 2) * width for x in range(len(ms))], ratios, width=width, label=mode)
    ax.axhline(1.0, color="k", linewidth=0.8)
    ax.axhline(TARGET_DETERMINISTIC_OVER_FAST, color="k", linestyle=":", label="target 0.9 (deterministic)")
    ax.set_xticks(range(len(ms)))
    ax.set_xticklabels(ms, rotation=70, ha="right", fontsize=7)
    ax.set_ylabel("speed relative to the best fast kernel")
    ax.set_title(f"Modes over fast mode\n{group.device} ({group.label()})", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, slug(f"modes-{group.backend}-{group.precision}") + ".png"), dpi=110)
    plt.close(fig)
    return True


# ----------------------------------------------------------------------------- summary

def deterministic_ratios(group):
    """matrix -> (deterministic BRCP row, best fast Araios row, speed ratio). Without a mode
    column (older results), the 'brcp' kernel against the best of the other Araios kernels."""
    out = {}
    has_mode = any((r.get("mode") or "fast") == "deterministic" for rows in group.by_matrix.values() for r in rows)
    for m in group.matrices():
        if has_mode:
            d = group.best(m, ("araios",), "deterministic", kernels={"brcp"})
            f = group.best(m, ("araios",), "fast")
        else:
            d = group.best(m, ("araios",), kernels={"brcp"})
            others = {r["kernel"] for r in group.by_matrix[m] if r["library"] == "araios"} - {"brcp"}
            f = group.best(m, ("araios",), kernels=others) if others else None
        if d and f:
            out[m] = (d, f, f["time_s"] / d["time_s"])
    return out, has_mode


def mode_ratios(group, min_bytes):
    """kernel -> {mode: [time(mode) / time(fast) per matrix]}: what each mode costs each kernel,
    on the matrices whose fast run moves at least min_bytes."""
    out = defaultdict(lambda: defaultdict(list))
    for m, rows in group.by_matrix.items():
        fast = {r["kernel"]: r for r in rows if r["library"] == "araios" and (r.get("mode") or "fast") == "fast"}
        for r in rows:
            mode = r.get("mode") or "fast"
            f = fast.get(r["kernel"])
            if r["library"] != "araios" or mode == "fast" or not f or (f.get("bytes") or 0) < min_bytes:
                continue
            out[r["kernel"]][mode].append(r["time_s"] / f["time_s"])
    return out


def summary(rows, groups, paths, min_bytes):
    lines = []
    devices = sorted({g.device for g in groups.values() if g.device})
    dates = sorted({r.get("date") for r in rows if r.get("date")})
    commits = sorted({r.get("commit") for r in rows if r.get("commit")})
    lines.append("## Benchmark summary\n")
    lines.append(f"- device: {', '.join(devices) or '—'}")
    lines.append(f"- date: {dates[0] if dates else '—'}" + (f" to {dates[-1]}" if len(dates) > 1 else ""))
    lines.append(f"- commit: {', '.join(commits) or '—'}")
    lines.append(f"- results: {', '.join(os.path.basename(p) for p in paths)}")
    ceilings = [r for r in rows if r.get("library") == "ceiling"]
    for c in ceilings:
        lines.append(f"- copy bandwidth ({c.get('backend')}, {c.get('kernel')}): {fmt(c.get('gbps'), 1)} GB/s "
                     "(read + write, measured in the same run)")
    kernel_rows = [r for r in rows if r.get("library") in KERNEL_LIBRARIES]
    refused = [r for r in kernel_rows if r.get("refused")]
    errors = [r for r in kernel_rows if r.get("error")]
    wrong = [r for r in kernel_rows if not r.get("refused") and not r.get("error")
             and r.get("within_error_bound") is False]
    lines.append(f"- measurements: {len(kernel_rows)} ({len(refused)} refused by their format, {len(errors)} failed, "
                 f"{len(wrong)} outside the error bound and excluded)")
    if wrong:
        lines.append("- excluded for wrong results: " + ", ".join(
            sorted({f"{r['kernel']} on {r['matrix']} ({r.get('precision')})" for r in wrong})))
    if errors:
        lines.append("- failed: " + ", ".join(sorted({f"{r['kernel']} on {r['matrix']}" for r in errors})))

    size_note = f" of ≥ {min_bytes / 2**20:.0f} MiB" if min_bytes > 0 else ""
    above_one = sorted({(r["matrix"], r.get("precision")) for g in groups.values() for rs in g.by_matrix.values()
                        for r in rs if (r.get("fraction_of_copy") or 0) > 1.0})
    if above_one:
        lines.append(f"- {len(above_one)} (matrix, precision) pairs exceed the copy bandwidth: their working set "
                     "fits in the last-level cache, which the copy (far larger) cannot use. Judge bandwidth "
                     "targets on matrices larger than the cache (plot.py --min-bytes).")
    if min_bytes > 0:
        lines.append(f"- class fractions and bandwidth targets count only measurements moving ≥ {min_bytes / 2**20:.0f} MiB")
    targets = []
    for key in sorted(groups, key=lambda k: tuple(x or "" for x in k)):
        g = groups[key]
        lines.append(f"\n### {g.device}: {g.label()}\n")
        for lib, name in (("cusparse", "cuSPARSE"), ("openmp-loop", "OpenMP CSR loop"), ("kokkos-kernels", "Kokkos Kernels")):
            s = speedups(g, (lib,))
            if not s:
                continue
            gm = geomean([v[2] for v in s.values()])
            lines.append(f"Geomean speedup of the best Araios kernel over the best of {name}: "
                         f"**{fmt(gm)}x** over {len(s)} matrices.\n")
            lines.append("| class | matrices | geomean speedup |")
            lines.append("|---|--:|--:|")
            for cls in CLASS_ORDER:
                vals = [v[2] for m, v in s.items() if g.classes[m] == cls]
                if vals:
                    lines.append(f"| {cls} | {len(vals)} | {fmt(geomean(vals))}x |")
            lines.append("")
            if lib == "cusparse":
                targets.append((f"best Araios ≥ {TARGET_SPEEDUP_OVER_CUSPARSE}x best cuSPARSE (geomean, {g.label()})",
                                f"{fmt(gm)}x", gm is not None and gm >= TARGET_SPEEDUP_OVER_CUSPARSE))
            if lib == "kokkos-kernels" and g.backend != "cuda":
                targets.append((f"CPU best ≥ {TARGET_CPU_OVER_KOKKOS_KERNELS}x Kokkos Kernels (geomean, {g.label()})",
                                f"{fmt(gm)}x", gm is not None and gm >= TARGET_CPU_OVER_KOKKOS_KERNELS))
        # Best kernel per class: how often each kernel is the fastest Araios kernel, and the
        # class geomean of the best fraction of copy bandwidth.
        lines.append("| class | matrices | most often best Araios kernel | geomean fraction of copy (best Araios) |")
        lines.append("|---|--:|---|--:|")
        for cls in CLASS_ORDER:
            ms = [m for m in g.matrices() if g.classes[m] == cls]
            bests = [g.best(m, ("araios",)) for m in ms]
            bests = [b for b in bests if b and (b.get("bytes") or 0) >= min_bytes]
            if not bests:
                continue
            counts = defaultdict(int)
            for b in bests:
                counts[b["kernel"]] += 1
            top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            lines.append(f"| {cls} | {len(bests)} | " + ", ".join(f"{k} ({n})" for k, n in top[:3]) +
                         f" | {fmt(geomean([b.get('fraction_of_copy') for b in bests]))} |")
            if g.precision == "double" and cls in TARGET_FRACTION:
                fr = geomean([b.get("fraction_of_copy") for b in bests])
                met = sum(1 for b in bests if (b.get("fraction_of_copy") or 0) >= TARGET_FRACTION[cls])
                targets.append((f"fp64 {cls} ≥ {TARGET_FRACTION[cls]} of copy ({g.backend}; "
                                f"{met} of {len(bests)} matrices{size_note} meet it)", fmt(fr), fr is not None and fr >= TARGET_FRACTION[cls]))
        ratios = mode_ratios(g, min_bytes)
        if ratios:
            lines.append("| kernel | deterministic / fast (geomean time) | accurate / fast | matrices |")
            lines.append("|---|--:|--:|--:|")
            for kernel in sorted(ratios):
                det_r, acc_r = ratios[kernel].get("deterministic", []), ratios[kernel].get("accurate", [])
                lines.append(f"| {kernel} | {fmt(geomean(det_r)) if det_r else '—'} | "
                             f"{fmt(geomean(acc_r)) if acc_r else '—'} | {max(len(det_r), len(acc_r))} |")
            lines.append("")
        det, has_mode = deterministic_ratios(g)
        if det:
            gm = geomean([v[2] for v in det.values()])
            what = "deterministic mode" if has_mode else "brcp (deterministic) vs the best other Araios kernel"
            targets.append((f"deterministic BRCP ≥ {TARGET_DETERMINISTIC_OVER_FAST}x best fast ({what}, {g.label()})",
                            f"{fmt(gm)}x", gm is not None and gm >= TARGET_DETERMINISTIC_OVER_FAST))
        lines.append("")

    if not any(g.backend != "cuda" and speedups(g, ("kokkos-kernels",)) for g in groups.values()):
        targets.append(("CPU best ≥ 1.2x Kokkos Kernels", "not measured (no kokkos-kernels rows: "
                        "scripts/setup.sh --kokkos-kernels, then reconfigure the openmp preset)", None))
    lines.append("\n### Targets\n")
    lines.append("| target | measured | met |")
    lines.append("|---|--:|---|")
    for name, value, met in targets:
        lines.append(f"| {name} | {value} | {'yes' if met else ('—' if met is None else '**no**')} |")
    lines.append("\nSpeedups compare medians of the same run; fractions use the copy bandwidth measured at its start. "
                 "Classes: generated matrices by their generator, real ones by the collection's kinds.")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+", help="araios-bench outputs (.jsonl or .csv)")
    parser.add_argument("--out", help="folder for the PNGs (default: beside the first results file)")
    parser.add_argument("--no-per-matrix", action="store_true", help="skip the one-PNG-per-matrix plots")
    parser.add_argument("--min-bytes", type=float, default=0,
                        help="judge the fraction-of-copy targets only on measurements moving at least this many "
                             "bytes (e.g. 2e8, four times the H200's 50 MB L2), so cache-resident matrices do not count")
    args = parser.parse_args()
    rows = [r for r in read_rows(args.results, "plot.py", kind="spmv") if usual_product(r)]
    out = args.out or os.path.dirname(os.path.abspath(args.results[0]))
    os.makedirs(out, exist_ok=True)
    groups = group_rows(rows)
    if not groups:
        print("no usable measurements in " + ", ".join(args.results), file=sys.stderr)
        return 1
    mode_plots = False
    for g in groups.values():
        if not args.no_per_matrix:
            plot_per_matrix(g, out)
        plot_best_gbps(g, out)
        plot_roofline(g, out)
        plot_fraction(g, out)
        for libs, name, target in ((("cusparse",), "cusparse", TARGET_SPEEDUP_OVER_CUSPARSE),
                                   (("openmp-loop",), "openmp-loop", None),
                                   (("kokkos-kernels",), "kokkos-kernels", TARGET_CPU_OVER_KOKKOS_KERNELS)):
            plot_speedup(g, libs, name, target, out)
        mode_plots |= plot_modes(g, out)
    if not mode_plots:
        print("(no mode plot: every row is mode 'fast'; the plot appears once rows of other modes exist)",
              file=sys.stderr)
    print(summary(rows, groups, args.results, args.min_bytes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
