#pragma once
// Argument checks shared by the host APIs. Each throws std::invalid_argument with the function
// name and the offending values; none of them runs on the solve path inside kernels.
#include <bandsolve/core/errors.hpp>
#include <bandsolve/core/view_extents.hpp>
#include <bandsolve/layout/layout_of.hpp>

#include <climits>
#include <cstdint>

namespace bandsolve::detail {

// Same number of rows and of system slots as the reference array.
template <class View, class RefView>
void check_same_shape(const std::string& fn, const char* name, const View& v, const char* ref_name,
                      const RefView& ref) {
  if (rows(v) != rows(ref))
    throw_invalid_argument(fn, name, " has ", rows(v), " rows but ", ref_name, " has ", rows(ref));
  if (capacity(v) != capacity(ref))
    throw_invalid_argument(fn, name, " holds ", capacity(v), " systems but ", ref_name,
                           " holds ", capacity(ref));
}

// Whether two strided Views with the same rank, extents, element size and strides share a
// byte: their elements sit on one lattice shifted by delta bytes, so they meet when delta is
// within an element of some index difference. Exact for rank 1 and 2 (a loop over the smaller
// extent); higher ranks report true unless every extent but the last two is 1.
template <class Out, class In>
bool shifted_lattices_meet(const Out& out, const In& in, std::ptrdiff_t delta) {
  using OT = typename Out::value_type;
  constexpr std::ptrdiff_t size = static_cast<std::ptrdiff_t>(sizeof(OT));
  constexpr int rank = static_cast<int>(Out::rank);
  std::ptrdiff_t e[2] = {1, 1}, st[2] = {0, 0};
  int used = 0;
  for (int r = 0; r < rank; ++r) {
    if (extent_at(out, r) == 1) continue;
    if (used == 2) return true;
    e[used] = static_cast<std::ptrdiff_t>(extent_at(out, r));
    st[used] = static_cast<std::ptrdiff_t>(out.stride(r)) * size;
    ++used;
  }
  (void)in;
  if (used < 2) {  // one axis: delta = k s for some |k| < e, within an element
    const std::ptrdiff_t s0 = st[0] < 0 ? -st[0] : st[0];
    if (s0 == 0 || e[0] == 1) return delta > -size && delta < size;
    const std::ptrdiff_t ad = delta < 0 ? -delta : delta;
    const std::ptrdiff_t k = ad / s0;
    for (std::ptrdiff_t kk = k; kk <= k + 1; ++kk)
      if (kk < e[0] && ad - kk * s0 > -size && ad - kk * s0 < size) return true;
    return false;
  }
  const int outer = e[0] <= e[1] ? 0 : 1, inner = 1 - outer;
  const std::ptrdiff_t si = st[inner] < 0 ? -st[inner] : st[inner];
  for (std::ptrdiff_t k = -(e[outer] - 1); k < e[outer]; ++k) {
    const std::ptrdiff_t rest = delta - k * st[outer];
    const std::ptrdiff_t ar = rest < 0 ? -rest : rest;
    if (si == 0) {
      if (ar < size) return true;
      continue;
    }
    const std::ptrdiff_t q = ar / si;
    for (std::ptrdiff_t j = q; j <= q + 1; ++j)
      if (j < e[inner] && ar - j * si > -size && ar - j * si < size) return true;
  }
  return false;
}

// Values from a View's first element to its last, inclusive (nonzero extents): the exact end of
// its addresses. Kokkos's span() of a LayoutStride View is a bound that can run past the end of
// the allocation (a slice of a column-major array starting at its second column spans one
// column too many), which would make neighbouring allocations look like an overlap.
template <class View>
std::size_t elements_spanned(const View& v) {
  std::size_t last = 0;
  for (int r = 0; r < static_cast<int>(View::rank); ++r)
    last += (extent_at(v, r) - 1) * stride_at(v, r);
  return last + 1;
}

// The output may not share memory with an input: the solve reads them after writing it.
// Views whose address ranges are disjoint pass; so do strided Views that interleave without
// sharing an element (the fields of one array of structures: same extents and strides, shifted
// by less than a stride). A strided View passed twice is rejected as the same array; any
// other overlap (partly overlapping Views, or interleaved ones whose strides differ) throws
// std::invalid_argument naming both.
template <class Out, class In>
void check_no_overlap(const std::string& fn, const char* out_name, const Out& out,
                      const char* in_name, const In& in) {
  if (out.span() == 0 || in.span() == 0 || out.size() == 0 || in.size() == 0) return;
  using OT = typename Out::value_type;
  using IT = typename In::value_type;
  const auto o0 = reinterpret_cast<std::uintptr_t>(out.data());
  const auto o1 = reinterpret_cast<std::uintptr_t>(out.data() + elements_spanned(out));
  const auto i0 = reinterpret_cast<std::uintptr_t>(in.data());
  const auto i1 = reinterpret_cast<std::uintptr_t>(in.data() + elements_spanned(in));
  if (!(o0 < i1 && i0 < o1)) return;
  if (!out.span_is_contiguous() || !in.span_is_contiguous()) {
    if (static_cast<const void*>(out.data()) == static_cast<const void*>(in.data()))
      throw_invalid_argument(fn, out_name, " and ", in_name, " are the same array (at ",
                             static_cast<const void*>(out.data()), "); pass separate arrays");
    constexpr int out_rank = static_cast<int>(Out::rank), in_rank = static_cast<int>(In::rank);
    bool same_lattice = sizeof(OT) == sizeof(IT) && out_rank == in_rank;
    if constexpr (out_rank == in_rank) {
      for (int r = 0; same_lattice && r < out_rank; ++r)
        same_lattice =
            extent_at(out, r) == extent_at(in, r) && stride_at(out, r) == stride_at(in, r);
    }
    if constexpr (out_rank == in_rank && sizeof(OT) == sizeof(IT)) {
      if (same_lattice &&
          !shifted_lattices_meet(out, in,
                                 static_cast<std::ptrdiff_t>(i0) - static_cast<std::ptrdiff_t>(o0)))
        return;
    }
  }
  throw_invalid_argument(fn, out_name, " overlaps ", in_name, " in memory (", out_name, " at ",
                         static_cast<const void*>(out.data()), " spanning ",
                         elements_spanned(out), " values, ", in_name, " at ",
                         static_cast<const void*>(in.data()), " spanning ", elements_spanned(in),
                         " values); pass separate arrays");
}

// Row indices and info codes are int, as in LAPACK.
inline void check_rows_fit_int(const std::string& fn, std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX) - 1)
    throw_invalid_argument(fn, "n = ", n, " rows exceeds the supported maximum ", INT_MAX - 1);
}

// The number of systems the info view describes, checked against the batch's slots.
template <class Layout, class InfoView, class DView>
std::size_t systems_from_info(const std::string& fn, const InfoView& info, const DView& d) {
  const std::size_t nsys = info.extent(0);
  const std::size_t slots = capacity(d);
  if constexpr (std::is_same_v<Layout, layout::row> || std::is_same_v<Layout, layout::column> ||
                std::is_same_v<Layout, layout::strided>) {
    if (nsys != slots)
      throw_invalid_argument(fn, "info.extent(0) = ", nsys, " but d holds ", slots, " systems");
  } else {
    constexpr std::size_t W = Layout::width;
    if ((nsys + W - 1) / W != d.extent(0))
      throw_invalid_argument(fn, "info.extent(0) = ", nsys, " systems need ", (nsys + W - 1) / W,
                             " packs of ", W, " but d has ", d.extent(0), " packs");
  }
  return nsys;
}

}  // namespace bandsolve::detail
