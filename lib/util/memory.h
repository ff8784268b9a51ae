// How much memory this machine has: the bound above which an allocation cannot be met.
#pragma once
#include <cstdint>

namespace modrec {

// Physical memory in bytes (sysconf); 0 when the system does not say.
uint64_t physical_memory_bytes();

}  // namespace modrec
