#include "jobs/record_job.h"

#include <ATen/ATen.h>
#include <spdlog/spdlog.h>

#include <filesystem>

#include "jobs/session.h"
#include "jobs/version.h"
#include "load/load_model.h"
#include "record/backward.h"
#include "record/batches.h"
#include "record/call_selection.h"
#include "summary/rows.h"
#include "record/recorder.h"
#include "record/run_files.h"
#include "run/forward.h"
#include "tensors/dtype.h"
#include "util/atomic_dir.h"
#include "util/atomic_file.h"
#include "util/sha256.h"
#include "util/stopwatch.h"

namespace modrec {
namespace {

CaptureSet captures_of(const RecordJob& job) {
  if (job.captures.empty())
    return CaptureSet::parse(job.backward ? std::vector<std::string>{"output", "grad_output"}
                                          : std::vector<std::string>{"output"});
  CaptureSet set = CaptureSet::parse(job.captures);
  if (set.any_grad() && !job.backward)
    throw Error(Exit::usage, "gradients cannot be captured without a backward pass",
                "--no-backward", "drop --no-backward or capture only input,output");
  return set;
}

SaveFormat save_of(const std::string& save) {
  if (save == "pt") return SaveFormat::pt;
  if (save == "npy") return SaveFormat::npy;
  if (save == "none") return SaveFormat::none;
  throw Error(Exit::usage, "unknown save format '" + save + "'", "--save", "use pt, npy or none");
}

Reduce reduce_of(const std::string& reduce) {
  if (reduce == "none") return Reduce::none;
  if (reduce == "sum") return Reduce::sum;
  if (reduce == "mean") return Reduce::mean;
  throw Error(Exit::usage, "unknown reduction '" + reduce + "'", "--reduce", "use sum or mean");
}

void check_options(const RecordJob& job) {
  if (job.loss != "sum" && job.loss != "mean")
    throw Error(Exit::usage, "unknown loss '" + job.loss + "'", "--loss", "use sum or mean");
  if (!job.grad_file.empty() && !job.backward)
    throw Error(Exit::usage, "--grad needs a backward pass", "--grad", "drop --no-backward");
  if (!job.inputs.given())
    throw Error(Exit::usage, "record needs an input", "--input",
                "give --input FILE or --input-size SHAPE");
  if (job.batch_size < 0)
    throw Error(Exit::usage, "batch size must be positive", "--batch-size", "use e.g. 8");
}

class Recording {
 public:
  // Kept tensors go to batch files in `dir`/.spool until write().
  Recording(const RecordJob& job, CaptureSet captures, Session& session, std::string dir)
      : job_(job), session_(session), dir_(std::move(dir)), captures_(captures),
        matcher_(job.layers), save_(save_of(job.save)), reduce_(reduce_of(job.reduce)) {}

  // One batch's forward and backward; what it captured waits in the Pass for store().
  struct Pass {
    TraceCollector trace;
    std::unique_ptr<BatchFile> file;     // when saving tensors
    std::unique_ptr<Recorder> recorder;  // reads `trace`, so the Pass never moves
    std::vector<std::string> labels;

    double disk_seconds() const { return file ? file->seconds() : 0.0; }
  };

  std::unique_ptr<Pass> run_pass(const std::vector<c10::IValue>& batch, const at::Tensor& seed) {
    auto pass = std::make_unique<Pass>();
    CallSelection select(matcher_, session_.model.tree(), pass->trace);
    if (save_ != SaveFormat::none)
      pass->file = std::make_unique<BatchFile>(spool_dir() + "/batch-" +
                                               std::to_string(batches_ + 1) + ".raw");
    pass->recorder = std::make_unique<Recorder>(captures_, pass->file.get(), select);
    c10::IValue output = run_forward(session_.model, batch, {true}, *pass->recorder, pass->trace);
    throw_if_interrupted();  // a long pass ends in the next phase otherwise; never inside hooks
    pass->labels = call_labels(session_.model.tree(), pass->trace.trace());
    if (!validated_) {
      matcher_.select(layer_refs(session_.model.tree(), pass->trace.trace(), pass->labels));
      validated_ = true;
    }
    if (job_.backward) run_backward(output, {job_.loss, seed, job_.grad_file});
    throw_if_interrupted();
    return pass;
  }

  // Merges the pass's statistics and appends its tensors to disk (timed apart: disk time).
  void store(Pass& pass) {
    collect(*pass.recorder, pass.trace.trace(), pass.labels);
    ++batches_;
  }

  void write(std::ostream& out) {
    write_tensor_files(layers_);
    std::filesystem::remove_all(spool_dir());
    write_file_atomic(dir_ + "/stats.json", stats_json(layers_).dump(1) + "\n");
    write_file_atomic(dir_ + "/stats.csv", stats_csv(layers_));
    const std::string manifest = manifest_json().dump(2) + "\n";
    write_file_atomic(dir_ + "/manifest.json", manifest);
    if (job_.print_manifest) out << manifest;
  }

