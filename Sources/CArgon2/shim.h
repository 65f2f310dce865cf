#ifndef SONDE_CARGON2_SHIM_H
#define SONDE_CARGON2_SHIM_H
// libargon2 (Debian libargon2-dev, the reference implementation of RFC 9106): Argon2id,
// OWASP's first choice for password storage.
#include <argon2.h>
#endif
