// Everything is in the headers under include/ (`static inline` functions and constants);
// SwiftPM needs one source file to make a C target.
#include "fused_multiply_add.h"
#include "vector_registers.h"
