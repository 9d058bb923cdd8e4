#pragma once
// How each storage format of the registry (kernel_registry.hpp) is built from CSR, and the
// type-erased prepared kernel that SpmvOperator holds: a format in its Views, the state its
// product keeps between calls (detail/spmv_state.hpp), and a product that runs in any mode.
// Accurate mode has one answer whatever the kernel, so for the formats accurateRunsOnCsr names
// it runs as the CSR Accurate product on the CSR matrix the operator was built from
// (formats/csr/csr_accurate.hpp): a long row is then never one thread's walk.
#include <araios/detail/spmv_state.hpp>
#include <araios/format_options.hpp>
#include <araios/kernel_registry.hpp>
#include <araios/mode.hpp>
#include <araios/spmv.hpp>
#include <araios/formats/brc/brc_convert.hpp>
#include <araios/formats/brcp/brcp_convert.hpp>
#include <araios/formats/coo/coo_convert.hpp>
#include <araios/formats/csr/csr_accurate.hpp>
#include <araios/formats/csr/csr_accurate_path.hpp>
#include <araios/formats/csc/csc_convert.hpp>
#include <araios/formats/dia/dia_convert.hpp>
#include <araios/formats/ell/ell_convert.hpp>
#include <araios/formats/hyb/hyb_convert.hpp>
#include <araios/formats/jds/jds_convert.hpp>
#include <araios/formats/sccsr/sccsr_convert.hpp>
#include <araios/formats/sell/sell_convert.hpp>
#include <araios/formats/vab/vab_convert.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace araios::Impl {

/// The format F built from CSR: one line per format.
template <FormatId F>
struct FormatBuilder;

#define ARAIOS_FORMAT_BUILDER(ID, CALL)                                                      \
  template <>                                                                                \
  struct FormatBuilder<FormatId::ID> {                                                       \
    template <class ExecSpace, class Csr>                                                    \
    static auto fromCsr(const ExecSpace& exec, const Csr& csr, const FormatOptions& options) { \
      (void)exec;                                                                            \
      (void)options;                                                                         \
      return CALL;                                                                           \
    }                                                                                        \
  };
ARAIOS_FORMAT_BUILDER(Coo, cooFromCsr(exec, csr))
ARAIOS_FORMAT_BUILDER(Csr, csr)
ARAIOS_FORMAT_BUILDER(Csc, cscFromCsr(exec, csr))
ARAIOS_FORMAT_BUILDER(Ell, ellFromCsr(exec, csr, options))
ARAIOS_FORMAT_BUILDER(Hyb, hybFromCsr(exec, csr, options))
ARAIOS_FORMAT_BUILDER(Dia, diaFromCsr(exec, csr, options))
ARAIOS_FORMAT_BUILDER(Jds, jdsFromCsr(exec, csr, options))
ARAIOS_FORMAT_BUILDER(Sell, sellFromCsr(exec, csr, options))
ARAIOS_FORMAT_BUILDER(Brc, brcFromCsr(exec, csr, options))
ARAIOS_FORMAT_BUILDER(Brcp, brcpFromCsr(exec, csr, options))
ARAIOS_FORMAT_BUILDER(ScCsr, scCsrFromCsr(exec, csr, options))
ARAIOS_FORMAT_BUILDER(Vab, vabFromCsr(exec, csr, options))
#undef ARAIOS_FORMAT_BUILDER

/// f(FormatBuilder<format>{}) with `format` known at compile time.
template <class F, std::size_t... I>
decltype(auto) visitFormat(FormatId format, F&& f, std::index_sequence<I...>) {
  using Result = decltype(f(FormatBuilder<FormatId::Coo>{}));
  if constexpr (std::is_void_v<Result>) {
    ((format == static_cast<FormatId>(I) ? (f(FormatBuilder<static_cast<FormatId>(I)>{}), true) : false) || ...);
  } else {
    Result result{};
    ((format == static_cast<FormatId>(I) ? (result = f(FormatBuilder<static_cast<FormatId>(I)>{}), true) : false) ||
     ...);
    return result;
  }
}

template <class F>
decltype(auto) visitFormat(FormatId format, F&& f) {
  return visitFormat(format, std::forward<F>(f), std::make_index_sequence<kFormatCount>{});
}

/// A kernel's format, built, and its product, behind one interface for every format.
template <class Value, class ExecSpace>
class PreparedKernel {
 public:
  using Device = typename ExecSpace::device_type;
  using Vector = Kokkos::View<Value*, Device>;
  using ConstVector = Kokkos::View<const Value*, Device>;

