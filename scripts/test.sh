#!/usr/bin/env bash
# The README's second command, and what CI runs: installs what is missing, builds the
# `openmp` preset and runs the whole test suite with CTest.
# Real matrices come from ../shared/matrices beside the checkout, or from ARAIOS_MATRICES_DIR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh --backend openmp
cmake --preset openmp
cmake --build --preset openmp
ctest --preset openmp
