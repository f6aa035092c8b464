// Context parallelism and ring attention (P5 §6.5, code 04 demo 2, exercise 7): blockwise
// attention with an online softmax, when the KV transfer hides behind compute, and the causal
// imbalance that the zig-zag split removes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/links.hpp"
#include "model/presets.hpp"

namespace commlab {

/// How a sequence is cut over devices: contiguous blocks, or zig-zag (device i holds chunks i
/// and 2k-1-i of 2k), which balances the causal mask.
enum class SequenceLayout { contiguous, zigzag };

struct RingAttentionCheck {
  int devices, tokens_per_device, head_dim;
  bool causal;
  SequenceLayout layout;
  double max_abs_error = 0;  // ring vs one device (the lecture reports 7e-16)
  double max_abs_output = 0; // scale of the output, for the relative size of the error
};
/// Runs ring attention for real on random Q, K, V in double: device i keeps its queries, KV
/// blocks travel k-1 steps round the ring, partial results merge by online softmax (running
/// max m and sum l), and the result is compared with softmax attention on one device.
RingAttentionCheck check_ring_attention(int devices, int tokens_per_device, int head_dim, bool causal,
                                        SequenceLayout layout, std::uint64_t seed = 3);

/// Per-step costs of ring attention for one layer of a model, n tokens per device.
struct RingAttentionCost {
  double flops_per_token2 = 0;      // 4 x head_dim x q_heads: QK^T and PV of n queries x n keys
  double kv_bytes_per_token = 0;    // one layer's cache a token (kv_bytes_per_token_layer)
  double threshold_tokens = 0;      // bandwidth-only crossover F_eff x bytes / (flops x beta)
  double threshold_with_alpha_tokens = 0;  // compute = alpha + bytes / beta
  double compute_time_s = 0;        // one step at n tokens
  double transfer_time_s = 0;       // one KV block at n tokens, alpha included
  bool hidden = false;              // n >= threshold_tokens (the lecture's criterion)
  bool hidden_with_alpha = false;   // compute_time_s >= transfer_time_s
  // What a view concludes, alpha included: "hidden" (compute covers the transfer), "alpha_exposes"
  // (above the lecture's bandwidth-only threshold, yet alpha leaves the transfer longer) or "exposed".
  const char* hiding_case = "exposed";
};
RingAttentionCost ring_attention_cost(const ModelPreset& m, double flops_eff, const Link& link,
                                      double tokens_per_device);

/// Causal attention work per device, in (query, key) pairs, and the ring's critical path
/// (each step waits for the busiest device).
struct CausalBalance {
  std::vector<double> work_pairs;   // per device, whole ring
  double imbalance = 0;             // max / mean
  double ring_pairs = 0;            // sum over steps of the busiest device's pairs
  double ring_pairs_ideal = 0;      // total pairs / devices
};
CausalBalance causal_balance(int devices, long long tokens_per_device, SequenceLayout layout);

}  // namespace commlab
