#include "util/sha256_blocks.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define MODREC_HAVE_SHANI 1
#endif

namespace modrec {
namespace {

alignas(16) constexpr std::array<uint32_t, 64> kRound = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void compress_portable(Sha256State& state, const unsigned char* block) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t(block[4 * i]) << 24 | uint32_t(block[4 * i + 1]) << 16 |
           uint32_t(block[4 * i + 2]) << 8 | uint32_t(block[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  Sha256State v = state;  // a..h
  for (int i = 0; i < 64; ++i) {
    uint32_t s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
    uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
    uint32_t t1 = v[7] + s1 + ch + kRound[i] + w[i];
    uint32_t s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
    uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
    for (int j = 7; j > 0; --j) v[j] = v[j - 1];
    v[4] += t1;
    v[0] = t1 + s0 + maj;
  }
  for (int i = 0; i < 8; ++i) state[i] += v[i];
}

void blocks_portable(Sha256State& state, const unsigned char* data, size_t blocks) {
  for (size_t b = 0; b < blocks; ++b) compress_portable(state, data + 64 * b);
}

#ifdef MODREC_HAVE_SHANI
#define MODREC_SHANI __attribute__((target("sha,sse4.1,ssse3")))

// The instructions keep the state as ABEF and CDGH. Each step does four rounds: sha256rnds2
// twice, two rounds each, on the message words plus round constants. Message words 16..63 come
// four at a time from the previous sixteen (sha256msg1 adds sigma0, the alignr picks w[t-7],
// sha256msg2 adds sigma1).
MODREC_SHANI void blocks_shani(Sha256State& state, const unsigned char* data, size_t blocks) {
  const __m128i big_endian = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  const __m128i dcba =
      _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<__m128i*>(&state[0])), 0xB1);
  const __m128i hgfe =
      _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<__m128i*>(&state[4])), 0x1B);
  __m128i abef = _mm_alignr_epi8(dcba, hgfe, 8);
  __m128i cdgh = _mm_blend_epi16(hgfe, dcba, 0xF0);
  for (size_t b = 0; b < blocks; ++b, data += 64) {
    const __m128i abef_before = abef, cdgh_before = cdgh;
    __m128i m[4];
    for (int i = 0; i < 4; ++i)
      m[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)),
                              big_endian);
    for (int step = 0; step < 16; ++step) {
      __m128i& w = m[step % 4];
      if (step >= 4) {
        const __m128i partial =
            _mm_add_epi32(_mm_sha256msg1_epu32(w, m[(step + 1) % 4]),
                          _mm_alignr_epi8(m[(step + 3) % 4], m[(step + 2) % 4], 4));
        w = _mm_sha256msg2_epu32(partial, m[(step + 3) % 4]);
      }
      const __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(&kRound[4 * step]));
      const __m128i wk = _mm_add_epi32(w, k);
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
    }
    abef = _mm_add_epi32(abef, abef_before);
    cdgh = _mm_add_epi32(cdgh, cdgh_before);
  }
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&state[0]), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&state[4]), _mm_alignr_epi8(dchg, feba, 8));
}

bool has_shani() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  const bool sha = ebx & (1u << 29);
  __get_cpuid(1, &eax, &ebx, &ecx, &edx);
  return sha && (ecx & bit_SSE4_1) && (ecx & bit_SSSE3);
}
#endif

}  // namespace

Sha256Blocks portable_sha256_blocks() { return blocks_portable; }

Sha256Blocks shani_sha256_blocks() {
#ifdef MODREC_HAVE_SHANI
  static const bool supported = has_shani();
  return supported ? blocks_shani : nullptr;
#else
  return nullptr;
#endif
}

Sha256Blocks sha256_blocks() {
  static const Sha256Blocks blocks =
      shani_sha256_blocks() ? shani_sha256_blocks() : portable_sha256_blocks();
  return blocks;
}

}  // namespace modrec
