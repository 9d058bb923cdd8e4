#pragma once
// The device side of a CG iteration: its scalars, the scalar steps between reductions, and
// the fused passes.
//
// Unfused, an iteration after the product q = A p launches a dot, alpha, two axpys, the
// preconditioner, two more dots, beta and the direction update: twelve light kernels, most of
// which read or write whole vectors. Fused (CgFusedSteps), it launches five:
//
//   p.Ap       the chunk pass of p . q, then the tree pass, whose finish computes alpha;
//   update     x += alpha p, r -= alpha q, z = r / d, with the chunk sums of r . z and r . r
//              taken from the values just written (r and z are not read back);
//              then the tree pass, whose finish computes rho, beta and ||r||;
//   p          p = z + beta p (needs beta, hence every chunk, so it cannot join the update).
//
// Every rounding and every sum is the one of the unfused sequence (chunked_dots.hpp keeps
// the deterministic order), so both give the same bits; the tests compare them.
#include <araios/primitives/chunked_dots.hpp>
#include <araios/primitives/fp.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace araios::Impl {

/// The device scalars of CG, by slot.
struct CgSlots {
  // An enum, not static constexpr members: View::operator() takes its index by reference,
  // which would make nvcc look for the members' storage in device code.
  enum : int {
    kRho = 0,     ///< r.z of the current residual
    kPAp = 1,
    kAlpha = 2,
    kRhoNew = 3,
    kBeta = 4,
    kRnorm = 5,   ///< ||r||: read by the host with kFlag
    kFlag = 6,    ///< 0 ok, 1 p.Ap <= 0, 2 p.Ap NaN or Inf
    kCount = 7,
  };
};

/// alpha = rho / p.Ap, or 0 with the flag set when p.Ap <= 0 or is not finite.
template <class Slots>
KOKKOS_INLINE_FUNCTION void cgSetAlpha(const Slots& s) {
  using Value = typename Slots::non_const_value_type;
  const Value pAp = s(CgSlots::kPAp);
  if (pAp > 0 && fp::isFinite(pAp)) {
    s(CgSlots::kAlpha) = s(CgSlots::kRho) / pAp;
    s(CgSlots::kFlag) = 0;
  } else {
    s(CgSlots::kAlpha) = 0;  // leaves x and r as they are
    s(CgSlots::kFlag) = fp::isFinite(pAp) ? 1 : 2;
  }
}

/// beta = rhoNew / rho, rho = rhoNew; without a preconditioner r.z = r.r, so ||r|| = sqrt(rho).
template <class Slots>
KOKKOS_INLINE_FUNCTION void cgSetBeta(const Slots& s, bool rnormFromRho) {
  const auto rhoNew = s(CgSlots::kRhoNew);
  s(CgSlots::kBeta) = rhoNew / s(CgSlots::kRho);
  s(CgSlots::kRho) = rhoNew;
  if (rnormFromRho) s(CgSlots::kRnorm) = fp::sqrt(rhoNew);
}

/// The unfused steps, run once on the device between the reductions.
template <class Value, class Device>
struct CgAlpha {
  Kokkos::View<Value*, Device> s;
  KOKKOS_INLINE_FUNCTION void operator()(int) const { cgSetAlpha(s); }
};

template <class Value, class Device>
struct CgBeta {
  Kokkos::View<Value*, Device> s;
  bool rnormFromRho;
  KOKKOS_INLINE_FUNCTION void operator()(int) const { cgSetBeta(s, rnormFromRho); }
};

/// The finish of p.Ap's tree pass.
template <class Value, class Device>
struct CgAlphaFinish {
  Kokkos::View<Value*, Device> s;
  KOKKOS_INLINE_FUNCTION void operator()(const Value (&totals)[1]) const {
    s(CgSlots::kPAp) = totals[0];
    cgSetAlpha(s);
  }
};

/// The finish of the update's tree pass: totals are r.z and r.r (K = 2), or r.r alone.
template <class Value, class Device, std::size_t K>
struct CgBetaFinish {
  Kokkos::View<Value*, Device> s;
  KOKKOS_INLINE_FUNCTION void operator()(const Value (&totals)[K]) const {
    s(CgSlots::kRhoNew) = totals[0];
    if constexpr (K == 2) s(CgSlots::kRnorm) = fp::sqrt(totals[1]);
    cgSetBeta(s, K == 1);
  }
};

/// The update's elementwise work and its terms: (r, z) and (r, r) with a preconditioner,
/// (r, r) without one (z is r).
template <class Value, class Device, class XView, class DView, std::size_t K>
struct CgUpdateTerms {
  using Vector = Kokkos::View<Value*, Device>;
  Vector s, p, q, r, z;
  XView x;
  DView d;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, Value (&a)[K], Value (&b)[K]) const {
    const Value alpha = s(CgSlots::kAlpha);
    x(i) = fp::fma(alpha, p(i), x(i));
    const Value ri = fp::fma(-alpha, q(i), r(i));
    r(i) = ri;
    a[0] = ri;
    if constexpr (K == 2) {
      const Value zi = ri / static_cast<Value>(d(i));
      z(i) = zi;
      b[0] = zi;
      a[1] = ri;
      b[1] = ri;
    } else {
      b[0] = ri;
    }
  }
};

/// The fused p.Ap and update passes of one CG solve (see the top of this file).
template <class Value, class Device, class XView, class DView>
class CgFusedSteps {
 public:
  using Vector = Kokkos::View<Value*, Device>;

  /// partials: dotChunks(n) values (the reduction workspace's); second: as many again, for
  /// r.r beside r.z when there is a preconditioner.
  CgFusedSteps(Vector slots, Vector p, Vector q, XView x, Vector r, Vector z, DView d, bool precondition,
               Vector partials, Vector second)
      : slots_(slots), p_(p), q_(q), x_(x), r_(r), z_(z), d_(d), precondition_(precondition),
        partials_(partials), second_(second) {}

  /// slots: p.Ap, alpha and the flag.
  template <class ExecSpace>
  void alpha(const ExecSpace& exec) const {
    chunkedDots("araios::cg::pAp", exec, n(), DotTerms<Vector, Vector, Value>{p_, q_},
                PartialSums<Value, Device, 1>{partials_}, CgAlphaFinish<Value, Device>{slots_});
  }

  /// x, r and z updated; slots: rho, beta and ||r||.
  template <class ExecSpace>
  void update(const ExecSpace& exec) const {
    if (precondition_) {
      chunkedDots("araios::cg::update", exec, n(), CgUpdateTerms<Value, Device, XView, DView, 2>{slots_, p_, q_, r_, z_, x_, d_},
                  PartialSums<Value, Device, 2>{partials_, second_}, CgBetaFinish<Value, Device, 2>{slots_});
    } else {
      chunkedDots("araios::cg::update", exec, n(), CgUpdateTerms<Value, Device, XView, DView, 1>{slots_, p_, q_, r_, z_, x_, d_},
                  PartialSums<Value, Device, 1>{partials_}, CgBetaFinish<Value, Device, 1>{slots_});
    }
  }

 private:
  std::int64_t n() const { return static_cast<std::int64_t>(r_.extent(0)); }

  Vector slots_, p_, q_;
  XView x_;
  Vector r_, z_;
  DView d_;
  bool precondition_;
  Vector partials_, second_;
};

}  // namespace araios::Impl
