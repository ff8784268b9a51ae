// Per-element loops get an AVX2 clone that the loader picks at run time where the CPU has it, so
// the same binary still runs on any x86-64 (and elsewhere the attribute is dropped).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MODREC_HOT_LOOP __attribute__((target_clones("avx2", "default")))
#else
#define MODREC_HOT_LOOP
#endif
