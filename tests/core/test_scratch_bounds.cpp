// What one long system really allocates: every family's one-shot solve (and a factorization's
// solve) of one row-layout system of n = 2^20 doubles (2^16 complex doubles for PCR and the
// hybrid), with the bytes Kokkos allocates during the call counted through Kokkos's tools callbacks
// (Views, and the per-thread team scratch Kokkos grows). The peak must stay within the bound each
// family documents, which grows with the systems solved: never with a pack's width (8 systems of n
// would be 64 MiB here). Repeated calls reuse the scratch kept between calls: they allocate nothing
// and take no page faults.
#include "test_support.hpp"
#include "view_tail_poisoning.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <sys/resource.h>

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <type_traits>

namespace test_scratch_bounds {  // units compile in groups: tests/CMakeLists.txt

namespace {

namespace bl = bandsolve::layout;
using Row = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;

// Bytes live above the start of the metered call, and their peak. Kokkos's OpenMP threads
// allocate their own team data inside a parallel region, so the counters take a lock.
std::mutex counting;
std::int64_t live_bytes = 0, peak_bytes = 0;
void count_allocation(Kokkos::Tools::SpaceHandle, const char*, const void*, std::uint64_t size) {
  const std::lock_guard<std::mutex> lock(counting);
  live_bytes += static_cast<std::int64_t>(size);
  if (live_bytes > peak_bytes) peak_bytes = live_bytes;
}
void count_deallocation(Kokkos::Tools::SpaceHandle, const char*, const void*,
                        std::uint64_t size) {
  const std::lock_guard<std::mutex> lock(counting);
  live_bytes -= static_cast<std::int64_t>(size);
}

// Peak bytes allocated while call(exec) runs (fenced), freed or not by its end. The scratch kept
// from earlier calls is released first (release_kept), so that the call allocates what it needs.
template <class Exec>
std::int64_t peak_allocation(const Exec& exec, const std::function<void(const Exec&)>& call,
                             bool release_kept = true) {
  exec.fence();
  if (release_kept) bandsolve::release_scratch_cache();
  live_bytes = peak_bytes = 0;
  bstest::observe_allocations(&count_allocation);
  Kokkos::Tools::Experimental::set_deallocate_data_callback(&count_deallocation);
  call(exec);
  exec.fence();
  bstest::observe_allocations(nullptr);
  Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
  return peak_bytes;
}

constexpr std::size_t n = std::size_t(1) << 20;
constexpr std::int64_t unknowns = static_cast<std::int64_t>(n);
// Kokkos's own bookkeeping around a team-scratch pool or an allocation.
constexpr std::int64_t slack = 64 * 1024;

// One diagonally dominant system: a = c = -1, b = 4, d = 1.
struct one_system {
  Row a{"a", 1, n}, b{"b", 1, n}, c{"c", 1, n}, d{"d", 1, n};
  Kokkos::View<int*, Kokkos::HostSpace> info{"info", 1};
  one_system() {
    Kokkos::deep_copy(a, -1.0);
    Kokkos::deep_copy(b, 4.0);
    Kokkos::deep_copy(c, -1.0);
    Kokkos::deep_copy(d, 1.0);
  }
  // Row n/2 of the solution is 1/(4 - 2) to within the decay of the boundary.
  double middle() const { return d(0, n / 2); }
};

}  // namespace

TEMPLATE_TEST_CASE("scratch of one long system stays within each family's documented bound",
                   "[scratch]", Kokkos::DefaultHostExecutionSpace, Kokkos::Serial) {
  using Exec = TestType;
  const Exec exec;
  const int threads = static_cast<int>(exec.concurrency());
  CAPTURE(Exec::name(), threads, n);
  one_system s;

  SECTION("thomas") {
    const auto bytes = peak_allocation<Exec>(exec, [&](const Exec& e) {
      bandsolve::solve(e, bandsolve::algo::thomas{}, s.a, s.b, s.c, s.d, s.info);
    });
    CHECK(bytes <= static_cast<std::int64_t>(bandsolve::solve_scratch_bytes<bl::row, double>(
                       bandsolve::algo::thomas{}, n, 1, threads)) + slack);
    CHECK(bytes <= 2 * unknowns * 8 + slack);
  }
  SECTION("symmetric") {
    const auto bytes = peak_allocation<Exec>(exec, [&](const Exec& e) {
      bandsolve::solve(e, bandsolve::algo::symmetric{}, s.b, s.c, s.d, s.info);
    });
    CHECK(bytes <= static_cast<std::int64_t>(bandsolve::solve_scratch_bytes<bl::row, double>(
                       bandsolve::algo::symmetric{}, n, 1, threads)) + slack);
    CHECK(bytes <= 2 * unknowns * 8 + slack);
  }
  SECTION("pcr") {
    const auto bytes = peak_allocation<Exec>(exec, [&](const Exec& e) {
      bandsolve::solve(e, bandsolve::algo::pcr{}, s.a, s.b, s.c, s.d, s.info);
    });
    CHECK(bytes <= static_cast<std::int64_t>(bandsolve::solve_scratch_bytes<double>(
                       bandsolve::algo::pcr{}, n, 1, threads)) + slack);
  }
  SECTION("thomas_pcr") {
    const auto bytes = peak_allocation<Exec>(exec, [&](const Exec& e) {
      bandsolve::solve(e, bandsolve::algo::thomas_pcr{}, s.a, s.b, s.c, s.d, s.info);
    });
    // One system: one team of all threads, thomas_pcr_workspace values (thomas_pcr.hpp).
    const std::int64_t work = bandsolve::thomas_pcr_workspace<double>(
        static_cast<bandsolve::index_t>(n), threads);
    CHECK(bytes <= work * 8 + slack);
    CHECK(work <= 2 * unknowns);
  }
  SECTION("pcr and thomas_pcr on complex<double>") {
    // 2^16 rows: the bounds' form is the same, PCR's log2 n sweeps much cheaper under the
    // sanitizers (2^20 rows took 40 s there). The host space only: one thread is its one_thread
    // run, and a Serial instantiation would compile the complex kernels once more.
    if constexpr (std::is_same_v<Exec, Kokkos::DefaultHostExecutionSpace>) {
      using Z = Kokkos::complex<double>;
      using ZRow = Kokkos::View<Z**, Kokkos::LayoutRight, Kokkos::HostSpace>;
      const std::size_t nz = n / 16;
      ZRow za("za", 1, nz), zb("zb", 1, nz), zc("zc", 1, nz), zd("zd", 1, nz);
      Kokkos::deep_copy(za, Z(-1, 0.5));
      Kokkos::deep_copy(zb, Z(4, 1));
      Kokkos::deep_copy(zc, Z(-1, -0.5));
      Kokkos::deep_copy(zd, Z(1, 1));
      const auto pcr_bytes = peak_allocation<Exec>(exec, [&](const Exec& e) {
        bandsolve::solve(e, bandsolve::algo::pcr{}, za, zb, zc, zd, s.info);
      });
      CHECK(pcr_bytes <= static_cast<std::int64_t>(bandsolve::solve_scratch_bytes<Z>(
                             bandsolve::algo::pcr{}, nz, 1, threads)) + slack);
      CHECK(s.info(0) == 0);
      const auto hybrid_bytes = peak_allocation<Exec>(exec, [&](const Exec& e) {
        bandsolve::solve(e, bandsolve::algo::thomas_pcr{}, za, zb, zc, zd, s.info);
      });
      const std::int64_t work =
          bandsolve::thomas_pcr_workspace<Z>(static_cast<bandsolve::index_t>(nz), threads);
      CHECK(hybrid_bytes <= work * 16 + slack);
      CHECK(work <= 2 * static_cast<std::int64_t>(nz));
    }
  }
  SECTION("partial_pivoting") {
    const auto bytes = peak_allocation<Exec>(exec, [&](const Exec& e) {
      bandsolve::solve(e, bandsolve::algo::partial_pivoting{}, s.a, s.b, s.c, s.d, s.info);
    });
    CHECK(bytes <= unknowns * (3 * 8 + 8) + slack);  // n (3 sizeof(T) + sizeof(D))
  }
  SECTION("periodic") {
    const auto bytes = peak_allocation<Exec>(exec, [&](const Exec& e) {
      bandsolve::solve(e, bandsolve::algo::periodic{}, s.a, s.b, s.c, s.d, s.info);
    });
    CHECK(bytes <= unknowns * (2 * 8 + 8) + slack);  // n (2 sizeof(T) + sizeof(D))
  }
  SECTION("toeplitz batch: the factorization's solve allocates nothing") {
    const auto f = bandsolve::factorize(exec, bandsolve::algo::toeplitz{}, -1.0, 4.0, -1.0, n);
    // A first solve may grow Kokkos's per-thread team pool (its first team launch here).
    f.solve(exec, s.d);
    const auto bytes = peak_allocation<Exec>(exec, [&](const Exec& e) { f.solve(e, s.d); });
    CHECK(bytes == 0);
  }
  SECTION("banded_lu") {
    const bandsolve::algo::banded_lu alg{2, 2};
    Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> ab("ab", 1, n / 16, 7);
    Kokkos::deep_copy(ab, 1.0);
    Kokkos::deep_copy(Kokkos::subview(ab, 0, Kokkos::ALL, 4), 8.0);  // the diagonal
    Row b("b", 1, n / 16);
    Kokkos::deep_copy(b, 1.0);
    const auto bytes = peak_allocation<Exec>(
        exec, [&](const Exec& e) { bandsolve::solve(e, alg, ab, b, s.info); });
    CHECK(bytes <= static_cast<std::int64_t>(bandsolve::solve_scratch_bytes<bl::row, double>(
                       alg, n / 16, 1, threads)) + slack);
  }
  exec.fence();
  CHECK(s.info(0) == 0);
}

namespace {
long minor_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}
}  // namespace