 private:
  void collect(Recorder& recorder, const CallTrace& trace, const std::vector<std::string>& labels) {
    const auto numbers = call_numbers(trace);
    for (const CapturedCall& c : recorder.captured()) {
      LayerRecording& layer =
          layer_for(labels[c.call], c.module, numbers[c.call], trace.calls[c.call].traced_away);
      for (Capture capture : captures_.list()) layer.sink(capture).add(captured_value(c, capture));
    }
  }

  std::string spool_dir() const { return dir_ + "/.spool"; }

  LayerRecording& layer_for(const std::string& label, int module, int number, bool traced_away) {
    auto it = by_label_.find(label);
    if (it != by_label_.end()) return layers_[it->second];
    const Module& m = session_.model.tree().modules[module];
    if (traced_away)
      spdlog::warn("layer {} {} ({}) was traced away: its call passes no tensor, nothing to record",
                   label, m.path, m.type);
    LayerRecording layer{label, m.path, m.type, number, traced_away, {}};
    for (Capture capture : captures_.list())
      layer.captures.push_back({capture, CaptureSink(save_, reduce_, dir_, label, capture), {}});
    by_label_[label] = layers_.size();
    layers_.push_back(std::move(layer));
    return layers_.back();
  }

  nlohmann::json manifest_json() const {
    nlohmann::json tensors = nlohmann::json::array();
    for (const auto& v : session_.inputs)
      tensors.push_back({{"shape", v.toTensor().sizes().vec()},
                         {"dtype", dtype_name(v.toTensor().scalar_type())}});
    const nlohmann::json inputs = {{"files", job_.inputs.files},
                                   {"sizes", job_.inputs.sizes},
                                   {"seed", job_.inputs.seed},
                                   {"tensors", tensors}};
    return {{"modrec_version", modrec_version()},
            {"libtorch_version", libtorch_version()},
            {"model", {{"path", job_.model.path}, {"sha256", sha256_file(job_.model.path)}}},
            {"inputs", inputs},
            {"options",
             {{"layers", job_.layers}, {"capture", capture_names()}, {"loss", job_.loss},
              {"grad_file", job_.grad_file.empty() ? nlohmann::json() : nlohmann::json(job_.grad_file)},
              {"backward", job_.backward}, {"save", job_.save},
              {"batch_size", job_.batch_size ? nlohmann::json(job_.batch_size) : nlohmann::json()},
              {"reduce", job_.reduce == "none" ? nlohmann::json() : nlohmann::json(job_.reduce)},
              {"mode", job_.model.train ? "train" : "eval"}}},
            {"batches", batches_},
            {"samples", samples()},
            {"layers", manifest_layers(layers_)}};
  }

  std::vector<std::string> capture_names() const {
    std::vector<std::string> out;
    for (Capture c : captures_.list()) out.push_back(capture_name(c));
    return out;
  }

  int64_t samples() const {
    const at::Tensor& t = session_.inputs.at(0).toTensor();
    return t.dim() ? t.size(0) : 1;
  }

  const RecordJob& job_;
  Session& session_;
  std::string dir_;
  CaptureSet captures_;
  LayerMatcher matcher_;
  SaveFormat save_;
  Reduce reduce_;
  bool validated_ = false;
  int batches_ = 0;
  std::vector<LayerRecording> layers_;
  std::map<std::string, size_t> by_label_;
};

}  // namespace

void run_record_job(const RecordJob& job, std::ostream& out) {
  check_options(job);
  const at::Tensor seed = job.grad_file.empty() ? at::Tensor() : read_gradient_seed(job.grad_file);
  AtomicDir dir(job.out, job.force);  // refuses an existing --out before any work
  InterruptGuard interrupts;
  Stopwatch clock;
  const CaptureSet captures = captures_of(job);
  Session session = open_session(job.model, job.inputs, {captures.grad_input});
  spdlog::debug("timing: load {:.6f} s", clock.lap());
  spdlog::debug("statistics on {} threads", statistics_threads());
  Recording recording(job, captures, session, dir.path());
  const auto batches = split_batches(session.inputs, job.batch_size);
  if (seed.defined() && batches.size() > 1)
    throw Error(Exit::usage, "--grad cannot be combined with --batch-size", "--grad",
                "record the whole input as one batch");
  for (size_t i = 0; i < batches.size(); ++i) {
    throw_if_interrupted();
    // Kept tensors are written as they are captured: that disk time counts as the store's.
    auto pass = recording.run_pass(batches[i], seed);
    const double written = pass->disk_seconds();
    spdlog::debug("timing: batch {} pass {:.6f} s", i + 1, clock.lap() - written);
    recording.store(*pass);
    spdlog::debug("timing: batch {} store {:.6f} s", i + 1, clock.lap() + written);
    if (job.progress) job.progress(static_cast<int>(i + 1), static_cast<int>(batches.size()));
  }
  throw_if_interrupted();
  recording.write(out);
  dir.commit();
  spdlog::debug("timing: write {:.6f} s", clock.lap());
}

}  // namespace modrec
