#pragma once
// The device side of a GMRES(m) cycle: its scalars, the Arnoldi step's orthogonalisation
// (fused and unfused), the Givens rotations, the triangular solve and the update of x.
//
// Step k orthogonalises w = A v_k (A D^-1 v_k with the Jacobi preconditioner) against
// v_0 .. v_k by classical Gram-Schmidt applied twice (CGS2):
//
//   h = V^T w,   w = w - V h,   c = V^T w,   w = w - V c,   h = h + c,   h_{k+1,k} = ||w||,
//
// then the rotations reduce the new Hessenberg column and v_{k+1} = w / h_{k+1,k}. One pass of
// classical Gram-Schmidt loses orthogonality in proportion to the square of the condition
// number of the vectors it orthogonalises; the second pass brings it back to the order of the
// rounding error (Giraud, Langou, Rozloznik and van den Eshof, Numer. Math. 101, 2005). Unlike
// modified Gram-Schmidt, whose k + 1 dot products each wait for the update before them, a pass
// takes all of V^T w from the same w: one sweep over the basis, whatever k is.
//
// The arithmetic, which fused and unfused share bit for bit: every dot product and the norm are
// in the deterministic order (primitives/deterministic_reduce.hpp); w - V h is, for each
// element, the chain w_i = fma(-h_j, V(i, j), w_i) for j = 0, 1, ..., k in that order, which is
// what the axpys w += (-h_j) v_j give one after the other; the norm is the square root of w . w;
// h_jk + c_j is one addition.
//
// Fused (GmresFusedSteps: one process, Deterministic and Fast mode), the orthogonalisation is
// three chunk passes, each followed by its tree pass:
//
//   h         V^T w (primitives/chunked_multi_dots.hpp); the tree pass stores h;
//   project   w = w - V h, and the chunk sums of V^T w taken from the values just written;
//             the tree pass stores c;
//   norm      w = w - V c with the chunk sums of w . w; the tree pass's finish takes the
//             square root, adds c into h and applies the rotations (gmresCloseColumn).
//
// Unfused (gmresOrthogonalizeUnfused: Accurate mode, whose exact sums are not chunk sums, and
// a distributed operator, whose dot products cross the ranks), the same steps are 2k + 3 dot
// products or norms, two update kernels and a one-thread kernel for the rotations.
#include <araios/detail/light_parallel_for.hpp>
#include <araios/primitives/chunked_dots.hpp>
#include <araios/primitives/chunked_multi_dots.hpp>
#include <araios/primitives/deterministic_reduce.hpp>
#include <araios/primitives/device_scalar.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace araios::Impl {

/// Where each GMRES scalar lives in the device array.
struct GmresSlots {
  // An enum, not static constexpr members: View::operator() takes its index by reference,
  // which would make nvcc look for the members' storage in device code.
  enum : int {
    kBeta = 0,      ///< ||r0|| of the cycle
    kEstimate = 1,  ///< |g_{k+1}|: read by the host with kFlag
    kFlag = 2,      ///< 0 ok, 1 happy breakdown (h_{k+1,k} = 0), 2 singular, 3 NaN/Inf
    kHNext = 3,     ///< ||w||, before it becomes h_{k+1,k}
    kHeader = 4,
  };
  int m;
  /// Column j of H is contiguous: h(0, j) + i = h(i, j).
  KOKKOS_INLINE_FUNCTION int h(int i, int j) const { return kHeader + i + j * (m + 1); }
  KOKKOS_INLINE_FUNCTION int cs(int i) const { return kHeader + (m + 1) * m + i; }
  KOKKOS_INLINE_FUNCTION int sn(int i) const { return cs(m) + i; }
  KOKKOS_INLINE_FUNCTION int g(int i) const { return sn(m) + i; }    // m + 1 entries
  KOKKOS_INLINE_FUNCTION int y(int i) const { return g(m + 1) + i; }
  KOKKOS_INLINE_FUNCTION int reorth(int i) const { return y(m) + i; }  // c, the second pass's coefficients
  int count() const { return reorth(m); }
};

template <class Value, class Device>
struct GmresStartCycle {
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    s(at.g(0)) = s(GmresSlots::kBeta);
    for (int i = 1; i <= at.m; ++i) s(at.g(i)) = 0;
  }
};

