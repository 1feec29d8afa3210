#pragma once
// All layout policies and the helpers that allocate and convert batches.
#include <bandsolve/layout/column.hpp>
#include <bandsolve/layout/convert.hpp>
#include <bandsolve/layout/interleaved.hpp>
#include <bandsolve/layout/layout_of.hpp>
#include <bandsolve/layout/padding.hpp>
#include <bandsolve/layout/row.hpp>
#include <bandsolve/layout/strided.hpp>
