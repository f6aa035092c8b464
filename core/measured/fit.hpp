// The lecture's ring model fitted to nccl-tests tables (core/README.md "Measured against the model"):
// T = steps x alpha + factor x S / beta (P5 §3, §5.1), S the size column, factor nccl-tests'
// bus-bandwidth factor, so beta is a bus bandwidth comparable with a link's effective bandwidth
// (P5 §0.4), and alpha the cost of one ring step.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "measured/nccl_log.hpp"
#include "model/links.hpp"

namespace commlab {

/// The collectives fitted, by nccl-tests' names (all_reduce_perf -> all_reduce).
const std::vector<std::string>& fit_collectives();

/// A collective's ring on k ranks: the steps that each pay alpha (P5 §5.1: 2(k-1) for
/// all-reduce, k-1 for its halves and all-to-all, 1 for broadcast, reduce, send/recv) and
/// nccl-tests' bus factor (doc/PERFORMANCE.md: 2(k-1)/k, (k-1)/k, 1).
struct RingShape {
  int steps = 0;
  double factor = 0;
};
/// False when `collective` is not one of fit_collectives().
bool ring_shape(std::string_view collective, int ranks, RingShape* out);

/// A figure as the fit's notes and errors print it: four significant digits ("%.4g").
std::string fit_number(double x);

/// The fewest distinct sizes whose fit tests the model: alpha and beta fit any two exactly.
constexpr int kMinTestedSizes = 3;

struct FitRequest {
  std::string collective;          // "": the text's
  int ranks = 0;                   // 0: the text's
  bool in_place = false;           // the in-place columns instead of the out-of-place ones
  const LinkSpec* link = nullptr;  // a catalogue link to compare with, or none
};

struct FitRow {
  int line = 0;
  double bytes = 0, time_s = 0;
  double busbw_Bps = 0;  // factor x S / time: the measured bus bandwidth (the busbw column unrounded)
  double model_time_s = 0;
  double link_time_s = 0;       // the compared (else nearest) catalogue link's ring time, same steps and factor
  double residual = 0;          // (time - model) / time: positive where the machine is slower
  const char* not_fitted = "";  // why the fit leaves the row out (size 0), "" for a fitted row
};

/// The bus bandwidth plateau: the level of the bandwidth-bound rows (core/README.md "Measured
/// against the model"). The level is the median bus bandwidth of the three largest sizes, or
/// the largest size's when it is more than kPlateauBand above that (still rising); the plateau
/// rows are the sizes from the largest down whose bus bandwidth is within kPlateauBand of the
/// level, the walk ending at the first size below the three largest that is not; none within it
/// (two sizes far apart), the largest size alone.
constexpr double kPlateauBand = 0.05;
struct Plateau {
  double busbw_Bps = 0;   // the median bus bandwidth of the plateau rows
  double from_bytes = 0;  // the smallest size among them
  int rows = 0;
};

/// A run of sizes under one (algorithm, protocol) of NCCL's, as the engine's NCCL model picks them
/// on the compared (else nearest) link (model/nccl.cpp, P5 §5.6: ring and tree, LL, LL128,
/// Simple): where one ring line through every size has to bend.
struct FitRegime {
  std::string algorithm, protocol;  // "tree", "LL128"
  double from_bytes = 0, to_bytes = 0;
  int rows = 0;
  double mean_residual = 0;  // the fit's residuals over its rows
};

/// A residual of this size or more is off the line: a bend is where such residuals change sign.
constexpr double kBendResidual = 0.02;

/// The row with the highest bus bandwidth.
struct BestRow {
  double bytes = 0, busbw_Bps = 0;
  int line = 0;
};

/// Sizes whose bus bandwidth fell below half the best seen at a smaller size.
struct FitCollapse {
  double from_bytes = 0, to_bytes = 0;
  double worst_ratio = 0;  // the lowest busbw / best before, over the run
};

struct LinkComparison {
  const LinkSpec* spec = nullptr;
  double alpha_s = 0;   // its alpha (P5 §0.5)
  double beta_Bps = 0;  // its effective bandwidth (nominal x 0.8, P5 §0.4)
  double ratio = 0;     // fitted beta / beta_Bps
  double plateau_ratio = 0;  // the plateau's bus bandwidth / beta_Bps
};

struct TableFit {
  size_t table = 0;  // its index in LogFit::log.tables
  std::string collective, collective_from;
  int ranks = 0;  // 0 only where it does not matter (factor 1, one step) and the text is silent
  std::string ranks_from;
  RingShape shape;
  std::vector<FitRow> rows;
  int fitted_rows = 0;  // rows with S > 0
  double alpha_s = 0, beta_Bps = 0, latency_s = 0, rel_rms = 0;
  int sizes = 0;  // distinct sizes above 0
  /// "two_sizes" when fewer than kMinTestedSizes: the line passes through every size, so rel_rms
  /// says nothing of the model's fit; "" otherwise.
  std::string caveat;
  double n_half_bytes = 0;  // the size whose bus bandwidth is half of beta: latency x beta / factor
  double best_busbw_Bps = 0;
  Plateau plateau;  // what an engineer compares with a link
  BestRow best_row;
  std::vector<FitRegime> regimes;  // all-reduce only: the engine's NCCL model is all-reduce's
  std::vector<double> bend_bytes;  // the sizes where the residuals change sign (kBendResidual)
  std::vector<FitCollapse> collapses;
  bool exceeds_link = false;  // a measured busbw above the compared (else nearest) link's nominal
  LinkComparison nearest, compared;
  std::vector<std::string> notes;
};

struct LogFit {
  ParsedLog log;
  std::vector<TableFit> tables;
};

/// The regimes and bends of a fitted table, and a note naming them where the line bends
/// (fit_regimes.cpp).
void find_regimes(TableFit* f);

/// Work units of fitting a log of `bytes` (core/README.md "Limits": 1e8 is about half a second).
double fit_work_units(double bytes);

/// Reads and fits every table of `text`. Throws RequestError naming what is missing: no table
/// ("field 'log': no nccl-tests table found: ..."), a collective or rank count neither the text
/// nor the request gives, a table of one size.
LogFit fit_nccl_log(std::string_view text, const FitRequest& request);

}  // namespace commlab
