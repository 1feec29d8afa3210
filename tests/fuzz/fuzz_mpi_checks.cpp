// libFuzzer target over the distributed solves (bandsolve/mpi.hpp), run by mpiexec at 1 to 4
// ranks. Rank 0 runs libFuzzer and broadcasts every input; every rank decodes it into the same
// calls (scalar lines with ends or periodic in row, column and strided batches and interleaved
// packs, float, double, complex of either or complex d over real lines, one-shot or
// factored with a solve and a refactor, on the host or the device backend's passes; lines along
// an axis of a 2-D to 4-D array; block lines, float, double, complex or complex d over real
// blocks, one or several right-hand sides, in batches and interleaved packs, and along an axis of
// a 2-D or 3-D grid), each with a part
// of its own: the rows it holds, its values (zeros, NaN, Inf among them) and, on one rank the
// input picks, one argument that does not fit (an extent, nsys, m, the axis, the options, d over
// a's memory). Every View lies in an allocation of its own span, where ASan sees a read or write
// past its end.
// The contract: every rank returns, or every rank throws the same std::invalid_argument naming a
// bandsolve function; after a return every rank holds the same info codes, each in [0, the rows
// of a line]; in half the inputs the lines are strictly diagonally dominant, none may be reported
// singular, and the solutions (batches, lines along an axis, block lines) must match a dense
// solve of the gathered whole lines on rank 0. A broken contract, a crash or a report of ASan or
// UBSan on a rank other than 0 writes the input to mpi-crash-rank<r>-<pid> (rank 0's libFuzzer
// writes its own crash-* files where Open MPI's signal handlers are off); a hang is libFuzzer's
// timeout on rank 0.
#include "fuzz_support.hpp"

#include <bandsolve/bandsolve.hpp>
#include <bandsolve/mpi.hpp>

#include <mpi.h>
#include <sanitizer/common_interface_defs.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using fuzz::byte_reader;
namespace bs = bandsolve;
namespace bmpi = bandsolve::mpi;
using exec_space = Kokkos::Serial;  // one thread per rank
using info_view = Kokkos::View<int*, Kokkos::HostSpace>;

int my_rank = 0, ranks = 1;
std::vector<std::uint8_t> current_input;

// The input of the case a rank other than 0 stopped in, for rerunning it (rank 0's libFuzzer
// saves its own).
void save_input() {
  if (my_rank == 0) return;
  char name[64];
  std::snprintf(name, sizeof(name), "mpi-crash-rank%d-%d", my_rank, static_cast<int>(getpid()));
  if (std::FILE* f = std::fopen(name, "wb")) {
    std::fwrite(current_input.data(), 1, current_input.size(), f);
    std::fclose(f);
  }
}

[[noreturn]] void broken(const std::string& what) {
  save_input();
  fuzz::finding("mpi contract broken", "rank " + std::to_string(my_rank) + ": " + what);
}

// What a call did on this rank: returned, or threw the message.
struct outcome {
  bool returned = true;
  std::string message;
};

template <class Call>
outcome run(const Call& call) {
  try {
    call();
    return {};
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).rfind("bandsolve::", 0) != 0)
      broken(std::string("message does not name the function: ") + e.what());
    return {false, e.what()};
  } catch (const std::exception& e) {
    broken(std::string("an exception other than std::invalid_argument: ") + e.what());
  }
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 1099511628211ull; }

std::uint64_t hash_of(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char ch : s) h = mix(h, static_cast<unsigned char>(ch));
  return h;
}

// The codes of info (host View), each in [0, rows], as one hash.
template <class Info>
std::uint64_t codes(const Info& info, std::size_t rows) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::size_t s = 0; s < info.extent(0); ++s) {
    if (info(s) < 0 || static_cast<std::size_t>(info(s)) > rows)
      broken("info(" + std::to_string(s) + ") = " + std::to_string(info(s)) + ", rows " +
             std::to_string(rows));
    h = mix(h, static_cast<std::uint64_t>(info(s)));
  }
  return mix(h, info.extent(0));
}

// With FUZZ_MPI_STATS set, rank 0 prints at exit how often each call returned and threw
// (counted only then: the map's string compares would steer the fuzzer); set to 2, also how often
// each message was thrown, its values left out.
const bool keep_tally = std::getenv("FUZZ_MPI_STATS") != nullptr;
const bool keep_messages = keep_tally && std::string(std::getenv("FUZZ_MPI_STATS")) == "2";
std::map<std::string, std::array<long long, 2>> tally;
std::map<std::string, long long> messages;

// Every rank compares its outcome (and the hash of its info codes) with every other rank's.
void agree(const char* call, const outcome& o, std::uint64_t info_hash) {
  if (keep_tally) ++tally[call][o.returned ? 0 : 1];
  if (keep_messages && !o.returned) {
    std::string shape = o.message.substr(0, 160);
    for (char& ch : shape)
      if (ch >= '0' && ch <= '9') ch = '#';
    ++messages[shape];
  }
  const unsigned long long mine[3] = {o.returned ? 1ull : 0ull, hash_of(o.message), info_hash};
  std::vector<unsigned long long> all(3 * static_cast<std::size_t>(ranks));
  MPI_Allgather(mine, 3, MPI_UNSIGNED_LONG_LONG, all.data(), 3, MPI_UNSIGNED_LONG_LONG,
                MPI_COMM_WORLD);
  for (int r = 0; r < ranks; ++r)
    for (int k = 0; k < 3; ++k)
      if (all[3 * static_cast<std::size_t>(r) + static_cast<std::size_t>(k)] != all[k])
        broken(std::string(call) + ": rank " + std::to_string(r) + " differs from rank 0 in " +
               (k == 0   ? "returning"
                : k == 1 ? "the message"
                         : "the info codes") +
               "; this rank " + (o.returned ? "returned" : "threw: " + o.message));
}

// What every rank decodes alike: the rows each rank holds, the systems, the options, and which
// argument of which rank does not fit.
struct plan {
  std::vector<std::size_t> rows;
  std::size_t total = 0, nsys = 0;
  int odd_rank = 0;
  unsigned which = 0;
  bool dominant = false;  // values of strictly diagonally dominant lines (no NaN, Inf or 0)
  bmpi::options opts;

  std::size_t here() const { return rows[static_cast<std::size_t>(my_rank)]; }
  bool odd(unsigned k) const { return my_rank == odd_rank && which == k; }
  std::size_t off(unsigned k, std::size_t v) const { return odd(k) ? v + 1 : v; }
  // The options this rank passes: on the odd rank, another scheme or batch size.
  bmpi::options options_here() const {
    bmpi::options o = opts;
    if (odd(7)) o.batch_bytes_per_thread = o.batch_bytes_per_thread == 0 ? 4096 : 0;
    return o;
  }
};

plan decode_plan(byte_reader& in) {
  plan p;
  for (int r = 0; r < ranks; ++r) {
    p.rows.push_back(in.below(10) == 0 ? 0 : 1 + in.below(6));
    p.total += p.rows.back();
  }
  p.nsys = in.below(8) == 0 ? 16 + in.below(80) : in.below(9);
  p.odd_rank = static_cast<int>(in.below(static_cast<unsigned>(ranks) + 1));  // ranks: none
  p.which = in.below(12);
  p.dominant = in.below(2);
  const unsigned scheme = in.below(3);
  p.opts.scheme = scheme == 0   ? bmpi::exchange::automatic
                  : scheme == 1 ? bmpi::exchange::all_to_all
                                : bmpi::exchange::gather;
  if (in.below(2)) p.opts.all_to_all_min_lines_per_rank = in.below(5);
  const unsigned batch = in.below(3);
  if (batch == 1) p.opts.batch_bytes_per_thread = 0;
  if (batch == 2) p.opts.batch_bytes_per_thread = 1 + in.below(256) * 64;
  return p;
}

