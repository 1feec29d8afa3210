#pragma once
// The reduced systems' round trip. Every rank holds k = 1 or 2 reduced rows per line. The lines
// are split into shares, one per solving rank:
//   exchange::all_to_all  rank q solves lines [nsys q/P, nsys (q+1)/P): MPI_Alltoallv gives it
//                         their reduced rows from every rank, a second one returns the solution;
//   exchange::gather      rank 0 solves every line: MPI_Gatherv, then MPI_Scatterv.
// A solving rank assembles its lines' reduced systems (K = sum of k over the ranks rows each) as
// a row batch and solves them with the single-process Thomas solve (or its factorization).
// Words per reduced row on the way there: 3 for a one-shot solve (the two off-diagonal
// coefficients and the right-hand side; the diagonal is 1; 2 for complex d over real lines,
// reduced_rows.hpp), 2 when factorizing (coefficients),
// 1 for a factored solve (right-hand side); 1 on the way back (the interface value).
#include <bandsolve/mpi/collective_checks.hpp>
#include <bandsolve/mpi/datatype.hpp>
#include <bandsolve/mpi/options.hpp>
#include <bandsolve/mpi/staging.hpp>

#include <mpi.h>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace bandsolve::mpi::detail {

// Who sends which reduced rows where. Built identically on every rank from the partition.
template <class T, class MemorySpace>
class reduced_router {
 public:
  using buffer = Kokkos::View<T*, MemorySpace>;
  using batch = Kokkos::View<T**, Kokkos::LayoutRight, MemorySpace>;

  reduced_router() = default;
  reduced_router(MPI_Comm comm, const partition& p, exchange scheme)
      : reduced_router(comm, p, scheme, shares_of(p, scheme)) {}

  int lines_solved_here() const { return mine_; }
  // Lines whose reduced systems this router exchanges (the batch's).
  std::size_t lines() const { return p_.nsys; }
  int reduced_rows() const { return rows_; }
  long long first_line_here() const { return begin_[static_cast<std::size_t>(p_.rank)]; }
  exchange scheme() const { return scheme_; }

  // This rank's reduced rows (line s, row j, word v at (s*k + j)*w + v) to the ranks that solve
  // them; returns the rows of the lines solved here (from rank r, local line t, row j, word v at
  // w*(disp_r + t*k_r + j) + v, disp_r = mine * sum of k over the ranks before r).
  // The received rows are carved from `staging` when given, else allocated. V: the words' type
  // (T, or the complex right-hand sides of a factorization of real lines).
  template <class Rows, class V = typename Rows::non_const_value_type>
  Kokkos::View<V*, MemorySpace> to_solvers(const Rows& rows, int w,
                                           carved_buffer<MemorySpace>* staging = nullptr) const {
    const std::size_t P = k_.size(), me = static_cast<std::size_t>(p_.rank);
    std::vector<int> send(P), sdisp(P), recv(P), rdisp(P);
    int total = 0;
    for (std::size_t q = 0; q < P; ++q) {
      send[q] = w * static_cast<int>(begin_[q + 1] - begin_[q]) * k_[me];
      sdisp[q] = w * static_cast<int>(begin_[q]) * k_[me];
      recv[q] = w * mine_ * k_[q];
      rdisp[q] = total;
      total += recv[q];
    }
    const auto out = take_or_allocate<V>(total, staging, "bandsolve::mpi reduced rows");
    const MPI_Datatype dt = datatype<V>();
    if (scheme_ == exchange::gather)
      MPI_Gatherv(rows.data(), send[0], dt, out.data(), recv.data(), rdisp.data(), dt, 0, comm_);
    else
      MPI_Alltoallv(rows.data(), send.data(), sdisp.data(), dt, out.data(), recv.data(),
                    rdisp.data(), dt, comm_);
    return out;
  }

