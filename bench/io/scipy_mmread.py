#!/usr/bin/python3
"""scipy.io.mmread (and mmwrite) on the files araios-io-bench leaves with --keep, as CSV rows
of the same schema, for the comparison in bench/results/*/io/summary.md.

    /usr/bin/python3 bench/io/scipy_mmread.py FILE... >> io.csv

Each file is read --repeat times (the fastest counts) and written once, to a temporary file.
MB/s count the text bytes (for a .gz, decompressed). Run it with Debian's python3-scipy: the
row names the scipy version that produced it.
"""
import argparse
import gzip
import os
import sys
import tempfile
import time

import scipy
import scipy.io


def text_bytes(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            return sum(len(block) for block in iter(lambda: f.read(1 << 20), b""))
    return os.path.getsize(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--header", action="store_true", help="print the CSV header first")
    args = parser.parse_args()
    tool = "scipy-" + scipy.__version__
    if args.header:
        print("tool,commit,operation,format,entries,text_bytes,file_bytes,threads,seconds,mb_per_s")
    for path in args.files:
        fmt = "gz" if path.endswith(".gz") else "plain-by-column" if "-by-column" in path else "plain"
        size = text_bytes(path)
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            matrix = scipy.io.mmread(path)
            best = min(best, time.perf_counter() - start)
        entries = matrix.nnz
        print(f"{tool},,read,{fmt},{entries},{size},{os.path.getsize(path)},1,{best},{size / 1e6 / best}", flush=True)
        with tempfile.TemporaryDirectory() as folder:
            target = os.path.join(folder, "m.mtx")
            start = time.perf_counter()
            scipy.io.mmwrite(target, matrix)
            seconds = time.perf_counter() - start
            written = os.path.getsize(target)
        print(f"{tool},,write,plain,{entries},{written},{written},1,{seconds},{written / 1e6 / seconds}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
