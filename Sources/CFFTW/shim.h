#ifndef SONDE_CFFTW_SHIM_H
#define SONDE_CFFTW_SHIM_H
// Double-precision FFTW only: FEATURES.md requires Double throughout.
#include <fftw3.h>
#endif
