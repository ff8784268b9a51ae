// SHA-256's compression function over whole 64-byte blocks (torch-free): the part of hashing that
// takes the time (a record's manifest hashes the model file, tens to hundreds of MB). On x86-64
// CPUs with the SHA extensions (picked once at run time) it runs on their instructions, about
// five times faster than the portable version; both give the same state.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace modrec {

using Sha256State = std::array<uint32_t, 8>;  // a..h, as FIPS 180-4 names them
using Sha256Blocks = void (*)(Sha256State& state, const unsigned char* data, size_t blocks);

Sha256Blocks sha256_blocks();           // the fastest this CPU runs
Sha256Blocks portable_sha256_blocks();  // one round at a time
Sha256Blocks shani_sha256_blocks();     // nullptr without the SHA extensions (CPU or build)

}  // namespace modrec
