#!/usr/bin/env bash
# Installs what Araios needs on Debian bookworm, as root, and is safe to run again:
#   1. Debian packages (compiler tools, Boost.Test, CLI11, fmt, nlohmann-json, zlib, MPFR, OpenMPI);
#   2. Kokkos 3.4.1, built from Debian's trilinos 13.2.0 source package into .deps/kokkos-<backend>;
#   3. with --kokkos-kernels only: Kokkos Kernels 3.4.1 from the same tarball, the CPU baseline of
#      araios-bench, into .deps/kokkos-kernels-openmp. Araios itself never needs it.
#
# Usage: scripts/setup.sh [--backend openmp|cuda|all] [--kokkos-kernels] [--fuzz] [--no-apt]
#   --backend         which Kokkos builds to make (default: openmp). cuda needs nvcc, not a GPU.
#   --kokkos-kernels  also build Kokkos Kernels (OpenMP, trimmed ETI) against .deps/kokkos-openmp
#                     (about 10 minutes on two cores).
#   --fuzz            also install clang and its libFuzzer runtime, for the Matrix Market fuzzer.
#   --no-apt          skip the Debian package step (for machines where the packages are there).
#
# Debian's own libtrilinos-kokkos-dev is not used: it is Serial-only and its exported
# Kokkos::kokkos target points at a directory that does not exist.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps="$repo/.deps"
backends=openmp
use_apt=1
kokkos_kernels=0
fuzz=0

while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backends="${2:?--backend needs openmp, cuda or all}"; shift 2 ;;
    --backend=*) backends="${1#--backend=}"; shift ;;
    --no-apt) use_apt=0; shift ;;
    --kokkos-kernels) kokkos_kernels=1; shift ;;
    --fuzz) fuzz=1; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: unknown argument '$1' (expected --backend openmp|cuda|all, --kokkos-kernels, --fuzz, --no-apt)" >&2
       exit 2 ;;
  esac
done
case "$backends" in
  openmp) backends="openmp" ;;
  cuda) backends="cuda" ;;
  all) backends="openmp cuda" ;;
  *) echo "setup.sh: --backend must be openmp, cuda or all, not '$backends'" >&2; exit 2 ;;
esac

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

jobs=$(nproc 2>/dev/null || echo 2)

# --- 1. Debian packages -------------------------------------------------------------------
packages=(g++ cmake ninja-build make patch libboost-test-dev libboost-dev zlib1g-dev
          libcli11-dev nlohmann-json3-dev libfmt-dev libmpfr-dev libgmp-dev dpkg-dev ca-certificates
          libopenmpi-dev openmpi-bin)
