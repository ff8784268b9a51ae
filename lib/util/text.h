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
// The fields as one CSV line, each quoted as csv_field quotes it, ending in a newline.
std::string csv_line(const std::vector<std::string>& fields);

}  // namespace modrec