// In the dominant mode: diagonals in [4, 8), everything else in (-1, 1), so that every line is
// strictly diagonally dominant and its solve is well conditioned.
double dominant_value(unsigned v, bool diagonal) {
  return diagonal ? 4.0 + v / 64.0 : (static_cast<double>(v) - 127.5) / 128.0;
}

// T with R stars: the data type of a rank-R View.
template <class T, int R>
struct data_type_of {
  using type = typename data_type_of<T, R - 1>::type*;
};
template <class T>
struct data_type_of<T, 0> {
  using type = T;
};

using complex_t = Kokkos::complex<double>;
using complex_float = Kokkos::complex<float>;
template <class T>
struct complex_traits {
  static constexpr bool is_complex = false;
  using real = T;
};
template <class R>
struct complex_traits<Kokkos::complex<R>> {
  static constexpr bool is_complex = true;
  using real = R;
};
template <class T>
constexpr bool is_complex_v = complex_traits<T>::is_complex;
// The real type of T, and the oracle's unknowns per row of a scalar line with d of type T.
template <class T>
using real_t = typename complex_traits<T>::real;
template <class T>
constexpr std::size_t oracle_m = is_complex_v<T> ? 2 : 1;

// A value of a line as the oracle reads it: a real value as itself; a complex one as the 2 x 2
// real block of its product (row-major: re, -im, im, re), and a right-hand side or solution
// value as its two parts, so that complex lines are real block lines of m = 2.
template <class T>
void push_block(std::vector<double>& row, const T& z) {
  if constexpr (is_complex_v<T>)
    row.insert(row.end(), {double(z.real()), -double(z.imag()), double(z.imag()),
                           double(z.real())});
  else
    row.insert(row.end(), {static_cast<double>(z), 0.0, 0.0, static_cast<double>(z)});
}
template <class T>
void push_pair(std::vector<double>& row, const T& z) {
  if constexpr (is_complex_v<T>)
    row.insert(row.end(), {double(z.real()), double(z.imag())});
  else
    row.insert(row.end(), {static_cast<double>(z), 0.0});
}

// The oracle's row of a scalar line: {a, b, c, d, x} for real d (m = 1), else m = 2 (above).
template <class TA, class TD>
std::vector<double> line_row(const TA& a, const TA& b, const TA& c, const TD& d, const TD& x) {
  std::vector<double> row;
  if constexpr (is_complex_v<TD>) {
    for (const TA& v : {a, b, c}) push_block(row, v);
    push_pair(row, d), push_pair(row, x);
  } else {
    row = {static_cast<double>(a), static_cast<double>(b), static_cast<double>(c),
           static_cast<double>(d), static_cast<double>(x)};
  }
  return row;
}

template <class L, class T, int R>
using view_of = Kokkos::View<typename data_type_of<T, R>::type, L, Kokkos::HostSpace,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// The Views of one case, each in an allocation of its own span; their values come from this
// rank's bytes of the input.
template <class T>
class arena {
 public:
  // A View of extents ext in layout L (LayoutStride: row-major with the slowest axis padded by
  // pad), in an allocation of its own, or over `over` (d over a's memory) where that is as long.
  template <class L, int R>
  view_of<L, T, R> view(std::array<std::size_t, R> ext, std::size_t pad = 0,
                        const std::vector<T>* over = nullptr) {
    L layout;
    std::array<std::size_t, R> stride{};
    std::size_t s = 1;
    for (int q = 0; q < R; ++q) {
      const int axis = std::is_same_v<L, Kokkos::LayoutLeft> ? q : R - 1 - q;
      stride[static_cast<std::size_t>(axis)] = s;
      s *= ext[static_cast<std::size_t>(axis)];
      if (std::is_same_v<L, Kokkos::LayoutStride> && q == R - 2) s += pad;
    }
    std::size_t span = 1;
    for (int q = 0; q < R; ++q) {
      layout.dimension[q] = ext[static_cast<std::size_t>(q)];
      if (ext[static_cast<std::size_t>(q)] == 0) span = 0;
      if constexpr (std::is_same_v<L, Kokkos::LayoutStride>)
        layout.stride[q] = stride[static_cast<std::size_t>(q)];
    }
    if (span != 0) {
      span = 1;
      for (int q = 0; q < R; ++q)
        span += (ext[static_cast<std::size_t>(q)] - 1) * stride[static_cast<std::size_t>(q)];
    }
    if (over != nullptr && over->size() >= span)
      return view_of<L, T, R>(const_cast<T*>(over->data()), layout);
    own_.emplace_back(span);
    return view_of<L, T, R>(own_.back().data(), layout);
  }
  // Interleaved packs: View<T*..*[W], LayoutRight>(ext...), the packs first, or over `over` as
  // above.
  template <int W, std::size_t R>
  Kokkos::View<typename data_type_of<T, static_cast<int>(R)>::type[W], Kokkos::LayoutRight,
               Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
  packs(const std::array<std::size_t, R>& ext, const std::vector<T>* over = nullptr) {
    using pack_view =
        Kokkos::View<typename data_type_of<T, static_cast<int>(R)>::type[W], Kokkos::LayoutRight,
                     Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    std::size_t span = W;
    for (const std::size_t e : ext) span *= e;
    T* data = nullptr;
    if (over != nullptr && over->size() >= span) {
      data = const_cast<T*>(over->data());
    } else {
      own_.emplace_back(span);
      data = own_.back().data();
    }
    return std::apply([&](auto... e) { return pack_view(data, e...); }, ext);
  }
  const std::vector<T>& last() const { return own_.back(); }
  // The last allocation holds diagonals (for the dominant mode of fill).
  void last_is_diagonal() { diagonal_.resize(own_.size() - 1, false), diagonal_.push_back(true); }
  // Values from the input's bytes: each rank reads them from its own place (shifted by `shift`
  // for a second arena), cyclically; complex values take their imaginary parts from other bytes,
  // in (-1, 1) in the dominant mode.
  void fill(const byte_reader& in, bool dominant, std::size_t shift = 0) {
    const std::size_t start = in.pos + 97 * static_cast<std::size_t>(my_rank) + shift;
    const auto byte_at = [&](std::size_t i) {
      return in.size == 0 ? 7u : static_cast<unsigned>(in.data[(start + i) % in.size]);
    };
    std::size_t i = 0, k = 0;
    for (auto& v : own_) {
      const bool diagonal = k < diagonal_.size() && diagonal_[k];
      ++k;
      for (auto& x : v) {
        const double re = dominant ? dominant_value(byte_at(i), diagonal)
                                   : fuzz::value_of(byte_at(i), i);
        if constexpr (is_complex_v<T>) {
          const std::size_t j = i + 31;
          const double im =
              dominant ? dominant_value(byte_at(j), false) : fuzz::value_of(byte_at(j), j);
          x = T(static_cast<real_t<T>>(re), static_cast<real_t<T>>(im));
        } else {
          x = static_cast<T>(re);
        }
        ++i;
      }
    }
  }

 private:
  std::deque<std::vector<T>> own_;  // deque: allocations stay put as more are added
  std::vector<bool> diagonal_;
};

