#ifndef SONDE_BUILD_TARGET_H
#define SONDE_BUILD_TARGET_H

// Which CPU the Swift code was compiled for, and whether this CPU has it. Clang sees the
// same target as the Swift code that imports this header (`make build` passes haswell on
// an AVX2 machine); the check itself lives in kernel_support.c, compiled for the x86-64
// baseline, so it runs on any x86-64 CPU before any AVX instruction does.
#if defined(__AVX2__) && defined(__FMA__)
#define SONDE_BUILD_NEEDS_AVX2 1
#else
#define SONDE_BUILD_NEEDS_AVX2 0
#endif

// The commit the binary was built from: `make build` writes build_commit.h (untracked).
#if __has_include("build_commit.h")
#include "build_commit.h"
#endif
#ifndef SONDE_BUILD_COMMIT
#define SONDE_BUILD_COMMIT "unknown"
#endif

static inline const char *sonde_build_commit(void) { return SONDE_BUILD_COMMIT; }

/// 1 when the CPU has what an AVX2 build uses (AVX2, FMA, BMI2, MOVBE, F16C), else 0.
int sonde_cpu_has_avx2_build_features(void);

#endif
