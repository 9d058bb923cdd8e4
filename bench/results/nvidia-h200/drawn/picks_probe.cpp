// Auto's choice for the drawn suite of a seed (or the unseen suite, "unseen:SEED") under several profiles, from the matrices'
// features computed on the host (the same features Kernel::Auto computes on the device): for each
// matrix and mode, the kernel each profile picks and its predicted product time. Joined with a
// GPU run's measured times (picks_probe.py), it shows what each profile's pick would have cost.
// Built against the openmp preset's build, from the repository root:
//   g++ -O2 -std=c++17 -fopenmp -Iinclude -Ibench -isystem .deps/kokkos-openmp/include \
//       bench/results/nvidia-h200/drawn/picks_probe.cpp -o /tmp/picks_probe \
//       build/openmp/libaraios_model.a build/openmp/libaraios_io.a build/openmp/libaraios.a -L.deps/kokkos-openmp/lib -lkokkoscore -ldl
//   OMP_NUM_THREADS=2 /tmp/picks_probe 31337 builtin:cuda profiles/cuda-nvidia-h100-80gb-hbm3.json > picks.tsv
//   OMP_NUM_THREADS=2 /tmp/picks_probe unseen:112358 profiles/cuda-nvidia-h200.json > picks.tsv
// With --all first, every kernel's predicted product and build under the first profile instead
// (products 10^12), for comparing the model with measured times kernel by kernel:
//   OMP_NUM_THREADS=2 /tmp/picks_probe --all unseen:112358 profiles/cuda-nvidia-h200.json > predicted.tsv
#include <araios/formats/coo/coo_convert.hpp>
#include <araios/model/choose_kernel.hpp>
#include <araios/model/compute_features.hpp>
#include <araios/model/performance_profile.hpp>
#include <generators/catalog.hpp>
#include <generators/drawn_catalog.hpp>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  const bool all = argc > 1 && std::string(argv[1]) == "--all";
  if (all) {
    --argc;
    ++argv;
  }
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s [--all] SEED|unseen:SEED PROFILE... (PROFILE: a file, or builtin:cuda)\n", argv[0]);
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  // The bench's suites: the drawn shapes depend on the seed, the unseen suite's only their entries.
  const std::string suiteArg = argv[1];
  const bool unseen = suiteArg.rfind("unseen:", 0) == 0;
  const std::uint64_t seed = std::strtoull(suiteArg.c_str() + (unseen ? 7 : 0), nullptr, 10);
  std::vector<std::pair<std::string, araios::PerformanceProfile>> profiles;
  for (int i = 2; i < argc; ++i) {
    const std::string name = argv[i];
    profiles.emplace_back(name, name.rfind("builtin:", 0) == 0 ? araios::builtinProfile(name.substr(8))
                                                               : araios::readProfile(name));
  }
  using Csr = araios::CsrMatrix<double, std::int32_t, std::int32_t, Kokkos::OpenMP::device_type>;
  std::printf(all ? "matrix\tmode\tkernel\tpredicted_s\tbuild_s\n" : "matrix\tmode\tproducts\tprofile\tkernel\tpredicted_s\n");
  for (const auto& e : unseen ? araios::bench::gen::unseenCatalog() : araios::bench::gen::drawnCatalog(seed)) {
    const araios::io::HostMatrix host = e.make(araios::bench::gen::seedFromName(e.name.c_str(), seed));
    const Csr csr = araios::csrFromHost<Csr>(host);
    const araios::MatrixFeatures f = araios::computeFeatures(Kokkos::OpenMP(), csr);
    for (const araios::Mode mode : {araios::Mode::Fast, araios::Mode::Deterministic}) {
      if (all) {
        araios::ChoiceConstraints c;
        c.mode = mode;
        c.expectedProducts = 1e12;
        for (const auto& k : araios::chooseKernel(f, profiles.front().second, c).ranking)
          if (k.excluded.empty())
            std::printf("%s\t%s\t%s\t%.4e\t%.4e\n", e.name.c_str(), araios::toString(mode),
                        std::string(araios::kernelEntry(k.kernel).name).c_str(), k.productSeconds, k.buildSeconds);
        continue;
      }
      // Auto's default for an operator (the build spread over 100 products), and the product
      // alone (araios-bench's auto_kernel column).
      for (const double products : {100.0, 1e12}) {
        for (const auto& [name, profile] : profiles) {
          araios::ChoiceConstraints c;
          c.mode = mode;
          c.expectedProducts = products;
          const araios::KernelChoice choice = araios::chooseKernel(f, profile, c);
          std::printf("%s\t%s\t%.0f\t%s\t%s\t%.3e\n", e.name.c_str(), araios::toString(mode), products, name.c_str(),
                      std::string(araios::kernelEntry(choice.kernel).name).c_str(),
                      choice.ranking.front().productSeconds);
        }
      }
    }
    std::fflush(stdout);
  }
  return 0;
}
