#include "report/html_report.h"

#include <string>

namespace modrec {

// report.js, compiled in by lib/CMakeLists.txt (report_script.cpp.in).
extern const char* const kReportScript;

namespace {

using nlohmann::json;

const char* const kStyle = R"(
body{font:14px/1.4 system-ui,sans-serif;margin:16px;color:#222}
.runs{display:grid;gap:24px;grid-template-columns:minmax(0,1fr)}.runs.two{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}
.figure{margin:8px 0 20px}.chart{display:block;background:#fff;border:1px solid #ddd}
.grid{stroke:#eee}.tick,.band-label,.axis-label,.x-label,.row-label{font-size:10px;fill:#555}
.band-label{fill:#333;paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-opacity:.8}.fp16{fill:rgba(80,160,255,.15)}.fp16-sub{fill:rgba(80,160,255,.07)}
.bf16{fill:rgba(255,170,60,.10)}
.mark.s0{fill:#1f77b4}.mark.s1{fill:#aec7e8}.mark.s2{fill:#d62728}.mark.s3{fill:#ff9896}
.mark.bad{fill:#f00;stroke:#000}.swatch.s0{background:#1f77b4}.swatch.s1{background:#aec7e8}
.swatch.s2{background:#d62728}.swatch.s3{background:#ff9896}.swatch.bad{background:#f00;outline:1px solid #000}
.mark.zero{fill:#fff;stroke-width:1.5}.mark.zero.s0{stroke:#1f77b4}.mark.zero.s1{stroke:#aec7e8}
.mark.zero.s2{stroke:#d62728}.mark.zero.s3{stroke:#ff9896}.swatch.zero{background:#fff;outline:1.5px solid #333}
.zero-line{stroke:#999;stroke-dasharray:3 3}
.swatch.heat{width:30px;background:linear-gradient(90deg,rgba(30,60,160,0),rgb(30,60,160))}.line{fill:none;stroke-width:1.5}.line.loss{stroke-width:2}
.line.dim{stroke-opacity:.12}.line.hot{stroke-width:3}.brush{fill:rgba(54,102,204,.15)}
.legend{display:flex;flex-wrap:wrap;gap:2px 12px;font-size:12px;margin:4px 0}.legend .item{white-space:nowrap;cursor:default}
.legend .item.off{opacity:.35}.swatch{display:inline-block;width:10px;height:10px;margin-right:4px;
vertical-align:-1px}.swatch.round{border-radius:50%}.swatch.line{height:3px;vertical-align:3px}
.controls{display:flex;gap:12px;align-items:center;flex-wrap:wrap;margin:8px 0}
.controls input{width:22em}.hint{color:#666;font-size:12px}
.heat-box{max-height:70vh;overflow:auto;scrollbar-gutter:stable;border:1px solid #ddd}.heat-box .chart{border:0}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
td.t,th.t{text-align:left}tr.nonfinite{background:#fdd}tr.dead{background:#ffd}tr.hl{outline:2px solid #36c}
.table-box{max-height:70vh;overflow:auto}.flag{color:#b00}pre{font-size:11px;max-height:300px;overflow:auto}
)";

// The runs as JSON inside the page. "<" is escaped so that no "</script>" or "<!--" in a label
// ends the script element; JSON.parse reads \u003c back as "<". A path that is not UTF-8 (a
// model's own names) is shown with U+FFFD rather than failing the page.
std::string data_script(const std::vector<ReportRun>& runs, const DeadLayerRule& dead) {
  json all = json::array();
  for (const ReportRun& run : runs) all.push_back(report_data(run, dead));
  const std::string dumped =
      json{{"runs", std::move(all)}}.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string text;
  for (char c : dumped) {
    if (c == '<')
      text += "\\u003c";
    else
      text += c;
  }
  return "<script type='application/json' id='modrec-data'>" + text + "</script>";
}

}  // namespace

std::string html_report(const std::vector<ReportRun>& runs, const DeadLayerRule& dead) {
  return "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
         "<meta name='viewport' content='width=device-width'><title>modrec report</title><style>" +
         std::string(kStyle) + "</style></head><body><h1>modrec report</h1>" +
         "<noscript>The charts and tables are drawn by the page's script: allow it.</noscript>" +
         "<div class='runs" + (runs.size() > 1 ? " two" : "") + "' id='runs'></div>" +
         data_script(runs, dead) + "<script>" + kReportScript + "</script></body></html>\n";
}

}  // namespace modrec
