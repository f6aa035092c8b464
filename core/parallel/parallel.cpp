#include "parallel/parallel.hpp"

#include <algorithm>
#include <cmath>

#include "base/dense.hpp"
#include "base/error.hpp"

namespace commlab {

using dense::Mat;

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
               const Link& link, AllreduceAlgorithm algorithm, double mfu, double hbm_efficiency) {
  TpCost c;
  c.allreduce_bytes = tokens * m.hidden * m.activation_bytes;
  c.allreduces = 2 * m.layers;  // P5 §6.2: after attention and after the MLP
  c.per_call = allreduce_cost(algorithm, tp, c.allreduce_bytes, link);
  c.comm_time_s = c.allreduces * c.per_call.time_s;
  c.bytes_sent_per_gpu = c.allreduces * c.per_call.bytes_sent_per_device;
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

namespace {

double silu(double z) { return z / (1.0 + std::exp(-z)); }

// h = silu(g) * u, elementwise.
Mat swiglu(const Mat& g, const Mat& u) {
  Mat h(g.rows, g.cols);
  for (size_t i = 0; i < h.v.size(); ++i) h.v[i] = silu(g.v[i]) * u.v[i];
  return h;
}

void require_divisible(const char* what, int n, int shards) {
  if (shards < 1 || n % shards != 0)
    throw RequestError("invalid_value", "field '" + std::string(what) + "': value " + std::to_string(n) +
                                            " is not allowed; allowed: a multiple of shards (" +
                                            std::to_string(shards) + ")");
}

}  // namespace

MlpSplitCheck check_mlp_split(int T, int d, int f, int k, std::uint64_t seed) {
  require_divisible("ffn", f, k);
  require_divisible("hidden", d, k);
  require_divisible("tokens", T, k);
  dense::Rng rng(seed);
  const Mat x = dense::random(T, d, rng, 1.0);
  const Mat wg = dense::random(d, f, rng, 1.0 / std::sqrt(d));
  const Mat wu = dense::random(d, f, rng, 1.0 / std::sqrt(d));
  const Mat wd = dense::random(f, d, rng, 1.0 / std::sqrt(f));
  const Mat y = dense::matmul(swiglu(dense::matmul(x, wg), dense::matmul(x, wu)), wd);

  MlpSplitCheck out{T, d, f, k};
  // Megatron: Wg, Wu by column, Wd by row; SiLU and the product stay local (P5 §6.2).
  const int fk = f / k;
  Mat sum(T, d);
  for (int s = 0; s < k; ++s) {
    const Mat h = swiglu(dense::matmul(x, dense::cols(wg, s * fk, (s + 1) * fk)),
                         dense::matmul(x, dense::cols(wu, s * fk, (s + 1) * fk)));
    dense::add_into(sum, dense::matmul(h, dense::rows(wd, s * fk, (s + 1) * fk)));  // the all-reduce
  }
  out.max_abs_error = dense::max_abs_diff(sum, y);

  // Sequence parallel: each shard holds T/k tokens; all-gather, the same split, and a
  // reduce-scatter that leaves each shard the sum for its own tokens.
  const int tk = T / k;
  Mat gathered(T, d);
  for (int s = 0; s < k; ++s) {
    const Mat mine = dense::rows(x, s * tk, (s + 1) * tk);
    for (int i = 0; i < tk; ++i)
      for (int j = 0; j < d; ++j) gathered(s * tk + i, j) = mine(i, j);
  }
  std::vector<Mat> sp_partial;
  for (int s = 0; s < k; ++s) {
    const Mat h = swiglu(dense::matmul(gathered, dense::cols(wg, s * fk, (s + 1) * fk)),
                         dense::matmul(gathered, dense::cols(wu, s * fk, (s + 1) * fk)));
    sp_partial.push_back(dense::matmul(h, dense::rows(wd, s * fk, (s + 1) * fk)));
  }
  for (int r = 0; r < k; ++r) {  // reduce-scatter: shard r sums everyone's rows of its tokens
    Mat own(tk, d);
    for (int s = 0; s < k; ++s) dense::add_into(own, dense::rows(sp_partial[s], r * tk, (r + 1) * tk));
    out.sp_max_abs_error =
        std::max(out.sp_max_abs_error, dense::max_abs_diff(own, dense::rows(y, r * tk, (r + 1) * tk)));
  }

  // The wrong split: Wg, Wu by row (x by column). Each shard holds a partial sum of the whole
  // T x ffn pre-activation, which must be all-reduced before the non-linear SiLU, for the gate
  // and for the up projection.
  const int dk = d / k;
  Mat g(T, f), u(T, f);
  for (int s = 0; s < k; ++s) {
    const Mat xs = dense::cols(x, s * dk, (s + 1) * dk);
    dense::add_into(g, dense::matmul(xs, dense::rows(wg, s * dk, (s + 1) * dk)));
    dense::add_into(u, dense::matmul(xs, dense::rows(wu, s * dk, (s + 1) * dk)));
  }
  out.wrong_max_abs_error = dense::max_abs_diff(dense::matmul(swiglu(g, u), wd), y);
  const double bytes_per_value = 2;  // BF16 activations
  out.correct_bytes = double(T) * d * bytes_per_value;
  out.wrong_bytes = 2.0 * T * f * bytes_per_value;
  out.bytes_ratio = out.wrong_bytes / out.correct_bytes;
  return out;
}

namespace {

// Causal attention of one query head against one KV head: softmax(Q K^T / sqrt(d)) V.
Mat causal_attention(const Mat& q, const Mat& kk, const Mat& v) {
  const int T = q.rows, d = q.cols;
  Mat o(T, v.cols);
  std::vector<double> p(T);
  for (int i = 0; i < T; ++i) {
    double mx = -INFINITY;
    for (int j = 0; j <= i; ++j) {
      double s = 0;
      for (int c = 0; c < d; ++c) s += q(i, c) * kk(j, c);
      p[j] = s / std::sqrt(double(d));
      mx = std::max(mx, p[j]);
    }
    double l = 0;
    for (int j = 0; j <= i; ++j) l += (p[j] = std::exp(p[j] - mx));
    for (int j = 0; j <= i; ++j)
      for (int c = 0; c < v.cols; ++c) o(i, c) += p[j] / l * v(j, c);
  }
  return o;
}

// The attention block for a set of KV heads [g0, g1) and their query heads, projected by the
// matching rows of Wo: one shard's partial output (the full output when it owns every head).
Mat attention_heads(const Mat& x, const Mat& wq, const Mat& wk, const Mat& wv, const Mat& wo,
                    int q_heads, int kv_heads, int hd, int g0, int g1) {
  const int group = q_heads / kv_heads;
  Mat out(x.rows, wo.cols);
  for (int g = g0; g < g1; ++g) {
    const Mat kk = dense::matmul(x, dense::cols(wk, g * hd, (g + 1) * hd));
    const Mat v = dense::matmul(x, dense::cols(wv, g * hd, (g + 1) * hd));
    for (int h = g * group; h < (g + 1) * group; ++h) {
      const Mat q = dense::matmul(x, dense::cols(wq, h * hd, (h + 1) * hd));
      const Mat o = causal_attention(q, kk, v);
      dense::add_into(out, dense::matmul(o, dense::rows(wo, h * hd, (h + 1) * hd)));
    }
  }
  return out;
}

}  // namespace

AttentionSplitCheck check_attention_split(int T, int q_heads, int kv_heads, int hd, int k,
                                          std::uint64_t seed) {
  require_divisible("kv_heads", kv_heads, k);
  if (kv_heads < 1 || q_heads % kv_heads != 0)
    throw RequestError("invalid_value", "field 'q_heads': value " + std::to_string(q_heads) +
                                            " is not allowed; allowed: a multiple of kv_heads (" +
                                            std::to_string(kv_heads) + ")");
  dense::Rng rng(seed);
  const int d = q_heads * hd;
  const Mat x = dense::random(T, d, rng, 1.0);
  const Mat wq = dense::random(d, q_heads * hd, rng, 1.0 / std::sqrt(d));
  const Mat wk = dense::random(d, kv_heads * hd, rng, 1.0 / std::sqrt(d));
  const Mat wv = dense::random(d, kv_heads * hd, rng, 1.0 / std::sqrt(d));
  const Mat wo = dense::random(q_heads * hd, d, rng, 1.0 / std::sqrt(d));
  const Mat full = attention_heads(x, wq, wk, wv, wo, q_heads, kv_heads, hd, 0, kv_heads);
  Mat sum(T, d);
  const int per = kv_heads / k;
  for (int s = 0; s < k; ++s)
    dense::add_into(sum, attention_heads(x, wq, wk, wv, wo, q_heads, kv_heads, hd, s * per, (s + 1) * per));
  return {T, q_heads, kv_heads, hd, k, dense::max_abs_diff(sum, full)};
}

double hot_expert_probability(int E, int top_k, double h) {
  double not_chosen = 1;
  for (int j = 0; j < top_k && j < E; ++j) not_chosen *= (E - 1.0 - j) / (E - 1.0 - j + h);
  return 1 - not_chosen;
}

EpCost ep_cost(const ModelPreset& m, int ep, double B, double hot, const Link& link) {
  if (m.experts < 1 || m.top_k < 1)
    throw RequestError("invalid_value", "field 'model': value '" + m.id + "' is not allowed; allowed: "
                                            "a MoE model (experts >= 1, top_k >= 1)");
  if (ep < 1 || m.experts % ep != 0)
    throw RequestError("invalid_value", "field 'ep': value " + std::to_string(ep) +
                                            " is not allowed; allowed: a divisor of the model's " +
                                            std::to_string(m.experts) + " experts");
  EpCost c;
  const double token_bytes = m.hidden * m.activation_bytes;
  c.tokens_per_gpu = B / ep;
  c.remote_fraction = (ep - 1.0) / ep;
  // P5 §6.4: every token goes to top_k experts; the (ep-1)/ep on other GPUs cross the network.
  c.dispatch_bytes_per_gpu_layer = c.tokens_per_gpu * m.top_k * c.remote_fraction * token_bytes;
  c.bytes_per_gpu_step = 2 * m.layers * c.dispatch_bytes_per_gpu_layer;  // dispatch + combine
  // Skew (P5 §4.3): the hot expert's GPU receives its picks plus those of its co-located experts.
  const int E = m.experts, per_gpu = E / ep;
  c.hot_probability = hot_expert_probability(E, m.top_k, hot);
  const double other = E > 1 ? (m.top_k - c.hot_probability) / (E - 1.0) : 0;
  const double picks_hot_gpu = c.hot_probability + (per_gpu - 1) * other;
  c.busiest_recv_bytes_layer = B * picks_hot_gpu * c.remote_fraction * token_bytes;
  c.mean_recv_bytes_layer = c.dispatch_bytes_per_gpu_layer;
  // As picks, not bytes: with ep = 1 nothing is received and bytes would give 0/0; the hot
  // GPU's share of picks over the mean share is the same ratio and defined for every ep.
  c.skew = picks_hot_gpu * ep / m.top_k;
  // Pairwise all-to-all: ep-1 rounds of alpha; the busiest receiver sets the byte time.
  c.alltoall_alpha_time_s = (ep - 1) * link.alpha_s;
  const double busiest = std::max(c.busiest_recv_bytes_layer, c.mean_recv_bytes_layer);
  c.alltoall_time_s = c.alltoall_alpha_time_s + busiest / link.beta_Bps;
  c.step_time_s = 2 * m.layers * c.alltoall_time_s;
  return c;
}

}  // namespace commlab
