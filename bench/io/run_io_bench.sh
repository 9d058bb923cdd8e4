#!/bin/sh
# The runs behind bench/results/<machine>/io/: araios-io-bench on generated files, scipy's
# mmread on the same files, `araios info` on the largest, and optionally the reader of an older
# build (its `araios info` prints how long the read took), for the before/after comparison.
#
#   bench/io/run_io_bench.sh BUILD_DIR OUT_DIR [OLD_ARAIOS_BINARY]
#
# BUILD_DIR holds bench/io/araios-io-bench and tools/araios (configure with
# -DARAIOS_ENABLE_BENCH=ON). Files go to $ARAIOS_IO_BENCH_DIR (default /tmp/araios-io-bench),
# about 6 GB at 1e8 entries. ENTRIES (default 1e6,1e7) and LARGE (default 1e8; empty: none)
# choose the sizes; the large one is run once, without the by-column file and scipy.
set -eu
build=$1
out=$2
old=${3:-}
dir=${ARAIOS_IO_BENCH_DIR:-/tmp/araios-io-bench}
entries=${ENTRIES:-1e6,1e7}
large=${LARGE-1e8}
python=${PYTHON:-/usr/bin/python3}
mkdir -p "$out" "$dir"

"$build/bench/io/araios-io-bench" --entries "$entries" --threads 1,2 --repeat 3 --keep --dir "$dir" \
  --csv "$out/io.csv" --jsonl "$out/io.jsonl" | tee "$out/io.txt"
if [ -n "$large" ]; then
  "$build/bench/io/araios-io-bench" --entries "$large" --threads 1,2 --repeat 1 --no-by-column --dir "$dir" \
    --csv "$out/io-large.csv" --jsonl "$out/io-large.jsonl" | tee -a "$out/io.txt"
fi

# scipy.io.mmread and mmwrite, one thread.
if "$python" -c 'import scipy' 2>/dev/null; then
  "$python" "$(dirname "$0")/scipy_mmread.py" --header "$dir"/araios-io-bench-*.mtx* > "$out/scipy.csv"
fi

# araios info on the largest kept file listed by column (the costly case: it must be sorted),
# and the older build's reader, timed by its own `araios info`.
largest=$(ls -S "$dir"/araios-io-bench-*-by-column.mtx | head -n 1)
{
  for threads in 1 2; do
    echo "== araios info --threads $threads $largest"
    /usr/bin/time -f "wall %e s, peak memory %M KB" "$build/tools/araios" info --threads "$threads" "$largest" 2>&1 >/dev/null
  done
  if [ -n "$old" ]; then
    for f in "$dir"/araios-io-bench-*.mtx*; do
      echo "== old: $old info $f"
      /usr/bin/time -f "wall %e s, peak memory %M KB" "$old" info "$f" 2>&1 >/dev/null
    done
  fi
} | tee "$out/info.txt"
