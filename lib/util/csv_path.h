// A module's path in a CSV file (summary --format csv, stats.csv, steps.csv): the root module's
// path, "" as PyTorch's named_modules() names it, is written "(root)". An empty field is a missing
// value to pandas (read_csv makes it NaN, and `df.path == ""` finds nothing) and to spreadsheets;
// "(root)" cannot be a submodule's path, whose parts are attribute names joined by dots. JSON keeps
// "", PyTorch's name.
#pragma once
#include <string>

namespace modrec {

inline constexpr const char* kRootPathCell = "(root)";

// `path` as a CSV cell holds it, before csv_field quotes it where needed.
std::string csv_path(const std::string& path);

}  // namespace modrec
