#!/usr/bin/env bash
# Runs the `cuda` preset's tests on a machine with an NVIDIA GPU, from a build tree made on
# another machine (build/cuda and .deps/kokkos-cuda copied along). CMake build trees hold
# absolute paths, so the checkout is made visible at the path it was built in.
# Usage: scripts/gpu_tests.sh BUILT_AT [ctest -R regex]
set -euo pipefail
built_at=${1:?usage: gpu_tests.sh BUILT_AT [regex]}
regex=${2:-.}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ "$here" != "$built_at" ]; then
  mkdir -p "$(dirname "$built_at")"
  ln -sfn "$here" "$built_at"
fi
cd "$built_at"
# The consumer test calls the cmake this tree was configured with.
configured_cmake=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' build/cuda/CMakeCache.txt)
if [ -n "$configured_cmake" ] && [ ! -x "$configured_cmake" ]; then ln -sfn "$(command -v cmake)" "$configured_cmake"; fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
ctest --test-dir build/cuda -R "$regex" --output-on-failure
