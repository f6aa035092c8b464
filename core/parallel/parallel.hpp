// Layer parallel (on model): TP/SP/EP, pipeline, ring attention and overlap (P5 §6-7).
// Tensor, sequence and expert parallelism (P5 §6.2, §6.4; code 04 demos 1 and 3): what each
// split communicates, how long it takes, and a numerical check that the Megatron split is exact.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/collectives.hpp"
#include "model/links.hpp"
#include "model/presets.hpp"
#include "model/small_allreduce.hpp"

namespace commlab {

/// Parameters of one transformer layer that every token multiplies through: attention
/// (Q and O: hidden x q_heads*head_dim, K and V: hidden x kv_heads*head_dim) and the MLP
/// (gate, up, down: 3 x hidden x ffn; top_k experts for MoE). Llama-3-70B: 855.6 M.
double active_params_per_layer(const ModelPreset& m);

/// Prefill FLOPs of one layer for T tokens on one device (P5 §7.2): 2 x params x T for the
/// matrix products plus 2 x T^2 x q_heads*head_dim for causal attention (QK^T and PV, halved).
double prefill_flops_per_layer(const ModelPreset& m, double tokens);

/// Effective FLOP/s: nominal x MFU (the lecture's 70%, kDefaultMfu).
inline double effective_flops(const GpuPreset& g, double mfu = kDefaultMfu) { return g.flops * mfu; }

/// Time of one prefill layer on each of `tp` GPUs (P5 §7.2: 1.32 ms for TP8, 4,096 tokens).
double prefill_layer_time_s(const ModelPreset& m, double tokens, int tp, double flops_eff);

/// Decode step's weight read on each of `tp` GPUs: weights / tp / (HBM x efficiency) (P5 §5.7).
double weight_read_time_s(const ModelPreset& m, const GpuPreset& g, int tp,
                          double efficiency = kDefaultEfficiency);

enum class Phase { decode, prefill };

/// Tensor parallelism's all-reduces for one forward pass (P5 §6.2): two a layer (after
/// attention, after the MLP), each of tokens x hidden activations.
struct TpCost {
  double allreduce_bytes = 0;          // D of one call
  int allreduces = 0;                  // 2 x layers
  KernelCost call;                     // one call: its cost, and whether a §5.7 kernel runs here
  double comm_time_s = 0;              // all calls, back to back
  double bytes_sent_per_gpu = 0;       // all calls
  double compute_time_s = 0;           // prefill: FLOPs / tp / F_eff; decode: weight read
  double weight_read_time_s = 0;
  // Sequence parallelism (Korthikanti 2022): reduce-scatter + all-gather instead of all-reduce,
  // the same bytes; the norm / residual activations are split by token.
  double sp_bytes_sent_per_gpu = 0;
  double tp_activation_bytes_per_gpu = 0;  // tokens x hidden, replicated
  double sp_activation_bytes_per_gpu = 0;  // tokens / tp x hidden
};
TpCost tp_cost(const ModelPreset& m, const GpuPreset& g, int tp, double tokens, Phase phase,
               const Link& link, const AllreduceKernel& kernel, double mfu = kDefaultMfu,
               double hbm_efficiency = kDefaultEfficiency);

/// The Megatron split run for real on random matrices in double (P5 §6.2, code 04 demo 1).
struct MlpSplitCheck {
  int tokens, hidden, ffn, shards;
  double max_abs_error = 0;        // column / row split vs one device
  double sp_max_abs_error = 0;     // sequence parallel (all-gather, split, reduce-scatter)
  double wrong_max_abs_error = 0;  // row split of gate / up: correct too, but ...
  double correct_bytes = 0;        // ... the right split all-reduces tokens x hidden once
  double wrong_bytes = 0;          // the wrong one tokens x ffn twice (gate and up) before SiLU
  double bytes_ratio = 0;          // 2 ffn / hidden: 7 for Llama-3-70B's shape
};
/// SwiGLU MLP y = (silu(x Wg) * (x Wu)) Wd with Wg, Wu split by column and Wd by row.
MlpSplitCheck check_mlp_split(int tokens, int hidden, int ffn, int shards, std::uint64_t seed = 1);

struct AttentionSplitCheck {
  int tokens, q_heads, kv_heads, head_dim, shards;
  double max_abs_error = 0;  // head split vs one device
};
/// Causal GQA attention split by heads: each shard owns kv_heads/shards KV heads with their
/// query heads and the matching rows of Wo; the partial outputs sum to the full one.
AttentionSplitCheck check_attention_split(int tokens, int q_heads, int kv_heads, int head_dim,
                                          int shards, std::uint64_t seed = 2);

/// Expert parallelism (P5 §6.4): dispatch and combine all-to-alls of one step.
struct EpCost {
  double tokens_per_gpu = 0;
  double remote_fraction = 0;               // (ep-1)/ep of a token's experts sit elsewhere
  double dispatch_bytes_per_gpu_layer = 0;  // uniform routing, sent by each GPU
  double bytes_per_gpu_step = 0;            // dispatch + combine, all MoE layers
  double hot_probability = 0;               // chance a token picks the hot expert
  double busiest_recv_bytes_layer = 0;      // dispatch bytes the busiest GPU receives (the hot expert's unless hot < 1)
  double mean_recv_bytes_layer = 0;
  std::vector<double> recv_bytes_per_gpu_layer;  // dispatch bytes each GPU receives; [0] holds the hot expert
  double skew = 1;                          // the hot expert's GPU / mean
  double alltoall_time_s = 0;               // one dispatch, paced by the busiest GPU
  double alltoall_alpha_time_s = 0;
  double step_time_s = 0;                   // 2 all-to-alls x layers
};
/// `batch_tokens` tokens a step spread evenly over `ep` GPUs, experts evenly over GPUs; one
/// expert `hot_factor` times as likely as each other, top-k drawn without replacement.
EpCost ep_cost(const ModelPreset& m, int ep, double batch_tokens, double hot_factor, const Link& link);

/// Probability that an expert of weight h among `experts` (the others weight 1) is among the
/// top_k drawn without replacement: 1 - prod_j (E-1-j)/(E-1-j+h).
double hot_expert_probability(int experts, int top_k, double hot_factor);

}  // namespace commlab
