// Large host buffers on transparent huge pages (backend/huge_pages.hpp): the helpers zero what
// they allocate and advise its whole 2 MiB pages (Linux marks such a mapping `hg` in
// /proc/self/smaps), only from bandsolve::huge_page_min_bytes on; the factorizations and the kept
// scratch allocate their storage through them. The advice cases are skipped where the kernel has
// no transparent huge pages or the system is not Linux.
#include "test_support.hpp"
#include "view_tail_poisoning.hpp"

#include <bandsolve/bandsolve.hpp>

#include <catch2/catch_all.hpp>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace test_huge_pages {  // units compile in groups: tests/CMakeLists.txt

namespace {

constexpr std::uintptr_t huge_page = std::uintptr_t(2) << 20;

bool kernel_has_huge_pages() {
#if defined(__linux__)
  return access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0;
#else
  return false;
#endif
}

// The VmFlags of the mapping that holds `address` in /proc/self/smaps ("" if none holds it).
std::string mapping_flags(std::uintptr_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    const auto dash = line.find('-');
    const auto space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos && dash < space &&
        line.find_first_not_of("0123456789abcdef") == dash) {
      const auto start = std::stoull(line.substr(0, dash), nullptr, 16);
      const auto end = std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16);
      inside = start <= address && address < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

// Whether the first whole 2 MiB page of the buffer at `data` is advised onto huge pages.
bool advised(const void* data) {
  const auto first = (reinterpret_cast<std::uintptr_t>(data) + huge_page - 1) & ~(huge_page - 1);
  const std::string flags = mapping_flags(first);
  INFO("VmFlags of the buffer's first huge page: " << flags);
  REQUIRE(!flags.empty());
  std::istringstream words(flags);
  std::string word;
  while (words >> word)
    if (word == "hg") return true;
  return false;
}

// The address of the last allocation Kokkos reports under `wanted` (Kokkos tools callback).
std::string wanted_label;
const void* wanted_data = nullptr;
void remember_allocation(Kokkos::Tools::SpaceHandle, const char* label, const void* data,
                         std::uint64_t) {
  if (wanted_label == label) wanted_data = data;
}

// Runs call() and returns the data pointer of the allocation labelled `label` during it.
template <class Call>
const void* allocation_during(const std::string& label, const Call& call) {
  wanted_label = label;
  wanted_data = nullptr;
  bstest::observe_allocations(&remember_allocation);
  call();
  bstest::observe_allocations(nullptr);
  return wanted_data;
}

// Restores huge_page_min_bytes at the end of a test case.
struct min_bytes_guard {
  std::size_t saved = bandsolve::huge_page_min_bytes;
  ~min_bytes_guard() { bandsolve::huge_page_min_bytes = saved; }
};

using host = Kokkos::DefaultHostExecutionSpace;

}  // namespace

TEST_CASE("allocate_zeroed: extents and label; large buffers advised onto huge pages",
          "[huge_pages]") {
  if (!kernel_has_huge_pages()) SKIP("no transparent huge pages in this kernel");
  const min_bytes_guard guard;
  bandsolve::huge_page_min_bytes = std::size_t(4) << 20;
  using view = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  // 64 MiB: above glibc's largest mmap threshold, a mapping of its own.
  const std::size_t rows = 1024, cols = 8192;
  const auto v = bandsolve::detail::allocate_zeroed<view>(host(), "huge zeros", rows, cols);
  host().fence();
  CHECK(v.extent(0) == rows);
  CHECK(v.extent(1) == cols);
  CHECK(v.label() == "huge zeros");
  CHECK(advised(v.data()));

  const auto u =
      bandsolve::detail::allocate_uninitialized<Kokkos::View<float*, Kokkos::HostSpace>>(
          "huge floats", std::size_t(16) << 20);
  CHECK(u.extent(0) == (std::size_t(16) << 20));
  CHECK(advised(u.data()));
}

