#include "parallel/ring_attention.hpp"

#include <algorithm>
#include <cmath>

#include "base/concat.hpp"
#include "base/dense.hpp"
#include "base/error.hpp"

namespace commlab {

using dense::Mat;

namespace {

// Global token positions that device i holds.
std::vector<long long> positions(int k, long long n, int i, SequenceLayout layout) {
  std::vector<long long> pos;
  if (layout == SequenceLayout::contiguous) {
    for (long long t = 0; t < n; ++t) pos.push_back(i * n + t);
  } else {
    const long long half = n / 2;
    for (long long t = 0; t < half; ++t) pos.push_back(i * half + t);
    for (long long t = 0; t < half; ++t) pos.push_back((2LL * k - 1 - i) * half + t);
  }
  return pos;
}

}  // namespace

RingAttentionCheck check_ring_attention(int k, int n, int d, bool causal, SequenceLayout layout,
                                        std::uint64_t seed) {
  if (layout == SequenceLayout::zigzag && n % 2 != 0)
    refuse("invalid_value", {"field 'tokens_per_device': value ", std::to_string(n),
                             " is not allowed with layout zigzag; allowed: an even number"});
  const int N = k * n;
  dense::Rng rng(seed);
  const Mat q = dense::random(N, d, rng, 1.0), kk = dense::random(N, d, rng, 1.0),
            v = dense::random(N, d, rng, 1.0);
  const double scale = 1.0 / std::sqrt(double(d));
  auto score = [&](int i, int j) {
    double s = 0;
    for (int c = 0; c < d; ++c) s += q(i, c) * kk(j, c);
    return s * scale;
  };

  // One device: softmax over every allowed key.
  Mat ref(N, d);
  std::vector<double> p(N);
  for (int i = 0; i < N; ++i) {
    const int last = causal ? i : N - 1;
    double mx = -INFINITY, l = 0;
    for (int j = 0; j <= last; ++j) mx = std::max(mx, p[j] = score(i, j));
    for (int j = 0; j <= last; ++j) l += (p[j] = std::exp(p[j] - mx));
    for (int j = 0; j <= last; ++j)
      for (int c = 0; c < d; ++c) ref(i, c) += p[j] / l * v(j, c);
  }

  // The ring (P5 §6.5): at step j device i holds the KV block of device (i - j) mod k and
  // folds it into its running max m, sum l and unnormalised output acc.
  RingAttentionCheck out{k, n, d, causal, layout};
  std::vector<std::vector<long long>> pos(k);
  for (int i = 0; i < k; ++i) pos[i] = positions(k, n, i, layout);
  for (int i = 0; i < k; ++i) {
    std::vector<double> m(n, -INFINITY), l(n, 0.0);
    Mat acc(n, d);
    for (int step = 0; step < k; ++step) {
      const std::vector<long long>& keys = pos[((i - step) % k + k) % k];
      for (int a = 0; a < n; ++a) {
        const long long qi = pos[i][a];
        double block_max = -INFINITY;
        std::vector<double> s(n, -INFINITY);
        for (int b = 0; b < n; ++b)
          if (!causal || keys[b] <= qi) block_max = std::max(block_max, s[b] = score(int(qi), int(keys[b])));
        if (block_max == -INFINITY) continue;  // fully masked block: nothing to merge
        const double m_new = std::max(m[a], block_max);
        const double rescale = std::exp(m[a] - m_new);  // exp(-inf) = 0 on the first block
        l[a] *= rescale;
        for (int c = 0; c < d; ++c) acc(a, c) *= rescale;
        for (int b = 0; b < n; ++b) {
          if (s[b] == -INFINITY) continue;
          const double w = std::exp(s[b] - m_new);
          l[a] += w;
          for (int c = 0; c < d; ++c) acc(a, c) += w * v(int(keys[b]), c);
        }
        m[a] = m_new;
      }
    }
    for (int a = 0; a < n; ++a)
      for (int c = 0; c < d; ++c) {
        const double o = acc(a, c) / l[a];
        out.max_abs_error = std::max(out.max_abs_error, std::fabs(o - ref(int(pos[i][a]), c)));
        out.max_abs_output = std::max(out.max_abs_output, std::fabs(o));
      }
  }
  return out;
}

RingAttentionCost ring_attention_cost(const ModelPreset& m, double F, const Link& link, double n) {
  RingAttentionCost c;
  c.flops_per_token2 = 4.0 * m.head_dim * m.q_heads;  // Llama-3-70B: 32,768
  c.kv_bytes_per_token = kv_bytes_per_token_layer(m);  // Llama-3-70B: 4,096 B
  // P5 §6.5: compute grows as n^2, the KV block as n; they cross at n* = F b / (f beta).
  c.threshold_tokens = F * c.kv_bytes_per_token / (c.flops_per_token2 * link.beta_Bps);
  const double a = c.flops_per_token2 / F, b = c.kv_bytes_per_token / link.beta_Bps;
  c.threshold_with_alpha_tokens = (b + std::sqrt(b * b + 4 * a * link.alpha_s)) / (2 * a);
  c.compute_time_s = a * n * n;
  c.transfer_time_s = link.alpha_s + b * n;
  c.hidden = n >= c.threshold_tokens;
  c.hidden_with_alpha = c.compute_time_s >= c.transfer_time_s;
  c.hiding_case = c.hidden_with_alpha ? "hidden" : c.hidden ? "alpha_exposes" : "exposed";
  return c;
}

CausalBalance causal_balance(int k, long long n, SequenceLayout layout) {
  if (layout == SequenceLayout::zigzag && n % 2 != 0)
    refuse("invalid_value", {"field 'tokens_per_device': value ", std::to_string(n),
                             " is not allowed with layout zigzag; allowed: an even number"});
  CausalBalance r;
  r.work_pairs.assign(k, 0.0);
  // Pairs (q, key) with key <= q between two devices' tokens: each holds one run of consecutive
  // positions (two for zig-zag), so each pair of runs sums in closed form: the sum over q in
  // [a, b] of clamp(q - lo + 1, 0, hi - lo + 1).
  auto run_pairs = [](long long a, long long b, long long lo, long long hi) {
    double total = 0;
    const long long ramp_a = std::max(a, lo), ramp_b = std::min(b, hi);
    if (ramp_a <= ramp_b)  // q - lo + 1 for q in [ramp_a, ramp_b]
      total += (double(ramp_a - lo + 1) + double(ramp_b - lo + 1)) * double(ramp_b - ramp_a + 1) / 2;
    const long long flat_a = std::max(a, hi + 1);
    if (flat_a <= b) total += double(b - flat_a + 1) * double(hi - lo + 1);
    return total;
  };
  std::vector<std::vector<std::pair<long long, long long>>> rs(k);
  for (int i = 0; i < k; ++i) {
    if (layout == SequenceLayout::contiguous) {
      rs[i] = {{i * n, (i + 1) * n - 1}};
    } else {
      const long long h = n / 2, j = 2LL * k - 1 - i;
      rs[i] = {{i * h, (i + 1) * h - 1}, {j * h, (j + 1) * h - 1}};
    }
  }
  auto pairs = [&](int qi, int ki) {
    double total = 0;
    for (auto [a, b] : rs[qi])
      for (auto [lo, hi] : rs[ki]) total += run_pairs(a, b, lo, hi);
    return total;
  };
  double total = 0;
  for (int step = 0; step < k; ++step) {
    double busiest = 0;
    for (int i = 0; i < k; ++i) {
      const double w = pairs(i, ((i - step) % k + k) % k);
      r.work_pairs[i] += w;
      busiest = std::max(busiest, w);
      total += w;
    }
    r.ring_pairs += busiest;
  }
  r.ring_pairs_ideal = total / k;
  r.imbalance = *std::max_element(r.work_pairs.begin(), r.work_pairs.end()) / (total / k);
  return r;
}

}  // namespace commlab
