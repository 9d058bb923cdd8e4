#!/usr/bin/env python3
"""Condenses Nsight Compute CSV reports of araios-bench runs into one Markdown table.

    ncu --clock-control none --metrics <METRICS below> --csv --page raw --print-units base \\
        --log-file ncu_rmat.csv araios-bench --suite full --backend cuda --precision double \\
        --matrices none --matrix rmat-s21-ef16 --kernels 'brc,brcp,cusparse-csr-alg1'
    python3 bench/ncu_summary.py ncu_rmat.csv[.gz] [...] > summary.md

One row per kernel (grouped by the kernel's name, medians over its launches), kernels of at
least --min-us microseconds only (the timed SpMV launches, not fills and scans). Standard
library only.
"""

import argparse
import csv
import gzip
import re
import statistics

METRICS = (
    "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,"
    "dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,"
    "l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,sm__warps_active.avg.pct_of_peak_sustained_active,"
    "sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__block_size,"
    "launch__grid_size,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"
)


def short_name(name):
    """The functor (Kokkos) or kernel (CUDA) name, without template arguments."""
    m = re.search(r"(?:ParallelFor|ParallelReduce|ParallelScan)<(?:Impl::CudaFunctorAdapter<)?([\w:]+)", name)
    if m:
        return m.group(1)
    m = re.match(r"(?:void )?([\w:]+)", name)
    return m.group(1) if m else name[:40]


def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = [line for line in f if line.startswith('"')]
    rows = list(csv.reader(lines))
    header, data = rows[0], rows[1:]
    if data and data[0] and data[0][0] == "":  # the units line
        data = data[1:]
    return [dict(zip(header, r)) for r in data]


def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("reports", nargs="+", help="ncu --csv --page raw outputs (.csv or .csv.gz)")
    parser.add_argument("--min-us", type=float, default=20.0, help="leave out kernels shorter than this")
    args = parser.parse_args()
    print("| report | kernel | launches | time (µs) | DRAM read (MB) | DRAM write (MB) | DRAM % of peak "
          "| L2 hit % | L1 hit % | sectors / request | achieved occupancy % | stall long scoreboard % "
          "| registers | block |")
    print("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for path in args.reports:
        groups = {}
        for row in read_rows(path):
            groups.setdefault(row["Kernel Name"], []).append(row)
        report = re.sub(r"(\.csv)?(\.gz)?$", "", path.split("/")[-1])
        for name, rows in groups.items():
            def med(metric):
                return statistics.median(number(r.get(metric, "")) for r in rows)

            time_us = med("gpu__time_duration.sum") / 1e3
            if time_us < args.min_us:
                continue
            sectors = med("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
            requests = med("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")
            print(f"| {report} | `{short_name(name)}` | {len(rows)} | {time_us:.1f} "
                  f"| {med('dram__bytes_read.sum') / 1e6:.1f} | {med('dram__bytes_write.sum') / 1e6:.1f} "
                  f"| {med('dram__throughput.avg.pct_of_peak_sustained_elapsed'):.1f} "
                  f"| {med('lts__t_sector_hit_rate.pct'):.1f} | {med('l1tex__t_sector_hit_rate.pct'):.1f} "
                  f"| {sectors / requests if requests else float('nan'):.1f} "
                  f"| {med('sm__warps_active.avg.pct_of_peak_sustained_active'):.1f} "
                  f"| {med('smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct'):.0f} "
                  f"| {med('launch__registers_per_thread'):.0f} | {med('launch__block_size'):.0f} |")


if __name__ == "__main__":
    main()
