#include "parallel/parallel.hpp"

#include <algorithm>
#include <cmath>

#include "base/concat.hpp"
#include "base/error.hpp"

namespace commlab {

double active_params_per_layer(const ModelPreset& m) {
  const double h = m.hidden;
  const double attention = 2.0 * h * m.q_heads * m.head_dim + 2.0 * h * m.kv_heads * m.head_dim;
  const double experts = m.experts > 0 ? m.top_k : 1;
  return attention + experts * 3.0 * h * m.ffn;
}

double prefill_flops_per_layer(const ModelPreset& m, double T) {
  // P5 §7.2: matrix products 2 x params x T; causal attention QK^T + PV = 4 T^2 d_attn, halved.
  return 2.0 * active_params_per_layer(m) * T + 2.0 * T * T * m.q_heads * m.head_dim;
}

double prefill_layer_time_s(const ModelPreset& m, double tokens, int tp, double flops_eff) {
  return prefill_flops_per_layer(m, tokens) / tp / flops_eff;
}

double weight_read_time_s(const ModelPreset& m, const GpuPreset& g, int tp, double efficiency) {
  return m.weight_bytes / tp / (g.hbm_Bps * efficiency);
}

TpCost tp_cost(const ModelPreset& m, const GpuPreset& g, int tp, double tokens, Phase phase,
               const Link& link, const AllreduceKernel& kernel, double mfu, double hbm_efficiency) {
  TpCost c;
  c.allreduce_bytes = tokens * m.hidden * m.activation_bytes;
  c.allreduces = 2 * m.layers;  // P5 §6.2: after attention and after the MLP
  c.call = allreduce_kernel_cost(kernel, tp, c.allreduce_bytes, link);
  c.comm_time_s = c.allreduces * c.call.cost.time_s;
  c.bytes_sent_per_gpu = c.allreduces * c.call.cost.bytes_sent_per_device;
  c.weight_read_time_s = weight_read_time_s(m, g, tp, hbm_efficiency);
  c.compute_time_s = phase == Phase::prefill
                         ? m.layers * prefill_layer_time_s(m, tokens, tp, effective_flops(g, mfu))
                         : c.weight_read_time_s;
  // Ring reduce-scatter + all-gather: (k-1)/k D each, the all-reduce's bytes (P5 §4.1).
  c.sp_bytes_sent_per_gpu = c.allreduces * allreduce_lower_bound_bytes(tp, c.allreduce_bytes);
  c.tp_activation_bytes_per_gpu = c.allreduce_bytes;
  c.sp_activation_bytes_per_gpu = c.allreduce_bytes / tp;
  return c;
}

double hot_expert_probability(int E, int top_k, double h) {
  double not_chosen = 1;
  for (int j = 0; j < top_k && j < E; ++j) not_chosen *= (E - 1.0 - j) / (E - 1.0 - j + h);
  return 1 - not_chosen;
}

EpCost ep_cost(const ModelPreset& m, int ep, double B, double hot, const Link& link) {
  if (m.experts < 1 || m.top_k < 1)
    refuse("invalid_value", {"field 'model': value '", m.id,
                             "' is not allowed; allowed: "
                             "a MoE model (experts >= 1, top_k >= 1)"});
  if (ep < 1 || m.experts % ep != 0)
    refuse("invalid_value",
           {"field 'ep': value ", std::to_string(ep), " is not allowed; allowed: a divisor of the model's ",
            std::to_string(m.experts), " experts"});
  EpCost c;
  const double token_bytes = m.hidden * m.activation_bytes;
  c.tokens_per_gpu = B / ep;
  c.remote_fraction = (ep - 1.0) / ep;
  // P5 §6.4: every token goes to top_k experts; the (ep-1)/ep on other GPUs cross the network.
  c.dispatch_bytes_per_gpu_layer = c.tokens_per_gpu * m.top_k * c.remote_fraction * token_bytes;
  c.bytes_per_gpu_step = 2 * moe_layers(m) * c.dispatch_bytes_per_gpu_layer;  // dispatch + combine
  // Skew (P5 §4.3): the hot expert's GPU receives its picks plus those of its co-located experts.
  const int E = m.experts, per_gpu = E / ep;
  c.hot_probability = hot_expert_probability(E, m.top_k, hot);
  const double other = E > 1 ? (m.top_k - c.hot_probability) / (E - 1.0) : 0;
  const double picks_hot_gpu = c.hot_probability + (per_gpu - 1) * other;
  c.mean_recv_bytes_layer = c.dispatch_bytes_per_gpu_layer;
  // Each other GPU holds per_gpu cold experts; the picks over all GPUs sum to top_k (P5 §4.3).
  c.recv_bytes_per_gpu_layer.assign(ep, B * per_gpu * other * c.remote_fraction * token_bytes);
  c.recv_bytes_per_gpu_layer[0] = B * picks_hot_gpu * c.remote_fraction * token_bytes;
  // The busiest receiver: the hot expert's GPU, or, when that expert is colder than the rest
  // (hot < 1), any other GPU.
  c.busiest_recv_bytes_layer = *std::max_element(c.recv_bytes_per_gpu_layer.begin(), c.recv_bytes_per_gpu_layer.end());
  // As picks, not bytes: with ep = 1 nothing is received and bytes would give 0/0; the hot
  // GPU's share of picks over the mean share is the same ratio and defined for every ep.
  c.skew = picks_hot_gpu * ep / m.top_k;
  // Pairwise all-to-all: ep-1 rounds of alpha; the busiest receiver sets the byte time.
  c.alltoall_alpha_time_s = (ep - 1) * link.alpha_s;
  c.alltoall_time_s = c.alltoall_alpha_time_s + c.busiest_recv_bytes_layer / link.beta_Bps;
  c.step_time_s = 2 * moe_layers(m) * c.alltoall_time_s;
  return c;
}

}  // namespace commlab
