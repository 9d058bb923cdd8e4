#!/usr/bin/env bash
# The README's second command, and what CI runs: installs what is missing (clang with libFuzzer
# too, for the one-minute fuzz test), builds the `openmp` preset and runs the whole test suite
# with CTest.
# Real matrices come from ../shared/matrices beside the checkout, or from ARAIOS_MATRICES_DIR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh --backend openmp --fuzz
# ON rather than AUTO: with clang installed just above, a fuzzer that cannot be built is an error
# to see, not a test to skip.
cmake --preset openmp -DARAIOS_ENABLE_FUZZ=ON
cmake --build --preset openmp
ctest --preset openmp