// Value (s, i) of a batch View: row, column or strided (rank 2) or interleaved packs (rank 3).
template <class View>
typename View::non_const_value_type at(const View& v, std::size_t s, std::size_t i) {
  if constexpr (View::rank == 3) {
    constexpr std::size_t W = View::static_extent(2);
    return v(s / W, i, s % W);
  } else {
    return v(s, i);
  }
}

// x of one line of N rows of m unknowns from its blocks (row-major m x m: A_i, B_i, C_i of row
// i at a, b, c + i m^2; d: N m values) by Gaussian elimination with partial pivoting in long
// double on the dense matrix: A_i at block column i - 1 and C_i at i + 1, modulo N for a ring
// (entries that meet in one position add: n = 1 is (a + b + c) x = d), dropped at the ends else.
std::vector<long double> dense_solve(const std::vector<long double>& a,
                                     const std::vector<long double>& b,
                                     const std::vector<long double>& c, std::vector<long double> d,
                                     std::size_t m, bool ring) {
  const std::size_t N = d.size() / m, K = N * m;
  std::vector<long double> M(K * K, 0.0L);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t r = 0; r < m; ++r)
      for (std::size_t q = 0; q < m; ++q) {
        const std::size_t row = (i * m + r) * K, at_block = i * m * m + r * m + q;
        M[row + i * m + q] += b[at_block];
        if (i > 0 || ring) M[row + (i + N - 1) % N * m + q] += a[at_block];
        if (i + 1 < N || ring) M[row + (i + 1) % N * m + q] += c[at_block];
      }
  for (std::size_t k = 0; k < K; ++k) {
    std::size_t pivot = k;
    for (std::size_t i = k + 1; i < K; ++i)
      if (std::fabs(M[i * K + k]) > std::fabs(M[pivot * K + k])) pivot = i;
    for (std::size_t j = 0; j < K; ++j) std::swap(M[k * K + j], M[pivot * K + j]);
    std::swap(d[k], d[pivot]);
    for (std::size_t i = k + 1; i < K; ++i) {
      const long double l = M[i * K + k] / M[k * K + k];
      for (std::size_t j = k; j < K; ++j) M[i * K + j] -= l * M[k * K + j];
      d[i] -= l * d[k];
    }
  }
  for (std::size_t k = K; k-- > 0;) {
    for (std::size_t j = k + 1; j < K; ++j) d[k] -= M[k * K + j] * d[j];
    d[k] /= M[k * K + k];
  }
  return d;
}

// The oracle of the dominant mode: row(s, i) = the m^2 values of each of A, B, C (row-major), then
// m of the right-hand side before the solve and m of x, of this rank's row i of line s (m = 1:
// {a, b, c, d, x}), for the first nsys lines, gathered on rank 0, where x must match a dense
// solve of each whole line (a ring where `ring`) to `tol` of its largest |x|.
template <class Row>
void compare_with_whole(const plan& p, std::size_t nsys, std::size_t m, const Row& row, bool ring,
                        double tol) {
  const std::size_t n = p.here(), mm = m * m, per_row = 3 * mm + 2 * m;
  std::vector<double> mine;
  mine.reserve(per_row * nsys * n);
  for (std::size_t s = 0; s < nsys; ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (const double v : row(s, i)) mine.push_back(v);
  if (mine.size() != per_row * nsys * n) broken("compare_with_whole: rows of the wrong length");
  std::vector<int> counts(static_cast<std::size_t>(ranks)), offsets(counts.size());
  for (std::size_t r = 0, o = 0; r < counts.size(); o += p.rows[r] * nsys * per_row, ++r) {
    counts[r] = static_cast<int>(p.rows[r] * nsys * per_row);
    offsets[r] = static_cast<int>(o);
  }
  std::vector<double> all(my_rank == 0 ? per_row * nsys * p.total : 0);
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), counts.data(),
              offsets.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (my_rank != 0) return;
  const std::size_t N = p.total;
  std::vector<long double> la(N * mm), lb(N * mm), lc(N * mm), ld(N * m);
  std::vector<double> lx(N * m);
  for (std::size_t s = 0; s < nsys; ++s) {
    for (std::size_t r = 0, g = 0; r < counts.size(); g += p.rows[r], ++r)
      for (std::size_t i = 0; i < p.rows[r]; ++i) {
        const double* v =
            &all[static_cast<std::size_t>(offsets[r]) + (s * p.rows[r] + i) * per_row];
        for (std::size_t k = 0; k < mm; ++k)
          la[(g + i) * mm + k] = v[k], lb[(g + i) * mm + k] = v[mm + k],
                            lc[(g + i) * mm + k] = v[2 * mm + k];
        for (std::size_t k = 0; k < m; ++k)
          ld[(g + i) * m + k] = v[3 * mm + k], lx[(g + i) * m + k] = v[3 * mm + m + k];
      }
    const auto whole = dense_solve(la, lb, lc, ld, m, ring);
    long double largest = 0;
    for (const long double v : whole) largest = std::fabs(v) > largest ? std::fabs(v) : largest;
    for (std::size_t k = 0; k < N * m; ++k)
      if (!(std::fabs(lx[k] - whole[k]) <= tol * (largest + 1e-30L))) {
        char values[96];
        std::snprintf(values, sizeof(values), "x = %.17g, whole solve %.17g", lx[k],
                      static_cast<double>(whole[k]));
        broken(std::string(ring ? "ring " : "line ") + std::to_string(s) + " unknown " +
               std::to_string(k) + " of " + std::to_string(N * m) + " (m = " + std::to_string(m) +
               "): " + values);
      }
  }
}

// The right-hand side's values (s-major, over d's own extents) before a solve overwrites them.
template <class View>
std::vector<typename View::non_const_value_type> values_of(const View& d) {
  std::size_t slots = d.extent(0);
  if constexpr (View::rank == 3) slots *= View::static_extent(2);
  std::vector<typename View::non_const_value_type> v;
  for (std::size_t s = 0; s < slots; ++s)
    for (std::size_t i = 0; i < d.extent(1); ++i) v.push_back(at(d, s, i));
  return v;
}

// After a solve returned on every rank in the dominant mode: no line is singular, and each
// matches a dense solve of the whole line (compare_with_whole), float to 1e-4, double to 1e-12.
// m: unknowns per row of the oracle's lines (block lines; 2 for complex scalar lines), 1 for real
// scalar lines.
template <class T, class Info, class Row>
void check_dominant(const plan& p, const Info& info, const Row& row, bool ring,
                    std::size_t m = 1) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "T: the real type");
  for (std::size_t s = 0; s < info.extent(0); ++s)
    if (info(s) != 0)
      broken("dominant line " + std::to_string(s) + " has info " + std::to_string(info(s)));
  compare_with_whole(p, info.extent(0), m, row, ring, sizeof(T) == 4 ? 1e-4 : 1e-12);
  if (keep_tally)
    ++tally[std::string("(solves compared, m = ") + std::to_string(m) +
            (sizeof(T) == 4 ? ", float" : ", double") + (ring ? ", periodic)" : ")")][0];
}

// row(s, i) of compare_with_whole for batch Views; rhs: values_of(d) before the solve.
template <class CView, class DView, class TD>
auto batch_rows(const CView& a, const CView& b, const CView& c, const std::vector<TD>& rhs,
                const DView& x) {
  return [&, n = x.extent(1)](std::size_t s, std::size_t i) {
    return line_row(at(a, s, i), at(b, s, i), at(c, s, i), rhs[s * n + i], at(x, s, i));
  };
}

