#define _GNU_SOURCE
#include <unistd.h>

#include "system_calls.h"

int sonde_syncfs(int fd) { return syncfs(fd); }
