// Checks that the Kokkos Tools library view_tail_tool.cpp, loaded by Kokkos from the environment,
// poisons the bytes after a host View's data in a program that does not poison them itself (as
// the examples): the View's last value addressable, the next 8 bytes poisoned. Exit code 0 or 1.
#include <Kokkos_Core.hpp>
#include <sanitizer/asan_interface.h>

#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int failures = 0;
  {
    for (const int values : {1, 5, 64, 1000}) {
      const Kokkos::View<double*, Kokkos::HostSpace> v("tool-checked", values);
      char* last = reinterpret_cast<char*>(v.data() + values - 1);
      char* end = reinterpret_cast<char*>(v.data() + values);
      if (__asan_region_is_poisoned(last, sizeof(double)) != nullptr ||
          !__asan_address_is_poisoned(end)) {
        std::printf("view_tail_tool: a View of %d doubles: last value %s, byte after %s\n", values,
                    __asan_region_is_poisoned(last, sizeof(double)) ? "poisoned" : "addressable",
                    __asan_address_is_poisoned(end) ? "poisoned" : "addressable (not poisoned)");
        ++failures;
      }
    }
  }
  Kokkos::finalize();
  if (failures == 0)
    std::printf("view_tail_tool: the bytes after every View's data are poisoned\n");
  return failures == 0 ? 0 : 1;
}
