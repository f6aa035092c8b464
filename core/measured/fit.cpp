#include "measured/fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/request.hpp"
#include "measured/nccl_log_infer.hpp"

namespace commlab {

std::string fit_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  return buf;
}

namespace {

std::string names_text() {
  std::string s;
  for (const std::string& n : fit_collectives()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// "table 2 (lines 40-71)": how errors and notes name a table.
std::string table_name(const LogTable& t, size_t index) {
  return concat({"table ", std::to_string(index + 1), " (lines ", std::to_string(t.first_line), "-",
                 std::to_string(t.last_line), ")"});
}

std::string source_text(const LogSource& s) { return concat({s.how, " (line ", std::to_string(s.line), ")"}); }

}  // namespace

const std::vector<std::string>& fit_collectives() {
  static const std::vector<std::string> names = {"all_reduce", "all_gather", "reduce_scatter", "alltoall",
                                                 "broadcast",  "reduce",     "sendrecv"};
  return names;
}

bool ring_shape(std::string_view c, int k, RingShape* out) {
  if (c == "all_reduce") *out = {2 * (k - 1), 2.0 * (k - 1) / k};  // P5 §5.1: RS then AG
  else if (c == "all_gather" || c == "reduce_scatter" || c == "alltoall") *out = {k - 1, (k - 1.0) / k};
  else if (c == "broadcast" || c == "reduce" || c == "sendrecv") *out = {1, 1.0};
  else return false;
  return true;
}

double fit_work_units(double bytes) {
  // Measured: about 8 ns a byte natively for the whole request, reading, fitting and writing
  // the answer (33 ms for the 4 MB log of BM_FitLog4MB): 2 units of 5 ns a byte.
  return 2 * bytes;
}

namespace {

// What the table measured: the collective, the rank count and its ring's shape, each with
// where it came from.
void identify_run(const LogTable& t, const std::string& name, const BusRatio& ratio, const FitRequest& req, TableFit* f) {
  // The collective: the request's, the text's, or the one the table's columns and busbw / algbw
  // allow.
  if (!req.collective.empty()) {
    f->collective = req.collective;
    f->collective_from = "request";
  } else if (!t.collective.empty()) {
    f->collective = t.collective;
    f->collective_from = source_text(t.collective_from);
    RingShape unused;
    if (!ring_shape(f->collective, 2, &unused))
      refuse("unknown_value", {"field 'collective': ", name, " measured '", t.collective, "' (", f->collective_from,
                               "), which the ring model here does not fit; allowed: ", names_text(),
                               " (give 'collective' to fit it as one of them)"});
  } else {
    const std::vector<CollectiveFit> fits = collectives_fitting(t, ratio, req.ranks > 0 ? req.ranks : t.ranks);
    if (fits.size() == 1) {
      f->collective = fits[0].collective;
      f->collective_from = fits[0].how;
    } else {
      std::string both, either, why;
      for (size_t i = 0; i < fits.size(); ++i) {
        const bool last = i + 1 == fits.size();
        both += concat({(i == 0 ? "" : last ? " and " : ", "), fits[i].collective});
        either += concat({(i == 0 ? "" : last ? " or " : ", "), fits[i].collective});
        why += concat({(i == 0 ? "" : "; "), fits[i].collective, ": ", fits[i].how});
      }
      const std::string said = "does not say which collective it measured (no '# Collective test starting:' line or "
                               "command line names a test such as all_reduce_perf)";
      if (fits.empty())
        refuse("missing_field",
               {"field 'collective': ", name, " ", said, ", and no collective has its redop, root and busbw / algbw (",
                (ratio.any ? concat({fit_number(ratio.lo), " to ", fit_number(ratio.hi)}) : std::string("too small to tell")), ", redop '",
                std::string_view(t.redop).substr(0, 40), "'", (t.has_root ? concat({", root ", std::to_string(t.root)}) : std::string()),
                "); give 'collective': one of ", names_text()});
      refuse("missing_field", {"field 'collective': ", name, " ", said, ", and its table fits ", both, " alike (", why,
                               "); give 'collective': ", either});
    }
  }
  const bool all_reduce = f->collective == "all_reduce";
  const bool factor_one = f->collective == "broadcast" || f->collective == "reduce" || f->collective == "sendrecv";
  long long first = 1, last = 0;
  if (!factor_one) ranks_in(ratio, all_reduce, &first, &last);
  // The rank count: the request's, the Rank lines', or the one whose factor busbw / algbw shows.
  if (req.ranks > 0) {
    f->ranks = req.ranks;
    f->ranks_from = "request";
  } else if (t.ranks > 0) {
    f->ranks = t.ranks;
    f->ranks_from = source_text(t.ranks_from);
  } else if (factor_one) {
    f->ranks = 0;
    f->ranks_from = "not needed: factor 1 and one step whatever the rank count";
  } else if (first == last && first <= kMaxDevices) {
    f->ranks = static_cast<int>(std::min<long long>(first, 1 << 30));
    const std::string lo = fit_number(ratio.lo), hi = fit_number(ratio.hi);
    f->ranks_from = concat({"busbw / algbw ", (lo == hi ? "= " + lo : concat({lo, " to ", hi})), " (the factor of ",
                            std::to_string(first), " ranks, no other's)"});
  } else {
    const std::string seen =
        !ratio.any ? "its busbw and algbw are too small to tell"
        : first > last
            ? concat({"its busbw / algbw (", fit_number(ratio.lo), " to ", fit_number(ratio.hi), ") is the factor of no rank count"})
            : concat({"its busbw / algbw (", fit_number(ratio.lo), " to ", fit_number(ratio.hi), ") fits ", std::to_string(first),
                      " to ", (last >= 1000000 ? std::string("any larger number of") : std::to_string(last)),
                      " ranks"});
    refuse("missing_field",
           {"field 'ranks': ", name, " (", f->collective, ") does not say how many ranks ran it (no '#  Rank' lines; ",
            seen, "); give 'ranks': an integer from 2 to ", std::to_string(kMaxDevices)});
  }
  if (f->ranks == 1)
    refuse("invalid_value", {"field 'log': ", name, " ran ", f->collective, " on 1 rank (", f->ranks_from,
                             "): nothing crosses a link, so there is no alpha or beta to fit; allowed: 2 or more "
                             "ranks (or give 'ranks')"});
  if (!ring_shape(f->collective, std::max(f->ranks, 2), &f->shape)) f->shape = {1, 1.0};
  if (factor_one) f->shape = {1, 1.0};
  if (!factor_one && ratio.any && (f->shape.factor < ratio.lo - 1e-9 || f->shape.factor > ratio.hi + 1e-9))
    f->notes.push_back(concat({"busbw / algbw in the log is ", fit_number(ratio.lo), " to ", fit_number(ratio.hi),
                               ", not the factor ", fit_number(f->shape.factor), " of ", std::to_string(f->ranks), " ranks (",
                               f->ranks_from, "): nccl-tests ran it on another rank count"}));
  if (t.cpu_time) f->notes.push_back("time is CPU time (nccl-tests -C 1): fitted as printed, not checked against algbw");
  if (req.in_place) f->notes.push_back("fitted to the in-place columns");
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The bandwidth-bound rows' level (fit.hpp Plateau): what a link's bandwidth is compared with,
// where one line's beta is pulled down by the protocol and algorithm switches below them.
Plateau find_plateau(const std::vector<FitRow>& rows) {
  std::vector<const FitRow*> sized;  // sizes above 0, largest first
  for (auto it = rows.rbegin(); it != rows.rend(); ++it)
    if (it->bytes > 0) sized.push_back(&*it);
  std::sort(sized.begin(), sized.end(), [](const FitRow* a, const FitRow* b) { return a->bytes > b->bytes; });
  std::vector<double> top;
  for (size_t i = 0; i < sized.size() && i < 3; ++i) top.push_back(sized[i]->busbw_Bps);
  // Still rising at the largest size (a sweep that ends before the bandwidth-bound sizes): the
  // largest size's bus bandwidth is the level.
  double level = median(top);
  if (!top.empty() && top[0] > (1 + kPlateauBand) * level) level = top[0];
  std::vector<double> in;
  Plateau p;
  for (size_t i = 0; i < sized.size(); ++i) {
    if (std::fabs(sized[i]->busbw_Bps - level) > kPlateauBand * level) {
      if (i < 3) continue;  // an outlier among the sizes that set the level
      break;
    }
    in.push_back(sized[i]->busbw_Bps);
    p.from_bytes = sized[i]->bytes;
  }
  // No size within the band (two sizes far apart: their median is neither): the largest alone.
  if (in.empty() && !sized.empty()) {
    in.push_back(top[0]);
    p.from_bytes = sized[0]->bytes;
  }
  p.rows = static_cast<int>(in.size());
  p.busbw_Bps = median(in);
  return p;
}

// The rows, and the line fitted to them: alpha, beta, residuals, collapses.
void fit_line(const LogTable& t, const std::string& name, const FitRequest& req, TableFit* f) {
  // The rows, and least squares on relative error over those with S > 0: minimise
  // sum ((L + b y) / t - 1)^2, y = factor x S, L = steps x alpha, b = 1 / beta.
  const double factor = f->shape.factor;
  double suu = 0, suv = 0, svv = 0, su = 0, sv = 0, first_size = -1;
  bool two_sizes = false;
  for (const LogRow& row : t.rows) {
    const LogGroup& g = req.in_place ? row.in_place : row.out_of_place;
    const double time_s = g.time_us / 1e6;  // one rounding: "0.00020032", not 17 digits
    FitRow r;
    r.line = row.line;
    r.bytes = row.bytes;
    r.time_s = time_s;
    r.busbw_Bps = factor * row.bytes / time_s;
    if (row.bytes <= 0) r.not_fitted = "size 0: no byte crosses a link, so the fit leaves it out (its time is the launch alone)";
    f->rows.push_back(r);
    if (row.bytes <= 0) continue;
    ++f->fitted_rows;
    if (first_size < 0) first_size = row.bytes;
    two_sizes = two_sizes || row.bytes != first_size;
    const double u = 1 / time_s, v = factor * row.bytes / time_s;
    suu += u * u;
    suv += u * v;
    svv += v * v;
    su += u;
    sv += v;
  }
  if (!two_sizes)
    refuse("invalid_value",
           {"field 'log': ", name, " has ", std::to_string(f->fitted_rows), (f->fitted_rows == 1 ? " size" : " sizes"),
            " above 0 bytes; the fit of alpha and beta needs 2 or more (run nccl-tests with "
            "-b and -e apart, e.g. -b 8 -e 1G -f 2)"});
  // Columns scaled to unit length, so the 2 x 2 system is well conditioned whatever the units.
  const double p = std::sqrt(suu), q = std::sqrt(svv), rho = suv / (p * q), det = 1 - rho * rho;
  double L = 0, b = 0;
  if (det > 1e-14) {
    L = (su / p - rho * sv / q) / det / p;
    b = (sv / q - rho * su / p) / det / q;
  }
  if (!(det > 1e-14) || L < 0) {  // alpha is not negative: the best line through the origin
    L = 0;
    b = sv / svv;
  }
  if (!(b > 0))
    refuse("invalid_value", {"field 'log': ", name,
                             ": its times do not grow with size, and T = steps x alpha + factor x S / beta "
                             "needs them to; allowed: a table of a size sweep"});
  f->latency_s = L;
  f->alpha_s = L / f->shape.steps;
  f->beta_Bps = 1 / b;
  f->n_half_bytes = L / (factor * b);
  double sum_sq = 0, best = 0;
  bool in_collapse = false;
  for (FitRow& r : f->rows) {
    r.model_time_s = L + b * factor * r.bytes;
    r.residual = (r.time_s - r.model_time_s) / r.time_s;
    if (r.bytes <= 0) continue;
    sum_sq += r.residual * r.residual;
    // A collapse: below half the best bus bandwidth seen at a smaller size.
    const bool low = best > 0 && r.busbw_Bps < 0.5 * best;
    if (low) {
      const double ratio_now = r.busbw_Bps / best;
      if (!in_collapse) f->collapses.push_back({r.bytes, r.bytes, ratio_now});
      f->collapses.back().to_bytes = r.bytes;
      f->collapses.back().worst_ratio = std::min(f->collapses.back().worst_ratio, ratio_now);
    }
    in_collapse = low;
    if (r.busbw_Bps > best) f->best_row = {r.bytes, r.busbw_Bps, r.line};
    best = std::max(best, r.busbw_Bps);
  }
  f->best_busbw_Bps = best;
  f->plateau = find_plateau(f->rows);
  f->rel_rms = std::sqrt(sum_sq / f->fitted_rows);
  // Two parameters pass through two sizes whatever the machine: rel_rms then tests nothing.
  std::vector<double> sizes;
  for (const FitRow& r : f->rows)
    if (r.bytes > 0) sizes.push_back(r.bytes);
  std::sort(sizes.begin(), sizes.end());
  f->sizes = static_cast<int>(std::unique(sizes.begin(), sizes.end()) - sizes.begin());
  if (f->sizes < kMinTestedSizes) f->caveat = "two_sizes";
}

void compare_links(const FitRequest& req, TableFit* f) {
  const double factor = f->shape.factor, best = f->best_busbw_Bps, plateau = f->plateau.busbw_Bps;
  // The catalogue link nearest to the plateau (by ratio, either way), and the one asked for.
  double best_score = 1e300;
  for (const LinkSpec& s : link_catalogue()) {
    const Link eff = effective_link(s);
    const double score = std::max(plateau / eff.beta_Bps, eff.beta_Bps / plateau);
    if (score < best_score || !f->nearest.spec) {
      best_score = score;
      f->nearest = {&s, eff.alpha_s, eff.beta_Bps, f->beta_Bps / eff.beta_Bps, plateau / eff.beta_Bps};
    }
  }
  if (req.link) {
    const Link eff = effective_link(*req.link);
    f->compared = {req.link, eff.alpha_s, eff.beta_Bps, f->beta_Bps / eff.beta_Bps, plateau / eff.beta_Bps};
  }
  const LinkSpec* against = req.link ? req.link : f->nearest.spec;
  // The catalogue link's line beside the fitted one: the same ring (steps, factor), its alpha and
  // effective bandwidth, so the picture shows the lecture's figure for this table's sizes.
  const LinkComparison& line = req.link ? f->compared : f->nearest;
  for (FitRow& r : f->rows) r.link_time_s = f->shape.steps * line.alpha_s + factor * r.bytes / line.beta_Bps;
  f->exceeds_link = best > against->nominal_Bps;
  if (f->exceeds_link)
    f->notes.push_back(
        concat({"a measured bus bandwidth (", fit_number(best / 1e9), " GB/s) is above ", against->label, "'s nominal ",
                fit_number(against->nominal_Bps / 1e9),
                " GB/s: no ring does that; in-switch reduction (NVLS, SHARP; P5 §5.4) or a tree over faster "
                "links does"}));
}

void fit_table(const LogTable& t, size_t index, const FitRequest& req, TableFit* f) {
  const std::string name = table_name(t, index);
  identify_run(t, name, bus_ratio(t, req.in_place), req, f);
  fit_line(t, name, req, f);
  compare_links(req, f);
  find_regimes(f);
}

}  // namespace

LogFit fit_nccl_log(std::string_view text, const FitRequest& req) {
  LogFit out;
  out.log = parse_nccl_log(text);
  if (out.log.tables.empty()) {
    std::string why = text.find_first_not_of(" \t\r\n") == std::string_view::npos
                          ? "the text is empty"
                          : concat({"read ", std::to_string(out.log.lines), (out.log.lines == 1 ? " line" : " lines")});
    if (out.log.rejected_rows > 0)
      why += concat({"; ", std::to_string(out.log.rejected_rows),
                     (out.log.rejected_rows == 1 ? " line began" : " lines began"), " as a row and was not one (line ",
                     std::to_string(out.log.first_rejected.line), ": ", out.log.first_rejected.reason, ")"});
    refuse("invalid_value",
           {"field 'log': no nccl-tests table found: expected rows of size, count, type, redop, root, time, "
            "algbw, busbw, #wrong (out-of-place, then in-place) as nccl-tests prints them; ",
            why});
  }
  out.tables.resize(out.log.tables.size());
  for (size_t i = 0; i < out.log.tables.size(); ++i) {
    out.tables[i].table = i;
    fit_table(out.log.tables[i], i, req, &out.tables[i]);
  }
  return out;
}

}  // namespace commlab
