// Test-only: the arrays of stats_expected.py with torch's statistics of them, and a way to feed
// any slice of one into a RunningStats.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/running_stats.h"

namespace modrec::test {

struct StatsCase {
  std::string name;
  std::string dtype;  // torch's name: float32, int64, bool, ...
  std::vector<char> bytes;
  nlohmann::json expected;
  size_t elem_size = 0;
  size_t size() const { return bytes.size() / elem_size; }
};

struct StatsCases {
  int bins = 0;
  std::vector<StatsCase> cases;
};

inline size_t dtype_size(const std::string& dtype) {
  if (dtype == "float64" || dtype == "int64") return 8;
  if (dtype == "float32" || dtype == "int32") return 4;
  if (dtype == "int16") return 2;
  return 1;  // int8, uint8, bool
}

inline StatsCases generate_cases() {
  const std::filesystem::path dir = std::filesystem::path(MODREC_BUILD_DIR) / "stats_test_data";
  std::filesystem::create_directories(dir);
  const std::string cmd =
      std::string("'" MODREC_PYTHON "' " MODREC_SOURCE_DIR "/lib/stats/test_fixtures.py '") +
      dir.string() + "' 64";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("failed: " + cmd);
  const nlohmann::json index = nlohmann::json::parse(std::ifstream(dir / "cases.json"));
  StatsCases out;
  out.bins = index.at("bins").get<int>();
  for (const auto& c : index.at("cases")) {
    StatsCase sc{c.at("name"), c.at("dtype"), {}, c.at("expected")};
    std::ifstream in(dir / (sc.name + ".bin"), std::ios::binary);
    sc.bytes.assign(std::istreambuf_iterator<char>(in), {});
    sc.elem_size = dtype_size(sc.dtype);
    out.cases.push_back(std::move(sc));
  }
  return out;
}

inline const StatsCases& stats_cases() {
  static const StatsCases cases = generate_cases();
  return cases;
}

template <class T>
void add_slice(RunningStats& s, const StatsCase& c, size_t begin, size_t end) {
  s.add(reinterpret_cast<const T*>(c.bytes.data()) + begin, end - begin);
}

// Adds elements [begin, end) of the case to s.
inline void add_slice(RunningStats& s, const StatsCase& c, size_t begin, size_t end) {
  const std::string& t = c.dtype;
  if (t == "float32") return add_slice<float>(s, c, begin, end);
  if (t == "float64") return add_slice<double>(s, c, begin, end);
  if (t == "int64") return add_slice<int64_t>(s, c, begin, end);
  if (t == "int32") return add_slice<int32_t>(s, c, begin, end);
  if (t == "int16") return add_slice<int16_t>(s, c, begin, end);
  if (t == "int8") return add_slice<int8_t>(s, c, begin, end);
  if (t == "uint8") return add_slice<uint8_t>(s, c, begin, end);
  if (t == "bool") return add_slice<bool>(s, c, begin, end);
  throw std::runtime_error("unknown dtype " + t);
}

}  // namespace modrec::test
