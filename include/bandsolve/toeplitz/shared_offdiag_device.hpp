#pragma once
// Shared off-diagonals on the device backend (backend/device/): the Thomas recurrences of
// shared_offdiag.hpp with the diagonal generated on the fly, one thread per system, a team per
// tile of 32 systems. Where neighbouring systems are neighbours in memory (column,
// interleaved<W>, strided with unit system stride) each thread reads its system in place; where
// each system is contiguous (row layout, strided with unit row stride) blocks of tile_rows_v rows
// of the tile's systems pass through padded team scratch (tile_transpose.hpp), the forward sweep
// writing d' back block by block and the backward sweep reading it again from the last block.
// Runs on Kokkos::Cuda and, for tests, on host execution spaces (solve(..., backend::device{})).
// Called from shared_offdiag.hpp after its argument checks.
// Row scratch per tile: c' of every row, [row][system], n 32 sizeof(Real) bytes (team scratch
// level 0 or 1 by size, or one allocation per call: backend/device/launch.hpp).
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/tile_transpose.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/core/pivot.hpp>

#include <cfloat>

namespace bandsolve::detail {

template <class T>
KOKKOS_INLINE_FUNCTION T magnitude(T v) {
  return v < T(0) ? -v : v;
}

// The coefficients and options of one call, and the forward step of one row of one system.
template <class Real, class Work, class Diagonal>
struct shared_offdiag_rows {
  Real lower, upper, first_upper, last_lower;
  Diagonal diagonal;
  Work pin_value;
  index_t n, nsys;
  bool pin;

  static constexpr Real cancel =
      Real(16) * (sizeof(Real) == 4 ? Real(FLT_EPSILON) : Real(DBL_EPSILON));

  // Row i of system s (padding slots of interleaved packs read the last system's diagonal, as on
  // the host): from c'_{i-1} in cp and y_{i-1} in y to c'_i and y_i; code keeps the first bad row.
  KOKKOS_FORCEINLINE_FUNCTION void forward(index_t s, index_t i, Work xi, Real& cp, Work& y,
                                           int& code) const {
    const Real a = i == 0 ? Real(0) : (i + 1 == n ? last_lower : lower);
    const Real c = i + 1 == n ? Real(0) : (i == 0 ? first_upper : upper);
    const bool pin_here = pin && i + 1 == n;
    const Real b = static_cast<Real>(diagonal(s < nsys ? s : nsys - 1, i));
    const Real ac = a * cp;
    const Real pivot = b - ac;
    const Real r = Real(1) / pivot;
    cp = c * r;
    const bool bad = !pivot_is_good(pivot) ||
                     magnitude(pivot) <= cancel * (magnitude(b) + magnitude(ac));
    const Work solved = (xi - a * y) * r;
    y = (bad && pin_here) ? pin_value : solved;
    if (code == 0 && bad && !pin_here) code = static_cast<int>(i + 1);
  }
};

template <class Scalar, class Real, class Work, class Diagonal, class InfoView>
struct shared_offdiag_device_kernel {
  static constexpr int TW = device::tile_systems, TR = device::tile_rows_v<Scalar>,
                       LD = device::tile_ld_v<Scalar>;
  shared_offdiag_rows<Real, Work, Diagonal> rows;
  device::systems<Scalar> d;
  InfoView info;
  index_t slots;
  bool tiles;

