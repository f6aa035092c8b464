#include "steps/executor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/heap_sort.hpp"
#include "base/work_meter.hpp"
#include "model/collectives.hpp"

namespace commlab {

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// floor(block * elements / den) without overflow: den is at most devices x 2 x 4096 chunks
// (< 2^25) and elements stay below 2^30 in data mode, so the remainder's product fits.
int64_t position(int64_t block, int64_t den, int64_t elements) {
  return block / den * elements + block % den * elements / den;
}

// Scratch bytes a schedule's simultaneous exchanges need: recursive doubling reads every
// buffer that the same step overwrites, Rabenseifner half of each.
double staging_bound_bytes(const ScheduleSpec& spec, double buffers_bytes) {
  if (spec.collective != Collective::allreduce) return 0;
  const std::string& a = spec.algorithm;
  const AllreduceAlgorithm inter = spec.inter_algorithm;
  if (a == "recursive_doubling" || (a == "hierarchical" && inter == AllreduceAlgorithm::recursive_doubling))
    return buffers_bytes;
  if (a == "rabenseifner" || (a == "hierarchical" && inter == AllreduceAlgorithm::rabenseifner))
    return buffers_bytes / 2;
  return 0;
}

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

std::string whole(double x) {  // a size to copy back into a request: every digit
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f", x);
  return buf;
}

}  // namespace

double input_value(uint64_t seed, int device, int64_t element) {
  const uint64_t h = splitmix64(seed * 0xD1B54A32D192ED03ULL ^ (static_cast<uint64_t>(device) << 40) ^
                                static_cast<uint64_t>(element));
  return static_cast<double>(static_cast<int64_t>(h % 2001) - 1000);
}

double schedule_step_message_bound(const ScheduleSpec& spec) {
  const double k = spec.devices;
  if (spec.collective == Collective::alltoall && spec.algorithm == "direct") return k * (k - 1);
  return 4 * k;  // a device sends at most four messages a step (the double binary tree's two trees)
}

double schedule_step_bound(const ScheduleSpec& spec) {
  // Rings take 2(k-1) steps, pipelined trees 2L + C - 1, everything else fewer.
  return 2.0 * spec.devices + 2.0 * std::max(1, spec.chunks) + 64;
}

namespace {

// Bytes every device sends together, from the closed form (equal to the schedule's on a
// uniform topology, README "The collective-step engine"); the in-switch multicast adds D a device.
double total_bytes_moved(const ScheduleSpec& spec) {
  const Link any{1e-6, 1e9, "estimate"};
  const int k = spec.devices;
  double per_device = 0;
  if (spec.algorithm == "hierarchical") {
    const int nodes = k / std::max(1, spec.gpus_per_node);
    per_device = hierarchical_allreduce_cost(nodes, spec.gpus_per_node, spec.bytes, any, any,
                                             spec.inter_algorithm).total.bytes_sent_per_device;
  } else {
    per_device = collective_cost(spec.collective, spec.algorithm, k, spec.bytes, any).bytes_sent_per_device;
  }
  return k * per_device + (spec.algorithm == "in_switch" ? k * spec.bytes : 0);
}

// Bytes of answer JSON: a traced message as a JSON object is about 800 bytes held, a listed
// step about 400 (the op lists at most 20,000).
constexpr double kJsonBytesPerTracedMessage = 800, kJsonBytesPerStep = 400, kMaxListedSteps = 20000;

}  // namespace

