#pragma once
// Whole packs of L lanes held in one GNU vector value (host GCC and Clang), and the pack
// arithmetic of partial pivoting written on them: a pivot search, a row interchange by selects and
// an elimination step over every lane at once. Families whose per-lane loops leave these selects to
// the auto-vectorizer take this path where pack_vectors_v holds and their lane loops elsewhere
// (other compilers, device passes); the arithmetic, selects and strict comparisons are those of
// the lane loops, so the pivots and results are the same. Both functions are always inlined:
// the family wraps each in a function of its own, which the compiler inlines or not as it did the
// code before it was generic.
//
// Why vectors: GCC's jump threading turns repeated selects in lane loops into branches it then
// vectorizes with masked stores; vector selects have no branches to thread. Loads and stores go
// through pointers to the vector type (BANDSOLVE_PACK_AT): it may alias T and needs only T's
// alignment. (No function takes or returns it by value: that would change the ABI with the ISA.)
#include <bandsolve/core/config.hpp>

#include <type_traits>

// Not in x86 builds without AVX (baseline x86-64, SSE2): there a pack of 8 doubles spans four
// registers and the lane loops ran 2.2-3.4x faster (banded LU with pivoting, one-shot; factored
// solve 1.35-1.5x; docs/performance.md, "Builds for baseline x86-64").
#if defined(__GNUC__) && !defined(__INTEL_COMPILER) && \
    !defined(__CUDACC__) && !defined(__HIPCC__) && !defined(__SYCL_DEVICE_ONLY__) && \
    (defined(__AVX__) || !(defined(__x86_64__) || defined(__i386__)))
#define BANDSOLVE_HOST_PACK_VECTORS 1
#else
#define BANDSOLVE_HOST_PACK_VECTORS 0
#endif

