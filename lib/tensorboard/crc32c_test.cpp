#include "tensorboard/crc32c.h"

#include <doctest/doctest.h>

#include <string>

using namespace modrec;

TEST_CASE("crc32c matches the published check values") {
  CHECK(crc32c("") == 0u);
  CHECK(crc32c("123456789") == 0xE3069283u);              // the CRC catalogue's check value
  CHECK(crc32c(std::string(32, '\0')) == 0x8A9136AAu);    // RFC 3720, B.4: 32 bytes of zeros
  CHECK(crc32c(std::string(32, '\xFF')) == 0x62A8AB43u);  // and of ones
}

TEST_CASE("the masked form rotates by 15 bits and adds TFRecord's constant") {
  const uint32_t c = crc32c("123456789");
  CHECK(masked_crc32c("123456789") == ((c >> 15) | (c << 17)) + 0xA282EAD8u);
}
