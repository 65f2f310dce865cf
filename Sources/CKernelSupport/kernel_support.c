// Most of this target is in the headers under include/ (`static inline` functions and
// constants); this file holds what must not be compiled for the build's CPU: the check
// that the CPU can run the build, and CRC-32C with an instruction it checks for itself.
#include "build_target.h"
#include "crc32c.h"
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

int sonde_crc32c_hardware_available(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
#else
    return 0;
#endif
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t sonde_crc32c_hardware(uint32_t state, const void *bytes, size_t count) {
    const unsigned char *pointer = bytes;
    uint64_t crc = state;
    while (count >= 8) {
        uint64_t word;
        __builtin_memcpy(&word, pointer, 8);
        crc = __builtin_ia32_crc32di(crc, word);
        pointer += 8;
        count -= 8;
    }
    uint32_t low = (uint32_t)crc;
    while (count > 0) {
        low = __builtin_ia32_crc32qi(low, *pointer);
        pointer += 1;
        count -= 1;
    }
    return low;
}
#else
uint32_t sonde_crc32c_hardware(uint32_t state, const void *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return state;
}
#endif
