// libFuzzer target over the host API's argument checks beyond the one-shot tridiagonal solves of
// fuzz_argument_checks.cpp: factorizations and their solves and refactors, the symmetric family,
// block Thomas, banded LU, the Toeplitz families, shared off-diagonals, lines along an axis
// (tridiagonal, block and band lines), and the device backend's kernels run on Kokkos::Serial. As
// there, the input chooses the extents and strides of every View and where it lies: in one shared
// buffer (mismatched shapes, overlapping and aliased arguments) or each in its own allocation
// (reads past a View's end seen by ASan), then the values (zeros, NaN, Inf), and the scalar
// arguments (axis, bandwidths, block sizes, nsys, Toeplitz coefficients). The contract checked: a
// call either returns with every info code in [0, n], or throws std::invalid_argument whose message
// starts with "bandsolve::". Anything else (a crash, an out-of-bounds access seen by ASan,
// undefined behaviour seen by UBSan, another exception) is a finding.
#include "fuzz_support.hpp"

#include <bandsolve/bandsolve.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using fuzz::byte_reader;
using fuzz::check_codes;
using fuzz::finding;
using fuzz::returns;
using fuzz::value_of;

template <class DataType>
using view_of = Kokkos::View<DataType, Kokkos::LayoutStride, Kokkos::HostSpace,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using info_view = Kokkos::View<int*, Kokkos::HostSpace>;

constexpr std::size_t buffer_values = 16384;

// Where the Views of one input lie: at offsets of one shared buffer (overlapping and aliased
// arguments), or each in an allocation of its own span, so that ASan sees a read or write past a
// View's last element.
class storage {
 public:
  explicit storage(bool apart) : apart_(apart), shared_(apart ? 0 : buffer_values) {}
  // The first element of a View spanning `span` values; offset: its place in the shared buffer.
  double* place(std::size_t span, std::size_t offset) {
    if (!apart_) return shared_.data() + offset;
    own_.emplace_back(span);
    return own_.back().data();
  }
  // Values from the bytes left: the shared buffer, or every allocation in turn.
  void fill(byte_reader& in) {
    std::size_t i = 0;
    for (auto& v : own_)
      for (auto& x : v) x = value_of(in.next(), i++);
    for (auto& x : shared_) x = value_of(in.next(), i++);
  }

 private:
  bool apart_;
  std::vector<double> shared_;
  std::deque<std::vector<double>> own_;  // deque: places stay put as allocations are added
};

// A View of rank R: its extents, strides in row-major or column-major order (one axis sometimes
// padded) or, now and then, a zero stride (every index one value), at an offset the input
// chooses. A span larger than the buffer drops the padding, then the extents.
template <int R>
auto view_in(storage& buffer, byte_reader& in, std::array<std::size_t, R> ext) {
  const bool column = in.next() & 1u;
  const unsigned padded_axis = in.below(R + 1), pad = 1 + in.below(3);
  const bool broadcast = in.below(16) == 0;
  std::array<std::size_t, R> stride{};
  const auto strides_for = [&](std::size_t padding) {
    std::size_t s = 1;
    for (int q = 0; q < R; ++q) {
      const int axis = column ? q : R - 1 - q;
      stride[static_cast<std::size_t>(axis)] = broadcast && q == 0 ? 0 : s;
      s *= ext[static_cast<std::size_t>(axis)] + (static_cast<unsigned>(axis) == padded_axis
                                                       ? padding
                                                       : 0);
      if (broadcast && q == 0) s = 1;
    }
  };
  const auto span = [&] {
    std::size_t last = 0;
    for (int q = 0; q < R; ++q) {
      if (ext[static_cast<std::size_t>(q)] == 0) return std::size_t(0);
      last += (ext[static_cast<std::size_t>(q)] - 1) * stride[static_cast<std::size_t>(q)];
    }
    return last + 1;
  };
  strides_for(pad);
  if (span() > buffer_values) strides_for(0);
  while (span() > buffer_values) {
    for (auto& e : ext) e = e / 2;
    strides_for(0);
  }
  const std::size_t room = buffer_values - span();
  const std::size_t offset = room == 0 ? 0 : (in.next() * 251u + in.next()) % (room + 1);
  Kokkos::LayoutStride layout;
  for (int q = 0; q < R; ++q) {
    layout.dimension[q] = ext[static_cast<std::size_t>(q)];
    layout.stride[q] = stride[static_cast<std::size_t>(q)];
  }
  using data_type = std::conditional_t<
      R == 1, double*,
      std::conditional_t<
          R == 2, double**,
          std::conditional_t<R == 3, double***,
                             std::conditional_t<R == 4, double****, double*****>>>>;
  return view_of<data_type>(buffer.place(span(), offset), layout);
}

