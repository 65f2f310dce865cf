#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "system_calls.h"

int sonde_syncfs(int fd) { return syncfs(fd); }

int sonde_format_4g(char *buffer, unsigned long size, double value) {
    return snprintf(buffer, size, "%.4g", value);
}
