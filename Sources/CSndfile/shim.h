#ifndef SONDE_CSNDFILE_SHIM_H
#define SONDE_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