// Which argument of a call is off by one (or none: most calls get matching shapes).
struct odd_one {
  unsigned which;
  std::size_t operator()(unsigned arg, std::size_t v) const { return which == arg ? v + 1 : v; }
};

// nsys for factorize: every slot (the default) or a number the input chooses.
std::size_t nsys_argument(byte_reader& in, std::size_t nsys) {
  const unsigned pick = in.below(4);
  return pick == 0 ? in.below(12) : pick == 1 ? nsys + 1 : nsys;
}

struct scalars {
  double t1, t2, t3;
};

using exec_space = Kokkos::Serial;
namespace bs = bandsolve;

// Tridiagonal families: a, b, c, d, info of (nsys, n), one of them possibly off by one.
void tridiagonal(byte_reader& in, storage& buffer, unsigned family) {
  const std::size_t nsys = in.below(10), n = in.below(40);
  const odd_one off{in.below(12)};
  auto a = view_in<2>(buffer, in, {off(0, nsys), n});
  auto b = view_in<2>(buffer, in, {nsys, off(1, n)});
  auto c = view_in<2>(buffer, in, {nsys, n});
  auto d = view_in<2>(buffer, in, {off(2, nsys), off(3, n)});
  auto a2 = view_in<2>(buffer, in, {nsys, off(5, n)});
  const info_view info("info", off(4, nsys));
  const std::size_t nsys_arg = nsys_argument(in, nsys);
  buffer.fill(in);
  exec_space exec;
  switch (family) {
    case 0:
      if (returns([&] { bs::solve(exec, bs::algo::symmetric{}, b, c, d, info); }))
        check_codes(info, n);
      break;
    case 1:
      if (returns([&] {
            bs::solve(exec, bs::algo::thomas{}, a, b, c, d, info, bs::backend::device{});
          }))
        check_codes(info, n);
      break;
    case 2:
      if (returns([&] {
            bs::solve(exec, bs::algo::periodic{}, a, b, c, d, info, bs::backend::device{});
          }))
        check_codes(info, n);
      break;
    case 3:
      if (returns([&] {
            bs::solve(exec, bs::algo::partial_pivoting{}, a, b, c, d, info, bs::backend::device{});
          }))
        check_codes(info, n);
      break;
    case 4:
      if (returns([&] {
            bs::solve(exec, bs::algo::symmetric{}, b, c, d, info, bs::backend::device{});
          }))
        check_codes(info, n);
      break;
    case 5: {  // factorize, solve, refactor with other coefficients, solve again
      returns([&] {
        auto f = bs::factorize(exec, bs::algo::thomas{}, a, b, c, nsys_arg);
        check_codes(f.info(), n);
        if (returns([&] { f.solve(exec, d); })) check_codes(f.info(), n);
        if (returns([&] { f.refactor(exec, a2, b, c); })) check_codes(f.info(), n);
        returns([&] { f.solve(exec, d); });
      });
      break;
    }
    case 6:
      returns([&] {
        auto f = bs::factorize(exec, bs::algo::periodic{}, a, b, c, nsys_arg);
        check_codes(f.info(), n);
        returns([&] { f.solve(exec, d); });
        if (returns([&] { f.refactor(exec, a2, b, c); })) check_codes(f.info(), n);
      });
      break;
    case 7:
      returns([&] {
        auto f = bs::factorize(exec, bs::algo::partial_pivoting{}, a, b, c, nsys_arg);
        check_codes(f.info(), n);
        returns([&] { f.solve(exec, d); });
        if (returns([&] { f.refactor(exec, a2, b, c); })) check_codes(f.info(), n);
      });
      break;
    case 8:
      returns([&] {
        auto f = bs::factorize(exec, bs::algo::symmetric{}, b, c, nsys_arg);
        check_codes(f.info(), n);
        returns([&] { f.solve(exec, d); });
        if (returns([&] { f.refactor(exec, a2, c); })) check_codes(f.info(), n);
      });
      break;
    case 9:
      returns([&] {
        auto f = bs::factorize(exec, bs::algo::automatic{}, a, b, c, nsys_arg);
        check_codes(f.info(), n);
        returns([&] { f.solve(exec, d); });
      });
      break;
    default:
      returns([&] {
        auto f = bs::factorize(exec, bs::algo::thomas{}, a, b, c, nsys_arg, bs::backend::device{});
        check_codes(f.info(), n);
        returns([&] { f.solve(exec, d); });
      });
      break;
  }
}

