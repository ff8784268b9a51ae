// The report's charts as inline SVG (torch-free). Every mark names its layer (data-layer, and
// data-chart for the chart it belongs to) and links to the layer's row in the table
// (#<prefix>layer-<label>); tests count the marks in the rendered page.
#pragma once
#include <string>
#include <vector>

#include "report/report_run.h"

namespace modrec {

// Forward (output) and backward (grad_output) std and abs-max of each layer's first tensor in call
// order on a log2 axis, over the float16 (normal and subnormal) and bfloat16 ranges. A layer
// whose value is 0 sits on the bottom edge, NaN on the top edge (red).
std::string scale_plot(const std::vector<RunLayer>& layers, const std::string& prefix);

// One row per layer with `capture`, one cell per histogram bin of its first tensor (its own
// [-R, R]), shaded by count relative to the row's largest.
std::string histogram_heatmap(const std::vector<RunLayer>& layers, const std::string& capture,
                              const std::string& prefix);

// watch: one line per layer of `capture`'s std (first tensor) over the recorded steps, log2 axis.
std::string step_lines(const ReportRun& run, const std::string& capture, const std::string& prefix);

// watch: the loss of every step run.
std::string loss_line(const std::vector<double>& losses);

// Text made safe for HTML and SVG content and attributes.
std::string escape_html(const std::string& text);

}  // namespace modrec