  // Row tiles: each system's carried y, a tile of TR rows of 32 systems, each system's code.
  static std::size_t tile_bytes() {
    return TW * sizeof(Work) + TW * LD * sizeof(Scalar) + TW * sizeof(int);
  }
  static std::size_t row_bytes(index_t n) { return static_cast<std::size_t>(n) * TW * sizeof(Real); }

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void* scratch,
                                         void* row_scratch) const {
    const index_t n = rows.n, s0 = t * TW;
    const int ns = static_cast<int>(slots - s0 < TW ? slots - s0 : TW);
    Real* const cp = static_cast<Real*>(row_scratch);  // c'_i of system k at cp[i * TW + k]
    if (!tiles) {
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        const index_t s = s0 + k, sd = d.row_stride;
        Scalar* const x = d.system(s);
        Real c = Real(0);
        Work y = Work(0);
        int code = 0;
        for (index_t i = 0; i < n; ++i) {
          rows.forward(s, i, Work(x[i * sd]), c, y, code);
          cp[i * TW + k] = c;
          x[i * sd] = Scalar(y);
        }
        for (index_t i = n - 2; i >= 0; --i) {
          y = Work(x[i * sd]) - cp[i * TW + k] * y;
          x[i * sd] = Scalar(y);
        }
        if (s < rows.nsys) info(s) = code;
      });
      return;
    }
    Work* const carry = static_cast<Work*>(scratch);
    Scalar* const tile = reinterpret_cast<Scalar*>(carry + TW);
    int* const codes = reinterpret_cast<int*>(tile + TW * LD);
    device::for_each_system_of_tile(team, ns, [&](const int k) {
      carry[k] = Work(0);
      codes[k] = 0;
    });
    const index_t blocks = (n + TR - 1) / TR;
    for (index_t b = 0; b < blocks; ++b) {
      const index_t i0 = b * TR;
      const int nr = static_cast<int>(n - i0 < TR ? n - i0 : TR);
      device::load_tile(team, d, s0, ns, i0, nr, tile, LD);
      team.team_barrier();
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        Real c = i0 == 0 ? Real(0) : cp[(i0 - 1) * TW + k];
        Work y = carry[k];
        int code = codes[k];
        for (int j = 0; j < nr; ++j) {
          rows.forward(s0 + k, i0 + j, Work(tile[k * LD + j]), c, y, code);
          cp[(i0 + j) * TW + k] = c;
          tile[k * LD + j] = Scalar(y);
        }
        carry[k] = y;
        codes[k] = code;
      });
      team.team_barrier();
      if (b + 1 < blocks) {  // the last block stays in the tile for the backward sweep
        device::store_tile(team, tile, LD, d, s0, ns, i0, nr);
        team.team_barrier();
      }
    }
    for (index_t b = blocks - 1; b >= 0; --b) {
      const index_t i0 = b * TR;
      const int nr = static_cast<int>(n - i0 < TR ? n - i0 : TR);
      if (b + 1 < blocks) {
        device::load_tile(team, d, s0, ns, i0, nr, tile, LD);
        team.team_barrier();
      }
      // Row n - 1 is final after the forward sweep; the backward one starts at n - 2.
      const index_t top = i0 + nr - 1 < n - 2 ? i0 + nr - 1 : n - 2;
      device::for_each_system_of_tile(team, ns, [&](const int k) {
        Work y = carry[k];
        for (index_t i = top; i >= i0; --i) {
          y = Work(tile[k * LD + (i - i0)]) - cp[i * TW + k] * y;
          tile[k * LD + (i - i0)] = Scalar(y);
        }
        carry[k] = y;
      });
      team.team_barrier();
      device::store_tile(team, tile, LD, d, s0, ns, i0, nr);
      team.team_barrier();
    }
    device::for_each_system_of_tile(team, ns, [&](const int k) {
      if (s0 + k < rows.nsys) info(s0 + k) = codes[k];
    });
  }
};

// Solves every slot of d (padding lanes of interleaved packs included) and writes info for the
// nsys systems (n, nsys > 0, arguments checked). Enqueued on exec, not fenced.
template <class Work, class ExecutionSpace, class Real, class Diagonal, class DView,
          class InfoView>
void shared_offdiag_device_solve(const ExecutionSpace& exec,
                                 const shared_offdiag_rows<Real, Work, Diagonal>& rows,
                                 const DView& d, const InfoView& info, index_t slots) {
  using Scalar = typename DView::value_type;
  using kernel = shared_offdiag_device_kernel<Scalar, Real, Work, Diagonal, InfoView>;
  const auto sys = device::systems_of(d);
  const bool tiles = sys.rows_contiguous();
  const index_t ntiles = device::tile_count(slots);
  device::for_each_tile(exec, "bandsolve::solve(shared_offdiag, device)", ntiles,
                        tiles ? kernel::tile_bytes() : 0, kernel::row_bytes(rows.n),
                        kernel{rows, sys, info, slots, tiles});
}

}  // namespace bandsolve::detail
