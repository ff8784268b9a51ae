#include "checkpoint/checkpoint_table.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include "check/report_table.h"
#include "summary/cells.h"
#include "summary/text.h"
#include "util/csv_path.h"
#include "util/text.h"

namespace modrec {
namespace {
using nlohmann::json;

// The module tree the names spell, children in the order first named.
struct Node {
  std::string path, name;
  std::vector<size_t> children, tensors;
};

// The root row's label: the file's name, or the folder's ("tiny-bert/" is tiny-bert).
std::string root_name(const std::string& path) {
  const std::filesystem::path p(path);
  return (p.has_filename() ? p.filename() : p.parent_path().filename()).string();
}

std::vector<Node> name_tree(const Checkpoint& c) {
  std::vector<Node> nodes{{"", root_name(c.path)}};
  std::map<std::string, size_t> index{{"", 0}};
  for (size_t i = 0; i < c.tensors.size(); ++i) {
    const std::string& name = c.tensors[i].name;
    size_t parent = 0;
    for (size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
      const std::string path = name.substr(0, dot);
      auto [it, added] = index.emplace(path, nodes.size());
      if (added) {
        const size_t start = nodes[parent].path.empty() ? 0 : nodes[parent].path.size() + 1;
        nodes.push_back({path, path.substr(start)});
        nodes[parent].children.push_back(it->second);
      }
      parent = it->second;
    }
    nodes[parent].tensors.push_back(i);
  }
  return nodes;
}

const CheckpointSubclass* subclass_of(const Checkpoint& c, const CheckpointRow& row) {
  return row.subclass < 0 ? nullptr : &c.subclasses[static_cast<size_t>(row.subclass)];
}

// "Int8Tensor" of "torchao.quantization.Int8Tensor".
std::string class_name(const std::string& type) { return type.substr(type.rfind('.') + 1); }

// The rows --depth shows, each as its name (tree prefix, label) and cells: shape, dtype, count.
using Line = std::function<void(const std::string& name, const std::vector<std::string>& cells)>;
void visible_lines(const Checkpoint& c, const CheckpointSummary& s, const SummaryOptions& options,
                   const Line& line) {
  const bool ascii = options.has(RowSetting::ascii_only);
  for (const CheckpointRow& row : s.rows) {
    if (row.depth > options.depth) continue;
    const CheckpointSubclass* sub = subclass_of(c, row);
    const std::string name = sub ? row.name + " (" + class_name(sub->type) + ")" : row.name;
    const std::string label = row.depth ? name + ": " + row.label : name;
    line(tree_prefix(row.depth, ascii) + label,
         {sub ? text::list_repr(sub->shape) : "--", sub ? dtype_name(sub->dtype) : "--",
          text::with_commas(row.params)});
    if (row.depth + 1 > options.depth) continue;  // its tensors are one level deeper
    for (size_t i : row.tensors) {
      const CheckpointTensor& t = c.tensors[i];
      line(tree_prefix(row.depth + 1, ascii) + t.leaf(),
           {text::list_repr(t.shape), dtype_name(t.dtype), text::with_commas(t.numel())});
    }
  }
}

std::vector<std::string> totals_lines(const Checkpoint& c, const CheckpointSummary& s) {
  const size_t files = c.files.size();
  std::vector<std::string> lines = {
      "Total params: " + text::with_commas(s.params),
      "Tensors: " + text::with_commas(static_cast<int64_t>(c.tensors.size())) + " in " +
          std::to_string(files) + (files == 1 ? " file (" : " files (") + format_name(c.format) +
          ")",
      "Params size (MB): " + text::fixed2(static_cast<double>(s.bytes) / 1e6)};
  for (const auto& [dtype, total] : s.by_dtype)
    lines.push_back(std::string(dtype_name(dtype)) + ": " + text::with_commas(total.params) +
                    " params, " + text::with_commas(total.bytes) + " bytes, " +
                    text::with_commas(total.tensors) + " tensors");
  return lines;
}

std::string format_text(const Checkpoint& c, const CheckpointSummary& s,
                        const SummaryOptions& options) {
  std::vector<std::pair<std::string, std::vector<std::string>>> lines;
  size_t name_width = 40, shape_width = 25;
  visible_lines(c, s, options, [&](const std::string& name, const std::vector<std::string>& cells) {
    name_width = std::max(name_width, (text::display_len(name) + 5) / 5 * 5);
    shape_width = std::max(shape_width, cells[0].size() + 1);
    lines.push_back({name, cells});
  });
  auto row = [&](const std::string& name, const std::string& shape, const std::string& dtype,
                 const std::string& params) {
    return text::rstrip(text::pad_right(name, name_width) + " " +
                        text::pad_right(shape, shape_width) + " " + text::pad_right(dtype, 15) +
                        " " + params) +
           "\n";
  };
  const std::string divider(name_width + shape_width + 15 + 15 + 3, '=');
  std::string out =
      divider + "\n" + row("Layer (name:depth-idx)", "Shape", "Dtype", "Param #") + divider + "\n";
  for (const auto& [name, cells] : lines) out += row(name, cells[0], cells[1], cells[2]);
  out += divider + "\n";
  for (const std::string& l : totals_lines(c, s)) out += l + "\n";
  return out + divider + "\n";
}

std::string format_markdown_table(const Checkpoint& c, const CheckpointSummary& s,
                                  const SummaryOptions& options) {
  ReportTable rows{{"Layer (name:depth-idx)", "Shape", "Dtype", "Param #"}, {}};
  SummaryOptions ascii = options;
  ascii.row_settings.push_back(
      RowSetting::ascii_only);  // a markdown cell keeps no box drawing aligned
  visible_lines(c, s, ascii, [&](const std::string& name, const std::vector<std::string>& cells) {
    rows.rows.push_back({name, cells[0], cells[1], cells[2]});
  });
  ReportTable totals{{"Total"}, {}};
  for (const std::string& l : totals_lines(c, s)) totals.rows.push_back({l});
  return format_markdown(rows) + "\n" + format_markdown(totals);
}

std::string format_csv(const Checkpoint& c, const CheckpointSummary& s,
                       const SummaryOptions& options) {
  std::string out = csv_line({"kind", "label", "name", "depth", "shape", "dtype", "num_params"});
  for (const CheckpointRow& row : s.rows) {
    if (row.depth > options.depth) continue;
    const CheckpointSubclass* sub = subclass_of(c, row);
    out += csv_line({sub ? "subclass" : "module", row.label, csv_path(row.path),
                     std::to_string(row.depth), sub ? shape_text(sub->shape) : "",
                     sub ? dtype_name(sub->dtype) : "", std::to_string(row.params)});
    if (row.depth + 1 > options.depth) continue;
    for (size_t i : row.tensors) {
      const CheckpointTensor& t = c.tensors[i];
      out += csv_line({"tensor", "", t.name, std::to_string(row.depth + 1), shape_text(t.shape),
                       dtype_name(t.dtype), std::to_string(t.numel())});
    }
  }
  return out;
}

json to_json(const Checkpoint& c, const CheckpointSummary& s) {
  json rows = json::array();
  for (const CheckpointRow& row : s.rows) {
    json tensors = json::array();
    for (size_t i : row.tensors) {
      const CheckpointTensor& t = c.tensors[i];
      tensors.push_back({{"name", t.name},
                         {"shape", t.shape},
                         {"dtype", dtype_name(t.dtype)},
                         {"num_params", t.numel()},
                         {"bytes", t.bytes},
                         {"file", c.files[static_cast<size_t>(t.file)]},
                         {"offset", t.offset}});
      if (!t.subclass.empty()) tensors.back()["subclass"] = t.subclass;
    }
    rows.push_back({{"label", row.label},
                    {"path", row.path},
                    {"depth", row.depth},
                    {"num_params", row.params},
                    {"tensors", tensors}});
    if (const CheckpointSubclass* sub = subclass_of(c, row))
      rows.back()["subclass"] = {
          {"type", sub->type}, {"shape", sub->shape}, {"dtype", dtype_name(sub->dtype)}};
  }
  json dtypes = json::object();
  for (const auto& [dtype, t] : s.by_dtype)
    dtypes[dtype_name(dtype)] = {{"params", t.params}, {"bytes", t.bytes}, {"tensors", t.tensors}};
  return {{"checkpoint", c.path},
          {"format", format_name(c.format)},
          {"files", c.files},
          {"metadata", c.metadata},
          {"rows", rows},
          {"totals",
           {{"params", s.params},
            {"bytes", s.bytes},
            {"tensors", c.tensors.size()},
            {"dtypes", dtypes}}}};
}

}  // namespace

CheckpointSummary summarize(const Checkpoint& checkpoint) {
  const std::vector<Node> nodes = name_tree(checkpoint);
  CheckpointSummary s;
  std::map<std::string, int> subclass_at;
  for (size_t i = 0; i < checkpoint.subclasses.size(); ++i)
    subclass_at[checkpoint.subclasses[i].name] = static_cast<int>(i);
  std::map<int, int> per_depth;
  // Preorder; a row's params are its own tensors' plus its children's, added once they return.
  std::function<int64_t(size_t, int)> visit = [&](size_t n, int depth) -> int64_t {
    const size_t at = s.rows.size();
    const auto sub = subclass_at.find(nodes[n].path);
    s.rows.push_back({nodes[n].path, nodes[n].name, depth,
                      std::to_string(depth) + "-" + std::to_string(++per_depth[depth]), 0,
                      nodes[n].tensors, sub == subclass_at.end() ? -1 : sub->second});
    int64_t params = 0;
    for (size_t i : nodes[n].tensors) params += checkpoint.tensors[i].numel();
    for (size_t child : nodes[n].children) params += visit(child, depth + 1);
    s.rows[at].params = params;
    return params;
  };
  s.params = visit(0, 0);
  for (const CheckpointTensor& t : checkpoint.tensors) {
    DTypeTotal& d = s.by_dtype[t.dtype];
    d.params += t.numel(), d.bytes += static_cast<int64_t>(t.bytes), ++d.tensors;
    s.bytes += static_cast<int64_t>(t.bytes);
  }
  return s;
}

std::string format_checkpoint(const Checkpoint& checkpoint, const CheckpointSummary& summary,
                              const SummaryOptions& options, SummaryFormat format) {
  switch (format) {
    case SummaryFormat::table:
      return format_text(checkpoint, summary, options);
    case SummaryFormat::markdown:
      return format_markdown_table(checkpoint, summary, options);
    case SummaryFormat::csv:
      return format_csv(checkpoint, summary, options);
    case SummaryFormat::json:
      break;
  }
  return to_json(checkpoint, summary).dump(2) + "\n";
}

}  // namespace modrec
