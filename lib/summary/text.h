// Python-style text formatting that torchinfo's output depends on (torch-free).
#pragma once
#include <cstdint>
#include <string>

#include "model/module_tree.h"

namespace modrec::text {

// f"{n:,}"
std::string with_commas(int64_t n);
// f"{x:,.2f}"
std::string fixed2_commas(double x);
// f"{x:0.2f}"
std::string fixed2(double x);
// f"{x:>7.2%}"
std::string percent7(double x);
// Python's repr of a list of ints: "[1, 64, 32, 32]".
std::string list_repr(const Shape& shape);
// Number of code points: Python's len() and the unit of its padding.
size_t display_len(const std::string& s);
// f"{s:<width}"
std::string pad_right(const std::string& s, size_t width);
// str.rstrip()
std::string rstrip(std::string s);

}  // namespace modrec::text
