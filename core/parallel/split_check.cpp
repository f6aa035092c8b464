// The Megatron splits checked on random matrices (P5 §6.2): the MLP and attention blocks run
// whole and sharded, and compared. A file of its own so that the wasm build compiles these
// loops for speed (CMakeLists.txt's hot list) while the rest of parallel/ stays small.
#include <algorithm>
#include <cmath>

#include "base/concat.hpp"
#include "base/dense.hpp"
#include "base/error.hpp"
#include "parallel/parallel.hpp"

namespace commlab {

using dense::Mat;

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
    refuse("invalid_value", {"field '", what, "': value ", std::to_string(n),
                             " is not allowed; allowed: a multiple of shards (", std::to_string(shards), ")"});
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
    refuse("invalid_value", {"field 'q_heads': value ", std::to_string(q_heads),
                             " is not allowed; allowed: a multiple of kv_heads (", std::to_string(kv_heads), ")"});
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

}  // namespace commlab
