// The one reader of JSON that comes from a file (a model's, a checkpoint's, a run directory's):
// the text is untrusted input. nlohmann's parser recurses once per nesting level, so a file
// nesting 200,000 arrays overflows the stack; read_json measures the nesting before parsing and
// refuses what no real file nears. Python's json module writes non-finite floats as bare NaN,
// Infinity and -Infinity (ExecuTorch's ETRecord does), which JSON and nlohmann reject: where the
// caller allows them they are read as the strings "NaN", "Infinity" and "-Infinity", the form
// torch.export.save writes them in, so one reader of a number handles both files.
#pragma once
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

namespace modrec {

struct JsonLimits {
  std::size_t max_bytes = std::size_t{1} << 30;  // the text's size
  std::size_t max_depth = 512;                   // arrays and objects inside each other
  bool non_finite = false;                       // bare NaN, Infinity, -Infinity read as strings
};

// The deepest nesting of arrays and objects in the JSON `text`, read without parsing it.
std::size_t json_depth(std::string_view text);

// Parses `text` within `limits`. Throws nlohmann::json::parse_error, as nlohmann::json::parse does,
// for text that is not JSON and for text beyond the limits (its message says which limit and at
// which byte), so that every caller names the defect with the file it read.
nlohmann::json read_json(std::string_view text, const JsonLimits& limits = {});

// Like read_json, but a value (not an exception) for text that is not JSON or beyond the limits:
// nlohmann::json's discarded value, as nlohmann::json::parse(text, nullptr, false) gives.
nlohmann::json read_json_or_discarded(std::string_view text, const JsonLimits& limits = {});

// A number as read_json gives it: a JSON number, or one of the strings "NaN", "Infinity" and
// "-Infinity". Throws nlohmann::json::type_error for anything else.
double json_number(const nlohmann::json& value);

}  // namespace modrec