  virtual ~PreparedKernel() = default;
  virtual void apply(const ExecSpace& exec, const ConstVector& x, const Vector& y, Value alpha, Value beta,
                     const SpmvOptions& options, const Vector& work) const = 0;
  virtual std::int64_t formatBytes() const = 0;
  virtual std::int64_t storedSlots() const = 0;
  /// Values of workspace one product with `algorithm` needs.
  virtual std::int64_t workspaceValues(SpmvAlgorithm algorithm) const = 0;
  /// What the kept state chose for the products of `algorithm`, in words; empty where it chose
  /// nothing.
  virtual std::string plan(SpmvAlgorithm algorithm) const = 0;
};

/// `accurate`: the CSR matrix the format was built from, its longest row and long rows, for a format that
/// accurateRunsOnCsr names; empty (not ready) for the others, whose own product runs Accurate
/// mode.
template <class ExecSpace, class Format, class Csr>
class PreparedFormat final : public PreparedKernel<typename Format::value_type, ExecSpace> {
  using Base = PreparedKernel<typename Format::value_type, ExecSpace>;
  using State = SpmvState<ExecSpace, Format>;

 public:
  PreparedFormat(Format format, State state, CsrAccurateState<Csr> accurate)
      : format_(std::move(format)), state_(std::move(state)), accurate_(std::move(accurate)) {}

  void apply(const ExecSpace& exec, const typename Base::ConstVector& x, const typename Base::Vector& y,
             typename Format::value_type alpha, typename Format::value_type beta, const SpmvOptions& options,
             const typename Base::Vector& work) const override {
    if (options.mode == Mode::Accurate && accurate_.ready()) {
      csrAccurateSpmv(exec, accurate_, x, y, alpha, beta, work);
    } else {
      spmvCanonical(exec, format_, x, y, alpha, beta, options, work, state_);
    }
  }
  /// The CSR matrix Accurate mode runs on is the caller's: not counted.
  std::int64_t formatBytes() const override { return format_.bytes() + state_.bytes() + accurate_.bytes(); }
  std::int64_t storedSlots() const override { return format_.storedSlots(); }
  std::int64_t workspaceValues(SpmvAlgorithm algorithm) const override {
    // Accurate mode's chunks of long rows, where there are any, need workspace whatever the
    // kernel; so do the groups of long rows that a state may plan (COO, CSC and HYB on a GPU).
    return std::max({spmvWorkspaceValues<ExecSpace, Format>(format_, algorithm), accurate_.workspaceValues(),
                     spmvStateWorkspaceValues(state_)});
  }
  std::string plan(SpmvAlgorithm algorithm) const override { return describeSpmvState(state_, algorithm); }

 private:
  Format format_;
  State state_;
  CsrAccurateState<Csr> accurate_;
};

/// Builds `format` from CSR on `exec` (a padded format may refuse: PaddingError), with the
/// state its product keeps for an operator in `mode`. Not inline: the compiled instantiations
/// (araios/instantiations.hpp) keep every format's conversion and kernels out of the caller's
/// translation unit.
template <class ExecSpace, class Csr>
std::shared_ptr<const PreparedKernel<typename Csr::value_type, ExecSpace>> buildPreparedKernel(
    const ExecSpace& exec, FormatId format, const Csr& csr, const FormatOptions& options, Mode mode);

template <class ExecSpace, class Csr>
std::shared_ptr<const PreparedKernel<typename Csr::value_type, ExecSpace>> buildPreparedKernel(
    const ExecSpace& exec, FormatId format, const Csr& csr, const FormatOptions& options, Mode mode) {
  using Result = std::shared_ptr<const PreparedKernel<typename Csr::value_type, ExecSpace>>;
  return visitFormat(format, [&](auto builder) -> Result {
    auto built = decltype(builder)::fromCsr(exec, csr, options);
    auto state = prepareSpmvState(exec, built, csr, mode);
    // Kept whatever the operator's mode (apply may take another): one reduction over the row
    // offsets.
    CsrAccurateState<Csr> accurate;
    if (accurateRunsOnCsr(format)) accurate = csrAccurateState(exec, csr);
    return std::make_shared<const PreparedFormat<ExecSpace, decltype(built), Csr>>(std::move(built), std::move(state),
                                                                                  std::move(accurate));
  });
}

}  // namespace araios::Impl

#include <araios/instantiations.hpp>
#ifdef ARAIOS_COMPILED_INSTANTIATIONS
ARAIOS_ETI_FOR_EACH(ARAIOS_ETI_DECLARE_BUILDER)
#endif