  // The interface values of the lines solved here (local line t, reduced row i at x(t, i)) back
  // to the ranks that own them: iface receives line s, row j at s*k + j.
  template <class ExecutionSpace, class X, class Iface>
  void to_owners(const ExecutionSpace& exec, const X& x, const Iface& iface,
                 carved_buffer<MemorySpace>* staging = nullptr) const {
    using V = typename Iface::non_const_value_type;
    const std::size_t P = k_.size(), me = static_cast<std::size_t>(p_.rank);
    std::vector<int> send(P), sdisp(P), recv(P), rdisp(P);
    int total = 0;
    for (std::size_t q = 0; q < P; ++q) {
      send[q] = mine_ * k_[q];
      sdisp[q] = total;
      total += send[q];
      recv[q] = static_cast<int>(begin_[q + 1] - begin_[q]) * k_[me];
      rdisp[q] = static_cast<int>(begin_[q]) * k_[me];
    }
    const auto back = take_or_allocate<V>(total, staging, "bandsolve::mpi interface values");
    if (mine_ > 0) {
      const auto src = sources_;
      const int ranks = p_.size;
      using range = Kokkos::RangePolicy<ExecutionSpace>;
      Kokkos::parallel_for(
          "bandsolve::mpi(return)",
          range(exec, 0, static_cast<typename range::member_type>(mine_)),
          KOKKOS_LAMBDA(const int t) {
            for (int q = 0; q < ranks; ++q) {
              const int kq = src(q, 0), fq = src(q, 1);
              V* out = back.data() + src(q, 2) + t * kq;
              for (int j = 0; j < kq; ++j) out[j] = x(t, fq + j);
            }
          });
    }
    exec.fence();
    const MPI_Datatype dt = datatype<V>();
    if (scheme_ == exchange::gather)
      MPI_Scatterv(back.data(), send.data(), sdisp.data(), dt, iface.data(), recv[0], dt, 0, comm_);
    else
      MPI_Alltoallv(back.data(), send.data(), sdisp.data(), dt, iface.data(), recv.data(),
                    rdisp.data(), dt, comm_);
  }

  // f(t, i, words) for every reduced row i of every line t solved here, words: its w words as
  // received by to_solvers.
  template <class ExecutionSpace, class In, class F>
  void for_each_received(const ExecutionSpace& exec, const In& in, int w, const F& f) const {
    using V = typename In::non_const_value_type;
    if (mine_ == 0) return;
    const auto src = sources_;
    const int ranks = p_.size;
    using range = Kokkos::RangePolicy<ExecutionSpace>;
    Kokkos::parallel_for(
        "bandsolve::mpi(assemble)",
        range(exec, 0, static_cast<typename range::member_type>(mine_)),
        KOKKOS_LAMBDA(const int t) {
          for (int q = 0; q < ranks; ++q) {
            const int kq = src(q, 0), fq = src(q, 1);
            const V* row = in.data() + w * (src(q, 2) + t * kq);
            for (int j = 0; j < kq; ++j) f(t, fq + j, row + w * j);
          }
        });
  }

  // Global 1-based row of reduced row i (0-based) of a line.
  int global_row(int i) const {
    std::size_t r = 0;
    while (r + 1 < k_.size() && first_[r + 1] <= i) ++r;
    const index_t local = i == first_[r] ? 0 : p_.rows[r] - 1;
    return static_cast<int>(p_.offsets[r] + local + 1);
  }

