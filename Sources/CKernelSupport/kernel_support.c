// Most of this target is in the headers under include/ (`static inline` functions and
// constants); this file holds the one function that must not be compiled for the build's
// CPU: the check that the CPU can run the build.
#include "build_target.h"
#include "fused_multiply_add.h"
#include "vector_registers.h"

int sonde_cpu_has_avx2_build_features(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2") &&
           __builtin_cpu_supports("movbe") && __builtin_cpu_supports("f16c");
#else
    return 0;
#endif
}