// Families 0 and 1: the one-shot solve on the space's own backend and on the device kernels,
// one_shot(rhs, backend); others: factorize(), then its solve. The right-hand sides: one
// (rhs1) or several (rhsn) per system.
template <class OneShot, class Factorize, class Rhs1, class RhsN>
void one_shot_or_factored(unsigned family, bool many_rhs, const Rhs1& rhs1, const RhsN& rhsn,
                          const info_view& info, std::size_t n, const OneShot& one_shot,
                          const Factorize& factorize) {
  const auto with_rhs = [&](const auto& call) {
    if (many_rhs) call(rhsn);
    else call(rhs1);
  };
  const auto solve_on = [&](auto backend) {
    if (returns([&] { with_rhs([&](const auto& d) { one_shot(d, backend); }); }))
      check_codes(info, n);
  };
  switch (family) {
    case 0: solve_on(bs::backend::default_for_t<exec_space>{}); break;
    case 1: solve_on(bs::backend::device{}); break;
    default:
      returns([&] {
        auto f = factorize();
        check_codes(f.info(), n);
        returns([&] { with_rhs([&](const auto& d) { f.solve(exec_space{}, d); }); });
      });
      break;
  }
}

// Block Thomas: blocks (nsys, n, m, m), d (nsys, n, m) or (nsys, n, m, nrhs).
void block(byte_reader& in, storage& buffer, unsigned family) {
  const std::size_t nsys = in.below(6), n = in.below(12), m = in.below(11);
  const odd_one off{in.below(14)};
  const bool pivot = in.next() & 1u, many_rhs = in.next() & 1u;
  auto a = view_in<4>(buffer, in, {off(0, nsys), n, m, m});
  auto b = view_in<4>(buffer, in, {nsys, off(1, n), m, off(6, m)});
  auto c = view_in<4>(buffer, in, {nsys, n, off(7, m), m});
  auto d3 = view_in<3>(buffer, in, {off(2, nsys), off(3, n), off(8, m)});
  auto d4 = view_in<4>(buffer, in, {nsys, n, off(9, m), in.below(4)});
  const info_view info("info", off(4, nsys));
  const std::size_t nsys_arg = nsys_argument(in, nsys);
  buffer.fill(in);
  const bs::algo::block_thomas alg{pivot ? bs::algo::block_thomas::pivoting::partial
                                         : bs::algo::block_thomas::pivoting::none};
  exec_space exec;
  one_shot_or_factored(
      family, many_rhs, d3, d4, info, n,
      [&](const auto& d, auto backend) { bs::solve(exec, alg, a, b, c, d, info, backend); },
      [&] { return bs::factorize(exec, alg, a, b, c, nsys_arg); });
}

