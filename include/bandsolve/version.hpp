#pragma once
// BandSolve's version, for code that must branch on it at compile time.
#define BANDSOLVE_VERSION_MAJOR 0
#define BANDSOLVE_VERSION_MINOR 1
#define BANDSOLVE_VERSION_PATCH 0
#define BANDSOLVE_VERSION \
  (BANDSOLVE_VERSION_MAJOR * 10000 + BANDSOLVE_VERSION_MINOR * 100 + BANDSOLVE_VERSION_PATCH)