/// Closes column k of H once ||w|| is in kHNext: h_jk += c_j, then the previous rotations, the
/// rotation that zeroes h_{k+1,k}, and g updated. Only +, *, /, sqrt and fma: the same bits on
/// every backend (hypot is not correctly rounded and differs between libraries, so the norm of
/// (a, b) is formed here).
template <class Slots>
KOKKOS_INLINE_FUNCTION void gmresCloseColumn(const Slots& s, const GmresSlots& at, int k) {
  using Value = typename Slots::non_const_value_type;
  for (int j = 0; j <= k; ++j) s(at.h(j, k)) = s(at.h(j, k)) + s(at.reorth(j));
  const Value hNext = s(GmresSlots::kHNext);
  for (int i = 0; i < k; ++i) {
    const Value c = s(at.cs(i)), sn = s(at.sn(i));
    const Value a = s(at.h(i, k)), b = s(at.h(i + 1, k));
    s(at.h(i, k)) = fp::fma(c, a, sn * b);
    s(at.h(i + 1, k)) = fp::fma(c, b, -(sn * a));
  }
  const Value a = s(at.h(k, k));
  const Value b = hNext;
  Value c = 1, sn = 0, r = a;
  if (b != 0) {
    // Scaled so that the squares can neither overflow nor underflow.
    const Value scale = fp::abs(a) > fp::abs(b) ? fp::abs(a) : fp::abs(b);
    const Value as = a / scale, bs = b / scale;
    r = scale * fp::sqrt(fp::fma(as, as, bs * bs));
    c = a / r;
    sn = b / r;
  }
  s(at.cs(k)) = c;
  s(at.sn(k)) = sn;
  s(at.h(k, k)) = r;
  s(at.h(k + 1, k)) = 0;
  const Value gk = s(at.g(k));
  s(at.g(k)) = c * gk;
  s(at.g(k + 1)) = -(sn * gk);
  s(GmresSlots::kEstimate) = fp::abs(s(at.g(k + 1)));
  if (!fp::isFinite(r) || !fp::isFinite(s(GmresSlots::kEstimate))) {
    s(GmresSlots::kFlag) = 3;
  } else if (r == 0) {
    s(GmresSlots::kFlag) = 2;
  } else {
    s(GmresSlots::kFlag) = b == 0 ? 1 : 0;
  }
}

/// gmresCloseColumn as a one-thread kernel (the unfused step).
template <class Value, class Device>
struct GmresCloseColumn {
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  int k;
  KOKKOS_INLINE_FUNCTION void operator()(int) const { gmresCloseColumn(s, at, k); }
};

/// w = w - V c for the basis column `target`, c the `count` coefficients from slot `first` on:
/// per element the chain w_i = fma(-c_j, V(i, j), w_i) for j = 0 .. count - 1. Returns the new w_i.
template <class Basis, class Value, class Device>
struct GmresSubtractBasis {
  Basis V;
  Kokkos::View<Value*, Device> s;
  int target;
  int first;
  int count;
  KOKKOS_INLINE_FUNCTION Value operator()(std::int64_t i) const {
    Value w = V(i, target);
    for (int j = 0; j < count; ++j) w = fp::fma(-s(first + j), V(i, j), w);
    V(i, target) = w;
    return w;
  }
};

/// The update alone, as a kernel (the unfused step).
template <class Basis, class Value, class Device>
struct GmresSubtractKernel {
  GmresSubtractBasis<Basis, Value, Device> subtract;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { subtract(i); }
};

/// The norm pass's terms: the update, then (w_i, w_i).
template <class Basis, class Value, class Device>
struct GmresSubtractNormTerms {
  GmresSubtractBasis<Basis, Value, Device> subtract;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Value (&a)[1], Value (&b)[1]) const {
    const Value w = subtract(i);
    a[0] = w;
    b[0] = w;
  }
};

/// The norm pass's finish: ||w|| = sqrt(w . w) as norm2 forms it, then the column closed.
template <class Value, class Device>
struct GmresNormFinish {
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  int k;
  KOKKOS_INLINE_FUNCTION void operator()(const Value (&totals)[1]) const {
    s(GmresSlots::kHNext) = fp::sqrt(totals[0]);
    gmresCloseColumn(s, at, k);
  }
};

/// v = u / s(slot), a true division (the rounding of araios::divide), and with the right
/// preconditioner z = v / d as well, the vector the next product takes. Used for v_0 = r / beta
/// and v_{k+1} = w / h_{k+1,k} (in place).
template <class UView, class VView, class DView, class Value, class Device>
struct GmresNormalize {
  UView u;
  VView v;
  DView d;
  Kokkos::View<Value*, Device> z;
  Kokkos::View<Value*, Device> s;
  int slot;
  bool precondition;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    const Value vi = static_cast<Value>(u(i)) / s(slot);
    v(i) = vi;
    if (precondition) z(i) = vi / static_cast<Value>(d(i));
  }
};

/// y = R^-1 g for the leading k x k triangle, back substitution in a fixed order.
template <class Value, class Device>
struct GmresSolveTriangle {
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  int k;
  KOKKOS_INLINE_FUNCTION void operator()(int) const {
    for (int i = k - 1; i >= 0; --i) {
      Value sum = s(at.g(i));
      for (int j = k - 1; j > i; --j) sum = fp::fma(-s(at.h(i, j)), s(at.y(j)), sum);
      s(at.y(i)) = sum / s(at.h(i, i));
    }
  }
};