TEMPLATE_TEST_CASE("repeated solves of one long system reuse the kept scratch: no new pages",
                   "[scratch]", Kokkos::DefaultHostExecutionSpace, Kokkos::Serial) {
  using Exec = TestType;
  const Exec exec;
  CAPTURE(Exec::name(), n);
  one_system s;
  const std::function<void(const Exec&)> calls[] = {
      [&](const Exec& e) {
        bandsolve::solve(e, bandsolve::algo::thomas{}, s.a, s.b, s.c, s.d, s.info);
      },
      [&](const Exec& e) {
        bandsolve::solve(e, bandsolve::algo::pcr{}, s.a, s.b, s.c, s.d, s.info);
      }};
  for (const auto& call : calls) {
    call(exec);  // the first call may allocate its scratch and touch it
    exec.fence();
    const long before = minor_page_faults();
    for (int k = 0; k < 3; ++k) call(exec);
    exec.fence();
    const long faults = minor_page_faults() - before;
    CAPTURE(faults);
    // 3 calls over 16 (Thomas) or 48 MiB (PCR) of scratch: fresh pages would be 12288 faults or
    // more.
    CHECK(faults < 256);
    CHECK(peak_allocation<Exec>(exec, call, /*release_kept=*/false) == 0);
  }
  CHECK(s.info(0) == 0);
}

