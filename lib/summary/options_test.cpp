#include "summary/options.h"

#include <doctest/doctest.h>

#include "util/error.h"

using namespace modrec;

namespace {
template <class Parse>
std::string usage_error(Parse parse) {
  try {
    parse();
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    return e.line();
  }
  return "";
}
std::string usage_error(const SummaryOptions& options) {
  return usage_error([&] { validate(options); });
}
}  // namespace

TEST_CASE("defaults and every valid name pass") {
  CHECK(usage_error(SummaryOptions{}).empty());
  for (const auto& [name, column] : column_names()) CHECK(parse_column(name) == column);
  for (const auto& [name, setting] : row_setting_names()) CHECK(parse_row_setting(name) == setting);
}

TEST_CASE("a bad value names its flag and lists the valid ones") {
  const std::string line = usage_error([] { parse_column("macs"); });
  CHECK(line.find("'macs'") != std::string::npos);
  CHECK(line.find("(--columns)") != std::string::npos);
  CHECK(line.find("kernel_size,input_size,output_size") != std::string::npos);

  CHECK(usage_error([] { parse_row_setting("depths"); }).find("(--row-settings)") !=
        std::string::npos);
  SummaryOptions options;
  options.depth = -1;
  CHECK(usage_error(options).find("(--depth)") != std::string::npos);
  options = {};
  options.col_width = 0;
  CHECK(usage_error(options).find("(--col-width)") != std::string::npos);
}

TEST_CASE("the flops column runs the FLOP observer") {
  SummaryOptions options;
  CHECK_FALSE(options.wants_flops());
  options.columns = {Column::num_params, Column::flops};
  CHECK(options.wants_flops());
  CHECK(options.has(RowSetting::depth));
  CHECK_FALSE(options.has(RowSetting::var_names));
}

TEST_CASE("default columns depend on the input") {
  CHECK(effective_columns({}, true) ==
        std::vector<Column>{Column::output_size, Column::num_params});
  CHECK(effective_columns({}, false) == std::vector<Column>{Column::num_params});
  CHECK(column_title(Column::params_percent) == "Param %");
}