// nsys for factorize: every slot (the default), this batch's, or one the input chooses.
std::size_t nsys_argument(byte_reader& in, const plan& p) {
  const unsigned pick = in.below(4);
  const std::size_t n = pick == 0   ? static_cast<std::size_t>(-1)
                        : pick == 1 ? in.below(10)
                                    : p.nsys;
  return p.odd(6) && n != static_cast<std::size_t>(-1) ? n + 1 : n;
}

// Factor, solve, refactor with other coefficients, solve again; every step agreed.
// after_solve(f) runs on every rank after the first solve returned on every rank.
template <class Factor, class DView, class Refactor, class AfterSolve>
void factored(const char* name, std::size_t rows, const Factor& factor, const DView& d,
              const DView& d2, const Refactor& refactor, const AfterSolve& after_solve) {
  const outcome made = run([&] {
    auto f = factor();
    agree(name, {}, codes(f.info(), rows));
    const outcome solved = run([&] { f.solve(exec_space(), d2); });
    agree("factorization::solve", solved, codes(f.info(), rows));
    if (solved.returned) after_solve(f);
    const outcome again = run([&] { refactor(f); });
    agree("factorization::refactor", again, codes(f.info(), rows));
    const outcome last = run([&] { f.solve(exec_space(), d); });
    agree("factorization::solve after refactor", last, codes(f.info(), rows));
  });
  if (!made.returned) agree(name, made, 0);
}

// The calls on scalar lines (filled): one-shot, or factorize (nsys_arg), solve d2, refactor with
// a2 for a, solve d; on the host passes or the device backend's; checked against dense solves of
// the whole lines where the plan's lines are dominant.
template <class Algo, class CView, class DView, class Info>
void scalar_calls(const plan& p, bool factor, bool device, const CView& a, const CView& b,
                  const CView& c, const DView& d, const DView& d2, const CView& a2,
                  const Info& info, std::size_t nsys_arg) {
  using TD = typename DView::non_const_value_type;
  const auto rhs = values_of(d), rhs2 = values_of(d2);
  constexpr bool ring = std::is_same_v<Algo, bs::algo::periodic>;
  const auto opts = p.options_here();
  const exec_space exec;
  const MPI_Comm comm = MPI_COMM_WORLD;
  if (!factor) {
    const outcome o = run([&] {
      if (device)
        bmpi::solve(exec, comm, Algo{}, a, b, c, d, info, opts, bs::backend::device{});
      else
        bmpi::solve(exec, comm, Algo{}, a, b, c, d, info, opts);
    });
    agree("mpi::solve", o, o.returned ? codes(info, p.total) : 0);
    if (o.returned && p.dominant)
      check_dominant<real_t<TD>>(p, info, batch_rows(a, b, c, rhs, d), ring, oracle_m<TD>);
    return;
  }
  const auto refactor = [&](auto& f) { f.refactor(exec, a2, b, c); };
  const auto after_solve = [&](const auto& f) {
    if (p.dominant)
      check_dominant<real_t<TD>>(p, f.info(), batch_rows(a, b, c, rhs2, d2), ring,
                                 oracle_m<TD>);
  };
  if (device)
    factored(
        "mpi::factorize(device)", p.total,
        [&] {
          return bmpi::factorize(exec, comm, Algo{}, a, b, c, nsys_arg, opts,
                                 bs::backend::device{});
        },
        d, d2, refactor, after_solve);
  else
    factored(
        "mpi::factorize", p.total,
        [&] { return bmpi::factorize(exec, comm, Algo{}, a, b, c, nsys_arg, opts); }, d, d2,
        refactor, after_solve);
}

// Scalar lines in a batch of layout L: one-shot or factored, with ends or periodic; coefficients
// of type T, right-hand sides of type TD (T, or complex over real T); d over a's memory now and
// then where the types agree.
template <class L, class T, class Algo, class TD = T>
void scalar_lines(byte_reader& in, const plan& p, bool factor, bool device) {
  const std::size_t nsys = p.nsys, n = p.here();
  const std::size_t pad = in.below(3);
  arena<T> mem;
  arena<TD> rhs_mem;
  auto& dmem = [&]() -> arena<TD>& {
    if constexpr (std::is_same_v<T, TD>)
      return mem;
    else
      return rhs_mem;
  }();
  auto a = mem.template view<L, 2>({p.off(6, nsys), p.off(0, n)}, pad);
  const auto& a_memory = mem.last();
  auto b = mem.template view<L, 2>({p.off(6, nsys), p.off(1, n)}, pad);
  mem.last_is_diagonal();
  auto c = mem.template view<L, 2>({p.off(6, nsys), n}, pad);
  const std::vector<TD>* over = nullptr;
  if constexpr (std::is_same_v<T, TD>) over = p.odd(8) ? &a_memory : nullptr;
  auto d = dmem.template view<L, 2>({p.off(6, p.off(2, nsys)), p.off(3, n)}, pad, over);
  auto d2 = dmem.template view<L, 2>({p.off(6, nsys), p.off(4, n)}, pad);
  auto a2 = mem.template view<L, 2>({p.off(6, nsys), p.off(5, n)}, pad);
  const info_view info("info", p.off(6, p.off(9, nsys)));
  const std::size_t nsys_arg = nsys_argument(in, p);
  mem.fill(in, p.dominant);
  if constexpr (!std::is_same_v<T, TD>) rhs_mem.fill(in, p.dominant, 13);
  scalar_calls<Algo>(p, factor, device, a, b, c, d, d2, a2, info, nsys_arg);
}

// Scalar lines of type T in interleaved<W> packs, with ends or periodic (Algo): nsys from info
// (one-shot) or the nsys argument (factored), padding lanes in the last pack.
template <int W, class T, class Algo = bs::algo::thomas>
void packed_lines(byte_reader& in, const plan& p, bool factor, bool device) {
  const std::size_t nsys = p.nsys, n = p.here(), count = (nsys + W - 1) / W + in.below(2);
  using ext = std::array<std::size_t, 2>;
  arena<T> mem;
  auto a = mem.template packs<W>(ext{p.off(6, count), p.off(0, n)});
  const auto& a_memory = mem.last();
  auto b = mem.template packs<W>(ext{p.off(6, count), p.off(1, n)});
  mem.last_is_diagonal();
  auto c = mem.template packs<W>(ext{p.off(6, count), n});
  auto d = mem.template packs<W>(ext{p.off(2, count), p.off(3, n)}, p.odd(8) ? &a_memory : nullptr);
  auto d2 = mem.template packs<W>(ext{count, p.off(4, n)});
  auto a2 = mem.template packs<W>(ext{count, p.off(5, n)});
  const info_view info("info", p.off(6, p.off(9, nsys)));
  const std::size_t nsys_arg = nsys_argument(in, p);
  mem.fill(in, p.dominant);
  scalar_calls<Algo>(p, factor, device, a, b, c, d, d2, a2, info, nsys_arg);
}

// Row i of line s along `axis` of an array of extents ext: the lines numbered over the other
// axes in order, the last fastest (solve_along's numbering of info).
template <std::size_t R>
std::array<std::size_t, R> line_index(const std::array<std::size_t, R>& ext, std::size_t axis,
                                      std::size_t s, std::size_t i) {
  std::array<std::size_t, R> idx{};
  for (std::size_t k = R; k-- > 0;) {
    if (k == axis) {
      idx[k] = i;
    } else {
      idx[k] = s % ext[k];
      s /= ext[k];
    }
  }
  return idx;
}

