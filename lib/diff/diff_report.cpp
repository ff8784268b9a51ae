#include "diff/diff_report.h"

#include <algorithm>
#include <cmath>

#include "check/report_table.h"
#include "util/error.h"

namespace modrec {
namespace {
using nlohmann::json;

std::string shape_cell(const TensorDiff& d) {
  if (d.shape_a == d.shape_b) return format_shape(d.shape_a);
  return format_shape(d.shape_a) + " vs " + format_shape(d.shape_b);
}

std::string status_cell(const TensorDiff& d) {
  if (!d.not_recorded.empty()) return "not recorded: " + d.not_recorded;
  if (!d.problem.empty()) return d.problem;
  return d.passed() ? "ok" : "beyond tolerance";
}

std::vector<std::string> metric_cells(const TensorDiff& d) {
  if (!d.values) return {"-", "-", "-", "-", "-", "-"};
  const ValueDiff& v = *d.values;
  return {format_number(v.max_abs),  format_number(v.mean_abs),
          format_number(v.max_rel),  v.cosine ? format_number(*v.cosine) : "-",
          format_number(v.min_atol), format_number(v.min_rtol)};
}

ReportTable diff_table(const RunDiff& diff) {
  ReportTable t{{"label", "path", "tensor", "source", "shape", "max_abs", "mean_abs", "max_rel",
                 "cosine", "min_atol", "min_rtol", "status"},
                {}};
  for (const TensorDiff& d : diff.tensors) {
    std::vector<std::string> row{d.layer.label, d.layer.path, d.element, d.source, shape_cell(d)};
    for (auto& cell : metric_cells(d)) row.push_back(std::move(cell));
    row.push_back(status_cell(d));
    t.rows.push_back(std::move(row));
  }
  return t;
}

int64_t figure(const CallMemory& m, const std::string& name) {
  if (name == "saved_bytes") return m.saved_bytes;
  return name == "peak_forward_bytes" ? m.peak_forward_bytes : m.peak_backward_bytes;
}

// A row per measured figure that changed beyond tolerance: both runs' bytes and their ratio.
ReportTable memory_table(const RunDiff& diff) {
  ReportTable t{{"label", "path", "memory", "run_a", "run_b", "a/b"}, {}};
  for (const MemoryDiff& d : diff.memory)
    for (const std::string& name : d.changed) {
      const int64_t a = figure(d.a, name), b = figure(d.b, name);
      t.rows.push_back({d.layer.label, d.layer.path, name, std::to_string(a), std::to_string(b),
                        b ? format_number(static_cast<double>(a) / static_cast<double>(b)) : "-"});
    }
  return t;
}

// "; 2 of 12 layers' measured memory changed beyond memory-rtol=0.1", when both runs measured it.
std::string memory_clause(const RunDiff& diff, const Tolerance& tol) {
  if (diff.memory.empty()) return "";
  const size_t changed = std::count_if(diff.memory.begin(), diff.memory.end(),
                                       [](const MemoryDiff& d) { return !d.passed(); });
  return "; " + std::to_string(changed) + " of " + std::to_string(diff.memory.size()) +
         " layers' measured memory changed beyond memory-rtol=" + format_number(tol.memory_rtol);
}

std::string tolerance_text(const Tolerance& tol) {
  std::string text = "atol=" + format_number(tol.atol) + " rtol=" + format_number(tol.rtol);
  if (tol.rule != ErrorRule::allclose) text += " rule=" + name_of(error_rule_names(), tol.rule);
  if (tol.stat != ErrorStat::elemwise)
    text += " error-stat=" + name_of(error_stat_names(), tol.stat);
  return text;
}

std::string verdict(const RunDiff& diff, const DiffHeading& h) {
  const size_t failed = std::count_if(diff.tensors.begin(), diff.tensors.end(),
                                      [](const TensorDiff& d) { return !d.passed(); });
  const size_t unrecorded =
      std::count_if(diff.tensors.begin(), diff.tensors.end(),
                    [](const TensorDiff& d) { return !d.not_recorded.empty(); });
  const size_t compared = diff.tensors.size() - unrecorded;
  const std::string tol = tolerance_text(h.tol);
  // Why each was not recorded (no derivative on its way, or untold) is its status.
  const std::string runs =
      " (" + h.run_a + " vs " + h.run_b + ")" +
      (unrecorded ? "; " + std::to_string(unrecorded) +
                        (unrecorded == 1 ? " gradient" : " gradients") + " not recorded"
                  : "");
  const std::string memory = memory_clause(diff, h.tol);
  if (failed == 0)
    return std::string(diff.passed() ? "diff passed: " : "diff failed: ") +
           std::to_string(compared) + " tensors within " + tol + memory + runs;
  return "diff failed: " + std::to_string(failed) + " of " + std::to_string(compared) +
         " tensors differ beyond " + tol + " or in shape" + memory + runs;
}

// The call where the runs part, and what its first differing output tensor looks like.
std::string first_diverging_line(const RunDiff& diff) {
  if (!diff.first_diverging) return "";
  const TensorDiff& d = diff.tensors[*diff.first_diverging];
  std::string line = "first diverging call: " + d.layer.label + " " + d.layer.path + " (" +
                     d.layer.type + ") " + d.element;
  if (d.values)
    line += ": max_abs " + format_number(d.values->max_abs) + ", min_atol " +
            format_number(d.values->min_atol) + ", min_rtol " + format_number(d.values->min_rtol);
  else
    line += ": " + d.problem;
  return line + "\n";
}

// Each differing tensor's histogram of absolute errors, one line each.
std::string histogram_lines(const RunDiff& diff) {
  std::string out;
  for (const TensorDiff& d : diff.tensors) {
    if (!d.values || !d.values->histogram) continue;
    const ErrorHistogram& h = *d.values->histogram;
    out += "|a-b| histogram " + d.layer.label + " " + d.element + " [" +
           format_number(h.edges.front()) + ", " + format_number(h.edges.back()) + "]:";
    for (int64_t c : h.counts) out += " " + std::to_string(c);
    out += "\n";
  }
  return out;
}

// `bullet` makes the line a markdown list item, so that two of them stay two lines.
std::string labels_line(const char* which, const std::vector<LayerRef>& layers, bool bullet) {
  if (layers.empty()) return "";
  std::string line = std::string(bullet ? "- " : "") + "only in " + which + ": ";
  for (size_t i = 0; i < layers.size(); ++i)
    line += (i ? ", " : "") + layers[i].label + " (" + layers[i].path + ")";
  return line + "\n";
}

json labels_json(const std::vector<LayerRef>& layers) {
  json labels = json::array();
  for (const auto& l : layers) labels.push_back(l.label);
  return labels;
}

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json histogram_json(const std::optional<ValueDiff>& v) {
  if (!v || !v->histogram) return nullptr;
  return {{"edges", v->histogram->edges}, {"counts", v->histogram->counts}};
}

json first_diverging_json(const RunDiff& diff) {
  if (!diff.first_diverging) return nullptr;
  const TensorDiff& d = diff.tensors[*diff.first_diverging];
  return {{"label", d.layer.label}, {"path", d.layer.path}, {"type", d.layer.type},
          {"capture", d.capture},   {"tensor", d.tensor},   {"element", d.element}};
}

json memory_json(const MemoryDiff& d) {
  return {{"label", d.layer.label}, {"path", d.layer.path}, {"run_a", d.a},
          {"run_b", d.b},           {"changed", d.changed}, {"passed", d.passed()}};
}

json tensor_json(const TensorDiff& d) {
  json j{{"label", d.layer.label},
         {"path", d.layer.path},
         {"capture", d.capture},
         {"tensor", d.tensor >= 0 ? json(d.tensor) : json(nullptr)},
         {"element", d.element},
         {"source", d.source},
         {"shape_a", d.shape_a},
         {"shape_b", d.shape_b},
         {"passed", d.passed()},
         {"problem", d.problem},
         {"not_recorded", d.not_recorded.empty() ? json(nullptr) : json(d.not_recorded)}};
  const bool have = d.values.has_value();
  j["max_abs"] = have ? number_or_null(d.values->max_abs) : json(nullptr);
  j["mean_abs"] = have ? number_or_null(d.values->mean_abs) : json(nullptr);
  j["max_rel"] = have ? number_or_null(d.values->max_rel) : json(nullptr);
  j["cosine"] = have && d.values->cosine ? number_or_null(*d.values->cosine) : json(nullptr);
  j["min_atol"] = have ? number_or_null(d.values->min_atol) : json(nullptr);
  j["min_rtol"] = have ? number_or_null(d.values->min_rtol) : json(nullptr);
  j["histogram"] = histogram_json(d.values);
  return j;
}

}  // namespace

json diff_json(const RunDiff& diff, const DiffHeading& h) {
  json tensors = json::array(), memory = json::array();
  for (const TensorDiff& d : diff.tensors) tensors.push_back(tensor_json(d));
  for (const MemoryDiff& d : diff.memory) memory.push_back(memory_json(d));
  return {{"run_a", h.run_a},
          {"run_b", h.run_b},
          {"atol", h.tol.atol},
          {"rtol", h.tol.rtol},
          {"rule", name_of(error_rule_names(), h.tol.rule)},
          {"error_stat", name_of(error_stat_names(), h.tol.stat)},
          {"passed", diff.passed()},
          {"first_diverging", first_diverging_json(diff)},
          {"tensors", tensors},
          {"memory_rtol", h.tol.memory_rtol},
          {"memory", memory},
          {"only_in_a", labels_json(diff.only_in_a)},
          {"only_in_b", labels_json(diff.only_in_b)}};
}

std::string format_diff(const RunDiff& diff, const DiffHeading& h, ReportFormat format) {
  auto only = [&](bool bullet) {
    return labels_line("RUN_A", diff.only_in_a, bullet) +
           labels_line("RUN_B", diff.only_in_b, bullet);
  };
  switch (format) {
    case ReportFormat::table: {
      const ReportTable memory = memory_table(diff);
      return verdict(diff, h) + "\n" + first_diverging_line(diff) + format_text(diff_table(diff)) +
             histogram_lines(diff) + (memory.rows.empty() ? "" : "\n" + format_text(memory)) +
             only(false);
    }
    case ReportFormat::markdown: {
      const std::string list = only(true);
      const std::string first = first_diverging_line(diff);
      const ReportTable memory = memory_table(diff);
      return "### modrec " + verdict(diff, h) + "\n\n" + (first.empty() ? "" : first + "\n") +
             format_markdown(diff_table(diff)) +
             (memory.rows.empty() ? "" : "\n" + format_markdown(memory)) +
             (list.empty() ? "" : "\n" + list);
    }
    case ReportFormat::json:
      break;
  }
  return diff_json(diff, h).dump(2) + "\n";
}

}  // namespace modrec
