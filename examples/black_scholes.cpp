// Implicit time stepping of the Black-Scholes equation for a batch of European call options, each
// with its own strike and volatility, checked against the closed-form price.
//
// In time to expiry tau, V_tau = 1/2 sigma^2 S^2 V_SS + r S V_S - r V on S in [0, 4 K] with
// V(0) = 0 and V(S_max) = S_max - K exp(-r tau), from the payoff max(S - K, 0). On nodes
// S_k = k h, L V_k = alpha_k V_{k-1} + beta_k V_k + gamma_k V_{k+1} with
//   alpha_k = 1/2 sigma^2 k^2 - 1/2 r k,  beta_k = -sigma^2 k^2 - r,  gamma_k = 1/2 sigma^2 k^2 + 1/2 r k
// (docs/algorithms.md, "Black-Scholes implicit step"). Crank-Nicolson: (I - dt/2 L) V_new =
// (I + dt/2 L) V_old, one tridiagonal system per option per step, solved as one batch with
// algo::automatic. The first steps are Rannacher steps (backward Euler with dt/2, the same
// matrix) that damp the payoff's kink. Second order in h and dt: the example runs two grids and
// exits non-zero unless the error is small and falls by about 4 when h and dt halve.
#include <bandsolve/bandsolve.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

using exec = Kokkos::DefaultExecutionSpace;
using view = Kokkos::View<double**, Kokkos::LayoutRight>;  // (option, node): row layout

constexpr double rate = 0.05, expiry = 1.0;

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double call_price(double s, double strike, double sigma, double tau) {
  const double d1 = (std::log(s / strike) + (rate + 0.5 * sigma * sigma) * tau) / (sigma * std::sqrt(tau));
  const double d2 = d1 - sigma * std::sqrt(tau);
  return s * normal_cdf(d1) - strike * std::exp(-rate * tau) * normal_cdf(d2);
}

// Prices every option on `nodes` intervals of S in [0, 4 K] with `steps` time steps; returns the
// largest error against the closed form at S = 0.8 K, K and 1.2 K.
double max_error(int nopt, int nodes, int steps) {
  const int n = nodes - 1;  // unknowns: nodes 1 .. nodes-1
  const double dt = expiry / steps;
  view a("a", nopt, n), b("b", nopt, n), c("c", nopt, n), u("u", nopt, n), d("d", nopt, n);
  Kokkos::View<double*> strike("strike", nopt), sigma("sigma", nopt);
  Kokkos::View<int*> info("info", nopt);

  Kokkos::parallel_for(
      "set up", Kokkos::RangePolicy<exec>(0, nopt * n), KOKKOS_LAMBDA(const int q) {
        const int o = q / n, i = q % n, k = i + 1;
        const double K = 80.0 + 40.0 * (o % 41) / 40.0;        // strikes 80 .. 120
        const double sig = 0.1 + 0.3 * (o % 13) / 12.0;         // volatilities 0.1 .. 0.4
        if (i == 0) {
          strike(o) = K;
          sigma(o) = sig;
        }
        const double s2 = sig * sig * k * k, rk = rate * k;
        a(o, i) = -0.25 * dt * (s2 - rk);
        b(o, i) = 1.0 + 0.5 * dt * (s2 + rate);
        c(o, i) = -0.25 * dt * (s2 + rk);
        const double h = 4.0 * K / nodes;
        u(o, i) = k * h > K ? k * h - K : 0.0;  // payoff
      });

  const int rannacher = 4;  // backward-Euler half steps (= 2 Crank-Nicolson steps)
  double tau = 0;
  for (int step = 0; step < steps + rannacher / 2; ++step) {
    const bool euler = step < rannacher;
    const double tau_new = tau + (euler ? 0.5 * dt : dt);
    const double discount = std::exp(-rate * tau), discount_new = std::exp(-rate * tau_new);
    Kokkos::parallel_for(
        "right-hand side", Kokkos::RangePolicy<exec>(0, nopt * n), KOKKOS_LAMBDA(const int q) {
          const int o = q / n, i = q % n, k = i + 1;
          const double K = strike(o), sig = sigma(o), smax = 4.0 * K;
          const double left = i > 0 ? u(o, i - 1) : 0.0;
          const double right = i + 1 < n ? u(o, i + 1) : smax - K * discount;
          double rhs = u(o, i);
          if (!euler) {  // + dt/2 L u
            const double s2 = sig * sig * k * k, rk = rate * k;
            rhs += 0.5 * dt * (0.5 * (s2 - rk) * left - (s2 + rate) * u(o, i) + 0.5 * (s2 + rk) * right);
          }
          if (i + 1 == n)  // the known boundary value at the new time level
            rhs -= c(o, i) * (smax - K * discount_new);
          d(o, i) = rhs;
        });
    bandsolve::solve(exec(), bandsolve::algo::automatic{}, a, b, c, d, info);
    Kokkos::deep_copy(exec(), u, d);
    tau = tau_new;
  }
  exec().fence();
  bandsolve::throw_if_failed("black_scholes", info);

  auto uh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);
  auto kh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), strike);
  auto sh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sigma);
  double worst = 0;
  for (int o = 0; o < nopt; ++o)
    for (int node : {nodes / 5, nodes / 4, 3 * nodes / 10}) {  // S = 0.8 K, K, 1.2 K
      const double s = 4.0 * kh(o) * node / nodes;
      worst = std::max(worst, std::abs(uh(o, node - 1) - call_price(s, kh(o), sh(o), expiry)));
    }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int nopt = 2000;
  const int threads = static_cast<int>(exec().concurrency());
  std::printf("algo::automatic picks %s for %d options of %d unknowns\n",
              bandsolve::name_of(bandsolve::choose_tridiag<bandsolve::layout::row, double>(
                  nopt, 399, threads)),
              nopt, 399);
  const double coarse = max_error(nopt, 200, 50), fine = max_error(nopt, 400, 100);
  std::printf("max |V - V_closed_form| at S = 0.8K, K, 1.2K over %d options:\n"
              "  h = K/50,  50 steps:  %.3e\n  h = K/100, 100 steps: %.3e (ratio %.2f)\n",
              nopt, coarse, fine, coarse / fine);
  // Prices are 2 .. 35: an error below 1e-2 is a relative error of about 1e-3 or less; second
  // order means the ratio is near 4 (accept 3 .. 5).
  const bool ok = fine < 1e-2 && coarse / fine > 3.0 && coarse / fine < 5.0;
  std::printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
