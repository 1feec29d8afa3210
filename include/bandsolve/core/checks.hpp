#pragma once
// Argument checks shared by the host APIs. Each throws std::invalid_argument with the function
// name and the offending values; none of them runs on the solve path inside kernels.
#include <bandsolve/core/errors.hpp>
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

// The output may not share memory with an input: the solve reads them after writing it.
// Contiguous Views are checked by address range. Strided Views may interleave without sharing an
// element (the fields of one array of structures): only the same data pointer is rejected there.
template <class Out, class In>
void check_no_overlap(const std::string& fn, const char* out_name, const Out& out,
                      const char* in_name, const In& in) {
  if (out.span() == 0 || in.span() == 0) return;
  if (!out.span_is_contiguous() || !in.span_is_contiguous()) {
    if (static_cast<const void*>(out.data()) == static_cast<const void*>(in.data()))
      throw_invalid_argument(fn, out_name, " and ", in_name, " are the same array (at ",
                             static_cast<const void*>(out.data()), "); pass separate arrays");
    return;
  }
  const auto o0 = reinterpret_cast<std::uintptr_t>(out.data());
  const auto o1 = reinterpret_cast<std::uintptr_t>(out.data() + out.span());
  const auto i0 = reinterpret_cast<std::uintptr_t>(in.data());
  const auto i1 = reinterpret_cast<std::uintptr_t>(in.data() + in.span());
  if (o0 < i1 && i0 < o1)
    throw_invalid_argument(fn, out_name, " overlaps ", in_name, " in memory (", out_name, " at ",
                           static_cast<const void*>(out.data()), ", ", in_name, " at ",
                           static_cast<const void*>(in.data()),
                           "); pass separate arrays");
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
