#pragma once
// Banded LU on the device backend (backend/device/): the pack kernels of banded_lu_kernel.hpp
// (banded_solve_pack, banded_factor_pack, banded_factored_solve_pack) with one lane per thread,
// a team per tile of 32 systems, one thread per system reading its band in place (coalesced for
// interleaved<W> packs, where neighbouring systems are neighbours in every band entry; row,
// column and strided bands are read system by system). The run-time bandwidth kernel serves
// every kl, ku (one instantiation per scalar type and pivoting choice). Runs on Kokkos::Cuda
// and, for tests, on host execution spaces (solve(..., backend::device{})). Called from
// banded_lu.hpp after its argument checks.
//
// Scratch: the work rows of the one-shot solve and of factorize, ((n + kl)(2kl + ku + 1) + n)
// sizeof(T) bytes per system, the 32 systems of a tile interleaved entry by entry (coalesced),
// placed as the device launch places row scratch (backend/device/launch.hpp, row_scratch_place):
// team scratch level 0 for small bands, else level 1 (a pool for the teams that run at once) or
// one allocation per call with a slice per tile; row_scratch_bytes gives what a call holds. The
// factored solve takes none.
#include <bandsolve/backend/device/launch.hpp>
#include <bandsolve/backend/device/systems.hpp>
#include <bandsolve/backend/device/tile_transpose.hpp>
#include <bandsolve/backend/device/work_shape.hpp>
#include <bandsolve/banded/banded_lu_kernel.hpp>

namespace bandsolve::detail {

// Where the band, right-hand sides and pivots of system s live: systems<T>::system(s) is the
// first element, the strides below the rest (band: column and band row; right-hand sides: row
// and right-hand side; pivots: row).
template <class T>
struct band_systems {
  device::systems<T> at;
  index_t col_stride, row_stride;
  KOKKOS_FORCEINLINE_FUNCTION band_lanes<T, true> lanes(index_t s) const {
    return band_lanes<T, true>{at.system(s), 0, col_stride, row_stride};
  }
};
template <class R>
struct rhs_systems {
  device::systems<R> at;
  index_t row_stride, rhs_stride;
  KOKKOS_FORCEINLINE_FUNCTION rhs_lanes<R, true> lanes(index_t s) const {
    return rhs_lanes<R, true>{at.system(s), 0, row_stride, rhs_stride};
  }
};
struct pivot_systems {
  device::systems<int> at;
  index_t row_stride;
  KOKKOS_FORCEINLINE_FUNCTION pivot_lanes<true> lanes(index_t s) const {
    return pivot_lanes<true>{at.system(s), 0, row_stride};
  }
};

// Work rows of thread k of a tile: the tile's systems interleaved, entry e of thread k at
// e * tile_systems + k (neighbouring threads on neighbouring addresses).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION band_work<T, 1, runtime_band_dims> banded_device_work(
    void* rows, int k, const runtime_band_dims& dims, index_t n) {
  constexpr int TW = device::tile_systems;
  T* w = static_cast<T*>(rows) + k;
  const index_t work_rows = (n + dims.kl()) * (2 * dims.kl() + dims.ku() + 1);
  return band_work<T, 1, runtime_band_dims>{w, w + work_rows * TW, dims, TW};
}

template <bool Pivot, class T, class R, class InfoView>
struct banded_device_one_shot {
  band_systems<const T> ab;
  rhs_systems<R> b;
  InfoView info;
  runtime_band_dims dims;
  index_t n, nsys;
  int nrhs;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void* rows) const {
    device::for_each_system_of_tile(team, device::systems_in_tile(nsys, t), [&](const int k) {
      const index_t s = t * device::tile_systems + k;
      int code[1];
      banded_solve_pack<1, true, Pivot>(banded_device_work<T>(rows, k, dims, n), n, 1,
                                        ab.lanes(s), b.lanes(s), nrhs, code);
      info(s) = code[0];
    });
  }
};

