#pragma once
// Element access shared by the layouts stored as rank-2 Views indexed (system, row): row, column
// and strided. Only their mapping and storage differ.
#include <bandsolve/core/config.hpp>

namespace bandsolve::layout::detail {

struct rank2_access {
  template <class View>
  KOKKOS_INLINE_FUNCTION static typename View::reference_type at(const View& v, index_t s,
                                                                 index_t i) {
    return v(s, i);
  }
  template <class View>
  static index_t capacity(const View& v) { return static_cast<index_t>(v.extent(0)); }
  template <class View>
  static index_t rows(const View& v) { return static_cast<index_t>(v.extent(1)); }
};

}  // namespace bandsolve::layout::detail
