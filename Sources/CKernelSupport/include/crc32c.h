#ifndef SONDE_CRC32C_H
#define SONDE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

// CRC-32C with the CPU's own instruction (SSE 4.2's crc32, every x86-64 CPU since 2008):
// about 8 bytes a cycle where the Swift slicing-by-8 tables did well under one, so the
// dataset manifest's checksums stay out of a run's time (docs/performance.md).

/// Whether `sonde_crc32c_hardware` may run on this CPU (checked at run time, as the
/// portable build must run anywhere).
int sonde_crc32c_hardware_available(void);

/// Continues a CRC-32C over `count` bytes: `state` is the running register (initially
/// 0xFFFFFFFF, final value inverted by the caller). Only call when available.
uint32_t sonde_crc32c_hardware(uint32_t state, const void *bytes, size_t count);

#endif
