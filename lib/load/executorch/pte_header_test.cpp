#include "load/executorch/pte_header.h"

#include <doctest/doctest.h>

#include <string>

#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

void put(std::string& head, size_t at, uint64_t value, size_t width) {
  for (size_t i = 0; i < width; ++i) head[at + i] = static_cast<char>(value >> (8 * i) & 0xff);
}

// The head of the program ExecuTorch 1.5.1 wrote for test_pt2e.py's Net (portable kernels): root
// table at 60, extended header of 32 bytes, a program of 3656 bytes, 6248 bytes of segments from
// 3712, 9960 bytes in all.
std::string head(uint64_t program = 3656, uint64_t base = 3712, uint64_t data = 6248,
                 uint32_t length = 32, uint32_t root = 60) {
  std::string h(kPteHeadBytes, '\0');
  put(h, 0, root, 4);
  h.replace(4, 8, "ET12eh00");
  put(h, 12, length, 4);
  put(h, 16, program, 8);
  put(h, 24, base, 8);
  put(h, 32, data, 8);
  return h;
}

std::string refusal(const std::string& h, uint64_t file_size) {
  auto [code, line] = error_of([&] { check_pte_header(h, file_size, "m.pte"); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("ExecuTorch program is damaged: ") != std::string::npos);
  CHECK(line.find("(m.pte)") != std::string::npos);
  return line;
}

}  // namespace

TEST_CASE("a real program's header: its program and segments within the file") {
  const PteLayout layout = check_pte_header(head(), 9960, "m.pte");
  CHECK(layout.program_size == 3656);
  CHECK(layout.segment_base_offset == 3712);
  CHECK(layout.segment_data_size == 6248);
  // without the extended header (an older writer): the FlatBuffer is the whole file
  std::string plain = head();
  plain.replace(8, 4, "\0\0\0\0", 4);
  CHECK(check_pte_header(plain, 9960, "m.pte").program_size == 9960);
}

TEST_CASE("a file cut short, anywhere, is named so before the runtime reads it") {
  CHECK(refusal(head(), 9000).find("its data is 6248 bytes from byte 3712") != std::string::npos);
  CHECK(refusal(head(), 3000)
            .find("the program is 3656 bytes and the file holds 3000 bytes (it "
                  "is cut short)") != std::string::npos);
  CHECK(refusal(head().substr(0, 20), 20).find("extended header") != std::string::npos);
  CHECK(refusal(head().substr(0, 6), 6).find("no ExecuTorch identifier") != std::string::npos);
}

TEST_CASE("sizes and offsets that contradict each other are refused") {
  CHECK(refusal(head(3656, 3712, ~uint64_t{0}), 9960).find("its data") != std::string::npos);
  CHECK(refusal(head(3656, 100, 6248), 9960).find("its data") != std::string::npos);
  CHECK(refusal(head(3656, 0, 6248), 9960).find("its data") != std::string::npos);
  CHECK(refusal(head(3656, 3712, 6248, 8), 9960).find("extended header is 8 bytes") !=
        std::string::npos);
  CHECK(refusal(head(3656, 3712, 6248, 32, 3700), 9960).find("root table's offset 3700") !=
        std::string::npos);
  CHECK(refusal(head(3656, 3712, 6248, 32, 12), 9960).find("root table's offset 12") !=
        std::string::npos);
  const uint64_t huge = uint64_t{3} << 30;
  CHECK(refusal(head(huge, 0, 0), huge).find("more than a FlatBuffer holds") != std::string::npos);
}
