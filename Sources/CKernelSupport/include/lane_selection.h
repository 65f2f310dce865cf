#ifndef SONDE_LANE_SELECTION_H
#define SONDE_LANE_SELECTION_H

#include "fused_multiply_add.h"

// Lane-wise minimum, maximum and sign test for the frame kernels' one pass over a frame
// (SondeDSP's FrameKernels.frameSums).
//
// Why C: Swift's SIMD4<Double>.replace(with:where:) is a compare and a blend, and the
// portable x86-64 baseline (SSE2) has no blend instruction, so each became three logic
// operations; here `a < b ? a : b` is one minpd (release harness, N = 1024, portable
// build: the two passes of FrameKernels.frameSums 918 -> 410 ns a frame, of which the
// moments' pass is about 245). And Swift has no movemask: counting sign changes lane by
// lane took two compares, an exclusive or, a select and an add per four samples and two
// registers, where the mask's four bits go to integer ports that are otherwise idle.

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
// FEATURES.md's zero-crossing test.
static inline __attribute__((always_inline)) unsigned
sonde_nonnegative_lanes(sonde_double4 v) {
    sonde_bool4 nonnegative = __builtin_convertvector(v >= 0, sonde_bool4);
    return (unsigned)__builtin_bit_cast(unsigned char, nonnegative) & 15u;
}

#endif