# The fuzzer (fuzz/) needs clang; with --no-install-recommends, its libFuzzer runtime comes only
# with libclang-rt-dev.
if [ "$fuzz" = 1 ]; then packages+=(clang libclang-rt-dev); fi
if [ "$use_apt" = 1 ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || die "packages missing (${missing[*]}); run this script as root, or install them and pass --no-apt"
    say "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    say "Debian packages already installed"
  fi
fi

# --- 2. Kokkos source from Debian's trilinos source package --------------------------------
tarball_name=trilinos_13.2.0.orig.tar.gz
tarball_size=165860771
tarball_sha256=0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90
src_dir="$deps/src"
kokkos_src="$deps/kokkos-3.4.1-src"
mkdir -p "$src_dir"

tarball_ok() {
  [ -f "$src_dir/$tarball_name" ] &&
  [ "$(stat -c %s "$src_dir/$tarball_name")" = "$tarball_size" ] &&
  echo "$tarball_sha256  $src_dir/$tarball_name" | sha256sum --quiet -c - 2>/dev/null
}

# A private apt configuration whose only sources are the machine's own, turned into deb-src
# entries. The system's apt configuration and package lists are left untouched.
fetch_tarball() {
  local apt_dir="$deps/apt"
  rm -rf "$apt_dir"; mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial"
  : > "$apt_dir/sources.list"
  if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list >> "$apt_dir/sources.list"
  fi
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    sed 's/^Types:.*/Types: deb-src/' "$f" > "$apt_dir/sources.list.d/$(basename "$f")"
  done
  for f in /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" > "$apt_dir/sources.list.d/$(basename "$f")"
  done
  local opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
              -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
              -o "Dir::State::Lists=$apt_dir/lists"
              -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=")
  say "reading Debian source package lists (private apt configuration in .deps/apt)"
  apt-get "${opts[@]}" update -qq || die "apt-get update with the deb-src configuration failed"
  say "downloading trilinos 13.2.0-4 source (166 MB)"
  (cd "$src_dir" && apt-get "${opts[@]}" source --download-only -qq trilinos=13.2.0-4) ||
    die "apt-get source --download-only trilinos=13.2.0-4 failed"
}

# The verified tarball, downloaded when missing or not the expected one.
ensure_tarball() {
  if tarball_ok; then
    say "trilinos source tarball already downloaded and verified"
    return
  fi
  rm -f "$src_dir/$tarball_name"
  fetch_tarball
  [ -f "$src_dir/$tarball_name" ] || die "apt-get source did not produce $tarball_name"
  local actual_size
  actual_size=$(stat -c %s "$src_dir/$tarball_name")
  [ "$actual_size" = "$tarball_size" ] ||
    die "$tarball_name is $actual_size bytes, expected $tarball_size"
  tarball_ok || die "$tarball_name does not have the expected sha256 $tarball_sha256"
  say "verified $tarball_name: $tarball_size bytes, sha256 $tarball_sha256"
}

# extract_package <packages/...> <dest>: one package of the tarball, its top folders stripped.
extract_package() {
  local package=$1 dest=$2 top
  rm -rf "$dest"; mkdir -p "$dest"
  top=$( (tar -tzf "$src_dir/$tarball_name" || true) | head -n 1 | cut -d/ -f1)
  tar -xzf "$src_dir/$tarball_name" -C "$dest" --strip-components=3 "$top/$package"
  [ -f "$dest/CMakeLists.txt" ] || die "$package was not found in $tarball_name"
}

patch_file="$repo/cmake/patches/kokkos-3.4.1-cuda13-hopper.patch"
patch_sum=$(sha256sum "$patch_file" | cut -c1-16)
# The stamp records which patch the tree carries, so a changed patch gets a fresh tree.
if [ -f "$kokkos_src/.extracted" ] && [ "$(cat "$kokkos_src/.extracted")" = "$patch_sum" ]; then
  say "Kokkos source already extracted and patched in .deps/kokkos-3.4.1-src"
else
  ensure_tarball
  say "extracting packages/kokkos (the whole archive has to be gunzipped: about 15 s)"
  extract_package packages/kokkos "$kokkos_src"
  # The patch makes Kokkos 3.4.1 build with CUDA 13 and know Hopper; it does not change the
  # OpenMP build, so one patched source tree serves every backend.
  patch -d "$kokkos_src" -p1 --forward --quiet < "$patch_file" ||
    die "the Kokkos patch cmake/patches/kokkos-3.4.1-cuda13-hopper.patch did not apply"
  echo "$patch_sum" > "$kokkos_src/.extracted"
fi

# cmake_install LABEL LOG SRC BUILD ARGS...: configures, builds and installs SRC in BUILD (then
# removed), logging to .deps/LOG-configure.log and .deps/LOG-build.log, and stops with the log's
# name on failure.
cmake_install() {
  local label="$1" log="$2" src="$3" build="$4"
  shift 4
  cmake -S "$src" -B "$build" "$@" > "$deps/$log-configure.log" 2>&1 ||
    die "configuring $label failed; see .deps/$log-configure.log"
  cmake --build "$build" -j "$jobs" > "$deps/$log-build.log" 2>&1 ||
    die "building $label failed; see .deps/$log-build.log"
  cmake --install "$build" > /dev/null
  rm -rf "$build"
}

# --- 3. Kokkos builds, one install prefix per backend ------------------------------------
build_kokkos() {
  local backend=$1 prefix="$deps/kokkos-$1" build="$deps/build-kokkos-$1"
  local stamp="$prefix/.araios-installed"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$patch_sum" ]; then
    say "Kokkos ($backend) already installed in .deps/kokkos-$backend"
    return
  fi
  local args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix"
              -DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON
              -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF -DBUILD_SHARED_LIBS=OFF
              -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
  if [ "$backend" = cuda ]; then
    command -v nvcc >/dev/null || die "the cuda backend needs nvcc on the PATH"
    args+=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_HOPPER90=ON
           -DCMAKE_CXX_COMPILER="$kokkos_src/bin/nvcc_wrapper")
  else
    args+=(-DCMAKE_CXX_COMPILER=g++)
  fi
  say "building Kokkos ($backend) with $jobs jobs"
  rm -rf "$build"
  cmake_install "Kokkos ($backend)" "kokkos-$backend" "$kokkos_src" "$build" "${args[@]}"
  echo "$patch_sum" > "$stamp"
  say "Kokkos ($backend) installed in .deps/kokkos-$backend"
}

