#ifndef SONDE_LANE_SELECTION_H
#define SONDE_LANE_SELECTION_H

#include "fused_multiply_add.h"

// Lane-wise minimum, maximum and sign test for the frame kernels' one pass over a frame
// (SondeDSP's FrameKernels.frameSums).
//
// Why C: SSE2 has no blend, so Swift's replace(with:where:) became three logic operations
// where `a < b ? a : b` is one minpd (portable build, frameSums: 918 -> 410 ns a frame);
// and Swift has no movemask, which moves the sign test to idle integer ports.

typedef _Bool sonde_bool4 __attribute__((ext_vector_type(4)));

static inline __attribute__((always_inline)) sonde_double4
sonde_lesser(sonde_double4 a, sonde_double4 b) {
    return a < b ? a : b;
}

static inline __attribute__((always_inline)) sonde_double4
sonde_greater(sonde_double4 a, sonde_double4 b) {
    return a > b ? a : b;
}

// Bit i set when lane i is >= 0: -0.0 counts as non-negative, NaN does not, as in
// docs/features.md's zero-crossing test.
static inline __attribute__((always_inline)) unsigned
sonde_nonnegative_lanes(sonde_double4 v) {
    sonde_bool4 nonnegative = __builtin_convertvector(v >= 0, sonde_bool4);
    return (unsigned)__builtin_bit_cast(unsigned char, nonnegative) & 15u;
}

#endif