RunCost estimate_run(const ScheduleSpec& spec, const ExecOptions& opt) {
  const double k = spec.devices;
  const double messages = schedule_message_bound(spec);
  const double step_messages = std::min(messages, schedule_step_message_bound(spec));
  const double steps = std::min(messages, schedule_step_bound(spec));
  const double traced = std::min<double>(messages, static_cast<double>(std::max<int64_t>(0, opt.trace_messages)));
  RunCost c;
  // The step's message vector may hold twice its size while it grows (the direct all-to-all
  // reserves its one step exactly); data mode adds the per-message scratch of apply_data (a
  // flag, an offset, a write record).
  const bool reserved = spec.collective == Collective::alltoall && spec.algorithm == "direct";
  const double message_bytes = sizeof(Message) * (reserved ? 1 : 2) + (opt.data ? 1 + sizeof(int64_t) + 24 : 0);
  c.memory_bytes = step_messages * message_bytes + traced * (sizeof(Message) + kJsonBytesPerTracedMessage) +
                   steps * sizeof(StepRecord) + std::min(steps, kMaxListedSteps) * kJsonBytesPerStep +
                   k * 4 * sizeof(double);  // per-device byte counts and their JSON
  c.work_units = messages * (opt.data ? 100 : 8) + traced * 20;
  if (opt.data) {
    const double elements = spec.bytes / sizeof(double);
    const double buffers = k * spec.bytes;
    c.memory_bytes += buffers * (spec.collective == Collective::alltoall ? 2 : 1) +
                      (spec.algorithm == "in_switch" ? spec.bytes : 0) + staging_bound_bytes(spec, buffers);
    c.work_units += 3 * k * elements + total_bytes_moved(spec) / sizeof(double);
  }
  return c;
}

namespace {

bool fits(const ScheduleSpec& spec, const ExecOptions& opt) {
  const RunCost c = estimate_run(spec, opt);
  return c.work_units <= opt.max_work_units && c.memory_bytes <= opt.max_data_bytes;
}

// The largest device count (node count for hierarchical) that fits, or 0.
int largest_fitting_devices(ScheduleSpec spec, const ExecOptions& opt) {
  const int step = spec.algorithm == "hierarchical" ? std::max(1, spec.gpus_per_node) : 1;
  int lo = 0, hi = spec.devices / step;  // fits(lo * step) holds (0: nothing), fits(hi * step) fails
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    spec.devices = mid * step;
    if (mid * step >= 2 && fits(spec, opt)) lo = mid;
    else hi = mid;
  }
  return lo * step >= 2 ? lo * step : 0;
}

// The largest buffer size that fits on these devices in data mode, or 0: work and memory grow
// linearly in bytes, so two evaluations give each line.
double largest_fitting_bytes(ScheduleSpec spec, const ExecOptions& opt) {
  const double unit = sizeof(double) * (spec.collective == Collective::alltoall ? spec.devices : 1);
  spec.bytes = unit;
  const RunCost a = estimate_run(spec, opt);
  spec.bytes = 2 * unit;
  const RunCost b = estimate_run(spec, opt);
  const double work_per_unit = b.work_units - a.work_units, memory_per_unit = b.memory_bytes - a.memory_bytes;
  const double by_work = work_per_unit > 0 ? (opt.max_work_units - a.work_units) / work_per_unit + 1 : 1e300;
  const double by_memory = memory_per_unit > 0 ? (opt.max_data_bytes - a.memory_bytes) / memory_per_unit + 1 : 1e300;
  const double units = std::floor(std::min(by_work, by_memory));
  return units >= 1 ? units * unit : 0;
}

void check_run_budget(const ScheduleSpec& spec, const ExecOptions& opt) {
  const RunCost c = estimate_run(spec, opt);
  if (c.work_units <= opt.max_work_units && c.memory_bytes <= opt.max_data_bytes) {
    charge_work(c.work_units);  // an exercise document's requests share one budget
    return;
  }
  // Memory first: its cap differs between native and wasm, so only a request past it answers
  // differently in the two (the golden comparison holds the rest identical).
  const std::string what = c.memory_bytes > opt.max_data_bytes
                               ? concat({num(c.memory_bytes / 1e6), " MB of memory; allowed: at most ",
                                         num(opt.max_data_bytes / 1e6), " MB"})
                               : concat({"about ", num(c.work_units), " units of work; allowed: at most ",
                                         num(opt.max_work_units), " (about half a second)"});
  const std::string run = concat({spec.algorithm, " ", collective_name(spec.collective), " on ",
                                  std::to_string(spec.devices), " devices", (opt.data ? " in data mode" : "")});
  if (opt.data) {
    const double bytes = largest_fitting_bytes(spec, opt);
    if (bytes > 0)
      refuse("too_large", {"field 'bytes': value ", num(spec.bytes), " makes ", run, " take ", what,
                           "; the largest size that fits is ", whole(bytes), " bytes, or \"mode\": \"accounting\""});
  }
  const int devices = largest_fitting_devices(spec, opt);
  const std::string field = spec.algorithm == "hierarchical" ? "nodes" : "devices";
  const std::string largest =
      devices == 0 ? "no device count fits at this size"
                   : "the largest that fits is " +
                         (spec.algorithm == "hierarchical"
                              ? std::to_string(devices / std::max(1, spec.gpus_per_node)) + " nodes"
                              : std::to_string(devices) + " devices");
  refuse(
      "too_large",
      {"field '", field, "': value ",
       std::to_string(spec.algorithm == "hierarchical" ? spec.devices / std::max(1, spec.gpus_per_node) : spec.devices),
       " makes ", run, " take ", what, "; ", largest, (opt.data ? ", or \"mode\": \"accounting\"" : "")});
}

}  // namespace

