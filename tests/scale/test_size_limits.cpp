// Sizes past what the index types or the memory hold, refused before anything large is
// allocated:
//   * entry and slot counts past 32-bit offsets: csrFromRows counts in 64 bits (rows that claim
//     2^30 entries each, nothing allocated), countsToOffsets (behind every conversion back to
//     CSR) refuses a wrapping total, and the padded formats refuse slot counts past int32;
//   * formats, products and solvers that do not fit the memory of their execution space:
//     OutOfMemoryError with the bytes needed and the bytes free, on every enabled backend
//     (terabytes of ELL and DIA padding from one dense row), and no operator constructed.
#define BOOST_TEST_MODULE size_limits
#include <boost/test/unit_test.hpp>

#include "support/kokkos_env.hpp"

#include <araios/araios.hpp>
#include <araios/solvers/solvers.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

using namespace araios;

using araios::test::KokkosFixture;
BOOST_TEST_GLOBAL_FIXTURE(KokkosFixture);

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// Rows that claim `length` entries each; filling them would write out of bounds, so the test
/// fails loudly if a refusal does not come before the fill.
struct ClaimedLength {
  std::int64_t length;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t) const { return length; }
};
struct NeverFill {
  template <class Ordinal, class Value>
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal, Ordinal*, Value*) const {
    Kokkos::abort("csrFromRows filled rows it should have refused");
  }
};

/// n x n: row 0 holds columns 0 .. dense-1, every other row its diagonal entry. ELL pads every
/// row to `dense` slots; DIA stores `dense` diagonals over all n rows.
struct OneDenseRow {
  std::int64_t dense;
  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t row) const { return row == 0 ? dense : 1; }
};
struct FillOneDenseRow {
  std::int64_t dense;
  template <class Ordinal, class Value>
  KOKKOS_INLINE_FUNCTION void operator()(Ordinal row, Ordinal* cols, Value* vals) const {
    if (row == 0) {
      for (std::int64_t j = 0; j < dense; ++j) {
        cols[j] = static_cast<Ordinal>(j);
        vals[j] = Value(1);
      }
    } else {
      cols[0] = row;
      vals[0] = Value(2);
    }
  }
};

