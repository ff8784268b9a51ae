#include "summary/options.h"

#include <doctest/doctest.h>

#include "util/error.h"

using namespace modrec;

namespace {
std::string usage_error(const SummaryOptions& options, bool has_input = true) {
  try {
    validate(options, has_input);
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    return e.line();
  }
  return "";
}
}  // namespace

TEST_CASE("defaults and every valid value pass") {
  SummaryOptions options;
  CHECK(usage_error(options).empty());
  options.columns = valid_columns();
  options.row_settings = valid_row_settings();
  CHECK(usage_error(options).empty());
}

TEST_CASE("a bad value names its flag and lists the valid ones") {
  SummaryOptions options;
  options.columns = {"num_params", "macs"};
  const std::string line = usage_error(options);
  CHECK(line.find("'macs'") != std::string::npos);
  CHECK(line.find("(--columns)") != std::string::npos);
  CHECK(line.find("kernel_size,input_size,output_size") != std::string::npos);

  options = {};
  options.row_settings = {"depths"};
  CHECK(usage_error(options).find("(--row-settings)") != std::string::npos);
  options = {};
  options.depth = -1;
  CHECK(usage_error(options).find("(--depth)") != std::string::npos);
  options = {};
  options.col_width = 0;
  CHECK(usage_error(options).find("(--col-width)") != std::string::npos);
}

TEST_CASE("shape and FLOPs columns need an input") {
  SummaryOptions options;
  options.columns = {"output_size"};
  CHECK(usage_error(options, false).find("needs an input") != std::string::npos);
  options.columns = {"flops"};
  CHECK(usage_error(options, false).find("'flops' needs an input") != std::string::npos);
  CHECK(wants_flops(options));
  options.columns = {"kernel_size", "num_params", "params_percent", "trainable"};
  CHECK(usage_error(options, false).empty());
}

TEST_CASE("default columns depend on the input") {
  CHECK(effective_columns({}, true) == std::vector<std::string>{"output_size", "num_params"});
  CHECK(effective_columns({}, false) == std::vector<std::string>{"num_params"});
  CHECK(column_title("params_percent") == "Param %");
}
