#include "model/layer_match.h"

#include <algorithm>
#include <sstream>

#include "util/error.h"
#include "util/nearest.h"

namespace modrec {
namespace {

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

[[noreturn]] void bad_selector(const std::string& what, const std::string& hint) {
  throw Error(Exit::usage, what, "--layers", hint);
}

// "valid labels: 1-3 (layer1.0), …", the labels (or paths) nearest to `wanted` first.
std::string valid_labels_hint(const std::string& wanted, const std::vector<LayerRef>& layers) {
  std::vector<std::pair<size_t, const LayerRef*>> ranked;
  for (const LayerRef& l : layers)
    ranked.push_back({std::min(edit_distance(wanted, l.label), edit_distance(wanted, l.path)), &l});
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  constexpr size_t shown = 12;
  std::ostringstream hint;
  hint << "valid labels: ";
  for (size_t i = 0; i < ranked.size() && i < shown; ++i) {
    const LayerRef& l = *ranked[i].second;
    hint << (i ? ", " : "") << l.label << " (" << (l.path.empty() ? "root" : l.path) << ")";
  }
  if (ranked.size() > shown) hint << ", … " << ranked.size() - shown << " more";
  if (ranked.empty()) hint << "none (nothing was recorded)";
  return hint.str();
}

}  // namespace

int label_depth(const std::string& label) {
  const size_t dash = label.find('-');
  if (dash == std::string::npos || !all_digits(label.substr(0, dash)) ||
      !all_digits(label.substr(dash + 1)))
    return -1;
  return std::stoi(label.substr(0, dash));
}

LayerMatcher::Selector LayerMatcher::parse(const std::string& text) {
  Selector s{Kind::path, text, text, {}, -1};
  if (text.empty())
    bad_selector("empty layer selector", "give a comma list such as 1-3,type:Conv2d");
  if (text == "all") {
    s.kind = Kind::all;
  } else if (label_depth(text) >= 0) {
    s.kind = Kind::label;
  } else if (starts_with(text, "type:")) {
    s.kind = Kind::type;
    s.value = text.substr(5);
  } else if (starts_with(text, "depth:")) {
    s.kind = Kind::depth;
    s.value = text.substr(6);
    if (!all_digits(s.value) || s.value.size() > 6)
      bad_selector("bad layer selector '" + text + "'",
                   "depth:N takes a whole number, e.g. depth:2");
    s.depth = std::stoi(s.value);
  } else if (starts_with(text, "re:")) {
    s.kind = Kind::regex;
    s.value = text.substr(3);
    try {
      s.regex = std::regex(s.value, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      bad_selector("bad regular expression in '" + text + "': " + e.what(),
                   "re: takes an ECMAScript regex on the module path, e.g. re:^layer1\\.");
    }
  }
  return s;
}

LayerMatcher::LayerMatcher(const std::string& selectors) : text_(selectors) {
  std::string item;
  std::istringstream in(selectors);
  while (std::getline(in, item, ',')) selectors_.push_back(parse(item));
  if (selectors_.empty() || selectors.back() == ',') selectors_.push_back(parse(""));
}

bool LayerMatcher::matches(const Selector& s, const LayerRef& layer) {
  switch (s.kind) {
    case Kind::all:
      return true;
    case Kind::label:
      return layer.label == s.value;
    case Kind::type:
      return layer.type == s.value;
    case Kind::regex:
      return std::regex_search(layer.path, s.regex);
    case Kind::depth:
      return label_depth(layer.label) == s.depth;
    case Kind::path:
      return layer.path == s.value;
  }
  return false;
}

bool LayerMatcher::matches(const LayerRef& layer) const {
  return std::any_of(selectors_.begin(), selectors_.end(),
                     [&](const Selector& s) { return matches(s, layer); });
}

std::vector<size_t> LayerMatcher::select(const std::vector<LayerRef>& layers) const {
  for (const Selector& s : selectors_)
    if (s.kind != Kind::all && std::none_of(layers.begin(), layers.end(),
                                            [&](const LayerRef& l) { return matches(s, l); }))
      bad_selector("layer selector '" + s.text + "' matches no layer",
                   valid_labels_hint(s.value, layers));
  std::vector<size_t> picked;
  for (size_t i = 0; i < layers.size(); ++i)
    if (matches(layers[i])) picked.push_back(i);
  return picked;
}

}  // namespace modrec