TEST_CASE("release_scratch_cache frees every kept buffer, solve_along_add's copy of d included",
          "[scratch]") {
  // Band lines (kl = ku = 1) add through a copy of d kept between calls: 64 lines of 4096 rows,
  // 2 MiB of doubles, with a buffer of its own.
  const Kokkos::DefaultHostExecutionSpace exec;
  const std::size_t lines = 64, rows = 4096;
  const Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace> ab("ab", lines, rows, 4);
  const Row d("d", lines, rows), u("u", lines, rows);
  const Kokkos::View<int*, Kokkos::HostSpace> info("info", lines);
  for (std::size_t s = 0; s < lines; ++s)
    for (std::size_t j = 0; j < rows; ++j) {
      ab(s, j, 1) = ab(s, j, 3) = -1;  // the super- and subdiagonal
      ab(s, j, 2) = 4;
      d(s, j) = 1;
    }
  bandsolve::solve_along_add(exec, bandsolve::algo::banded_lu{1, 1}, 1, ab, d, u, info);
  exec.fence();
  CHECK(info(0) == 0);
  CHECK(u(0, rows / 2) == Catch::Approx(0.5));  // 4 x - 2 x = 1 far from the ends
  // Bytes freed from allocations labelled by solve_along_add (its kept copy of d).
  static std::uint64_t freed_copy;
  freed_copy = 0;
  Kokkos::Tools::Experimental::set_deallocate_data_callback(
      [](Kokkos::Tools::SpaceHandle, const char* label, const void*, std::uint64_t size) {
        if (std::string(label).find("solve_along_add") != std::string::npos) freed_copy += size;
      });
  bandsolve::release_scratch_cache();
  Kokkos::Tools::Experimental::set_deallocate_data_callback(nullptr);
  CHECK(freed_copy >= lines * rows * sizeof(double));
}