// Banded LU: ab (nsys, n, ldab), kl and ku from the input (negative ones too), b (nsys, n) or
// (nsys, n, nrhs).
void band(byte_reader& in, storage& buffer, unsigned family) {
  const std::size_t nsys = in.below(8), n = in.below(24);
  const int kl = static_cast<int>(in.below(7)) - 1, ku = static_cast<int>(in.below(7)) - 1;
  const bool pivot = in.next() & 1u, many_rhs = in.next() & 1u;
  const odd_one off{in.below(10)};
  const std::size_t ldab_need =
      static_cast<std::size_t>(2 * (kl < 0 ? 0 : kl) + (ku < 0 ? 0 : ku) + 1);
  const std::size_t ldab = off(5, ldab_need) - (off.which == 6 && ldab_need > 0 ? 1 : 0);
  auto ab = view_in<3>(buffer, in, {off(0, nsys), off(1, n), ldab});
  auto b2 = view_in<2>(buffer, in, {off(2, nsys), off(3, n)});
  auto b3 = view_in<3>(buffer, in, {nsys, n, in.below(4)});
  const info_view info("info", off(4, nsys));
  const std::size_t nsys_arg = nsys_argument(in, nsys);
  buffer.fill(in);
  const bs::algo::banded_lu alg{kl, ku, pivot};
  exec_space exec;
  // A factorization takes its rows from ab alone, which may have one more than n: its codes are
  // in [0, ab.extent(1)] (a solve that returns has as many rows).
  one_shot_or_factored(
      family, many_rhs, b2, b3, info, ab.extent(1),
      [&](const auto& b, auto backend) { bs::solve(exec, alg, ab, b, info, backend); },
      [&] { return bs::factorize(exec, alg, ab, nsys_arg); });
}

// The Toeplitz families and shared off-diagonals: scalar coefficients from the input.
void toeplitz(byte_reader& in, storage& buffer, unsigned family) {
  const std::size_t nsys = in.below(10), n = in.below(200);
  const odd_one off{in.below(8)};
  const scalars t{value_of(in.next(), 1) - 4.0, value_of(in.next(), 0),
                  value_of(in.next(), 1) - 4.0};
  const std::size_t block_rows = in.below(4) == 0 ? in.below(80) : 0;
  auto d = view_in<2>(buffer, in, {off(0, nsys), off(1, n)});
  auto diag = view_in<2>(buffer, in, {off(2, nsys), off(3, n)});
  auto x = view_in<1>(buffer, in, {off(5, n)});
  const info_view info("info", off(4, nsys));
  buffer.fill(in);
  exec_space exec;
  const std::size_t rows = d.extent(1);  // the one-shot solves take n from d
  switch (family) {
    case 0:
      if (returns([&] { bs::solve(exec, bs::algo::toeplitz{}, t.t1, t.t2, t.t3, d, info); }))
        check_codes(info, rows);
      break;
    case 1:
      if (returns([&] {
            bs::solve(exec, bs::algo::toeplitz{}, t.t1, t.t2, t.t3, d, info, bs::backend::device{});
          }))
        check_codes(info, rows);
      break;
    case 2:
      returns([&] {
        auto f = bs::factorize(exec, bs::algo::toeplitz{}, t.t1, t.t2, t.t3, n);
        if (f.info() < 0 || static_cast<std::size_t>(f.info()) > n)
          finding("toeplitz info out of range", std::to_string(f.info()));
        returns([&] { f.solve(exec, d); });
      });
      break;
    case 3:
      returns([&] {
        auto plan = bs::factorize(exec, bs::algo::toeplitz_dc{}, t.t1, t.t2, t.t3, n, block_rows);
        returns([&] { plan.solve(exec, x); });
      });
      break;
    case 4:
      returns([&] {
        auto plan = bs::factorize(exec, bs::algo::toeplitz_dc{}, t.t1, t.t2, t.t3, n, block_rows,
                                  bs::backend::device{});
        returns([&] { plan.solve(exec, x); });
      });
      break;
    default: {
      const auto m = bs::make_shared_offdiag(t.t1, t.t3, t.t3 * 2.0, t.t1 * 2.0,
                                             bs::diagonal_from(diag));
      bs::shared_offdiag_options options;
      if (in.next() & 1u) options.singular = bs::singular_last_row::pin;
      if (returns([&] { bs::solve(exec, bs::algo::shared_offdiag{}, m, d, info, options); }))
        check_codes(info, rows);
      break;
    }
  }
}

