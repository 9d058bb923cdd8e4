#pragma once
// Araios: portable, reproducible sparse-matrix kernels on Kokkos. The umbrella header.
#include <araios/detail/device_memory.hpp>
#include <araios/error.hpp>
#include <araios/format_options.hpp>
#include <araios/hash.hpp>
#include <araios/io/matrix_market.hpp>
#include <araios/kernel_registry.hpp>
#include <araios/formats/matrix_stats.hpp>
#include <araios/operator.hpp>
#include <araios/seeded_vector.hpp>
#include <araios/spmv.hpp>
#include <araios/types.hpp>
#include <araios/formats/brc/brc_convert.hpp>
#include <araios/formats/brcp/brcp_convert.hpp>
#include <araios/formats/coo/coo_convert.hpp>
#include <araios/formats/csc/csc_convert.hpp>
#include <araios/formats/csr/csr_from_rows.hpp>
#include <araios/formats/dia/dia_convert.hpp>
#include <araios/formats/ell/ell_convert.hpp>
#include <araios/formats/hyb/hyb_convert.hpp>
#include <araios/formats/jds/jds_convert.hpp>
#include <araios/formats/sccsr/sccsr_convert.hpp>
#include <araios/formats/sell/sell_convert.hpp>
#include <araios/formats/vab/vab_convert.hpp>

// The compiled combinations of the conversions (araios/instantiations.hpp) come from the library.
#ifdef ARAIOS_COMPILED_INSTANTIATIONS
#include <araios/instantiations.hpp>
ARAIOS_ETI_FOR_EACH(ARAIOS_ETI_DECLARE_CONVERSIONS)
#endif