for b in $backends; do build_kokkos "$b"; done

# --- 4. Kokkos Kernels 3.4.1 (opt-in): the CPU baseline of araios-bench ------------------------
# Only what the benchmark calls is instantiated ahead of time: KokkosSparse on <OpenMP, HostSpace>,
# double and float, int ordinals and offsets, LayoutLeft. The default ETI (every component,
# Serial too, size_t offsets) takes 18 minutes on two cores; this takes about 10. Types outside
# the list still work, instantiated where they are called. No TPLs: the baseline is Kokkos
# Kernels' own kernel, not a vendor BLAS behind it.
build_kokkos_kernels() {
  local src="$deps/kokkos-kernels-3.4.1-src" prefix="$deps/kokkos-kernels-openmp"
  local build="$deps/build-kokkos-kernels-openmp"
  local args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix"
              -DCMAKE_CXX_COMPILER=g++ -DCMAKE_CXX_STANDARD=17 -DBUILD_SHARED_LIBS=OFF
              -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DKokkos_ROOT="$deps/kokkos-openmp"
              -DKokkosKernels_ENABLED_COMPONENTS=SPARSE
              -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF
              -DKokkosKernels_INST_EXECSPACE_OPENMP=ON -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF
              -DKokkosKernels_INST_MEMSPACE_HOSTSPACE=ON
              -DKokkosKernels_INST_DOUBLE=ON -DKokkosKernels_INST_FLOAT=ON
              -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF
              -DKokkosKernels_INST_ORDINAL_INT=ON -DKokkosKernels_INST_ORDINAL_INT64_T=OFF
              -DKokkosKernels_INST_OFFSET_INT=ON -DKokkosKernels_INST_OFFSET_SIZE_T=OFF
              -DKokkosKernels_INST_LAYOUTLEFT=ON -DKokkosKernels_INST_LAYOUTRIGHT=OFF
              -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TPL_LAPACK=OFF)
  # The stamp names the Kokkos it was built against and the options, so changing either rebuilds.
  local sum
  sum=$(printf '%s\n' "$patch_sum" "${args[@]}" | sha256sum | cut -c1-16)
  local stamp="$prefix/.araios-installed"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
    say "Kokkos Kernels (openmp) already installed in .deps/kokkos-kernels-openmp"
    return
  fi
  if [ ! -f "$src/.extracted" ]; then
    ensure_tarball
    say "extracting packages/kokkos-kernels"
    extract_package packages/kokkos-kernels "$src"
    touch "$src/.extracted"
  fi
  say "building Kokkos Kernels (openmp, trimmed ETI) with $jobs jobs (about 10 minutes on 2 cores)"
  rm -rf "$build" "$prefix"
  cmake_install "Kokkos Kernels" "kokkos-kernels-openmp" "$src" "$build" "${args[@]}"
  echo "$sum" > "$stamp"
  say "Kokkos Kernels (openmp) installed in .deps/kokkos-kernels-openmp"
}

if [ "$kokkos_kernels" = 1 ]; then
  case " $backends " in *" openmp "*) ;; *) build_kokkos openmp ;; esac
  build_kokkos_kernels
fi
say "done"
