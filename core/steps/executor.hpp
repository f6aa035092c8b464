// Layer steps (on model): the collective-step engine, schedule + topology + this executor.
// Runs a schedule (schedule.hpp) on a topology (topology.hpp). Accounting mode counts bytes,
// messages and steps and times every step; data mode also moves real numbers between
// per-device buffers and checks the result against a reference (P5 §0.5: "per-message
// bookkeeping", made executable).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "steps/schedule.hpp"
#include "steps/topology.hpp"

namespace commlab {

/// Data mode holds every device's buffer; the total is capped so a request cannot exhaust
/// memory (a wasm32 build gets half).
constexpr double kMaxDataBytes = sizeof(void*) == 4 ? 256e6 : 512e6;
/// Largest message count a run may emit (ring all-reduce on 4,096 devices is 33.5 M).
constexpr double kMaxMessages = 40e6;
/// Largest message count of one step (a step is held whole: direct all-to-all on 2,048
/// devices has 4.2 M).
constexpr double kMaxStepMessages = 4.2e6;
/// Largest device count in data mode.
constexpr int kMaxDataDevices = 4096;
/// Work a run may do, checked before it starts (core/README.md "Limits": no request runs for more than a second).
/// One unit is about one element operation, 5 ns natively: an accounting message costs 8, a
/// data-mode message 100 (its block positions take integer divisions and touch two buffers),
/// every element held 3 (filled, summed for the reference, compared), every element moved 1.
/// 1e8 units is about 0.5 s natively and under a second in wasm.
constexpr double kMaxWorkUnits = 1e8;

struct ExecOptions {
  bool data = false;
  uint64_t seed = 1;
  /// Memory a run may hold, everything counted (estimate_run); data mode buffers the most.
  double max_data_bytes = kMaxDataBytes;
  /// Work a run may do (the benchmarks go past it).
  double max_work_units = kMaxWorkUnits;
  /// Messages kept for the trace; steps past it are summarised only.
  int64_t trace_messages = 0;
  /// Data mode: explicit inputs (devices x elements) instead of seeded random integers.
  const std::vector<std::vector<double>>* inputs = nullptr;
};

/// One step as run: its time and, while the trace has room, its messages.
struct StepRecord {
  const char* phase = "";
  const char* detail = "";
  double time_s = 0;
  int64_t messages = 0;
  bool cut_through = false;
  std::vector<Message> trace;  // empty once the trace is full
};

struct ExecResult {
  int devices = 0;
  int steps = 0;
  int64_t messages = 0;
  double time_s = 0;
  double alpha_time_s = 0;             // the alphas of every step
  std::vector<double> bytes_sent;      // per device (the switch node excluded)
  std::vector<double> bytes_received;
  double max_bytes_sent = 0, max_bytes_received = 0;
  double switch_bytes_received = 0;    // in_switch only
  std::vector<StepRecord> step_records;  // every step; messages only within the trace
  bool trace_truncated = false;
  int64_t trace_messages = 0;
  // data mode
  bool data = false;
  int64_t elements = 0;                // per device buffer, doubles
  bool verified = false;
  std::string verification;            // what was compared, or the first mismatch
  double peak_buffer_bytes = 0;        // device buffers, switch, output and staging
};

/// What a run would cost, estimated from the spec alone: work units (kMaxWorkUnits) and every
/// byte it holds at once (device buffers, the largest step's messages and their scratch, the
/// trace, the step records, and the answer's JSON).
struct RunCost {
  double work_units = 0;
  double memory_bytes = 0;
};
RunCost estimate_run(const ScheduleSpec& spec, const ExecOptions& opt);
/// Upper bounds the estimate rests on (tested against every schedule).
double schedule_step_bound(const ScheduleSpec& spec);
double schedule_step_message_bound(const ScheduleSpec& spec);

/// Checks a run is possible (devices, memory, work) and throws RequestError naming the field
/// and the largest size that fits otherwise.
void check_run_limits(const ScheduleSpec& spec, const Topology& topo, const ExecOptions& opt);

/// The executor. prepare() allocates and fills the inputs (data mode), run() executes the
/// schedule once, verify() compares the buffers with the reference.
class Executor {
 public:
  /// Takes the topology by value and keeps it: an executor built from a temporary stays valid.
  Executor(const ScheduleSpec& spec, Topology topo, const ExecOptions& opt);
  void prepare();
  void run();
  bool verify();
  const ExecResult& result() const { return result_; }
  /// Payload bytes moved by the last run (sum of message bytes), for bandwidth figures.
  double payload_bytes() const { return payload_bytes_; }
  /// Data mode: device d's buffer after run() (the output buffer for all-to-all).
  const std::vector<double>& final_buffer(int d) const { return out_.empty() ? in_[d] : out_[d]; }

 private:
  void on_step(const Step& step);
  void apply_data(const Step& step);
  void fill_inputs();
  // verify()'s finding: device d's element e is `got`, not `want`; returns false.
  bool mismatch(int d, int64_t e, double got, double want);
  double* buffer(int node, bool output);
  double input(int d, int64_t e) const;

  ScheduleSpec spec_;
  Topology topo_;
  ExecOptions opt_;
  ExecResult result_;
  double payload_bytes_ = 0;
  double prev_transfer_s_ = 0;
  // accounting scratch
  std::vector<double> load_;
  std::vector<int32_t> touched_, ports_, port_offsets_;
  std::vector<double> alphas_;
  // data mode
  std::vector<std::vector<double>> in_, out_;  // out_ only for all-to-all
  std::vector<double> switch_buf_, staging_;
};

/// Runs prepare, run and (data mode) verify.
ExecResult execute(const ScheduleSpec& spec, const Topology& topo, const ExecOptions& opt);

/// The input value of element e on device d: a small integer, so every sum is exact.
double input_value(uint64_t seed, int device, int64_t element);

}  // namespace commlab
