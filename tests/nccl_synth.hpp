// nccl-tests logs made from the engine's own model: T = steps x alpha + factor x S / beta with
// seeded noise, printed exactly as nccl-tests prints them (NVIDIA/nccl-tests src/util.cu
// writeBenchmarkLinePreamble / writeBenchmarkLineBody / writeResultHeader for the current
// format, src/common.cu before the 2022 resync for the one with `error` and no root; ROCm/rccl-tests
// src/common.cu for rccl-tests), in every variant the reader must survive: headers with or without
// '#', launcher prefixes (also inside a row), NCCL INFO / libfabric / MPI lines between rows and
// inside them, other ranks' INFO lines under their own prefixes, size-0 rows (sizes printed as
// getCollByteCount rounds them), N/A, per-iteration columns and timestamps. tests/unit_fit.cpp fits them back; nccl_synth (tests/nccl_synth.cpp)
// writes the synthetic fixtures and the benchmark's 4 MB log.
#pragma once
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "model/links.hpp"
#include "model/nccl.hpp"

namespace commlab_test {

struct SynthSpec {
  std::string collective = "all_reduce";  // nccl-tests' test name without _perf
  int ranks = 8;
  double alpha_s = 2e-6;    // one ring step (P5 §0.5: NVLink 2 us)
  double beta_Bps = 360e9;  // bus bandwidth (NVLink 4 effective, P5 §0.4)
  double min_bytes = 8, max_bytes = 1073741824, step_factor = 2;
  double step_bytes = 0;  // > 0: sizes step by this many bytes (-i) instead of a factor
  double noise = 0.01;    // each time x (1 + noise x u), u uniform in [-1, 1)
  uint64_t seed = 1;
  bool old_format = false;  // 2019-2022: no root column, `error` (max deviation, %5.0le)
  bool hash = true;         // '#' before nccl-tests' header lines (documentation pages strip it)
  bool preamble = true;     // version, Collective test starting, nThread, Rank lines
  std::string command;      // a shell command line first, e.g. "$ ./build/all_reduce_perf -b 8 -e 1G -f 2 -g 8"
  std::string prefix;       // a launcher's prefix on every line: "[0] ", "[1,0]<stdout>:", " 0: "
  bool prefix_inside_rows = false;  // the prefix again between a row's pieces (Open MPI)
  int noise_every = 0;      // an NCCL INFO line after every n-th row
  int split_every = 0;      // every n-th row split by NCCL INFO lines after its root column
  int extra_noise_lines = 0;  // that many more noise lines (NCCL INFO, libfabric, MPI) between rows
  bool size0 = false;       // a first row of size 0 (-b 0)
  bool check = true;        // false: #wrong is N/A (-c 0)
  bool per_iteration = false;  // -I 1: i_min i_max i_p99 i_cv% after each group
  bool timestamps = false;  // -S 1: a timestamp at the end of each row
  double collapse_from = 0, collapse_to = 0, collapse_slowdown = 1;  // times x slowdown in [from, to]
  std::string type = "float", redop = "sum";
  int root = -1;
  bool footer = true;
  bool header = true;           // false: the rows alone, as a page quotes a few of them
  bool prefix_command = false;  // the prefix on the command line too (a Markdown code block's indent)
  std::string env_line;         // a line of the environment before the header (noise, reported)
  bool noise_after_header = false;  // an NCCL INFO line between the header and the first row
  // A catalogue link id: each all-reduce timed by the engine's NCCL model on it (the cheapest
  // (algorithm, protocol) of ring and tree at that size, P5 §5.6) instead of one ring.
  std::string nccl_link;
  // NCCL_DEBUG=INFO on every rank: this many INFO lines of other ranks, each under its own
  // launcher prefix, after each header line and after each row.
  int other_rank_info = 0;
  // rccl-tests' output (ROCm/rccl-tests src/common.cu): no version or Collective test line, an
  // unhashed "rccl-tests: Version" line, "#   Rank %2d Pid" lines, bandwidths %6.2f, times
  // %7.0f/%7.1f/%7.2f, #wrong %5g, the footer's "Errors with asterisks" line.
  bool rccl = false;
  bool size0_na = false;  // size-0 rows print N/A for algbw and busbw (as some forks do)
  bool numeric_hosts = false;  // NCCL INFO lines name hosts by address ("10:4242:4300 [0] NCCL INFO")
};

// nccl-tests' getFloatStr: the widest of %.2f, %.1f, %.0f that fits, else %.1e / %.0e.
inline std::string float_str(double v, int width) {
  char buf[64];
  for (int prec = 2; prec >= 0; --prec)
    if (std::snprintf(buf, sizeof buf, "%*.*f", width, prec, v) <= width) return buf;
  std::snprintf(buf, sizeof buf, width >= 7 ? "%*.1e" : "%*.0e", width, v);
  return buf;
}

inline std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
inline std::string format(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

class SynthRandom {
 public:
  explicit SynthRandom(uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  // splitmix64: the same numbers on every platform.
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)

 private:
  uint64_t s_;
};

inline int synth_steps(const SynthSpec& s) {
  const std::string& c = s.collective;
  if (c == "all_reduce") return 2 * (s.ranks - 1);
  if (c == "all_gather" || c == "reduce_scatter" || c == "alltoall") return s.ranks - 1;
  return 1;
}

inline double synth_factor(const SynthSpec& s) {
  const std::string& c = s.collective;
  const double k = s.ranks;
  if (c == "all_reduce") return 2 * (k - 1) / k;
  if (c == "all_gather" || c == "reduce_scatter" || c == "alltoall") return (k - 1) / k;
  return 1;
}

inline int synth_type_bytes(const SynthSpec& s) {
  const std::string& t = s.type;
  if (t == "double" || t == "int64" || t == "uint64") return 8;
  if (t == "half" || t == "bfloat16") return 2;
  if (t == "int8" || t == "uint8") return 1;
  return 4;
}

inline bool synth_per_rank_count(const SynthSpec& s) {
  return s.collective == "all_gather" || s.collective == "reduce_scatter" || s.collective == "alltoall";
}

/// The count column for a size of the sweep: each rank's elements where the test splits the
/// buffer among ranks, rounded down as the test does (getCollByteCount: nccl-tests since 2022
/// aligns them to 16 bytes, rccl-tests' all-gather and reduce-scatter to 4 elements), so the
/// small end prints count 0 and size 0.
inline double synth_count(const SynthSpec& s, double bytes) {
  const double count = std::floor(bytes / synth_type_bytes(s));
  if (!synth_per_rank_count(s)) return count;
  double per_rank = std::floor(count / s.ranks);
  if (s.rccl && s.collective != "alltoall") per_rank = std::floor(count / (4.0 * s.ranks)) * 4;
  else if (!s.rccl && !s.old_format) {
    const double align = 16.0 / synth_type_bytes(s);
    per_rank = std::floor(per_rank / align) * align;
  }
  return per_rank;
}

/// The size column nccl-tests prints for a size of the sweep: max(send, receive bytes).
inline double synth_printed_bytes(const SynthSpec& s, double bytes) {
  const double c = synth_count(s, bytes);
  return (synth_per_rank_count(s) ? c * s.ranks : c) * synth_type_bytes(s);
}

/// A launcher's prefix of rank `r` made from rank 0's ("[1,0]<stdout>:" -> "[1,5]<stdout>:",
/// "[0] " -> "[5] ", srun's " 0: " -> "12: ": srun pads the labels to one width).
inline std::string rank_prefix(const std::string& p, int r) {
  const size_t at = p.find('0');
  if (at == std::string::npos) return p;
  const std::string digits = std::to_string(r);
  size_t start = at;
  for (size_t extra = digits.size() - 1; extra > 0 && start > 0 && p[start - 1] == ' '; --extra) --start;
  return p.substr(0, start) + digits + p.substr(at + 1);
}

/// The model's time of one size, before noise.
inline double synth_time_s(const SynthSpec& s, double bytes) {
  double t = synth_steps(s) * s.alpha_s + synth_factor(s) * bytes / s.beta_Bps;
  if (!s.nccl_link.empty()) {
    const commlab::Link link = commlab::catalogue_link(s.nccl_link);
    t = commlab::nccl_select(s.ranks, bytes, link, commlab::transport_of(link),
                             {commlab::NcclAlgorithm::ring, commlab::NcclAlgorithm::tree})
            .best.time_s;
  }
  if (bytes >= s.collapse_from && bytes <= s.collapse_to) t *= s.collapse_slowdown;
  return t;
}

/// The sizes of the sweep, as nccl-tests steps them.
inline std::vector<double> synth_sizes(const SynthSpec& s) {
  std::vector<double> v;
  if (s.size0) v.push_back(0);
  for (double b = s.min_bytes; b <= s.max_bytes; b = s.step_bytes > 0 ? b + s.step_bytes : b * s.step_factor) v.push_back(b);
  return v;
}

class SynthNoise {
 public:
  explicit SynthNoise(uint64_t seed) : rng_(seed ^ 0xA5A5) {}
  /// NCCL's host names: gethostname() up to its first '.', so a host named by its address
  /// 10.0.0.1 prints "10".
  bool numeric_hosts = false;
  std::string host(int node) const { return numeric_hosts ? std::to_string(10 + node) : "node-" + std::to_string(node); }
  std::string line() {
    ++n_;
    const int dev = static_cast<int>(n_ % 8);
    switch (n_ % 5) {
      case 0:
        return format("%s:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read", host(dev / 4).c_str(),
                      41000 + dev, 41200 + static_cast<int>(n_ % 97), dev, static_cast<int>(n_ % 24), dev, dev,
                      (dev + 1) % 8, (dev + 1) % 8);
      case 1:
        return format("%s:%d:%d [%d] NCCL INFO Connected all rings, use ring PXN 0 GDR 1", host(dev / 4).c_str(), 41000 + dev,
                      41300 + static_cast<int>(n_ % 89), dev);
      case 2:
        return format("libfabric:%d:%llu:ofi_rxm:av:ofi_av_insert_addr():%d<warn> addr already in AV", 41000 + dev,
                      1700000000ULL + n_, 300 + static_cast<int>(n_ % 50));
      case 3:
        return "--------------------------------------------------------------------------";
      default:
        return format("[node-%d:%05d] 7 more processes have sent help message help-mpi-btl-openib.txt / no device params found",
                      dev / 4, 41000 + dev);
    }
  }
  /// An INFO line of a rank other than 0 (of `ranks`, 8 a node), under that rank's prefix.
  std::string other_rank(int ranks, const std::string& prefix) {
    ++n_;
    const int r = ranks > 1 ? 1 + static_cast<int>(n_ % static_cast<unsigned long long>(ranks - 1)) : 0;
    const int node = r / 8, dev = r % 8, pid = 52000 + r, tid = 52400 + r;
    std::string line;
    switch (n_ % 3) {
      case 0:
        line = format("%s:%d:%d [%d] NCCL INFO Channel %02d/0 : %d[%d] -> %d[%d] via P2P/IPC/read", host(node).c_str(), pid, tid, dev,
                      static_cast<int>(n_ % 16), r, dev, (r + 1) % ranks, (dev + 1) % 8);
        break;
      case 1:
        line = format("%s:%d:%d [%d] NCCL INFO comm 0x%llx rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0 "
                      "- Init COMPLETE",
                      host(node).c_str(), pid, tid, dev, 0x55d0c8a00000ULL + 0x1000ULL * static_cast<unsigned long long>(r), r, ranks,
                      (ranks + 7) / 8, ranks < 8 ? ranks : 8, dev);
        break;
      default:
        line = format("%s:%d:%d [%d] NCCL INFO %d coll channels, %d collnet channels, 0 nvls channels, %d p2p channels, 2 "
                      "p2p channels per peer",
                      host(node).c_str(), pid, tid, dev, 16, 0, 32);
    }
    return rank_prefix(prefix, r) + line;
  }

 private:
  SynthRandom rng_;
  unsigned long long n_ = 0;
};

/// A log and what it holds: the lines that carry noise (a whole noise line, or a message
/// printed inside a row) and where each row starts, 1-based.
struct SynthLog {
  std::string text;
  std::vector<int> noise_lines;
  std::vector<int> row_lines;
  std::vector<double> sizes;
  std::vector<double> times_us;  // each row's out-of-place time as printed
  int lines = 0;
  /// Another log after this one (a second run in the same output).
  void append(const SynthLog& more) {
    text += more.text;
    for (int l : more.noise_lines) noise_lines.push_back(lines + l);
    for (int l : more.row_lines) row_lines.push_back(lines + l);
    sizes.insert(sizes.end(), more.sizes.begin(), more.sizes.end());
    times_us.insert(times_us.end(), more.times_us.begin(), more.times_us.end());
    lines += more.lines;
  }
};

/// A log of one nccl-tests run made from `s`: exact printf formats, seeded noise.
inline SynthLog synth_log(const SynthSpec& s, SynthNoise* shared_noise = nullptr) {
  SynthRandom rng(s.seed);
  SynthNoise own_noise(s.seed);
  SynthNoise& noise = shared_noise ? *shared_noise : own_noise;
  noise.numeric_hosts = s.numeric_hosts;
  SynthLog log;
  std::string& out = log.text;
  const std::string& P = s.prefix;
  auto put = [&](const std::string& line) {
    out += P + line + "\n";
    ++log.lines;
  };
  auto put_noise = [&]() {
    put(noise.line());
    log.noise_lines.push_back(log.lines);
  };
  // Other ranks' INFO lines: each under its own rank's prefix, not rank 0's.
  auto put_other_ranks = [&]() {
    for (int k = 0; k < s.other_rank_info; ++k) {
      out += noise.other_rank(s.ranks, P) + "\n";
      log.noise_lines.push_back(++log.lines);
    }
  };
  const std::string H = s.hash ? "#" : "";
  const bool has_redop = !s.old_format || (s.collective != "all_gather" && s.collective != "sendrecv");
  const bool has_root = !s.old_format || s.collective == "broadcast" || s.collective == "reduce";
  if (!s.command.empty()) {  // typed at the shell: no launcher prefix
    out += (s.prefix_command ? P : "") + s.command + "\n";
    ++log.lines;
  }
  if (!s.env_line.empty()) {
    put(s.env_line);
    log.noise_lines.push_back(log.lines);
  }
  if (s.preamble && s.header) {
    if (!s.old_format && !s.rccl) {
      put(H + " nccl-tests version 2.17.1 nccl-headers=22703 nccl-library=22703");
      put(H + " Collective test starting: " + s.collective + "_perf");
    }
    // One process with every GPU, or one process a GPU under a launcher.
    put(H + format(" nThread 1 nGpus %d minBytes %.0f maxBytes %.0f step: %.0f(%s) warmup iters: 5 iters: 20 agg iters: 1 "
                   "validation: %d graph: 0",
                   s.prefix.empty() || s.prefix_command ? s.ranks : 1, s.size0 ? 0.0 : s.min_bytes, s.max_bytes, s.step_bytes > 0 ? s.step_bytes : s.step_factor,
                   s.step_bytes > 0 ? "bytes" : "factor", s.check ? 1 : 0));
    put(H);
    if (s.rccl) put("rccl-tests: Version develop:ae3e635");
    put(H + " Using devices");
    for (int r = 0; r < s.ranks; ++r) {
      const std::string host = "node-" + std::to_string(r / 8);
      if (s.rccl) {
        put(H + format("   Rank %2d Pid %6d on %10s device %2d [0000:%02x:00.0] AMD Instinct MI300X", r, 41000 + r, host.c_str(),
                       r % 8, 0x0c + 0x10 * (r % 8)));
        continue;
      }
      put(H + (s.old_format ? format("   Rank %2d Pid %6d on %10s device %2d [0x%02x] NVIDIA H100 80GB HBM3", r, 41000 + r,
                                     host.c_str(), r % 8, 0x18 + 0x10 * (r % 8))
                            : format("  Rank %2d Group  0 Pid %6d on %10s device %2d [%04x:%02x:%02x] NVIDIA H100 80GB HBM3",
                                     r, 41000 + r, host.c_str(), r % 8, 0, 0x18 + 0x10 * (r % 8), 0)));
    }
  }
  // The header: writeResultHeader (current) or the test's print_header (before 2022).
  const char* t = "time";
  auto put_head = [&](const std::string& line) {
    put(line);
    put_other_ranks();
  };
  if (s.header) put(H);
  if (!s.header) {
    // The rows alone.
  } else if (s.old_format) {
    std::string l1 = H + format(" %10s  %12s  %8s", "", "", ""), l2 = H + format(" %10s  %12s  %8s", "size", "count", "type"),
                l3 = H + format(" %10s  %12s  %8s", "(B)", "(elements)", "");
    if (has_redop) {
      l1 += format("  %6s", "");
      l2 += format("  %6s", "redop");
      l3 += format("  %6s", "");
    }
    if (has_root) {
      l1 += format("  %6s", "");
      l2 += format("  %6s", "root");
      l3 += format("  %6s", "");
    }
    put_head(l1 + "            out-of-place                       in-place          ");
    put_head(l2 + format("  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s", t, "algbw", "busbw", "error", t, "algbw", "busbw", "error"));
    put_head(l3 + format("  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", ""));
  } else if (s.rccl) {
    put_head(H + format(" %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          ", "", "", "", "",
                   ""));
    put_head(H + format(" %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s", "size", "count", "type", "redop", "root", t,
                   "algbw", "busbw", "#wrong", t, "algbw", "busbw", "#wrong"));
    put_head(H + format(" %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s", "(B)", "(elements)", "", "", "", "(us)",
                   "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", ""));
  } else if (s.per_iteration) {
    const char* ts = s.timestamps ? "timestamp" : "";
    const int pad = s.timestamps ? 19 : 0;
    put_head(H + format(" %10s  %12s  %8s  %6s  %6s              out-of-place (+ per-iteration)                                in-place "
                   "(+ per-iteration)",
                   "", "", "", "", ""));
    put_head(H + format(" %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s %*s",
                   "size", "count", "type", "redop", "root", t, "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%",
                   t, "algbw", "busbw", "#wrong", "i_min", "i_max", "i_p99", "i_cv%", pad, ts));
    put_head(H + format(" %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s  %7s  %6s  %6s  %6s  %7s  %7s  %7s  %7s %*s",
                   "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)", "(us)",
                   "(GB/s)", "(GB/s)", "", "(us)", "(us)", "(us)", "(%)", pad, s.timestamps ? "%Y-%m-%d %H:%M:%S" : ""));
  } else {
    const char* ts = s.timestamps ? "timestamp" : "";
    const int pad = s.timestamps ? 19 : 0;
    put_head(H + format(" %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          ", "", "", "", "",
                   ""));
    put_head(H + format(" %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s", "size", "count", "type", "redop",
                   "root", t, "algbw", "busbw", "#wrong", t, "algbw", "busbw", "#wrong", pad, ts));
    put_head(H + format(" %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s %*s", "(B)", "(elements)", "", "", "",
                   "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "", pad, s.timestamps ? "%Y-%m-%d %H:%M:%S" : ""));
  }

  if (s.noise_after_header) put_noise();
  const std::vector<double> sizes = synth_sizes(s);
  const double factor = synth_factor(s);
  // Extra noise lines spread evenly between rows.
  const size_t rows = sizes.size();
  size_t noise_left = static_cast<size_t>(s.extra_noise_lines);
  double bw_sum = 0;
  for (size_t i = 0; i < rows; ++i) {
    const double S = synth_printed_bytes(s, sizes[i]), count = synth_count(s, sizes[i]);
    std::string row = format("%12.0f  %12.0f  %8s", S, count, s.type.c_str());
    if (has_redop) row += format("  %6s", s.redop.c_str());
    if (has_root) row += format("  %6d", s.root);
    const bool split = s.split_every > 0 && (i + 1) % static_cast<size_t>(s.split_every) == 0;
    std::string bodies[2];
    for (int g = 0; g < 2; ++g) {
      double time_s = synth_time_s(s, S) * (1 + s.noise * (2 * rng.uniform() - 1));
      // Size 0: the launch alone, without the ring's steps.
      if (S == 0) time_s = s.alpha_s * (1 + s.noise * (2 * rng.uniform() - 1));
      const double us = time_s * 1e6, algbw = S / 1e9 / time_s, busbw = algbw * factor;
      if (g == 0) bw_sum += busbw;
      std::string b;
      if (s.rccl) {
        const char* tf = us >= 10000.0 ? "%7.0f" : us >= 100.0 ? "%7.1f" : "%7.2f";
        b = "  " + format(tf, us);
        if (g == 0) log.times_us.push_back(std::strtod(format(tf, us).c_str(), nullptr));
        b += S == 0 && s.size0_na ? format("  %6s  %6s", "N/A", "N/A") : format("  %6.2f  %6.2f", algbw, busbw);
        b += s.check ? format("  %5g", 0.0) : format("  %5s", "N/A");
      } else if (s.old_format) {
        const char* tf = us >= 10000.0 ? "%7.0f" : us >= 100.0 ? "%7.1f" : "%7.2f";
        b = "  " + format(tf, us) + format("  %6.2f  %6.2f", algbw, busbw);
        if (g == 0) log.times_us.push_back(std::strtod(format(tf, us).c_str(), nullptr));
        b += s.check ? format("  %5.0le", S == 0 ? 0.0 : 5e-07) : format("  %5s", "N/A");
      } else {
        b = S == 0 && s.size0_na ? format("  %7s  %6s  %6s", float_str(us, 7).c_str(), "N/A", "N/A")
                                 : format("  %7s  %6s  %6s", float_str(us, 7).c_str(), float_str(algbw, 6).c_str(),
                                          float_str(busbw, 6).c_str());
        if (g == 0) log.times_us.push_back(std::strtod(float_str(us, 7).c_str(), nullptr));
        b += s.check ? format("  %6g", 0.0) : std::string("    N/A");
        if (s.per_iteration)
          b += format("  %7s  %7s  %7s  %7s", float_str(us * 0.97, 7).c_str(), float_str(us * 1.08, 7).c_str(),
                      float_str(us * 1.07, 7).c_str(), float_str(2.5, 7).c_str());
      }
      bodies[g] = b;
    }
    const std::string stamp = s.timestamps ? format("%21s", "2025-11-20 14:03:27") : "";
    const std::string inside = s.prefix_inside_rows ? P : "";
    log.sizes.push_back(S);
    if (split) {
      // The preamble, then NCCL's messages written while the collective ran, then the rest.
      put(row + noise.line());
      log.row_lines.push_back(log.lines);
      log.noise_lines.push_back(log.lines);
      put_noise();
      put(bodies[0] + inside + bodies[1] + stamp);
    } else {
      put(row + inside + bodies[0] + inside + bodies[1] + stamp);
      log.row_lines.push_back(log.lines);
    }
    put_other_ranks();
    if (s.noise_every > 0 && (i + 1) % static_cast<size_t>(s.noise_every) == 0) put_noise();
    for (size_t k = noise_left * (i + 1) / rows - noise_left * i / rows; k > 0; --k) put_noise();
  }
  if (s.footer && s.header) {
    if (s.rccl && s.check) put(H + " Errors with asterisks indicate errors that have exceeded the maximum threshold.");
    put(H + format(" %-20s : %d %s", "Out of bounds values", 0, "OK"));
    put(H + format(" %-20s : %g %s", "Avg bus bandwidth", bw_sum / static_cast<double>(rows), ""));
    put(H);
    if (!s.old_format && !s.rccl) put(H + " Collective test concluded: " + s.collective + "_perf");
  }
  return log;
}

/// A synthetic fixture of tests/fixtures/nccl/: its runs, one after another, and what it shows.
struct SynthFixture {
  std::string file;
  std::string what;  // its line in tests/fixtures/nccl/README.md
  std::vector<SynthSpec> runs;
};

inline std::string describe(const SynthSpec& s) {
  if (!s.nccl_link.empty())
    return format("%s on %d ranks timed by the engine's NCCL model on %s (the cheapest of ring and tree with LL, LL128, "
                  "Simple at each size), %.3g%% noise (seed %llu)",
                  s.collective.c_str(), s.ranks, s.nccl_link.c_str(), s.noise * 100, static_cast<unsigned long long>(s.seed));
  return format("%s%s on %d ranks, alpha %.3g us a step, bus bandwidth %.4g GB/s, %.3g%% noise (seed %llu)",
                s.rccl ? "rccl-tests " : "", s.collective.c_str(), s.ranks, s.alpha_s * 1e6, s.beta_Bps / 1e9, s.noise * 100,
                static_cast<unsigned long long>(s.seed));
}

/// The fixture's text: a first comment line that says it is synthetic and from what, then its runs.
inline SynthLog synth_fixture_log(const SynthFixture& f) {
  SynthLog log;
  std::string from;
  for (const SynthSpec& r : f.runs) from += (from.empty() ? "" : "; then ") + describe(r);
  log.text = "# Synthetic, not a measurement: made by tests/nccl_synth.hpp (build/tests/nccl_synth) from " + from + "\n";
  log.lines = 1;
  log.noise_lines.push_back(1);  // the reader skips a comment and reports it
  SynthNoise noise(f.runs.empty() ? 1 : f.runs[0].seed);
  for (const SynthSpec& r : f.runs) log.append(synth_log(r, &noise));
  return log;
}

inline std::vector<SynthFixture> synth_fixtures() {
  std::vector<SynthFixture> v;
  {  // The current format with everything around it: the lecture's NVLink 4 ring (P5 §0.4-0.5).
    SynthSpec s;
    s.size0 = true;
    s.noise_every = 5;
    s.split_every = 7;
    v.push_back({"synthetic_allreduce_current.txt",
                 "current format (root, #wrong), '#' headers, Rank lines, a size-0 row, NCCL INFO lines between rows and "
                 "inside every 7th row; all-reduce on 8 ranks, alpha 2 us, bus bandwidth 360 GB/s (NVLink 4 effective)",
                 {s}});
  }
  {  // The 2019-2022 format as a documentation page shows it: no '#', no root, `error`; Slurm's labels.
    SynthSpec s;
    s.collective = "all_gather";
    s.ranks = 16;
    s.alpha_s = 5e-6;
    s.beta_Bps = 40e9;
    s.min_bytes = 1024;
    s.max_bytes = 536870912;
    s.old_format = true;
    s.hash = false;
    s.prefix = " 0: ";
    s.command = "$ srun -l -N 2 --ntasks-per-node=8 ./build/all_gather_perf_mpi -b 1K -e 512M -f 2 -g 1";
    s.extra_noise_lines = 12;
    s.seed = 2;
    v.push_back({"synthetic_allgather_old_nohash.txt",
                 "older format (no root, error column), headers without '#', Slurm srun -l labels (' 0: '), libfabric and "
                 "MPI lines, the collective from the srun command line; all-gather on 16 ranks, alpha 5 us, bus bandwidth 40 GB/s (InfiniBand NDR effective)",
                 {s}});
  }
  {  // Open MPI's --tag-output, again inside rows written in pieces; -c 0 (N/A).
    SynthSpec s;
    s.collective = "reduce_scatter";
    s.ranks = 32;
    s.alpha_s = 6e-6;
    s.beta_Bps = 40e9;
    s.min_bytes = 4096;
    s.max_bytes = 1073741824;
    s.prefix = "[1,0]<stdout>:";
    s.prefix_inside_rows = true;
    s.split_every = 6;
    s.check = false;
    s.seed = 3;
    v.push_back({"synthetic_reducescatter_openmpi.txt",
                 "Open MPI --tag-output prefixes ('[1,0]<stdout>:', also between a row's pieces), rows split by NCCL INFO "
                 "lines, #wrong N/A (-c 0); reduce-scatter on 32 ranks, alpha 6 us, bus bandwidth 40 GB/s",
                 {s}});
  }
  {  // Two runs in one output: a command line each, Intel MPI's "[0] " prefix.
    SynthSpec a;
    a.ranks = 4;
    a.alpha_s = 5e-6;
    a.beta_Bps = 51.2e9;
    a.max_bytes = 268435456;
    a.command = "$ mpirun -np 4 ./build/all_reduce_perf -b 8 -e 256M -f 2 -g 1";
    a.preamble = false;
    a.prefix = "[0] ";
    a.seed = 4;
    SynthSpec b = a;
    b.collective = "broadcast";
    b.command = "$ mpirun -np 4 ./build/broadcast_perf -b 8 -e 256M -f 2 -g 1 -r 0";
    b.redop = "none";
    b.root = 0;
    b.beta_Bps = 48e9;
    b.alpha_s = 8e-6;
    b.seed = 5;
    v.push_back({"synthetic_two_runs.txt",
                 "two runs in one text, each after its command line (the collective from all_reduce_perf, broadcast_perf; "
                 "no Rank lines), Intel MPI '[0] ' prefixes; all-reduce on 4 ranks (alpha 5 us, 51.2 GB/s, PCIe Gen5 "
                 "effective) then broadcast with root 0 (one step of 8 us, 48 GB/s)",
                 {a, b}});
  }
  {  // A collapse: 64 MiB to 128 MiB three times slower (a protocol or algorithm switch gone wrong).
    SynthSpec s;
    s.collapse_from = 67108864;
    s.collapse_to = 134217728;
    s.collapse_slowdown = 3;
    s.noise = 0.005;
    s.seed = 6;
    v.push_back({"synthetic_collapse.txt",
                 "a collapse: all-reduce on 8 ranks (alpha 2 us, 360 GB/s) three times slower from 64 MiB to 128 MiB, "
                 "bus bandwidth below half the best before it",
                 {s}});
  }
  {  // NVLS: bus bandwidth above NVLink 4's nominal 450 GB/s, as nccl-tests#212 describes for 8 H100s.
    SynthSpec s;
    s.alpha_s = 1.5e-6;
    s.beta_Bps = 480e9;
    s.seed = 7;
    v.push_back({"synthetic_nvls.txt",
                 "in-switch reduction: all-reduce on 8 ranks at a bus bandwidth of 480 GB/s (the ~480 GB/s NVLS peak on 8 "
                 "H100s in NVIDIA/nccl-tests#212), above NVLink 4's nominal 450 GB/s: exceeds_link",
                 {s}});
  }
  {  // Thousands of noise lines, -I 1 per-iteration columns and -S 1 timestamps.
    SynthSpec s;
    s.ranks = 16;
    s.alpha_s = 5e-6;
    s.beta_Bps = 40e9;
    s.min_bytes = 1024;
    s.max_bytes = 8589934592.0;
    s.extra_noise_lines = 2000;
    s.per_iteration = true;
    s.timestamps = true;
    s.seed = 8;
    v.push_back({"synthetic_noise_heavy.txt",
                 "2,000 NCCL INFO, libfabric and MPI lines among 24 rows, per-iteration columns (-I 1) and timestamps "
                 "(-S 1); all-reduce on 16 ranks, alpha 5 us, bus bandwidth 40 GB/s",
                 {s}});
  }
  {  // Rows alone, as a page quotes part of a run: no header, Rank or command line; the collective
     // and the rank count from busbw / algbw.
    SynthSpec s;
    s.min_bytes = 32768;
    s.max_bytes = 33554432;
    s.header = false;
    s.alpha_s = 3e-6;
    s.beta_Bps = 150e9;
    s.seed = 9;
    v.push_back({"synthetic_rows_only.txt",
                 "eleven rows (32 KiB to 32 MiB) without header, Rank lines, command line or footer, as a page quotes "
                 "part of a run: the collective and 8 ranks from busbw / algbw; all-reduce, alpha 3 us, bus bandwidth 150 GB/s",
                 {s}});
  }
  {  // A log pasted into Markdown as an indented code block: every line, the command too, four spaces in.
    SynthSpec s;
    s.ranks = 4;
    s.alpha_s = 10e-6;
    s.beta_Bps = 20e9;
    s.min_bytes = 65536;
    s.max_bytes = 1073741824;
    s.step_factor = 4;
    s.prefix = "    ";
    s.prefix_command = true;
    s.command = "$ ./build/all_reduce_perf -b 64K -e 1G -f 4 -g 4";
    s.seed = 10;
    v.push_back({"synthetic_markdown_indented.txt",
                 "a Markdown-indented log (four spaces before every line, the command line too): version, Rank lines (4 "
                 "GPUs), eight rows (64 KiB to 1 GiB, -f 4); all-reduce, alpha 10 us, bus bandwidth 20 GB/s (PCIe between GPUs)",
                 {s}});
  }
  {  // The 2019-2022 format on two nodes: NCCL INFO under the header, times above 10 ms (%7.0f), the footer.
    SynthSpec s;
    s.ranks = 16;
    s.alpha_s = 8e-6;
    s.beta_Bps = 20e9;
    s.min_bytes = 8388608;
    s.max_bytes = 268435456;
    s.old_format = true;
    s.preamble = false;
    s.noise_after_header = true;
    s.command = "$ mpirun -np 16 -N 8 ./build/all_reduce_perf -b 8M -e 256M -f 2 -g 1";
    s.seed = 11;
    v.push_back({"synthetic_old_two_nodes.txt",
                 "the 2019-2022 format (error column, no root) on two nodes: an NCCL INFO line under the header, times "
                 "above 10 ms printed %7.0f, the footer; all-reduce on 16 ranks (from busbw / algbw), alpha 8 us, bus "
                 "bandwidth 20 GB/s",
                 {s}});
  }
  {  // The current format after an environment line, no Rank lines: the rank count from busbw / algbw.
    SynthSpec s;
    s.ranks = 16;
    s.alpha_s = 6e-6;
    s.beta_Bps = 45e9;
    s.min_bytes = 2097152;
    s.max_bytes = 268435456;
    s.preamble = false;
    s.env_line = "NCCL_IB_HCA=mlx5_0,mlx5_1 NCCL_SOCKET_IFNAME=eth0 NCCL_DEBUG=WARN";
    s.command = "$ mpirun -np 16 -H node-0:8,node-1:8 ./build/all_reduce_perf -b 2M -e 256M -f 2 -g 1";
    s.seed = 12;
    v.push_back({"synthetic_current_env.txt",
                 "the current format on two nodes after an environment line, without Rank lines (16 ranks from busbw / "
                 "algbw); all-reduce, alpha 6 us, bus bandwidth 45 GB/s",
                 {s}});
  }
  {  // What a real machine does: NCCL switches protocol and algorithm with size, so one ring's line bends.
    SynthSpec s;
    s.nccl_link = "nvlink4";
    s.min_bytes = 8;
    s.max_bytes = 1073741824;
    s.noise = 0.01;
    s.seed = 13;
    v.push_back({"synthetic_nccl_protocols.txt",
                 "all-reduce on 8 ranks on NVLink 4 timed by the engine's NCCL model (core/model/nccl.cpp: the cheapest of "
                 "ring and tree with LL, LL128 and Simple at each size, P5 §5.6), not one ring: the fitted line bends away "
                 "from it; 1% noise",
                 {s}});
  }
  {  // NCCL_DEBUG=INFO on every rank of two nodes: other ranks' INFO lines between the header's
     // lines, under it and between rows (mpirun without --tag-output).
    SynthSpec s;
    s.ranks = 16;
    s.alpha_s = 6e-6;
    s.beta_Bps = 40e9;
    s.min_bytes = 65536;
    s.max_bytes = 268435456;
    s.step_factor = 4;
    s.other_rank_info = 2;
    s.numeric_hosts = true;
    s.split_every = 3;
    s.command = "$ NCCL_DEBUG=INFO mpirun -np 16 -N 8 ./build/all_reduce_perf -b 64K -e 256M -f 4 -g 1";
    s.seed = 14;
    v.push_back({"synthetic_info_from_other_ranks.txt",
                 "NCCL_DEBUG=INFO on 16 ranks of two nodes named by address (NCCL prints hosts '10', '11'): two INFO "
                 "lines of other ranks after each header line and each row, every 3rd row split by rank 0's own; "
                 "all-reduce, alpha 6 us, bus bandwidth 40 GB/s",
                 {s}});
  }
  {  // All-to-all from 8 B: each rank's share is under 16 B, so nccl-tests prints size 0, count 0.
    SynthSpec s;
    s.collective = "alltoall";
    s.redop = "none";
    s.min_bytes = 8;
    s.max_bytes = 1073741824;
    s.step_factor = 4;
    s.alpha_s = 3e-6;
    s.beta_Bps = 300e9;
    s.seed = 15;
    v.push_back({"synthetic_alltoall_size_zero.txt",
                 "all-to-all on 8 ranks from 8 B: rows of size 0 and count 0 at the small end (each rank's share "
                 "rounded down to 16 B), which the fit keeps and leaves out; alpha 3 us, bus bandwidth 300 GB/s",
                 {s}});
  }
  {  // Intel MPI's "[0] " on every line and again between a row's pieces, other ranks' lines too.
    SynthSpec s;
    s.ranks = 8;
    s.alpha_s = 5e-6;
    s.beta_Bps = 48e9;
    s.min_bytes = 1024;
    s.max_bytes = 268435456;
    s.step_factor = 8;
    s.prefix = "[0] ";
    s.prefix_inside_rows = true;
    s.other_rank_info = 1;
    s.split_every = 4;
    s.seed = 16;
    v.push_back({"synthetic_intel_mpi_labels_in_rows.txt",
                 "Intel MPI labels ('[0] ') on every line and again between each row's pieces, other ranks' INFO lines "
                 "under their own labels, every 4th row split by NCCL INFO lines; all-reduce on 8 ranks, alpha 5 us, bus "
                 "bandwidth 48 GB/s",
                 {s}});
  }
  {  // rccl-tests under srun --label: no test name anywhere; the collective from the table.
    SynthSpec s;
    s.rccl = true;
    s.collective = "reduce_scatter";
    s.ranks = 16;
    s.alpha_s = 6e-6;
    s.beta_Bps = 40e9;
    s.min_bytes = 4096;
    s.max_bytes = 1073741824;
    s.step_factor = 8;
    s.prefix = " 0: ";
    s.prefix_inside_rows = true;
    s.other_rank_info = 1;
    s.seed = 17;
    v.push_back({"synthetic_rccl_srun.txt",
                 "rccl-tests under srun --label (' 0: ' on every line and inside rows, other ranks' lines): no test name, "
                 "so reduce-scatter is told from the table (redop sum, root -1, busbw / algbw 15/16 with 16 Rank "
                 "lines); 16 ranks on two nodes, alpha 6 us, bus bandwidth 40 GB/s",
                 {s}});
  }
  return v;
}

/// The benchmark's log (tests/bench, tests/node/bench_wasm.mjs): all-reduce on 16 ranks over
/// sizes stepping by 1 MiB (-i 1M), 3,000 noise lines among the rows, a little over 4 MB.
inline SynthLog synth_bench_log() {
  SynthSpec s;
  s.ranks = 16;
  s.alpha_s = 5e-6;
  s.beta_Bps = 40e9;
  s.min_bytes = 1048576;
  s.step_bytes = 1048576;
  s.noise_every = 0;
  s.seed = 9;
  // The row count that passes 4e6 bytes: measured on 1,000 rows, then made (rows grow a little
  // longer as sizes do: a margin of 2%).
  s.max_bytes = 1000 * 1048576.0;
  const SynthLog probe = synth_log(s);
  const double per_row = static_cast<double>(probe.text.size()) / 1000;
  s.extra_noise_lines = 3000;
  const double noise_bytes = 3000 * 80.0;
  double rows = std::ceil((4e6 - noise_bytes) / per_row * 1.02);
  for (;; rows += 200) {
    s.max_bytes = rows * 1048576.0;
    SynthLog log = synth_log(s);
    if (log.text.size() >= 4000000) return log;
  }
}

}  // namespace commlab_test