COMMLAB_RARE void check_run_limits(const ScheduleSpec& spec, const Topology& topo, const ExecOptions& opt) {
  const int k = spec.devices;
  if (topo.devices() != k)
    refuse("invalid_request",
           {"field 'devices': ", std::to_string(k), " devices but the topology has ", std::to_string(topo.devices())});
  if (spec.collective == Collective::alltoall && spec.algorithm == "direct" &&
      static_cast<double>(k) * (k - 1) > kMaxStepMessages)
    refuse("too_large", {"field 'devices': value ", std::to_string(k), " puts ", num(static_cast<double>(k) * (k - 1)),
                         " messages in the one step of a direct all-to-all; allowed: "
                         "at most ",
                         num(kMaxStepMessages), " (2,048 devices), or \"algorithm\": \"pairwise\""});
  if (!opt.data) return check_run_budget(spec, opt);
  if (!spec.pair_bytes.empty())
    refuse("invalid_request", {"field 'mode': an all-to-all with uneven messages runs in "
                               "accounting mode only; allowed: \"accounting\""});
  if (k > kMaxDataDevices)
    refuse("too_large", {"field 'devices': value ", std::to_string(k), " is too many for data mode; allowed: at most ",
                         std::to_string(kMaxDataDevices), ", or \"mode\": \"accounting\""});
  const double elements = spec.bytes / sizeof(double);
  // Zero elements would verify nothing (and copy from null buffers) yet report verified.
  if (elements < 1)
    refuse("invalid_request", {"field 'bytes': value ", num(spec.bytes),
                               " holds no 8-byte element; data mode moves doubles, "
                               "allowed: at least 8 bytes, or \"mode\": \"accounting\""});
  if (elements != std::floor(elements))
    refuse("invalid_request", {"field 'bytes': value ", num(spec.bytes),
                               " is not whole 8-byte elements; data mode moves "
                               "doubles, allowed: a multiple of 8 bytes"});
  if (spec.collective == Collective::alltoall && std::fmod(elements, k) != 0)
    refuse("invalid_request", {"field 'bytes': value ", num(spec.bytes), " does not split into ", std::to_string(k),
                               " equal blocks of doubles; data-mode all-to-all "
                               "needs a multiple of 8 x devices = ",
                               std::to_string(8LL * k), " bytes"});
  check_run_budget(spec, opt);
}

Executor::Executor(const ScheduleSpec& spec, Topology topo, const ExecOptions& opt)
    : spec_(spec), topo_(std::move(topo)), opt_(opt) {}

double* Executor::buffer(int node, bool output) {
  if (node == spec_.devices) return switch_buf_.data();
  if (output && !out_.empty()) return out_[node].data();
  return in_[node].data();
}

double Executor::input(int d, int64_t e) const {
  return opt_.inputs ? (*opt_.inputs)[d][e] : input_value(opt_.seed, d, e);
}

void Executor::prepare() {
  check_run_limits(spec_, topo_, opt_);
  const int k = spec_.devices;
  load_.assign(topo_.port_count(), 0.0);
  if (!opt_.data) return;
  const int64_t n = static_cast<int64_t>(spec_.bytes / sizeof(double));
  result_.elements = n;
  in_.resize(k);
  for (int d = 0; d < k; ++d) {
    in_[d].resize(n);
    for (int64_t e = 0; e < n; ++e) in_[d][e] = input(d, e);
  }
  if (spec_.collective == Collective::alltoall) out_ = in_;  // keeps each device's own block
  if (spec_.algorithm == "in_switch") switch_buf_.assign(n, 0.0);
}