template <class Csr, class ExecSpace>
Csr oneDenseRow(const ExecSpace& exec, std::int64_t n, std::int64_t dense) {
  return csrFromRows<Csr>(exec, n, n, OneDenseRow{dense}, FillOneDenseRow{dense});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(offsets_32)

BOOST_AUTO_TEST_CASE_TEMPLATE(csr_from_rows_counts_in_64_bits, ExecSpace, test::EnabledSpaces) {
  using Csr = CsrMatrix<float, std::int32_t, std::int32_t, typename ExecSpace::device_type>;
  // 4 rows of 2^30 entries: 2^32 in all, which a 32-bit count would wrap to 0.
  try {
    csrFromRows<Csr>(ExecSpace(), 4, std::int64_t(1) << 30, ClaimedLength{std::int64_t(1) << 30}, NeverFill{});
    BOOST_FAIL("2^32 entries were accepted with 32-bit offsets");
  } catch (const OutOfMemoryError& e) {
    BOOST_FAIL(std::string("expected the offset refusal before the memory check; got: ") + e.what());
  } catch (const InputError& e) {
    const std::string message = e.what();
    BOOST_TEST_MESSAGE(message);
    BOOST_TEST(contains(message, "4,294,967,296 entries do not fit 32-bit offsets (at most 2,147,483,647)"));
    BOOST_TEST(contains(message, "use 64-bit offsets (Offset = std::int64_t)"));
  }
  // 2^31: one past the largest 32-bit offset.
  BOOST_CHECK_THROW((csrFromRows<Csr>(ExecSpace(), 2, std::int64_t(1) << 30, ClaimedLength{std::int64_t(1) << 30},
                                      NeverFill{})),
                    InputError);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(counts_to_offsets_refuses_a_wrapping_total, ExecSpace, test::EnabledSpaces) {
  using Ptr = Kokkos::View<std::int32_t*, typename ExecSpace::device_type>;
  Ptr ptr("ptr", 4);
  auto host = Kokkos::create_mirror_view(ptr);
  host(0) = host(1) = host(2) = 1 << 30;  // 3 * 2^30 > 2^31 - 1
  host(3) = 0;
  Kokkos::deep_copy(ptr, host);
  try {
    Impl::countsToOffsets(ExecSpace(), ptr, "test", "three rows of 2^30");
    BOOST_FAIL("a total of 3 * 2^30 was scanned in 32 bits");
  } catch (const InputError& e) {
    BOOST_TEST(contains(e.what(), "three rows of 2^30: 3,221,225,472 entries do not fit 32-bit offsets"));
  }
  Kokkos::deep_copy(host, ptr);
  BOOST_TEST(host(0) == (1 << 30));  // refused before the scan wrote anything
  BOOST_TEST(host(2) == (1 << 30));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(padded_slots_past_int32_are_refused, ExecSpace, test::EnabledSpaces) {
  // 2^20 rows, one of 4096 entries: ELL and DIA would store 2^32 slots.
  using Csr = CsrMatrix<double, std::int32_t, std::int32_t, typename ExecSpace::device_type>;
  const ExecSpace exec;
  const Csr csr = oneDenseRow<Csr>(exec, std::int64_t(1) << 20, 4096);
  OperatorOptions options;
  options.format.force = true;
  for (const Kernel kernel : {Kernel::Ell, Kernel::Dia}) {
    options.kernel = kernel;
    try {
      SpmvOperator<double, std::int32_t, std::int32_t, ExecSpace> op(exec, csr, options);
      BOOST_FAIL("2^32 slots accepted with 32-bit offsets");
    } catch (const OutOfMemoryError& e) {
      BOOST_FAIL(std::string("expected the offset refusal before the memory check; got: ") + e.what());
    } catch (const InputError& e) {
      BOOST_TEST_MESSAGE(e.what());
      BOOST_TEST(contains(e.what(), "4294967296 does not fit in int32"));
      BOOST_TEST(contains(e.what(), "64-bit"));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(out_of_memory)

BOOST_AUTO_TEST_CASE_TEMPLATE(free_bytes_of_host_spaces, ExecSpace, test::EnabledSpaces) {
  const std::int64_t free = freeBytes(ExecSpace());
  BOOST_TEST_MESSAGE(ExecSpace::name() << ": " << groupedDigits(free) << " bytes free");
  BOOST_TEST(free > 0);  // Serial and OpenMP read /proc/meminfo; CUDA asks cudaMemGetInfo
}

BOOST_AUTO_TEST_CASE_TEMPLATE(operator_refuses_terabytes_of_padding, ExecSpace, test::EnabledSpaces) {
  using Csr = CsrMatrix<double, std::int64_t, std::int64_t, typename ExecSpace::device_type>;
  using Operator = SpmvOperator<double, std::int64_t, std::int64_t, ExecSpace>;
  const ExecSpace exec;
  const std::int64_t n = std::int64_t(1) << 20;
  const Csr csr = oneDenseRow<Csr>(exec, n, n);  // 2^21 - 1 entries, about 34 MB
  OperatorOptions options;
  options.format.force = true;
  const std::string matrix = "a 1,048,576 x 1,048,576 matrix needs ";
  struct Case {
    Kernel kernel;
    std::string what;
    std::int64_t bytes;
  };
  // ELL: 2^40 slots of a value and a column; DIA: 2^20 diagonals of 2^20 values, their presence
  // bits, and the diagonal tables.
  const std::int64_t slots = n * n;
  const Case cases[] = {
      {Kernel::Ell, "building ELL for " + matrix, slots * 16},
      {Kernel::Dia, "building DIA for " + matrix, slots * 8 + slots / 32 * 4 + (n + 2 * n - 1) * 8},
  };
  for (const Case& c : cases) {
    options.kernel = c.kernel;
    Operator op;
    try {
      op = Operator(exec, csr, options);
      BOOST_FAIL("an operator of terabytes was built");
    } catch (const OutOfMemoryError& e) {
      const std::string message = e.what();
      BOOST_TEST_MESSAGE(message);
      BOOST_TEST(contains(message, c.what + groupedDigits(c.bytes) + " bytes on " + ExecSpace::name() + "; "));
      BOOST_TEST(contains(message, groupedDigits(e.bytesFree()) + " bytes are free"));
      BOOST_TEST(e.bytesNeeded() == c.bytes);
      BOOST_TEST(e.bytesFree() >= 0);
      BOOST_TEST(e.bytesFree() < e.bytesNeeded());
    }
    BOOST_CHECK_THROW(op.numRows(), InputError);  // no operator came out of the refusal
  }
  // The conversion itself, without the operator, refuses the same way.
  BOOST_CHECK_THROW(ellFromCsr(exec, csr, options.format), OutOfMemoryError);
  // And the matrix is intact: a CSR operator on it still computes y = A x.
  options.kernel = Kernel::CsrScalar;
  const Operator op(exec, csr, options);
  Kokkos::View<double*, typename ExecSpace::device_type> x("x", n), y("y", n);
  Kokkos::deep_copy(x, 1.0);
  op.apply(exec, x, y);
  auto yHost = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  BOOST_TEST(yHost(0) == static_cast<double>(n));
  BOOST_TEST(yHost(n - 1) == 2.0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(csr_from_rows_refuses_what_does_not_fit, ExecSpace, test::EnabledSpaces) {
  using Csr = CsrMatrix<float, std::int32_t, std::int64_t, typename ExecSpace::device_type>;
  // 4 rows of 2^40 entries fit 64-bit offsets but no memory: 4 * 2^40 * 8 bytes + the offsets.
  try {
    csrFromRows<Csr>(ExecSpace(), 4, std::int64_t(1) << 30, ClaimedLength{std::int64_t(1) << 40}, NeverFill{});
    BOOST_FAIL("35 TB of CSR were accepted");
  } catch (const OutOfMemoryError& e) {
    BOOST_TEST_MESSAGE(e.what());
    BOOST_TEST(contains(e.what(), "building the CSR of 4 x 1,073,741,824 with 4,398,046,511,104 entries needs "
                                  "35,184,372,088,872 bytes on "));
    BOOST_TEST(contains(e.what(), "bytes are free"));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(solver_workspace_is_checked, ExecSpace, test::EnabledSpaces) {
  // A solver's work vectors for 2^40 unknowns: refused by the check CG, GMRES, Jacobi and
  // PageRank make before allocating them (a system that size cannot be built here to reach it).
  try {
    Impl::requireSolverMemory<double>(ExecSpace(), 4, std::int64_t(1) << 40, "CG");
    BOOST_FAIL("35 TB of work vectors were accepted");
  } catch (const OutOfMemoryError& e) {
    BOOST_TEST(contains(e.what(), "CG on 1,099,511,627,776 unknowns (4 work vectors) needs 35,184,372,088,832 bytes on "));
  }
}

#if !defined(__SANITIZE_ADDRESS__)  // ASan aborts on a request this large instead of failing it
BOOST_AUTO_TEST_CASE_TEMPLATE(allocation_failure_becomes_out_of_memory, ExecSpace, test::EnabledSpaces) {
  using View = Kokkos::View<double*, typename ExecSpace::device_type>;
  const ExecSpace exec;
  // 2^57 bytes: more than any address space holds, so Kokkos' allocation itself fails (Kokkos
  // 3.4 reports it as a std::runtime_error, 4.x as a std::bad_alloc).
  try {
    refuseAllocationFailure(exec, "a test allocation", [] {
      return View(Kokkos::view_alloc(Kokkos::WithoutInitializing, "huge"), std::size_t(1) << 54);
    });
    BOOST_FAIL("2^57 bytes were allocated");
  } catch (const OutOfMemoryError& e) {
    BOOST_TEST_MESSAGE(e.what());
    BOOST_TEST(contains(e.what(), std::string("a test allocation ran out of memory on ") + ExecSpace::name()));
    BOOST_TEST(contains(e.what(), "bytes are free"));
  }
}
#endif

BOOST_AUTO_TEST_SUITE_END()