// v(idx[0], ..., idx[R - 1]), and where that value lies from v.data().
template <class View, std::size_t R>
decltype(auto) element(const View& v, const std::array<std::size_t, R>& idx) {
  return std::apply([&](auto... k) -> decltype(auto) { return v(k...); }, idx);
}
template <class View, std::size_t R>
std::size_t offset_of(const View& v, const std::array<std::size_t, R>& idx) {
  std::size_t o = 0;
  for (std::size_t k = 0; k < R; ++k) o += idx[k] * v.stride(k);
  return o;
}

// The shape of lines along an axis of an R-D array: the axis this rank's part lies along (R: out
// of range, now and then, not where the input has run out), the axis it passes (another one on
// the odd rank), the extents (this rank's rows on the axis, 0 to 3 on the others) and the lines.
template <std::size_t R>
struct along_shape {
  unsigned axis_here = 0;
  int axis = 0;
  std::array<std::size_t, R> ext{};
  std::size_t lines = 1;
};

template <std::size_t R>
along_shape<R> decode_along_shape(byte_reader& in, const plan& p) {
  along_shape<R> shape;
  shape.axis_here =
      in.below(8) == 7 ? static_cast<unsigned>(R) : in.below(static_cast<unsigned>(R));
  shape.axis = static_cast<int>(p.odd(2) ? (shape.axis_here + 1) % (R + 1) : shape.axis_here);
  for (std::size_t k = 0; k < R; ++k) shape.ext[k] = in.below(4);
  if (shape.axis_here < R) shape.ext[shape.axis_here] = p.here();
  for (std::size_t k = 0; k < R; ++k)
    if (k != shape.axis_here) shape.lines *= shape.ext[k];
  return shape;
}

// Lines along an axis of an R-D array (R = 2 to 4) of layout L, with full coefficients or shared
// ones (rank 1, this rank's part of one line).
template <class L, class Algo, int R>
void along_lines(byte_reader& in, const plan& p, bool factor, bool shared, bool device) {
  constexpr std::size_t UR = static_cast<std::size_t>(R);
  const auto shape = decode_along_shape<UR>(in, p);
  const unsigned axis_here = shape.axis_here;
  const int axis = shape.axis;
  const std::size_t lines = shape.lines;
  auto ext = shape.ext;
  const auto coefficient_ext = ext;
  if (p.odd(0)) ext[(axis_here + 1) % UR] += 1;  // d's batch extents differ from the others'
  arena<double> mem;
  auto d = mem.view<L, R>(ext);
  auto d2 = mem.view<L, R>(ext);
  const info_view info("info", p.off(9, lines));
  const std::size_t n = p.here();
  // a, b, c and a2 (a for the refactor): shared by every line (rank 1) or full arrays.
  const auto coefficients = [&](auto rank_tag) {
    if constexpr (decltype(rank_tag)::value == 1) {
      auto a = mem.template view<L, 1>({n});
      auto b = mem.template view<L, 1>({p.off(1, n)});
      mem.last_is_diagonal();
      return std::array{a, b, mem.template view<L, 1>({n}), mem.template view<L, 1>({p.off(5, n)})};
    } else {
      auto b_ext = coefficient_ext;
      if (p.odd(1) && axis_here < UR) b_ext[axis_here] += 1;
      auto a = mem.template view<L, R>(coefficient_ext);
      auto b = mem.template view<L, R>(b_ext);
      mem.last_is_diagonal();
      return std::array{a, b, mem.template view<L, R>(coefficient_ext),
                        mem.template view<L, R>(coefficient_ext)};
    }
  };
  // row(s, i) of compare_with_whole: line s numbered as info numbers it.
  const auto along_rows = [&](const auto& abc, const std::vector<double>& rhs, const auto& x) {
    return [&, axis_here](std::size_t s, std::size_t i) {
      const auto idx = line_index(ext, axis_here, s, i);
      const auto value = [&](const auto& v) {
        if constexpr (std::decay_t<decltype(v)>::rank == 1)
          return v(i);
        else
          return element(v, idx);
      };
      return std::array<double, 5>{value(abc[0]), value(abc[1]), value(abc[2]),
                                   rhs[offset_of(x, idx)], element(x, idx)};
    };
  };
  const auto go = [&](auto rank_tag) {
    const auto abc = coefficients(rank_tag);
    mem.fill(in, p.dominant);
    const std::vector<double> rhs(d.data(), d.data() + d.span()),
        rhs2(d2.data(), d2.data() + d2.span());
    constexpr bool ring = std::is_same_v<Algo, bs::algo::periodic>;
    const auto opts = p.options_here();
    const exec_space exec;
    const MPI_Comm comm = MPI_COMM_WORLD;
    if (!factor) {
      const outcome o = run([&] {
        if (device)
          bmpi::solve_along(exec, comm, Algo{}, axis, abc[0], abc[1], abc[2], d, info, opts,
                            bs::backend::device{});
        else
          bmpi::solve_along(exec, comm, Algo{}, axis, abc[0], abc[1], abc[2], d, info, opts);
      });
      agree("mpi::solve_along", o, o.returned ? codes(info, p.total) : 0);
      if (o.returned && p.dominant) check_dominant<double>(p, info, along_rows(abc, rhs, d), ring);
      return;
    }
    const auto after_solve = [&](const auto& f) {
      if (p.dominant) check_dominant<double>(p, f.info(), along_rows(abc, rhs2, d2), ring);
    };
    // Shared coefficients take d after them (the extents to factor for), full ones do not.
    if constexpr (decltype(rank_tag)::value == 1)
      factored(
          "mpi::factorize_along", p.total,
          [&] {
            return bmpi::factorize_along(exec, comm, Algo{}, axis, abc[0], abc[1], abc[2], d, opts);
          },
          d, d2, [&](auto& f) { f.refactor(exec, abc[3], abc[1], abc[2], d2); }, after_solve);
    else
      factored(
          "mpi::factorize_along", p.total,
          [&] {
            return bmpi::factorize_along(exec, comm, Algo{}, axis, abc[0], abc[1], abc[2], opts);
          },
          d, d2, [&](auto& f) { f.refactor(exec, abc[3], abc[1], abc[2]); }, after_solve);
  };
  if (shared)
    go(std::integral_constant<int, 1>{});
  else
    go(std::integral_constant<int, R>{});
}

// Block batch Views: the pack width W of interleaved packs (their static last extent), 0 for
// row, column and strided batches; coefficient (s, i, r, q), right-hand side k of (s, i, r) and
// the right-hand sides per system of d (rank 3, or 4 with nrhs last; packs: one more, W).
template <class View>
constexpr std::size_t pack_width_v = View::static_extent(View::rank - 1);

template <class View>
decltype(auto) coefficient(const View& v, std::size_t s, std::size_t i, std::size_t r,
                           std::size_t q) {
  constexpr std::size_t W = pack_width_v<View>;
  if constexpr (W > 0)
    return v(s / W, i, r, q, s % W);
  else
    return v(s, i, r, q);
}

template <class View>
decltype(auto) rhs_value(const View& v, std::size_t s, std::size_t i, std::size_t r,
                         std::size_t k) {
  constexpr std::size_t W = pack_width_v<View>;
  if constexpr (W > 0 && View::rank == 5)
    return v(s / W, i, r, k, s % W);
  else if constexpr (W > 0)
    return v(s / W, i, r, s % W);
  else if constexpr (View::rank == 4)
    return v(s, i, r, k);
  else
    return v(s, i, r);
}

