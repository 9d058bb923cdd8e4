#!/usr/bin/env bash
# The README's first command: installs the dependencies (Debian packages and Kokkos, see
# scripts/setup.sh), builds the `openmp` preset and runs Araios on a bundled real matrix.
# Run it as root on Debian bookworm; running it again reuses what is already there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh --backend openmp
cmake --preset openmp
cmake --build --preset openmp --target araios-cli   # the tests are built by scripts/test.sh

matrix=data/sherman3.mtx.gz
araios=build/openmp/tools/araios
echo
"$araios" info "$matrix"
echo
"$araios" select "$matrix"      # every kernel ranked by the performance model
echo
"$araios" spmv "$matrix"        # --format auto: the model's choice, printed
for kernel in coo csr-vector; do
  echo
  "$araios" spmv "$matrix" --format "$kernel"
done
