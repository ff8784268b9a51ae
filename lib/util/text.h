// Small text forms shared by the CSV and table writers (torch-free).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace modrec {

// "2x64x16x16"; "" for a scalar's empty shape.
std::string shape_text(const std::vector<int64_t>& shape);

// "a,b,,c" at ',' -> {"a", "b", "", "c"}; "" -> {""}.
std::vector<std::string> split(const std::string& text, char separator);

// {"a", "b"} with ", " -> "a, b".
std::string join(const std::vector<std::string>& items, const std::string& separator);

// A CSV field, quoted (RFC 4180) only when it holds a comma, quote or newline.
std::string csv_field(const std::string& value);
// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF): what JSON output and Python's str need.
bool valid_utf8(const std::string& text);

// `text` with its control characters (newline, escape, ...) as '?': a file's own text quoted in a
// message that must stay one line.
std::string one_line(std::string text);

// The fields as one CSV line, each quoted as csv_field quotes it, ending in a newline.
std::string csv_line(const std::vector<std::string>& fields);

}  // namespace modrec
