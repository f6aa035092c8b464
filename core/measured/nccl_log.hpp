// Layer measured (on model): nccl-tests logs read, and fitted to the lecture's ring model
// (core/README.md "Measured against the model"; P5 §0.5: the lecture's numbers are a model, this holds
// them against a machine).
// The reader of nccl-tests (and rccl-tests) output: the tables exactly as nccl-tests prints them
// (src/common.cu, src/util.cu of NVIDIA/nccl-tests, every format since 2019), found among
// whatever else a job's output holds. A row is taken only when its algbw equals size / time
// within the printed rounding, so noise is skipped, never misread; every skipped line is kept
// with its line number and the reason.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace commlab {

/// Largest log `fit` reads: twice the 4 MB its benchmark parses (core/README.md "Limits").
constexpr double kMaxLogBytes = 8e6;
/// Most lines a log may have: every skipped line is reported, and 200,000 of them are about
/// 16 MB of answer (a 4 MB log of 120-byte lines has 34,000).
constexpr int kMaxLogLines = 200000;

/// The lines of a text (a last line without a newline counts).
long long log_line_count(std::string_view text);

/// One of a row's two column groups (out-of-place, in-place), as printed.
struct LogGroup {
  double time_us = 0;     // the "time" column (microseconds; the 2017 format's ms converted)
  double algbw_GBps = 0;  // size / time
  double busbw_GBps = 0;  // algbw x nccl-tests' bus factor
};

struct LogRow {
  int line = 0;       // where the row starts (1-based)
  int last_line = 0;  // where its last value is (a row split by noise lines ends later)
  double bytes = 0;   // the size column
  double count = 0;   // elements
  LogGroup out_of_place, in_place;
};

struct LogSkip {
  int line = 0;
  std::string reason;
};

/// Where the text named something: the line, and how ("# Collective test starting", ...).
struct LogSource {
  int line = 0;  // 0: the text does not say
  std::string how;
};

struct LogTable {
  int first_line = 0, last_line = 0;  // the header (or first row) and the last row
  /// nccl-tests' test name without "_perf" ("all_reduce", "gather"), "" when the text does not
  /// name it.
  std::string collective;
  LogSource collective_from;
  int ranks = 0;  // distinct "#  Rank" lines of the run, 0 when there are none
  LogSource ranks_from;
  std::string type, redop;  // of every row ("" for a format without the column)
  bool has_root = false;
  long long root = 0;
  /// "root, #wrong" (nccl-tests 2.13 and later), "error, no root" (2019-2022), "2017 (ms)".
  std::string format;
  bool header = false;     // the column header was in the text (with or without '#')
  bool cpu_time = false;   // the header says "cputime" (-C 1): time is not size / algbw
  bool has_avg_busbw = false;
  double avg_busbw_GBps = 0;  // the "# Avg bus bandwidth" footer
  std::vector<LogRow> rows;
  std::vector<LogSkip> skipped;
};

struct ParsedLog {
  std::vector<LogTable> tables;
  int lines = 0;
  int skipped_lines = 0;
  /// Lines that began as a row and were not taken, and the first one's reason (for the error
  /// of a log without a table).
  int rejected_rows = 0;
  LogSkip first_rejected;
};

/// Reads every table of `text`. Never throws for any text (the fuzz target holds it to that);
/// a text without a table has no tables. Lines past the last table join it; lines before a
/// table join it.
ParsedLog parse_nccl_log(std::string_view text);

/// A decimal number as nccl-tests prints it ("12.5", "1e-07", "1.2e+05", "11812"), and half a
/// unit of its last printed digit (its rounding). False when `s` is not one.
bool parse_log_number(std::string_view s, double* value, double* half_unit);

}  // namespace commlab
