#pragma once
// algo::automatic: picks the tridiagonal algorithm for a batch.
#include <bandsolve/tridiag/pcr.hpp>
#include <bandsolve/tridiag/thomas.hpp>
#include <bandsolve/tridiag/thomas_pcr.hpp>

namespace bandsolve {

enum class tridiag_choice { thomas, pcr, thomas_pcr };

template <class T>
tridiag_choice choose_tridiag(std::size_t nsys, std::size_t n, int threads) {
  if (!detail::inside_system_pays(static_cast<index_t>(nsys), threads, detail::simd_lanes_v<T>))
    return tridiag_choice::thomas;
  return n >= 1024 ? tridiag_choice::thomas_pcr : tridiag_choice::thomas;
}

template <class ExecutionSpace, class AView, class BView, class CView, class DView, class InfoView>
void solve(const ExecutionSpace& exec, algo::automatic, const AView& a, const BView& b,
           const CView& c, const DView& d, const InfoView& info) {
  using T = typename DView::non_const_value_type;
  switch (choose_tridiag<T>(info.extent(0), rows(d), detail::concurrency_of(exec))) {
    case tridiag_choice::thomas: solve(exec, algo::thomas{}, a, b, c, d, info); break;
    case tridiag_choice::pcr: solve(exec, algo::pcr{}, a, b, c, d, info); break;
    case tridiag_choice::thomas_pcr: solve(exec, algo::thomas_pcr{}, a, b, c, d, info); break;
  }
}

}  // namespace bandsolve
