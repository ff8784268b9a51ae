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
// The state before the first block (FIPS 180-4, 5.3.3).
inline constexpr Sha256State kSha256Initial = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
using Sha256Blocks = void (*)(Sha256State& state, const unsigned char* data, size_t blocks);

Sha256Blocks sha256_blocks();           // the fastest this CPU runs
Sha256Blocks portable_sha256_blocks();  // one round at a time
Sha256Blocks shani_sha256_blocks();     // nullptr without the SHA extensions (CPU or build)

}  // namespace modrec
