// The inputs as manifests record them (docs/run-dir.md): what each source is and which files it
// read, identified well enough for `modrec merge` to refuse runs over other data, and the shard.
#pragma once
#include <ATen/core/ivalue.h>
#include <nlohmann/json.hpp>

#include <optional>

#include "arguments/input_options.h"
#include "sources/shard.h"
#include "arguments/forward_inputs.h"
#include "sources/sample_source.h"

namespace modrec {

// {"kind", "samples" (null for a 0-dim tensor), "sample_shape", "dtype",
//  "files": [{"path", "bytes", "mtime_ns", "head_sha256"}]}
nlohmann::json source_json(const SampleSource& source);

// null without --shard; else {"index", "count", "start", "end"}: the samples [start, end) taken.
nlohmann::json shard_json(const std::optional<Shard>& shard, SampleRange range);

// What the inputs of a manifest add about forward's arguments: "named_files" ({NAME: PATH} of
// --input NAME=PATH) and "args" ({NAME: value} of every argument that is no tensor source, given
// with --arg or taking its default: the value every call received; a List[Tensor] argument: its
// tensors' sources).
void add_arguments_json(nlohmann::json& inputs, const InputOptions& options,
                        const ForwardArguments& arguments);

// A value that is no tensor (a forward argument given with --arg, a call's flag) as JSON: numbers,
// bools, strings, None as null, lists as arrays; anything else (NaN, a device) as the text
// TorchScript prints.
nlohmann::json value_json(const c10::IValue& value);

}  // namespace modrec