template <class View>
std::size_t rhs_count(const View& v) {
  constexpr bool packs = pack_width_v<View> > 0;
  return View::rank == (packs ? 5 : 4) ? v.extent(3) : 1;
}

// Entry (u, w) of the k x k real block of coefficient z in the oracle's lines: a complex z's
// product (re, -im; im, re); a real z over complex d on the diagonal (k = 2), or itself (k = 1).
template <class T>
double real_block_entry(const T& z, std::size_t u, std::size_t w) {
  if constexpr (is_complex_v<T>)
    return u == w ? double(z.real()) : u == 0 ? -double(z.imag()) : double(z.imag());
  else
    return u == w ? double(z) : 0.0;
}

// A right-hand side or solution value as the oracle reads it: a real one as itself, a complex one
// as its two parts.
template <class T>
void push_parts(std::vector<double>& row, const T& z) {
  if constexpr (is_complex_v<T>)
    row.insert(row.end(), {double(z.real()), double(z.imag())});
  else
    row.push_back(double(z));
}

// row(s, i) of compare_with_whole for right-hand side k of block lines: A, B, C of block row i of
// line s as real blocks of oracle_m<TD> m unknowns, then right-hand side k before the solve (from
// `before`, a copy of x's span) and x.
template <class CView, class DView, class TD>
auto block_line_rows(const CView& a, const CView& b, const CView& c, std::size_t m,
                     const std::vector<TD>& before, const DView& x, std::size_t k) {
  return [&, m, k](std::size_t s, std::size_t i) {
    constexpr std::size_t parts = oracle_m<TD>;
    std::vector<double> row;
    for (const CView* v : {&a, &b, &c})
      for (std::size_t r = 0; r < m * parts; ++r)
        for (std::size_t q = 0; q < m * parts; ++q)
          row.push_back(real_block_entry(coefficient(*v, s, i, r / parts, q / parts), r % parts,
                                         q % parts));
    for (std::size_t r = 0; r < m; ++r)
      push_parts(row, before[static_cast<std::size_t>(&rhs_value(x, s, i, r, k) - x.data())]);
    for (std::size_t r = 0; r < m; ++r) push_parts(row, rhs_value(x, s, i, r, k));
    return row;
  };
}

// In the dominant mode: every entry in (-1, 1) (real and imaginary parts) but B's diagonals, whose
// real parts outweigh the 3m - 1 other entries of their rows: strictly diagonally dominant lines.
template <class CView>
void make_dominant(const CView& b, std::size_t m) {
  using T = typename CView::non_const_value_type;
  const std::size_t W = pack_width_v<CView>, slots = b.extent(0) * (W > 0 ? W : 1);
  for (std::size_t s = 0; s < slots; ++s)
    for (std::size_t i = 0; i < b.extent(1); ++i)
      for (std::size_t r = 0; r < b.extent(2) && r < b.extent(3); ++r) {
        auto& z = coefficient(b, s, i, r, r);
        if constexpr (is_complex_v<T>)
          z = T(static_cast<real_t<T>>(6 * m) + std::fabs(z.real()), z.imag());
        else
          z = static_cast<T>(3 * m) + std::fabs(z);
      }
}

// The calls on block lines (filled): one-shot, or factorize (nsys_arg), solve d2, refactor with
// a2 for a, solve d; where the plan's lines are dominant, each right-hand side checked against a
// dense solve of the whole lines.
template <class CView, class DView>
void block_calls(const plan& p, bool factor, const bs::algo::block_thomas& algorithm,
                 std::size_t m, const CView& a, const CView& b, const CView& c, const CView& a2,
                 const DView& d, const DView& d2, const info_view& info, std::size_t nsys_arg) {
  using TD = typename DView::non_const_value_type;
  if (p.dominant) make_dominant(b, m);
  const std::vector<TD> rhs(d.data(), d.data() + d.span()), rhs2(d2.data(), d2.data() + d2.span());
  const auto check = [&](const auto& codes_of_lines, const std::vector<TD>& before,
                         const DView& x) {
    for (std::size_t k = 0; k < rhs_count(x); ++k)
      check_dominant<real_t<TD>>(p, codes_of_lines, block_line_rows(a, b, c, m, before, x, k),
                                 false, m * oracle_m<TD>);
  };
  const auto opts = p.options_here();
  const exec_space exec;
  const MPI_Comm comm = MPI_COMM_WORLD;
  if (!factor) {
    const outcome o = run([&] { bmpi::solve(exec, comm, algorithm, a, b, c, d, info, opts); });
    agree("mpi::solve(block_thomas)", o, o.returned ? codes(info, p.total) : 0);
    if (o.returned && p.dominant) check(info, rhs, d);
    return;
  }
  factored(
      "mpi::factorize(block_thomas)", p.total,
      [&] { return bmpi::factorize(exec, comm, algorithm, a, b, c, nsys_arg, opts); }, d, d2,
      [&](auto& f) { f.refactor(exec, a2, b, c); },
      [&](const auto& f) {
        if (p.dominant) check(f.info(), rhs2, d2);
      });
}

// m (1 to 4, 5 on the odd rank where it picks; this build compiles 2 and 3) and the algorithm,
// with or without pivoting, of block lines.
std::pair<std::size_t, bs::algo::block_thomas> decode_blocks(byte_reader& in, const plan& p) {
  const std::size_t m_all = 1 + in.below(4), m = p.odd(2) ? m_all + 1 : m_all;
  return {m, in.below(2) ? bs::algo::block_thomas{bs::algo::block_thomas::pivoting::partial}
                         : bs::algo::block_thomas{}};
}

// Block lines (m x m blocks) in a batch of layout L: blocks of type T, d of type TD (T, or
// complex over real T) with one right-hand side per system (DRank 3) or 1 to 3 (DRank 4),
// one-shot or factored.
template <class L, class T, class TD = T, int DRank = 3>
void block_lines(byte_reader& in, const plan& p, bool factor) {
  const auto [m, algorithm] = decode_blocks(in, p);
  const std::size_t nsys = p.nsys, n = p.here();
  const std::size_t nrhs = DRank == 4 ? 1 + in.below(3) : 0;
  const auto rhs_ext = [&](std::size_t systems, std::size_t rows, std::size_t unknowns) {
    std::array<std::size_t, DRank> ext{systems, rows, unknowns};
    if constexpr (DRank == 4) ext[3] = p.off(10, nrhs);
    return ext;
  };
  arena<T> mem;
  arena<TD> rhs_mem;
  auto a = mem.template view<L, 4>({p.off(6, nsys), n, m, m});
  auto b = mem.template view<L, 4>({p.off(6, nsys), p.off(1, n), m, p.off(0, m)});
  auto c = mem.template view<L, 4>({p.off(6, nsys), n, m, m});
  auto a2 = mem.template view<L, 4>({p.off(6, nsys), p.off(5, n), m, m});
  auto d = rhs_mem.template view<L, DRank>(rhs_ext(p.off(6, nsys), p.off(3, n), m));
  auto d2 = rhs_mem.template view<L, DRank>(rhs_ext(p.off(6, nsys), n, p.off(4, m)));
  const info_view info("info", p.off(6, p.off(9, nsys)));
  const std::size_t nsys_arg = nsys_argument(in, p);
  mem.fill(in, p.dominant);
  rhs_mem.fill(in, p.dominant, 13);
  block_calls(p, factor, algorithm, m, a, b, c, a2, d, d2, info, nsys_arg);
}