void Executor::run() {
  const int k = spec_.devices;
  result_.devices = k;
  result_.steps = 0;
  result_.messages = 0;
  result_.time_s = result_.alpha_time_s = 0;
  result_.bytes_sent.assign(k, 0.0);
  result_.bytes_received.assign(k, 0.0);
  result_.switch_bytes_received = 0;
  result_.step_records.clear();
  result_.trace_truncated = false;
  result_.trace_messages = 0;
  result_.data = opt_.data;
  payload_bytes_ = 0;
  prev_transfer_s_ = 0;
  if (opt_.data && spec_.algorithm == "in_switch") std::fill(switch_buf_.begin(), switch_buf_.end(), 0.0);
  build_schedule(spec_, [this](const Step& s) { on_step(s); });
  result_.max_bytes_sent = result_.max_bytes_received = 0;
  for (int d = 0; d < k; ++d) {
    result_.max_bytes_sent = std::max(result_.max_bytes_sent, result_.bytes_sent[d]);
    result_.max_bytes_received = std::max(result_.max_bytes_received, result_.bytes_received[d]);
  }
  double peak = 0;
  for (const auto& b : in_) peak += b.capacity() * sizeof(double);
  for (const auto& b : out_) peak += b.capacity() * sizeof(double);
  peak += (switch_buf_.capacity() + staging_.capacity()) * sizeof(double);
  result_.peak_buffer_bytes = peak;
}

// P5 §3: a message costs alpha + bytes/beta; messages on one directed port in one step share
// it, so each sees its busiest port's total load; the step ends with its slowest message.
void Executor::on_step(const Step& step) {
  const int k = spec_.devices;
  const size_t count = step.messages.size();
  if (result_.messages + static_cast<int64_t>(count) > kMaxMessages)
    refuse("too_large", {"the schedule exceeds ", num(kMaxMessages), " messages"});
  double step_alpha = 0, step_transfer = 0, step_time = 0;
  if (topo_.kind() == TopologyKind::switched) {
    // Fast path: uplink 2i, downlink 2i+1; the switch node has no port of its own.
    const double beta = topo_.link().beta_Bps, alpha = topo_.link().alpha_s;
    for (const Message& m : step.messages) {
      if (m.src < k) load_[2 * m.src] += m.bytes;
      if (m.dst < k) load_[2 * m.dst + 1] += m.bytes;
    }
    double busiest = 0;
    for (const Message& m : step.messages) {
      if (m.src < k) busiest = std::max(busiest, load_[2 * m.src]);
      if (m.dst < k) busiest = std::max(busiest, load_[2 * m.dst + 1]);
    }
    for (const Message& m : step.messages) {
      if (m.src < k) load_[2 * m.src] = 0;
      if (m.dst < k) load_[2 * m.dst + 1] = 0;
    }
    step_alpha = alpha;
    step_transfer = busiest / beta;
    step_time = alpha + step_transfer;
  } else {
    ports_.clear();
    port_offsets_.clear();
    alphas_.clear();
    for (const Message& m : step.messages) {
      port_offsets_.push_back(static_cast<int32_t>(ports_.size()));
      alphas_.push_back(topo_.route(m.src, m.dst, &ports_));
      for (size_t i = port_offsets_.back(); i < ports_.size(); ++i) load_[ports_[i]] += m.bytes;
    }
    port_offsets_.push_back(static_cast<int32_t>(ports_.size()));
    for (size_t j = 0; j < count; ++j) {
      double transfer = 0;
      for (int32_t i = port_offsets_[j]; i < port_offsets_[j + 1]; ++i)
        transfer = std::max(transfer, load_[ports_[i]] / topo_.port_beta(ports_[i]));
      step_alpha = std::max(step_alpha, alphas_[j]);
      step_transfer = std::max(step_transfer, transfer);
      step_time = std::max(step_time, alphas_[j] + transfer);
    }
    for (int32_t p : ports_) load_[p] = 0;
  }
  if (step.cut_through) step_time = step_alpha + std::max(0.0, step_transfer - prev_transfer_s_);
  prev_transfer_s_ = step_transfer;

  for (const Message& m : step.messages) {
    if (m.src < k) result_.bytes_sent[m.src] += m.bytes;
    if (m.dst < k) result_.bytes_received[m.dst] += m.bytes;
    else result_.switch_bytes_received += m.bytes;
    payload_bytes_ += m.bytes;
  }
  ++result_.steps;
  result_.messages += static_cast<int64_t>(count);
  result_.time_s += step_time;
  result_.alpha_time_s += step_alpha;

  StepRecord rec;
  rec.phase = step.phase;
  rec.detail = step.detail;
  rec.time_s = step_time;
  rec.messages = static_cast<int64_t>(count);
  rec.cut_through = step.cut_through;
  if (!result_.trace_truncated && result_.trace_messages + static_cast<int64_t>(count) <= opt_.trace_messages) {
    rec.trace = step.messages;
    result_.trace_messages += static_cast<int64_t>(count);
  } else {
    result_.trace_truncated = true;
  }
  result_.step_records.push_back(std::move(rec));

  if (opt_.data) apply_data(step);
}

