// Pipeline-parallel decode (P5 §6.3, code 04 demo 4, exercise 6): a discrete-event simulator of
// micro-batches generating tokens through p stages.
#pragma once
#include <string>
#include <vector>

namespace commlab {

/// One busy interval of the timeline: a stage computing, or an activation on the link
/// from stage `stage` to stage + 1.
struct PipelineInterval {
  std::string kind;  // "compute" or "transfer"
  int stage;
  int microbatch;
  int token;
  double start_s, end_s;
};

struct PipelineResult {
  double makespan_s = 0;           // every micro-batch has generated `tokens` tokens
  double token_interval_s = 0;     // makespan / tokens: the lecture's pp_decode figure
  double trip_s = 0;               // p s + (p-1) t: a token's trip through every stage
  /// Steady state (P5 §6.3): a micro-batch's tokens follow each other every max(trip, m s): the
  /// trip when the micro-batches are too few to keep stages busy, else each stage serves all m.
  double steady_interval_s = 0;
  double steady_utilisation = 0;   // m s / steady interval: the share of time a stage computes
  double steady_tokens_per_s = 0;  // m / steady interval: all micro-batches together
  double measured_interval_s = 0;  // micro-batch 0's last two tokens, simulated (0 with 1 token)
  double utilisation = 0;          // busy stage time / (stages x makespan), fill included
  /// When micro-batch 0's tokens leave the last stage, for the timeline's tokens (the view marks
  /// the steady interval between the last two).
  std::vector<double> token_ends_s;
  int microbatches_to_fill = 0;    // ceil((p s + (p-1) t) / s): enough to keep every stage busy
  double tokens_per_s = 0;         // all micro-batches together
  std::vector<PipelineInterval> timeline;  // the first `timeline_tokens` tokens of each micro-batch
};

/// Each micro-batch's token passes stages 0..p-1 with `transfer_time_s` between consecutive
/// stages; the next token of that micro-batch starts at stage 0 when the last stage finishes
/// (autoregressive: no overlap of one micro-batch's tokens). A stage serves one micro-batch at a
/// time, first come first served; all micro-batches are ready at time 0; links never contend.
PipelineResult simulate_pipeline_decode(int stages, int microbatches, double stage_time_s,
                                        double transfer_time_s, int tokens, int timeline_tokens = 2);

}  // namespace commlab