// Lines along an axis of a 3-D array: full coefficients shaped like d, or rank-1 ones shared by
// every line; axis from -1 to 3.
void along(byte_reader& in, storage& buffer, unsigned family) {
  const std::array<std::size_t, 3> ext{in.below(6), in.below(9), in.below(7)};
  const int axis = static_cast<int>(in.below(5)) - 1;
  const odd_one off{in.below(10)};
  const std::size_t n = axis >= 0 && axis < 3 ? ext[static_cast<std::size_t>(axis)] : 0;
  std::size_t lines = 1;
  for (int q = 0; q < 3; ++q)
    if (q != axis) lines *= ext[static_cast<std::size_t>(q)];
  auto a = view_in<3>(buffer, in, {off(0, ext[0]), ext[1], ext[2]});
  auto b = view_in<3>(buffer, in, {ext[0], off(1, ext[1]), ext[2]});
  auto c = view_in<3>(buffer, in, ext);
  auto d = view_in<3>(buffer, in, {ext[0], ext[1], off(2, ext[2])});
  auto u = view_in<3>(buffer, in, {ext[0], off(3, ext[1]), ext[2]});
  auto a1 = view_in<1>(buffer, in, {off(5, n)});
  auto b1 = view_in<1>(buffer, in, {n});
  auto c1 = view_in<1>(buffer, in, {off(6, n)});
  const info_view info("info", off(4, lines));
  buffer.fill(in);
  exec_space exec;
  bool ran = false;
  switch (family) {
    case 0:
      ran = returns([&] { bs::solve_along(exec, bs::algo::thomas{}, axis, a, b, c, d, info); });
      break;
    case 1:
      ran = returns([&] { bs::solve_along(exec, bs::algo::thomas{}, axis, a1, b1, c1, d, info); });
      break;
    case 2:
      ran = returns(
          [&] { bs::solve_along_add(exec, bs::algo::thomas{}, axis, a, b, c, d, u, info); });
      break;
    case 3:
      ran = returns([&] {
        bs::solve_along(exec, bs::algo::thomas{}, axis, a, b, c, d, info, bs::backend::device{});
      });
      break;
    case 4:
      ran = returns([&] { bs::solve_along(exec, bs::algo::periodic{}, axis, a, b, c, d, info); });
      break;
    case 5:
      ran = returns([&] { bs::solve_along(exec, bs::algo::symmetric{}, axis, b, c, d, info); });
      break;
    default:
      returns([&] {
        auto f = bs::factorize_along(exec, bs::algo::thomas{}, axis, a, b, c, d);
        check_codes(f.info(), n);
        returns([&] { f.solve(exec, u); });
      });
      break;
  }
  if (ran) check_codes(info, n);
}

// Block lines along an axis of a 2-D grid of m unknowns per point: d (e0, e1, m), blocks full
// (e0, e1, m, m) or shared by every line (n, m, m); axis from -1 to 2.
void block_along(byte_reader& in, storage& buffer, unsigned family) {
  const std::size_t e0 = in.below(5), e1 = in.below(7), m = in.below(10);
  const int axis = static_cast<int>(in.below(4)) - 1;
  const odd_one off{in.below(12)};
  const bool pivot = in.next() & 1u;
  const std::size_t n = axis == 0 ? e0 : axis == 1 ? e1 : 0;
  const std::size_t lines = axis == 0 ? e1 : axis == 1 ? e0 : 0;
  auto a = view_in<4>(buffer, in, {off(0, e0), e1, m, m});
  auto b = view_in<4>(buffer, in, {e0, off(1, e1), m, off(6, m)});
  auto c = view_in<4>(buffer, in, {e0, e1, m, m});
  auto d = view_in<3>(buffer, in, {e0, e1, off(2, m)});
  auto u = view_in<3>(buffer, in, {e0, off(3, e1), m});
  auto a1 = view_in<3>(buffer, in, {off(5, n), m, m});
  auto b1 = view_in<3>(buffer, in, {n, off(7, m), m});
  auto c1 = view_in<3>(buffer, in, {n, m, m});
  const info_view info("info", off(4, lines));
  buffer.fill(in);
  const bs::algo::block_thomas alg{pivot ? bs::algo::block_thomas::pivoting::partial
                                         : bs::algo::block_thomas::pivoting::none};
  exec_space exec;
  bool ran = false;
  switch (family) {
    case 0: ran = returns([&] { bs::solve_along(exec, alg, axis, a, b, c, d, info); }); break;
    case 1: ran = returns([&] { bs::solve_along(exec, alg, axis, a1, b1, c1, d, info); }); break;
    case 2: ran = returns([&] { bs::solve_along(exec, alg, axis, a1, b, c1, d, info); }); break;
    case 3:
      ran = returns([&] { bs::solve_along_add(exec, alg, axis, a, b, c, d, u, info); });
      break;
    case 4:
      ran = returns(
          [&] { bs::solve_along(exec, alg, axis, a, b, c, d, info, bs::backend::device{}); });
      break;
    default:
      returns([&] {
        auto f = bs::factorize_along(exec, alg, axis, a1, b1, c1, d);
        check_codes(f.info(), n);
        returns([&] { f.solve(exec, u); });
        returns([&] { f.solve_add(exec, d, u); });
      });
      break;
  }
  if (ran) check_codes(info, n);
}

