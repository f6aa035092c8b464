// Collective algorithms as explicit schedules (P5 §4-5): a list of steps, each a list of
// messages. The executor (executor.hpp) runs them on buffers, counts and times them; the page
// animates them. Builders stream one step at a time, so thousands of devices fit in memory.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/collectives.hpp"

namespace commlab {

enum class MsgOp : uint8_t { copy, reduce };

/// One message: `len` blocks starting at src_begin of the sender's buffer, split into `den`
/// equal blocks, go to dst_begin of the receiver's, copied or added. Positions are exact
/// rationals of the buffer: element of block b = floor(b * elements / den).
struct Message {
  int32_t src = 0, dst = 0;
  MsgOp op = MsgOp::copy;
  int64_t src_begin = 0, dst_begin = 0, len = 0, den = 1;
  double bytes = 0;  // len / den x the collective's bytes
};

struct Step {
  std::vector<Message> messages;
  const char* phase = "";  // e.g. "reduce-scatter", for the page
  /// Within a composite phase (hierarchical's "inter-node all-reduce", P5 §5.5), the inner
  /// algorithm's own phase ("reduce-scatter"); empty otherwise.
  const char* detail = "";
  /// Cut-through: this step's data streams on the opposite direction of the ports while the
  /// previous step's is still arriving (the in-switch reduction's multicast, P5 §5.4); it adds
  /// its alpha and only the part of its transfer longer than the previous step's.
  bool cut_through = false;
};

/// What to build. `bytes` is each device's buffer, as in collective_cost().
struct ScheduleSpec {
  Collective collective = Collective::allreduce;
  std::string algorithm = "ring";  // one of collective_algorithms(), or "hierarchical"
  int devices = 2;
  double bytes = 0;
  int root = 0;                    // broadcast, reduce; sendrecv: the sender
  int peer = 1;                    // sendrecv: the receiver
  int chunks = 1;                  // double binary tree: pipeline chunks (resolve first)
  int gpus_per_node = 1;           // hierarchical: devices = nodes x gpus_per_node
  AllreduceAlgorithm inter_algorithm = AllreduceAlgorithm::ring;  // hierarchical
  /// All-to-all with uneven messages (MoE dispatch, P5 §4.3): bytes from i to j at
  /// [i * devices + j]; empty for the even split. Zero entries send nothing. Accounting only.
  std::vector<double> pair_bytes;
};

using StepSink = std::function<void(const Step&)>;

/// Streams the schedule, one call of `sink` per non-empty step. The switch node of in_switch
/// has id = devices. Throws RequestError for an unknown algorithm.
void build_schedule(const ScheduleSpec& spec, const StepSink& sink);

/// An upper bound on the messages build_schedule emits, to refuse huge requests up front.
double schedule_message_bound(const ScheduleSpec& spec);

/// Valid algorithm names for simulate: collective_algorithms(c), plus "hierarchical" for
/// all-reduce.
std::vector<std::string> schedule_algorithms(Collective c);

}  // namespace commlab
