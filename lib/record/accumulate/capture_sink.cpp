#include "record/accumulate/capture_sink.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "pass/value_meta.h"
#include "rundir/run_dir.h"
#include "rundir/run_paths.h"
#include "files/scalar_type.h"
#include "arguments/input_manifest.h"
#include "tensor_files/write_tensors.h"
#include "util/atomic_file.h"

namespace modrec {
void CaptureSink::add(const CapturedValue& value) {
  for (const NoGradient& g : value.no_gradient)
    if (std::none_of(no_gradient_.begin(), no_gradient_.end(),
                     [&](const NoGradient& known) { return known.at == g.at; }))
      no_gradient_.push_back(g);
  if (stats_.empty()) start(value);
  for (size_t i = 0; i < value.tensors.size() && i < stats_.size(); ++i) {
    const TensorSummary& t = value.tensors[i];
    stats_[i].merge(t.stats);
    if (!dtypes_[i]) {
      shapes_[i] = t.shape;
      dtypes_[i] = t.dtype;
    } else if (!t.shape.empty() && !shapes_[i].empty()) {
      shapes_[i][0] += t.shape[0];
    }
  }
  if (!value.tensors.empty() && !value.tensors[0].shape.empty())
    samples_ += value.tensors[0].shape[0];
  for (size_t i = 0; i < value.stored.size() && i < stats_.size(); ++i) keep(i, value.stored[i]);
}

// At the first batch with tensors: their number fixes the file names.
void CaptureSink::start(const CapturedValue& value) {
  structure_ = value.structure;
  places_ = tensor_places(structure_);
  const size_t n = value.tensors.size();
  stats_.resize(n);
  shapes_.resize(n);
  dtypes_.resize(n);
  reduced_.resize(n);
  if (save_ == SaveFormat::none || reduce_ != Reduce::none) return;
  for (size_t i = 0; i < n; ++i)
    spools_.emplace_back("layer " + label_ + ", " + capture_name(capture_) +
                         (n > 1 ? ", tensor " + std::to_string(i) : std::string()));
}

nlohmann::json CaptureSink::non_tensor_values() const {
  nlohmann::json out = nlohmann::json::array();
  // Only a call's arguments and results have values besides tensors (a gradient's structure
  // holds None where no gradient arrived).
  if (capture_ != Capture::input && capture_ != Capture::output) return out;
  for_each_non_tensor(structure_, [&](const std::string& at, const c10::IValue& v) {
    out.push_back(
        {{"at", at}, {"type", v.isNone() ? "None" : v.type()->str()}, {"value", value_json(v)}});
  });
  return out;
}

std::string CaptureSink::tensor_place(size_t i) const {
  return names_.empty() && i < places_.size() ? places_[i] : "";
}

std::string CaptureSink::element(size_t i) const {
  return tensor_element(capture_name(capture_), i < names_.size() ? names_[i] : "", tensor_place(i),
                        i, num_tensors());
}

std::string CaptureSink::relative_dir() const { return run_paths::tensors_of(label_); }

std::string CaptureSink::file_stem(size_t i) const {
  const std::string capture = capture_name(capture_);
  if (!names_.empty()) return capture + "." + names_[i];
  return stats_.size() == 1 ? capture : capture + "." + std::to_string(i);
}

void CaptureSink::keep(size_t i, const BatchFileTensor& stored) {
  if (save_ == SaveFormat::none) return;
  if (reduce_ == Reduce::none) {
    spools_[i].append(stored);
    return;
  }
  const at::Tensor t = take_stored(stored);
  at::Tensor summed = t.dim() > 0 ? t.to(at::kDouble).sum(0) : t.to(at::kDouble);
  reduced_[i] = reduced_[i].defined() ? reduced_[i] + summed : summed;
}

at::Tensor CaptureSink::result(size_t i) {
  if (reduce_ == Reduce::none) return spools_[i].take();
  at::Tensor r =
      reduce_ == Reduce::mean && samples_ > 0 ? reduced_[i] / double(samples_) : reduced_[i];
  return r.to(saved_dtype(i));
}

std::vector<int64_t> CaptureSink::saved_shape(size_t i) const {
  if (reduce_ == Reduce::none || shapes_[i].empty()) return shapes_[i];
  return {shapes_[i].begin() + 1, shapes_[i].end()};
}

std::string CaptureSink::dtype(size_t i) const { return dtypes_[i] ? dtype_name(*dtypes_[i]) : ""; }

at::ScalarType CaptureSink::saved_dtype(size_t i) const {
  const at::ScalarType type = dtypes_[i].value_or(at::ScalarType::Undefined);
  return reduce_ == Reduce::none || type == at::kDouble ? type : at::kFloat;
}

std::vector<std::string> CaptureSink::write() {
  std::vector<std::string> files;
  if (save_ == SaveFormat::none || stats_.empty()) return files;
  make_directories(run_dir_ + "/" + relative_dir());
  if (save_ == SaveFormat::pt && !names_.empty()) {
    for (size_t i = 0; i < stats_.size(); ++i) {
      files.push_back(relative_dir() + "/" + file_stem(i) + ".pt");
      write_pt(run_dir_ + "/" + files.back(), result(i));
    }
    return files;
  }
  if (save_ == SaveFormat::pt) {
    std::vector<at::Tensor> tensors;
    for (size_t i = 0; i < stats_.size(); ++i) tensors.push_back(result(i));
    files.push_back(relative_dir() + "/" + capture_name(capture_) + ".pt");
    write_pt(run_dir_ + "/" + files.back(), rebuild_tensors(structure_, tensors));
    return files;
  }
  for (size_t i = 0; i < stats_.size(); ++i) {
    files.push_back(relative_dir() + "/" + file_stem(i) + ".npy");
    if (reduce_ == Reduce::none)
      spools_[i].write_npy(run_dir_ + "/" + files.back());
    else
      write_npy(run_dir_ + "/" + files.back(), result(i));
  }
  return files;
}

}  // namespace modrec
