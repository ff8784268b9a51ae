// The compression functions against FIPS 180-4's worked example, and the SHA-extension version
// against the portable one on many blocks (sha256_test.cpp checks whole digests against hashlib).
#include "util/sha256_blocks.h"

#include <doctest/doctest.h>

#include <vector>

using namespace modrec;

namespace {
std::vector<Sha256Blocks> available() {
  std::vector<Sha256Blocks> out = {portable_sha256_blocks()};
  if (shani_sha256_blocks()) out.push_back(shani_sha256_blocks());
  return out;
}
}  // namespace

TEST_CASE("one padded block of \"abc\" compresses to FIPS 180-4's digest") {
  unsigned char block[64] = {'a', 'b', 'c', 0x80};
  block[63] = 24;  // the message length in bits
  const Sha256State want = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
                            0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad};
  for (Sha256Blocks blocks : available()) {
    Sha256State state = kSha256Initial;
    blocks(state, block, 1);
    CHECK(state == want);
  }
}

TEST_CASE("the SHA-extension compression equals the portable one") {
  if (!shani_sha256_blocks()) {
    MESSAGE("no SHA extensions here: only the portable compression runs");
    return;
  }
  std::vector<unsigned char> data(64 * 37);
  uint32_t x = 7;
  for (auto& c : data) c = static_cast<unsigned char>((x = x * 1103515245u + 12345u) >> 16);
  for (size_t blocks : {0, 1, 2, 37}) {
    Sha256State slow = kSha256Initial, fast = kSha256Initial;
    portable_sha256_blocks()(slow, data.data(), blocks);
    shani_sha256_blocks()(fast, data.data(), blocks);
    CAPTURE(blocks);
    CHECK(fast == slow);
  }
  CHECK((sha256_blocks() == shani_sha256_blocks()));  // the dispatch picks it
}
