#pragma once
// Araios: portable, reproducible sparse-matrix kernels on Kokkos. The umbrella header.
#include <araios/error.hpp>
#include <araios/hash.hpp>
#include <araios/io/matrix_market.hpp>
#include <araios/matrix_stats.hpp>
#include <araios/spmv.hpp>
#include <araios/types.hpp>
#include <formats/coo/coo.hpp>
#include <formats/coo/coo_convert.hpp>
#include <formats/csc/csc.hpp>
#include <formats/csc/csc_convert.hpp>
#include <formats/csr/csr.hpp>