/// x_i += (V y)_i, or x_i += (V y)_i / d_i with the right preconditioner. (V y)_i is summed
/// over the basis in order j = 0, 1, ... by one thread.
template <class Basis, class XView, class DView, class Value, class Device>
struct GmresUpdateX {
  Basis V;
  XView x;
  DView d;
  bool precondition;
  Kokkos::View<Value*, Device> s;
  GmresSlots at;
  int k;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
    Value u = 0;
    for (int j = 0; j < k; ++j) u = fp::fma(V(i, j), s(at.y(j)), u);
    x(i) = x(i) + (precondition ? u / static_cast<Value>(d(i)) : u);
  }
};

/// The fused orthogonalisation of one GMRES solve (see the top of this file).
template <class Value, class Device>
class GmresFusedSteps {
 public:
  using Basis = Kokkos::View<Value**, Kokkos::LayoutLeft, Device>;
  using Vector = Kokkos::View<Value*, Device>;

  /// multi: chunk sums for m columns (allocateMultiPartials); partials: dotChunks(n) values
  /// (the reduction workspace's).
  GmresFusedSteps(Basis V, Vector slots, GmresSlots at, MultiPartials<Value, Device> multi, Vector partials)
      : V_(V), slots_(slots), at_(at), multi_(multi), partials_(partials) {}

  /// Column k + 1 of V (w = A v_k) orthogonalised against columns 0 .. k; slots: column k of H
  /// closed, g, the estimate and the flag.
  template <class ExecSpace>
  void orthogonalize(const ExecSpace& exec, int k) const {
    using Subtract = GmresSubtractBasis<Basis, Value, Device>;
    const std::int64_t n = static_cast<std::int64_t>(V_.extent(0));
    const int count = k + 1;
    const auto w = Kokkos::subview(V_, Kokkos::ALL, k + 1);
    chunkedMultiDots("araios::gmres::h", exec, n, VectorEntry<std::decay_t<decltype(w)>, Value>{w}, V_, count, multi_,
                     StoreMultiTotals<Value, Device>{slots_, at_.h(0, k), count});
    chunkedMultiDots("araios::gmres::project", exec, n, Subtract{V_, slots_, k + 1, at_.h(0, k), count}, V_, count,
                     multi_, StoreMultiTotals<Value, Device>{slots_, at_.reorth(0), count});
    chunkedDots("araios::gmres::norm", exec, n,
                GmresSubtractNormTerms<Basis, Value, Device>{Subtract{V_, slots_, k + 1, at_.reorth(0), count}},
                PartialSums<Value, Device, 1>{partials_}, GmresNormFinish<Value, Device>{slots_, at_, k});
  }

 private:
  Basis V_;
  Vector slots_;
  GmresSlots at_;
  MultiPartials<Value, Device> multi_;
  Vector partials_;
};

/// The same orthogonalisation with the mode's own dot products (see the top of this file).
template <class ExecSpace, class Basis, class Value, class Device, class Reduction>
void gmresOrthogonalizeUnfused(const ExecSpace& exec, const Basis& V, const Kokkos::View<Value*, Device>& slots,
                               const GmresSlots& at, int k, ReductionMode mode, Reduction& ws) {
  using Scalar = DeviceScalar<Value, Device>;
  using Subtract = GmresSubtractBasis<Basis, Value, Device>;
  using Kernel = GmresSubtractKernel<Basis, Value, Device>;
  const std::int64_t n = static_cast<std::int64_t>(V.extent(0));
  const auto w = Kokkos::subview(V, Kokkos::ALL, k + 1);
  for (int j = 0; j <= k; ++j) dot(exec, w, Kokkos::subview(V, Kokkos::ALL, j), Scalar{slots, at.h(j, k)}, mode, ws);
  lightParallelFor("araios::gmres::project", exec, n, Kernel{Subtract{V, slots, k + 1, at.h(0, k), k + 1}});
  for (int j = 0; j <= k; ++j) dot(exec, w, Kokkos::subview(V, Kokkos::ALL, j), Scalar{slots, at.reorth(j)}, mode, ws);
  lightParallelFor("araios::gmres::reproject", exec, n, Kernel{Subtract{V, slots, k + 1, at.reorth(0), k + 1}});
  norm2(exec, w, Scalar{slots, GmresSlots::kHNext}, mode, ws);
  runOnce("araios::gmres::close_column", exec, GmresCloseColumn<Value, Device>{slots, at, k});
}

}  // namespace araios::Impl
