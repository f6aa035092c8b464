// nccl-tests' lines other than rows: the column header (which sets a table's layout), the
// command that starts a run, and the lines it prints around its tables.
#include "measured/nccl_log_reader.hpp"

namespace commlab::log_reader {

namespace {

const char* const kTests[] = {"all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast", "reduce",
                              "sendrecv",   "gather",     "scatter",        "hypercube", "alltoallv"};

// "all_reduce_perf", "./build/all_reduce_perf_mpi": the test's name, "" when it is none.
std::string test_name(std::string_view program) {
  const size_t slash = program.find_last_of('/');
  if (slash != std::string_view::npos) program.remove_prefix(slash + 1);
  if (program.size() > 4 && program.substr(program.size() - 4) == "_mpi") program.remove_suffix(4);
  if (program.size() <= 5 || program.substr(program.size() - 5) != "_perf") return "";
  program.remove_suffix(5);
  for (const char* t : kTests)
    if (program == t) return t;
  return "";
}

}  // namespace

// The column header, with or without '#': size count type [redop] [root] then out-of-place and
// in-place groups (time algbw busbw #wrong|error [i_min i_max i_p99 i_cv%]) [timestamp]; or the
// 2017 one: bytes N type op time algbw busbw res (time in ms).
bool Reader::header_line(int n) {
  if (ntok_ < 7 || tok_[2] != "type") return false;
  Layout l;
  const bool y2017 = tok_[0] == "bytes" && tok_[1] == "N";
  if (!y2017 && !(tok_[0] == "size" && tok_[1] == "count")) return false;
  int i = 3;
  l.redop = i < ntok_ && (tok_[i] == "redop" || tok_[i] == "op");
  if (l.redop) ++i;
  l.root = i < ntok_ && tok_[i] == "root";
  if (l.root) ++i;
  int groups = 0;
  bool error_column = false;
  while (i < ntok_ && (tok_[i] == "time" || tok_[i] == "cputime")) {
    l.cpu_time = l.cpu_time || tok_[i] == "cputime";
    if (i + 3 >= ntok_ || tok_[i + 1] != "algbw" || tok_[i + 2] != "busbw") return false;
    const std::string_view w = tok_[i + 3];
    if (w != "#wrong" && w != "wrong" && w != "error" && w != "res") return false;
    error_column = w == "error" || w == "res";
    i += 4;
    int fields = 4;
    if (i + 3 < ntok_ && tok_[i] == "i_min" && tok_[i + 1] == "i_max" && tok_[i + 2] == "i_p99" && tok_[i + 3] == "i_cv%") {
      fields = 8;
      i += 4;
    }
    if (groups > 0 && fields != l.group_fields) return false;
    l.group_fields = fields;
    ++groups;
  }
  if (groups != 2) return false;
  l.timestamp = i < ntok_ && tok_[i] == "timestamp";
  if (l.timestamp) ++i;
  if (i != ntok_) return false;
  if (y2017) {
    l.time_to_us = 1000;
    l.format = "2017 (time in ms)";
  } else {
    l.format = l.root ? (error_column ? "root, error" : "root, #wrong") : "no root, error";
  }
  flush_partial("a header");
  close_table();
  header_ = l;
  header_pending_ = true;
  header_line_ = n;
  return true;
}

// A shell command that runs a test (`mpirun -np 8 ./build/all_reduce_perf -b 8 ...`): a new run.
bool Reader::command_line(std::string_view s, int n) {
  if (s.find("_perf") == std::string_view::npos) return false;  // most noise lines: at once
  for (int i = 0; i < ntok_; ++i) {
    if (tok_[i] == "NCCL") return false;  // a message that names the program
    const std::string name = test_name(tok_[i]);
    if (name.empty()) continue;
    flush_partial("a command line");
    close_table();
    collective_ = name;
    collective_from_ = {n, "command line"};
    rank_ids_.clear();
    ranks_closed_ = false;
    header_pending_ = false;
    return true;
  }
  return false;
}

// Lines of nccl-tests' (and rccl-tests') own output other than rows, with or without '#'.
bool Reader::known_line(bool hashed, int n) {
  const std::string_view t0 = tok_[0], t1 = ntok_ > 1 ? tok_[1] : std::string_view(),
                         t2 = ntok_ > 2 ? tok_[2] : std::string_view();
  if (t0 == "Collective" && t1 == "test" && (t2 == "starting:" || t2 == "concluded:")) {
    flush_partial("the end of a test");
    close_table();
    header_pending_ = false;
    if (t2 == "starting:") {
      const std::string name = ntok_ > 3 ? test_name(tok_[3]) : "";
      // A program the model does not know is named in the error: its first 40 bytes.
      collective_ = name.empty() && ntok_ > 3 ? std::string(tok_[3].substr(0, 40)) : name;
      collective_from_ = {n, "Collective test starting"};
      rank_ids_.clear();
      ranks_closed_ = false;
    }
    return true;
  }
  if (t0 == "Rank" && all_digits(t1) && t1.size() <= 7 && whole_number(t1) <= kMaxRankId) {
    if (ranks_closed_) {
      rank_ids_.clear();
      ranks_closed_ = false;
    }
    if (rank_ids_.empty()) ranks_from_ = {n, "Rank lines"};
    rank_ids_.insert(static_cast<uint32_t>(whole_number(t1)));
    return true;
  }
  if (header_line(n)) return true;
  if (t0 == "Avg" && t1 == "bus" && t2 == "bandwidth") {
    flush_partial("the footer");
    for (int i = 3; i + 1 < ntok_; ++i)
      if (tok_[i] == ":") {
        double v, h;
        if (current_ >= 0 && parse_log_number(tok_[i + 1], &v, &h)) {
          out_.tables[current_].has_avg_busbw = true;
          out_.tables[current_].avg_busbw_GBps = v;
        }
        break;
      }
    close_table();
    header_pending_ = false;
    return true;
  }
  if ((t0 == "nccl-tests" && t1 == "version") || t0 == "nThread" || (t0 == "Using" && t1 == "devices") ||
      t0 == "out-of-place" || t0 == "(B)" || (t0 == "Out" && t1 == "of" && t2 == "bounds") ||
      (t0 == "Blocking" && t1 == "Enabled:") || (t0 == "Parallel" && t1 == "Init") || t0 == "Per-Iteration" ||
      (t0 == "Reducing" && t1 == "maxBytes") || (t0 == "GPU" && t1 == "memory") ||
      (t0 == "Writing" && t1 == "JSON") || (t0 == "skipping" && t1 == "json") ||
      (t0 == "NCCL" && t1 == "Tests" && t2 == "compiled") || (hashed && t0 == "error:") ||
      (t0 == "rccl-tests:" && t1 == "Version") || (t0 == "Errors" && t1 == "with" && t2 == "asterisks") ||
      (hashed && t0 == "Testing" && t2 == "cycle."))
    return true;
  return false;
}

}  // namespace commlab::log_reader
