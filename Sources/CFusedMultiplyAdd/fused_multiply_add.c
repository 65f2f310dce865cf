// Everything is `static inline` in include/fused_multiply_add.h; SwiftPM needs one source
// file to make a C target.
#include "fused_multiply_add.h"
