// The `fit` op: nccl-tests logs held against the lecture's ring model (core/README.md "Measured against the
// model"; P5 §0.5). The reading and the fit are the measured layer's; this reads the request and
// writes the answer (members in key order, as the text writer wants them).
#include <string>

#include "base/concat.hpp"
#include "api/ops.hpp"
#include "base/error.hpp"
#include "base/json_writer.hpp"
#include "base/work_meter.hpp"
#include "measured/fit.hpp"

namespace commlab {

namespace {

void write_link(JsonWriter& w, const char* key, const LinkComparison& c) {
  w.key(key);
  w.begin_object();
  w.member("alpha_s", c.alpha_s)
      .member("beta_Bps", c.beta_Bps)
      .member("id", c.spec->id)
      .member("label", c.spec->label)
      .member("nominal_Bps", c.spec->nominal_Bps)
      .member("plateau_ratio", c.plateau_ratio)
      .member("ratio", c.ratio);
  w.end_object();
}

void write_table(JsonWriter& w, const LogFit& fit, const TableFit& f, bool in_place) {
  const LogTable& t = fit.log.tables[f.table];
  w.begin_object();
  if (t.has_avg_busbw) w.member("avg_busbw_Bps", t.avg_busbw_GBps * 1e9);
  w.key("bend_bytes");
  w.begin_array();
  for (double b : f.bend_bytes) w.value(static_cast<long long>(b));
  w.end_array();
  w.member("best_busbw_Bps", f.best_busbw_Bps);
  w.key("best_row");
  w.begin_object();
  w.member("busbw_Bps", f.best_row.busbw_Bps)
      .member("bytes", static_cast<long long>(f.best_row.bytes))
      .member("line", f.best_row.line);
  w.end_object();
  w.key("collapses");
  w.begin_array();
  for (const FitCollapse& c : f.collapses) {
    w.begin_object();
    w.member("from_bytes", c.from_bytes).member("to_bytes", c.to_bytes).member("worst_ratio", c.worst_ratio);
    w.end_object();
  }
  w.end_array();
  w.member("collective", f.collective)
      .member("collective_from", f.collective_from)
      .member("columns", in_place ? "in_place" : "out_of_place")
      .member("exceeds_link", f.exceeds_link)
      .member("factor", f.shape.factor)
      .member("first_line", t.first_line);
  w.key("fit");
  w.begin_object();
  w.member("alpha_s", f.alpha_s).member("beta_Bps", f.beta_Bps);
  if (!f.caveat.empty()) w.member("caveat", f.caveat);
  w.member("latency_s", f.latency_s)
      .member("rel_rms", f.rel_rms)
      .member("rows", f.fitted_rows)
      .member("steps", f.shape.steps);
  w.end_object();
  w.member("format", t.format).member("header", t.header).member("last_line", t.last_line);
  if (f.compared.spec) write_link(w, "link", f.compared);
  w.member("n_half_bytes", f.n_half_bytes);
  write_link(w, "nearest_link", f.nearest);
  w.key("notes");
  w.begin_array();
  for (const std::string& n : f.notes) w.value(n);
  w.end_array();
  w.member("plateau_busbw_Bps", f.plateau.busbw_Bps)
      .member("plateau_from_bytes", static_cast<long long>(f.plateau.from_bytes))
      .member("plateau_rows", f.plateau.rows);
  w.member("ranks", f.ranks).member("ranks_from", f.ranks_from).member("redop", t.redop);
  w.key("regimes");
  w.begin_array();
  for (const FitRegime& g : f.regimes) {
    w.begin_object();
    w.member("algorithm", g.algorithm)
        .member("from_bytes", static_cast<long long>(g.from_bytes))
        .member("mean_residual", g.mean_residual)
        .member("protocol", g.protocol)
        .member("rows", g.rows)
        .member("to_bytes", static_cast<long long>(g.to_bytes));
    w.end_object();
  }
  w.end_array();
  w.key("rows");
  w.begin_array();
  for (const FitRow& r : f.rows) {
    w.begin_object();
    // Sizes are whole bytes below 2^53: written as integers, cheaper than shortest doubles.
    w.member("busbw_Bps", r.busbw_Bps)
        .member("bytes", static_cast<long long>(r.bytes))
        .member("line", r.line)
        .member("link_time_s", r.link_time_s)
        .member("model_time_s", r.model_time_s);
    if (*r.not_fitted) w.member("not_fitted", r.not_fitted);
    w.member("residual", r.residual)
        .member("time_s", r.time_s);
    w.end_object();
  }
  w.end_array();
  w.key("skipped");
  w.begin_array();
  for (const LogSkip& s : t.skipped) {
    w.begin_object();
    w.member("line", s.line).member("reason", s.reason);
    w.end_object();
  }
  w.end_array();
  w.member("type", t.type);
  w.end_object();
}

}  // namespace

void op_fit(Request& r, JsonWriter& w) {
  const json& log = r.required("log", [] { return std::string("the text nccl-tests printed, as a string"); });
  if (!log.is_string())
    refuse("invalid_type", {"field 'log': value ", show_value(log),
                            " is not a string; allowed: the text nccl-tests printed, as a string"});
  FitRequest req;
  if (r.has("collective")) req.collective = r.name("collective", fit_collectives());
  else r.mark_read("collective");
  req.ranks = r.integer_or("ranks", 0, 2, kMaxDevices);
  if (r.has("link")) {
    const json& l = r.raw("link");
    if (!l.is_string())
      refuse("invalid_type", {"field 'link': value ", show_value(l), " is not a string; allowed: a catalogue link id (",
                              link_ids(), ")"});
    req.link = find_link(l.get_ref<const std::string&>());
    if (!req.link) catalogue_link(l.get_ref<const std::string&>(), "link");  // throws, naming the links
  } else {
    r.mark_read("link");
  }
  static const std::vector<std::string> columns = {"out_of_place", "in_place"};
  req.in_place = r.name_or("columns", "out_of_place", columns) == "in_place";
  r.finish();

  // The budget, checked before reading (core/README.md "Limits").
  const std::string& text = log.get_ref<const std::string&>();
  const double bytes = static_cast<double>(text.size());
  if (bytes > kMaxLogBytes)
    refuse("too_large", {"field 'log': ", std::to_string(text.size()), " bytes of text; allowed: at most ",
                         std::to_string(static_cast<long long>(kMaxLogBytes)),
                         " bytes a request: fit the log in parts (each nccl-tests run is a table of its own)"});
  const long long lines = log_line_count(text);
  if (lines > kMaxLogLines)
    refuse("too_large",
           {"field 'log': ", std::to_string(lines), " lines of text; allowed: at most ", std::to_string(kMaxLogLines),
            " lines a request (every skipped line is reported): fit the log in parts"});
  charge_work(fit_work_units(bytes));

  const LogFit fit = fit_nccl_log(text, req);
  // About 150 bytes a row and 100 a skipped line: one allocation for the answer.
  size_t rows = 0, skipped = 0;
  for (const LogTable& t : fit.log.tables) {
    rows += t.rows.size();
    skipped += t.skipped.size();
  }
  w.reserve(4096 + 150 * rows + 100 * skipped);
  w.member("lines", fit.log.lines).member("skipped_lines", fit.log.skipped_lines);
  w.key("tables");
  w.begin_array();
  for (const TableFit& f : fit.tables) write_table(w, fit, f, req.in_place);
  w.end_array();
}

}  // namespace commlab
