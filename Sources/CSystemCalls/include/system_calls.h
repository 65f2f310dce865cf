#ifndef SONDE_SYSTEM_CALLS_H
#define SONDE_SYSTEM_CALLS_H

// Linux calls that glibc declares only under _GNU_SOURCE, which Swift's Glibc module does
// not define.

/// syncfs(2): writes every dirty page of the file system holding `fd` to disk, once for
/// thousands of files where an fsync per file would wait for each.
int sonde_syncfs(int fd);

/// The bytes of snprintf(buffer, size, "%.4g", value): four significant digits as C prints
/// them, for lists of saved measurements. Digits by scaling where the rounding is certain,
/// snprintf where it is not (a tie within 1e-6, zero, infinities, NaN, extremes): glibc's
/// exact printf was a sixth of a 10,000-line listing (perf). Swift's `withVaList` boxes
/// each number as a `CVarArg` with a dynamic cast, slower still.
int sonde_format_4g(char *buffer, unsigned long size, double value);

/// mallopt(3)'s M_MMAP_THRESHOLD and M_TRIM_THRESHOLD set to `bytes` (malloc.h is not in
/// Swift's Glibc module): freed large blocks stay in the heap for reuse. 1 on success.
int sonde_keep_freed_memory(int bytes);

#endif
