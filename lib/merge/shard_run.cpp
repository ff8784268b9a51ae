#include "merge/shard_run.h"

#include "rundir/run_paths.h"
#include "util/error.h"

namespace modrec {
namespace {
using nlohmann::json;

const char* const kRerun = "record the shard again: modrec record … --shard K/N --out DIR";

Error not_a_manifest(const ShardRun& r, const std::string& why) {
  return Error(Exit::bad_input, "manifest.json is not in the recording format: " + why,
               run_paths::manifest(r.dir()), kRerun);
}

template <class E>
E enum_field(const ShardRun& r, const char* key, const EnumNames<E>& names, E if_null) {
  const json& v = r.run.manifest.at("options").at(key);
  if (v.is_null()) return if_null;
  const E* value = value_named(names, v.get<std::string>());
  if (!value) throw not_a_manifest(r, "unknown " + std::string(key) + " " + v.dump());
  return *value;
}

void read_manifest_fields(ShardRun& r) {
  const json& m = r.run.manifest;
  const json& options = m.at("options");
  r.save = enum_field(r, "save", save_format_names(), SaveFormat::none);
  r.reduce = enum_field(r, "reduce", reduce_names(), Reduce::none);
  r.batch_size = options.at("batch_size").is_null() ? 0 : options.at("batch_size").get<int64_t>();
  r.kept_batches = m.at("kept_batches").get<std::vector<int64_t>>();
  const int64_t samples = m.at("samples").get<int64_t>();
  // Runs recorded before --shard have no total: they are their own whole.
  r.total_samples = m.contains("total_samples") && !m.at("total_samples").is_null()
                        ? m.at("total_samples").get<int64_t>()
                        : samples;
  const json& shard = m.value("shard", json());
  r.sharded = !shard.is_null();
  r.part = r.sharded ? ShardPart{shard.at("index").get<int64_t>(), shard.at("count").get<int64_t>(),
                                 shard.at("start").get<int64_t>(), shard.at("end").get<int64_t>()}
                     : ShardPart{0, 1, 0, samples};
  const ShardPart& p = r.part;
  if (p.count < 1 || p.index < 0 || p.index >= p.count || p.start < 0 || p.end < p.start)
    throw not_a_manifest(r,
                         "\"shard\" " + shard.dump() + " is no part of " + std::to_string(p.count));
  if (r.samples() != samples)
    throw not_a_manifest(r, "\"samples\" is " + std::to_string(samples) + ", its shard holds " +
                                std::to_string(r.samples()));
}

}  // namespace

int64_t ShardRun::batches_formed() const {
  return batch_size > 0 ? (samples() + batch_size - 1) / batch_size : 1;
}

ShardRun shard_run_of(RunDir run) {
  ShardRun r;
  r.run = std::move(run);
  if (r.run.manifest.is_null())
    throw Error(Exit::bad_input, "incomplete run: no manifest.json", r.dir(), kRerun);
  try {
    read_manifest_fields(r);
  } catch (const json::exception& e) {
    throw not_a_manifest(r, first_line(e.what()));
  }
  return r;
}

ShardRun read_shard_run(const std::string& dir) { return shard_run_of(read_run_dir(dir)); }

}  // namespace modrec
