#ifndef SONDE_CFFTW_SHIM_H
#define SONDE_CFFTW_SHIM_H
// Double-precision FFTW only: docs/features.md requires Double throughout.
#include <fftw3.h>

// fftw_version is an array of unknown size, which Swift cannot import.
static inline const char *sonde_fftw_version(void) { return fftw_version; }
#endif
