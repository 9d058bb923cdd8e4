#pragma once
// The two halves of every conversion between COO, CSR and CSC: compressing entries keyed by a
// major index (row or column) into pointer form, and expanding pointer form back to one major
// index per entry.
#include <araios/detail/for_each_row_entry.hpp>
#include <araios/primitives/bucket_sort.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace araios::Impl {

template <class Offset, class PermView, class MinorIn, class MinorOut, class ValuesIn, class ValuesOut>
struct GatherByPermutation {
  PermView perm;
  MinorIn minorIn;
  MinorOut minorOut;
  ValuesIn valuesIn;
  ValuesOut valuesOut;
  KOKKOS_INLINE_FUNCTION void operator()(Offset k) const {
    minorOut(k) = minorIn(perm(k));
    valuesOut(k) = valuesIn(perm(k));
  }
};

/// Output of compress(): ptr (numMajor + 1), and the minor indices and values of the entries,
/// grouped by major index and sorted by minor index within each group.
template <class PtrView, class MinorView, class ValueView>
struct Compressed {
  PtrView ptr;
  MinorView minor;
  ValueView values;
};

template <class Offset, class ExecSpace, class MajorView, class MinorView, class ValueView>
auto compress(const ExecSpace& exec, std::int64_t numMajor, const MajorView& major,
              const MinorView& minor, const ValueView& values, const std::string& label) {
  using Device = typename ValueView::device_type;
  using PtrView = Kokkos::View<Offset*, Device>;
  using OutMinor = Kokkos::View<typename MinorView::non_const_value_type*, Device>;
  using OutValues = Kokkos::View<typename ValueView::non_const_value_type*, Device>;
  const auto n = values.extent(0);
  PtrView ptr(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::ptr"), numMajor + 1);
  PtrView perm(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::perm"), n);
  bucketSort(exec, numMajor, major, minor, ptr, perm);
  OutMinor minorOut(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::index"), n);
  OutValues valuesOut(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), n);
  Kokkos::parallel_for(label + "::gather",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Offset>>(exec, 0, Offset(n)),
                       GatherByPermutation<Offset, PtrView, MinorView, OutMinor, ValueView, OutValues>{
                           perm, minor, minorOut, values, valuesOut});
  return Compressed<PtrView, OutMinor, OutValues>{ptr, minorOut, valuesOut};
}

template <class MajorView>
struct ExpandPointers {
  MajorView major;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, std::int64_t k, std::int64_t) const {
    major(k) = static_cast<typename MajorView::value_type>(i);
  }
};

/// One major index per entry from pointer form: the inverse of compress()'s ptr.
template <class Ordinal, class ExecSpace, class PtrView>
Kokkos::View<Ordinal*, typename PtrView::device_type> expand(const ExecSpace& exec, const PtrView& ptr,
                                                             std::int64_t nnz, const std::string& label) {
  using MajorView = Kokkos::View<Ordinal*, typename PtrView::device_type>;
  MajorView major(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), nnz);
  forEachRowEntry(label, exec, ptr, ExpandPointers<MajorView>{major});
  return major;
}

}  // namespace araios::Impl