  // Reduced info codes of the lines solved here (rinfo(t): reduced row, 1-based, or 0) into
  // codes[offset + s] as global rows (offset: the first line of a batch).
  template <class InfoView>
  void record_codes(const InfoView& rinfo, std::vector<int>& codes, std::size_t offset = 0) const {
    if (mine_ == 0) return;
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rinfo);
    for (int t = 0; t < mine_; ++t)
      if (h(t) != 0)
        codes[offset + static_cast<std::size_t>(first_line_here() + t)] = global_row(h(t) - 1);
  }

  // A reduced batch (of V values) of the lines solved here, carved from `staging` when given.
  template <class V = T>
  Kokkos::View<V**, Kokkos::LayoutRight, MemorySpace> allocate_batch(
      const char* label, carved_buffer<MemorySpace>* staging = nullptr) const {
    using values = Kokkos::View<V**, Kokkos::LayoutRight, MemorySpace>;
    const auto lines = static_cast<std::size_t>(mine_), rows = static_cast<std::size_t>(rows_);
    if (staging) return values(staging->template take<V>(lines * rows).data(), lines, rows);
    return values(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), lines,
                  rows);
  }

  // Bytes of staging that one round trip takes at most with `batches` reduced batches and `w`
  // words (of type V) per reduced row on the way there (to_solvers, allocate_batch, to_owners,
  // and the reduced codes as ints).
  template <class V = T>
  std::size_t staging_bytes(int w, int batches) const {
    using carve = carved_buffer<MemorySpace>;
    const auto values = static_cast<std::size_t>(mine_) * static_cast<std::size_t>(rows_);
    return carve::template bytes_for<V>(values * static_cast<std::size_t>(w)) +
           static_cast<std::size_t>(batches) * carve::template bytes_for<V>(values) +
           carve::template bytes_for<V>(values) +
           carve::template bytes_for<int>(static_cast<std::size_t>(mine_));
  }

 private:
  // `values` values carved from `staging` when given, else allocated.
  template <class V>
  static Kokkos::View<V*, MemorySpace> take_or_allocate(int values,
                                                        carved_buffer<MemorySpace>* staging,
                                                        const char* label) {
    const auto n = static_cast<std::size_t>(values);
    if (staging) return staging->template take<V>(n);
    return Kokkos::View<V*, MemorySpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
  }

  // Reduced rows per rank (k), each rank's first row in a line's reduced system, the lines each
  // rank solves (from begin[r] to begin[r + 1]), rows per reduced system and lines solved here.
  struct shares {
    std::vector<int> k, first;
    std::vector<long long> begin;
    int rows = 0, mine = 0;
  };
  static shares shares_of(const partition& p, exchange scheme) {
    const std::size_t P = static_cast<std::size_t>(p.size);
    shares sh{std::vector<int>(P), std::vector<int>(P), std::vector<long long>(P + 1), 0, 0};
    for (std::size_t r = 0; r < P; ++r) {
      sh.k[r] = p.rows[r] == 1 ? 1 : 2;
      sh.first[r] = sh.rows;
      sh.rows += sh.k[r];
    }
    const long long nsys = static_cast<long long>(p.nsys);
    for (std::size_t q = 0; q <= P; ++q)
      sh.begin[q] = scheme == exchange::gather ? (q == 0 ? 0 : nsys)
                                               : nsys * static_cast<long long>(q) / p.size;
    const std::size_t me = static_cast<std::size_t>(p.rank);
    sh.mine = static_cast<int>(sh.begin[me + 1] - sh.begin[me]);
    return sh;
  }
  // Per sending rank r: k_r, its first row in a reduced system, and where its rows start among
  // those received here; in MemorySpace, built where it is declared (docs/development.md).
  static Kokkos::View<int* [3], MemorySpace> sources_of(const shares& sh) {
    const std::size_t P = sh.k.size();
    Kokkos::View<int* [3], Kokkos::HostSpace> src("bandsolve::mpi sources", P);
    int disp = 0;
    for (std::size_t r = 0; r < P; ++r) {
      src(r, 0) = sh.k[r], src(r, 1) = sh.first[r], src(r, 2) = disp;
      disp += sh.mine * sh.k[r];
    }
    return Kokkos::create_mirror_view_and_copy(MemorySpace(), src);
  }
  reduced_router(MPI_Comm comm, const partition& p, exchange scheme, const shares& sh)
      : comm_(comm),
        p_(p),
        scheme_(scheme),
        k_(sh.k),
        first_(sh.first),
        begin_(sh.begin),
        rows_(sh.rows),
        mine_(sh.mine),
        sources_(sources_of(sh)) {}

  MPI_Comm comm_ = MPI_COMM_NULL;
  partition p_;
  exchange scheme_ = exchange::gather;
  std::vector<int> k_, first_;
  std::vector<long long> begin_;
  int rows_ = 0, mine_ = 0;
  Kokkos::View<int* [3], MemorySpace> sources_;
};

}  // namespace bandsolve::mpi::detail