template <bool Pivot, class T, class InfoView>
struct banded_device_factor {
  band_systems<const T> ab;
  band_systems<T> lu;
  pivot_systems piv;
  InfoView info;
  runtime_band_dims dims;
  index_t n, nsys;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void* rows) const {
    device::for_each_system_of_tile(team, device::systems_in_tile(nsys, t), [&](const int k) {
      const index_t s = t * device::tile_systems + k;
      int code[1];
      banded_factor_pack<1, true, Pivot>(banded_device_work<T>(rows, k, dims, n), n, 1,
                                         ab.lanes(s), lu.lanes(s), piv.lanes(s), code);
      info(s) = code[0];
    });
  }
};

template <bool Pivot, class T, class R>
struct banded_device_factored_solve {
  band_systems<const T> lu;
  pivot_systems piv;
  rhs_systems<R> b;
  runtime_band_dims dims;
  index_t n, nsys;
  int nrhs;

  template <class Member>
  KOKKOS_INLINE_FUNCTION void operator()(const Member& team, index_t t, void*, void*) const {
    device::for_each_system_of_tile(team, device::systems_in_tile(nsys, t), [&](const int k) {
      const index_t s = t * device::tile_systems + k;
      banded_factored_solve_pack<1, true, Pivot, T>(dims, n, 1, lu.lanes(s), piv.lanes(s),
                                                    b.lanes(s), nrhs);
    });
  }
};

// Row scratch per tile of the one-shot solve and of factorize.
template <class T>
std::size_t banded_device_row_bytes(const runtime_band_dims& dims, index_t n) {
  return device::tile_systems * band_work<T, 1, runtime_band_dims>::bytes(dims, n);
}

template <class ExecutionSpace, class T, class R, class InfoView>
void banded_device_solve(const ExecutionSpace& exec, bool pivoting, const runtime_band_dims dims,
                         const band_systems<const T>& ab, const rhs_systems<R>& b,
                         const InfoView& info, index_t nsys, index_t n, int nrhs) {
  const char* label = "bandsolve::solve(banded_lu, device)";
  const std::size_t row_bytes = banded_device_row_bytes<T>(dims, n);
  if (pivoting)
    device::for_each_tile(exec, label, device::tile_count(nsys), 0, row_bytes,
                          banded_device_one_shot<true, T, R, InfoView>{ab, b, info, dims, n, nsys,
                                                                       nrhs});
  else
    device::for_each_tile(exec, label, device::tile_count(nsys), 0, row_bytes,
                          banded_device_one_shot<false, T, R, InfoView>{ab, b, info, dims, n,
                                                                        nsys, nrhs});
}

template <class ExecutionSpace, class T, class InfoView>
void banded_device_factor_launch(const ExecutionSpace& exec, bool pivoting,
                                 const runtime_band_dims dims, const band_systems<const T>& ab,
                                 const band_systems<T>& lu, const pivot_systems& piv,
                                 const InfoView& info, index_t nsys, index_t n) {
  const char* label = "bandsolve::factorize(banded_lu, device)";
  const std::size_t row_bytes = banded_device_row_bytes<T>(dims, n);
  if (pivoting)
    device::for_each_tile(exec, label, device::tile_count(nsys), 0, row_bytes,
                          banded_device_factor<true, T, InfoView>{ab, lu, piv, info, dims, n,
                                                                  nsys});
  else
    device::for_each_tile(exec, label, device::tile_count(nsys), 0, row_bytes,
                          banded_device_factor<false, T, InfoView>{ab, lu, piv, info, dims, n,
                                                                   nsys});
}

template <class ExecutionSpace, class T, class R>
void banded_device_factored_solve_launch(const ExecutionSpace& exec, bool pivoting,
                                         const runtime_band_dims dims,
                                         const band_systems<const T>& lu, const pivot_systems& piv,
                                         const rhs_systems<R>& b, index_t nsys, index_t n,
                                         int nrhs) {
  const char* label = "bandsolve::banded_lu_factorization::solve(device)";
  if (pivoting)
    device::for_each_tile(exec, label, device::tile_count(nsys), 0, 0,
                          banded_device_factored_solve<true, T, R>{lu, piv, b, dims, n, nsys,
                                                                   nrhs});
  else
    device::for_each_tile(exec, label, device::tile_count(nsys), 0, 0,
                          banded_device_factored_solve<false, T, R>{lu, piv, b, dims, n, nsys,
                                                                    nrhs});
}

}  // namespace bandsolve::detail
