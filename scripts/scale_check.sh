#!/usr/bin/env bash
# The 64-bit scale check on a GPU (tests/scale/README.md): araios-scale-check at its
# default size (2^25 rows x 65 entries = 2,181,037,024 stored entries, past 2^31) with 64-bit
# offsets, SpMV with csr-vector, csr-scalar and SELL and CG, all in deterministic mode; then the
# same matrix with 32-bit offsets, which must be refused while counting with a message that
# names 64-bit offsets. About 38 GB of GPU memory at most (the CSR and, while it is checked, the
# SELL copy); a few minutes on an H100.
#
#   bash scripts/scale_check.sh [EXTRA OPTIONS FOR THE 64-BIT RUN]   # e.g. --rows 50000000
#
# The program is taken from build/cuda (cmake --preset cuda && cmake --build build/cuda
# --target araios-scale-check), or from $ARAIOS_SCALE_CHECK. Logs go to $ARAIOS_SCALE_LOGS
# (default build/scale-check-logs). Exit status 0 when both runs pass.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

exe=${ARAIOS_SCALE_CHECK:-build/cuda/tests/scale/araios-scale-check}
if [[ ! -x $exe ]]; then
  echo "scale_check.sh: $exe not found; build it with:" >&2
  echo "  cmake --preset cuda && cmake --build build/cuda --target araios-scale-check" >&2
  exit 2
fi
logs=${ARAIOS_SCALE_LOGS:-build/scale-check-logs}
mkdir -p "$logs"

if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,memory.total,memory.free --format=csv,noheader || true
fi

# run NAME ARGS...: runs the program, keeps its log, records its status and time.
declare -A status seconds
run() {
  local name=$1
  shift
  echo "== $name: $exe $*"
  local start=$SECONDS
  set +e
  "$exe" "$@" 2>&1 | tee "$logs/$name.log"
  status[$name]=${PIPESTATUS[0]}
  set -e
  seconds[$name]=$((SECONDS - start))
}

run offsets64 --kernels csr-vector,csr-scalar,sell "$@"
run offsets32 --offsets 32

echo
echo "== summary (logs in $logs)"
failed=0
for name in offsets64 offsets32; do
  verdict=$(grep -E '^(PASS|FAIL)' "$logs/$name.log" | tail -n 1 || true)
  printf '%-10s exit %s, %4s s: %s\n' "$name" "${status[$name]}" "${seconds[$name]}" "${verdict:-no verdict (see the log)}"
  [[ ${status[$name]} -eq 0 && $verdict == PASS* ]] || failed=1
done
grep -hE '^  (ok  |FAIL):' "$logs/offsets64.log" || true
if [[ $failed -eq 0 ]]; then
  echo "scale check: PASS"
else
  echo "scale check: FAIL"
fi
exit $failed
