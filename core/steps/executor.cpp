// The executor's schedule run, step accounting and limits; data mode (moving, checking the
// numbers) is in data_mode.cpp, which the wasm build compiles for speed (CMakeLists.txt).
#include "steps/executor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "base/concat.hpp"
#include "base/error.hpp"
#include "base/work_meter.hpp"
#include "model/collectives.hpp"

namespace commlab {

namespace {

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
// uniform topology, core/README.md "The collective-step engine"); the in-switch multicast adds D a device.
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

void Executor::prepare() {
  check_run_limits(spec_, topo_, opt_);
  load_.assign(topo_.port_count(), 0.0);
  if (!opt_.data) return;
  const int64_t n = static_cast<int64_t>(spec_.bytes / sizeof(double));
  result_.elements = n;
  fill_inputs();
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

COMMLAB_RARE bool Executor::mismatch(int d, int64_t e, double got, double want) {
  result_.verification =
      concat({"device ", std::to_string(d), " element ", std::to_string(e), ": ", num(got), ", expected ", num(want)});
  return false;
}

ExecResult execute(const ScheduleSpec& spec, const Topology& topo, const ExecOptions& opt) {
  Executor ex(spec, topo, opt);
  ex.prepare();
  ex.run();
  if (opt.data) ex.verify();
  return ex.result();
}

}  // namespace commlab
