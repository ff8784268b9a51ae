// Test helper: stats.json written the way record/ writes it, from tensors' values. The values
// come from the test (check) or from diff/testdata/diff_runs.py (diff); RunningStats turns them
// into statistics. Header-only.
#pragma once
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "stats/running_stats.h"

namespace modrec::test {

// `values_form`: stats.json's layout with "values": [...] in place of each tensor's statistics.
inline nlohmann::json stats_from_values(nlohmann::json values_form) {
  for (auto& layer : values_form.at("layers"))
    for (auto& [capture, tensors] : layer.at("captures").items())
      for (auto& t : tensors) {
        const auto values = t.at("values").get<std::vector<double>>();
        RunningStats s;
        s.add(values.data(), values.size());
        nlohmann::json stats = s.to_json();
        for (const char* key : {"tensor", "shape", "dtype"}) stats[key] = t.at(key);
        t = stats;
      }
  return values_form;
}

inline void write_stats_json(const std::string& dir, const nlohmann::json& values_form) {
  std::ofstream(dir + "/stats.json") << stats_from_values(values_form).dump();
}

// values.json (written by diff_runs.py) -> stats.json, in `dir`.
inline void stats_json_from_values_file(const std::string& dir) {
  std::ifstream in(dir + "/values.json");
  write_stats_json(dir, nlohmann::json::parse(in));
}

}  // namespace modrec::test