#if BANDSOLVE_TESTS_DEVICE_BACKEND
TEST_CASE("solve_along_add on the device backend keeps its copy of d between calls",
          "[scratch][device]") {
  // Lines of 3 rows take no register chunks, so the device backend adds through a copy of d:
  // the first call takes the kept buffer (1000 lines x 3 doubles), a repeated call allocates
  // nothing. Lines of 64 rows add inside the register-chunk kernel: no copy at all.
  const Kokkos::DefaultHostExecutionSpace exec;
  for (const std::size_t rows : {std::size_t(3), std::size_t(64)}) {
    CAPTURE(rows);
    const std::size_t lines = 1000;
    const Row a("a", lines, rows), b("b", lines, rows), c("c", lines, rows), d("d", lines, rows),
        u("u", lines, rows);
    Kokkos::deep_copy(a, -1.0);
    Kokkos::deep_copy(b, 4.0);
    Kokkos::deep_copy(c, -1.0);
    Kokkos::deep_copy(d, 1.0);
    const Kokkos::View<int*, Kokkos::HostSpace> info("info", lines);
    const auto call = [&](const Kokkos::DefaultHostExecutionSpace& e) {
      bandsolve::solve_along_add(e, bandsolve::algo::thomas{}, 1, a, b, c, d, u, info,
                                 bandsolve::backend::device{});
    };
    // Once unmetered: Kokkos's threads grow their own team data at a first launch (more of it
    // on more threads), which is not the call's. Then, with the kept buffers freed, the first
    // call's copy of d (or none) is all it allocates.
    call(exec);
    exec.fence();
    const std::int64_t first = peak_allocation<Kokkos::DefaultHostExecutionSpace>(exec, call);
    if (rows == 3)
      CHECK(first >= static_cast<std::int64_t>(lines * rows * sizeof(double)));
    else
      CHECK(first < static_cast<std::int64_t>(lines * rows * sizeof(double)));
    CHECK(peak_allocation<Kokkos::DefaultHostExecutionSpace>(exec, call, false) == 0);
    CHECK(info(0) == 0);
    // The three calls added x three times into u: x from solve_along in place.
    bandsolve::solve_along(exec, bandsolve::algo::thomas{}, 1, a, b, c, d, info);
    exec.fence();
    for (std::size_t i = 0; i < rows; ++i)
      CHECK(u(lines - 1, i) == Catch::Approx(3 * d(lines - 1, i)));
  }
}
#endif

}  // namespace test_scratch_bounds
