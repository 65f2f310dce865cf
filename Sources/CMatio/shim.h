#ifndef SONDE_CMATIO_SHIM_H
#define SONDE_CMATIO_SHIM_H
// libmatio 1.5.23 (Debian libmatio-dev): MAT-files v4, v5, v7 (compressed) and v7.3 (HDF5).
#include <matio.h>
#endif
