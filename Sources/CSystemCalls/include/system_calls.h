#ifndef SONDE_SYSTEM_CALLS_H
#define SONDE_SYSTEM_CALLS_H

// Linux calls that glibc declares only under _GNU_SOURCE, which Swift's Glibc module does
// not define.

/// syncfs(2): writes every dirty page of the file system holding `fd` to disk, once for
/// thousands of files where an fsync per file would wait for each.
int sonde_syncfs(int fd);

#endif
