// The names of a run directory's files (docs/run-dir.md), in one place: every stage that writes
// or reads a run (record, merge, watch, check, diff, report) builds its paths here.
#pragma once
#include <string>

namespace modrec::run_paths {

// record, check MODEL and merge
inline std::string stats_json(const std::string& dir) { return dir + "/stats.json"; }
inline std::string stats_csv(const std::string& dir) { return dir + "/stats.csv"; }
// record, check MODEL, merge and watch
inline std::string manifest(const std::string& dir) { return dir + "/manifest.json"; }
// watch's step series
inline std::string steps_csv(const std::string& dir) { return dir + "/steps.csv"; }
inline std::string steps_jsonl(const std::string& dir) { return dir + "/steps.jsonl"; }
// A layer call's saved tensors, relative to the run directory (the manifest lists them so).
inline std::string tensors_of(const std::string& label) { return "tensors/" + label; }
// Kept tensors waiting, while record runs, for its write phase; removed before the run is complete.
inline std::string spool(const std::string& dir) { return dir + "/.spool"; }

}  // namespace modrec::run_paths