// Fresh mappings read zero whatever the fill; memory the allocator hands out again does not. Small
// Views (heap memory) are filled with 7, freed, and allocated again through allocate_zeroed.
TEST_CASE("allocate_zeroed: reused memory reads zero", "[huge_pages]") {
  using view = Kokkos::View<double*, Kokkos::HostSpace>;
  const std::size_t values = 2048;  // 16 KiB: from the heap, below glibc's mmap threshold
  std::size_t nonzero = 0;
  for (int round = 0; round < 8; ++round) {
    {
      const view dirty(Kokkos::view_alloc(Kokkos::WithoutInitializing, "dirty"), values);
      Kokkos::deep_copy(dirty, 7.0);
    }
    const auto v = bandsolve::detail::allocate_zeroed<view>(host(), "zeroed", values);
    host().fence();
    for (std::size_t i = 0; i < values; ++i) nonzero += v(i) != 0.0;
  }
  CHECK(nonzero == 0);
}

TEST_CASE("allocate_zeroed: nothing advised below huge_page_min_bytes, nor with 0",
          "[huge_pages]") {
  if (!kernel_has_huge_pages()) SKIP("no transparent huge pages in this kernel");
  const min_bytes_guard guard;
  using view = Kokkos::View<double*, Kokkos::HostSpace>;
  const std::size_t values = std::size_t(8) << 20;  // 64 MiB
  bandsolve::huge_page_min_bytes = 0;
  const auto off = bandsolve::detail::allocate_zeroed<view>(host(), "not advised", values);
  host().fence();
  CHECK_FALSE(advised(off.data()));
  bandsolve::huge_page_min_bytes = values * sizeof(double) + 1;
  const auto below = bandsolve::detail::allocate_zeroed<view>(host(), "below", values);
  host().fence();
  CHECK_FALSE(advised(below.data()));
  CHECK(below(values - 1) == 0.0);
}

TEST_CASE("factorizations and kept scratch allocate their storage on huge pages",
          "[huge_pages]") {
  if (!kernel_has_huge_pages()) SKIP("no transparent huge pages in this kernel");
  const min_bytes_guard guard;
  bandsolve::huge_page_min_bytes = std::size_t(4) << 20;
  const host exec;
  // Lines along an axis of a 128^3 grid: 48 MiB of factors.
  using cube = Kokkos::View<double***, Kokkos::LayoutRight, Kokkos::HostSpace>;
  const std::size_t N = 128;
  const cube a("a", N, N, N), b("b", N, N, N), c("c", N, N, N);
  Kokkos::deep_copy(a, -1.0);
  Kokkos::deep_copy(b, 4.0);
  Kokkos::deep_copy(c, -1.0);
  bool along_advised = false;
  const void* factors = allocation_during("bandsolve::factorize_along(thomas) factors", [&] {
    const auto f = bandsolve::factorize_along(exec, bandsolve::algo::thomas{}, 1, a, b, c);
    exec.fence();
    along_advised = wanted_data != nullptr && advised(wanted_data);
  });
  REQUIRE(factors != nullptr);
  CHECK(along_advised);

  // A batch of 4096 column systems of 512 rows: 16 MiB per factor array.
  using column = bandsolve::layout::column;
  const std::size_t nsys = 4096, n = 512;
  auto ba = bandsolve::make_batch<column, double>("a", nsys, n);
  auto bb = bandsolve::make_batch<column, double>("b", nsys, n);
  auto bc = bandsolve::make_batch<column, double>("c", nsys, n);
  Kokkos::deep_copy(ba, -1.0);
  Kokkos::deep_copy(bb, 4.0);
  Kokkos::deep_copy(bc, -1.0);
  bool batch_advised = false;
  const void* r = allocation_during("bandsolve::thomas r", [&] {
    const auto f = bandsolve::factorize(exec, bandsolve::algo::thomas{}, ba, bb, bc);
    exec.fence();
    batch_advised = wanted_data != nullptr && advised(wanted_data);
  });
  REQUIRE(r != nullptr);
  CHECK(batch_advised);

  // Scratch: allocate_scratch, which the kept buffer and per-call scratch come from.
  const auto scratch =
      bandsolve::detail::allocate_scratch<Kokkos::HostSpace>(exec, "huge scratch", 64u << 20);
  CHECK(advised(scratch.data()));
}

}  // namespace test_huge_pages