// Block lines of type T in interleaved<W> packs, d with one right-hand side per system or 1 to 3
// (DRank 4: View<T****[W]>), padding lanes in the last pack.
template <int W, class T, int DRank>
void block_packs(byte_reader& in, const plan& p, bool factor) {
  const auto [m, algorithm] = decode_blocks(in, p);
  const std::size_t nsys = p.nsys, n = p.here(), count = (nsys + W - 1) / W + in.below(2);
  const std::size_t nrhs = DRank == 4 ? 1 + in.below(3) : 0;
  const auto rhs_ext = [&](std::size_t packs, std::size_t rows, std::size_t unknowns) {
    std::array<std::size_t, DRank> ext{packs, rows, unknowns};
    if constexpr (DRank == 4) ext[3] = p.off(10, nrhs);
    return ext;
  };
  using blocks = std::array<std::size_t, 4>;
  arena<T> mem;
  arena<T> rhs_mem;
  auto a = mem.template packs<W>(blocks{p.off(6, count), n, m, m});
  auto b = mem.template packs<W>(blocks{p.off(6, count), p.off(1, n), m, p.off(0, m)});
  auto c = mem.template packs<W>(blocks{p.off(6, count), n, m, m});
  auto a2 = mem.template packs<W>(blocks{count, p.off(5, n), m, m});
  auto d = rhs_mem.template packs<W>(rhs_ext(p.off(2, count), p.off(3, n), m));
  auto d2 = rhs_mem.template packs<W>(rhs_ext(count, n, p.off(4, m)));
  const info_view info("info", p.off(6, p.off(9, nsys)));
  const std::size_t nsys_arg = nsys_argument(in, p);
  mem.fill(in, p.dominant);
  rhs_mem.fill(in, p.dominant, 13);
  block_calls(p, factor, algorithm, m, a, b, c, a2, d, d2, info, nsys_arg);
}

// Calls f(idx) for every index of an array of extents ext, the last fastest.
template <std::size_t R, class F>
void for_each_index(const std::array<std::size_t, R>& ext, const F& f) {
  std::size_t total = 1;
  for (const std::size_t e : ext) total *= e;
  for (std::size_t flat = 0; flat < total; ++flat) {
    std::array<std::size_t, R> idx{};
    for (std::size_t k = R, q = flat; k-- > 0; q /= ext[k]) idx[k] = q % ext[k];
    f(idx);
  }
}

// idx with `more` appended.
template <std::size_t R, std::size_t K>
std::array<std::size_t, R + K> joined(const std::array<std::size_t, R>& idx,
                                      const std::array<std::size_t, K>& more) {
  std::array<std::size_t, R + K> all{};
  for (std::size_t k = 0; k < R; ++k) all[k] = idx[k];
  for (std::size_t k = 0; k < K; ++k) all[R + k] = more[k];
  return all;
}

template <class View>
std::array<std::size_t, View::rank> extents_of(const View& v) {
  std::array<std::size_t, View::rank> ext{};
  for (std::size_t k = 0; k < View::rank; ++k) ext[k] = v.extent(k);
  return ext;
}

// Block lines along an axis of an R-D grid (R = 2 or 3) of m unknowns per point in layout L (d:
// rank R + 1), blocks of every line (rank R + 2) or shared by every line (n_r x m x m), one-shot
// or factored, with or without pivoting.
template <class L, int R>
void block_along_lines(byte_reader& in, const plan& p, bool factor, bool shared) {
  constexpr std::size_t UR = static_cast<std::size_t>(R);
  const std::size_t m_all = 1 + in.below(4), m = p.odd(3) ? m_all + 1 : m_all;
  const bs::algo::block_thomas algorithm =
      in.below(2) ? bs::algo::block_thomas{bs::algo::block_thomas::pivoting::partial}
                  : bs::algo::block_thomas{};
  const auto shape = decode_along_shape<UR>(in, p);
  const unsigned axis_here = shape.axis_here;
  const int axis = shape.axis;
  const std::size_t lines = shape.lines;
  auto ext = shape.ext;
  const auto block_ext = joined(ext, std::array{m, m});
  if (p.odd(0)) ext[(axis_here + 1) % UR] += 1;  // d's batch extents differ from the blocks'
  auto d2_ext = joined(ext, std::array{m});
  if (p.odd(4)) d2_ext[UR] += 1;
  arena<double> mem;
  auto d = mem.view<L, R + 1>(joined(ext, std::array{m}));
  auto d2 = mem.view<L, R + 1>(d2_ext);
  const info_view info("info", p.off(9, lines));
  const std::size_t n = p.here();
  // row(s, i) of compare_with_whole: the blocks of row i of line s, its right-hand side and x.
  const auto block_rows = [&](const auto& abc, const std::vector<double>& before, const auto& x) {
    return [&, axis_here](std::size_t s, std::size_t i) {
      const auto idx = line_index(ext, axis_here, s, i);
      std::vector<double> row;
      for (std::size_t k = 0; k < 3; ++k)
        for (std::size_t r = 0; r < m; ++r)
          for (std::size_t q = 0; q < m; ++q) {
            if constexpr (std::decay_t<decltype(abc[0])>::rank == 3)
              row.push_back(abc[k](i, r, q));
            else
              row.push_back(element(abc[k], joined(idx, std::array{r, q})));
          }
      for (std::size_t r = 0; r < m; ++r)
        row.push_back(before[offset_of(x, joined(idx, std::array{r}))]);
      for (std::size_t r = 0; r < m; ++r) row.push_back(element(x, joined(idx, std::array{r})));
      return row;
    };
  };
  const auto go = [&](auto abc) {
    mem.fill(in, p.dominant);
    // Dominant mode: B's diagonals outweigh the 3m - 1 other entries of their rows.
    if (p.dominant)
      for_each_index(extents_of(abc[1]), [&](const auto& idx) {
        constexpr std::size_t K = std::tuple_size_v<std::decay_t<decltype(idx)>>;
        if (idx[K - 1] == idx[K - 2])
          element(abc[1], idx) = static_cast<double>(3 * m) + std::fabs(element(abc[1], idx));
      });
    const std::vector<double> rhs(d.data(), d.data() + d.span()),
        rhs2(d2.data(), d2.data() + d2.span());
    const auto opts = p.options_here();
    const exec_space exec;
    const MPI_Comm comm = MPI_COMM_WORLD;
    if (!factor) {
      const outcome o = run([&] {
        bmpi::solve_along(exec, comm, algorithm, axis, abc[0], abc[1], abc[2], d, info, opts);
      });
      agree("mpi::solve_along(block_thomas)", o, o.returned ? codes(info, p.total) : 0);
      if (o.returned && p.dominant)
        check_dominant<double>(p, info, block_rows(abc, rhs, d), false, m);
      return;
    }
    const auto after_solve = [&](const auto& f) {
      if (p.dominant) check_dominant<double>(p, f.info(), block_rows(abc, rhs2, d2), false, m);
    };
    const auto refactor = [&](auto& f) { f.refactor(exec, abc[3], abc[1], abc[2]); };
    // Shared blocks take d after them (the extents to factor for), full ones do not.
    if constexpr (std::decay_t<decltype(abc[0])>::rank == 3)
      factored(
          "mpi::factorize_along(block_thomas)", p.total,
          [&] {
            return bmpi::factorize_along(exec, comm, algorithm, axis, abc[0], abc[1], abc[2], d,
                                         opts);
          },
          d, d2, refactor, after_solve);
    else
      factored(
          "mpi::factorize_along(block_thomas)", p.total,
          [&] {
            return bmpi::factorize_along(exec, comm, algorithm, axis, abc[0], abc[1], abc[2],
                                         opts);
          },
          d, d2, refactor, after_solve);
  };
  // a, b, c and a2 (a for the refactor), b and a2 one row longer on the odd rank where it picks.
  if (shared) {
    auto a = mem.view<L, 3>({n, m, m});
    auto b = mem.view<L, 3>({p.off(1, n), m, m});
    auto c = mem.view<L, 3>({n, m, m});
    go(std::array{a, b, c, mem.view<L, 3>({p.off(5, n), m, m})});
  } else {
    auto longer = [&](unsigned k) {
      auto e = block_ext;
      if (p.odd(k) && axis_here < UR) e[axis_here] += 1;
      return e;
    };
    auto a = mem.view<L, R + 2>(block_ext);
    auto b = mem.view<L, R + 2>(longer(1));
    auto c = mem.view<L, R + 2>(block_ext);
    go(std::array{a, b, c, mem.view<L, R + 2>(longer(5))});
  }
}