// Band lines along an axis of a 3-D array: ab full (e0, e1, e2, ldab) or shared (n, ldab).
void band_along(byte_reader& in, storage& buffer, unsigned family) {
  const std::array<std::size_t, 3> ext{in.below(5), in.below(7), in.below(6)};
  const int axis = static_cast<int>(in.below(5)) - 1;
  const int kl = static_cast<int>(in.below(5)) - 1, ku = static_cast<int>(in.below(5)) - 1;
  const bool pivot = in.next() & 1u;
  const odd_one off{in.below(10)};
  const std::size_t n = axis >= 0 && axis < 3 ? ext[static_cast<std::size_t>(axis)] : 0;
  std::size_t lines = 1;
  for (int q = 0; q < 3; ++q)
    if (q != axis) lines *= ext[static_cast<std::size_t>(q)];
  const std::size_t ldab = off(5, static_cast<std::size_t>(
                                      2 * (kl < 0 ? 0 : kl) + (ku < 0 ? 0 : ku) + 1));
  auto ab = view_in<4>(buffer, in, {off(0, ext[0]), ext[1], ext[2], ldab});
  auto ab1 = view_in<2>(buffer, in, {off(1, n), ldab});
  auto d = view_in<3>(buffer, in, {ext[0], off(2, ext[1]), ext[2]});
  auto u = view_in<3>(buffer, in, {ext[0], ext[1], off(3, ext[2])});
  const info_view info("info", off(4, lines));
  buffer.fill(in);
  const bs::algo::banded_lu alg{kl, ku, pivot};
  exec_space exec;
  bool ran = false;
  switch (family) {
    case 0: ran = returns([&] { bs::solve_along(exec, alg, axis, ab, d, info); }); break;
    case 1: ran = returns([&] { bs::solve_along(exec, alg, axis, ab1, d, info); }); break;
    case 2: ran = returns([&] { bs::solve_along_add(exec, alg, axis, ab, d, u, info); }); break;
    case 3:
      ran = returns(
          [&] { bs::solve_along(exec, alg, axis, ab, d, info, bs::backend::device{}); });
      break;
    default:
      returns([&] {
        auto f = bs::factorize_along(exec, alg, axis, ab1, d);
        check_codes(f.info(), n);
        returns([&] { f.solve(exec, u); });
        returns([&] { f.solve_add(exec, d, u); });
      });
      break;
  }
  if (ran) check_codes(info, n);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) { return fuzz::initialize_kokkos(); }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_reader in{data, size};
  const unsigned group = in.below(7), family = in.next();
  storage buffer(in.next() & 1u);
  switch (group) {
    case 0: tridiagonal(in, buffer, family % 11); break;
    case 1: block(in, buffer, family % 3); break;
    case 2: band(in, buffer, family % 3); break;
    case 3: toeplitz(in, buffer, family % 6); break;
    case 4: along(in, buffer, family % 7); break;
    case 5: block_along(in, buffer, family % 6); break;
    default: band_along(in, buffer, family % 5); break;
  }
  return 0;
}