// Messages of one step leave together: each reads its sender's buffer as it was when the step
// began. A read that a write of the same step overlaps is staged first.
void Executor::apply_data(const Step& step) {
  const int64_t n = result_.elements;
  const size_t count = step.messages.size();
  std::vector<char> staged(count, 0);
  std::vector<int64_t> stage_at(count, 0);
  if (out_.empty()) {
    struct Write {
      int32_t node;
      int64_t lo, hi;
    };
    std::vector<Write> writes;
    writes.reserve(count);
    for (const Message& m : step.messages)
      writes.push_back({m.dst, position(m.dst_begin, m.den, n), position(m.dst_begin + m.len, m.den, n)});
    // Ties (one node, one lo) in any order: max_hi at the end of their run is the same.
    heap_sort(writes.begin(), writes.end(), [](const Write& a, const Write& b) {
      return a.node != b.node ? a.node < b.node : a.lo < b.lo;
    });
    std::vector<int64_t> max_hi(writes.size());
    for (size_t i = 0; i < writes.size(); ++i)
      max_hi[i] = (i > 0 && writes[i - 1].node == writes[i].node) ? std::max(max_hi[i - 1], writes[i].hi)
                                                                   : writes[i].hi;
    int64_t stage_size = 0;
    for (size_t j = 0; j < count; ++j) {
      const Message& m = step.messages[j];
      const int64_t lo = position(m.src_begin, m.den, n), hi = position(m.src_begin + m.len, m.den, n);
      if (lo == hi) continue;
      // Writes to m.src starting before hi; does any of them end after lo?
      auto first = std::lower_bound(writes.begin(), writes.end(), m.src,
                                    [](const Write& w, int32_t node) { return w.node < node; });
      auto last = std::lower_bound(first, writes.end(), std::make_pair(m.src, hi),
                                   [](const Write& w, const std::pair<int32_t, int64_t>& key) {
                                     return w.node < key.first || (w.node == key.first && w.lo < key.second);
                                   });
      if (last != first && max_hi[(last - writes.begin()) - 1] > lo) {
        staged[j] = 1;
        stage_at[j] = stage_size;
        stage_size += hi - lo;
      }
    }
    if (stage_size > 0) {
      if (static_cast<int64_t>(staging_.size()) < stage_size) staging_.resize(stage_size);
      for (size_t j = 0; j < count; ++j)
        if (staged[j]) {
          const Message& m = step.messages[j];
          const int64_t lo = position(m.src_begin, m.den, n), hi = position(m.src_begin + m.len, m.den, n);
          std::memcpy(staging_.data() + stage_at[j], buffer(m.src, false) + lo, (hi - lo) * sizeof(double));
        }
    }
  }
  for (size_t j = 0; j < count; ++j) {
    const Message& m = step.messages[j];
    const int64_t slo = position(m.src_begin, m.den, n), shi = position(m.src_begin + m.len, m.den, n);
    const int64_t dlo = position(m.dst_begin, m.den, n);
    const int64_t len = shi - slo;
    const double* __restrict src = staged[j] ? staging_.data() + stage_at[j] : buffer(m.src, false) + slo;
    double* __restrict dst = buffer(m.dst, true) + dlo;
    if (m.op == MsgOp::copy) {
      std::memcpy(dst, src, len * sizeof(double));
    } else {
      for (int64_t i = 0; i < len; ++i) dst[i] += src[i];
    }
  }
}

