#define _GNU_SOURCE
#include <malloc.h>
#include <unistd.h>

#include "system_calls.h"

int sonde_syncfs(int fd) { return syncfs(fd); }

int sonde_keep_freed_memory(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes) && mallopt(M_TRIM_THRESHOLD, bytes);
}
