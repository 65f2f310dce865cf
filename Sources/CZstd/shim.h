#ifndef SONDE_CZSTD_SHIM_H
#define SONDE_CZSTD_SHIM_H
// Parquet's ZSTD codec: one-shot compression of each page with a reused context.
#include <zstd.h>
#endif