bool Executor::verify() {
  result_.verified = false;
  if (!opt_.data) {
    result_.verification = "accounting mode: no data moved";
    return false;
  }
  const int k = spec_.devices;
  const int64_t n = result_.elements;
  // Reference sums a tile of elements at a time, so each device's buffer streams in order.
  constexpr int64_t kTile = 4096;
  std::vector<double> tile(kTile);
  int64_t tile_lo = -1;
  auto sum_at = [&](int64_t e) {
    if (tile_lo < 0 || e < tile_lo || e >= tile_lo + kTile) {
      tile_lo = e - e % kTile;
      const int64_t hi = std::min(n, tile_lo + kTile);
      std::fill(tile.begin(), tile.end(), 0.0);
      for (int d = 0; d < k; ++d)
        for (int64_t x = tile_lo; x < hi; ++x) tile[x - tile_lo] += input(d, x);
    }
    return tile[e - tile_lo];
  };
  auto fail = [&](int d, int64_t e, double got, double want) {
    result_.verification = concat(
        {"device ", std::to_string(d), " element ", std::to_string(e), ": ", num(got), ", expected ", num(want)});
    return false;
  };
  auto block = [&](int b) { return position(b, k, n); };
  switch (spec_.collective) {
    case Collective::allreduce:
      for (int64_t lo = 0; lo < n; lo += kTile)
        for (int d = 0; d < k; ++d)
          for (int64_t e = lo; e < std::min(n, lo + kTile); ++e)
            if (in_[d][e] != sum_at(e)) return fail(d, e, in_[d][e], sum_at(e));
      result_.verification = "every device holds the elementwise sum of all inputs";
      break;
    case Collective::reduce:
      for (int64_t e = 0; e < n; ++e) {
        const double s = sum_at(e);
        if (in_[spec_.root][e] != s) return fail(spec_.root, e, in_[spec_.root][e], s);
      }
      result_.verification = "the root holds the elementwise sum of all inputs";
      break;
    case Collective::reduce_scatter:
      for (int d = 0; d < k; ++d)
        for (int64_t e = block(d); e < block(d + 1); ++e) {
          const double s = sum_at(e);
          if (in_[d][e] != s) return fail(d, e, in_[d][e], s);
        }
      result_.verification = "device i holds block i of the elementwise sum";
      break;
    case Collective::allgather:
      for (int d = 0; d < k; ++d)
        for (int b = 0; b < k; ++b)
          for (int64_t e = block(b); e < block(b + 1); ++e) {
            const double want = input(b, e);
            if (in_[d][e] != want) return fail(d, e, in_[d][e], want);
          }
      result_.verification = "every device holds block j of device j's input, for every j";
      break;
    case Collective::broadcast:
      for (int d = 0; d < k; ++d)
        for (int64_t e = 0; e < n; ++e) {
          const double want = input(spec_.root, e);
          if (in_[d][e] != want) return fail(d, e, in_[d][e], want);
        }
      result_.verification = "every device holds the root's input";
      break;
    case Collective::alltoall:
      for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j)
          for (int64_t t = 0; t < block(j + 1) - block(j); ++t) {
            const double want = input(j, block(i) + t);
            if (out_[i][block(j) + t] != want) return fail(i, block(j) + t, out_[i][block(j) + t], want);
          }
      result_.verification = "block j of device i is block i of device j's input (a transpose)";
      break;
    case Collective::sendrecv:
      for (int64_t e = 0; e < n; ++e) {
        const double want = input(spec_.root, e);
        if (in_[spec_.peer][e] != want) return fail(spec_.peer, e, in_[spec_.peer][e], want);
      }
      result_.verification = "the receiver holds the sender's buffer";
      break;
  }
  result_.verified = true;
  return true;
}

ExecResult execute(const ScheduleSpec& spec, const Topology& topo, const ExecOptions& opt) {
  Executor ex(spec, topo, opt);
  ex.prepare();
  ex.run();
  if (opt.data) ex.verify();
  return ex.result();
}

}  // namespace commlab