namespace bandsolve::detail {

// Whether packs of L values of T run as whole vectors here: host GCC or Clang, real T, L a power
// of two above 1. Where it is false the functions below are declared only, so that a discarded
// `if constexpr` branch may name them.
template <class T, int L>
inline constexpr bool pack_vectors_v = BANDSOLVE_HOST_PACK_VECTORS && std::is_floating_point_v<T> &&
                                       L > 1 && (L & (L - 1)) == 0;

#if BANDSOLVE_HOST_PACK_VECTORS
template <class T, int L>
struct gnu_pack {
  typedef T type __attribute__((vector_size(sizeof(T) * L), aligned(alignof(T)), may_alias));
};
// The pack of V at p, as an lvalue. A macro, not a function returning V&: Clang (14) takes the
// alignment of a returned reference from the vector's natural size (64 bytes for 8 doubles),
// not from the typedef, and its aligned loads fault on packs that are only T-aligned.
#define BANDSOLVE_PACK_AT(V, p) (*reinterpret_cast<V*>(p))

// One step of Gaussian elimination with partial pivoting on packs of L lanes. The pivot column
// is top + r*down, r = 0 .. rows (r = 0 the diagonal); the columns to its right, c = 1 .. cols,
// start at top + c*L with the same row stride. Per lane: q = the first row of largest |x| (strict
// comparison); rows 0 and q change places in every column (selects on q == r); the pivot goes to
// row 0, 1/pivot (0 for a zero pivot) to inv, the multipliers x/pivot stay in the pivot column,
// rows 1 .. rows of the other columns lose multiplier times row 0. Writes q to q_out (in T, as
// the selects compare) and the pivots to pivot_out (L values).
template <int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void pivoting_elimination_packed(T* top, index_t down, int rows,
                                                             int cols, T* inv, T* q_out,
                                                             T* pivot_out) {
  using V = typename gnu_pack<T, L>::type;
  // Pivot offset q per lane: the first row of largest magnitude (strict comparison).
  const V first = BANDSOLVE_PACK_AT(V, top);
  V best = first < V{} ? -first : first, q = V{};
  for (int r = 1; r <= rows; ++r) {
    const V x = BANDSOLVE_PACK_AT(V, top + r * down);
    const V v = x < V{} ? -x : x;
    const auto larger = v > best;
    q = larger ? V{} + T(r) : q;
    best = larger ? v : best;
  }
  // The pivot column: pivot to row 0, the old row 0 to row q, multipliers.
  V pivot = first;
  for (int r = 1; r <= rows; ++r) pivot = q == T(r) ? BANDSOLVE_PACK_AT(V, top + r * down) : pivot;
  const auto zero = pivot == V{};
  const V inv_pivot = zero ? V{} : T(1) / pivot;
  BANDSOLVE_PACK_AT(V, inv) = inv_pivot;
  BANDSOLVE_PACK_AT(V, top) = pivot;
  for (int r = 1; r <= rows; ++r) {
    V& m = BANDSOLVE_PACK_AT(V, top + r * down);
    m = (q == T(r) ? first : m) * inv_pivot;
  }
  // Columns 1 .. cols: the interchange, then the update.
  for (int c = 1; c <= cols; ++c) {
    T* const col = top + c * L;
    const V t = BANDSOLVE_PACK_AT(V, col);
    V u = t;
    for (int r = 1; r <= rows; ++r) u = q == T(r) ? BANDSOLVE_PACK_AT(V, col + r * down) : u;
    BANDSOLVE_PACK_AT(V, col) = u;
    for (int r = 1; r <= rows; ++r) {
      V& o = BANDSOLVE_PACK_AT(V, col + r * down);
      o = (q == T(r) ? t : o) - BANDSOLVE_PACK_AT(V, top + r * down) * u;
    }
  }
  BANDSOLVE_PACK_AT(V, q_out) = q;
  BANDSOLVE_PACK_AT(V, pivot_out) = pivot;
}

// The same interchange and elimination on packs of right-hand sides: for each k < count, the
// rows row(k) + r*down, r = 0 .. rows, change rows 0 and q (q from pivoting_elimination_packed),
// then rows 1 .. rows lose mult(r) (a pointer to a pack of multipliers) times row 0.
template <int L, class T, class Row, class Mult>
KOKKOS_FORCEINLINE_FUNCTION void pivoted_update_packed(const Row& row, int count, index_t down,
                                                       int rows, const T* q_in, const Mult& mult) {
  using V = typename gnu_pack<T, L>::type;
  const V q = BANDSOLVE_PACK_AT(const V, q_in);
  for (int k = 0; k < count; ++k) {
    T* const y0 = row(k);
    const V y = BANDSOLVE_PACK_AT(V, y0);
    V u = y;
    for (int r = 1; r <= rows; ++r) u = q == T(r) ? BANDSOLVE_PACK_AT(V, y0 + r * down) : u;
    BANDSOLVE_PACK_AT(V, y0) = u;
    for (int r = 1; r <= rows; ++r) {
      V& o = BANDSOLVE_PACK_AT(V, y0 + r * down);
      o = (q == T(r) ? y : o) - BANDSOLVE_PACK_AT(const V, mult(r)) * u;
    }
  }
}

// One elimination step of tridiagonal partial pivoting on packs of L lanes (pivot_step in
// tridiag/pivoting_kernel.hpp, real coefficients and right-hand sides): the carried row (cd, cu,
// cy) meets row i+1 (a, b, c, d); the row of larger |entry| (ties keep the carried row) becomes
// row i of U (1/pivot to r, u1, u2) and of y, the other is reduced by it into the carried row.
// info (L ints) gets i+1 where it is 0 and the pivot's magnitude is outside [tiny, huge] or NaN.
template <int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void tridiagonal_pivot_step_packed(
    index_t i, const T* a, const T* b, const T* c, const T* d, T* cd, T* cu, T* cy, T* r, T* u1,
    T* u2, T* y, int* info, T tiny, T huge) {
  using V = typename gnu_pack<T, L>::type;
  using VI = typename gnu_pack<int, L>::type;
  const V al = BANDSOLVE_PACK_AT(const V, a), bl = BANDSOLVE_PACK_AT(const V, b);
  const V cl = BANDSOLVE_PACK_AT(const V, c), dl = BANDSOLVE_PACK_AT(const V, d);
  const V cdl = BANDSOLVE_PACK_AT(V, cd), cul = BANDSOLVE_PACK_AT(V, cu);
  const V cyl = BANDSOLVE_PACK_AT(V, cy);
  const V next_size = al < V{} ? -al : al, carried_size = cdl < V{} ? -cdl : cdl;
  const auto sw = next_size > carried_size;
  const V pd = sw ? al : cdl, pu = sw ? bl : cul, pu2 = sw ? cl : V{};
  const V od = sw ? cdl : al, ou = sw ? cul : bl, ou2 = sw ? V{} : cl;
  const V rec = T(1) / pd;
  const V fact = pd == V{} ? V{} : od * rec;
  const V size = sw ? next_size : carried_size;
  const auto bad = __builtin_convertvector(~((size >= tiny) & (size <= huge)), VI);
  VI& code = BANDSOLVE_PACK_AT(VI, info);
  code = (code == 0) & bad ? VI{} + static_cast<int>(i + 1) : code;
  BANDSOLVE_PACK_AT(V, r) = rec;
  BANDSOLVE_PACK_AT(V, u1) = pu;
  BANDSOLVE_PACK_AT(V, u2) = pu2;
  BANDSOLVE_PACK_AT(V, cd) = ou - fact * pu;
  BANDSOLVE_PACK_AT(V, cu) = ou2 - fact * pu2;
  const V py = sw ? dl : cyl, oy = sw ? cyl : dl;
  BANDSOLVE_PACK_AT(V, y) = py;
  BANDSOLVE_PACK_AT(V, cy) = oy - fact * py;
}

// A factored row's interchange and multiplier on packs of L real right-hand sides (the forward
// loop of pivoting_factored_solve_block): where swapped (L bytes) is nonzero, row i+1 (d) and
// the carried row (cy) change places; y gets row i, cy the other row less lm times it.
template <int L, class T>
KOKKOS_FORCEINLINE_FUNCTION void pivoted_rhs_row_packed(const unsigned char* swapped,
                                                        const T* lm, const T* d, T* cy, T* y) {
  using V = typename gnu_pack<T, L>::type;
  using VB = typename gnu_pack<unsigned char, L>::type;
  const auto sw = __builtin_convertvector(BANDSOLVE_PACK_AT(const VB, swapped), V) != T(0);
  const V next = BANDSOLVE_PACK_AT(const V, d), carried = BANDSOLVE_PACK_AT(V, cy);
  const V py = sw ? next : carried, oy = sw ? carried : next;
  BANDSOLVE_PACK_AT(V, y) = py;
  BANDSOLVE_PACK_AT(V, cy) = oy - BANDSOLVE_PACK_AT(const V, lm) * py;
}
#undef BANDSOLVE_PACK_AT
#else
template <int L, class T>
void pivoting_elimination_packed(T* top, index_t down, int rows, int cols, T* inv, T* q_out,
                                 T* pivot_out);
template <int L, class T, class Row, class Mult>
void pivoted_update_packed(const Row& row, int count, index_t down, int rows, const T* q_in,
                           const Mult& mult);
template <int L, class T>
void tridiagonal_pivot_step_packed(index_t i, const T* a, const T* b, const T* c, const T* d,
                                   T* cd, T* cu, T* cy, T* r, T* u1, T* u2, T* y, int* info,
                                   T tiny, T huge);
template <int L, class T>
void pivoted_rhs_row_packed(const unsigned char* swapped, const T* lm, const T* d, T* cy, T* y);
#endif

}  // namespace bandsolve::detail