template <class L>
void one_layout(byte_reader& in, const plan& p, unsigned family) {
  const bool device = in.below(4) == 0;
  switch (family) {
    case 0:
      return scalar_lines<L, double, bs::algo::thomas>(in, p, false, device);
    case 1:
      return scalar_lines<L, double, bs::algo::periodic>(in, p, false, device);
    case 2:
      return scalar_lines<L, double, bs::algo::thomas>(in, p, true, device);
    case 3:
      return scalar_lines<L, double, bs::algo::periodic>(in, p, true, device);
    case 4:
      return scalar_lines<L, float, bs::algo::thomas>(in, p, in.below(2), device);
    case 5:
    case 6:
      if (in.below(4) == 0) return block_lines<L, double, double, 4>(in, p, family == 6);
      return block_lines<L, double>(in, p, family == 6);
    case 7:
      switch (in.below(8)) {
        case 0:
          return packed_lines<4, double>(in, p, in.below(2), device);
        case 1:
          return packed_lines<8, float>(in, p, in.below(2), device);
        case 2:
          return packed_lines<2, complex_t>(in, p, in.below(2), device);
        case 3:
          return block_packs<4, double, 3>(in, p, in.below(2));
        case 4:
          return packed_lines<4, double, bs::algo::periodic>(in, p, in.below(2), device);
        case 5:
          return packed_lines<8, float, bs::algo::periodic>(in, p, in.below(2), device);
        case 6:
          return packed_lines<4, complex_float, bs::algo::periodic>(in, p, in.below(2), device);
        default:
          return block_packs<2, complex_t, 4>(in, p, in.below(2));
      }
    case 8:
      switch (in.below(7)) {
        case 0:
          return scalar_lines<L, complex_t, bs::algo::thomas>(in, p, in.below(2), device);
        case 1:
          return scalar_lines<L, complex_t, bs::algo::periodic>(in, p, in.below(2), device);
        case 2:
          return scalar_lines<L, double, bs::algo::thomas, complex_t>(in, p, in.below(2), device);
        case 3:
          return scalar_lines<L, complex_float, bs::algo::thomas>(in, p, in.below(2), device);
        case 4:
          return scalar_lines<L, complex_float, bs::algo::periodic>(in, p, in.below(2), device);
        case 5:
          return scalar_lines<L, float, bs::algo::thomas, complex_float>(in, p, in.below(2),
                                                                         device);
        default:
          return scalar_lines<L, double, bs::algo::periodic, complex_t>(in, p, in.below(2),
                                                                        device);
      }
    default:
      switch (in.below(3)) {
        case 0:
          return block_lines<L, float>(in, p, in.below(2));
        case 1:
          return block_lines<L, complex_t>(in, p, in.below(2));
        default:
          return block_lines<L, double, complex_t>(in, p, in.below(2));
      }
  }
}

template <class L, int R>
void along_layout(byte_reader& in, const plan& p, unsigned kind) {
  const bool device = in.below(4) == 0;
  switch (kind) {
    case 0:
      return along_lines<L, bs::algo::thomas, R>(in, p, false, false, device);
    case 1:
      return along_lines<L, bs::algo::periodic, R>(in, p, false, false, device);
    case 2:
      return along_lines<L, bs::algo::thomas, R>(in, p, false, true, device);
    default:
      return along_lines<L, bs::algo::thomas, R>(in, p, true, in.below(2), false);
  }
}

// Lines along an axis of a 2-D, 3-D or 4-D array (kind as along_layout takes it), or block lines
// along an axis of a 2-D or 3-D grid (block: factored, shared blocks).
template <class L>
void along_rank(byte_reader& in, const plan& p, unsigned kind, bool block, bool factor,
                bool shared) {
  const unsigned rank = 2 + in.below(block ? 2 : 3);
  if (block) {
    if (rank == 2) block_along_lines<L, 2>(in, p, factor, shared);
    if (rank == 3) block_along_lines<L, 3>(in, p, factor, shared);
    return;
  }
  if (rank == 2) along_layout<L, 2>(in, p, kind);
  if (rank == 3) along_layout<L, 3>(in, p, kind);
  if (rank == 4) along_layout<L, 4>(in, p, kind);
}

void run_case(const std::uint8_t* data, std::size_t size) {
  byte_reader in{data, size};
  const plan p = decode_plan(in);
  const unsigned family = in.below(15), layout = in.below(3);
  if (family < 10) {
    if (layout == 0) one_layout<Kokkos::LayoutRight>(in, p, family);
    if (layout == 1) one_layout<Kokkos::LayoutLeft>(in, p, family);
    if (layout == 2) one_layout<Kokkos::LayoutStride>(in, p, family);
  } else {
    const bool block = family >= 13;
    const unsigned kind = block ? 0 : family - 10 + in.below(2);
    const bool factor = family == 14, shared = in.below(2);
    if (layout == 1)
      along_rank<Kokkos::LayoutLeft>(in, p, kind, block, factor, shared);
    else
      along_rank<Kokkos::LayoutRight>(in, p, kind, block, factor, shared);
  }
}

// Ranks other than 0: run every input rank 0 broadcasts until it broadcasts a length of -1.
void follow() {
  for (;;) {
    long long length = 0;
    MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (length < 0) return;
    current_input.resize(static_cast<std::size_t>(length));
    MPI_Bcast(current_input.data(), static_cast<int>(length), MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    run_case(current_input.data(), current_input.size());
  }
}

extern "C" void save_input_and_abort(int) {
  save_input();
  std::signal(SIGABRT, SIG_DFL);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Kokkos::initialize();
  bstest::poison_view_tails();
  if (my_rank != 0) {
    __sanitizer_set_death_callback(save_input);
    std::signal(SIGABRT, save_input_and_abort);
    follow();
    Kokkos::finalize();
    MPI_Finalize();
    std::_Exit(0);
  }
  std::atexit([] {
    if (keep_tally)
      for (const auto& [call, counts] : tally)
        std::printf("%-40s returned %lld, threw %lld\n", call.c_str(), counts[0], counts[1]);
    for (const auto& [message, count] : messages) std::printf("%8lld %s\n", count, message.c_str());
    long long end = -1;
    MPI_Bcast(&end, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    Kokkos::finalize();
    MPI_Finalize();
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  long long length = static_cast<long long>(size);
  MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  current_input.assign(data, data + size);
  MPI_Bcast(current_input.data(), static_cast<int>(size), MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
  run_case(current_input.data(), current_input.size());
  return 0;
}
