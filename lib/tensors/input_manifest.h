// The inputs as manifests record them (docs/run-dir.md): what each source is and which files it
// read, identified well enough for `modrec merge` to refuse runs over other data, and the shard.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>

#include "load/shard.h"
#include "tensors/sample_source.h"

namespace modrec {

// {"kind", "samples" (null for a 0-dim tensor), "sample_shape", "dtype",
//  "files": [{"path", "bytes", "mtime_ns", "head_sha256"}]}
nlohmann::json source_json(const SampleSource& source);

// null without --shard; else {"index", "count", "start", "end"}: the samples [start, end) taken.
nlohmann::json shard_json(const std::optional<Shard>& shard, SampleRange range);

}  // namespace modrec
