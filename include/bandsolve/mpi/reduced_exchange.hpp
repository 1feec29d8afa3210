#pragma once
// The reduced systems' round trip. Every rank holds k = 1 or 2 reduced rows per line (3 words each:
// the coefficients of the neighbouring interface unknowns and the right-hand side; the diagonal is
// 1). The lines are split into shares, one per solving rank:
//   exchange::all_to_all  rank q solves lines [nsys q/P, nsys (q+1)/P): MPI_Alltoallv gives it
//                         their reduced rows from every rank, a second one returns the solution;
//   exchange::gather      rank 0 solves every line: MPI_Gatherv, then MPI_Scatterv.
// A solving rank assembles its lines' reduced systems (sum of k over the ranks rows each) as a row
// batch and solves them with the single-process Thomas solve. Per line, each rank sends 3k words
// and receives k: at most 8 words per line per rank.
#include <bandsolve/core/algo.hpp>
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/datatype.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/tridiag/thomas.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <vector>

namespace bandsolve::mpi::detail {

// Reduced rows per rank (k_r) and the position of rank r's first reduced row in a line's
// reduced system.
struct reduced_shape {
  std::vector<int> k, first;
  int rows = 0;  // of a line's reduced system
  explicit reduced_shape(const partition& p) : k(p.rows.size()), first(p.rows.size()) {
    for (std::size_t r = 0; r < p.rows.size(); ++r) {
      k[r] = p.rows[r] == 1 ? 1 : 2;
      first[r] = rows;
      rows += k[r];
    }
  }
  // Global 1-based row of reduced row j (0-based) of a line.
  int global_row(const partition& p, int j) const {
    std::size_t r = 0;
    while (r + 1 < k.size() && first[r + 1] <= j) ++r;
    const index_t local = j == first[r] ? 0 : p.rows[r] - 1;
    return static_cast<int>(p.offsets[r] + local + 1);
  }
};

// red: this rank's reduced rows (line s, row j, word w at (s*k + j)*3 + w). On return iface holds
// the interface values (line s, row j at s*k + j) and reduced_codes[s], for the lines this rank
// solved, the global row of the first bad pivot of the reduced solve (else 0).
template <class ExecutionSpace, class T, class MemorySpace>
void solve_reduced(const ExecutionSpace& exec, MPI_Comm comm, const partition& p, exchange scheme,
                   const Kokkos::View<T*, MemorySpace>& red, const Kokkos::View<T*, MemorySpace>& iface,
                   std::vector<int>& reduced_codes) {
  const reduced_shape shape(p);
  const std::size_t P = static_cast<std::size_t>(p.size), me = static_cast<std::size_t>(p.rank);
  const long long nsys = static_cast<long long>(p.nsys);
  std::vector<long long> begin(P + 1);
  for (std::size_t q = 0; q <= P; ++q)
    begin[q] = scheme == exchange::gather ? (q == 0 ? 0 : nsys) : nsys * static_cast<long long>(q) / p.size;
  const int mine = static_cast<int>(begin[me + 1] - begin[me]);  // lines this rank solves
  const int k_me = shape.k[me];

  // Counts and displacements in words, for the reduced rows (3 words) and the solution (1).
  std::vector<int> send3(P), sdisp3(P), recv3(P), rdisp3(P), back1(P), bdisp1(P), got1(P), gdisp1(P);
  int recv_total = 0;
  for (std::size_t q = 0; q < P; ++q) {
    const int lines_q = static_cast<int>(begin[q + 1] - begin[q]);
    send3[q] = 3 * lines_q * k_me;
    sdisp3[q] = static_cast<int>(3 * begin[q] * k_me);
    got1[q] = lines_q * k_me;
    gdisp1[q] = static_cast<int>(begin[q] * k_me);
    recv3[q] = 3 * mine * shape.k[q];  // from rank q, for my lines
    rdisp3[q] = recv_total;
    back1[q] = mine * shape.k[q];
    bdisp1[q] = recv_total / 3;
    recv_total += recv3[q];
  }

  const MPI_Datatype dt = datatype<T>();
  Kokkos::View<T*, MemorySpace> recv(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bandsolve::mpi reduced rows"),
                                     static_cast<std::size_t>(recv_total));
  exec.fence();  // red is complete
  if (scheme == exchange::gather)
    MPI_Gatherv(red.data(), send3[0], dt, recv.data(), recv3.data(), rdisp3.data(), dt, 0, comm);
  else
    MPI_Alltoallv(red.data(), send3.data(), sdisp3.data(), dt, recv.data(), recv3.data(),
                  rdisp3.data(), dt, comm);

  Kokkos::View<T*, MemorySpace> back(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bandsolve::mpi interface values"),
                                     static_cast<std::size_t>(recv_total / 3));
  if (mine > 0) {
    using batch = Kokkos::View<T**, Kokkos::LayoutRight, MemorySpace>;
    const int K = shape.rows;
    const auto alloc = [&](const char* label) {
      return batch(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                   static_cast<std::size_t>(mine), static_cast<std::size_t>(K));
    };
    const batch ra = alloc("bandsolve::mpi reduced a"), rb = alloc("bandsolve::mpi reduced b"),
                rc = alloc("bandsolve::mpi reduced c"), rd = alloc("bandsolve::mpi reduced d");
    Kokkos::View<int*, MemorySpace> rinfo("bandsolve::mpi reduced info", mine);
    // Per source rank: k, first reduced row, displacement of its block (small host copies).
    Kokkos::View<int* [3], MemorySpace> src("bandsolve::mpi sources", P);
    auto src_h = Kokkos::create_mirror_view(src);
    for (std::size_t q = 0; q < P; ++q)
      src_h(q, 0) = shape.k[q], src_h(q, 1) = shape.first[q], src_h(q, 2) = rdisp3[q];
    Kokkos::deep_copy(src, src_h);
    const int ranks = p.size;
    Kokkos::parallel_for(
        "bandsolve::mpi::solve(assemble)", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, mine),
        KOKKOS_LAMBDA(const int t) {
          for (int q = 0; q < ranks; ++q) {
            const int kq = src(q, 0), fq = src(q, 1);
            const T* in = recv.data() + src(q, 2) + 3 * t * kq;
            for (int j = 0; j < kq; ++j) {
              ra(t, fq + j) = in[3 * j];
              rb(t, fq + j) = T(1);
              rc(t, fq + j) = in[3 * j + 1];
              rd(t, fq + j) = in[3 * j + 2];
            }
          }
        });
    bandsolve::solve(exec, algo::thomas{}, ra, rb, rc, rd, rinfo);
    Kokkos::parallel_for(
        "bandsolve::mpi::solve(return)", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, mine),
        KOKKOS_LAMBDA(const int t) {
          for (int q = 0; q < ranks; ++q) {
            const int kq = src(q, 0), fq = src(q, 1);
            T* out = back.data() + src(q, 2) / 3 + t * kq;
            for (int j = 0; j < kq; ++j) out[j] = rd(t, fq + j);
          }
        });
    auto rinfo_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rinfo);
    for (int t = 0; t < mine; ++t)
      if (rinfo_h(t) != 0)
        reduced_codes[static_cast<std::size_t>(begin[me] + t)] = shape.global_row(p, rinfo_h(t) - 1);
  }
  exec.fence();  // back is complete
  if (scheme == exchange::gather)
    MPI_Scatterv(back.data(), back1.data(), bdisp1.data(), dt, iface.data(), got1[0], dt, 0, comm);
  else
    MPI_Alltoallv(back.data(), back1.data(), bdisp1.data(), dt, iface.data(), got1.data(),
                  gdisp1.data(), dt, comm);
}

}  // namespace bandsolve::mpi::detail
