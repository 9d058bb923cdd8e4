#pragma once
// SpgemmHandle's members and araios::spgemm (declared in araios/spgemm.hpp).
#include <araios/spgemm/spgemm_plan.hpp>

#include <memory>

namespace araios {

template <class Value, class Ordinal, class Offset, class Device>
SpgemmHandle<Value, Ordinal, Offset, Device>::SpgemmHandle(const execution_space& exec, const Csr& A, const Csr& B,
                                                           SpgemmOptions options)
    : plan_(std::make_shared<Impl::SpgemmPlan<Value, Ordinal, Offset, Device>>(exec, A, B, options)) {}

template <class Value, class Ordinal, class Offset, class Device>
void SpgemmHandle<Value, Ordinal, Offset, Device>::numeric(const execution_space& exec, const Csr& A, const Csr& B) {
  plan_->numeric(exec, A, B);
}

template <class Value, class Ordinal, class Offset, class Device>
const typename SpgemmHandle<Value, Ordinal, Offset, Device>::Csr& SpgemmHandle<Value, Ordinal, Offset, Device>::result() const {
  return plan_->result();
}

template <class Value, class Ordinal, class Offset, class Device>
const SpgemmStats& SpgemmHandle<Value, Ordinal, Offset, Device>::stats() const {
  return plan_->stats();
}

template <class Value, class Ordinal, class Offset, class Device>
const SpgemmOptions& SpgemmHandle<Value, Ordinal, Offset, Device>::options() const {
  return plan_->options();
}

template <class Value, class Ordinal, class Offset, class Device>
CsrMatrix<Value, Ordinal, Offset, Device> spgemm(const typename Device::execution_space& exec,
                                                 const CsrMatrix<Value, Ordinal, Offset, Device>& A,
                                                 const CsrMatrix<Value, Ordinal, Offset, Device>& B, SpgemmOptions options,
                                                 SpgemmStats* stats) {
  SpgemmHandle<Value, Ordinal, Offset, Device> product(exec, A, B, std::move(options));
  product.numeric(exec, A, B);
  if (stats != nullptr) *stats = product.stats();
  return product.result();
}

}  // namespace araios
