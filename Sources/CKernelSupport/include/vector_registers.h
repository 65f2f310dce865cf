#ifndef SONDE_VECTOR_REGISTERS_H
#define SONDE_VECTOR_REGISTERS_H

// 1 when the build targets 256-bit AVX registers (`make build` on an AVX2 machine), where
// each of the 16 holds a whole SIMD4<Double>; 0 for the portable x86-64 build, where a
// SIMD4<Double> takes two of its 16 SSE registers. Swift has no test for the target's
// features, and Clang sees the same target as the Swift code that imports this.
//
// Why the frame kernels ask: with wide registers, the time-domain sums, the moments and
// the window fit one pass over the frame (release harness, N = 1024: 332 ns a frame,
// against 446 in two passes); with SSE that pass spills (1140 ns) and two passes take 410.
#if defined(__AVX__)
#define SONDE_WIDE_VECTOR_REGISTERS 1
#else
#define SONDE_WIDE_VECTOR_REGISTERS 0
#endif

#endif
