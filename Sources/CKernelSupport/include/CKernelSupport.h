#ifndef SONDE_CKERNELSUPPORT_H
#define SONDE_CKERNELSUPPORT_H

// The module's umbrella header: an explicit list, so a build notices a header added
// here (an umbrella folder's cached module did not).
#include "build_target.h"
#include "crc32c.h"
#include "fused_multiply_add.h"
#include "lane_selection.h"
#include "vector_registers.h"

#endif
