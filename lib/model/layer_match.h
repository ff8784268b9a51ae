// `--layers` selectors over recorded or traced layer calls (torch-free), parsed once where the
// flag is read (record's and watch's --layers, check's and diff's, --edit's SELECTOR). check and
// diff select from recording directories; record/ and edit/ select from a call trace with the
// same rules.
//
// A selector list is comma-separated; a layer is selected when any selector matches it:
//   all             every layer
//   1-3             a depth-idx label, exactly
//   type:Conv2d     the module type name, exactly
//   re:<regex>      ECMAScript regex searched in the module path (re:^layer1\. anchors it)
//   depth:N         labels N-*
//   layer1.0.conv1  anything else: a module path, exactly
#pragma once
#include <regex>
#include <string>
#include <vector>

namespace modrec {

struct LayerRef {
  std::string label;  // "1-3"; the root call is "0-1"
  std::string path;   // module path, "" for the root
  std::string type;   // "Conv2d"
};

// The depth part of a depth-idx label ("1-3" -> 1); -1 when `label` is not one.
int label_depth(const std::string& label);

class LayerMatcher {
 public:
  // Throws Error(usage, ..., "--layers") on an empty selector, a bad regex or a bad depth.
  explicit LayerMatcher(const std::string& selectors);
  LayerMatcher() : LayerMatcher("all") {}

  // The selectors as given, for the manifest and messages.
  const std::string& text() const { return text_; }

  bool matches(const LayerRef& layer) const;
  // Indices of the selected layers, in order. Throws Error(usage, ..., "--layers") naming the
  // first selector (other than `all`) that matches none of `layers`, with the valid labels closest
  // to it first.
  std::vector<size_t> select(const std::vector<LayerRef>& layers) const;

 private:
  enum class Kind { all, label, type, regex, depth, path };
  struct Selector {
    Kind kind;
    std::string text;   // as given, for messages
    std::string value;  // the part after "type:" etc.
    std::regex regex;
    int depth = -1;
  };
  static Selector parse(const std::string& text);
  static bool matches(const Selector& s, const LayerRef& layer);
  std::string text_;
  std::vector<Selector> selectors_;
};

}  // namespace modrec
